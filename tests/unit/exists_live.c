// SPDX-License-Identifier: MIT
/*
 * common/cgroup, common/migrate: a cgroup that cannot be looked at is not "no such cgroup".
 * As an unprivileged user (65534), below a cgroup of mode 0700: cg_create without parents and
 * cg_drain's source report EACCES as EACCES (they said ENOENT: cg_exists was a bool), and a
 * cgroup that is really missing is still ENOENT. Sandbox cgkit-test.<pid> at the top of the
 * unified hierarchy, removed on every path. Skips (77) without root or a unified mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "check.h"
#include "ops/drain.h"
#include "ops/migrate.h"
#include "live.h"
#include "kernel/mount.h"

#define NOBODY 65534

static int ufd = -1;
static char sb[64];

static void cleanup(void)
{
	if (ufd < 0 || !sb[0])
		return;
	live_remove(ufd, sb);
}

static void on_signal(int sig)
{
	cleanup();
	_exit(128 + sig);
}

static int mk(const char *rel, mode_t mode)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", sb, rel);
	if (mkdirat(ufd, p, 0755) < 0 || fchmodat(ufd, p, mode, 0) < 0) {
		fprintf(stderr, "mkdir %s: %s\n", rel, strerror(errno));
		return -1;
	}
	return 0;
}

/* As NOBODY: what each call answers, and why. */
static int as_nobody(const struct cg_layout *l, struct cg_hier *u)
{
	struct cg_diag d = { 0 };
	char path[128], t_path[128], where[160];
	struct cg_target src = { .hier = u, .path = path }, dst = { .hier = u, .path = t_path };
	const struct cg_targets ts = { .t = &dst, .n = 1 };
	struct cg_drain_opts o = { 0 };
	struct cg_drain_result res;

	if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0) {
		perror("drop to nobody");
		return 1;
	}
	/* an ancestor that is there but cannot be searched */
	snprintf(path, sizeof(path), "%s/priv/a/b", sb);
	CHECK_INT(cg_create(u, path, false, NULL, NULL, &d), -EACCES);
	snprintf(where, sizeof(where), "/%s/priv/a", sb);
	CHECK_STR(d.where, where);
	CHECK_STR(d.what, "mkdir");
	CHECK(!strncmp(d.why, "Permission denied", 17));
	/* one that is not there */
	snprintf(path, sizeof(path), "%s/nope/b", sb);
	CHECK_INT(cg_create(u, path, false, NULL, NULL, &d), -ENOENT);
	CHECK_STR(d.why, "the parent cgroup does not exist (-p creates it)");

	/* a drain whose source cannot be looked at; the target is ours to write */
	snprintf(t_path, sizeof(t_path), "%s/t", sb);
	snprintf(path, sizeof(path), "%s/priv/a", sb);
	CHECK_INT(cg_drain(l, &src, &ts, &o, &res, &d), -EACCES);
	snprintf(where, sizeof(where), "/%s/priv/a", sb);
	CHECK_STR(d.where, where);
	CHECK_STR(d.what, "drain");
	CHECK(!strncmp(d.why, "Permission denied", 17));
	CHECK(!res.started);
	snprintf(path, sizeof(path), "%s/nope", sb);
	CHECK_INT(cg_drain(l, &src, &ts, &o, &res, &d), -ENOENT);
	CHECK(!strncmp(d.why, "No such file or directory", 25));
	return CHECK_DONE();
}

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_hier *u;
	char p[128];
	pid_t pid;
	int st = 0, r;

	r = live_sandbox(&l, &u, &ufd, sb, sizeof(sb), on_signal);
	if (r)
		return r;
	snprintf(p, sizeof(p), "%s/t/cgroup.procs", sb);
	if (mk("priv", 0700) < 0 || mk("priv/a", 0755) < 0 || mk("t", 0755) < 0 ||
	    fchownat(ufd, p, NOBODY, NOBODY, 0) < 0) {
		check_failures++;
		goto out;
	}
	pid = fork();
	if (pid == 0)
		_exit(as_nobody(l, u));
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "as nobody: failed (status %#x)\n", st);
		check_failures++;
	}
out:
	cleanup();
	cg_layout_free(l);
	return CHECK_DONE();
}
