/* SPDX-License-Identifier: MIT */
/* The limits collector (stats_limits.c), which stats_collect.c runs. */
#ifndef CGKIT_STATS_LIMITS_H
#define CGKIT_STATS_LIMITS_H

#include "stats_state.h"

/* The node's limit files when their refresh is due, else last time's; into its row. */
void st_limits_collect(struct cg_stats *s, struct node *n);

#endif
