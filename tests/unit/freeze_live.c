// SPDX-License-Identifier: MIT
/*
 * common/freeze on the live kernel: a sleeping child in a sandbox cgroup frozen and thawed
 * through the freezer API and the state read back; the caller's signal mask untouched by any of
 * it (the library holds back no signal, the tool does); cg_signals_waiting with a pending, an
 * ignored and no signal; v1: the freezer hierarchy found for a target of another hierarchy, a
 * frozen subtree's reason and cg_thaw_tree. Sandboxes cgkit-test.<pid> at the top of the unified
 * and v1 freezer hierarchies, thawed and removed on every exit path (atexit). Skips (77) without
 * root or without either hierarchy.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "base/clock.h"
#include "cgroups/freeze.h"
#include "ops/migrate.h"
#include "kernel/mount.h"

static struct cg_layout *layout;
static const struct cg_hier *v2, *v1fz;
static char sandbox[64], sub_a[96], sub_b[128];
static pid_t child = -1;

static int put(const struct cg_hier *h, const char *dir, const char *file, const char *value)
{
	char path[512];
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", h->mountpoint, dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		r = -errno;
	close(fd);
	return r;
}

static const char *get(const struct cg_hier *h, const char *dir, const char *file)
{
	static char buf[256];
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", h->mountpoint, dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "(unreadable)";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static bool v1_state_is(const char *dir, const char *state)
{
	for (int i = 0; i < 500; i++) {
		if (!strcmp(get(v1fz, dir, "freezer.state"), state))
			return true;
		cg_sleep_ns(NSEC_PER_MSEC);
	}
	return false;
}

static void rm_sandbox(const struct cg_hier *h)
{
	const char *dirs[] = { sub_b, sub_a, sandbox };
	char path[512];

	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", h->mountpoint, dirs[i]);
		/* the reaped child's cgroup may read populated a moment longer */
		for (int k = 0; k < 100 && rmdir(path) < 0 && errno == EBUSY; k++)
			cg_sleep_ns(10 * NSEC_PER_MSEC);
	}
}

/* Every exit: thaw what the test froze, end the child, remove the sandboxes. */
static void cleanup(void)
{
	if (v1fz) {
		put(v1fz, sub_b, "freezer.state", "THAWED");
		put(v1fz, sub_a, "freezer.state", "THAWED");
	}
	if (v2)
		put(v2, sub_a, "cgroup.freeze", "0");
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = -1;
	}
	if (v1fz)
		rm_sandbox(v1fz);
	if (v2)
		rm_sandbox(v2);
	cg_layout_free(layout);
	layout = NULL;
}

static int make_sandbox(const struct cg_hier *h)
{
	const char *dirs[] = { sandbox, sub_a, sub_b };
	struct cg_diag d = { 0 };
	char path[512];

	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", h->mountpoint, dirs[i]);
		if (mkdir(path, 0755) < 0) {
			perror(path);
			return -1;
		}
	}
	if (cg_attach(h, sub_b, child, false, &d) < 0) {
		fprintf(stderr, "move the child into %s: %s\n", h->label, d.why);
		return -1;
	}
	return 0;
}

/* Are SIGINT, SIGTERM, SIGHUP and SIGQUIT as blocked now as in before? */
static bool mask_kept(const sigset_t *before)
{
	sigset_t now, held;

	sigprocmask(SIG_SETMASK, NULL, &now);
	cg_freezer_signals(&held);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&held, sig) == 1 &&
		    sigismember(&now, sig) != sigismember(before, sig))
			return false;
	return true;
}

static void test_signals_waiting(void)
{
	sigset_t usr1, held;
	struct timespec zero = { 0 };

	cg_freezer_signals(&held);
	CHECK(sigismember(&held, SIGINT) == 1 && sigismember(&held, SIGTERM) == 1);
	CHECK(sigismember(&held, SIGHUP) == 1 && sigismember(&held, SIGQUIT) == 1);
	CHECK(sigismember(&held, SIGKILL) == 0 && sigismember(&held, SIGUSR1) == 0);
	CHECK(!cg_signals_waiting(NULL));

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	CHECK(!cg_signals_waiting(&usr1));
	/* blocked, an ignored signal is still queued: it must not count */
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	CHECK(!cg_signals_waiting(&usr1));
	signal(SIGUSR1, SIG_DFL);
	CHECK(cg_signals_waiting(&usr1));
	/* one not in the set does not count either */
	CHECK(!cg_signals_waiting(&held));
	CHECK_INT(sigtimedwait(&usr1, NULL, &zero), SIGUSR1);
	CHECK(!cg_signals_waiting(&usr1));
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
}

static void test_v2(void)
{
	struct cg_target ta = { .hier = (struct cg_hier *)v2, .path = sub_a };
	struct cg_target tb = { .hier = (struct cg_hier *)v2, .path = sub_b };
	struct cg_target both[] = { ta, tb };
	const struct cg_targets ts = { .t = both, .n = 2 };
	struct cg_target tn = { .hier = (struct cg_hier *)v2, .path = (char *)"cgkit-test.none" };
	struct cg_freezer fz = { 0 }, fn;
	struct cg_diag d = { 0 };
	sigset_t before, held;

	cg_freezer_signals(&held);
	CHECK_INT(cg_is_frozen(&tb, &d), 0);
	CHECK_INT(cg_targets_frozen(&ts, &d), 0);
	CHECK_INT(cg_freezer_find(layout, &ta, &fz, &d), 0);
	CHECK(fz.hier == v2);
	CHECK_STR(fz.path, sub_a);
	CHECK(!fz.frozen);

	sigprocmask(SIG_SETMASK, NULL, &before);
	CHECK_INT(cg_freeze(&fz, 0, &held, &d), 0);
	CHECK(fz.frozen);
	CHECK(mask_kept(&before));
	CHECK_STR(get(v2, sub_a, "cgroup.freeze"), "1");
	/* the child's cgroup is frozen by its parent's freeze */
	CHECK_INT(cg_is_frozen(&tb, &d), -EBUSY);
	CHECK(strstr(d.why, "the cgroup is frozen: cgroup.events says frozen 1") != NULL);
	CHECK_STR(d.what, "use");
	/* the first frozen one is named */
	CHECK_INT(cg_targets_frozen(&ts, &d), -EBUSY);
	CHECK(!strcmp(d.where + 1, sub_a));

	CHECK_INT(cg_thaw(&fz, &d), 0);
	CHECK(!fz.frozen);
	CHECK(mask_kept(&before));
	CHECK_STR(get(v2, sub_a, "cgroup.freeze"), "0");
	CHECK_INT(cg_is_frozen(&tb, &d), 0);
	/* twice is harmless */
	CHECK_INT(cg_thaw(&fz, &d), 0);

	/* no such cgroup: an error, nothing frozen, nothing to thaw */
	CHECK_INT(cg_freezer_find(layout, &tn, &fn, &d), 0);
	CHECK_INT(cg_freeze(&fn, 0, NULL, &d), -ENOENT);
	CHECK(!fn.frozen);
	CHECK_INT(cg_thaw(&fn, &d), 0);

	/* v2 needs no subtree thaw */
	CHECK_INT(cg_thaw_tree(v2, sub_a), 0);
}

static void test_v1(void)
{
	const struct cg_hier *other = NULL;
	struct cg_target tb = { .hier = (struct cg_hier *)v1fz, .path = sub_b };
	struct cg_target ta = { .hier = (struct cg_hier *)v1fz, .path = sub_a };
	struct cg_freezer fz = { 0 };
	struct cg_diag d = { 0 };
	sigset_t before, held;

	cg_freezer_signals(&held);
	/* a target in another v1 hierarchy: the freezer's cgroup of the same path */
	for (size_t i = 0; i < layout->n; i++)
		if (layout->hier[i].version == 1 && &layout->hier[i] != v1fz)
			other = &layout->hier[i];
	if (other) {
		struct cg_target to = { .hier = (struct cg_hier *)other, .path = sub_a };
		struct cg_target tn = { .hier = (struct cg_hier *)other,
					.path = (char *)"cgkit-test.none" };

		CHECK_INT(cg_freezer_find(layout, &to, &fz, &d), 0);
		CHECK(fz.hier == v1fz);
		CHECK_STR(fz.path, sub_a);
		CHECK_INT(cg_freezer_find(layout, &tn, &fz, &d), -ENOENT);
		CHECK(strstr(d.why, "no freezer cgroup of that path") != NULL);
	}

	CHECK_INT(cg_freezer_find(layout, &ta, &fz, &d), 0);
	sigprocmask(SIG_SETMASK, NULL, &before);
	CHECK_INT(cg_freeze(&fz, 0, &held, &d), 0);
	CHECK(mask_kept(&before));
	CHECK_STR(get(v1fz, sub_a, "freezer.state"), "FROZEN");
	CHECK_INT(cg_is_frozen(&tb, &d), -EBUSY);
	CHECK_STR(
		d.why,
		"the cgroup is frozen: freezer.state is FROZEN (freezer.parent_freezing 1: an ancestor is frozen)");
	CHECK_INT(cg_is_frozen(&ta, &d), -EBUSY);
	CHECK_STR(d.why, "the cgroup is frozen: freezer.state is FROZEN");
	CHECK_STR(d.hier, v1fz->label);
	CHECK_INT(cg_thaw(&fz, &d), 0);
	CHECK(mask_kept(&before));
	CHECK(v1_state_is(sub_a, "THAWED") && v1_state_is(sub_b, "THAWED"));

	/* a frozen subtree, the child frozen by itself too: thawed top to bottom */
	CHECK_INT(put(v1fz, sub_a, "freezer.state", "FROZEN"), 0);
	CHECK_INT(put(v1fz, sub_b, "freezer.state", "FROZEN"), 0);
	CHECK(v1_state_is(sub_a, "FROZEN") && v1_state_is(sub_b, "FROZEN"));
	CHECK_INT(cg_thaw_tree(v1fz, sandbox), 0);
	CHECK(v1_state_is(sub_a, "THAWED") && v1_state_is(sub_b, "THAWED"));
	CHECK_INT(cg_is_frozen(&tb, &d), 0);
	/* another v1 hierarchy has no freezer.state to set */
	if (other)
		CHECK_INT(cg_thaw_tree(other, sandbox), 0);
}

int main(void)
{
	if (geteuid() != 0) {
		puts("needs root");
		return 77;
	}
	if (cg_layout_load(&layout) < 0) {
		puts("cannot read the cgroup mounts");
		return 77;
	}
	test_signals_waiting();
	v2 = layout->unified;
	v1fz = cg_layout_find(layout, "freezer");
	if (v1fz && v1fz->version != 1)
		v1fz = NULL;
	if (!v2 && !v1fz) {
		puts("neither a unified nor a v1 freezer hierarchy here");
		cg_layout_free(layout);
		return 77;
	}
	snprintf(sandbox, sizeof(sandbox), "cgkit-test.%d", (int)getpid());
	snprintf(sub_a, sizeof(sub_a), "%s/a", sandbox);
	snprintf(sub_b, sizeof(sub_b), "%s/a/b", sandbox);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) {
		for (;;)
			pause();
	}
	atexit(cleanup);
	if (v2 && make_sandbox(v2) < 0)
		return 1;
	if (v1fz && make_sandbox(v1fz) < 0)
		return 1;
	if (v2)
		test_v2();
	if (v1fz)
		test_v1();
	return CHECK_DONE();
}
