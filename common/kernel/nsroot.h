/* SPDX-License-Identifier: MIT */
/* A hierarchy seen from this process's cgroup namespace, and which cgroup a process is in. */
#ifndef CGKIT_NSROOT_H
#define CGKIT_NSROOT_H

#include <sys/types.h>

#include "base/hier.h"

/*
 * The directory of the hierarchy's "/": h->dir once the namespace's root is found below a
 * mount from before the namespace, else the mountpoint (also when it was not found: cg_hier_fd
 * says so). Thread-safe, as cg_hier_fd.
 */
const char *cg_hier_dir(const struct cg_hier *h);
/* h->nsbase once looked for: the namespace's root below the mountpoint, or NULL */
const char *cg_hier_nsbase(const struct cg_hier *h);

/* pid's (tid's) cgroup in h, relative to the mountpoint ("" for its root), or -errno. */
int cg_pid_cgroup(const struct cg_hier *h, pid_t pid, pid_t tid, char **ret);

#endif
