/* SPDX-License-Identifier: MIT */
/*
 * One cgroup acted on by its path, for a tool that shows cgroups and lets a user act on the
 * one selected (cgtop2's screen): freeze and thaw, signal, kill, set a limit, move a process,
 * each asked first whether the caller may. The operations are freeze.c's, remove.c's,
 * setup.c's and migrate.c's; this file only finds the targets and words the refusals.
 */
#ifndef CGKIT_ACT_H
#define CGKIT_ACT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "kernel/mount.h"

enum cg_act {
	CG_ACT_FREEZE, /* freeze or thaw */
	CG_ACT_SIGNAL, /* a signal to every process of the subtree */
	CG_ACT_KILL, /* SIGKILL to the subtree, until it is empty */
	CG_ACT_SET, /* a limit (cg_act_set's files) */
	CG_ACT_MOVE, /* a process into the cgroup (path is the destination) */
	CG_ACT_N,
};

/*
 * Whether the caller may do act to path ("/a/b" or "a/b", as the sampler's rows name it) with
 * its present credentials, touching nothing: 0, or -errno with d naming the cgroup and the
 * file or process the kernel would refuse (-EACCES, -EPERM, -EROFS), or why it cannot be done
 * at all (-ENOENT: no such cgroup, no freezer; -EINVAL: the root has no freezer file nor
 * cgroup.kill). It asks what the kernel's permission check asks (faccessat(AT_EACCESS) on the
 * file, kill(pid, 0) on each process), so the act itself may still fail for other reasons.
 */
int cg_act_may(const struct cg_layout *l, const char *path, enum cg_act act, struct cg_diag *d);

/*
 * Which cgroup path names now: the directory of its first target (the row's cgroup, the unified
 * member on hybrid), its device and inode. A cgroup removed and made anew under the same path,
 * or another renamed to it (v1), is another cgroup: what a user chose and confirmed is the
 * cgroup, not its name.
 */
struct cg_act_id {
	dev_t dev;
	ino_t ino;
};
/* id filled: 0, or -errno with d filled (-ENOENT: no such cgroup). */
int cg_act_id(const struct cg_layout *l, const char *path, struct cg_act_id *id, struct cg_diag *d);
/*
 * Whether path still names cgroup id: 0, -ESTALE with d saying it was replaced since it was
 * chosen, or as cg_act_id (-ENOENT: it is gone).
 */
int cg_act_same(const struct cg_layout *l, const char *path, const struct cg_act_id *id,
		struct cg_diag *d);

/* 1 when path is frozen or freezing (cg_is_frozen), 0 when not, or -errno with d filled. */
int cg_act_frozen(const struct cg_layout *l, const char *path, struct cg_diag *d);
/* Freeze (and wait until the kernel says frozen) or thaw path: 0 or -errno with d filled. */
int cg_act_freeze(const struct cg_layout *l, const char *path, bool freeze, struct cg_diag *d);
/*
 * Send sig to every process of path's subtree (threaded cgroups through their threads): how
 * many, or -errno with d filled (-EPERM when some could not be signalled: none was skipped
 * silently).
 */
int cg_act_signal(const struct cg_layout *l, const char *path, int sig, struct cg_diag *d);
/* Kill everything in path's subtree, as cgcreate2 -x -k (cgroup.kill; v1 frozen rounds). */
int cg_act_kill(const struct cg_layout *l, const char *path, struct cg_diag *d);

/* Whether FILE of "FILE=VALUE" is one cg_act_set takes: memory.max, cpu.max, ... */
bool cg_act_settable(const char *file);
/*
 * Set one limit "FILE=VALUE" of the v2 vocabulary (memory.max, memory.high, cpu.max,
 * cpu.weight, pids.max) on path through setup's plan (cg_setup_route, cg_setup_apply: routed
 * to the controller's hierarchy, translated for v1, checked, written, undone on failure). An
 * existing cgroup only: a hierarchy where the setting would go and path does not exist is
 * refused (-ENOENT), nothing is made. 0 or -errno with d filled.
 */
int cg_act_set(const struct cg_layout *l, const char *path, const char *assignment,
	       struct cg_diag *d);
/*
 * The memory controller's one-shot writes, actions rather than settings (nothing to read back
 * or undo): "memory.reclaim=SIZE" (bytes with K, M, G, T: the kernel reclaims that much from
 * the cgroup, Linux 5.19 on, cgroup2 only) and "memory.peak=reset" (the peak starts again from
 * the present use; Linux 6.12 on). cg_act_pokes_file says whether FILE is one.
 */
bool cg_act_pokes_file(const char *file);
/*
 * One of them on path's memory hierarchy, through the guard (CG_GUARD_RECLAIM, CG_GUARD_RESET;
 * less the rules in skip, as cg_guard takes them). 0, or -errno with d filled:
 * -EOPNOTSUPP where the kernel has no such action for the cgroup (no memory.reclaim there, a
 * memory.peak this kernel makes read-only), d saying the kernel's answer and since when it
 * has one; -EAGAIN when the kernel reclaimed less than asked.
 */
int cg_act_poke(const struct cg_layout *l, const char *path, const char *assignment, unsigned skip,
		struct cg_diag *d);
/*
 * Move process pid into path (every hierarchy path names), verified: 0 or -errno, d filled.
 * start is the process's start time (/proc/PID/stat, clock ticks) when it was chosen, or 0:
 * a pid chosen on a screen minutes ago may name another process by now, which is refused.
 */
int cg_act_move(const struct cg_layout *l, pid_t pid, uint64_t start, const char *path,
		struct cg_diag *d);

#endif
