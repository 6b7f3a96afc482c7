/* SPDX-License-Identifier: MIT */
/* Starting a command inside its cgroups before it runs: clone3(CLONE_INTO_CGROUP) or a self-move. */
#ifndef CGKIT_LAUNCH_H
#define CGKIT_LAUNCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "cgroups/cgroup.h"
#include "base/error.h"
#include "kernel/spec.h"

/*
 * A process may be in one cgroup per hierarchy: two targets on one hierarchy (two v2 paths,
 * or cpu:/a and cpu:/b) cannot both hold it. -EINVAL with the two names in d.
 */
int cg_targets_check_placeable(const struct cg_targets *t, struct cg_diag *d);

/*
 * Move the calling process (all its threads) into every target, then verify
 * /proc/self/cgroup: after this an exec runs nowhere else. On failure the process may be in
 * some of the targets already; nothing has been exec'd.
 */
int cg_self_move(const struct cg_targets *t, struct cg_diag *d);

struct cg_child {
	pid_t pid;
	int pidfd; /* CLONE_PIDFD / pidfd_open, -1 when the kernel has neither */
	bool cloned_into; /* clone3(CLONE_INTO_CGROUP) placed it in the unified target */
	int exec_errno; /* execvp's errno when the command could not start (child exited), else 0 */
	bool exec_unconfirmed; /* a stop signal ended the wait for the exec (see stop_signals) */
};

struct cg_spawn_opts {
	const sigset_t *child_mask; /* signal mask the command starts with (NULL: empty) */
	/*
	 * Signals the caller ignores for itself (cgexec2: SIGPIPE) that the command gets back at
	 * their default action before its exec (NULL: none), as an ignored signal survives exec.
	 */
	const sigset_t *child_default;
	bool no_clone3; /* force the fork + move path (tests, old kernels) */
	/* called with the child's pid after placement, before it may exec (e.g. --sticky) */
	int (*before_exec)(pid_t pid, void *userdata, struct cg_diag *d);
	void *userdata;
	/*
	 * Signals the caller blocks and takes itself (sigwaitinfo): one pending ends the wait for
	 * the exec, left pending, with exec_unconfirmed set. A child that never gets to its exec
	 * (its cgroup is frozen) then cannot hold the caller deaf to SIGINT and SIGTERM.
	 */
	const sigset_t *stop_signals;
};

/*
 * Run argv (PATH search as execvp) as a child that is inside every target before its first
 * instruction of argv: straight into the unified target by clone3(CLONE_INTO_CGROUP) where
 * the kernel has it, into the others (and the unified one on old kernels) by moving it while
 * it waits on a socket; its /proc/PID/cgroup is verified, then it may exec. Returns 0 once the
 * exec happened or failed (see exec_errno; the child then exits 126 or 127: reap it), or a stop
 * signal came first (exec_unconfirmed). On a placement failure the child is killed and reaped
 * (for at most a few seconds: a frozen one is left to init): argv never ran.
 */
int cg_spawn(const struct cg_targets *t, char *const argv[], const struct cg_spawn_opts *o,
	     struct cg_child *ret, struct cg_diag *d);

/*
 * Reap the child, waiting at most timeout_ns; its wait status in *ret_status, its rusage in ru
 * (may be NULL). -ETIMEDOUT when it is still there: in a frozen v1 cgroup not even SIGKILL ends
 * a process before it is thawed.
 */
int cg_child_wait(const struct cg_child *c, int *ret_status, struct rusage *ru,
		  uint64_t timeout_ns);

/* Signal the child, by pidfd when there is one (no pid-reuse race). */
int cg_child_signal(const struct cg_child *c, int sig);
void cg_child_close(struct cg_child *c);

/*
 * The signals a launcher that waits passes on to its command (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, SIGUSR2), and SIGCHLD: the set a tool blocks (before the command's cgroups
 * exist, so that a SIGTERM meanwhile is not lost) and gives to cg_child_wait_forwarding.
 */
void cg_forward_set(sigset_t *ret);

struct cg_forward_opts {
	const sigset_t *set; /* cg_forward_set's, blocked by the caller */
	const struct cg_targets *t; /* the command's cgroups: is one of them frozen? */
	/*
	 * The cgroups are the command's own (a transient one): the kill is cg_targets_kill of
	 * them all, and after it the child is given reap_timeout_ns; else SIGKILL to the child
	 * alone, which is given CG_KILL_TIMEOUT_NS.
	 */
	bool own_cgroups;
	uint64_t reap_timeout_ns;
};

/*
 * Wait for the child, passing on the signals the caller receives; returns its wait status, or
 * -ETIMEDOUT when it is still there the given time after it was killed (a frozen cgroup).
 * Asked a second time to stop (SIGINT or SIGTERM sent to the caller, not the terminal's; SIGHUP
 * often means "reload"), it kills: see own_cgroups. The command had its chance to exit. When
 * one of its cgroups is frozen, the first request is enough, the terminal's Ctrl-C too: a frozen
 * command can act on no signal, and would hold the caller forever. Reads the signals with
 * sigwaitinfo: the mask is the caller's, and stays as it is.
 */
int cg_child_wait_forwarding(struct cg_child *c, const struct cg_forward_opts *o,
			     struct rusage *ru);

/*
 * Kill everything in the targets, frozen or not: SIGKILL to every process first, so that
 * nothing runs again once thawed, then the thaw (v1), then the kernel's kill and the wait for
 * empty (bounded by CG_KILL_TIMEOUT_NS each). A freeze of an ancestor is not the caller's to
 * lift: that kill times out (on_fail hears it, when given). Returns 0 when every one is empty.
 */
int cg_targets_kill(const struct cg_targets *t, cg_diag_fn *on_fail, void *ctx);
/* Remove each target with what is below it (cg_remove, recursive): 0, or the last -errno. */
int cg_targets_remove(const struct cg_targets *t, cg_diag_fn *on_fail, void *ctx);

/* The exit status env(1) uses for an exec failure: 127 not found, 126 found but not runnable. */
int cg_exec_errno_status(int err);

/*
 * cgcreate2 --scope: the keeper, alone in the scope UNIT's cgroup, moved into that cgroup's
 * child "keeper" (made, in j), so that the scope's own cgroup holds no process and may enable
 * controllers for the cgroups made in it (the no-internal-process rule). *ret_cgroup is the
 * scope's cgroup (no leading '/'), ret the leaf's target. 0, or -errno with d filled.
 */
int cg_keeper_place(const struct cg_layout *l, const char *unit, pid_t keeper, char **ret_cgroup,
		    struct cg_targets *ret, struct cg_journal *j, struct cg_diag *d);

#endif
