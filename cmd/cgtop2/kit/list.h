/* SPDX-License-Identifier: MIT */
/* cgtop2 --list-cgroups (lscgroup) and --list-controllers (lssubsys). */
#ifndef CGTOP2_LIST_H
#define CGTOP2_LIST_H

#include "pipeline/kit_args.h"
#include "kernel/mount.h"

/* CONTROLLERS:PATH a line, each hierarchy's cgroups below each CGROUP (every one: the root) */
int list_cgroups_run(const struct kit_args *k, const struct cg_layout *l);
/* the mounted controllers, a hierarchy a line (comma-joined), as lssubsys; all, mounts */
int list_controllers_run(const struct kit_args *k, const struct cg_layout *l);

#endif
