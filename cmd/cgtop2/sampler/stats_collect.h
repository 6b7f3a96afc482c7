/* SPDX-License-Identifier: MIT */
/* The collectors (stats_collect.c), as stats_sample.c and stats.c call them. */
#ifndef CGKIT_STATS_COLLECT_H
#define CGKIT_STATS_COLLECT_H

#include "stats_state.h"

/* A base file's text in hand (kind k, of the node being sampled): what collectors take from it. */
void st_collect_from(struct cg_stats *s, struct node *n, int k, const char *text);
/* After the base metrics: the collectors' own files, for the values still unknown. */
void st_collect(struct cg_stats *s, struct node *n);
/* A row's collected values forgotten (each sample that reads starts afresh). */
void st_collect_reset(struct cg_stat_row *row);
/* The sampler's device name cache. */
void st_collect_free(struct cg_stats *s);

#endif
