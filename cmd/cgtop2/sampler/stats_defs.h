/* SPDX-License-Identifier: MIT */
/*
 * The sampler's table of files (stats_defs.c): every file a statistic can come from, and which
 * of them serve the tasks' count.
 */
#ifndef CGKIT_STATS_DEFS_H
#define CGKIT_STATS_DEFS_H

#include <stdbool.h>

#include "stats_state.h"

/* Every file the sampler knows; preference order within a metric. */
extern const struct file_def st_defs[F_N];

/* Which files serve M_TASKS: the task counters, or the process listings (s->count). */
bool st_kind_wanted(const struct cg_stats *s, int k);

#endif
