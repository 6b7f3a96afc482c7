/* SPDX-License-Identifier: MIT */
/* cgtop2 --get: cgget's output for each CGROUP given. */
#ifndef CGTOP2_GET_H
#define CGTOP2_GET_H

#include "pipeline/kit_args.h"
#include "kernel/mount.h"

/* cgget's exit status of a failure (libcgroup's ECGOTHER, 50016, as an exit code) */
#define GET_EXIT_FAILED 96

int get_run(const struct kit_args *k, const struct cg_layout *l);

#endif
