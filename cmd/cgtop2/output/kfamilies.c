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
	uint64_t v = r->k[i];

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

/* Row r's segment of statistic i in c: k, then one more a statistic r has before i. */
static size_t kseg(const struct cg_stat_row *r, int i, size_t k)
{
	for (int w = 0; w < i / 64; w++)
		k += (size_t)__builtin_popcountll(r->k_have[w]);
	return k + (size_t)__builtin_popcountll(r->k_have[i / 64] & ((1ull << (i % 64)) - 1));
}

void metrics_kstats(struct out *o, bool prom, const struct view *v, const struct labels *l,
		    struct metrics_cache *c, size_t k)
{
	uint64_t have[CG_K_WORDS] = { 0 };

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
				metrics_cache_put(o, c, r, kseg(v->rows[r], i, k));
			else
				kline(o, v, l, r, i);
		}
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
}

size_t metrics_kstats_series(const struct cg_stat_row *r)
{
	size_t n = 0;

	for (int w = 0; w < CG_K_WORDS; w++)
		n += (size_t)__builtin_popcountll(r->k_have[w]);
	return n;
}
