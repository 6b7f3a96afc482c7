// SPDX-License-Identifier: MIT
/*
 * common/spawn without cgroups (no targets): the start gate, exec errors reported through the
 * pipe, a refused placement that never runs the command, the signal mask handed over; by
 * clone3 and by fork.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "ops/launch.h"

static char marker[64];

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

static int refuse(pid_t pid, void *userdata, struct cg_diag *d)
{
	*(pid_t *)userdata = pid;
	return cg_diag_say(d, EPERM, "/x", "test", "before exec", "refused by the test");
}

static void run(bool no_clone3)
{
	struct cg_targets none = { 0 };
	struct cg_spawn_opts o = { .no_clone3 = no_clone3 };
	struct cg_child c;
	struct cg_diag d;
	char cmd[160];
	pid_t seen = 0;
	int st;

	/* the command runs, its status comes back */
	char *exit3[] = { "/bin/sh", "-c", "exit 3", NULL };
	CHECK_INT(cg_spawn(&none, exit3, &o, &c, &d), 0);
	CHECK_INT(c.exec_errno, 0);
	CHECK(c.pid > 0);
	st = reap(c.pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	cg_child_close(&c);

	/* not found: execvp's errno, and the child exits 127 */
	char *missing[] = { "/nonexistent/cgkit-cmd", NULL };
	CHECK_INT(cg_spawn(&none, missing, &o, &c, &d), 0);
	CHECK_INT(c.exec_errno, ENOENT);
	st = reap(c.pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	cg_child_close(&c);

	/* a refused placement: the command never runs, the child is reaped, d says why */
	snprintf(cmd, sizeof(cmd), "touch %s", marker);
	char *touch[] = { "/bin/sh", "-c", cmd, NULL };
	o.before_exec = refuse;
	o.userdata = &seen;
	unlink(marker);
	CHECK_INT(cg_spawn(&none, touch, &o, &c, &d), -EPERM);
	CHECK(seen > 0);
	CHECK(access(marker, F_OK) < 0);
	CHECK_STR(d.why, "refused by the test");
	/* already reaped by cg_spawn */
	CHECK(waitpid(seen, &st, WNOHANG) < 0 && errno == ECHILD);
	o.before_exec = NULL;

	/* the mask the command starts with is the one asked for, not the caller's */
	sigset_t block, old, want;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigemptyset(&want);
	o.child_mask = &want;
	/* SIGUSR1 to itself kills it only if it is not blocked */
	char *selfkill[] = { "/bin/sh", "-c", "kill -USR1 $$; exit 0", NULL };
	CHECK_INT(cg_spawn(&none, selfkill, &o, &c, &d), 0);
	st = reap(c.pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1);
	cg_child_close(&c);
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* signalling through the handle */
	char *sleeper[] = { "/bin/sh", "-c", "sleep 30", NULL };
	o.child_mask = NULL;
	CHECK_INT(cg_spawn(&none, sleeper, &o, &c, &d), 0);
	CHECK_INT(cg_child_signal(&c, SIGTERM), 0);
	st = reap(c.pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	cg_child_close(&c);
}

int main(void)
{
	snprintf(marker, sizeof(marker), "/tmp/exec_spawn.%d", (int)getpid());
	run(false);
	run(true);
	unlink(marker);
	return CHECK_DONE();
}
