/* SPDX-License-Identifier: MIT */
/* Moving processes and threads between cgroups: one write per id, verified, drains. */
#ifndef CGKIT_MIGRATE_H
#define CGKIT_MIGRATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "mount.h"

/*
 * The membership file for a move: v2 cgroup.procs / cgroup.threads; v1 cgroup.procs for a
 * whole process, tasks for a single thread.
 */
const char *cg_membership_file(const struct cg_hier *h, bool thread);

/* Open the target's membership file once (O_WRONLY, verified cgroupfs), for many moves. */
int cg_attach_open(const struct cg_hier *h, const char *path, bool thread);
/* Move one pid (or tid) through an fd from cg_attach_open: one write, -errno. */
int cg_attach_fd(int fd, pid_t id);
/* Open + move + close, with a diagnostic naming the cgroup and the rule on failure. */
int cg_attach(const struct cg_hier *h, const char *path, pid_t id, bool thread,
	      struct cg_diag *d);

#endif
