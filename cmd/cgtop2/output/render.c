// SPDX-License-Identifier: MIT
/*
 * cgtop2's writers: the rows to show (filtered, sorted), the table (batch and interactive), and
 * put_name, the one function that escapes a name for each format (JSON and CSV: render_data.c;
 * OpenMetrics and Prometheus: metrics.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"
#include "render.h"
#include "view_sort.h"
#include "text.h"

const char *const order_names[ORDER_PRESSURE + 1] = { "path",	"tasks", "cpu",
						      "memory", "io",	 "pressure" };
#include "base/cleanup.h"
#include "base/parse.h"
#include "base/utf8.h"

/* What the tasks column counts, in headers and output keys. */
static const char *const count_titles[] = { "TASKS", "PROCS", "PROCS" };
const char *const count_keys[] = { "tasks", "processes", "user_processes" };

/* ---- ordering --------------------------------------------------------------------------- */

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

static int index_path_cmp(const void *pa, const void *pb, void *rows)
{
	struct cg_stat_row *const *r = rows;

	return path_cmp(r[*(const size_t *)pa]->path, r[*(const size_t *)pb]->path);
}

/*
 * Ties in the key go by path, and over many idle cgroups nearly every pair ties: comparing
 * their paths, which share the sandbox's prefix, was the largest item of a refresh's own CPU
 * at 10,000 cgroups (perf). The path order is made once per shape of the sampler's rows and
 * a tie compares two ranks.
 */
static int view_rank(struct view *v, struct cg_stat_row *const *rows, size_t n, uint64_t shape)
{
	if (shape && shape == v->shape && n == v->n_ranked)
		return 0;
	v->shape = 0;
	free(v->rank);
	free(v->by_path);
	v->rank = malloc((n ? n : 1) * sizeof(*v->rank));
	v->by_path = malloc((n ? n : 1) * sizeof(*v->by_path));
	if (!v->rank || !v->by_path)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		v->by_path[i] = i;
	qsort_r(v->by_path, n, sizeof(*v->by_path), index_path_cmp, (void *)rows);
	for (size_t i = 0; i < n; i++)
		v->rank[v->by_path[i]] = (uint32_t)i;
	v->n_ranked = n;
	v->shape = shape;
	return 0;
}

/* ---- cells ------------------------------------------------------------------------------ */

/* printf is most of a refresh over many cgroups: the few number shapes are made by hand. */
static size_t fmt_u64(char *buf, uint64_t v)
{
	char tmp[CG_U64_LEN], *p = cg_format_u64(tmp, v);
	size_t len = (size_t)(tmp + sizeof(tmp) - p);

	memcpy(buf, p, len);
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
	double s = (double)ns / (double)NSEC_PER_SEC;

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

static const char *col_title(const struct render_opts *a, enum col c)
{
	if (c == C_CPU && a->cpu_time)
		return "CPU-TIME";
	return c == C_TASKS ? count_titles[a->count] : col_names[c];
}

static void cell(const struct render_opts *a, const struct cg_stat_row *r, enum col c, char *buf,
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

/* The table's columns for the screen (screen_table.c), which draws the path column itself. */
size_t table_columns(void)
{
	return C_N;
}

const char *table_title(const struct render_opts *a, size_t c)
{
	return col_title(a, (enum col)c);
}

void table_cell(const struct render_opts *a, const struct cg_stat_row *r, size_t c, char *buf,
		size_t size)
{
	cell(a, r, (enum col)c, buf, size);
}

void table_bytes(char *buf, size_t size, double v)
{
	fmt_bytes(buf, size, v);
}

/* ---- names ----------------------------------------------------------------------------------- */

/* The ASCII bytes a format escapes itself (besides control characters). */
/* whether name is valid UTF-8 throughout (JSON can hold it as it is) */
bool name_utf8(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	while (*s) {
		size_t len = *s < 0x80 ? 1 : cg_utf8_decode(s, SIZE_MAX, NULL);

		if (!len)
			return false;
		s += len;
	}
	return true;
}

static bool q_special(enum quoting q, unsigned char c)
{
	switch (q) {
	case Q_TABLE:
		return c == '\\';
	case Q_WORD:
		return c == '\\' || c == ' ';
	case Q_CSV:
		return c == '"';
	default:
		return c == '"' || c == '\\';
	}
}

/*
 * Write a name (a cgroup path, a thread's comm: any bytes but NUL, chosen by whoever named it)
 * so that it stays one field of one line in every format, nothing raw reaches a terminal, and
 * the name can be had back. The table: \t \n \r, else \xNN a byte for control characters (C0,
 * DEL, C1), for a byte that starts no valid UTF-8, and for a character that takes no column
 * (wcwidth < 1: format characters such as U+202E, combining marks), so that every character
 * shown takes one or two columns; \\ for a backslash, so that the escapes are unambiguous. A
 * word (the events' lines): the same, and a space is \x20, so that a line splits at blanks
 * alike whatever the names. A CSV field holds the table's text, quoted as CSV quotes ("", the
 * caller quoting the field): two names that differ in a control byte stay two (label values:
 * metrics.c). JSON: a name of valid UTF-8 is itself, escaped only as JSON requires (\u00XX
 * for a control character, \" \\), so that a consumer matches a path as it is (systemd's
 * foo\x2dbar.service); one that is not (JSON strings are Unicode) is the table's reversible
 * text, and the writer says so beside it (put_json_name), as the labels' escaped="true".
 */
void put_name(struct out *o, const char *name, enum quoting q)
{
	const unsigned char *s = (const unsigned char *)name, *run = s;
	bool table = q == Q_TABLE || q == Q_WORD;

	if (q == Q_JSON && !name_utf8(name)) {
		/* the table's text is valid UTF-8: this recurses once */
		_cleanup_free_ char *t = escaped(name, Q_TABLE);

		if (!t)
			o->failed = true;
		else
			put_name(o, t, Q_JSON);
		return;
	}
	if (q == Q_CSV) {
		_cleanup_free_ char *t = escaped(name, Q_TABLE);

		if (!t) {
			o->failed = true;
			return;
		}
		for (const char *p = t, *r = t;; p++) {
			if (*p && !q_special(q, (unsigned char)*p))
				continue;
			out_put(o, r, (size_t)(p - r));
			if (!*p)
				break;
			out_put(o, "\"", 1);
			r = p;
		}
		return;
	}
	while (*s) {
		/*
		 * Printable ASCII stays as it is in every format but for q_special's: the common
		 * byte taken without the decoder's call (every row's name, every refresh).
		 */
		if (*s >= 0x20 && *s < 0x7f && !q_special(q, *s)) {
			s++;
			continue;
		}
		/* 0: no well-formed UTF-8 (JSON and OpenMetrics text must be UTF-8) */
		size_t len = cg_utf8_decode(s, SIZE_MAX, NULL), n = 0;
		/* C1 controls, U+0080 to U+009F, are 0xc2 0x80 to 0xc2 0x9f */
		bool ctl = len == 1 ? *s < 0x20 || *s == 0x7f
				    : len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
		char esc[16];

		/* a terminal gets only what takes a column or two: no format or combining mark */
		if (table && len > 1 && !ctl && text_char_width(s, len) < 1)
			ctl = true;

		if (len && !ctl && !(len == 1 && q_special(q, *s))) {
			s += len;
			continue;
		}
		out_put(o, (const char *)run, (size_t)(s - run));
		if (table && len == 1 && strchr("\t\n\r", *s)) {
			n = (size_t)snprintf(esc, sizeof(esc), "\\%c",
					     *s == '\t'	  ? 't'
					     : *s == '\n' ? 'n'
							  : 'r');
		} else if (table && (!len || ctl || *s == ' ')) {
			for (size_t i = 0; i < (len ? len : 1); i++)
				n += (size_t)snprintf(esc + n, sizeof(esc) - n, "\\x%02x", s[i]);
		} else if (q == Q_JSON && ctl) {
			n = (size_t)snprintf(
				esc, sizeof(esc), "\\u%04x",
				len == 1 ? *s : (unsigned)(s[0] & 0x1f) << 6 | (s[1] & 0x3f));
		} else {
			n = (size_t)snprintf(esc, sizeof(esc), "\\%c", *s);
		}
		out_put(o, esc, n);
		s += len ? len : 1;
		run = s;
	}
	out_put(o, (const char *)run, (size_t)(s - run));
}

/* name as put_name writes it for q, in a string of its own (NULL without memory) */
char *escaped(const char *name, enum quoting q)
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

static const struct path_filter *view_paths;

void view_set_path_filter(const struct path_filter *pf)
{
	view_paths = pf && pf->n ? pf : NULL;
}

static bool view_keeps(const struct cg_stat_row *row, const char *filter)
{
	return (!filter || !*filter || strstr(row->path, filter)) &&
	       (!view_paths || path_filter_keeps(view_paths, row->path));
}

int make_view(struct cg_stat_row *const *rows, size_t n, uint64_t shape, enum order order,
	      const char *filter, struct view *v)
{
	struct cg_stat_row **sel = malloc((n ? n : 1) * sizeof(*sel));
	size_t k = 0;

	if (!sel || view_rank(v, rows, n, shape) < 0) {
		free(sel);
		return -ENOMEM;
	}
	if (order == ORDER_PATH) {
		/* the path order is the rank's: nothing to sort */
		for (size_t i = 0; i < n; i++)
			if (view_keeps(rows[v->by_path[i]], filter))
				sel[k++] = rows[v->by_path[i]];
	} else {
		/* all of them in order (view_sort.c), then the filter's: the same order among those */
		if (view_sort(&v->sorted, v->rank, rows, n, shape, order) < 0) {
			free(sel);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			if (view_keeps(rows[view_sorted_at(v->sorted, i)], filter))
				sel[k++] = rows[view_sorted_at(v->sorted, i)];
	}
	free(v->rows);
	v->rows = sel;
	v->n = k;
	return 0;
}

void view_free(struct view *v)
{
	free(v->rows);
	free(v->rank);
	free(v->by_path);
	view_sorted_free(&v->sorted);
	v->rows = NULL;
	v->rank = NULL;
	v->by_path = NULL;
	v->n = v->n_ranked = 0;
	v->shape = 0;
}

/*
 * Table text is escaped (put_name): printable ASCII and whole UTF-8 characters of one or two
 * columns (wcwidth). The byte offset where text s[0, len) is cut to k columns, or len.
 */
size_t char_offset(const char *s, size_t len, size_t k)
{
	return text_cut(s, len, k);
}

static size_t text_width(const char *s)
{
	return text_cols(s, strlen(s));
}

/* Shorten a path to width by cutting its middle: the top and the leaf say the most. */
static void ellipsize(char *s, size_t width)
{
	size_t len = strlen(s), w = text_width(s), head, tail;

	if (w <= width || width < 5)
		return;
	/* between characters, never inside one; a wide one that does not fit leaves a column */
	head = char_offset(s, len, (width - 3) / 2);
	tail = char_offset(s, len, w - (width - 3 - (width - 3) / 2));
	while (tail < len && text_cols(s + tail, len - tail) > width - 3 - text_cols(s, head))
		tail++;
	while (tail < len && ((unsigned char)s[tail] & 0xc0) == 0x80)
		tail++;
	memmove(s + head + 3, s + tail, len - tail + 1);
	memcpy(s + head, "...", 3);
}

/*
 * Render rows as aligned text into o. path_width 0: as wide as the longest path (batch);
 * else the column is cut to it. max_rows 0: all. eol ends each line. Names are escaped
 * (put_name): a control character in a cgroup's name never reaches the terminal.
 */
void render_table(struct out *o, const struct render_opts *a, const struct view *v,
		  size_t path_width, size_t max_rows, const char *eol)
{
	size_t w[C_N] = { 0 }, eol_len = strlen(eol), used = 0, cap;
	size_t rows = max_rows && max_rows < v->n ? max_rows : v->n;
	/* every cell formatted once, packed NUL-separated: for the widths, then for the lines */
	char *pack, *p, tmp[64];
	struct out names = { .fd = -1 }, name = { .fd = -1 };
	const char *np;
	/* each escaped path's columns, measured once */
	size_t *nw;

	cap = rows * 16 + 64;
	pack = malloc(cap);
	nw = calloc(rows + 1, sizeof(*nw));
	if (!pack || !nw) {
		free(pack);
		free(nw);
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
					free(nw);
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
		free(nw);
		free(names.s);
		o->failed = true;
		return;
	}
	np = names.s;
	for (size_t i = 0; i < rows; np += strlen(np) + 1, i++) {
		nw[i] = text_width(np);
		if (nw[i] > w[C_PATH])
			w[C_PATH] = nw[i];
	}
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

		if (nw[i] <= w[C_PATH]) {
			/* it fits (ellipsize would leave it): written as it is */
			out_put(o, np, strlen(np));
			len = nw[i];
		} else {
			/* the next path is already escaped in place: a copy of it is cut */
			name.len = 0;
			out_put(&name, np, strlen(np));
			if (name.s)
				ellipsize(name.s, w[C_PATH]);
			out_put(o, name.s ? name.s : "", name.s ? strlen(name.s) : 0);
			len = name.s ? text_width(name.s) : 0;
		}
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
	free(nw);
	free(pack);
}
