/* SPDX-License-Identifier: MIT */
/* The families of a container that are no cgroup file's statistic (metrics_container.c). */
#ifndef CGTOP2_METRICS_CONTAINER_H
#define CGTOP2_METRICS_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>

#include "labels.h"
#include "out.h"
#include "render.h"

/*
 * The network families (cgkit's cgroup_network_*, or cAdvisor's container_network_*) of the
 * cgroups of v whose members have a network namespace of their own, and with
 * --compat=cadvisor the container_fs_* families cAdvisor derives from io.stat (v1 blkio).
 */
void metrics_container(struct out *o, bool prom, const struct cgtop2_args *a, const struct view *v,
		       const struct labels *l);
/* The series row r writes in them, at most (a namespace another row shares counts for both). */
size_t metrics_container_series(const struct cgtop2_args *a, const struct cg_stat_row *r);

#endif
