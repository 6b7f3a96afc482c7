/* SPDX-License-Identifier: MIT */
/*
 * The sampler's cgroup tree (stats_tree.c): its nodes over the hierarchies, their watches on
 * the mirror, the fd budget; every layer above calls it.
 */
#ifndef CGKIT_STATS_TREE_H
#define CGKIT_STATS_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "kernel/mount.h"
#include "stats_state.h"

struct node *st_node_find(struct cg_stats *s, const char *path);
struct node *st_node_add(struct cg_stats *s, struct node *parent, const char *path);
/* The cgroup at path exists in this hierarchy: make sure its node knows it (fd: its dir, or -1). */
struct node *st_node_attach(struct cg_stats *s, struct node *parent, const char *path, int role,
			    int fd);
/* Close a cached fd and give it back to the budget (nothing when it is no fd). */
void st_close_fd(struct cg_stats *s, int *fd);
/* The node and its subtree, gone from every hierarchy. */
void st_node_free(struct cg_stats *s, struct node *n);
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
