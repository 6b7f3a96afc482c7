// SPDX-License-Identifier: MIT
/* Starting a command inside its cgroups before it runs: clone3(CLONE_INTO_CGROUP) or a self-move. */
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/kparse.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "cgroups/freeze.h"
#include "migrate.h"
#include "kernel/proc.h"
#include "remove.h"
#include "cgroups/setup.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* struct clone_args up to CLONE_ARGS_SIZE_VER2 (5.7, the cgroup field); ours, so that older
 * kernel headers still build */
struct cg_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;
};

int cg_exec_errno_status(int err)
{
	return err == ENOENT || err == ENOTDIR || err == ENAMETOOLONG || err == ELOOP ? 127 : 126;
}

int cg_targets_check_placeable(const struct cg_targets *t, struct cg_diag *d)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = i + 1; j < t->n; j++) {
			char a[PATH_MAX + 2], b[PATH_MAX + 2];

			if (t->t[i].hier != t->t[j].hier || !strcmp(t->t[i].path, t->t[j].path))
				continue;
			return cg_diag_say(
				d, EINVAL, cg_target_name(&t->t[j], b, sizeof(b)),
				t->t[j].hier->label, "place",
				"%s (%s) is named too, and a process is in exactly one cgroup of each hierarchy",
				cg_target_name(&t->t[i], a, sizeof(a)), t->t[i].hier->label);
		}
	return 0;
}

/*
 * Move pid into every target it is not in yet. The write comes first: to where the process is
 * already, the kernel migrates nothing, and that is cheaper than reading /proc/PID/cgroup
 * before every move (cgexec2's exec path). Only a refused move reads it: no permission is
 * needed to stay where one is, so a refusal there is no error.
 */
static int move_all(const struct cg_targets *t, pid_t pid, const struct cg_hier *skip,
		    struct cg_diag *d)
{
	_cleanup_free_ char *text = NULL;

	for (size_t i = 0; i < t->n; i++) {
		const struct cg_target *x = &t->t[i];
		_cleanup_free_ char *cur = NULL;
		int k;

		if (x->hier == skip)
			continue;
		k = cg_attach(x->hier, x->path, pid, false, d);
		if (k >= 0)
			continue;
		if (!text && cg_task_cgroups(pid, 0, &text) < 0)
			return k;
		if (cg_kparse_proc_cgroup(text, x->hier, &cur) == 0 && !strcmp(cur, x->path))
			continue;
		return k;
	}
	return 0;
}

int cg_self_move(const struct cg_targets *t, struct cg_diag *d)
{
	int r = move_all(t, getpid(), NULL, d);

	return r < 0 ? r : cg_placement_verify(t, 0, d);
}

int cg_child_signal(const struct cg_child *c, int sig)
{
	if (c->pidfd >= 0) {
		if (syscall(SYS_pidfd_send_signal, c->pidfd, sig, NULL, 0) == 0)
			return 0;
		if (errno != ENOSYS)
			return -errno;
	}
	return kill(c->pid, sig) < 0 ? -errno : 0;
}

/*
 * wait4 with a deadline. The pidfd says when the child has ended without a signal handler or
 * a busy loop; without one (pre-5.3 kernels) poll every 10 ms.
 */
static int reap(pid_t pid, int pidfd, int *ret_status, struct rusage *ru, uint64_t timeout_ns)
{
	uint64_t deadline = cg_now_ns() + timeout_ns;

	for (;;) {
		uint64_t now;
		pid_t p = wait4(pid, ret_status, WNOHANG, ru);

		if (p == pid)
			return 0;
		if (p < 0 && errno != EINTR)
			return -errno;
		now = cg_now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (pidfd >= 0) {
			struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
			uint64_t ms = (deadline - now + 999999) / 1000000;

			(void)poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms);
		} else {
			struct timespec ts = { 0, 10000000 };

			(void)nanosleep(&ts, NULL);
		}
	}
}

int cg_child_wait(const struct cg_child *c, int *ret_status, struct rusage *ru, uint64_t timeout_ns)
{
	return reap(c->pid, c->pidfd, ret_status, ru, timeout_ns);
}

/* A child that must not run argv: killed (it may be frozen, past its read of the go socket). */
static void kill_unstarted(pid_t pid, int pidfd)
{
	int status;

	kill(pid, SIGKILL);
	/* a child killed before its exec: it is ours, normally gone at once */
	(void)reap(pid, pidfd, &status, NULL, CG_KILL_TIMEOUT_NS);
	if (pidfd >= 0)
		close(pidfd);
}

/*
 * Wait for the child's exec report: 0 with *ret_errno (0: the exec happened), or 1 when one
 * of stop (blocked by the caller) is pending first; it stays pending, for the caller.
 */
static int wait_exec_report(int err_rd, const sigset_t *stop, int *ret_errno)
{
	_cleanup_close_ int sfd = -1;
	ssize_t n;
	int e = 0;

	/* a signalfd only reports pending signals, it takes none until read */
	if (stop)
		sfd = signalfd(-1, stop, SFD_CLOEXEC | SFD_NONBLOCK);
	for (;;) {
		struct pollfd p[2] = { { .fd = err_rd, .events = POLLIN },
				       { .fd = sfd, .events = POLLIN } };

		if (sfd >= 0 && poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			close(TAKE_FD(sfd)); /* cannot poll: wait as without stop signals */
			continue;
		}
		if (sfd >= 0 && !p[0].revents)
			return 1;
		/* EOF: exec succeeded (the pipe is close-on-exec); an int: execvp's errno */
		do
			n = read(err_rd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		*ret_errno = n == (ssize_t)sizeof(e) ? e : 0;
		return 0;
	}
}

void cg_child_close(struct cg_child *c)
{
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
}

/*
 * The child between clone and exec: only system calls here. It may be a raw clone3 child, in
 * which glibc's idea of its own thread id is the parent's (no raise(), no abort()).
 */
static _Noreturn void child_main(int go_rd, int err_wr, char *const argv[],
				 const struct cg_spawn_opts *o)
{
	const sigset_t *mask = o->child_mask;
	sigset_t empty;
	ssize_t n;
	char c;
	int e;

	do
		n = read(go_rd, &c, 1);
	while (n < 0 && errno == EINTR);
	/* EOF: the parent could not place us (or died); the command must not start elsewhere */
	if (n != 1)
		_exit(125);
	if (!mask) {
		sigemptyset(&empty);
		mask = &empty;
	}
	for (int sig = 1; o->child_default && sig < NSIG; sig++)
		if (sigismember(o->child_default, sig) == 1)
			signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0) {
		/* the parent is gone; the exit status still tells */
	}
	_exit(cg_exec_errno_status(e));
}

/* The unified target, if any: clone3 can put the child there directly. */
static const struct cg_target *v2_target(const struct cg_targets *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i].hier->version == 2)
			return &t->t[i];
	return NULL;
}

static pid_t clone_into(int cgfd, int *ret_pidfd)
{
	struct cg_clone_args a = {
		.flags = CLONE_PIDFD | (cgfd >= 0 ? CLONE_INTO_CGROUP : 0),
		.pidfd = (uint64_t)(uintptr_t)ret_pidfd,
		.exit_signal = SIGCHLD,
		.cgroup = cgfd >= 0 ? (uint64_t)cgfd : 0,
	};

	return (pid_t)syscall(SYS_clone3, &a, sizeof(a));
}

int cg_spawn(const struct cg_targets *t, char *const argv[], const struct cg_spawn_opts *o,
	     struct cg_child *ret, struct cg_diag *d)
{
	static const struct cg_spawn_opts none = { 0 };
	const struct cg_target *v2 = v2_target(t);
	_cleanup_close_ int cgfd = -1, go_rd = -1, go_wr = -1, err_rd = -1, err_wr = -1;
	int go[2], er[2], pidfd = -1, r;
	bool cloned_into = false;
	pid_t pid = -1;
	int e = 0;

	if (!o)
		o = &none;
	/* a socket, not a pipe: send(MSG_NOSIGNAL) to a child that died is no SIGPIPE for us */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0)
		return cg_diag_fail(d, errno, CG_OP_OTHER, 0, "", "", "socketpair");
	go_rd = go[0], go_wr = go[1];
	if (pipe2(er, O_CLOEXEC) < 0)
		return cg_diag_fail(d, errno, CG_OP_OTHER, 0, "", "", "pipe");
	err_rd = er[0], err_wr = er[1];

	if (!o->no_clone3) {
		if (v2) {
			/* clone3 needs a real (not O_PATH) fd of a cgroup2 directory */
			cgfd = cg_hier_open(v2->hier, v2->path, O_RDONLY | O_DIRECTORY);
			if (cgfd >= 0 && cg_fd_check_cgroupfs(cgfd) < 0) {
				close(cgfd);
				cgfd = -1;
			}
		}
		pid = clone_into(cgfd, &pidfd);
		if (pid == 0) {
			close(go_wr);
			close(err_rd);
			child_main(go_rd, err_wr, argv, o);
		}
		/*
		 * Any failure (no clone3, a seccomp filter, or a cgroup rule) falls back to
		 * fork + move: the move then names the rule that refused.
		 */
		cloned_into = pid > 0 && cgfd >= 0;
	}
	if (pid < 0) {
		pidfd = -1;
		pid = fork();
		if (pid < 0)
			return cg_diag_fail(d, errno, CG_OP_OTHER, 0, "", "", "fork");
		if (pid == 0) {
			close(go_wr);
			close(err_rd);
			child_main(go_rd, err_wr, argv, o);
		}
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd < 0)
			pidfd = -1;
		else
			(void)fcntl(pidfd, F_SETFD, FD_CLOEXEC);
	}
	close(TAKE_FD(go_rd));
	close(TAKE_FD(err_wr));

	r = move_all(t, pid, cloned_into ? v2->hier : NULL, d);
	if (r == 0)
		r = cg_placement_verify(t, pid, d);
	if (r == 0 && o->before_exec)
		r = o->before_exec(pid, o->userdata, d);
	if (r < 0) {
		/* EOF on the go socket makes the child exit; SIGKILL in case it is frozen there */
		close(TAKE_FD(go_wr));
		kill_unstarted(pid, pidfd);
		return r;
	}
	if (send(go_wr, "x", 1, MSG_NOSIGNAL) != 1) {
		r = -errno;
		close(TAKE_FD(go_wr));
		kill_unstarted(pid, pidfd);
		return cg_diag_fail(d, -r, CG_OP_OTHER, 0, "", "", "start the command");
	}
	close(TAKE_FD(go_wr));
	r = wait_exec_report(err_rd, o->stop_signals, &e);
	*ret = (struct cg_child){
		.pid = pid,
		.pidfd = pidfd,
		.cloned_into = cloned_into,
		.exec_errno = r == 0 ? e : 0,
		.exec_unconfirmed = r == 1,
	};
	return 0;
}

void cg_forward_set(sigset_t *ret)
{
	static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

	sigemptyset(ret);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(ret, forwarded[i]);
	sigaddset(ret, SIGCHLD);
}

int cg_child_wait_forwarding(struct cg_child *c, const struct cg_forward_opts *o, struct rusage *ru)
{
	uint64_t deadline = 0;
	int stops = 0;

	for (;;) {
		siginfo_t si;
		int status, sig;
		bool terminal, frozen;

		if (deadline) {
			uint64_t now = cg_now_ns(), left = deadline > now ? deadline - now : 0;
			struct timespec ts = cg_timespec_ns(left);

			sig = left ? sigtimedwait(o->set, &si, &ts) : -1;
			if (sig < 0 && (!left || errno == EAGAIN)) {
				if (wait4(c->pid, &status, WNOHANG, ru) == c->pid)
					return status;
				return -ETIMEDOUT;
			}
		} else {
			sig = sigwaitinfo(o->set, &si);
		}
		if (sig < 0)
			continue;
		if (sig == SIGCHLD) {
			pid_t p = wait4(c->pid, &status, WNOHANG, ru);

			if (p == c->pid)
				return status;
			continue;
		}
		/*
		 * Ctrl-C and Ctrl-\ signal the whole foreground group: the child has it already,
		 * and what it does with it is its business (a second Ctrl-C in a REPL kills
		 * nothing). A hangup goes to the session leader alone: that one is passed on.
		 */
		terminal = (sig == SIGINT || sig == SIGQUIT) && si.si_code == SI_KERNEL &&
			   getpgid(c->pid) == getpgrp();
		frozen = (sig == SIGINT || sig == SIGTERM) && cg_targets_frozen(o->t, NULL) < 0;
		if (terminal && !frozen)
			continue;
		if ((sig == SIGINT || sig == SIGTERM) && (frozen || ++stops > 1)) {
			if (deadline)
				continue; /* killed already */
			/* quiet: what failed is said after the wait, by the kill there or the caller */
			if (o->own_cgroups)
				(void)cg_targets_kill(o->t, NULL, NULL);
			else
				cg_child_signal(c, SIGKILL);
			/* own cgroups: the kill waited for them to empty already */
			deadline = cg_now_ns() +
				   (o->own_cgroups ? o->reap_timeout_ns : CG_KILL_TIMEOUT_NS);
			continue;
		}
		cg_child_signal(c, sig);
	}
}

int cg_targets_kill(const struct cg_targets *t, cg_diag_fn *on_fail, void *ctx)
{
	int ret = 0;

	for (size_t i = 0; i < t->n; i++)
		(void)cg_signal(t->t[i].hier, t->t[i].path, true, SIGKILL);
	for (size_t i = 0; i < t->n; i++)
		(void)cg_thaw_tree(t->t[i].hier, t->t[i].path);
	for (size_t i = 0; i < t->n; i++) {
		struct cg_diag d = { 0 };
		int r = cg_kill(t->t[i].hier, t->t[i].path, CG_KILL_TIMEOUT_NS, &d);

		if (r < 0 && on_fail)
			on_fail(&d, r, ctx);
		if (r < 0)
			ret = r;
	}
	return ret;
}

int cg_targets_remove(const struct cg_targets *t, cg_diag_fn *on_fail, void *ctx)
{
	const struct cg_remove_opts ro = { .recursive = true };
	int ret = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct cg_diag d = { 0 };
		int r = cg_remove(t->t[i].hier, t->t[i].path, &ro, &d);

		if (r < 0 && on_fail)
			on_fail(&d, r, ctx);
		if (r < 0)
			ret = r;
	}
	return ret;
}

int cg_keeper_place(const struct cg_layout *l, const char *unit, pid_t keeper, char **ret_cgroup,
		    struct cg_targets *ret, struct cg_journal *j, struct cg_diag *d)
{
	_cleanup_free_ char *cg = NULL, *keep = NULL;
	const struct cg_setup_opts so = { 0 };
	const struct cg_move_opts mo = { 0 };
	struct cg_move m = { .id = keeper };
	struct cg_move_summary sum = { 0 };
	char where[300];
	int r = l->unified ? 0 : -ENOENT;

	if (r == 0)
		r = cg_pid_cgroup(l->unified, keeper, 0, &cg);
	if (r == 0 && !(keep = cg_path_join(cg, "keeper")))
		r = -ENOMEM;
	if (r < 0) {
		snprintf(where, sizeof(where), "scope %s", unit);
		return cg_diag_say(d, r, where, NULL, "find its cgroup", "%s", strerror(-r));
	}
	/* the keeper into its leaf: the scope is delegated, this is ours to do */
	r = cg_spec_parse(l, keep, ret, d);
	if (r == 0)
		r = cg_setup_apply(l, ret, &so, j, d);
	if (r == 0)
		r = cg_move_many(ret, &mo, &m, 1, &sum, d);
	if (r == 0 && m.state == CG_MOVE_FAILED)
		r = cg_move_diag(ret, &mo, &m, d);
	if (r < 0)
		return r;
	*ret_cgroup = TAKE_PTR(cg);
	return 0;
}
