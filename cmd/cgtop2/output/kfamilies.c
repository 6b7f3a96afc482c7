// SPDX-License-Identifier: MIT
/*
 * The kernel's statistics (cg_kstats) in the expositions, after metrics.c's families: a family
 * each, cgroup_KEY (cAdvisor's name with --compat=cadvisor where cAdvisor has one, else
 * cgkit_KEY), written only when a row has its value and ?collect[]= keeps its collector.
 * Each row's samples are kept by metrics_cache.c with its other lines, a segment a statistic
 * the row has.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kfamilies.h"
#include "metrics_cache.h"

#include "base/parse.h"

/* The family's name as OpenMetrics names it (without _total). */
static void kfamily_name(char *buf, size_t size, int i, bool cadv)
{
	const struct cg_kstat *k = &cg_kstats[i];

	if (cadv && k->cadvisor)
		snprintf(buf, size, "%s", k->cadvisor);
	else
		snprintf(buf, size, "%s_%s", cadv ? "cgkit" : "cgroup", k->key);
}

static void kfamily_header(struct out *o, bool prom, const char *name, int i)
{
	const struct cg_kstat *k = &cg_kstats[i];
	const char *total = k->counter ? "_total" : "";
	const char *type = k->counter ? "counter" : "gauge";
	const char *unit = k->usec ? "seconds" : strstr(k->key, "_bytes") ? "bytes" : NULL;

	if (prom) {
		out_printf(o, "# HELP %s%s %s.\n# TYPE %s%s %s\n", name, total, k->help, name,
			   total, type);
		return;
	}
	out_printf(o, "# TYPE %s %s\n", name, type);
	if (unit)
		out_printf(o, "# UNIT %s %s\n", name, unit);
	out_printf(o, "# HELP %s %s.\n", name, k->help);
}

static void put_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

static void kvalue(struct out *o, const struct cg_stat_row *r, int i)
{
	char buf[CG_U64_LEN], *p;
	uint64_t v = cg_kstat_get(r, i);

	if (cg_kstats[i].usec) {
		out_printf(o, "%" PRIu64 ".%06" PRIu64, v / 1000000, v % 1000000);
		return;
	}
	p = cg_format_u64(buf, v);
	out_put(o, p, (size_t)(buf + sizeof(buf) - p));
}

/* Row r's sample of statistic i: NAME[_total]{cgroup="PATH",...} VALUE (kfamily_name's NAME). */
static void kline(struct out *o, const struct view *v, const struct labels *l, size_t r, int i)
{
	const struct cg_kstat *k = &cg_kstats[i];
	bool esc;

	if (l->cadv && k->cadvisor) {
		put_str(o, k->cadvisor);
	} else {
		put_str(o, l->cadv ? "cgkit_" : "cgroup_");
		put_str(o, k->key);
	}
	if (k->counter)
		out_put(o, "_total", 6);
	put_str(o, l->cadv ? "{id=\"" : "{cgroup=\"");
	esc = labels_put(o, l, v, r, NULL);
	out_put(o, "\"", 1);
	labels_end(o, esc);
	kvalue(o, v->rows[r], i);
	out_put(o, "\n", 1);
	out_maybe_flush(o);
}

/*
 * v1's cpuacct.usage_percpu: a sample per CPU, labelled by its number (cpu="0"), in a family of
 * its own, not cAdvisor's container_cpu_usage_seconds_total{cpu="cpu00"}: cAdvisor writes those
 * instead of its cpu="total" sample (with its percpu metrics on), and a sum over that family
 * would count the time twice beside cgkit's total.
 */
#define PERCPU "cpu_usage_percpu_seconds"

static void percpu_header(struct out *o, bool prom, bool cadv)
{
	const char *name = cadv ? "cgkit_" PERCPU : "cgroup_" PERCPU;
	const char *help = "v1 cpuacct.usage_percpu: CPU time by CPU";

	if (prom) {
		out_printf(o, "# HELP %s_total %s.\n# TYPE %s_total counter\n", name, help, name);
		return;
	}
	out_printf(o, "# TYPE %s counter\n# UNIT %s seconds\n# HELP %s %s.\n", name, name, name,
		   help);
}

static void percpu_lines(struct out *o, const struct view *v, const struct labels *l, size_t r)
{
	const struct cg_stat_row *row = v->rows[r];

	for (size_t c = 0; c < row->n_percpu; c++) {
		bool esc;

		put_str(o, l->cadv ? "cgkit_" PERCPU "_total{id=\""
				   : "cgroup_" PERCPU "_total{cgroup=\"");
		esc = labels_put(o, l, v, r, NULL);
		out_printf(o, "\",cpu=\"%zu\"", c);
		labels_end(o, esc);
		out_printf(o, "%" PRIu64 ".%09" PRIu64 "\n", row->percpu_ns[c] / 1000000000,
			   row->percpu_ns[c] % 1000000000);
		out_maybe_flush(o);
	}
}

void metrics_kstats(struct out *o, bool prom, const struct view *v, const struct labels *l,
		    struct metrics_cache *c, size_t k)
{
	uint64_t have[CG_K_WORDS] = { 0 };
	bool percpu = false;

	for (size_t r = 0; r < v->n; r++)
		for (int w = 0; w < CG_K_WORDS; w++)
			have[w] |= v->rows[r]->k_have[w];
	for (int i = 0; i < CG_K_N; i++) {
		char name[128];

		if (!((have[i / 64] >> (i % 64)) & 1) ||
		    (v->collect && !(v->collect & (1u << cg_kstats[i].coll))))
			continue;
		kfamily_name(name, sizeof(name), i, l->cadv);
		kfamily_header(o, prom, name, i);
		for (size_t r = 0; r < v->n; r++) {
			if (!cg_kstat_known(v->rows[r], i))
				continue;
			if (c)
				metrics_cache_put(o, c, r, k + cg_kstat_slot(v->rows[r], i));
			else
				kline(o, v, l, r, i);
		}
	}
	for (size_t r = 0; r < v->n; r++) {
		const struct cg_stat_row *row = v->rows[r];

		if (!row->n_percpu || (v->collect && !(v->collect & (1u << CG_COLL_CPU))))
			continue;
		if (!percpu)
			percpu_header(o, prom, l->cadv);
		percpu = true;
		/* its segment is the row's last, after one a statistic the row has */
		if (c)
			metrics_cache_put(o, c, r, k + metrics_kstats_segments(row) - 1);
		else
			percpu_lines(o, v, l, r);
	}
}

void metrics_kstats_row(struct out *t, struct metrics_cache *c, const struct view *v,
			const struct labels *l, size_t r)
{
	for (int i = 0; i < CG_K_N; i++) {
		if (!cg_kstat_known(v->rows[r], i))
			continue;
		kline(t, v, l, r, i);
		metrics_cache_cut(c, r);
	}
	if (v->rows[r]->n_percpu) {
		percpu_lines(t, v, l, r);
		metrics_cache_cut(c, r);
	}
}

size_t metrics_kstats_segments(const struct cg_stat_row *r)
{
	return cg_kstat_count(r) + (r->n_percpu > 0);
}

size_t metrics_kstats_series(const struct cg_stat_row *r)
{
	return cg_kstat_count(r) + r->n_percpu;
}
