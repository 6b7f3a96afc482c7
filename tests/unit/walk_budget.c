// SPDX-License-Identifier: MIT
/*
 * common/subtree: the walker's budget (depth, entries) and CG_WALK_KEEP_GOING on a plain tree
 * under /tmp, and the walks built on them: cg_thaw_tree's depth bound and errors on a fixture v1
 * freezer hierarchy (its writes are refused off cgroupfs, which is how a visit shows). As root,
 * in a mount namespace of its own, a tmpfs over one directory makes the walk's own open fail
 * (EXDEV: a mount crossed), for the error that a walk goes past or ends at.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cgroups/freeze.h"
#include "kernel/subtree.h"

static char top[] = "/tmp/cgkit-walk-test.XXXXXX";

/* What a walk saw, "path@depth" joined by '|'; fail_at's fn returns fail_err there. */
struct seen {
	char log[4096];
	const char *fail_at[2];
	int fail_err[2];
	const char *stop_at;
};

static int record(int rootfd, const char *path, int depth, void *ctx)
{
	struct seen *s = ctx;
	size_t used = strlen(s->log);

	snprintf(s->log + used, sizeof(s->log) - used, "%s%s@%d", used ? "|" : "", path, depth);
	for (int i = 0; i < 2; i++)
		if (s->fail_at[i] && !strcmp(path, s->fail_at[i]))
			return s->fail_err[i];
	if (s->stop_at && !strcmp(path, s->stop_at))
		return CG_WALK_STOP;
	return 0;
}

static void mk(const char *rel)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", top, rel);
	CHECK_INT(system(cmd), 0);
}

static int walk(int fd, const char *path, unsigned flags, const struct cg_walk_budget *b,
		struct seen *s)
{
	s->log[0] = '\0';
	return cg_walk_fd(fd, path, flags, b, record, s);
}

/* tree: a/b/c, a/d, z */
static void test_budget(int fd)
{
	struct seen s = { 0 };

	CHECK_INT(walk(fd, "t", 0, NULL, &s), 0);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2|t/a/b/c@3|t/a/d@2|t/z@1");
	/* the cgroups at max_depth are visited, not listed */
	CHECK_INT(walk(fd, "t", 0, &(struct cg_walk_budget){ .max_depth = 2 }, &s), 0);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2|t/a/d@2|t/z@1");
	CHECK_INT(walk(fd, "t", 0, &(struct cg_walk_budget){ .max_depth = 1 }, &s), 0);
	CHECK_STR(s.log, "t@0|t/a@1|t/z@1");
	/* entries below path: five fit in five; the fourth of three ends the walk unopened */
	CHECK_INT(walk(fd, "t", 0, &(struct cg_walk_budget){ .max_entries = 5 }, &s), 0);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2|t/a/b/c@3|t/a/d@2|t/z@1");
	CHECK_INT(walk(fd, "t", 0, &(struct cg_walk_budget){ .max_entries = 3 }, &s), -E2BIG);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2|t/a/b/c@3");
	/* what the depth leaves out is not counted */
	CHECK_INT(
		walk(fd, "t", 0, &(struct cg_walk_budget){ .max_depth = 1, .max_entries = 2 }, &s),
		0);
	CHECK_STR(s.log, "t@0|t/a@1|t/z@1");
	/* a budget does not make a missing start anything but missing */
	CHECK_INT(walk(fd, "nothing", 0, &(struct cg_walk_budget){ .max_depth = 1 }, &s), -ENOENT);
	CHECK_STR(s.log, "");
	/* post-order within a depth */
	CHECK_INT(walk(fd, "t", CG_WALK_POST, &(struct cg_walk_budget){ .max_depth = 2 }, &s), 0);
	CHECK_STR(s.log, "t/a/b@2|t/a/d@2|t/a@1|t/z@1|t@0");
}

static void test_keep_going(int fd)
{
	struct seen s = { .fail_at = { "t/a", "t/z" }, .fail_err = { -EIO, -EPERM } };

	/* fn's error ends a walk */
	CHECK_INT(walk(fd, "t", 0, NULL, &s), -EIO);
	CHECK_STR(s.log, "t@0|t/a@1");
	/* or not: a's children are still visited, and the first error is the walk's */
	CHECK_INT(walk(fd, "t", CG_WALK_KEEP_GOING, NULL, &s), -EIO);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2|t/a/b/c@3|t/a/d@2|t/z@1");
	CHECK_INT(walk(fd, "t", CG_WALK_KEEP_GOING | CG_WALK_POST, NULL, &s), -EIO);
	CHECK_STR(s.log, "t/a/b/c@3|t/a/b@2|t/a/d@2|t/a@1|t/z@1|t@0");
	/* at path itself too */
	s.fail_at[0] = "t";
	CHECK_INT(walk(fd, "t", CG_WALK_KEEP_GOING, NULL, &s), -EIO);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2|t/a/b/c@3|t/a/d@2|t/z@1");
	/* a search's stop and the budget still end it */
	s.stop_at = "t/a/b";
	CHECK_INT(walk(fd, "t", CG_WALK_KEEP_GOING, NULL, &s), CG_WALK_STOP);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/b@2");
	s.stop_at = NULL;
	CHECK_INT(
		walk(fd, "t", CG_WALK_KEEP_GOING, &(struct cg_walk_budget){ .max_entries = 1 }, &s),
		-E2BIG);
	CHECK_STR(s.log, "t@0|t/a@1");
	/* a vanished cgroup below path is no error, kept going or not */
	s.fail_at[0] = "t/a";
	s.fail_err[0] = -ENOENT;
	s.fail_at[1] = NULL;
	CHECK_INT(walk(fd, "t", CG_WALK_KEEP_GOING, NULL, &s), 0);
	CHECK_STR(s.log, "t@0|t/a@1|t/z@1");
	CHECK_INT(walk(fd, "t", 0, NULL, &s), 0);
	CHECK_STR(s.log, "t@0|t/a@1|t/z@1");
}

/*
 * A fixture v1 freezer hierarchy h at top/f, levels deep: freezer.state everywhere, frozen
 * where asked. Made anew, so h's root fd is opened anew.
 */
static void freezer_tree(struct cg_hier *h, int levels, const char *frozen_rel)
{
	char cmd[1024], rel[512] = "f";

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/f'", top);
	CHECK_INT(system(cmd), 0);
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	for (int i = 0; i <= levels; i++) {
		mk(rel);
		check_put(top, strcat(strcpy(cmd, rel), "/freezer.state"), "THAWED\n");
		strcat(rel, "/d");
	}
	if (frozen_rel) {
		snprintf(cmd, sizeof(cmd), "f%s%s/freezer.state", *frozen_rel ? "/" : "",
			 frozen_rel);
		check_put(top, cmd, "FROZEN\n");
	}
}

/* "d/d/.../d", n levels */
static const char *deep(int n)
{
	static char buf[512];

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		strcat(buf, i ? "/d" : "d");
	return buf;
}

static void test_thaw(struct cg_hier *h)
{
	/* a frozen cgroup is written, which a plain tree refuses: visited */
	freezer_tree(h, 3, deep(2));
	CHECK_INT(cg_thaw_tree(h, ""), -ENXIO);
	freezer_tree(h, 3, NULL);
	CHECK_INT(cg_thaw_tree(h, ""), 0);
	/* 65 levels below path are thawed, the 66th is not reached */
	freezer_tree(h, 67, deep(65));
	CHECK_INT(cg_thaw_tree(h, ""), -ENXIO);
	freezer_tree(h, 67, deep(66));
	CHECK_INT(cg_thaw_tree(h, ""), 0);
	CHECK_INT(cg_thaw_tree(h, "d"), -ENXIO);
	/* a subtree that is not there has nothing to thaw */
	CHECK_INT(cg_thaw_tree(h, "nothing"), 0);
}

/* tmpfs over t/a/b: the walk's open of it crosses a mount (EXDEV) */
static void test_open_errors(struct cg_hier *h)
{
	struct seen s = { 0 };
	char path[256];
	int fd;

	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		puts("# the walk's own open failing: needs root (a mount namespace): not tested");
		return;
	}
	/* an fd opened before the unshare walks the old namespace's mounts */
	fd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	snprintf(path, sizeof(path), "%s/t/a/b", top);
	CHECK_INT(mount("tmpfs", path, "tmpfs", 0, "size=64k"), 0);
	CHECK_INT(walk(fd, "t", 0, NULL, &s), -EXDEV);
	CHECK_STR(s.log, "t@0|t/a@1");
	/* skipped with its subtree, the rest walked, the error said at the end */
	CHECK_INT(walk(fd, "t", CG_WALK_KEEP_GOING, NULL, &s), -EXDEV);
	CHECK_STR(s.log, "t@0|t/a@1|t/a/d@2|t/z@1");
	CHECK_INT(umount(path), 0);
	close(fd);

	/* a thaw thaws past what it cannot open, and says so */
	freezer_tree(h, 3, NULL);
	snprintf(path, sizeof(path), "%s/f/d", top);
	CHECK_INT(mount("tmpfs", path, "tmpfs", 0, "size=64k"), 0);
	CHECK_INT(cg_thaw_tree(h, ""), -EXDEV);
	CHECK_INT(umount(path), 0);
}

int main(void)
{
	char *controllers[] = { "freezer", NULL };
	struct cg_hier h = { .version = 1, .root = "/", .label = "freezer", .fd = -1 };
	char cmd[256], mp[128];
	int fd;

	CHECK(mkdtemp(top) != NULL);
	mk("t/a/b/c");
	mk("t/a/d");
	mk("t/z");
	fd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	test_budget(fd);
	test_keep_going(fd);

	snprintf(mp, sizeof(mp), "%s/f", top);
	h.mountpoint = mp;
	h.controllers = controllers;
	test_thaw(&h);
	test_open_errors(&h);
	if (h.fd >= 0)
		close(h.fd);
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	CHECK_INT(system(cmd), 0);
	return CHECK_DONE();
}
