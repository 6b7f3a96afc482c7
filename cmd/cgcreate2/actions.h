/* SPDX-License-Identifier: MIT */
/*
 * cgcreate2 -r's one-shot actions, memory.reclaim=SIZE and memory.peak=reset: not settings (no
 * value to read back or undo), done after the settings, each through act.c's guarded verb.
 */
#ifndef CGCREATE2_ACTIONS_H
#define CGCREATE2_ACTIONS_H

#include <stdbool.h>

#include "base/parse.h"
#include "kernel/mount.h"
#include "kernel/spec.h"

/*
 * Where the kernel has no such action for the cgroup (no memory.reclaim, a read-only
 * memory.peak): cgcreate2's exit status, sysexits' EX_UNAVAILABLE. The settings before it stay.
 */
#define ACTIONS_EXIT_UNAVAILABLE 69

/* Move -r's actions out of set into acts (in their order): 0 or -ENOMEM. */
int actions_split(struct cg_assignments *set, struct cg_assignments *acts);
/*
 * Each action on each cgroup of ts (a path once, on its memory hierarchy), the owner rule
 * skipped with force (cgcreate2 checked it itself): the exit status, each failure said.
 */
int actions_run(const struct cg_layout *l, const struct cg_targets *ts,
		const struct cg_assignments *acts, bool force, bool verbose);

#endif
