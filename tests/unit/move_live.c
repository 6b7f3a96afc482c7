// SPDX-License-Identifier: MIT
/*
 * common/migrate: cg_move_many on the live unified hierarchy, with processes the test starts
 * (and only those). A live child arrives (the listing and /proc say so), a zombie is gone, a
 * pid that does not exist is a failure of the existence step (ESRCH, and cg_move_diag's line),
 * with no_verify it counts as gone; the summary counts each; a target that cannot be opened
 * moves nothing. Both verifications: /proc per id (few ids) and the target's listing (more than
 * eight). Sandbox cgkit-test.<pid> at the top of the unified hierarchy, removed on every path.
 * Skips (77) without root or a unified mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "live.h"
#include "ops/migrate.h"
#include "kernel/mount.h"
#include "kernel/proc.h"

#define NLIVE 8

static int ufd = -1;
static char sb[64];
static volatile pid_t kids[NLIVE + 1]; /* the live ones, then the zombie */

static void cleanup(void)
{
	for (size_t i = 0; i < NLIVE + 1; i++)
		if (kids[i] > 0) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
			kids[i] = 0;
		}
	if (ufd < 0 || !sb[0])
		return;
	live_remove(ufd, sb);
}

static void on_signal(int sig)
{
	cleanup();
	_exit(128 + sig);
}

/* A child that waits for the end of the test (EOF on the pipe), or _exits at once. */
static pid_t start(int rfd, int wfd, bool zombie)
{
	pid_t pid = fork();

	if (pid == 0) {
		char c;

		if (!zombie) {
			close(wfd);
			(void)!read(rfd, &c, 1);
		}
		_exit(0);
	}
	return pid;
}

/* A pid that is no process: a child of ours, reaped. */
static pid_t missing_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		return -1;
	return kill(pid, 0) < 0 && errno == ESRCH ? pid : -1;
}

static void nap(void)
{
	struct timespec ts = { 0, 5000000 };

	nanosleep(&ts, NULL);
}

static bool is_in(const struct cg_hier *u, pid_t pid, const char *path)
{
	char *now = NULL;
	bool in = cg_pid_cgroup(u, pid, 0, &now) == 0 && !strcmp(now, path);

	free(now);
	return in;
}

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_hier *u;
	struct cg_diag d = { 0 };
	struct cg_move_summary sum;
	struct cg_move m[NLIVE + 2];
	char a[96], b[96], nope[96], line[1024], want[256];
	struct cg_target t = { 0 };
	const struct cg_targets ts = { .t = &t, .n = 1 };
	struct cg_move_opts o = { .count_threads = true };
	int pipefd[2] = { -1, -1 }, r, k;
	pid_t zombie, gone;

	r = live_sandbox(&l, &u, &ufd, sb, sizeof(sb), on_signal);
	if (r)
		return r;
	t.hier = u;
	snprintf(a, sizeof(a), "%s/a", sb);
	snprintf(b, sizeof(b), "%s/b", sb);
	snprintf(nope, sizeof(nope), "%s/nope", sb);
	if (mkdirat(ufd, a, 0755) < 0 || mkdirat(ufd, b, 0755) < 0 || pipe2(pipefd, O_CLOEXEC)) {
		perror("sandbox");
		check_failures++;
		goto out;
	}
	for (k = 0; k < NLIVE; k++)
		kids[k] = start(pipefd[0], pipefd[1], false);
	zombie = kids[NLIVE] = start(pipefd[0], pipefd[1], true);
	gone = missing_pid();
	for (k = 0; k <= NLIVE && kids[k] > 0; k++)
		;
	if (k <= NLIVE || gone < 0) {
		fprintf(stderr, "cannot start the children\n");
		check_failures++;
		goto out;
	}
	/* a zombie until the end: exited, not reaped */
	for (k = 0; k < 400 && cg_task_state(zombie, 0) != 'Z'; k++)
		nap();
	CHECK_INT(cg_task_state(zombie, 0), 'Z');

	/* few ids: each one not listed is looked up in /proc */
	t.path = a;
	m[0] = (struct cg_move){ .id = kids[0] };
	m[1] = (struct cg_move){ .id = zombie };
	m[2] = (struct cg_move){ .id = gone };
	CHECK_INT(cg_move_many(&ts, &o, m, 3, &sum, &d), 0);
	CHECK_INT(m[0].state, CG_MOVE_ARRIVED);
	CHECK_INT(m[0].threads, 1);
	CHECK_INT(m[1].state, CG_MOVE_GONE);
	CHECK_INT(m[2].state, CG_MOVE_FAILED);
	CHECK_INT(m[2].step, CG_STEP_EXIST);
	CHECK_INT(m[2].err, -ESRCH);
	CHECK_INT(sum.arrived, 1);
	CHECK_INT(sum.threads, 1);
	CHECK_INT(sum.processes, 1);
	CHECK_INT(sum.gone, 1);
	CHECK_INT(sum.failed, 1);
	CHECK(is_in(u, kids[0], a));
	CHECK_INT(cg_move_diag(&ts, &o, &m[2], &d), -ESRCH);
	snprintf(want, sizeof(want), "cgroup /%s (unified): move: no such process %d", a,
		 (int)gone);
	CHECK_STR(cg_diag_format(&d, line, sizeof(line)), want);
	for (k = 0; k < 3; k++)
		free(m[k].seen);

	/* more ids than CG_VERIFY_BY_LISTING: one read of the target's listing decides */
	t.path = b;
	for (k = 0; k < NLIVE; k++)
		m[k] = (struct cg_move){ .id = kids[k] };
	m[NLIVE] = (struct cg_move){ .id = zombie };
	m[NLIVE + 1] = (struct cg_move){ .id = gone };
	CHECK_INT(cg_move_many(&ts, &o, m, NLIVE + 2, &sum, &d), 0);
	for (k = 0; k < NLIVE; k++) {
		CHECK_INT(m[k].state, CG_MOVE_ARRIVED);
		CHECK(is_in(u, kids[k], b));
	}
	CHECK_INT(m[NLIVE].state, CG_MOVE_GONE);
	CHECK_INT(m[NLIVE + 1].state, CG_MOVE_FAILED);
	CHECK_INT(sum.arrived, NLIVE);
	CHECK_INT(sum.threads, NLIVE);
	CHECK_INT(sum.gone, 1);
	CHECK_INT(sum.failed, 1);
	for (k = 0; k < NLIVE + 2; k++)
		free(m[k].seen);

	/* no_verify trusts each write's answer: the kernel finds no such pid, so it is gone */
	t.path = a;
	o = (struct cg_move_opts){ .no_verify = true };
	m[0] = (struct cg_move){ .id = kids[1] };
	m[1] = (struct cg_move){ .id = gone };
	CHECK_INT(cg_move_many(&ts, &o, m, 2, NULL, &d), 0);
	CHECK_INT(m[0].state, CG_MOVE_ARRIVED);
	CHECK_INT(m[1].state, CG_MOVE_GONE);
	CHECK(is_in(u, kids[1], a));

	/* listed ids: one the kernel no longer finds exited since the listing, and is gone */
	t.path = b;
	o = (struct cg_move_opts){ .listed = true };
	m[0] = (struct cg_move){ .id = kids[1] };
	m[1] = (struct cg_move){ .id = gone };
	CHECK_INT(cg_move_many(&ts, &o, m, 2, &sum, &d), 0);
	CHECK_INT(m[0].state, CG_MOVE_ARRIVED);
	CHECK_INT(m[1].state, CG_MOVE_GONE);
	CHECK_INT(sum.gone, 1);
	CHECK_INT(sum.failed, 0);
	CHECK(is_in(u, kids[1], b));
	for (k = 0; k < 2; k++)
		free(m[k].seen);

	/* a target that cannot be opened: -errno, the reason in d, nothing moved */
	t.path = nope;
	o = (struct cg_move_opts){ 0 };
	m[0] = (struct cg_move){ .id = kids[2] };
	CHECK_INT(cg_move_many(&ts, &o, m, 1, &sum, &d), -ENOENT);
	snprintf(want, sizeof(want), "/%s", nope);
	CHECK_STR(d.where, want);
	CHECK_STR(d.what, "open cgroup.procs");
	CHECK(is_in(u, kids[2], b));
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	cleanup();
	cg_layout_free(l);
	return CHECK_DONE();
}
