// SPDX-License-Identifier: MIT
/*
 * cgtop2's overlays, each a panel above the table that leaves it as it was when it closes: the
 * help, and the detail pane of the selected cgroup (its figures from the sampler's row, and
 * graphs of its history). A figure the row does not carry is left out, never made up.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "screen.h"

static const char *const help_lines[] = {
	"cgtop2 keys",
	"",
	"q                  quit",
	"p t c m i s        sort by path, tasks, CPU, memory, IO, pressure",
	"P                  count user processes (no kernel threads) / tasks",
	"k                  count processes and kernel threads / tasks",
	"r                  with P or k: child cgroups' processes counted or not",
	"+ -                show one level deeper / shallower",
	"%                  CPU as percent / as time used",
	"R                  raw numbers on / off",
	"space              refresh now",
	"z                  pause / resume refreshing",
	"T                  tree / flat sorted list",
	"Left Right         tree: fold / unfold the selected subtree",
	"Up Down PgUp PgDn  move the selection (also Home End, the wheel)",
	"Enter              details of the selected cgroup; Esc or Enter closes",
	"/                  filter by path (Enter applies, Esc clears)",
	"H                  threads of threaded cgroups on / off",
	"[ ]  { }           replay: one sample back / on; first / last",
	"h ?                this help; any key closes it",
};

/* A window for a panel: at least 1x1, inside the screen. */
static WINDOW *window(int h, int w, int y, int x)
{
	if (h > LINES - y)
		h = LINES - y;
	if (w > COLS - x)
		w = COLS - x;
	return newwin(h < 1 ? 1 : h, w < 1 ? 1 : w, y, x);
}

static void panel_close(PANEL **p)
{
	WINDOW *w;

	if (!*p)
		return;
	w = panel_window(*p);
	del_panel(*p);
	delwin(w);
	*p = NULL;
	/* what it covered is drawn again from stdscr */
	touchwin(stdscr);
	update_panels();
}

void screen_help(struct ui *u, bool show)
{
	int h = (int)ARRAY_SIZE(help_lines) + 2, w = 0, y, x;
	WINDOW *win;

	panel_close(&u->help_panel);
	u->help = false;
	if (!show)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(help_lines); i++)
		if ((int)strlen(help_lines[i]) > w)
			w = (int)strlen(help_lines[i]);
	w += 4;
	y = LINES > h ? (LINES - h) / 2 : 0;
	x = COLS > w ? (COLS - w) / 2 : 0;
	win = window(h, w, y, x);
	if (!win)
		return;
	werase(win);
	box(win, 0, 0);
	for (size_t i = 0; i < ARRAY_SIZE(help_lines); i++) {
		wmove(win, (int)i + 1, 2);
		if (!i)
			wattron(win, A_BOLD);
		screen_put(win, help_lines[i], (size_t)(w > 4 ? w - 4 : 0));
		if (!i)
			wattroff(win, A_BOLD);
	}
	u->help_panel = new_panel(win);
	if (!u->help_panel) {
		delwin(win);
		return;
	}
	u->help = true;
	update_panels();
}

void screen_detail(struct ui *u, bool show)
{
	WINDOW *win;

	panel_close(&u->detail_panel);
	u->detail = false;
	if (!show || !u->n_items)
		return;
	/* below the title, above the status line */
	win = window(LINES - 2, COLS, 1, 0);
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

struct pane {
	WINDOW *w;
	int y, width;
	bool utf8;
};

static void line(struct pane *p, attr_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(struct pane *p, attr_t at, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (p->y >= getmaxy(p->w) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	wmove(p->w, p->y++, 2);
	wattron(p->w, at);
	screen_put(p->w, buf, (size_t)(p->width > 4 ? p->width - 4 : 0));
	wattroff(p->w, at);
}

static void size_of(char *buf, size_t size, bool have, double v)
{
	if (have)
		table_bytes(buf, size, v);
	else
		snprintf(buf, size, "-");
}

/* A graph of a metric's history, height rows, with its latest value and the top of its scale. */
static void graph(struct pane *p, struct ui *u, const char *path, enum hist_metric m,
		  const char *title, int height)
{
	static const double floors[HIST_N] = { 1.0, 1.0, 1.0, 0.01 };
	double vals[HIST_LEN], top = floors[m], last = NAN;
	size_t n = hist_get(u->hist, path, m, vals, HIST_LEN), width;
	char cur[32], max[32], row[HIST_LEN * 4 + 1];

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
	width = p->width > 40 ? (size_t)p->width - 40 : 1;
	if (width > HIST_LEN)
		width = HIST_LEN;
	for (int r = 0; r < height && p->y < getmaxy(p->w) - 1; r++) {
		graph_row(row, sizeof(row), vals, n, width, floors[m], height, r, p->utf8);
		wmove(p->w, p->y++, 2);
		wprintw(p->w, "%-10s %10s ", r ? "" : title, r ? "" : cur);
		if (u->color)
			wattron(p->w, COLOR_PAIR(PAIR_BAR));
		waddstr(p->w, row);
		if (u->color)
			wattroff(p->w, COLOR_PAIR(PAIR_BAR));
		if (r == 0)
			wprintw(p->w, " max %s", max);
	}
}

static const struct cg_stat_row *selected_row(const struct ui *u)
{
	if (!u->n_items || u->cur >= u->n_items)
		return NULL;
	return u->items[u->cur].row;
}

void screen_detail_draw(struct ui *u)
{
	const struct cg_stat_row *r = selected_row(u);
	struct pane p = { .w = u->detail_panel ? panel_window(u->detail_panel) : NULL, .y = 1 };
	_cleanup_free_ char *path = NULL;
	char mem[32], rd[32], wr[32], cpu[64];

	if (!p.w)
		return;
	p.width = getmaxx(p.w);
	p.utf8 = u->utf8;
	werase(p.w);
	box(p.w, 0, 0);
	if (!r) {
		line(&p, 0, "the cgroup is gone");
		return;
	}
	path = screen_text(u, r->path);
	line(&p, A_BOLD, "%s", path ? path : "?");
	line(&p, 0, "%s", "");
	if (r->have & CG_STAT_CPU_RATE)
		snprintf(cpu, sizeof(cpu), "%.1f%% of one CPU", r->cpu_percent);
	else
		snprintf(cpu, sizeof(cpu), "-");
	if (r->have & CG_STAT_TASKS)
		line(&p, 0, "%-14s %llu (%s)", "tasks", (unsigned long long)r->tasks,
		     u->a.count == CG_COUNT_TASKS ? "threads" : "processes");
	else
		line(&p, 0, "%-14s -", "tasks");
	line(&p, 0, "%-14s %s, %.3f s used", "CPU", cpu,
	     r->have & CG_STAT_CPU ? (double)r->cpu_ns / (double)NSEC_PER_SEC : 0.0);
	size_of(mem, sizeof(mem), r->have & CG_STAT_MEMORY, (double)r->memory);
	line(&p, 0, "%-14s %s", "memory", mem);
	size_of(rd, sizeof(rd), r->have & CG_STAT_IO_RATE, r->io_read_bps);
	size_of(wr, sizeof(wr), r->have & CG_STAT_IO_RATE, r->io_write_bps);
	line(&p, 0, "%-14s read %s/s, write %s/s", "IO", rd, wr);
	if (r->have & CG_STAT_IO) {
		size_of(rd, sizeof(rd), true, (double)r->io_read);
		size_of(wr, sizeof(wr), true, (double)r->io_write);
		line(&p, 0, "%-14s read %s, written %s", "IO so far", rd, wr);
	}
	{
		static const char *const res[CG_PSI_N] = { "cpu", "memory", "io" };
		char psi[128] = "";

		for (int i = 0; i < CG_PSI_N; i++)
			if (r->have & (CG_STAT_PSI_CPU << i))
				snprintf(psi + strlen(psi), sizeof(psi) - strlen(psi), "%s %.2f  ",
					 res[i], r->psi[i]);
		if (*psi)
			line(&p, 0, "%-14s %s", "pressure", psi);
		line(&p, 0, "%-14s %s", "", "(some avg10, % of time stalled)");
	}
	line(&p, 0, "%s", "");
	graph(&p, u, r->path, HIST_CPU, "CPU %", 3);
	graph(&p, u, r->path, HIST_MEM, "memory", 3);
	graph(&p, u, r->path, HIST_IO, "IO", 2);
	graph(&p, u, r->path, HIST_PSI, "pressure", 2);
	if (r->n_threads) {
		line(&p, 0, "%s", "");
		line(&p, A_BOLD, "%8s  %-16s %6s", "TID", "COMM", "%CPU");
		for (size_t t = 0; t < r->n_threads; t++) {
			_cleanup_free_ char *comm = screen_text(u, r->threads[t].comm);
			char c[16] = "-";

			if (r->threads[t].cpu_percent >= 0)
				snprintf(c, sizeof(c), "%.1f", r->threads[t].cpu_percent);
			line(&p, 0, "%8d  %-16s %6s", (int)r->threads[t].tid, comm ? comm : "?", c);
		}
	}
}
