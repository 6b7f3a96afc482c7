/* SPDX-License-Identifier: MIT */
/* Draining a cgroup: its processes moved out in bounded rounds until it is empty. */
#ifndef CGKIT_DRAIN_H
#define CGKIT_DRAIN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "base/error.h"
#include "cgroups/freeze.h"
#include "migrate.h"
#include "kernel/mount.h"
#include "kernel/spec.h"

struct cg_drain_opts {
	bool recursive; /* the source's whole subtree */
	bool freeze; /* freeze the source for the drain */
	unsigned max_rounds; /* give up after this many rounds (0: CG_DRAIN_ROUNDS) */
	uint64_t timeout_ns; /* give up after this long (0: CG_DRAIN_TIMEOUT_NS) */
	uint64_t freeze_timeout_ns; /* 0: timeout_ns if set, else 5 s; never past the drain's end */
	/*
	 * Signals the caller keeps blocked for the drain (cgmigrate -z: cg_freezer_signals, so
	 * that none ends it with the source frozen): one pending and not ignored ends the drain,
	 * thawed, with -EINTR; the caller's unblocking then delivers it. NULL: none.
	 */
	const sigset_t *stop;
};
#define CG_DRAIN_ROUNDS	    100
#define CG_DRAIN_TIMEOUT_NS (30 * NSEC_PER_SEC)

struct cg_drain_result {
	size_t moved, gone, failed;
	unsigned rounds; /* rounds of moves; a listing after the last one came back empty */
	/*
	 * Processes still in the source when it gave up, or, when it ended (0), those whose move
	 * failed that it still listed: 0 then means the source was seen empty.
	 */
	size_t left;
	bool started; /* the source was listed: the counts above mean something */
	struct cg_move *failures; /* the failed ones, for cg_move_diag; freed by the caller */
	size_t nfailures;
};

/*
 * Move every process of src into the targets, listing and moving again until the source is
 * empty, so that children forked meanwhile are caught too. With recursive, the source's whole
 * subtree; a target inside it is refused as cg_drain_check does, a target above the source (a
 * child drained into its parent) is fine. With freeze, the source is frozen first and thawed at
 * the end whatever happens. Returns 0 when nothing is left to move: the source ended empty but
 * for the processes whose moves failed (in res; left counts those still listed), -EAGAIN with d
 * when it gave up after max_rounds or timeout_ns, -EINTR with d when a signal of o->stop
 * stopped it (thawed; an ignored signal does not), other -errno with d.
 */
/*
 * Before any drain starts: -EINVAL with d when a source is also a target (nothing would move),
 * or with recursive a target is inside a source's subtree (it would fill what is to be
 * emptied): the request cannot be meant as written. Else 0.
 */
int cg_drain_check(const struct cg_targets *src, const struct cg_targets *dst, bool recursive,
		   struct cg_diag *d);

int cg_drain(const struct cg_layout *l, const struct cg_target *src, const struct cg_targets *dst,
	     const struct cg_drain_opts *o, struct cg_drain_result *res, struct cg_diag *d);

#endif
