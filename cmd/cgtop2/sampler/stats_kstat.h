/* SPDX-License-Identifier: MIT */
/*
 * The kernel's statistics beyond the collectors' own (stats_kstat.c), which the collectors
 * take from a file's text.
 */
#ifndef CGKIT_STATS_KSTAT_H
#define CGKIT_STATS_KSTAT_H

#include <stdbool.h>

#include "stats_state.h"

/*
 * The kernel's statistics (cg_kstats) of kind k's file from its text into the node's row (those
 * known stay); -EINVAL when a value is no number. st_kstat_kind: whether kind k's file has any.
 */
int st_kstat_from(struct cg_stats *s, struct node *n, int k, const char *text);
bool st_kstat_kind(int k);

#endif
