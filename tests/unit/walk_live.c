// SPDX-License-Identifier: MIT
/*
 * common/cgroup: cg_walk on the live unified hierarchy (pre- and post-order, depth, the order of
 * children, a stop, a prune, a child removed during the walk, names with control characters and
 * bytes that are no UTF-8), and the subtree operations built on it (cg_has_children,
 * cg_populated, cg_signal, cg_remove_check, a recursive cg_remove) over such names. Sandbox
 * cgkit-test.<pid> at the top of the unified hierarchy, removed on every path (a signal too).
 * Skips (77) without root or a unified mount.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "ops/remove.h"
#include "check.h"
#include "live.h"
#include "kernel/mount.h"

static int ufd = -1;
static char sb[64];
static volatile pid_t child = -1;

static void cleanup(void)
{
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = -1;
	}
	if (ufd >= 0 && sb[0])
		live_remove(ufd, sb);
}

static void on_signal(int sig)
{
	cleanup();
	_exit(128 + sig);
}

/* What a walk saw: each path below the sandbox with its depth, "path@depth" joined by '|'. */
struct seen {
	char log[4096];
	const char *stop_at, *prune_at, *fail_at, *gone_at, *remove_at, *remove;
	int fail_err;
};

static int record(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct seen *s = ctx;
	size_t len = strlen(sb);
	const char *rel = !strncmp(path, sb, len) ? path + len + (path[len] == '/') : path;
	size_t used = strlen(s->log);

	snprintf(s->log + used, sizeof(s->log) - used, "%s%s@%d", used ? "|" : "", rel, depth);
	if (s->remove_at && !strcmp(rel, s->remove_at)) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s", sb, s->remove);
		if (unlinkat(ufd, p, AT_REMOVEDIR) < 0)
			perror("remove during the walk");
	}
	if (s->stop_at && !strcmp(rel, s->stop_at))
		return CG_WALK_STOP;
	if (s->prune_at && !strcmp(rel, s->prune_at))
		return CG_WALK_PRUNE;
	if (s->fail_at && !strcmp(rel, s->fail_at))
		return s->fail_err;
	if (s->gone_at && !strcmp(rel, s->gone_at))
		return -ENOENT;
	return 0;
}

static int walk(const struct cg_hier *u, unsigned flags, struct seen *s)
{
	s->log[0] = '\0';
	return cg_walk(u, sb, flags, record, s);
}

static int mk(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", sb, rel);
	if (mkdirat(ufd, p, 0755) < 0) {
		fprintf(stderr, "mkdir %s: %s\n", rel, strerror(errno));
		return -1;
	}
	return 0;
}

/* Names as a delegatee may make them: ESC, tab, DEL, a byte that is no UTF-8, a backslash. */
#define ODD   "c\x1b[31m"
#define TAB   "t\tab"
#define BAD   "z\xff"
#define BS    "x\\y"
#define TREE  "|a@1|a/a1@2|a/a2@2|b@1|" ODD "@1|" ODD "/" TAB "@2|" BS "@1|" BAD "@1"
#define SPACE " sp"

static int build(void)
{
	static const char *const dirs[] = { SPACE, "a",		"a/a2", "a/a1", "b",
					    ODD,   ODD "/" TAB, BS,	BAD };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (mk(dirs[i]) < 0)
			return -1;
	return 0;
}

static int rmdirs_seen;

static void on_step(const struct cg_remove_event *e, void *ctx)
{
	char *log = ctx;
	size_t used = strlen(log), len = strlen(sb);
	const char *rel = e->path + len + (e->path[len] == '/');

	if (e->what != CG_REMOVE_RMDIR)
		return;
	rmdirs_seen++;
	snprintf(log + used, 4096 - used, "%s%s", used ? "|" : "", e->path[len] ? rel : "(top)");
}

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_hier *u;
	struct seen s = { 0 };
	struct cg_diag d = { 0 };
	char path[256], quoted[512], log[4096] = "";
	int pipefd[2] = { -1, -1 }, r;

	r = live_sandbox(&l, &u, &ufd, sb, sizeof(sb), on_signal);
	if (r)
		return r;
	if (build() < 0) {
		check_failures++;
		goto out;
	}

	/* pre-order: the top (depth 0), then each child before its children, names in strcmp order */
	CHECK_INT(walk(u, 0, &s), 0);
	CHECK_STR(s.log, "@0|" SPACE "@1" TREE);
	/* post-order: children first, the top last */
	CHECK_INT(walk(u, CG_WALK_POST, &s), 0);
	CHECK_STR(s.log, SPACE "@1|a/a1@2|a/a2@2|a@1|b@1|" ODD "/" TAB "@2|" ODD "@1|" BS "@1|" BAD
			       "@1|@0");
	/* a stop ends the walk there, and is what cg_walk returns */
	s = (struct seen){ .stop_at = "a/a1" };
	CHECK_INT(walk(u, 0, &s), CG_WALK_STOP);
	CHECK_STR(s.log, "@0|" SPACE "@1|a@1|a/a1@2");
	s = (struct seen){ .fail_at = "b", .fail_err = -EIO };
	CHECK_INT(walk(u, CG_WALK_POST, &s), -EIO);
	CHECK_STR(s.log, SPACE "@1|a/a1@2|a/a2@2|a@1|b@1");
	/* a prune leaves the children out, not the siblings */
	s = (struct seen){ .prune_at = "a" };
	CHECK_INT(walk(u, 0, &s), 0);
	CHECK_STR(s.log, "@0|" SPACE "@1|a@1|b@1|" ODD "@1|" ODD "/" TAB "@2|" BS "@1|" BAD "@1");
	/* a cgroup that says it is gone is skipped below the top, and is the answer at the top */
	s = (struct seen){ .gone_at = ODD };
	CHECK_INT(walk(u, 0, &s), 0);
	CHECK_STR(s.log, "@0|" SPACE "@1|a@1|a/a1@2|a/a2@2|b@1|" ODD "@1|" BS "@1|" BAD "@1");
	s = (struct seen){ .gone_at = "" };
	CHECK_INT(walk(u, 0, &s), -ENOENT);
	/* the top not being there is -ENOENT, nothing is called */
	s.log[0] = '\0';
	snprintf(path, sizeof(path), "%s/nope", sb);
	CHECK_INT(cg_walk(u, path, 0, record, &s), -ENOENT);
	CHECK_STR(s.log, "");
	/* a walk of a leaf sees the leaf */
	snprintf(path, sizeof(path), "%s/" ODD "/" TAB, sb);
	CHECK_INT(cg_walk(u, path, 0, record, &s), 0);
	CHECK_STR(s.log, ODD "/" TAB "@0");

	/* a child listed, then removed before the walk reaches it: skipped, not an error */
	s = (struct seen){ .remove_at = SPACE, .remove = "b" };
	CHECK_INT(walk(u, 0, &s), 0);
	CHECK_STR(s.log, "@0|" SPACE "@1|a@1|a/a1@2|a/a2@2|" ODD "@1|" ODD "/" TAB "@2|" BS
			 "@1|" BAD "@1");
	CHECK_INT(mk("b"), 0);
	s = (struct seen){ .remove_at = "a/a1", .remove = "b" };
	CHECK_INT(walk(u, CG_WALK_POST, &s), 0);
	CHECK_STR(s.log,
		  SPACE "@1|a/a1@2|a/a2@2|a@1|" ODD "/" TAB "@2|" ODD "@1|" BS "@1|" BAD "@1|@0");
	CHECK_INT(mk("b"), 0);

	CHECK_INT(cg_has_children(u, sb), 1);
	snprintf(path, sizeof(path), "%s/b", sb);
	CHECK_INT(cg_has_children(u, path), 0);
	snprintf(path, sizeof(path), "%s/nope", sb);
	CHECK_INT(cg_has_children(u, path), -ENOENT);

	/* a process of ours deep under the odd names: found, counted, refused, then removed */
	CHECK_INT(cg_populated(u, sb), 0);
	CHECK_INT(cg_signal(u, sb, true, 0), 0);
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		perror("pipe");
		check_failures++;
		goto out;
	}
	child = fork();
	if (child == 0) {
		char c;

		close(pipefd[1]);
		/* ends when the test does (its end of the pipe closes), or when killed */
		(void)!read(pipefd[0], &c, 1);
		_exit(0);
	}
	close(pipefd[0]);
	if (child < 0) {
		perror("fork");
		check_failures++;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/" ODD "/" TAB "/cgroup.procs", sb);
	{
		int fd = openat(ufd, path, O_WRONLY | O_CLOEXEC);

		r = fd < 0 ? -1 : dprintf(fd, "%d", (int)child);
		if (fd >= 0)
			close(fd);
	}
	if (r < 0) {
		fprintf(stderr, "cannot place a process in the sandbox: %s\n", strerror(errno));
		check_failures++;
		goto out;
	}
	CHECK_INT(cg_populated(u, sb), 1);
	CHECK_INT(cg_signal(u, sb, true, 0), 1);
	CHECK_INT(cg_signal(u, sb, false, 0), 0);
	{
		struct cg_remove_opts o = { .recursive = true };

		CHECK_INT(cg_remove_check(u, sb, &o, &d), -EBUSY);
		snprintf(path, sizeof(path), "/%s/" ODD "/" TAB, sb);
		CHECK_STR(d.where, cg_quote(path, quoted, sizeof(quoted)));
		CHECK(strchr(d.where, '\x1b') == NULL && strchr(d.where, '\t') == NULL);
		CHECK_STR(d.why, "the cgroup has processes (use -k to stop them)");
		o.recursive = false;
		CHECK_INT(cg_remove_check(u, sb, &o, &d), -EBUSY);
		CHECK_STR(d.why, "the cgroup has child cgroups (use -R)");
	}
	{
		struct cg_remove_opts o = {
			.recursive = true, .signal = SIGKILL, .on_step = on_step, .ctx = log
		};

		r = cg_remove(u, sb, &o, &d);
		if (r < 0)
			fprintf(stderr, "remove: %s\n", cg_diag_format(&d, quoted, sizeof(quoted)));
		CHECK_INT(r, 0);
		/* deepest first, the top last; every name as it is in the directory */
		CHECK_STR(log, SPACE "|a/a1|a/a2|a|b|" ODD "/" TAB "|" ODD "|" BS "|" BAD "|(top)");
		CHECK_INT(rmdirs_seen, 10);
		CHECK(faccessat(ufd, sb, F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT);
		waitpid(child, &r, 0);
		CHECK(WIFSIGNALED(r) && WTERMSIG(r) == SIGKILL);
		child = -1;
	}
out:
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	cleanup();
	cg_layout_free(l);
	return CHECK_DONE();
}
