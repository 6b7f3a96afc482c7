// SPDX-License-Identifier: MIT
/*
 * cgtop2's machine formats, JSON lines and CSV: every value with its unit in the key, null or an
 * empty field where a figure is unknown (render.c chooses the rows, put_name escapes the names).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render.h"
#include "base/cleanup.h"
#include "names/origin.h"
#include "names/runtime.h"

/* ---- machine formats -------------------------------------------------------------------- */

static void json_string(struct out *o, const char *s)
{
	out_put(o, "\"", 1);
	put_name(o, s, Q_JSON);
	out_put(o, "\"", 1);
}

/* A name as a JSON value: its quoted string, and ,"KEY_escaped":true after it when that is
 * the table's text (the name is no valid UTF-8), so that no plain name is taken for escaped
 * text; KEY is the value's key, written before it by the caller. */
void put_json_name(struct out *o, const char *key, const char *name)
{
	out_put(o, "\"", 1);
	put_name(o, name, Q_JSON);
	out_put(o, "\"", 1);
	if (!name_utf8(name))
		out_printf(o, ",\"%s_escaped\":true", key);
}

static void json_num(struct out *o, bool have, const char *fmt, double v)
{
	if (have && isfinite(v))
		out_printf(o, fmt, v);
	else
		out_printf(o, "null");
}

uint64_t view_wall_ns(const struct view *v)
{
	struct timespec ts;

	if (v->time_ns)
		return v->time_ns;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void json_times(char *buf, size_t size, uint64_t ns, char *iso, size_t iso_size)
{
	time_t sec = (time_t)(ns / NSEC_PER_SEC);
	uint64_t ms = (uint64_t)(ns % NSEC_PER_SEC / NSEC_PER_MSEC);
	char own[32];
	struct tm tm;

	if (!iso) {
		iso = own;
		iso_size = sizeof(own);
	}
	gmtime_r(&sec, &tm);
	snprintf(iso, iso_size, "%04d-%02d-%02dT%02d:%02d:%02d.%03" PRIu64 "Z", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
	snprintf(buf, size, "\"time_unix\":%" PRIu64 ".%03" PRIu64 ",\"time_iso\":\"%s\"",
		 (uint64_t)sec, ms, iso);
}

/*
 * The JSON schema: a new key may come with a new number; a key never changes its meaning.
 * 1: the cumulative keys; 2: pressure_averages; 3: time_unix, time_iso, limits and origin;
 * 4: KEY_escaped beside a name of no UTF-8 (put_json_name), the collectors' keys (xkeys);
 * 5: the kernel's statistics (cg_kstats' keys, each present where its file is).
 */
#define JSON_SCHEMA 5

/* Nanoseconds as seconds, exactly; null when unknown */
static void json_ns(struct out *o, bool have, uint64_t ns)
{
	if (have)
		out_printf(o, "%" PRIu64 ".%09" PRIu64, (uint64_t)(ns / NSEC_PER_SEC),
			   (uint64_t)(ns % NSEC_PER_SEC));
	else
		out_printf(o, "null");
}

static void json_u64(struct out *o, bool have, uint64_t v)
{
	if (have)
		out_printf(o, "%" PRIu64, v);
	else
		out_printf(o, "null");
}

static bool x_known(const struct cg_stat_row *r, int i)
{
	return r->x_have & (1ull << i);
}

/* The cumulative values beside the rates (schema 1): what a consumer takes its own rates of. */
static void json_totals(struct out *o, const struct cg_stat_row *r)
{
	static const char *const psi_keys[CG_PSI_N] = { "cpu", "memory", "io" };

	out_printf(o, ",\"cpu_usage_seconds\":");
	json_ns(o, r->have & CG_STAT_CPU, r->cpu_ns);
	out_printf(o, ",\"io_read_bytes\":");
	json_u64(o, r->have & CG_STAT_IO, r->io_read);
	out_printf(o, ",\"io_write_bytes\":");
	json_u64(o, r->have & CG_STAT_IO, r->io_write);
	out_printf(o, ",\"io_read_ops\":");
	json_u64(o, x_known(r, CG_X_IO_RIOS), cg_stat_x(r, CG_X_IO_RIOS));
	out_printf(o, ",\"io_write_ops\":");
	json_u64(o, x_known(r, CG_X_IO_WIOS), cg_stat_x(r, CG_X_IO_WIOS));
	out_printf(o, ",\"pressure_some_seconds\":{");
	for (int p = 0; p < CG_PSI_N; p++) {
		out_printf(o, "%s\"%s\":", p ? "," : "", psi_keys[p]);
		json_ns(o, x_known(r, CG_X_PSI_SOME_US + p),
			cg_stat_x(r, CG_X_PSI_SOME_US + p) * 1000);
	}
	out_printf(o, "}");
}

/* A PSI percentage, null when unknown. */
static void json_pct(struct out *o, const char *key, bool have, double v)
{
	out_printf(o, "\"%s\":", key);
	if (have)
		out_printf(o, "%.2f", v);
	else
		out_printf(o, "null");
}

/* Every PSI average (schema 2): some and full over 10, 60 and 300 s, of each resource. */
static void json_pressure_averages(struct out *o, const struct cg_stat_row *r)
{
	static const char *const psi_keys[CG_PSI_N] = { "cpu", "memory", "io" };

	out_printf(o, ",\"pressure_averages\":{");
	for (int p = 0; p < CG_PSI_N; p++) {
		int some60 = CG_X_PSI_AVG + CG_PSI_SOME60 * CG_PSI_N + p,
		    some300 = CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N + p,
		    full60 = CG_X_PSI_AVG + CG_PSI_FULL60 * CG_PSI_N + p,
		    full300 = CG_X_PSI_AVG + CG_PSI_FULL300 * CG_PSI_N + p;

		out_printf(o, "%s\"%s\":{\"some\":{", p ? "," : "", psi_keys[p]);
		json_pct(o, "avg10", r->have & (CG_STAT_PSI_CPU << p), r->psi[p]);
		out_printf(o, ",");
		json_pct(o, "avg60", x_known(r, some60),
			 cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_SOME60 * CG_PSI_N + p));
		out_printf(o, ",");
		json_pct(o, "avg300", x_known(r, some300),
			 cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N + p));
		out_printf(o, "},\"full\":{");
		json_pct(o, "avg10", x_known(r, CG_X_PSI_FULL_AVG10 + p),
			 cg_stat_xd(r, CG_X_PSI_FULL_AVG10 + p));
		out_printf(o, ",");
		json_pct(o, "avg60", x_known(r, full60),
			 cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_FULL60 * CG_PSI_N + p));
		out_printf(o, ",");
		json_pct(o, "avg300", x_known(r, full300),
			 cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_FULL300 * CG_PSI_N + p));
		out_printf(o, "}}");
	}
	out_printf(o, "}");
}

/* Every limit as its cgroup2 file reads, v1's translated back (schema 3); null when unknown. */
static void json_limits(struct out *o, const struct cg_stat_row *r)
{
	char buf[64];

	out_printf(o, ",\"limits\":{");
	for (int i = 0; i < CG_LIMIT_N; i++) {
		const char *v = cg_stat_limit(r, (enum cg_limit)i, buf, sizeof(buf));

		out_printf(o, "%s\"%s\":", i ? "," : "", cg_limit_names[i]);
		if (v)
			json_string(o, v);
		else
			out_printf(o, "null");
	}
	out_printf(o, "}");
}

/*
 * The collectors' values (schema 4), each under the name of its family in the expositions
 * (metrics.c) without cgroup_ and _total, so that one sample says the same in every output:
 * how each is written, and the x[] index it comes from.
 */
enum xfmt { XF_INT, XF_NS, XF_LIMIT };
static const struct xkey {
	const char *key;
	int idx;
	enum xfmt fmt;
} xkeys[] = {
	{ "cpu_user_seconds", CG_X_CPU_USER_NS, XF_NS },
	{ "cpu_system_seconds", CG_X_CPU_SYSTEM_NS, XF_NS },
	{ "cpu_periods", CG_X_CPU_PERIODS, XF_INT },
	{ "cpu_throttled_periods", CG_X_CPU_THROTTLED, XF_INT },
	{ "cpu_throttled_seconds", CG_X_CPU_THROTTLED_NS, XF_NS },
	{ "memory_peak_bytes", CG_X_MEM_PEAK, XF_INT },
	{ "memory_anon_bytes", CG_X_MEM_ANON, XF_INT },
	{ "memory_file_bytes", CG_X_MEM_FILE, XF_INT },
	{ "memory_kernel_bytes", CG_X_MEM_KERNEL, XF_INT },
	{ "memory_shmem_bytes", CG_X_MEM_SHMEM, XF_INT },
	{ "memory_slab_bytes", CG_X_MEM_SLAB, XF_INT },
	{ "memory_sock_bytes", CG_X_MEM_SOCK, XF_INT },
	{ "memory_mapped_file_bytes", CG_X_MEM_MAPPED_FILE, XF_INT },
	{ "memory_working_set_bytes", CG_X_MEM_WORKING_SET, XF_INT },
	{ "memory_swap_bytes", CG_X_MEM_SWAP, XF_INT },
	{ "memory_max_bytes", CG_X_MEM_MAX, XF_LIMIT },
	{ "memory_high_bytes", CG_X_MEM_HIGH, XF_LIMIT },
	{ "memory_low_bytes", CG_X_MEM_LOW, XF_LIMIT },
	{ "memory_min_bytes", CG_X_MEM_MIN, XF_LIMIT },
	{ "memory_swap_max_bytes", CG_X_MEM_SWAP_MAX, XF_LIMIT },
	{ "memory_soft_limit_bytes", CG_X_MEM_SOFT_LIMIT, XF_LIMIT },
	{ "memory_memsw_max_bytes", CG_X_MEM_MEMSW_MAX, XF_LIMIT },
	{ "memory_low_events", CG_X_MEM_EV_LOW, XF_INT },
	{ "memory_high_events", CG_X_MEM_EV_HIGH, XF_INT },
	{ "memory_max_events", CG_X_MEM_EV_MAX, XF_INT },
	{ "memory_oom_events", CG_X_MEM_EV_OOM, XF_INT },
	{ "memory_oom_kill_events", CG_X_MEM_EV_OOM_KILL, XF_INT },
	{ "memory_oom_group_kill_events", CG_X_MEM_EV_OOM_GROUP_KILL, XF_INT },
	{ "memory_under_oom", CG_X_MEM_UNDER_OOM, XF_INT },
	{ "io_discard_bytes", CG_X_IO_DBYTES, XF_INT },
	{ "io_discard_ops", CG_X_IO_DIOS, XF_INT },
	{ "pids_max", CG_X_PIDS_MAX, XF_LIMIT },
	{ "pids_max_events", CG_X_PIDS_EV_MAX, XF_INT },
};

/* x[k->idx] as k says (a limit without one is "max", as its file reads); with csv, no null */
static void put_x(struct out *o, const struct cg_stat_row *r, const struct xkey *k, bool csv)
{
	uint64_t v = cg_stat_x(r, k->idx);

	if (!x_known(r, k->idx))
		out_printf(o, "%s", csv ? "" : "null");
	else if (k->fmt == XF_NS)
		json_ns(o, true, v);
	else if (k->fmt == XF_LIMIT && v == CG_UNLIMITED)
		out_printf(o, "%s", csv ? "max" : "\"max\"");
	else
		json_u64(o, true, v);
}

/* The kernel's statistic i (cg_kstats): microseconds as seconds; with csv, no null */
static void put_k(struct out *o, const struct cg_stat_row *r, int i, bool csv)
{
	uint64_t v = cg_kstat_get(r, i);

	if (!cg_kstat_known(r, i))
		out_printf(o, "%s", csv ? "" : "null");
	else if (cg_kstats[i].usec)
		out_printf(o, "%" PRIu64 ".%06" PRIu64, v / 1000000, v % 1000000);
	else
		json_u64(o, true, v);
}

/* io.stat's keys, by CG_IO_*: the device's figures as its file names them */
static const char *const iodev_keys[CG_IO_N] = { "rbytes", "wbytes", "rios",
						 "wios",   "dbytes", "dios" };

/* The collectors' keys (xkeys), PSI's full totals, and with iodevice every device's figures. */
static void json_collected(struct out *o, const struct cg_stat_row *r)
{
	static const char *const psi_keys[CG_PSI_N] = { "cpu", "memory", "io" };

	for (size_t i = 0; i < sizeof(xkeys) / sizeof(xkeys[0]); i++) {
		out_printf(o, ",\"%s\":", xkeys[i].key);
		put_x(o, r, &xkeys[i], false);
	}
	out_printf(o, ",\"pressure_full_seconds\":{");
	for (int p = 0; p < CG_PSI_N; p++) {
		out_printf(o, "%s\"%s\":", p ? "," : "", psi_keys[p]);
		json_ns(o, x_known(r, CG_X_PSI_FULL_US + p),
			cg_stat_x(r, CG_X_PSI_FULL_US + p) * 1000);
	}
	out_printf(o, "},\"io_devices\":[");
	for (size_t j = 0; j < r->n_iodevs; j++) {
		const struct cg_stat_iodev *d = &r->iodevs[j];

		out_printf(o, "%s{\"device\":\"%u:%u\",\"devname\":", j ? "," : "", d->io.major,
			   d->io.minor);
		put_json_name(o, "devname", d->name);
		for (int k = 0; k < CG_IO_N; k++) {
			out_printf(o, ",\"%s\":", iodev_keys[k]);
			json_u64(o, d->io.have & (1u << k), d->io.v[k]);
		}
		out_printf(o, "}");
	}
	out_printf(o, "]");
	/* the kernel's statistics (schema 5): only those whose file the cgroup has */
	for (int i = 0; i < CG_K_N; i++) {
		if (!cg_kstat_known(r, i))
			continue;
		out_printf(o, ",\"%s\":", cg_kstats[i].key);
		put_k(o, r, i, false);
	}
	/* v1's cpuacct.usage_percpu, where the cgroup has it: seconds by CPU number */
	if (r->n_percpu) {
		out_printf(o, ",\"cpu_usage_percpu_seconds\":[");
		for (size_t c = 0; c < r->n_percpu; c++) {
			out_printf(o, "%s", c ? "," : "");
			json_ns(o, true, r->percpu_ns[c]);
		}
		out_printf(o, "]");
	}
}

/* Who the cgroup belongs to (schema 3): the fields its path names, as the expositions' labels. */
static void json_origin(struct out *o, const char *path)
{
	struct cg_origin org;
	const struct cg_rt_info *rt;
	bool first = true;

	cg_origin_parse(path, &org);
	out_printf(o, ",\"origin\":{");
	for (int k = 0; k < CG_ORIGIN_N; k++) {
		const char *val = cg_origin_field(&org, (enum cg_origin_key)k);

		if (!*val)
			continue;
		out_printf(o, "%s\"%s\":", first ? "" : ",", cg_origin_names[k]);
		put_json_name(o, cg_origin_names[k], val);
		first = false;
	}
	/* and who is in the container, from its runtime's files (names/runtime.c) */
	rt = cg_rt_of_path(path, org.container_id);
	for (int k = 0; rt && k < CG_RT_N; k++) {
		if (!rt->v[k][0])
			continue;
		out_printf(o, ",\"%s\":", cg_rt_names[k]);
		/* a hostile state file's bytes: no UTF-8 is the table's text, and says so */
		put_json_name(o, cg_rt_names[k], rt->v[k]);
	}
	out_printf(o, "}");
}

void render_json(struct out *o, const struct render_opts *a, const struct view *v)
{
	uint64_t ns = view_wall_ns(v);
	char times[128];

	json_times(times, sizeof(times), ns, NULL, 0);
	/* "time" as time_unix writes it: the same milliseconds, not a rounding of its own */
	out_printf(o, "{\"schema\":%d,\"time\":%" PRIu64 ".%03" PRIu64 ",%s,\"cgroups\":[",
		   JSON_SCHEMA, (uint64_t)(ns / NSEC_PER_SEC),
		   (uint64_t)(ns % NSEC_PER_SEC / NSEC_PER_MSEC), times);
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		out_printf(o, "%s{\"path\":", i ? "," : "");
		put_json_name(o, "path", r->path);
		json_origin(o, r->path);
		out_printf(o, ",\"%s\":", count_keys[a->count]);
		json_num(o, r->have & CG_STAT_TASKS, "%.0f", (double)r->tasks);
		/* --cpu=time: the time only (cpu_usage_seconds below), no percentage */
		if (!a->cpu_time) {
			out_printf(o, ",\"cpu_percent\":");
			json_num(o, r->have & CG_STAT_CPU_RATE, "%.2f", r->cpu_percent);
		}
		out_printf(o, ",\"memory_bytes\":");
		json_num(o, r->have & CG_STAT_MEMORY, "%.0f", (double)r->memory);
		out_printf(o, ",\"io_read_bytes_per_sec\":");
		json_num(o, r->have & CG_STAT_IO_RATE, "%.0f", r->io_read_bps);
		out_printf(o, ",\"io_write_bytes_per_sec\":");
		json_num(o, r->have & CG_STAT_IO_RATE, "%.0f", r->io_write_bps);
		out_printf(o, ",\"pressure\":{\"cpu\":");
		json_num(o, r->have & CG_STAT_PSI_CPU, "%.2f", r->psi[CG_PSI_CPU]);
		out_printf(o, ",\"memory\":");
		json_num(o, r->have & CG_STAT_PSI_MEMORY, "%.2f", r->psi[CG_PSI_MEMORY]);
		out_printf(o, ",\"io\":");
		json_num(o, r->have & CG_STAT_PSI_IO, "%.2f", r->psi[CG_PSI_IO]);
		out_printf(o, "}");
		json_totals(o, r);
		json_pressure_averages(o, r);
		json_limits(o, r);
		json_collected(o, r);
		if (a->threads && (r->have & CG_STAT_THREADED)) {
			out_printf(o, ",\"threads\":[");
			for (size_t t = 0; t < r->n_threads; t++) {
				out_printf(o, "%s{\"tid\":%d,\"comm\":", t ? "," : "",
					   (int)r->threads[t].tid);
				put_json_name(o, "comm", r->threads[t].comm);
				out_printf(o, ",\"cpu_percent\":");
				json_num(o, r->threads[t].cpu_percent >= 0, "%.2f",
					 r->threads[t].cpu_percent);
				out_printf(o, "}");
			}
			out_printf(o, "]");
		}
		out_printf(o, "}");
		out_maybe_flush(o);
	}
	out_printf(o, "]}\n");
}

/* RFC 4180: quoted when it holds a comma or a quote (control characters are never raw) */
static void csv_field(struct out *o, const char *s)
{
	bool quote = strpbrk(s, ",\"") != NULL;

	if (quote)
		out_put(o, "\"", 1);
	put_name(o, s, Q_CSV);
	if (quote)
		out_put(o, "\"", 1);
}

static void csv_num(struct out *o, bool have, const char *fmt, double v)
{
	out_printf(o, ",");
	if (have && isfinite(v))
		out_printf(o, fmt, v);
}

/* CSV's cumulative columns after the rates; with --cpu=time the CPU time is in column 4. */
static void csv_totals(struct out *o, const struct render_opts *a, const struct cg_stat_row *r)
{
	if (!a->cpu_time)
		csv_num(o, r->have & CG_STAT_CPU, "%.9f", (double)r->cpu_ns / (double)NSEC_PER_SEC);
	csv_num(o, r->have & CG_STAT_IO, "%.0f", (double)r->io_read);
	csv_num(o, r->have & CG_STAT_IO, "%.0f", (double)r->io_write);
	csv_num(o, x_known(r, CG_X_IO_RIOS), "%.0f", (double)cg_stat_x(r, CG_X_IO_RIOS));
	csv_num(o, x_known(r, CG_X_IO_WIOS), "%.0f", (double)cg_stat_x(r, CG_X_IO_WIOS));
	for (int p = 0; p < CG_PSI_N; p++)
		csv_num(o, x_known(r, CG_X_PSI_SOME_US + p), "%.6f",
			(double)cg_stat_x(r, CG_X_PSI_SOME_US + p) / 1e6);
}

/*
 * The limits' columns, last in every row (empty in a thread's): as the JSON's, a multi-line
 * value (io.max, io.weight: a line per device) with "; " between its lines.
 */
static void csv_limits(struct out *o, const struct cg_stat_row *r, bool header)
{
	for (int i = 0; i < CG_LIMIT_N; i++) {
		char buf[64], line[4096];
		const char *v = r ? cg_stat_limit(r, (enum cg_limit)i, buf, sizeof(buf)) : NULL;
		size_t n = 0;

		out_printf(o, ",%s", header ? cg_limit_names[i] : "");
		for (; v && *v && n + 3 < sizeof(line); v++) {
			if (*v == '\n')
				line[n++] = ';';
			line[n++] = *v == '\n' ? ' ' : *v;
		}
		line[n] = '\0';
		if (n)
			csv_field(o, line);
	}
}

/*
 * The collectors' columns after the limits (schema 4), as the JSON's keys: pressure_*_full_seconds
 * for pressure_full_seconds, and io_devices a device's io.stat line each, "; " between them.
 * Without r (a thread's row): empty.
 */
static void csv_collected(struct out *o, const struct cg_stat_row *r, bool header)
{
	static const char *const psi_keys[CG_PSI_N] = { "cpu", "memory", "io" };

	for (size_t i = 0; i < sizeof(xkeys) / sizeof(xkeys[0]); i++) {
		out_printf(o, ",%s", header ? xkeys[i].key : "");
		if (r)
			put_x(o, r, &xkeys[i], true);
	}
	for (int p = 0; p < CG_PSI_N; p++) {
		if (header)
			out_printf(o, ",pressure_%s_full_seconds", psi_keys[p]);
		else if (r)
			csv_num(o, x_known(r, CG_X_PSI_FULL_US + p), "%.6f",
				(double)cg_stat_x(r, CG_X_PSI_FULL_US + p) / 1e6);
		else
			out_printf(o, ",");
	}
	out_printf(o, ",%s", header ? "io_devices" : "");
	for (size_t j = 0; r && j < r->n_iodevs; j++) {
		const struct cg_stat_iodev *d = &r->iodevs[j];

		out_printf(o, "%s%u:%u", j ? "; " : "", d->io.major, d->io.minor);
		for (int k = 0; k < CG_IO_N; k++)
			if (d->io.have & (1u << k))
				out_printf(o, " %s=%" PRIu64, iodev_keys[k], d->io.v[k]);
	}
	/* the kernel's statistics (schema 5), a column each, empty where unknown */
	for (int i = 0; i < CG_K_N; i++) {
		out_printf(o, ",%s", header ? cg_kstats[i].key : "");
		if (r)
			put_k(o, r, i, true);
	}
	/* v1's cpuacct.usage_percpu: the CPUs' seconds in one field, by number, a space apart */
	out_printf(o, ",%s", header ? "cpu_usage_percpu_seconds" : "");
	for (size_t c = 0; r && c < r->n_percpu; c++)
		out_printf(o, "%s%" PRIu64 ".%09" PRIu64, c ? " " : "",
			   (uint64_t)(r->percpu_ns[c] / NSEC_PER_SEC),
			   (uint64_t)(r->percpu_ns[c] % NSEC_PER_SEC));
}

void render_csv(struct out *o, const struct render_opts *a, const struct view *v, bool header)
{
	/* the JSON's seconds with their milliseconds cut, as "time" and "time_unix" have them */
	uint64_t ns = view_wall_ns(v);
	char now[32];

	snprintf(now, sizeof(now), "%" PRIu64 ".%03" PRIu64, (uint64_t)(ns / NSEC_PER_SEC),
		 (uint64_t)(ns % NSEC_PER_SEC / NSEC_PER_MSEC));
	/* the empty fields of a thread's row between its CPU and its tid */
	const char *thread_gap = a->cpu_time ? ",,,,,,,,,,,,,," : ",,,,,,,,,,,,,,,";

	if (header) {
		out_printf(
			o,
			"time,path,%s,%s,memory_bytes,io_read_bytes_per_sec,io_write_bytes_per_sec,pressure_cpu,pressure_memory,pressure_io,%sio_read_bytes,io_write_bytes,io_read_ops,io_write_ops,pressure_cpu_some_seconds,pressure_memory_some_seconds,pressure_io_some_seconds%s",
			count_keys[a->count], a->cpu_time ? "cpu_usage_seconds" : "cpu_percent",
			a->cpu_time ? "" : "cpu_usage_seconds,", a->threads ? ",tid,comm" : "");
		csv_limits(o, NULL, true);
		csv_collected(o, NULL, true);
		out_printf(o, "\n");
	}
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		out_printf(o, "%s,", now);
		csv_field(o, r->path);
		csv_num(o, r->have & CG_STAT_TASKS, "%.0f", (double)r->tasks);
		if (a->cpu_time)
			csv_num(o, r->have & CG_STAT_CPU, "%.9f",
				(double)r->cpu_ns / (double)NSEC_PER_SEC);
		else
			csv_num(o, r->have & CG_STAT_CPU_RATE, "%.2f", r->cpu_percent);
		csv_num(o, r->have & CG_STAT_MEMORY, "%.0f", (double)r->memory);
		csv_num(o, r->have & CG_STAT_IO_RATE, "%.0f", r->io_read_bps);
		csv_num(o, r->have & CG_STAT_IO_RATE, "%.0f", r->io_write_bps);
		for (int p = 0; p < CG_PSI_N; p++)
			csv_num(o, r->have & (CG_STAT_PSI_CPU << p), "%.2f", r->psi[p]);
		csv_totals(o, a, r);
		out_printf(o, "%s", a->threads ? ",," : "");
		csv_limits(o, r, false);
		csv_collected(o, r, false);
		out_printf(o, "\n");
		/* a thread: its cgroup's path, its CPU, its tid and comm; the rest is the cgroup's */
		for (size_t t = 0; a->threads && (r->have & CG_STAT_THREADED) && t < r->n_threads;
		     t++) {
			const struct cg_stat_thread *th = &r->threads[t];

			out_printf(o, "%s,", now);
			csv_field(o, r->path);
			out_printf(o, ",");
			csv_num(o, th->cpu_percent >= 0, "%.2f", th->cpu_percent);
			/* memory, the IO rates, the three PSI figures and the totals are the cgroup's */
			out_printf(o, "%s%d,", thread_gap, (int)th->tid);
			csv_field(o, th->comm);
			csv_limits(o, NULL, false);
			csv_collected(o, NULL, false);
			out_printf(o, "\n");
		}
		out_maybe_flush(o);
	}
}
