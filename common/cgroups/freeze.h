/* SPDX-License-Identifier: MIT */
/* The freezer on every layout: find it, freeze and wait, thaw, is a cgroup frozen and why. */
#ifndef CGKIT_FREEZE_H
#define CGKIT_FREEZE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "kernel/mount.h"
#include "kernel/spec.h"

/*
 * A cgroup to freeze: v2 its own cgroup.freeze; v1 the cgroup of the same path in the freezer
 * hierarchy (which on a hybrid or legacy host is another hierarchy than the cpu one). A freeze
 * is always undone by cg_thaw: cg_freeze thaws again on its own errors, the caller after its
 * work, on its errors too.
 *
 * The library changes no process state, so it holds back no signal: a tool that must not die
 * with a cgroup frozen blocks cg_freezer_signals() (sigprocmask) before cg_freeze, passes that
 * set as stop, and restores its mask after cg_thaw, which delivers what came meanwhile.
 */
struct cg_freezer {
	const struct cg_hier *hier; /* v2: the cgroup's hierarchy; v1: the freezer hierarchy */
	const char *path; /* borrowed: the target's path, the same in both on v1 */
	bool frozen; /* cg_freeze wrote the freeze, cg_thaw has not undone it yet */
};

/* Find the freezer of a target (see struct cg_freezer); its path borrows t's. */
int cg_freezer_find(const struct cg_layout *l, const struct cg_target *t, struct cg_freezer *ret,
		    struct cg_diag *d);
/*
 * Freeze and wait until the kernel says frozen (v2 cgroup.events, v1 freezer.state), for at most
 * timeout_ns (0: CG_KILL_TIMEOUT_NS). A signal of stop (may be NULL) that is pending and not
 * ignored ends the wait with -EINTR. On every error the cgroup is thawed again.
 */
int cg_freeze(struct cg_freezer *f, uint64_t timeout_ns, const sigset_t *stop, struct cg_diag *d);
/* Thaw if frozen. Safe to call twice; a cgroup removed meanwhile has nothing left to thaw. */
int cg_thaw(struct cg_freezer *f, struct cg_diag *d);

/*
 * The signals a tool holds back while a cgroup is frozen (SIGINT, SIGTERM, SIGHUP, SIGQUIT):
 * each would otherwise end it with the cgroup left frozen.
 */
void cg_freezer_signals(sigset_t *ret);
/*
 * One of the signals of set (the caller keeps them blocked) is pending: stop, thaw, let it act.
 * One the process ignores (nohup, a background job's SIGINT) would vanish at the unblocking: it
 * does not count. set may be NULL (false). Reads the signal state, changes nothing.
 */
bool cg_signals_waiting(const sigset_t *set);

/*
 * Is the target frozen, or freezing, so that nothing placed there would run? -EBUSY with d
 * filled (the target, what "use", why "the cgroup is frozen: " and the file that says so); 0
 * when not or when it cannot tell (the root has none of these files).
 * v2: cgroup.events "frozen 1" is the effective state (an ancestor's freeze included);
 * cgroup.freeze 1 is one on the way. v1 (the target in the freezer hierarchy): freezer.state
 * FROZEN or FREEZING, which a child of a frozen cgroup reports too (freezer.parent_freezing).
 */
int cg_is_frozen(const struct cg_target *t, struct cg_diag *d);
/* The first of the targets that cg_is_frozen says is frozen: -EBUSY, d naming it; else 0. */
int cg_targets_frozen(const struct cg_targets *t, struct cg_diag *d);

/*
 * v1: set a subtree's freezer.state to THAWED, top first: a frozen process keeps even a SIGKILL
 * pending until then, and a frozen cgroup never empties. Nothing to do on v2 (a fatal signal
 * ends a frozen process) or in a hierarchy without the freezer. 0, or the first -errno of a
 * thaw (a cgroup gone meanwhile is none).
 */
int cg_thaw_tree(const struct cg_hier *h, const char *path);

#endif
