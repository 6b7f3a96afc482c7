/* SPDX-License-Identifier: MIT */
/* The families of a container that are no cgroup file's statistic (metrics_container.c). */
#ifndef CGTOP2_METRICS_CONTAINER_H
#define CGTOP2_METRICS_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>

#include "labels.h"
#include "out.h"
#include "render.h"

struct cg_net_ns;
struct metrics_cache;

/*
 * The namespace of each row of v whose cgroup writes one (NULL where none): the rows with a
 * member in a namespace of their own, each namespace at the row whose member started first.
 * NULL without memory; the caller frees the array, the namespaces are netdev.c's until its
 * next cg_net_refresh.
 */
const struct cg_net_ns **metrics_net_owners(const struct view *v);
/*
 * The network families (cgkit's cgroup_network_*, or cAdvisor's container_network_*) of the
 * cgroups of v whose members have a network namespace of their own (ns, metrics_net_owners'),
 * and with --compat=cadvisor the container_fs_* families cAdvisor derives from io.stat (v1
 * blkio). With c, each row's lines are its kept segments: from k on, after its statistics'
 * (metrics_kstats_segments), those metrics_container_row cut.
 */
void metrics_container(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
		       const struct labels *l, const struct cg_net_ns *const *ns,
		       struct metrics_cache *c, size_t k);
/* Row i's lines into c's text t, a segment a family it writes. */
void metrics_container_row(struct out *t, struct metrics_cache *c, const struct render_opts *a,
			   const struct view *v, const struct labels *l,
			   const struct cg_net_ns *const *ns, size_t i);
/* The series row r writes in them, at most (a namespace another row shares counts for both). */
size_t metrics_container_series(const struct render_opts *a, const struct cg_stat_row *r);

#endif
