// SPDX-License-Identifier: MIT
/* cgtop2: live cgroup statistics, interactive and batch, as text, JSON, CSV or OpenMetrics. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "error.h"
#include "file.h"
#include "mount.h"
#include "parse.h"
#include "spec.h"
#include "stats.h"

const char *argp_program_version = "cgtop2 (cgkit) " CGKIT_VERSION;

enum order { ORDER_PATH, ORDER_TASKS, ORDER_CPU, ORDER_MEMORY, ORDER_IO, ORDER_PRESSURE };
enum format { FMT_TABLE, FMT_JSON, FMT_CSV, FMT_OPENMETRICS };

enum {
	OPT_DEPTH = 0x100,
	OPT_CPU,
	OPT_RECURSIVE,
};

/* systemd-machined's state of each machine: where systemd-cgtop -M looks up the scope too */
#define MACHINES_DIR "/run/systemd/machines"

struct cgtop2_args {
	char *path; /* normalized, "" for the root */
	bool batch, raw, threads, verbose, cpu_time;
	unsigned long iterations; /* 0: until interrupted */
	uint64_t delay_ns;
	int depth;
	enum order order;
	enum format format;
	enum cg_count count;
	bool own_only; /* --recursive=no */
	const char *machine; /* -M: resolved to path in run() */
};

/* What the tasks column counts, in headers and output keys. */
static const char *const count_titles[] = { "TASKS", "PROCS", "PROCS" };
static const char *const count_keys[] = { "tasks", "processes", "user_processes" };
static const char *const count_names[] = { "tasks", "processes", "user processes" };

static const char *const order_names[] = { "path", "tasks", "cpu", "memory", "io", "pressure" };
static const char *const format_names[] = { "table", "json", "csv", "openmetrics" };

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Mode:", 1 },
	{ "batch", 'b', 0, 0, "Batch mode: plain text snapshots, no escape codes, no input", 1 },
	{ "iterations", 'n', "N", 0, "Stop after N refreshes (default: until interrupted)", 1 },
	{ 0, '1', 0, 0, "Shortcut for --iterations=1", 1 },
	{ "delay", 'd', "TIME", 0,
	  "Time between refreshes in seconds (default 1; fractions allowed) or with a unit: 200us, "
	  "500ms, 1.5s, 2min",
	  1 },
	{ "format", 'F', "FORMAT", 0,
	  "table (default), json (one line per refresh), csv or openmetrics; all but table "
	  "imply --batch",
	  1 },
	{ 0, 0, 0, 0, "What to show:", 2 },
	{ "depth", OPT_DEPTH, "N", 0, "Show cgroups down to N levels below CGROUP (default 3)", 2 },
	{ "order", 'o', "KEY", 0, "Sort by path, tasks, cpu (default), memory, io or pressure", 2 },
	{ 0, 'p', 0, 0, "Sort by path", 2 },
	{ 0, 't', 0, 0, "Sort by tasks", 2 },
	{ 0, 'c', 0, 0, "Sort by CPU load", 2 },
	{ 0, 'm', 0, 0, "Sort by memory", 2 },
	{ 0, 'i', 0, 0, "Sort by IO (read + write per second)", 2 },
	{ "raw", 'r', 0, 0, "Raw numbers: bytes, bytes per second, nanoseconds", 2 },
	{ "cpu", OPT_CPU, "percentage|time", 0,
	  "CPU column as percent of one CPU (default) or as CPU time used", 2 },
	{ 0, 'P', 0, 0,
	  "Count processes instead of tasks, without kernel threads (a process counts once)", 2 },
	{ 0, 'k', 0, 0, "Count processes and kernel threads instead of tasks", 2 },
	{ "recursive", OPT_RECURSIVE, "BOOL", 0,
	  "With -P or -k: include the processes of child cgroups (default yes)", 2 },
	{ "machine", 'M', "NAME", 0,
	  "Show the cgroup of container NAME (from systemd-machined), instead of CGROUP", 2 },
	{ "threads", 'H', 0, 0, "In threaded cgroups, list the threads (TID, comm, %CPU)", 2 },
	{ "verbose", 'v', 0, 0, "Say on stderr which hierarchy serves each column", 2 },
	{},
};

/* systemd's booleans, as systemd-cgtop --recursive takes them */
static int parse_bool(const char *s)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cgtop2_args *a = state->input;
	uint64_t v;
	int i;

	switch (key) {
	case 'b':
		a->batch = true;
		break;
	case 'n':
		if (cg_parse_u64(arg, UINT32_MAX, &v) < 0 || v == 0)
			argp_error(state, "--iterations takes a positive number, not '%s'", arg);
		a->iterations = (unsigned long)v;
		break;
	case '1':
		a->iterations = 1;
		break;
	case 'd':
		if (cg_parse_seconds(arg, &a->delay_ns) < 0)
			argp_error(state,
				   "--delay takes seconds or a time with us, ms, s or min "
				   "(more than 0, at most 86400s, fractions allowed), not '%s'",
				   arg);
		break;
	case 'F':
		i = lookup(format_names, ARRAY_SIZE(format_names), arg);
		if (i < 0)
			argp_error(state,
				   "--format takes table, json, csv or openmetrics, not '%s'", arg);
		a->format = (enum format)i;
		break;
	case OPT_DEPTH:
		if (cg_parse_u64(arg, 1000, &v) < 0)
			argp_error(state, "--depth takes a number from 0 to 1000, not '%s'", arg);
		a->depth = (int)v;
		break;
	case 'o':
		i = lookup(order_names, ARRAY_SIZE(order_names), arg);
		if (i < 0)
			argp_error(
				state,
				"--order takes path, tasks, cpu, memory, io or pressure, not '%s'",
				arg);
		a->order = (enum order)i;
		break;
	case 'p':
		a->order = ORDER_PATH;
		break;
	case 't':
		a->order = ORDER_TASKS;
		break;
	case 'c':
		a->order = ORDER_CPU;
		break;
	case 'm':
		a->order = ORDER_MEMORY;
		break;
	case 'i':
		a->order = ORDER_IO;
		break;
	case 'r':
		a->raw = true;
		break;
	case OPT_CPU:
		if (!strcmp(arg, "percentage"))
			a->cpu_time = false;
		else if (!strcmp(arg, "time"))
			a->cpu_time = true;
		else
			argp_error(state, "--cpu takes percentage or time, not '%s'", arg);
		break;
	case 'P':
	case 'k':
		if (a->count != CG_COUNT_TASKS &&
		    a->count != (key == 'P' ? CG_COUNT_USER_PROCESSES : CG_COUNT_PROCESSES))
			argp_error(state, "-P and -k exclude each other");
		a->count = key == 'P' ? CG_COUNT_USER_PROCESSES : CG_COUNT_PROCESSES;
		break;
	case OPT_RECURSIVE:
		i = parse_bool(arg);
		if (i < 0)
			argp_error(state, "--recursive takes yes or no, not '%s'", arg);
		a->own_only = !i;
		break;
	case 'M':
		if (!*arg || strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..") ||
		    strlen(arg) > 255)
			argp_error(state, "--machine takes a machine name, not '%s'", arg);
		a->machine = arg;
		break;
	case 'H':
		a->threads = true;
		break;
	case 'v':
		a->verbose = true;
		break;
	case ARGP_KEY_ARG:
		if (a->path)
			argp_error(state, "only one CGROUP may be given");
		if (cg_path_normalize(arg, &a->path) < 0)
			argp_error(state,
				   "cgroup '%s': '..', control characters and names over 255 bytes "
				   "are not allowed in a cgroup path",
				   arg);
		break;
	case ARGP_KEY_END:
		if (a->machine && a->path)
			argp_error(state, "-M and CGROUP exclude each other");
		if (!a->path && !(a->path = strdup("")))
			return ENOMEM;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options,
	parse_opt,
	"[CGROUP]",
	"Show the cgroups below CGROUP (default the root) with their tasks, CPU, memory, IO and "
	"pressure, refreshed every --delay. On a terminal it runs full-screen (keys: q quit, "
	"p t c m i s sort, P k r count processes, + - depth, space pause, % raw, / filter, "
	"H threads, h help); "
	"otherwise, or with -b, it prints plain snapshots.\v"
	"Statistics come from every hierarchy that has the cgroup, joined by path: cgroup2 "
	"cpu.stat, memory.current, io.stat, pids.current and PSI; v1 cpuacct, memory, blkio and "
	"pids. Unknown values are shown as '-' (null in JSON). Exit status: 0 done, 1 failed, "
	"64 usage error.",
	NULL,
	NULL,
	NULL,
};

/* ---- a growable output buffer: every screen and every batch snapshot is one write ------- */

struct out {
	char *s;
	size_t len, cap;
	bool failed;
	/* batch: write out every OUT_CHUNK, so that thousands of rows need no big buffer */
	int fd; /* -1: keep everything for one write (the interactive screen) */
	int err;
};

#define OUT_CHUNK 65536

/* Room for len more bytes and a NUL; false (and the output marked failed) without memory. */
static bool out_reserve(struct out *o, size_t len)
{
	size_t cap = (o->cap + len + 1) * 2;
	char *ns = realloc(o->s, cap);

	if (!ns) {
		o->failed = true;
		return false;
	}
	o->s = ns;
	o->cap = cap;
	return true;
}

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->s ? o->s + o->len : NULL, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = true;
			return;
		}
		if ((size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		if (!out_reserve(o, (size_t)n))
			return;
	}
}

static void out_put(struct out *o, const char *p, size_t len)
{
	if (o->cap - o->len <= len && !out_reserve(o, len))
		return;
	memcpy(o->s + o->len, p, len);
	o->len += len;
	o->s[o->len] = '\0';
}

static void out_pad(struct out *o, size_t n)
{
	static const char spaces[] = "                                ";

	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		out_put(o, spaces, k);
		n -= k;
	}
}

static int out_flush(struct out *o, int fd)
{
	size_t off = 0;

	if (o->err)
		return o->err;
	while (off < o->len) {
		ssize_t n = write(fd, o->s + off, o->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += (size_t)n;
	}
	o->len = 0;
	return o->failed ? -ENOMEM : 0;
}

static void out_maybe_flush(struct out *o)
{
	int r;

	if (o->fd < 0 || o->len < OUT_CHUNK || o->err)
		return;
	r = out_flush(o, o->fd);
	if (r < 0)
		o->err = r;
}

/* ---- ordering --------------------------------------------------------------------------- */

static enum order sort_order;

/* '/' sorts before every other byte so that a parent's subtree stays together */
static int path_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	if (*a == *b)
		return 0;
	if (*a == '/')
		return *b ? -1 : 1;
	if (*b == '/')
		return *a ? 1 : -1;
	return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
}

static double pressure_max(const struct cg_stat_row *r)
{
	double m = -1;

	for (int p = 0; p < CG_PSI_N; p++)
		if ((r->have & (CG_STAT_PSI_CPU << p)) && r->psi[p] > m)
			m = r->psi[p];
	return m;
}

/* The sort key; NAN when unknown, which sorts last. */
static double sort_key(const struct cg_stat_row *r)
{
	switch (sort_order) {
	case ORDER_TASKS:
		return r->have & CG_STAT_TASKS ? (double)r->tasks : NAN;
	case ORDER_CPU:
		return r->have & CG_STAT_CPU_RATE ? r->cpu_percent : NAN;
	case ORDER_MEMORY:
		return r->have & CG_STAT_MEMORY ? (double)r->memory : NAN;
	case ORDER_IO:
		return r->have & CG_STAT_IO_RATE ? r->io_read_bps + r->io_write_bps : NAN;
	case ORDER_PRESSURE: {
		double m = pressure_max(r);
		return m < 0 ? NAN : m;
	}
	default:
		return NAN;
	}
}

struct keyed {
	double key;
	struct cg_stat_row *row;
};

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *x = pa, *y = pb;
	const struct cg_stat_row *a = x->row, *b = y->row;

	if (sort_order != ORDER_PATH) {
		double ka = x->key, kb = y->key;

		if (isnan(ka) != isnan(kb))
			return isnan(ka) ? 1 : -1;
		if (!isnan(ka) && ka != kb)
			return ka > kb ? -1 : 1;
	}
	return path_cmp(a->path, b->path);
}

/* ---- cells ------------------------------------------------------------------------------ */

/* printf is most of a refresh over many cgroups: the few number shapes are made by hand. */
static size_t fmt_u64(char *buf, uint64_t v)
{
	char tmp[24];
	size_t n = 0, len;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	len = n;
	for (size_t i = 0; i < len; i++)
		buf[i] = tmp[len - 1 - i];
	buf[len] = '\0';
	return len;
}

/* v >= 0 with 1 or 2 decimals, rounded as printf does for these magnitudes */
static void fmt_fixed(char *buf, size_t size, double v, int decimals)
{
	double scale = decimals == 1 ? 10.0 : 100.0;
	double t = floor(v * scale + 0.5);
	uint64_t iv, frac;
	size_t n;

	if (!(v >= 0) || t > 1e15) {
		snprintf(buf, size, "%.*f", decimals, v);
		return;
	}
	iv = (uint64_t)(t / scale);
	frac = (uint64_t)t - iv * (uint64_t)scale;
	n = fmt_u64(buf, iv);
	buf[n++] = '.';
	if (decimals == 2)
		buf[n++] = (char)('0' + frac / 10);
	buf[n++] = (char)('0' + frac % 10);
	buf[n] = '\0';
}

static void fmt_bytes(char *buf, size_t size, double v)
{
	static const char units[] = "BKMGTPE";
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0) {
		size_t n = fmt_u64(buf, (uint64_t)(v + 0.5));

		buf[n] = 'B';
		buf[n + 1] = '\0';
	} else {
		size_t n;

		fmt_fixed(buf, size - 1, v, 1);
		n = strlen(buf);
		buf[n] = units[u];
		buf[n + 1] = '\0';
	}
}

static void fmt_duration(char *buf, size_t size, uint64_t ns)
{
	double s = (double)ns / 1e9;

	if (s < 60)
		snprintf(buf, size, "%.1fs", s);
	else if (s < 3600)
		snprintf(buf, size, "%dmin %ds", (int)(s / 60), (int)fmod(s, 60));
	else
		snprintf(buf, size, "%dh %dmin", (int)(s / 3600), (int)fmod(s / 60, 60));
}

enum col { C_PATH, C_TASKS, C_CPU, C_MEMORY, C_IOR, C_IOW, C_PSI_CPU, C_PSI_MEM, C_PSI_IO, C_N };

static const char *const col_names[C_N] = { "CGROUP", "TASKS",	 "%CPU",    "MEMORY", "IN/S",
					    "OUT/S",  "PSI-CPU", "PSI-MEM", "PSI-IO" };

static const char *col_title(const struct cgtop2_args *a, enum col c)
{
	if (c == C_CPU && a->cpu_time)
		return "CPU-TIME";
	return c == C_TASKS ? count_titles[a->count] : col_names[c];
}

static void cell(const struct cgtop2_args *a, const struct cg_stat_row *r, enum col c, char *buf,
		 size_t size)
{
	buf[0] = '-';
	buf[1] = '\0';
	switch (c) {
	case C_PATH:
		snprintf(buf, size, "%s", r->path);
		break;
	case C_TASKS:
		if (r->have & CG_STAT_TASKS)
			fmt_u64(buf, r->tasks);
		break;
	case C_CPU:
		if (a->cpu_time && (r->have & CG_STAT_CPU)) {
			if (a->raw)
				fmt_u64(buf, r->cpu_ns);
			else
				fmt_duration(buf, size, r->cpu_ns);
		} else if (!a->cpu_time && (r->have & CG_STAT_CPU_RATE)) {
			fmt_fixed(buf, size, r->cpu_percent, 1);
		}
		break;
	case C_MEMORY:
		if (r->have & CG_STAT_MEMORY) {
			if (a->raw)
				fmt_u64(buf, r->memory);
			else
				fmt_bytes(buf, size, (double)r->memory);
		}
		break;
	case C_IOR:
	case C_IOW:
		if (r->have & CG_STAT_IO_RATE) {
			double v = c == C_IOR ? r->io_read_bps : r->io_write_bps;

			if (a->raw)
				fmt_u64(buf, (uint64_t)(v + 0.5));
			else
				fmt_bytes(buf, size, v);
		}
		break;
	default: {
		int p = c - C_PSI_CPU;

		if (r->have & (CG_STAT_PSI_CPU << p))
			fmt_fixed(buf, size, r->psi[p], 2);
		break;
	}
	}
}

/* ---- names ----------------------------------------------------------------------------------- */

/*
 * Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates), 0 if
 * there is none. Cgroup names are any bytes and the kernel cuts comm at 15 bytes, maybe inside
 * a character; JSON and OpenMetrics text must be UTF-8.
 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* How each format writes a name. */
enum quoting { Q_TABLE, Q_JSON, Q_CSV, Q_OPENMETRICS };

/* The ASCII bytes a format escapes itself (besides control characters). */
static bool q_special(enum quoting q, unsigned char c)
{
	switch (q) {
	case Q_TABLE:
		return c == '\\';
	case Q_CSV:
		return c == '"';
	default:
		return c == '"' || c == '\\';
	}
}

/*
 * Write a name (a cgroup path, a thread's comm: any bytes but NUL, chosen by whoever named it)
 * so that it stays one field of one line in every format and nothing raw reaches a terminal.
 * Control characters (C0, DEL, C1): JSON \u00XX; OpenMetrics \n for a newline, U+FFFD for the
 * rest (it has no other escape); CSV U+FFFD, so that a row is one line; the table \xNN a byte.
 * A byte that starts no valid UTF-8 is U+FFFD, in the table \xNN. Quotes and backslashes as
 * the format escapes them: \" \\ in JSON and OpenMetrics, "" in CSV (the caller quotes the
 * field), \\ in the table so that its \xNN stays unambiguous.
 */
static void put_name(struct out *o, const char *name, enum quoting q)
{
	const unsigned char *s = (const unsigned char *)name, *run = s;

	while (*s) {
		size_t len = utf8_len(s), n = 0;
		/* C1 controls, U+0080 to U+009F, are 0xc2 0x80 to 0xc2 0x9f */
		bool ctl = len == 1 ? *s < 0x20 || *s == 0x7f
				    : len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
		char esc[16];

		if (len && !ctl && !(len == 1 && q_special(q, *s))) {
			s += len;
			continue;
		}
		out_put(o, (const char *)run, (size_t)(s - run));
		if (q == Q_TABLE && (!len || ctl)) {
			for (size_t i = 0; i < (len ? len : 1); i++)
				n += (size_t)snprintf(esc + n, sizeof(esc) - n, "\\x%02x", s[i]);
		} else if (q == Q_JSON && ctl) {
			n = (size_t)snprintf(
				esc, sizeof(esc), "\\u%04x",
				len == 1 ? *s : (unsigned)(s[0] & 0x1f) << 6 | (s[1] & 0x3f));
		} else if (q == Q_OPENMETRICS && ctl && *s == '\n') {
			n = (size_t)snprintf(esc, sizeof(esc), "\\n");
		} else if (!len || ctl) {
			n = (size_t)snprintf(esc, sizeof(esc), "\xef\xbf\xbd");
		} else {
			n = (size_t)snprintf(esc, sizeof(esc), "%c%c", q == Q_CSV ? '"' : '\\', *s);
		}
		out_put(o, esc, n);
		s += len ? len : 1;
		run = s;
	}
	out_put(o, (const char *)run, (size_t)(s - run));
}

/* name as put_name writes it for q, in a string of its own (NULL without memory) */
static char *escaped(const char *name, enum quoting q)
{
	struct out t = { .fd = -1 };

	put_name(&t, name, q);
	if (t.failed) {
		free(t.s);
		return NULL;
	}
	return t.s;
}

/* ---- the table (batch and interactive) -------------------------------------------------- */

struct view {
	struct cg_stat_row **rows; /* sorted, filtered */
	size_t n;
};

static int make_view(struct cg_stat_row *const *rows, size_t n, enum order order,
		     const char *filter, struct view *v)
{
	struct cg_stat_row **sel = malloc((n ? n : 1) * sizeof(*sel));
	struct keyed *ks = malloc((n ? n : 1) * sizeof(*ks));
	size_t k = 0;

	if (!sel || !ks) {
		free(sel);
		free(ks);
		return -ENOMEM;
	}
	sort_order = order;
	for (size_t i = 0; i < n; i++)
		if (!filter || !*filter || strstr(rows[i]->path, filter)) {
			ks[k].row = rows[i];
			ks[k].key = sort_key(rows[i]);
			k++;
		}
	qsort(ks, k, sizeof(*ks), keyed_cmp);
	for (size_t i = 0; i < k; i++)
		sel[i] = ks[i].row;
	free(ks);
	free(v->rows);
	v->rows = sel;
	v->n = k;
	return 0;
}

/*
 * Table text is escaped (put_name): ASCII and whole UTF-8 characters, one column each (wide
 * characters aside). The byte offset of character k of s[0, len), or len.
 */
static size_t char_offset(const char *s, size_t len, size_t k)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && k-- == 0)
			break;
	return i;
}

static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Shorten a path to width by cutting its middle: the top and the leaf say the most. */
static void ellipsize(char *s, size_t width)
{
	size_t len = strlen(s), w = text_width(s), head, tail;

	if (w <= width || width < 5)
		return;
	/* between characters, never inside one */
	head = char_offset(s, len, (width - 3) / 2);
	tail = char_offset(s, len, w - (width - 3 - (width - 3) / 2));
	memmove(s + head + 3, s + tail, len - tail + 1);
	memcpy(s + head, "...", 3);
}

/*
 * Render rows as aligned text into o. path_width 0: as wide as the longest path (batch);
 * else the column is cut to it. max_rows 0: all. eol ends each line. Names are escaped
 * (put_name): a control character in a cgroup's name never reaches the terminal.
 */
static void render_table(struct out *o, const struct cgtop2_args *a, const struct view *v,
			 size_t path_width, size_t max_rows, const char *eol)
{
	size_t w[C_N] = { 0 }, eol_len = strlen(eol), used = 0, cap;
	size_t rows = max_rows && max_rows < v->n ? max_rows : v->n;
	/* every cell formatted once, packed NUL-separated: for the widths, then for the lines */
	char *pack, *p, tmp[64];
	struct out names = { .fd = -1 }, name = { .fd = -1 };
	const char *np;

	cap = rows * 16 + 64;
	pack = malloc(cap);
	if (!pack) {
		o->failed = true;
		return;
	}
	for (int c = 0; c < C_N; c++)
		w[c] = strlen(col_title(a, (enum col)c));
	for (size_t i = 0; i < rows; i++) {
		size_t len;

		/* the escaped paths, NUL-separated */
		put_name(&names, v->rows[i]->path, Q_TABLE);
		out_put(&names, "", 1);
		for (int c = 1; c < C_N; c++) {
			cell(a, v->rows[i], (enum col)c, tmp, sizeof(tmp));
			len = strlen(tmp);
			if (len > w[c])
				w[c] = len;
			if (used + len + 1 > cap) {
				char *ng = realloc(pack, cap * 2 + len + 1);

				if (!ng) {
					free(pack);
					free(names.s);
					o->failed = true;
					return;
				}
				pack = ng;
				cap = cap * 2 + len + 1;
			}
			memcpy(pack + used, tmp, len + 1);
			used += len + 1;
		}
	}
	if (names.failed) {
		free(pack);
		free(names.s);
		o->failed = true;
		return;
	}
	np = names.s;
	for (size_t i = 0; i < rows; np += strlen(np) + 1, i++)
		if (text_width(np) > w[C_PATH])
			w[C_PATH] = text_width(np);
	if (path_width)
		w[C_PATH] = path_width;
	for (int c = 0; c < C_N; c++) {
		const char *h = col_title(a, (enum col)c);
		size_t len = strlen(h);

		if (c) {
			out_pad(o, 1 + w[c] - len);
			out_put(o, h, len);
		} else {
			out_put(o, h, len);
			out_pad(o, w[c] - len);
		}
	}
	out_put(o, eol, eol_len);
	p = pack;
	np = names.s;
	for (size_t i = 0; i < rows; np += strlen(np) + 1, i++) {
		const struct cg_stat_row *r = v->rows[i];
		size_t len;

		/* the next path is already escaped in place: a copy of it is cut */
		name.len = 0;
		out_put(&name, np, strlen(np));
		if (name.s)
			ellipsize(name.s, w[C_PATH]);
		out_put(o, name.s ? name.s : "", name.s ? strlen(name.s) : 0);
		len = name.s ? text_width(name.s) : 0;
		out_pad(o, w[C_PATH] > len ? w[C_PATH] - len : 0);
		for (int c = 1; c < C_N; c++) {
			len = strlen(p);
			out_pad(o, 1 + w[c] - len);
			out_put(o, p, len);
			p += len + 1;
		}
		out_put(o, eol, eol_len);
		out_maybe_flush(o);
		for (size_t t = 0; t < r->n_threads; t++) {
			const struct cg_stat_thread *th = &r->threads[t];

			name.len = 0;
			out_printf(&name, "  %d ", (int)th->tid);
			put_name(&name, th->comm, Q_TABLE);
			if (!name.s)
				continue;
			ellipsize(name.s, w[C_PATH]);
			out_put(o, name.s, strlen(name.s));
			len = text_width(name.s);
			out_pad(o, w[C_PATH] > len ? w[C_PATH] - len : 0);
			out_printf(o, " %*s ", (int)w[C_TASKS], "");
			if (th->cpu_percent >= 0)
				out_printf(o, "%*.1f", (int)w[C_CPU], th->cpu_percent);
			else
				out_printf(o, "%*s", (int)w[C_CPU], "-");
			out_put(o, eol, eol_len);
		}
	}
	if (name.failed)
		o->failed = true;
	free(name.s);
	free(names.s);
	free(pack);
}

/* ---- machine formats -------------------------------------------------------------------- */

static void json_string(struct out *o, const char *s)
{
	out_put(o, "\"", 1);
	put_name(o, s, Q_JSON);
	out_put(o, "\"", 1);
}

static void json_num(struct out *o, bool have, const char *fmt, double v)
{
	if (have && isfinite(v))
		out_printf(o, fmt, v);
	else
		out_printf(o, "null");
}

static double wall_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void render_json(struct out *o, const struct cgtop2_args *a, const struct view *v)
{
	out_printf(o, "{\"time\":%.3f,\"cgroups\":[", wall_time());
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		out_printf(o, "%s{\"path\":", i ? "," : "");
		json_string(o, r->path);
		out_printf(o, ",\"%s\":", count_keys[a->count]);
		json_num(o, r->have & CG_STAT_TASKS, "%.0f", (double)r->tasks);
		out_printf(o, ",\"cpu_percent\":");
		json_num(o, r->have & CG_STAT_CPU_RATE, "%.2f", r->cpu_percent);
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
		if (a->threads && (r->have & CG_STAT_THREADED)) {
			out_printf(o, ",\"threads\":[");
			for (size_t t = 0; t < r->n_threads; t++) {
				out_printf(o, "%s{\"tid\":%d,\"comm\":", t ? "," : "",
					   (int)r->threads[t].tid);
				json_string(o, r->threads[t].comm);
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

static void render_csv(struct out *o, const struct cgtop2_args *a, const struct view *v,
		       bool header)
{
	double now = wall_time();

	if (header)
		out_printf(o,
			   "time,path,%s,cpu_percent,memory_bytes,io_read_bytes_per_sec,"
			   "io_write_bytes_per_sec,pressure_cpu,pressure_memory,pressure_io%s\n",
			   count_keys[a->count], a->threads ? ",tid,comm" : "");
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		out_printf(o, "%.3f,", now);
		csv_field(o, r->path);
		csv_num(o, r->have & CG_STAT_TASKS, "%.0f", (double)r->tasks);
		csv_num(o, r->have & CG_STAT_CPU_RATE, "%.2f", r->cpu_percent);
		csv_num(o, r->have & CG_STAT_MEMORY, "%.0f", (double)r->memory);
		csv_num(o, r->have & CG_STAT_IO_RATE, "%.0f", r->io_read_bps);
		csv_num(o, r->have & CG_STAT_IO_RATE, "%.0f", r->io_write_bps);
		for (int p = 0; p < CG_PSI_N; p++)
			csv_num(o, r->have & (CG_STAT_PSI_CPU << p), "%.2f", r->psi[p]);
		out_printf(o, "%s\n", a->threads ? ",," : "");
		/* a thread: its cgroup's path, its CPU, its tid and comm; the rest is the cgroup's */
		for (size_t t = 0; a->threads && (r->have & CG_STAT_THREADED) && t < r->n_threads;
		     t++) {
			const struct cg_stat_thread *th = &r->threads[t];

			out_printf(o, "%.3f,", now);
			csv_field(o, r->path);
			out_printf(o, ",");
			csv_num(o, th->cpu_percent >= 0, "%.2f", th->cpu_percent);
			/* memory, the IO rates and the three PSI figures are the cgroup's */
			out_printf(o, ",,,,,,,%d,", (int)th->tid);
			csv_field(o, th->comm);
			out_printf(o, "\n");
		}
		out_maybe_flush(o);
	}
}

static void om_label(struct out *o, const char *s)
{
	put_name(o, s, Q_OPENMETRICS);
}

struct om_family {
	const char *name, *type, *unit, *help, *sample_suffix, *extra_label;
	unsigned need;
	int value; /* which number of a row */
};

enum { V_CPU_S, V_MEM, V_TASKS, V_IOR, V_IOW, V_PSI_CPU, V_PSI_MEM, V_PSI_IO };

static const struct om_family families[] = {
	{ "cgroup_cpu_usage_seconds", "counter", "seconds",
	  "CPU time used by the cgroup and its descendants", "_total", NULL, CG_STAT_CPU, V_CPU_S },
	{ "cgroup_memory_bytes", "gauge", "bytes", "Memory charged to the cgroup", "", NULL,
	  CG_STAT_MEMORY, V_MEM },
	{ "cgroup_tasks", "gauge", NULL, "Tasks (threads) in the cgroup and its descendants", "",
	  NULL, CG_STAT_TASKS, V_TASKS },
	{ "cgroup_io_read_bytes", "counter", "bytes", "Bytes read from block devices", "_total",
	  NULL, CG_STAT_IO, V_IOR },
	{ "cgroup_io_write_bytes", "counter", "bytes", "Bytes written to block devices", "_total",
	  NULL, CG_STAT_IO, V_IOW },
	{ "cgroup_pressure_some_avg10_ratio", "gauge", NULL,
	  "Share of the last 10 s in which some tasks stalled on the resource (PSI some avg10)", "",
	  "resource=\"cpu\"", CG_STAT_PSI_CPU, V_PSI_CPU },
};

static void om_value(struct out *o, const struct cg_stat_row *r, int value)
{
	switch (value) {
	case V_CPU_S:
		out_printf(o, "%" PRIu64 ".%09" PRIu64, r->cpu_ns / 1000000000u,
			   r->cpu_ns % 1000000000u);
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
	default:
		out_printf(o, "%.4f", r->psi[value - V_PSI_CPU] / 100.0);
		break;
	}
}

/* With -H: a counter per thread of a threaded cgroup, labelled with its tid and comm. */
static void om_threads(struct out *o, const struct view *v)
{
	static const char *name = "cgroup_thread_cpu_usage_seconds";
	double hz = (double)sysconf(_SC_CLK_TCK);

	out_printf(o, "# TYPE %s counter\n# UNIT %s seconds\n", name, name);
	out_printf(o, "# HELP %s CPU time used by a thread of a threaded cgroup.\n", name);
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		for (size_t t = 0; (r->have & CG_STAT_THREADED) && t < r->n_threads; t++) {
			out_printf(o, "%s_total{cgroup=\"", name);
			om_label(o, r->path);
			out_printf(o, "\",tid=\"%d\",comm=\"", (int)r->threads[t].tid);
			om_label(o, r->threads[t].comm);
			out_printf(o, "\"} %.2f\n",
				   (double)r->threads[t].ticks / (hz > 0 ? hz : 100));
			out_maybe_flush(o);
		}
	}
}

/* -P and -k count processes: another gauge, so that a series never changes its meaning */
static const struct om_family om_processes[] = {
	[CG_COUNT_PROCESSES] = { "cgroup_processes", "gauge", NULL,
				 "Processes (each counts once) and kernel threads in the cgroup",
				 "", NULL, CG_STAT_TASKS, V_TASKS },
	[CG_COUNT_USER_PROCESSES] = { "cgroup_user_processes", "gauge", NULL,
				      "Processes (each counts once, no kernel threads) in the "
				      "cgroup",
				      "", NULL, CG_STAT_TASKS, V_TASKS },
};

static void render_openmetrics(struct out *o, const struct cgtop2_args *a, const struct view *v)
{
	static const char *const psi_res[CG_PSI_N] = { "cpu", "memory", "io" };

	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		const struct om_family *fm = &families[f];
		bool psi = fm->value == V_PSI_CPU;

		if (fm->value == V_TASKS && a->count != CG_COUNT_TASKS)
			fm = &om_processes[a->count];

		out_printf(o, "# TYPE %s %s\n", fm->name, fm->type);
		if (fm->unit)
			out_printf(o, "# UNIT %s %s\n", fm->name, fm->unit);
		out_printf(o, "# HELP %s %s.\n", fm->name, fm->help);
		for (int p = 0; p < (psi ? CG_PSI_N : 1); p++) {
			for (size_t i = 0; i < v->n; i++) {
				const struct cg_stat_row *r = v->rows[i];

				if (!(r->have & (fm->need << p)))
					continue;
				out_printf(o, "%s%s{cgroup=\"", fm->name, fm->sample_suffix);
				om_label(o, r->path);
				out_printf(o, "\"");
				if (psi)
					out_printf(o, ",resource=\"%s\"", psi_res[p]);
				out_printf(o, "} ");
				om_value(o, r, fm->value + p);
				out_printf(o, "\n");
				out_maybe_flush(o);
			}
		}
	}
	if (a->threads)
		om_threads(o, v);
	out_printf(o, "# EOF\n");
}

/* ---- batch ------------------------------------------------------------------------------ */

static void sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(deadline_ns / 1000000000u),
			       .tv_nsec = (long)(deadline_ns % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* "/path" for messages, escaped as the table shows it (-M takes it from the kernel) */
static void where_of(const char *path, char *where, size_t size)
{
	_cleanup_free_ char *e = escaped(path, Q_TABLE);

	snprintf(where, size, "/%s", e ? e : "?");
}

/*
 * Out of fds although the sampler gave back every cached one: too low a limit (ulimit -n) to
 * open even one file at a time beside what the tool holds. Say which limit, not only EMFILE.
 */
static void diag_fds(struct cg_diag *d, int r, const char *where, const char *hier,
		     const char *what)
{
	struct rlimit rl;

	if (r == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		cg_diag_say(d, EMFILE, where, hier, what,
			    "%s (the limit of open files, %llu, leaves too few to open the stat "
			    "files one at a time; raise ulimit -n)",
			    strerror(EMFILE), (unsigned long long)rl.rlim_cur);
	else
		cg_diag_fail(d, -r, CG_OP_READ, 0, where, hier, "%s", what);
}

static int report_errno(const struct cgtop2_args *a, const char *what, int r)
{
	struct cg_diag d = { 0 };
	char buf[4096], where[PATH_MAX * 4 + 2];

	where_of(a->path, where, sizeof(where));
	diag_fds(&d, r, where, "all hierarchies", what);
	fprintf(stderr, "%s: %s\n", program_invocation_short_name,
		cg_diag_format(&d, buf, sizeof(buf)));
	return 1;
}

static int run_batch(const struct cgtop2_args *a, struct cg_stats *s)
{
	struct view v = { 0 };
	struct out o = { .fd = STDOUT_FILENO };
	uint64_t next = mono_ns();
	int ret = 0;

	for (unsigned long it = 0; !a->iterations || it < a->iterations; it++) {
		struct cg_stat_row *const *rows;
		size_t n;
		int r;

		if (it) {
			next += a->delay_ns;
			sleep_until(next);
		}
		r = cg_stats_sample(s, &rows, &n);
		if (r < 0) {
			ret = report_errno(a, "sample", r);
			break;
		}
		r = make_view(rows, n, a->order, NULL, &v);
		if (r < 0) {
			ret = report_errno(a, "sort", r);
			break;
		}
		switch (a->format) {
		case FMT_JSON:
			render_json(&o, a, &v);
			break;
		case FMT_CSV:
			render_csv(&o, a, &v, it == 0);
			break;
		case FMT_OPENMETRICS:
			render_openmetrics(&o, a, &v);
			break;
		default:
			/* a blank line between snapshots, as systemd-cgtop does */
			if (it)
				out_printf(&o, "\n");
			render_table(&o, a, &v, 0, 0, "\n");
			break;
		}
		r = out_flush(&o, STDOUT_FILENO);
		if (r < 0) {
			if (r != -EPIPE)
				ret = report_errno(a, "write output", r);
			break;
		}
	}
	free(v.rows);
	free(o.s);
	return ret;
}

/* ---- interactive ------------------------------------------------------------------------ */

struct screen {
	struct termios saved;
	bool raw;
	int sigfd;
	sigset_t blocked, old_mask;
};

static void term_leave(struct screen *sc)
{
	static const char leave[] = "\033[?25h\033[?1049l";

	if (!sc->raw)
		return;
	if (write(STDOUT_FILENO, leave, sizeof(leave) - 1) < 0) {
		/* the terminal is gone: nothing left to restore on it */
	}
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &sc->saved);
	sc->raw = false;
}

static int term_enter(struct screen *sc)
{
	static const char enter[] = "\033[?1049h\033[?25l\033[H\033[2J";
	struct termios t;

	if (tcgetattr(STDIN_FILENO, &sc->saved) < 0)
		return -errno;
	t = sc->saved;
	/* keys one at a time, unechoed; ^C still raises SIGINT, which the loop handles */
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) < 0)
		return -errno;
	sc->raw = true;
	if (write(STDOUT_FILENO, enter, sizeof(enter) - 1) < 0)
		return -errno;
	return 0;
}

static void term_size(unsigned *rows, unsigned *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static const char help_text[] =
	"cgtop2 keys\r\n\r\n"
	"  q          quit\r\n"
	"  p t c m i  sort by path, tasks, CPU, memory, IO\r\n"
	"  s          sort by pressure (stall)\r\n"
	"  P          count user processes (no kernel threads) / tasks\r\n"
	"  k          count processes and kernel threads / tasks\r\n"
	"  r          with P or k: include child cgroups' processes or not\r\n"
	"  + -        show one level deeper / shallower\r\n"
	"  space      pause / resume refreshing\r\n"
	"  %          raw numbers on / off\r\n"
	"  /          filter by path substring (Enter applies, Esc clears)\r\n"
	"  H          threads of threaded cgroups on / off\r\n"
	"  h ?        this help; any key returns\r\n";

struct ui {
	struct cgtop2_args a;
	char filter[256];
	bool paused, help, editing;
	char edit[256];
};

static void draw(struct ui *u, const struct view *v, struct out *o)
{
	unsigned rows, cols;
	size_t fixed, path_w;

	term_size(&rows, &cols);
	out_printf(o, "\033[H");
	if (u->help) {
		out_printf(o, "%s\033[J", help_text);
		return;
	}
	/* the title: what is shown, how it is sorted, what is paused or filtered */
	{
		_cleanup_free_ char *path = escaped(u->a.path, Q_TABLE);
		char title[1024];
		int n = snprintf(title, sizeof(title),
				 "cgtop2 /%s  depth %d  order %s  every %gs  counting %s%s%s%s%s%s"
				 "  (h: help)",
				 path ? path : "?", u->a.depth, order_names[u->a.order],
				 (double)u->a.delay_ns / 1e9, count_names[u->a.count],
				 u->a.count != CG_COUNT_TASKS && u->a.own_only ? " (own only)" : "",
				 u->paused ? "  PAUSED" : "", u->a.raw ? "  raw" : "",
				 *u->filter ? "  filter: " : "", u->filter);

		if (n > 0)
			title[char_offset(title, strlen(title), cols)] = '\0';
		out_printf(o, "%s\033[K\r\n", title);
	}
	/* the columns other than the path need about this much: give the path the rest */
	fixed = u->a.raw ? 8 * 14 : 8 * 9;
	path_w = cols > fixed + 10 ? cols - fixed : 10;
	{
		struct out t = { .fd = -1 };
		size_t max_rows = rows > 3 ? rows - 3 : 1;

		render_table(&t, &u->a, v, path_w, max_rows, "\n");
		/* cut each line to the terminal width, then end it with clear-to-eol */
		for (char *line = t.s, *nl; line && *line; line = nl + 1) {
			size_t len;

			nl = strchr(line, '\n');
			if (!nl)
				break;
			len = char_offset(line, (size_t)(nl - line), cols);
			out_printf(o, "%.*s\033[K\r\n", (int)len, line);
		}
		free(t.s);
	}
	if (u->editing)
		out_printf(o, "filter: %s\033[K", u->edit);
	out_printf(o, "\033[J");
}

/* One key; true when the screen should be sampled again (not only redrawn). */
static bool key(struct ui *u, struct cg_stats *s, int c, bool *quit)
{
	if (u->editing) {
		size_t len = strlen(u->edit);

		if (c == '\r' || c == '\n') {
			snprintf(u->filter, sizeof(u->filter), "%s", u->edit);
			u->editing = false;
		} else if (c == 27) {
			u->filter[0] = '\0';
			u->editing = false;
		} else if ((c == 127 || c == 8) && len) {
			u->edit[len - 1] = '\0';
		} else if (c >= 0x20 && c < 0x7f && len < sizeof(u->edit) - 1) {
			u->edit[len] = (char)c;
			u->edit[len + 1] = '\0';
		}
		return false;
	}
	if (u->help) {
		u->help = false;
		return false;
	}
	switch (c) {
	case 'q':
		*quit = true;
		break;
	case 'p':
		u->a.order = ORDER_PATH;
		break;
	case 't':
		u->a.order = ORDER_TASKS;
		break;
	case 'c':
		u->a.order = ORDER_CPU;
		break;
	case 'm':
		u->a.order = ORDER_MEMORY;
		break;
	case 'i':
		u->a.order = ORDER_IO;
		break;
	case 's':
		u->a.order = ORDER_PRESSURE;
		break;
	case 'P':
	case 'k': {
		enum cg_count want = c == 'P' ? CG_COUNT_USER_PROCESSES : CG_COUNT_PROCESSES;

		u->a.count = u->a.count == want ? CG_COUNT_TASKS : want;
		cg_stats_set_count(s, u->a.count, u->a.own_only);
		return true;
	}
	case 'r':
		/* as in systemd-cgtop: tasks are always counted recursively */
		if (u->a.count == CG_COUNT_TASKS)
			break;
		u->a.own_only = !u->a.own_only;
		cg_stats_set_count(s, u->a.count, u->a.own_only);
		return true;
	case '%':
		u->a.raw = !u->a.raw;
		break;
	case ' ':
		u->paused = !u->paused;
		break;
	case '+':
	case '=':
		u->a.depth++;
		cg_stats_set_depth(s, u->a.depth);
		return true;
	case '-':
		if (u->a.depth > 0) {
			u->a.depth--;
			cg_stats_set_depth(s, u->a.depth);
			return true;
		}
		break;
	case 'H':
		u->a.threads = !u->a.threads;
		cg_stats_set_threads(s, u->a.threads);
		return true;
	case '/':
		u->editing = true;
		snprintf(u->edit, sizeof(u->edit), "%s", u->filter);
		break;
	case 'h':
	case '?':
		u->help = true;
		break;
	}
	return false;
}

static int run_interactive(const struct cgtop2_args *a, struct cg_stats *s)
{
	struct screen sc = { .sigfd = -1 };
	struct ui u = { .a = *a };
	struct view v = { 0 };
	struct out o = { .fd = -1 };
	struct cg_stat_row *const *rows = NULL;
	size_t n = 0;
	unsigned long done = 0;
	uint64_t next = 0;
	bool quit = false, resample = true;
	int ret = 0, r;

	sigemptyset(&sc.blocked);
	sigaddset(&sc.blocked, SIGINT);
	sigaddset(&sc.blocked, SIGTERM);
	sigaddset(&sc.blocked, SIGHUP);
	sigaddset(&sc.blocked, SIGWINCH);
	sigaddset(&sc.blocked, SIGTSTP);
	sigaddset(&sc.blocked, SIGCONT);
	/* signals arrive as reads in the loop, so every exit passes through term_leave */
	sigprocmask(SIG_BLOCK, &sc.blocked, &sc.old_mask);
	sc.sigfd = signalfd(-1, &sc.blocked, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sc.sigfd < 0) {
		ret = report_errno(a, "signalfd", -errno);
		goto out;
	}
	r = term_enter(&sc);
	if (r < 0) {
		term_leave(&sc);
		ret = report_errno(a, "terminal", r);
		goto out;
	}
	while (!quit) {
		struct pollfd pfd[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
					 { .fd = sc.sigfd, .events = POLLIN } };
		uint64_t now = mono_ns();
		int timeout;

		/* a depth change frees rows: sample again even when paused */
		if (resample || (!u.paused && now >= next)) {
			r = cg_stats_sample(s, &rows, &n);
			if (r < 0) {
				term_leave(&sc);
				ret = report_errno(a, "sample", r);
				goto out;
			}
			done++;
			if (now >= next)
				next = now + a->delay_ns;
			resample = false;
		}
		if (make_view(rows, n, u.a.order, u.filter, &v) < 0) {
			term_leave(&sc);
			ret = report_errno(a, "sort", -ENOMEM);
			goto out;
		}
		draw(&u, &v, &o);
		if (out_flush(&o, STDOUT_FILENO) < 0)
			break;
		if (a->iterations && done >= a->iterations)
			break;
		now = mono_ns();
		timeout = u.paused ? -1 : next > now ? (int)((next - now + 999999) / 1000000) : 0;
		r = poll(pfd, 2, timeout);
		if (r < 0 && errno != EINTR)
			break;
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sc.sigfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGWINCH || si.ssi_signo == SIGCONT)
					continue; /* the next draw measures the terminal again */
				if (si.ssi_signo == SIGTSTP) {
					/* give the terminal back while stopped */
					term_leave(&sc);
					raise(SIGSTOP);
					if (term_enter(&sc) < 0)
						quit = true;
					continue;
				}
				quit = true;
			}
		}
		if (pfd[0].revents & POLLIN) {
			char keys[64];
			ssize_t got = read(STDIN_FILENO, keys, sizeof(keys));

			if (got <= 0)
				quit = true;
			for (ssize_t i = 0; i < got; i++)
				resample |= key(&u, s, (unsigned char)keys[i], &quit);
		} else if (pfd[0].revents & (POLLHUP | POLLERR)) {
			quit = true;
		}
	}
out:
	term_leave(&sc);
	if (sc.sigfd >= 0)
		close(sc.sigfd);
	sigprocmask(SIG_SETMASK, &sc.old_mask, NULL);
	free(v.rows);
	free(o.s);
	return ret;
}

/* ---- main ------------------------------------------------------------------------------- */

/* The value of KEY= in machined's state file text, unquoted; NULL when absent. */
static char *state_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');

		if ((size_t)(eol - p) > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t len = (size_t)(eol - v);

			if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
				v++;
				len -= 2;
			}
			return strndup(v, len);
		}
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}

/*
 * -M NAME -> the cgroup of the machine's scope. machined's state file names the scope (SCOPE=,
 * which systemd-cgtop reads too; UNIT= is taken as well) and the leader (LEADER=, which
 * systemd's own container_get_leader() reads). systemd-cgtop then asks the manager over D-Bus
 * for the scope's ControlGroup; without D-Bus, that is the leader's cgroup (unified, else
 * name=systemd) up to the scope's own component.
 */
static int machine_path(const struct cg_layout *l, const char *name, char **ret, char *why,
			size_t size)
{
	const char *dir = getenv("CGKIT_MACHINES_DIR");
	_cleanup_free_ char *text = NULL, *scope = NULL, *leader = NULL, *path = NULL;
	const struct cg_hier *h = l->unified ? l->unified : cg_layout_find(l, "name=systemd");
	char file[PATH_MAX];
	pid_t pid;
	int fd, r;

	snprintf(file, sizeof(file), "%s/%s", dir && *dir ? dir : MACHINES_DIR, name);
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = -errno;
		if (r == -ENOENT)
			snprintf(why, size, "no such machine (no %s; is systemd-machined running?)",
				 file);
		else
			snprintf(why, size, "cannot read %s: %s", file, strerror(-r));
		return r;
	}
	r = cg_read_fd(fd, &text, NULL);
	close(fd);
	if (r < 0) {
		snprintf(why, size, "cannot read %s", file);
		return r;
	}
	scope = state_value(text, "SCOPE");
	if (!scope)
		scope = state_value(text, "UNIT");
	leader = state_value(text, "LEADER");
	if (!scope || !*scope || !leader || cg_parse_pid(leader, &pid) < 0) {
		snprintf(why, size, "%s names no scope (SCOPE=) or no leader (LEADER=)", file);
		return -EINVAL;
	}
	if (!h) {
		snprintf(why, size, "neither a unified nor a name=systemd hierarchy is mounted");
		return -ENOENT;
	}
	r = cg_pid_cgroup(h, pid, 0, &path);
	if (r < 0) {
		snprintf(why, size, "the leader, PID %d, is gone or outside %s", (int)pid,
			 h->label);
		return r;
	}
	for (char *c = path, *e; *c; c = *e ? e + 1 : e) {
		e = strchrnul(c, '/');
		if ((size_t)(e - c) == strlen(scope) && !strncmp(c, scope, (size_t)(e - c))) {
			*e = '\0';
			*ret = TAKE_PTR(path);
			return 0;
		}
	}
	{
		_cleanup_free_ char *epath = escaped(path, Q_TABLE),
				    *escope = escaped(scope, Q_TABLE);

		snprintf(why, size, "the leader, PID %d, is in /%s, not in %s", (int)pid,
			 epath ? epath : "?", escope ? escope : "?");
	}
	return -ESRCH;
}

static int run(const struct cgtop2_args *args)
{
	struct cg_layout *l = NULL;
	struct cg_stats *s = NULL;
	struct cgtop2_args eff = *args, *a = &eff;
	struct cg_stats_opts so = {
		.depth = a->depth, .threads = a->threads, .count = a->count, .own_only = a->own_only
	};
	_cleanup_free_ char *mpath = NULL;
	bool interactive;
	int r, ret;

	/* benchmarks compare the cost of reading everything with the floor */
	so.always_read = getenv("CGKIT_STATS_ALWAYS_READ") != NULL;
	r = cg_layout_load(&l);
	if (r < 0)
		return report_errno(a, "read the mount table", r);
	if (!l->n) {
		cg_layout_free(l);
		fprintf(stderr, "%s: no cgroup filesystem is mounted\n",
			program_invocation_short_name);
		return 1;
	}
	if (a->machine) {
		char why[PATH_MAX * 8 + 256];

		r = machine_path(l, a->machine, &mpath, why, sizeof(why));
		if (r < 0) {
			fprintf(stderr, "%s: machine %s: %s\n", program_invocation_short_name,
				a->machine, why);
			cg_layout_free(l);
			return 1;
		}
		a->path = mpath;
	}
	so.path = a->path;
	r = cg_stats_new(l, &so, &s);
	if (r < 0) {
		struct cg_diag d = { 0 };
		char buf[4096], where[PATH_MAX * 4 + 2];

		where_of(a->path, where, sizeof(where));
		if (r == -ENOENT)
			cg_diag_say(&d, ENOENT, where, cg_layout_kind_name(cg_layout_kind(l)),
				    "open", "no such cgroup in any mounted hierarchy");
		else if (r == -EMFILE)
			diag_fds(&d, r, where, cg_layout_kind_name(cg_layout_kind(l)), "open");
		else
			cg_diag_fail(&d, -r, CG_OP_OPEN, 0, where,
				     cg_layout_kind_name(cg_layout_kind(l)), "open");
		fprintf(stderr, "%s: %s\n", program_invocation_short_name,
			cg_diag_format(&d, buf, sizeof(buf)));
		cg_layout_free(l);
		return 1;
	}
	if (a->verbose)
		fprintf(stderr, "%s: %s layout; %s\n", program_invocation_short_name,
			cg_layout_kind_name(cg_layout_kind(l)), cg_stats_sources(s));
	interactive = !a->batch && a->format == FMT_TABLE && isatty(STDIN_FILENO) &&
		      isatty(STDOUT_FILENO);
	ret = interactive ? run_interactive(a, s) : run_batch(a, s);
	if (a->verbose && cg_stats_reopened(s))
		fprintf(stderr, "%s: %zu stat files read without a cached fd (fd limit)\n",
			program_invocation_short_name, cg_stats_reopened(s));
	cg_stats_free(s);
	cg_layout_free(l);
	return ret;
}

int main(int argc, char **argv)
{
	struct cgtop2_args a = {
		.delay_ns = 1000000000u,
		.depth = 3,
		.order = ORDER_CPU,
		.format = FMT_TABLE,
	};
	int ret;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	/* a closed pipe ends batch output quietly, as for head(1) */
	signal(SIGPIPE, SIG_IGN);
	ret = run(&a);
	free(a.path);
	return ret;
}
