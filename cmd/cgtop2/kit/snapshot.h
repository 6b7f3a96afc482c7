/* SPDX-License-Identifier: MIT */
/* cgtop2 --snapshot: the tree in the cgconfig.conf language, for cgcreate2 --apply. */
#ifndef CGTOP2_SNAPSHOT_H
#define CGTOP2_SNAPSHOT_H

#include "pipeline/kit_args.h"
#include "kernel/mount.h"

int snapshot_run(const struct kit_args *k, const struct cg_layout *l);

#endif
