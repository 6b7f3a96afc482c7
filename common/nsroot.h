/* SPDX-License-Identifier: MIT */
/* A hierarchy seen from this process's cgroup namespace, and which cgroup a process is in. */
#ifndef CGKIT_NSROOT_H
#define CGKIT_NSROOT_H

#include <sys/types.h>

#include "hier.h"

/*
 * The directory of the hierarchy's "/": h->dir once the namespace's root is found below a
 * mount from before the namespace, else the mountpoint (also when it was not found: cg_hier_fd
 * says so). Thread-safe, as cg_hier_fd.
 */
const char *cg_hier_dir(const struct cg_hier *h);
/* h->nsbase once looked for: the namespace's root below the mountpoint, or NULL */
const char *cg_hier_nsbase(const struct cg_hier *h);

/*
 * "/proc/PID/cgroup" text -> this hierarchy's cgroup path relative to h->dir ("" for its
 * root): the mount's root, or the cgroup namespace's when the mount reaches above it (the
 * kernel prints both relative to the reader's namespace root). -ENOENT when the line is
 * missing or outside the mount, -EREMOTE when the cgroup is outside the namespace's root
 * ("/../x": CG_NS_RULE says why it cannot be used).
 */
int cg_proc_cgroup_parse(const char *text, const struct cg_hier *h, char **ret);

/*
 * How many levels above this process's cgroup namespace root a mountinfo root is: "/.." is 1,
 * "/../.." 2; 0 for "/" or a root below the namespace's ("/x", a bind of a subtree); -EREMOTE
 * for a root in another branch ("/../x"), from which the namespace's root cannot be reached.
 */
int cg_root_levels_up(const char *root);

/* pid's (tid's) cgroup in h, relative to the mountpoint ("" for its root), or -errno. */
int cg_pid_cgroup(const struct cg_hier *h, pid_t pid, pid_t tid, char **ret);

#endif
