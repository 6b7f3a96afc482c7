/* SPDX-License-Identifier: MIT */
/*
 * The refusals every entrance shares before it acts on a cgroup (cgtop2's screen through
 * act.c, cgcreate2 -x through remove.c, cgcreate2's and cgmigrate's owner check): a
 * hierarchy's root, a subtree holding the calling process, a systemd unit not delegated.
 */
#ifndef CGKIT_GUARD_H
#define CGKIT_GUARD_H

#include <stdbool.h>

#include "base/error.h"
#include "cgroups/owner.h"
#include "kernel/spec.h"

enum cg_guard_verb {
	CG_GUARD_FREEZE, /* freeze or thaw */
	CG_GUARD_SIGNAL, /* a signal to every process of the subtree */
	CG_GUARD_KILL, /* SIGKILL to the subtree until it is empty */
	CG_GUARD_SET, /* a limit written */
	CG_GUARD_MOVE, /* a process moved in (the cgroup is the destination) */
	CG_GUARD_REMOVE, /* the subtree removed, what runs in it left alone */
	CG_GUARD_REMOVE_KILL, /* the subtree removed, what runs in it signalled first */
	CG_GUARD_RECLAIM, /* memory reclaimed from the cgroup (memory.reclaim) */
	CG_GUARD_RESET, /* a peak reset (memory.peak) */
	CG_GUARD_N,
};

/*
 * The rules. ROOT: a hierarchy's root (the namespace's, inside a cgroup namespace) holds every
 * process of the machine (or namespace) and no limit or freezer file; not for a move, as a
 * process may go back to the root. SELF: the cgroup holds the calling process or is an
 * ancestor of its cgroup: a freeze would stop the caller half-way (cgtop2's screen no longer
 * answers), a signal or a kill would reach it, a removal would end it half-way; not for a
 * limit (one may limit one's own session, and undo it) nor a move into it, a reclaim or a
 * peak's reset (which take nothing from the caller but memory it gets back). OWNER: inside a
 * systemd unit that is not delegated, whose manager is the single writer of its cgroups and
 * may undo what is done there (cg_guard_owner).
 */
enum cg_guard_rule {
	CG_RULE_ROOT = 1u << 0,
	CG_RULE_SELF = 1u << 1,
	CG_RULE_OWNER = 1u << 2,
};

/* The rules (enum cg_guard_rule) that apply to verb; 0 for an unknown verb. */
unsigned cg_guard_rules(enum cg_guard_verb v);

/* Is the cgroup mine ("a/b/c", "" the root) at or below path ("a/b")? */
bool cg_guard_below(const char *mine, const char *path);

/*
 * The owner rule alone: -EPERM with d saying "inside systemd's unit U, which is not
 * delegated: ..." (the tool adds what to run instead) and o filled, 0 otherwise (also where no
 * systemd runs, or outside its units). o may be NULL.
 */
int cg_guard_owner(const struct cg_target *t, struct cg_owner *o, struct cg_diag *d);

/*
 * Whether verb may be done to t by the rules that apply to it (cg_guard_rules), less those
 * in skip (a tool that checked the owner itself, with -v and --force: CG_RULE_OWNER),
 * touching nothing: 0, or -EINVAL (root, self) / -EPERM (owner) with d naming the cgroup and
 * the rule in one line. The caller is this process (its cgroup from /proc/self/cgroup).
 */
int cg_guard(const struct cg_target *t, enum cg_guard_verb v, unsigned skip, struct cg_diag *d);

/* cg_guard on every target of ts: the first refusal. */
int cg_guard_all(const struct cg_targets *ts, enum cg_guard_verb v, unsigned skip,
		 struct cg_diag *d);

#endif
