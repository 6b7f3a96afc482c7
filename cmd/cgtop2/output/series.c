// SPDX-License-Identifier: MIT
/*
 * --max-series: the exporter's bound on a scrape's size. With every cgroup exported by
 * default (cAdvisor's behaviour), a node with thousands of containers' sub-cgroups can make a
 * scrape Prometheus refuses (its sample_limit) and loses whole; the bound keeps the top of the
 * tree, which the dashboards sum, and leaves out the deepest cgroups first.
 */
#include <errno.h>
#include <stdlib.h>

#include "render.h"
#include "tool.h"

struct ranked {
	int depth;
	size_t at; /* the row's place in the view */
};

/* deepest first, then the last in the view's (path) order first */
static int deepest_first(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	return a->at > b->at ? -1 : a->at < b->at;
}

int view_bound_series(const struct render_opts *a, struct view *v)
{
	static bool said;
	struct ranked *rk;
	size_t *n_series, total = 0, k = 0;
	bool *drop;

	v->dropped = 0;
	if (!a->max_series || !v->n)
		return 0;
	n_series = calloc(v->n, sizeof(*n_series));
	rk = calloc(v->n, sizeof(*rk));
	drop = calloc(v->n, sizeof(*drop));
	if (!n_series || !rk || !drop) {
		free(n_series);
		free(rk);
		free(drop);
		return -ENOMEM;
	}
	for (size_t i = 0; i < v->n; i++) {
		n_series[i] = metrics_row_series(a, v->rows[i]);
		total += n_series[i];
		rk[i] = (struct ranked){ .depth = v->rows[i]->depth, .at = i };
	}
	if (total > a->max_series) {
		qsort(rk, v->n, sizeof(*rk), deepest_first);
		for (size_t i = 0; i < v->n && total > a->max_series; i++) {
			drop[rk[i].at] = true;
			total -= n_series[rk[i].at];
			v->dropped++;
		}
		for (size_t i = 0; i < v->n; i++)
			if (!drop[i])
				v->rows[k++] = v->rows[i];
		v->n = k;
		/* once a process: a scrape every 15 s would fill a journal with the same line */
		if (!said)
			tool_say(
				"--max-series=%zu: %zu cgroups left out, the deepest first (cgtop2_series_dropped_cgroups counts them at each scrape)",
				a->max_series, v->dropped);
		said = true;
	}
	free(n_series);
	free(rk);
	free(drop);
	return 0;
}
