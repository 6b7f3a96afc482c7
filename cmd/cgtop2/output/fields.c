// SPDX-License-Identifier: MIT
/*
 * cgtop2 --fields, --order=FIELD, --top (fields.h): the statistics by name, for a dump of
 * chosen columns. The names are the JSON keys and CSV columns render_data.c writes, so that a
 * field means there what it means here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/clock.h"

#include "fields.h"

/* How a field's value is made and written. */
enum fkind {
	K_TASKS, /* the counting mode's key (tasks, processes, user_processes) */
	K_BASE, /* a double of the row, known with a CG_STAT_ bit */
	K_NS, /* nanoseconds, written as exact seconds */
	K_X, /* the row's cg_stat_x, a count */
	K_PSI_US, /* the row's cg_stat_x, microseconds written as seconds */
	K_LIMIT, /* cg_stat_limit's text */
};

struct field {
	const char *key, *alias;
	enum fkind kind;
	unsigned have; /* K_BASE: the CG_STAT_ bit; K_X, K_PSI_US: the x index; K_LIMIT: which */
	const char *fmt; /* K_BASE */
};

static const struct field table[] = {
	{ "tasks", NULL, K_TASKS, CG_STAT_TASKS, "%.0f" },
	{ "cpu_percent", NULL, K_BASE, CG_STAT_CPU_RATE, "%.2f" },
	{ "cpu_usage_seconds", "cpu.usage", K_NS, CG_STAT_CPU, NULL },
	{ "memory_bytes", "memory.current", K_BASE, CG_STAT_MEMORY, "%.0f" },
	{ "io_read_bytes_per_sec", NULL, K_BASE, CG_STAT_IO_RATE, "%.0f" },
	{ "io_write_bytes_per_sec", NULL, K_BASE, CG_STAT_IO_RATE, "%.0f" },
	{ "pressure_cpu", "cpu.pressure", K_BASE, CG_STAT_PSI_CPU, "%.2f" },
	{ "pressure_memory", "memory.pressure", K_BASE, CG_STAT_PSI_MEMORY, "%.2f" },
	{ "pressure_io", "io.pressure", K_BASE, CG_STAT_PSI_IO, "%.2f" },
	{ "io_read_bytes", NULL, K_BASE, CG_STAT_IO, "%.0f" },
	{ "io_write_bytes", NULL, K_BASE, CG_STAT_IO, "%.0f" },
	{ "io_read_ops", NULL, K_X, CG_X_IO_RIOS, NULL },
	{ "io_write_ops", NULL, K_X, CG_X_IO_WIOS, NULL },
	{ "pressure_cpu_some_seconds", NULL, K_PSI_US, CG_X_PSI_SOME_US + CG_PSI_CPU, NULL },
	{ "pressure_memory_some_seconds", NULL, K_PSI_US, CG_X_PSI_SOME_US + CG_PSI_MEMORY, NULL },
	{ "pressure_io_some_seconds", NULL, K_PSI_US, CG_X_PSI_SOME_US + CG_PSI_IO, NULL },
};

#define N_BASE ARRAY_SIZE(table)
/* the limits follow the table: field N_BASE + enum cg_limit; then the kernel's statistics */
#define N_FIELDS    (N_BASE + CG_LIMIT_N)
#define IS_KSTAT(f) ((size_t)(f) >= N_FIELDS)

int field_lookup(const char *s)
{
	for (size_t i = 0; i < N_BASE; i++)
		if (!strcmp(s, table[i].key) || (table[i].alias && !strcmp(s, table[i].alias)))
			return (int)i;
	/* the tasks column's key in each counting mode */
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(s, count_keys[i]))
			return 0;
	for (size_t i = 0; i < CG_LIMIT_N; i++)
		if (!strcmp(s, cg_limit_names[i]))
			return (int)(N_BASE + i);
	for (int i = 0; i < CG_K_N; i++)
		if (!strcmp(s, cg_kstats[i].key))
			return (int)N_FIELDS + i;
	return -ENOENT;
}

bool field_numeric(int i)
{
	return i >= 0 && ((size_t)i < N_BASE || IS_KSTAT(i));
}

void fields_list(struct out *o)
{
	for (size_t i = 0; i < N_BASE; i++)
		out_printf(o, "%s%s%s\n", table[i].key, table[i].alias ? "\t" : "",
			   table[i].alias ? table[i].alias : "");
	for (size_t i = 0; i < CG_LIMIT_N; i++)
		out_printf(o, "%s\n", cg_limit_names[i]);
	for (int i = 0; i < CG_K_N; i++)
		out_printf(o, "%s\n", cg_kstats[i].key);
}

static bool x_known(const struct cg_stat_row *r, unsigned i)
{
	return r->x_have & (1ull << i);
}

/* A numeric field's value: whether it is known, and it. */
static bool value(int field, const struct cg_stat_row *r, double *ret)
{
	const struct field *f = &table[IS_KSTAT(field) ? 0 : field];
	/* the table's first fields, K_TASKS to the last K_BASE, in its order */
	double base[] = { (double)r->tasks,   r->cpu_percent,	     (double)r->cpu_ns,
			  (double)r->memory,  r->io_read_bps,	     r->io_write_bps,
			  r->psi[CG_PSI_CPU], r->psi[CG_PSI_MEMORY], r->psi[CG_PSI_IO],
			  (double)r->io_read, (double)r->io_write };

	if (IS_KSTAT(field)) {
		*ret = (double)cg_kstat_get(r, field - (int)N_FIELDS);
		return cg_kstat_known(r, field - (int)N_FIELDS);
	}
	switch (f->kind) {
	case K_TASKS:
	case K_BASE:
	case K_NS:
		*ret = base[field];
		return (r->have & f->have) && isfinite(*ret);
	case K_X:
	case K_PSI_US:
		*ret = (double)cg_stat_x(r, f->have);
		return x_known(r, f->have);
	case K_LIMIT:
		break;
	}
	return false;
}

size_t fields_numeric_n(void)
{
	return N_BASE;
}

const char *field_key(int i)
{
	return field_numeric(i) ? table[i].key : "";
}

void field_cell(int i, const struct cg_stat_row *r, char *buf, size_t size)
{
	double v;

	if (!field_numeric(i) || !value(i, r, &v))
		snprintf(buf, size, "-");
	else if (table[i].kind == K_NS)
		snprintf(buf, size, "%.2f", v / (double)NSEC_PER_SEC);
	else if (table[i].kind == K_PSI_US)
		snprintf(buf, size, "%.2f", v / 1e6);
	else
		snprintf(buf, size, table[i].fmt ? table[i].fmt : "%.0f", v);
}

struct ranked {
	double v;
	bool have;
	size_t at; /* its place in the path-ordered view: the ties' order */
	struct cg_stat_row *row;
};

static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->have != b->have)
		return a->have ? -1 : 1;
	if (a->have && a->v != b->v)
		return a->v > b->v ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

int fields_sort(struct view *v, int field)
{
	_cleanup_free_ struct ranked *rk = calloc(v->n ? v->n : 1, sizeof(*rk));

	if (!rk)
		return -ENOMEM;
	for (size_t i = 0; i < v->n; i++) {
		rk[i].row = v->rows[i];
		rk[i].at = i;
		rk[i].have = value(field, v->rows[i], &rk[i].v);
	}
	qsort(rk, v->n, sizeof(*rk), ranked_cmp);
	for (size_t i = 0; i < v->n; i++)
		v->rows[i] = rk[i].row;
	return 0;
}

static const char *key_of(const struct render_opts *a, unsigned field)
{
	if (IS_KSTAT(field))
		return cg_kstats[field - N_FIELDS].key;
	if (field >= N_BASE)
		return cg_limit_names[field - N_BASE];
	return table[field].kind == K_TASKS ? count_keys[a->count] : table[field].key;
}

/* One field's value as JSON (null: unknown) or CSV (empty: unknown); limits are text. */
static void put_value(struct out *o, const struct cg_stat_row *r, unsigned field, enum quoting q)
{
	char buf[64], line[4096];
	const char *s;
	double v;
	size_t n = 0;

	if (IS_KSTAT(field)) {
		int k = (int)(field - N_FIELDS);
		uint64_t kv = cg_kstat_get(r, k);

		if (!cg_kstat_known(r, k))
			out_printf(o, "%s", q == Q_JSON ? "null" : "");
		else if (cg_kstats[k].usec)
			out_printf(o, "%" PRIu64 ".%06" PRIu64, kv / 1000000, kv % 1000000);
		else
			out_printf(o, "%" PRIu64, kv);
		return;
	}
	if (field >= N_BASE) {
		s = cg_stat_limit(r, (enum cg_limit)(field - N_BASE), buf, sizeof(buf));
		if (!s) {
			out_printf(o, "%s", q == Q_JSON ? "null" : "");
			return;
		}
		/* io.max's lines joined as the CSV's limit columns join them */
		for (; *s && n + 3 < sizeof(line); s++) {
			if (*s == '\n' && q == Q_CSV)
				line[n++] = ';';
			line[n++] = *s == '\n' && q == Q_CSV ? ' ' : *s;
		}
		line[n] = '\0';
		if (q == Q_JSON || strpbrk(line, ",\""))
			out_put(o, "\"", 1);
		put_name(o, line, q);
		if (q == Q_JSON || strpbrk(line, ",\""))
			out_put(o, "\"", 1);
		return;
	}
	if (!value((int)field, r, &v)) {
		out_printf(o, "%s", q == Q_JSON ? "null" : "");
		return;
	}
	switch (table[field].kind) {
	case K_NS:
		out_printf(o, "%" PRIu64 ".%09" PRIu64, (uint64_t)(r->cpu_ns / NSEC_PER_SEC),
			   (uint64_t)(r->cpu_ns % NSEC_PER_SEC));
		break;
	case K_X:
		out_printf(o, "%" PRIu64, cg_stat_x(r, table[field].have));
		break;
	case K_PSI_US:
		out_printf(o, "%" PRIu64 ".%06" PRIu64, cg_stat_x(r, table[field].have) / 1000000,
			   cg_stat_x(r, table[field].have) % 1000000);
		break;
	default:
		out_printf(o, table[field].fmt, v);
		break;
	}
}

void fields_json(struct out *o, const struct render_opts *a, const struct view *v)
{
	uint64_t ns = view_wall_ns(v);
	char times[128];

	json_times(times, sizeof(times), ns, NULL, 0);
	out_printf(o, "{\"time\":%" PRIu64 ".%03" PRIu64 ",%s,\"cgroups\":[",
		   (uint64_t)(ns / NSEC_PER_SEC), (uint64_t)(ns % NSEC_PER_SEC / NSEC_PER_MSEC),
		   times);
	for (size_t i = 0; i < v->n; i++) {
		out_printf(o, "%s{\"path\":\"", i ? "," : "");
		put_name(o, v->rows[i]->path, Q_JSON);
		out_printf(o, "\"");
		for (size_t f = 0; f < a->n_fields; f++) {
			out_printf(o, ",\"%s\":", key_of(a, a->fields[f]));
			put_value(o, v->rows[i], a->fields[f], Q_JSON);
		}
		out_printf(o, "}");
		out_maybe_flush(o);
	}
	out_printf(o, "]}\n");
}

void fields_csv(struct out *o, const struct render_opts *a, const struct view *v, bool header)
{
	uint64_t ns = view_wall_ns(v);

	if (header) {
		out_printf(o, "time,path");
		for (size_t f = 0; f < a->n_fields; f++)
			out_printf(o, ",%s", key_of(a, a->fields[f]));
		out_printf(o, "\n");
	}
	for (size_t i = 0; i < v->n; i++) {
		const char *path = v->rows[i]->path;
		bool quote = strpbrk(path, ",\"") != NULL;

		out_printf(o, "%" PRIu64 ".%03" PRIu64 ",%s", (uint64_t)(ns / NSEC_PER_SEC),
			   (uint64_t)(ns % NSEC_PER_SEC / NSEC_PER_MSEC), quote ? "\"" : "");
		put_name(o, path, Q_CSV);
		out_printf(o, "%s", quote ? "\"" : "");
		for (size_t f = 0; f < a->n_fields; f++) {
			out_printf(o, ",");
			put_value(o, v->rows[i], a->fields[f], Q_CSV);
		}
		out_printf(o, "\n");
		out_maybe_flush(o);
	}
}
