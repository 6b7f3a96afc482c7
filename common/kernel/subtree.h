/* SPDX-License-Identifier: MIT */
/* The one subtree walker: a cgroup tree below a directory fd, in name order, within a budget. */
#ifndef CGKIT_SUBTREE_H
#define CGKIT_SUBTREE_H

#include <stdbool.h>
#include <stddef.h>

/* A cgroup that is gone (ENOENT, or ENODEV from a file of a removed one): skipped in scans. */
bool cg_vanished(int r);

/*
 * Walk the subtree at path below the directory rootfd (path included, depth 0; children at
 * depth 1, ...; "" is rootfd itself), calling fn for each cgroup with rootfd, the cgroup's path
 * relative to it and its depth; every directory is opened beneath rootfd (cg_open_beneath). Children come in strcmp order of their names, which may hold any byte but '/' (a
 * delegatee can mkdir names with control characters: quote them before printing). Pre-order
 * (a cgroup before its children) unless flags has CG_WALK_POST (after them: removals).
 * fn returns 0 to go on, CG_WALK_PRUNE (pre-order) to leave that cgroup's children out, or a
 * negative value that ends the walk and is returned: -errno, or CG_WALK_STOP for a search
 * that found what it looked for. A cgroup below path that vanishes during the walk (ENOENT,
 * ENODEV: from the walk's own open or listing, or returned by fn) is skipped with its
 * subtree; path itself not being there is -ENOENT. The walk holds one directory fd at a
 * time (a level's names are read, then it is closed), so the depth costs no descriptors.
 */
enum cg_walk_flags {
	CG_WALK_POST = 1 << 0,
	/*
	 * An error does not end the walk (a thaw of what can be thawed): fn's error leaves the
	 * cgroup's children still to visit, the walk's own open or listing failing skips them,
	 * and the first such error is returned at the end. CG_WALK_STOP, -ENOMEM and the
	 * budget's -E2BIG still end it; path itself not opening is still its error.
	 */
	CG_WALK_KEEP_GOING = 1 << 1,
};
#define CG_WALK_PRUNE 1
/* Not an errno (those end at 4095): a search's "found", returned by the walk as it is. */
#define CG_WALK_STOP (-4096)

/*
 * What a walk may cost, for a tree it does not trust to be small (a search of a whole
 * machine's hierarchy, a thaw of a subtree that may be deep): the cgroups at max_depth are
 * visited but not listed, so none deeper is; the cgroup after max_entries below path ends the
 * walk with -E2BIG before it is opened. 0: no limit.
 */
struct cg_walk_budget {
	int max_depth;
	size_t max_entries;
};
typedef int (*cg_walk_fd_fn)(int rootfd, const char *path, int depth, void *ctx);
int cg_walk_fd(int rootfd, const char *path, unsigned flags, const struct cg_walk_budget *b,
	       cg_walk_fd_fn fn, void *ctx);

#endif
