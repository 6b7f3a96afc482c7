// SPDX-License-Identifier: MIT
/*
 * cgtop2's detail pane of the selected cgroup, a panel above the table that leaves it as it was
 * when it closes (so is the help, screen_act.c's): its figures from the sampler's row, graphs of
 * its history, its processes. A figure the row does not carry is left out, never made up.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "screen_detail.h"
#include "history.h"
#include "output/text.h"
#include "screen_base.h"

void screen_detail(struct ui *u, bool show)
{
	WINDOW *win;

	/* opened anew at its top; made again in a new size (a resize) where it was */
	if (!u->detail) {
		u->detail_top = 0;
		u->proc_mark = -1;
	}
	screen_panel_close(&u->detail_panel);
	u->detail = false;
	if (!show || !u->n_items) {
		if (u->detail_pad)
			delwin(u->detail_pad);
		u->detail_pad = NULL;
		return;
	}
	/* below the title, above the status line */
	win = screen_window(LINES - 2, COLS, 1, 0);
	if (!win)
		return;
	u->detail_panel = new_panel(win);
	if (!u->detail_panel) {
		delwin(win);
		return;
	}
	u->detail = true;
	/* the help, when open, stays on top */
	if (u->help_panel)
		top_panel(u->help_panel);
	screen_detail_draw(u);
}

/* ---- the detail pane ----------------------------------------------------------------------- */

/*
 * The pane's text is drawn whole into a pad as wide as the panel's inside, and the panel shows
 * the part that fits: in a small terminal every section is there to scroll to, and a line that
 * is too long goes on below its values instead of being cut.
 */
#define PAD_LINES 400
/* where a continued line starts: under the values, past the labels */
#define VALUES 15

struct pane {
	WINDOW *w; /* the pad */
	int y, width; /* the next line; the columns a line may take */
	int reserve; /* lines kept free at the end, for what comes after */
	bool utf8;
};

static bool room(const struct pane *p)
{
	return p->y < getmaxy(p->w) - p->reserve;
}

/* Escaped text as lines of at most p->width columns, broken at a space where there is one. */
static void put_wrapped(struct pane *p, attr_t at, const char *s)
{
	int indent = p->width > VALUES + 20 ? VALUES : 0;
	size_t len = strlen(s);
	bool first = true;

	if (!len && room(p)) {
		p->y++;
		return;
	}
	do {
		size_t avail = (size_t)(p->width - (first ? 0 : indent)), cut, next;

		if (!room(p) || p->width < 2)
			return;
		cut = next = text_cut(s, len, avail);
		if (cut < len) {
			/* the last space that leaves something on this line */
			for (size_t i = cut; i > 0; i--)
				if (s[i] == ' ' && (!first || i > VALUES)) {
					cut = next = i;
					break;
				}
			while (next < len && s[next] == ' ')
				next++;
		}
		if (!cut)
			return;
		wmove(p->w, p->y++, first ? 0 : indent);
		wattron(p->w, at);
		waddnstr(p->w, s, (int)cut);
		wattroff(p->w, at);
		s += next;
		len -= next;
		first = false;
	} while (len);
}

static void line(struct pane *p, attr_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(struct pane *p, attr_t at, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put_wrapped(p, at, buf);
}

static void size_of(char *buf, size_t size, bool have, double v)
{
	if (have)
		table_bytes(buf, size, v);
	else
		snprintf(buf, size, "-");
}

/*
 * A graph of a metric's history, height rows, with its latest value and the top of its scale;
 * as narrow as the pane needs (the newest values), and only the figures where no graph fits.
 */
static void graph(struct pane *p, struct ui *u, const char *path, enum hist_metric m,
		  const char *title, int height)
{
	static const double floors[HIST_N] = { 1.0, 1.0, 1.0, 0.01 };
	double vals[HIST_LEN], top = floors[m], last = NAN;
	size_t n = hist_get(u->hist, path, m, vals, HIST_LEN), width;
	char cur[32], max[40], head[32], row[HIST_LEN * 4 + 1];
	int used;

	for (size_t i = 0; i < n; i++)
		if (vals[i] > top)
			top = vals[i];
	if (n)
		last = vals[n - 1];
	if (m == HIST_MEM || m == HIST_IO) {
		size_of(cur, sizeof(cur), !isnan(last), last);
		table_bytes(max, sizeof(max), top);
		if (m == HIST_IO) {
			strcat(cur, "/s");
			strcat(max, "/s");
		}
	} else {
		snprintf(cur, sizeof(cur), isnan(last) ? "-" : "%.2f", last);
		snprintf(max, sizeof(max), "%.2f", top);
	}
	used = snprintf(head, sizeof(head), "%-10s %10s ", title, cur);
	/* the head, the graph, " max " and the scale */
	width = p->width > used + 5 + (int)strlen(max) + 4
			? (size_t)(p->width - used - 5 - (int)strlen(max))
			: 0;
	if (width > HIST_LEN)
		width = HIST_LEN;
	if (!width) {
		line(p, 0, "%s max %s", head, max);
		return;
	}
	/* the newest values where the pane is narrower than the history */
	if (n > width) {
		memmove(vals, vals + (n - width), width * sizeof(*vals));
		n = width;
	}
	for (int r = 0; r < height && room(p); r++) {
		graph_row(row, sizeof(row), vals, n, width, floors[m], height, r, p->utf8);
		wmove(p->w, p->y++, 0);
		waddstr(p->w, r ? "" : head);
		wmove(p->w, p->y - 1, used);
		if (u->color)
			wattron(p->w, COLOR_PAIR(PAIR_BAR));
		waddstr(p->w, row);
		if (u->color)
			wattroff(p->w, COLOR_PAIR(PAIR_BAR));
		if (r == 0)
			wprintw(p->w, " max %s", max);
	}
}

static bool known(const struct cg_stat_row *r, int x)
{
	return r->x_have & (1ull << x);
}

static double secs(uint64_t ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

/* "1.5M" of x, "-" when unknown, "max" when unlimited */
static const char *xbytes(char *buf, size_t size, const struct cg_stat_row *r, int x)
{
	if (!known(r, x))
		snprintf(buf, size, "-");
	else if (cg_stat_x(r, x) == CG_UNLIMITED)
		snprintf(buf, size, "max");
	else
		table_bytes(buf, size, (double)cg_stat_x(r, x));
	return buf;
}

/* used against limit as a bar (up to 30 cells, fewer in a narrow pane), with the share */
static void bar(struct pane *p, struct ui *u, const char *title, double used, double limit)
{
	char cells[30 * 3 + 1];
	int width = p->width - VALUES - 6;
	size_t n = 0, fill;
	attr_t at;

	if (width > 30)
		width = 30;
	if (width < 5) {
		line(p, 0, "%-14s %.0f%%", title, used / limit * 100);
		return;
	}
	fill = (size_t)(used / limit * width + 0.5);
	if (fill > (size_t)width)
		fill = (size_t)width;
	for (size_t i = 0; i < (size_t)width; i++)
		n += (size_t)sprintf(cells + n, "%s",
				     i < fill ? (u->utf8 ? "█" : "#") : (u->utf8 ? "░" : "."));
	if (!room(p))
		return;
	at = u->color ? COLOR_PAIR(used >= limit * 0.9 ? PAIR_RED : PAIR_BAR) : 0;
	wmove(p->w, p->y++, 0);
	wprintw(p->w, "%-14s ", title);
	wattron(p->w, at);
	waddstr(p->w, cells);
	wattroff(p->w, at);
	wprintw(p->w, " %.0f%%", used / limit * 100);
}
static void memory_figures(struct pane *p, struct ui *u, const struct cg_stat_row *r)
{
	static const struct {
		int x;
		const char *name;
	} parts[] = { { CG_X_MEM_ANON, "anon" },     { CG_X_MEM_FILE, "file" },
		      { CG_X_MEM_KERNEL, "kernel" }, { CG_X_MEM_SHMEM, "shmem" },
		      { CG_X_MEM_SLAB, "slab" },     { CG_X_MEM_SOCK, "sock" } };
	char a[32], b[32], c[32], d[32], e[32], line_[256] = "";
	uint64_t oom;

	if (known(r, CG_X_MEM_MAX) || known(r, CG_X_MEM_HIGH))
		line(p, 0, "%-14s max %s, high %s, low %s, min %s", "memory limits",
		     xbytes(a, sizeof(a), r, CG_X_MEM_MAX), xbytes(b, sizeof(b), r, CG_X_MEM_HIGH),
		     xbytes(c, sizeof(c), r, CG_X_MEM_LOW), xbytes(d, sizeof(d), r, CG_X_MEM_MIN));
	if ((r->have & CG_STAT_MEMORY) && known(r, CG_X_MEM_MAX) && cg_stat_x(r, CG_X_MEM_MAX) &&
	    cg_stat_x(r, CG_X_MEM_MAX) != CG_UNLIMITED)
		bar(p, u, "memory.max", (double)r->memory, (double)cg_stat_x(r, CG_X_MEM_MAX));
	if (known(r, CG_X_MEM_PEAK) || known(r, CG_X_MEM_WORKING_SET) || known(r, CG_X_MEM_SWAP))
		line(p, 0, "%-14s peak %s, working set %s, swap %s (of %s)", "",
		     xbytes(a, sizeof(a), r, CG_X_MEM_PEAK),
		     xbytes(b, sizeof(b), r, CG_X_MEM_WORKING_SET),
		     xbytes(c, sizeof(c), r, CG_X_MEM_SWAP),
		     xbytes(e, sizeof(e), r, CG_X_MEM_SWAP_MAX));
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (known(r, parts[i].x))
			snprintf(line_ + strlen(line_), sizeof(line_) - strlen(line_), "%s %s  ",
				 parts[i].name, xbytes(a, sizeof(a), r, parts[i].x));
	if (*line_)
		line(p, 0, "%-14s %s", "breakdown", line_);
	if (!known(r, CG_X_MEM_EV_OOM_KILL) && !known(r, CG_X_MEM_EV_MAX))
		return;
	oom = known(r, CG_X_MEM_EV_OOM_KILL) ? cg_stat_x(r, CG_X_MEM_EV_OOM_KILL) : 0;
	line_[0] = '\0';
	{
		static const struct {
			int x;
			const char *name;
		} ev[] = { { CG_X_MEM_EV_LOW, "low" },
			   { CG_X_MEM_EV_HIGH, "high" },
			   { CG_X_MEM_EV_MAX, "max" },
			   { CG_X_MEM_EV_OOM, "oom" },
			   { CG_X_MEM_EV_OOM_KILL, "oom_kill" },
			   { CG_X_MEM_EV_OOM_GROUP_KILL, "oom_group_kill" } };

		for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
			if (known(r, ev[i].x))
				snprintf(line_ + strlen(line_), sizeof(line_) - strlen(line_),
					 "%s %llu  ", ev[i].name,
					 (unsigned long long)cg_stat_x(r, ev[i].x));
	}
	/* OOM kills in red (bold without colour) */
	line(p, oom ? (u->color ? COLOR_PAIR(PAIR_RED) | A_BOLD : A_BOLD) : 0, "%-14s %s",
	     "memory events", line_);
}

static void pressure(struct pane *p, const struct cg_stat_row *r);

/* cpu.max as a share of one CPU, with the use against it as a bar, and cpu.weight */
static void cpu_limit(struct pane *p, struct ui *u, const struct cg_stat_row *r)
{
	char w[32] = "";
	double cpus;

	if (known(r, CG_X_CPU_WEIGHT))
		snprintf(w, sizeof(w), ", cpu.weight %llu",
			 (unsigned long long)cg_stat_x(r, CG_X_CPU_WEIGHT));
	if (!known(r, CG_X_CPU_QUOTA) || !known(r, CG_X_CPU_PERIOD) ||
	    !cg_stat_x(r, CG_X_CPU_PERIOD)) {
		if (*w)
			line(p, 0, "%-14s %s", "CPU limit", w + 2);
		return;
	}
	if (cg_stat_x(r, CG_X_CPU_QUOTA) == CG_UNLIMITED) {
		line(p, 0, "%-14s cpu.max max (none)%s", "CPU limit", w);
		return;
	}
	cpus = (double)cg_stat_x(r, CG_X_CPU_QUOTA) / (double)cg_stat_x(r, CG_X_CPU_PERIOD);
	line(p, 0, "%-14s %.0f%% of one CPU (cpu.max %llu %llu)%s", "CPU limit", cpus * 100,
	     (unsigned long long)cg_stat_x(r, CG_X_CPU_QUOTA),
	     (unsigned long long)cg_stat_x(r, CG_X_CPU_PERIOD), w);
	if (r->have & CG_STAT_CPU_RATE)
		bar(p, u, "cpu.max", r->cpu_percent, cpus * 100);
}

/* The kernel's statistics the cgroup has (cg_kstats), a line each under their keys. */
static void kernel_stats(struct pane *p, const struct cg_stat_row *r)
{
	bool first = true;

	for (int i = 0; i < CG_K_N; i++) {
		const struct cg_kstat *k = &cg_kstats[i];
		char v[32];
		uint64_t kv = cg_kstat_get(r, i);

		if (!cg_kstat_known(r, i))
			continue;
		if (k->usec)
			snprintf(v, sizeof(v), "%.3f s", (double)kv / 1e6);
		else if (strstr(k->key, "_bytes"))
			table_bytes(v, sizeof(v), (double)kv);
		else
			snprintf(v, sizeof(v), "%llu", (unsigned long long)kv);
		line(p, 0, "%-14s %s %s", first ? "kernel" : "", k->key, v);
		first = false;
	}
	if (r->n_percpu) {
		char v[256];
		size_t n = 0;

		/* CPU by CPU, as far as the line goes (the pane cuts it) */
		for (size_t c = 0; c < r->n_percpu && n < sizeof(v) - 1; c++) {
			int w = snprintf(v + n, sizeof(v) - n, "%s%zu:%.3f", c ? " " : "", c,
					 (double)r->percpu_ns[c] / 1e9);

			n = w < 0 ? n : n + (size_t)w;
		}
		v[sizeof(v) - 1] = '\0';
		line(p, 0, "%-14s cpu_usage_percpu_seconds %s", first ? "kernel" : "", v);
	}
}

static void figures(struct pane *p, struct ui *u, const struct cg_stat_row *r)
{
	char a[32], b[64], cpu[64];

	if (known(r, CG_X_PIDS_MAX) && cg_stat_x(r, CG_X_PIDS_MAX) != CG_UNLIMITED)
		snprintf(b, sizeof(b), ", pids.max %llu",
			 (unsigned long long)cg_stat_x(r, CG_X_PIDS_MAX));
	else
		snprintf(b, sizeof(b), "%s", known(r, CG_X_PIDS_MAX) ? ", pids.max max" : "");
	if (r->have & CG_STAT_TASKS)
		line(p, 0, "%-14s %llu (%s)%s", "tasks", (unsigned long long)r->tasks,
		     u->a.out.count == CG_COUNT_TASKS ? "threads" : "processes", b);
	else
		line(p, 0, "%-14s -", "tasks");
	if (known(r, CG_X_PIDS_MAX) && cg_stat_x(r, CG_X_PIDS_MAX) != CG_UNLIMITED &&
	    cg_stat_x(r, CG_X_PIDS_MAX) && (r->have & CG_STAT_TASKS))
		bar(p, u, "pids.max", (double)r->tasks, (double)cg_stat_x(r, CG_X_PIDS_MAX));
	if (known(r, CG_X_PIDS_EV_MAX))
		line(p, 0, "%-14s max %llu (forks refused)", "pids events",
		     (unsigned long long)cg_stat_x(r, CG_X_PIDS_EV_MAX));
	if (r->have & CG_STAT_CPU_RATE)
		snprintf(cpu, sizeof(cpu), "%.1f%% of one CPU", r->cpu_percent);
	else
		snprintf(cpu, sizeof(cpu), "-");
	line(p, 0, "%-14s %s, %.3f s used", "CPU", cpu,
	     r->have & CG_STAT_CPU ? secs(r->cpu_ns) : 0.0);
	cpu_limit(p, u, r);
	if (known(r, CG_X_CPU_USER_NS) && known(r, CG_X_CPU_SYSTEM_NS))
		line(p, 0, "%-14s user %.3f s, system %.3f s", "",
		     secs(cg_stat_x(r, CG_X_CPU_USER_NS)), secs(cg_stat_x(r, CG_X_CPU_SYSTEM_NS)));
	if (known(r, CG_X_CPU_PERIODS))
		line(p, 0, "%-14s %llu of %llu periods, %.3f s", "throttled",
		     (unsigned long long)(known(r, CG_X_CPU_THROTTLED)
						  ? cg_stat_x(r, CG_X_CPU_THROTTLED)
						  : 0),
		     (unsigned long long)cg_stat_x(r, CG_X_CPU_PERIODS),
		     known(r, CG_X_CPU_THROTTLED_NS) ? secs(cg_stat_x(r, CG_X_CPU_THROTTLED_NS))
						     : 0.0);
	size_of(a, sizeof(a), r->have & CG_STAT_MEMORY, (double)r->memory);
	line(p, 0, "%-14s %s", "memory", a);
	memory_figures(p, u, r);
	size_of(a, sizeof(a), r->have & CG_STAT_IO_RATE, r->io_read_bps);
	size_of(b, sizeof(b), r->have & CG_STAT_IO_RATE, r->io_write_bps);
	line(p, 0, "%-14s read %s/s, write %s/s", "IO", a, b);
	if (r->have & CG_STAT_IO) {
		char ops_r[32] = "", ops_w[32] = "";

		size_of(a, sizeof(a), true, (double)r->io_read);
		size_of(b, sizeof(b), true, (double)r->io_write);
		if (known(r, CG_X_IO_RIOS) && known(r, CG_X_IO_WIOS)) {
			snprintf(ops_r, sizeof(ops_r), " (%llu ops)",
				 (unsigned long long)cg_stat_x(r, CG_X_IO_RIOS));
			snprintf(ops_w, sizeof(ops_w), " (%llu ops)",
				 (unsigned long long)cg_stat_x(r, CG_X_IO_WIOS));
		}
		line(p, 0, "%-14s read %s%s, written %s%s", "IO so far", a, ops_r, b, ops_w);
	}
	for (size_t i = 0; i < r->n_iodevs; i++) {
		const struct cg_stat_iodev *d = &r->iodevs[i];
		_cleanup_free_ char *name = screen_text(u, d->name);
		char dev[64];

		if (name && *name)
			snprintf(dev, sizeof(dev), "%s", name);
		else
			snprintf(dev, sizeof(dev), "%u:%u", d->io.major, d->io.minor);
		size_of(a, sizeof(a), d->io.have & (1u << CG_IO_RBYTES),
			(double)d->io.v[CG_IO_RBYTES]);
		size_of(b, sizeof(b), d->io.have & (1u << CG_IO_WBYTES),
			(double)d->io.v[CG_IO_WBYTES]);
		line(p, 0, "%-14s %s: read %s, written %s", i ? "" : "IO per device", dev, a, b);
	}
	pressure(p, r);
	kernel_stats(p, r);
}
/* a PSI average of the row, "%6.2f" or "-" */
static void avg_of(char *buf, size_t size, const struct cg_stat_row *r, int x, double v)
{
	if (known(r, x))
		snprintf(buf, size, "%6.2f", v);
	else
		snprintf(buf, size, "%6s", "-");
}

/*
 * PSI of each resource: some and full over 10 s, 60 s and 300 s, and the stall totals: a line
 * a resource where the pane is wide enough, else some and full on lines of their own.
 */
static void pressure(struct pane *p, const struct cg_stat_row *r)
{
	static const char *const res[CG_PSI_N] = { "cpu", "memory", "io" };
	bool wide = p->width >= 67, beside = p->width >= 67 + 2 + 40, head = false;

	for (int i = 0; i < CG_PSI_N; i++) {
		char v[6][16], total[80] = "", label[32];

		if (!(r->have & (CG_STAT_PSI_CPU << i)))
			continue;
		if (!head && wide)
			line(p, 0, "%-14s some %6s %6s %6s  full %6s %6s %6s%s", "pressure %",
			     "10s", "60s", "300s", "10s", "60s", "300s",
			     beside ? "  stalled s" : "");
		else if (!head)
			line(p, 0, "%-14s%7s%7s%7s", "pressure %", "10s", "60s", "300s");
		head = true;
		snprintf(v[0], sizeof(v[0]), "%6.2f", r->psi[i]);
		avg_of(v[1], sizeof(v[1]), r, CG_X_PSI_AVG + CG_PSI_SOME60 * CG_PSI_N + i,
		       cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_SOME60 * CG_PSI_N + i));
		avg_of(v[2], sizeof(v[2]), r, CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N + i,
		       cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N + i));
		avg_of(v[3], sizeof(v[3]), r, CG_X_PSI_FULL_AVG10 + i,
		       cg_stat_xd(r, CG_X_PSI_FULL_AVG10 + i));
		avg_of(v[4], sizeof(v[4]), r, CG_X_PSI_AVG + CG_PSI_FULL60 * CG_PSI_N + i,
		       cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_FULL60 * CG_PSI_N + i));
		avg_of(v[5], sizeof(v[5]), r, CG_X_PSI_AVG + CG_PSI_FULL300 * CG_PSI_N + i,
		       cg_stat_xd(r, CG_X_PSI_AVG + CG_PSI_FULL300 * CG_PSI_N + i));
		if (known(r, CG_X_PSI_SOME_US + i))
			snprintf(total, sizeof(total), "%.3f some",
				 (double)cg_stat_x(r, CG_X_PSI_SOME_US + i) / 1e6);
		if (known(r, CG_X_PSI_SOME_US + i) && known(r, CG_X_PSI_FULL_US + i))
			snprintf(total, sizeof(total), "%.3f some, %.3f full",
				 (double)cg_stat_x(r, CG_X_PSI_SOME_US + i) / 1e6,
				 (double)cg_stat_x(r, CG_X_PSI_FULL_US + i) / 1e6);
		if (wide) {
			line(p, 0, "%-14s      %s %s %s       %s %s %s%s%s", res[i], v[0], v[1],
			     v[2], v[3], v[4], v[5], beside && *total ? "  " : "",
			     beside ? total : "");
		} else {
			snprintf(label, sizeof(label), "%s some", res[i]);
			line(p, 0, "%-14s %s %s %s", label, v[0], v[1], v[2]);
			snprintf(label, sizeof(label), "%s full", res[i]);
			line(p, 0, "%-14s %s %s %s", label, v[3], v[4], v[5]);
		}
		if (!beside && *total)
			line(p, 0, "%-14s stalled s: %s", "", total);
	}
}

static const struct cg_stat_row *selected_row(const struct ui *u)
{
	if (!u->n_items || u->cur >= u->n_items)
		return NULL;
	return u->items[u->cur].row;
}

/* A task's state is a letter (R, S, D, t, ...): anything else is not drawn raw. */
static char state_of(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? c : '?';
}

/* A user's name as ps shows it: its number when it has none or one longer than 8 bytes. */
static void user_of(uid_t uid, char *buf, size_t size)
{
	static struct {
		uid_t uid;
		char name[16]; /* as buf: a name of up to 8 bytes, or a uid */
	} seen[64];
	static size_t n_seen;
	struct passwd pw, *res = NULL;
	char tmp[1024];

	for (size_t i = 0; i < n_seen; i++)
		if (seen[i].uid == uid) {
			snprintf(buf, size, "%s", seen[i].name);
			return;
		}
	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) == 0 && res && strlen(pw.pw_name) <= 8)
		snprintf(buf, size, "%s", pw.pw_name);
	else
		snprintf(buf, size, "%u", (unsigned)uid);
	/* the passwd database is asked once a user, not once a refresh */
	if (n_seen < ARRAY_SIZE(seen)) {
		seen[n_seen].uid = uid;
		snprintf(seen[n_seen++].name, sizeof(seen[0].name), "%s", buf);
	}
}

static int by_rss(const void *a, const void *b)
{
	const struct cg_stat_member *x = *(const struct cg_stat_member *const *)a,
				    *y = *(const struct cg_stat_member *const *)b;

	if (x->rss != y->rss)
		return x->rss < y->rss ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/* One task's line, cut to the pane's width (a long command line is cut, not wrapped). */
static void task_line(struct pane *p, struct ui *u, const struct cg_stat_member *m, bool marked)
{
	_cleanup_free_ char *comm = screen_text(u, m->comm),
			    *cmd = screen_text(u, m->have_proc ? m->cmdline : "");
	char c[16] = "-", rss[32] = "-", user[16] = "-", l[1024];
	_cleanup_free_ char *who = NULL;
	int len;

	if (m->cpu_percent >= 0)
		snprintf(c, sizeof(c), "%.1f", m->cpu_percent);
	if (m->have_proc) {
		table_bytes(rss, sizeof(rss), (double)m->rss);
		user_of(m->uid, user, sizeof(user));
	}
	who = screen_text(u, user);
	len = snprintf(l, sizeof(l), "%8d %c %6s %6s %-8s  %-15s  %s", (int)m->id,
		       state_of(m->state), c, rss, who ? who : "?", comm ? comm : "?",
		       cmd ? cmd : "");
	if (len < 0 || !room(p))
		return;
	if (marked)
		u->mark_line = p->y;
	wmove(p->w, p->y++, 0);
	if (marked)
		wattron(p->w, A_REVERSE);
	screen_put(p->w, l, (size_t)p->width);
	if (marked)
		wattroff(p->w, A_REVERSE);
}

/*
 * The cgroup's own tasks, as many as the pad holds: the most RSS first when the table is sorted
 * by memory, else the most CPU; Tab marks one (M moves it).
 */
static void tasks(struct pane *p, struct ui *u, const struct cg_stat_member *m, size_t n,
		  bool thread)
{
	_cleanup_free_ const struct cg_stat_member **v = calloc(n ? n : 1, sizeof(*v));
	const char *mark = u->utf8 ? "\u25bc" : "*";
	bool rss = u->a.order == ORDER_MEMORY;
	char cpu_t[16], rss_t[16];

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = &m[i];
	if (rss)
		qsort(v, n, sizeof(*v), by_rss);
	snprintf(cpu_t, sizeof(cpu_t), "%%CPU%s", rss ? "" : mark);
	snprintf(rss_t, sizeof(rss_t), "RSS%s", rss ? mark : "");
	if (u->proc_mark >= 0 && (size_t)u->proc_mark >= n)
		u->proc_mark = (long)n - 1;
	u->mark_pid = u->proc_mark >= 0 ? v[u->proc_mark]->id : 0;
	if (u->mark_pid) {
		snprintf(u->mark_comm, sizeof(u->mark_comm), "%s", v[u->proc_mark]->comm);
		u->mark_start = v[u->proc_mark]->start;
	}
	line(p, 0, "%s", "");
	line(p, A_BOLD, "%zu %s of its own", n,
	     thread ? (n == 1 ? "thread" : "threads") : (n == 1 ? "process" : "processes"));
	/* the sort's mark is one column of three bytes in UTF-8: padded by hand */
	line(p, A_BOLD, "%8s S %*s%s %*s%s %-8s  %-15s  COMMAND", thread ? "TID" : "PID",
	     (int)(6 - text_cols(cpu_t, strlen(cpu_t))), "", cpu_t,
	     (int)(6 - text_cols(rss_t, strlen(rss_t))), "", rss_t, "USER", "COMM");
	for (size_t i = 0; i < n && room(p); i++) {
		if (p->y == getmaxy(p->w) - p->reserve - 1 && i + 1 < n) {
			line(p, 0, "%8s (%zu more)", "", n - i);
			break;
		}
		task_line(p, u, v[i], (long)i == u->proc_mark && screen_can_act(u));
	}
}

/* A replay of a recording without tasks: the threads of a threaded cgroup, as -H recorded. */
static void recorded_threads(struct pane *p, struct ui *u, const struct cg_stat_row *r)
{
	line(p, 0, "%s", "");
	line(p, A_BOLD, "%8s  %-16s %6s", "TID", "COMM", "%CPU");
	for (size_t t = 0; t < r->n_threads; t++) {
		_cleanup_free_ char *comm = screen_text(u, r->threads[t].comm);
		char c[16] = "-";

		if (r->threads[t].cpu_percent >= 0)
			snprintf(c, sizeof(c), "%.1f", r->threads[t].cpu_percent);
		line(p, 0, "%8d  %-16s %6s", (int)r->threads[t].tid, comm ? comm : "?", c);
	}
}

/* Live: the sampler's list of the selected cgroup; a replay: the row's, as recorded. */
static void members(struct pane *p, struct ui *u, const struct cg_stat_row *r)
{
	const struct cg_stat_member *m;
	size_t n;
	int rr = source_members(u->src, r->path, &m, &n);

	if (rr == -EOPNOTSUPP) {
		if (source_info(u->src)->tasks)
			tasks(p, u, r->members, r->n_members,
			      r->n_members ? r->members[0].thread : u->a.out.threads);
		else if (r->n_threads)
			recorded_threads(p, u, r);
		else {
			line(p, 0, "%s", "");
			line(p, 0, "(no tasks in this recording: format 1.0)");
		}
		return;
	}
	if (rr < 0) {
		/* selected since the last refresh: listed by the next */
		line(p, 0, "%s", "");
		line(p, A_BOLD, "(listed at the next refresh)");
		return;
	}
	tasks(p, u, m, n, n ? m[0].thread : u->a.out.threads);
}

static void graphs(struct pane *p, struct ui *u, const struct cg_stat_row *r, int tall, int low)
{
	line(p, 0, "%s", "");
	graph(p, u, r->path, HIST_CPU, "CPU %", tall);
	graph(p, u, r->path, HIST_MEM, "memory", tall);
	graph(p, u, r->path, HIST_IO, "IO", low);
	graph(p, u, r->path, HIST_PSI, "pressure", low);
}

void screen_detail_scroll(struct ui *u, int by)
{
	int most = u->detail_lines - (LINES - 4);

	if (by == INT_MIN)
		u->detail_top = 0;
	else if (by == INT_MAX)
		u->detail_top = most;
	else
		u->detail_top += by;
	if (u->detail_top > most)
		u->detail_top = most;
	if (u->detail_top < 0)
		u->detail_top = 0;
}

/* Where the panel shows part of the text: which lines, on its bottom border. */
static void scroll_mark(WINDOW *win, int top, int shown, int total)
{
	char s[64];
	int len;

	if (total <= shown)
		return;
	len = snprintf(s, sizeof(s), " %d-%d of %d%s%s ", top + 1, top + shown, total,
		       top ? "  PgUp" : "", top + shown < total ? "  PgDn" : "");
	if (len + 4 <= getmaxx(win))
		mvwaddstr(win, getmaxy(win) - 1, getmaxx(win) - len - 2, s);
}

void screen_detail_draw(struct ui *u)
{
	const struct cg_stat_row *r = selected_row(u);
	WINDOW *win = u->detail_panel ? panel_window(u->detail_panel) : NULL;
	struct pane p = { .utf8 = u->utf8 };
	_cleanup_free_ char *path = NULL;
	/* small graphs where the screen is short: the tasks below stay near */
	int tall = LINES >= 40 ? 3 : 1, low = LINES >= 40 ? 2 : 1, shown;

	if (!win)
		return;
	p.width = getmaxx(win) - 4;
	if (p.width < 1)
		p.width = 1;
	if (u->detail_pad && getmaxx(u->detail_pad) != p.width) {
		delwin(u->detail_pad);
		u->detail_pad = NULL;
	}
	if (!u->detail_pad && !(u->detail_pad = newpad(PAD_LINES, p.width)))
		return;
	p.w = u->detail_pad;
	u->mark_line = -1;
	werase(p.w);
	if (!r) {
		line(&p, 0, "the cgroup is gone");
	} else {
		path = screen_text(u, r->path);
		line(&p, A_BOLD, "%s", path ? path : "?");
		line(&p, 0, "%s", "");
		figures(&p, u, r);
		/* a short screen keeps its first page for the processes: the graphs come after */
		if (LINES >= 40)
			graphs(&p, u, r, tall, low);
		p.reserve = LINES >= 40 ? 0 : 6;
		members(&p, u, r);
		p.reserve = 0;
		if (LINES < 40)
			graphs(&p, u, r, tall, low);
	}
	u->detail_lines = p.y;
	/* Tab marked another process: the pane goes where it is */
	if (u->mark_follow && u->mark_line >= 0) {
		int rows = getmaxy(win) - 2;

		if (u->mark_line < u->detail_top)
			u->detail_top = u->mark_line;
		else if (rows > 0 && u->mark_line >= u->detail_top + rows)
			u->detail_top = u->mark_line - rows + 1;
	}
	u->mark_follow = false;
	screen_detail_scroll(u, 0);
	werase(win);
	box(win, 0, 0);
	shown = getmaxy(win) - 2;
	if (shown > p.y - u->detail_top)
		shown = p.y - u->detail_top;
	if (shown > 0 && getmaxx(win) > 4)
		copywin(p.w, win, u->detail_top, 0, 1, 2, shown, 2 + p.width - 1, FALSE);
	scroll_mark(win, u->detail_top, getmaxy(win) - 2, p.y);
}
