/* SPDX-License-Identifier: MIT */
/* Private to cgtop2's screen: the last HIST_LEN refreshes of each cgroup, a ring each (history.c). */
#ifndef CGTOP2_HISTORY_H
#define CGTOP2_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "sampler/stats.h"

enum hist_metric { HIST_CPU, HIST_MEM, HIST_IO, HIST_PSI, HIST_N };
#define HIST_LEN 60

struct history;

struct history *hist_new(void);
void hist_free(struct history *h);
/* Add one refresh of every row; the rings of cgroups not in rows are freed. 0 or -ENOMEM. */
int hist_add(struct history *h, struct cg_stat_row *const *rows, size_t n);
/* Forget everything (a replay jumped). */
void hist_clear(struct history *h);
/* Up to max values of path's metric m, oldest first (NAN: unknown then): how many. */
size_t hist_get(const struct history *h, const char *path, enum hist_metric m, double *out,
		size_t max);
/* How many rings are kept (tests, --verbose). */
size_t hist_size(const struct history *h);
/*
 * vals[0, n) as width characters of a sparkline into buf (UTF-8 blocks or ASCII), scaled to
 * the largest (at least floor); an unknown value is a space. The bytes written.
 */
size_t spark(char *buf, size_t size, const double *vals, size_t n, size_t width, double floor,
	     bool utf8);
/* Row r (0 the top) of a graph height rows high, as spark. */
size_t graph_row(char *buf, size_t size, const double *vals, size_t n, size_t width, double floor,
		 int height, int r, bool utf8);
/* The metric of a row that the history keeps (NAN: unknown). */
double hist_value(const struct cg_stat_row *r, enum hist_metric m);

#endif
