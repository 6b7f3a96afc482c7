/* SPDX-License-Identifier: MIT */
/*
 * The tasks (stats_members.c): one cgroup's, every node's, a threaded cgroup's threads, the
 * processes counted, as stats_sample.c and stats.c call them.
 */
#ifndef CGKIT_STATS_MEMBERS_H
#define CGKIT_STATS_MEMBERS_H

#include <stdint.h>

#include "stats_state.h"

/* List the tasks of s->members_path anew (after the rows: a failure only empties the list). */
void st_members_sample(struct cg_stats *s, uint64_t now);
/* The nodes' tasks (every row's), with members_all. */
void st_members_all_sample(struct cg_stats *s, uint64_t now);
void st_members_free(struct cg_stats *s);
/* A threaded cgroup's threads (CG_STAT_THREADED) into its row, CPU against those of prev_t. */
void st_threads_sample(struct cg_stats *s, struct node *n, uint64_t now, uint64_t prev_t);
/* Processes in a cgroup.procs listing; without kernel threads for CG_COUNT_USER_PROCESSES. */
int st_procs_count(struct cg_stats *s, const char *text, uint64_t *ret);

#endif
