/* SPDX-License-Identifier: MIT */
/*
 * Private to common/stats*.c (no tool includes it): the functions of the sampler's layers, on
 * its state (stats_state.h: struct cg_stats, the cgroup tree, the fd budget).
 */
#ifndef CGKIT_STATS_IMPL_H
#define CGKIT_STATS_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "kernel/mount.h"
#include "stats.h"
#include "stats_state.h"

/* Which files serve M_TASKS: the task counters, or the process listings (s->count). */
bool st_kind_wanted(const struct cg_stats *s, int k);

/*
 * The layers below, each calling only the ones under it: stats.c (cg_stats_new and the settings)
 * and stats_sample.c (cg_stats_sample), the collectors
 * (stats_collect.c, stats_limits.c, stats_members.c), the read layer (stats_read.c), the tree
 * (stats_tree.c), the table (stats_defs.c).
 */

/* ---- cmd/cgtop2/sampler/stats_read.c: the read layer, under the collectors --------------------------- */

/* Read a stat file of a node into s->buf (or *heap when it is bigger): 0 or -errno. */
int st_read_kind(struct cg_stats *s, struct node *n, int k, char **heap);
/* A read of kind k failed with r: forget the fd of a file that is gone. */
void st_read_failed(struct cg_stats *s, struct node *n, int k, int r);
/* The directories st_read_kind opened for the node it read (sample_dfd), closed. */
void st_sample_dirs_close(struct cg_stats *s);
/* A task's stat line (proc.h's cg_task_stat), cached fds given back for it: 0 or -errno. */
int st_task_stat(struct cg_stats *s, pid_t pid, pid_t tid, char *buf, size_t size);
/* Is the process a kernel thread? false when it cannot be told (gone since the listing). */
bool st_task_is_kthread(struct cg_stats *s, pid_t pid);

/* ---- cmd/cgtop2/sampler/stats_collect.c: the collectors ------------------------------------------------- */

/* A base file's text in hand (kind k, of the node being sampled): what collectors take from it. */
void st_collect_from(struct cg_stats *s, struct node *n, int k, const char *text);
/* After the base metrics: the collectors' own files, for the values still unknown. */
void st_collect(struct cg_stats *s, struct node *n);
/* A row's collected values forgotten (each sample that reads starts afresh). */
void st_collect_reset(struct cg_stat_row *row);
/* The sampler's device name cache. */
void st_collect_free(struct cg_stats *s);
/* The collector of one of the collectors' own kinds (-1: none). */
int st_kind_collector(int k);

/* ---- cmd/cgtop2/sampler/stats_kstat.c: the kernel's statistics, under the collectors -------- */

/*
 * The kernel's statistics (cg_kstats) of kind k's file from its text into the node's row (those
 * known stay); -EINVAL when a value is no number. st_kstat_kind: whether kind k's file has any.
 */
int st_kstat_from(struct cg_stats *s, struct node *n, int k, const char *text);
bool st_kstat_kind(int k);

/* ---- cmd/cgtop2/sampler/stats_limits.c: the limits collector --------------------------------------------- */

/* The node's limit files when their refresh is due, else last time's; into its row. */
void st_limits_collect(struct cg_stats *s, struct node *n);

/* ---- cmd/cgtop2/sampler/stats_members.c: the tasks of one cgroup --------------------------------------- */

/* List the tasks of s->members_path anew (after the rows: a failure only empties the list). */
void st_members_sample(struct cg_stats *s, uint64_t now);
/* The nodes' tasks (every row's), with members_all. */
void st_members_all_sample(struct cg_stats *s, uint64_t now);
void st_members_free(struct cg_stats *s);
/* A threaded cgroup's threads (CG_STAT_THREADED) into its row, CPU against those of prev_t. */
void st_threads_sample(struct cg_stats *s, struct node *n, uint64_t now, uint64_t prev_t);
/* Processes in a cgroup.procs listing; without kernel threads for CG_COUNT_USER_PROCESSES. */
int st_procs_count(struct cg_stats *s, const char *text, uint64_t *ret);

/* ---- cmd/cgtop2/sampler/stats_tree.c: the cgroup tree, inotify, the fd budget -------------------------- */

struct node *st_node_find(struct cg_stats *s, const char *path);
struct node *st_node_add(struct cg_stats *s, struct node *parent, const char *path);
/* The cgroup at path exists in this hierarchy: make sure its node knows it (fd: its dir, or -1). */
struct node *st_node_attach(struct cg_stats *s, struct node *parent, const char *path, int role,
			    int fd);
/* Close a cached fd and give it back to the budget (nothing when it is no fd). */
void st_close_fd(struct cg_stats *s, int *fd);
/* The node and its subtree, gone from every hierarchy. */
void st_node_free(struct cg_stats *s, struct node *n);
/* The directory went away in one hierarchy: so did every descendant there. */
void st_node_vanish(struct cg_stats *s, struct node *n, int role);
/* The directory path of a hierarchy, opened from its root ("" is the root): fd or -errno. */
int st_open_root_relative(const struct cg_stats *s, int role, const char *path);
/* Out of fds: give cached fds back (then inotify). False when there was nothing left to free. */
bool st_fd_relief(struct cg_stats *s);
/* The fd budget from RLIMIT_NOFILE as it is (the tool may raise it before cg_stats_new), less
 * the fds the tool reserves. */
void st_fd_budget_init(struct cg_stats *s, size_t reserve);
/* name in the node's directory of role: see stats_tree.c. fd or -errno. */
int st_node_open(struct cg_stats *s, struct node *n, int role, const char *name, int flags,
		 int *own);
/* A file outside cgroupfs (/proc): opened as st_node_open does, giving cached fds back for it. */
int st_open_relieved(struct cg_stats *s, const char *path);
/*
 * A read or an open failed with r: true when it was for want of an fd and cached fds were
 * given back (try again); false otherwise (out of fds for good: s->out_of_fds says so).
 */
bool st_relieved(struct cg_stats *s, int r);
/*
 * The failure r of what (op) on the cgroup at path, in d (may be NULL) for the tool, why in our
 * own words or (NULL) the errno's and its rule: -r.
 */
int st_diag(struct cg_diag *d, const struct cg_layout *l, const char *path, int r, enum cg_op op,
	    const char *what, const char *why);
/* A row's limit texts freed (the limits collector's, freed with the node). */
void st_row_limits_free(struct cg_stat_row *row);
/* List the whole tree again in every hierarchy, down to s->depth. */
int st_scan_all(struct cg_stats *s);
/* Apply what inotify saw since the last sample. */
int st_drain_events(struct cg_stats *s);
/* Drop the nodes whose read said ENODEV (gone_seen) whose directory is gone. */
int st_collect_removed(struct cg_stats *s);

#endif
