// SPDX-License-Identifier: MIT
/*
 * cgtop2's metric families and their two text expositions: OpenMetrics 1.0 and the Prometheus
 * text format 0.0.4. One table says each family's name, type, unit and where its value comes
 * from; the two writers differ only in the metadata lines.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "cgtop2.h"
#include "cleanup.h"

enum ftype { T_COUNTER, T_GAUGE };

static const char *const type_names[] = { "counter", "gauge" };

/* Where a family's value comes from. */
enum vsrc { V_CPU_S, V_MEM, V_TASKS, V_IOR, V_IOW, V_PSI_SOME };

struct family {
	const char *name; /* without a counter's _total */
	enum ftype type;
	const char *unit; /* OpenMetrics UNIT, or NULL */
	const char *help;
	unsigned need; /* the row's have bit; for V_PSI_*, the cpu one (memory, io follow) */
	enum vsrc src;
};

static const struct family families[] = {
	{ "cgroup_cpu_usage_seconds", T_COUNTER, "seconds",
	  "CPU time used by the cgroup and its descendants", CG_STAT_CPU, V_CPU_S },
	{ "cgroup_memory_bytes", T_GAUGE, "bytes", "Memory charged to the cgroup", CG_STAT_MEMORY,
	  V_MEM },
	{ "cgroup_tasks", T_GAUGE, NULL, "Tasks (threads) in the cgroup and its descendants",
	  CG_STAT_TASKS, V_TASKS },
	{ "cgroup_io_read_bytes", T_COUNTER, "bytes", "Bytes read from block devices", CG_STAT_IO,
	  V_IOR },
	{ "cgroup_io_write_bytes", T_COUNTER, "bytes", "Bytes written to block devices", CG_STAT_IO,
	  V_IOW },
	{ "cgroup_pressure_some_avg10_ratio", T_GAUGE, NULL,
	  "Share of the last 10 s in which some tasks stalled on the resource (PSI some avg10)",
	  CG_STAT_PSI_CPU, V_PSI_SOME },
};

/* -P and -k count processes: another gauge, so that a series never changes its meaning */
static const struct family processes[] = {
	[CG_COUNT_PROCESSES] = { "cgroup_processes", T_GAUGE, NULL,
				 "Processes (each counts once) and kernel threads in the cgroup",
				 CG_STAT_TASKS, V_TASKS },
	[CG_COUNT_USER_PROCESSES] = { "cgroup_user_processes", T_GAUGE, NULL,
				      "Processes (each counts once, no kernel threads) in the cgroup",
				      CG_STAT_TASKS, V_TASKS },
};

static const char *const psi_res[CG_PSI_N] = { "cpu", "memory", "io" };

/* Nanoseconds as seconds, exactly. */
static void put_ns(struct out *o, uint64_t ns)
{
	out_printf(o, "%" PRIu64 ".%09" PRIu64, (uint64_t)(ns / NSEC_PER_SEC),
		   (uint64_t)(ns % NSEC_PER_SEC));
}

static void put_value(struct out *o, const struct cg_stat_row *r, enum vsrc src, int idx)
{
	switch (src) {
	case V_CPU_S:
		put_ns(o, r->cpu_ns);
		break;
	case V_MEM:
		out_printf(o, "%" PRIu64, r->memory);
		break;
	case V_TASKS:
		out_printf(o, "%" PRIu64, r->tasks);
		break;
	case V_IOR:
		out_printf(o, "%" PRIu64, r->io_read);
		break;
	case V_IOW:
		out_printf(o, "%" PRIu64, r->io_write);
		break;
	case V_PSI_SOME:
		out_printf(o, "%.4f", r->psi[idx] / 100.0);
		break;
	}
}

/*
 * The metadata of a family. OpenMetrics names the family (a counter's samples add _total) and
 * gives its unit; the Prometheus text format names the sample itself and has no UNIT line.
 */
static void header(struct out *o, bool prom, const struct family *f)
{
	const char *total = f->type == T_COUNTER ? "_total" : "";

	if (prom) {
		out_printf(o, "# HELP %s%s %s.\n", f->name, total, f->help);
		out_printf(o, "# TYPE %s%s %s\n", f->name, total, type_names[f->type]);
		return;
	}
	out_printf(o, "# TYPE %s %s\n", f->name, type_names[f->type]);
	if (f->unit)
		out_printf(o, "# UNIT %s %s\n", f->name, f->unit);
	out_printf(o, "# HELP %s %s.\n", f->name, f->help);
}

static void sample_start(struct out *o, const struct family *f, const char *cgroup)
{
	out_printf(o, "%s%s{cgroup=\"", f->name, f->type == T_COUNTER ? "_total" : "");
	put_name(o, cgroup, Q_OPENMETRICS);
	out_put(o, "\"", 1);
}

static void family(struct out *o, bool prom, const struct family *f, const struct view *v)
{
	bool psi = f->src == V_PSI_SOME;

	header(o, prom, f);
	for (int p = 0; p < (psi ? CG_PSI_N : 1); p++) {
		for (size_t i = 0; i < v->n; i++) {
			const struct cg_stat_row *r = v->rows[i];

			if (!(r->have & (f->need << p)))
				continue;
			sample_start(o, f, r->path);
			if (psi)
				out_printf(o, ",resource=\"%s\"", psi_res[p]);
			out_put(o, "} ", 2);
			put_value(o, r, f->src, p);
			out_put(o, "\n", 1);
			out_maybe_flush(o);
		}
	}
}

/* With -H: a counter per thread of a threaded cgroup, labelled with its tid and comm. */
static void threads(struct out *o, bool prom, const struct view *v)
{
	static const struct family f = { "cgroup_thread_cpu_usage_seconds",
					 T_COUNTER,
					 "seconds",
					 "CPU time used by a thread of a threaded cgroup",
					 0,
					 V_CPU_S };
	double hz = (double)sysconf(_SC_CLK_TCK);

	header(o, prom, &f);
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		for (size_t t = 0; (r->have & CG_STAT_THREADED) && t < r->n_threads; t++) {
			sample_start(o, &f, r->path);
			out_printf(o, ",tid=\"%d\",comm=\"", (int)r->threads[t].tid);
			put_name(o, r->threads[t].comm, Q_OPENMETRICS);
			out_printf(o, "\"} %.2f\n",
				   (double)r->threads[t].ticks / (hz > 0 ? hz : 100));
			out_maybe_flush(o);
		}
	}
}

static void exposition(struct out *o, bool prom, const struct cgtop2_args *a, const struct view *v)
{
	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		const struct family *f = &families[i];

		if (f->src == V_TASKS && a->count != CG_COUNT_TASKS)
			f = &processes[a->count];
		family(o, prom, f, v);
	}
	if (a->threads)
		threads(o, prom, v);
}

void render_openmetrics(struct out *o, const struct cgtop2_args *a, const struct view *v)
{
	exposition(o, false, a, v);
	out_printf(o, "# EOF\n");
}

void render_prometheus(struct out *o, const struct cgtop2_args *a, const struct view *v)
{
	exposition(o, true, a, v);
}
