/* SPDX-License-Identifier: MIT */
/* The kernel's statistics (cg_kstats) as metric families, after metrics.c's. */
#ifndef CGTOP2_KFAMILIES_H
#define CGTOP2_KFAMILIES_H

#include <stdbool.h>
#include <stddef.h>

#include "labels.h"
#include "render.h"

struct metrics_cache;

/*
 * Every statistic some row of v has, as a family (its collector kept by ?collect[]=); with c,
 * each row's samples are its kept segments from k on (metrics_kstats_row's).
 */
void metrics_kstats(struct out *o, bool prom, const struct view *v, const struct labels *l,
		    struct metrics_cache *c, size_t k);
/*
 * Row r's samples into c's text t, a segment each statistic it has and one for its CPUs' times
 * (v1's cpuacct.usage_percpu), metrics_kstats_segments' count.
 */
void metrics_kstats_row(struct out *t, struct metrics_cache *c, const struct view *v,
			const struct labels *l, size_t r);
size_t metrics_kstats_segments(const struct cg_stat_row *r);
/* The series of row r among them (a CPU's time one each), for --max-series. */
size_t metrics_kstats_series(const struct cg_stat_row *r);

#endif
