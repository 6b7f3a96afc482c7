/* SPDX-License-Identifier: MIT */
/* The kernel's statistics (cg_kstats) as metric families, after metrics.c's. */
#ifndef CGTOP2_KFAMILIES_H
#define CGTOP2_KFAMILIES_H

#include <stdbool.h>
#include <stddef.h>

#include "labels.h"
#include "render.h"

/* Every statistic some row of v has, as a family (its collector kept by ?collect[]=). */
void metrics_kstats(struct out *o, bool prom, const struct view *v, const struct labels *l);
/* The series of row r among them, for --max-series. */
size_t metrics_kstats_series(const struct cg_stat_row *r);

#endif
