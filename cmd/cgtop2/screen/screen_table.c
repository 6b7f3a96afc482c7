// SPDX-License-Identifier: MIT
/*
 * cgtop2's screen: the lines of the table, flat (sorted) or as a tree drawn as systemd-cgls
 * draws it with folded subtrees, the selection kept by path, scrolling, and drawing the title,
 * the header, the rows with their history sparkline and the status line on stdscr.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/cleanup.h"
#include "names/origin.h"
#include "names/runtime.h"
#include "output/fields.h"
#include "screen_table.h"
#include "history.h"
#include "output/text.h"
#include "screen_base.h"
#include "events/triggers.h"
#include "settings.h"

/* What the tasks column counts, in the title. */
static const char *const count_names[] = { "tasks", "processes", "user processes" };
static const char *const hist_titles[HIST_N] = { "HIST-CPU", "HIST-MEM", "HIST-IO", "HIST-PSI" };

#define SPARK_W 12

size_t screen_body(void)
{
	return LINES > 3 ? (size_t)LINES - 3 : 1;
}

/* s cut to width columns by its middle (the top and the leaf say the most), padded to width. */
static void put_ellipsized(struct out *o, const char *s, size_t width)
{
	size_t len = strlen(s), w = text_cols(s, len), head, tail, hw;

	if (w <= width || width < 5) {
		head = text_cut(s, len, width);
		out_put(o, s, head);
		out_pad(o, width - text_cols(s, head));
		return;
	}
	head = text_cut(s, len, (width - 3) / 2);
	hw = text_cols(s, head);
	for (tail = head; tail < len && text_cols(s + tail, len - tail) > width - 3 - hw;)
		do
			tail++;
		while (tail < len && ((unsigned char)s[tail] & 0xc0) == 0x80);
	out_put(o, s, head);
	out_put(o, "...", 3);
	out_put(o, s + tail, len - tail);
	out_pad(o, width - hw - 3 - text_cols(s + tail, len - tail));
}

static bool screen_is_collapsed(const struct ui *u, const char *path)
{
	for (size_t i = 0; i < u->n_collapsed; i++)
		if (!strcmp(u->collapsed[i], path))
			return true;
	return false;
}

void screen_lines_free(struct ui *u)
{
	for (size_t i = 0; i < u->n_items; i++)
		free(u->items[i].label);
	free(u->items);
	u->items = NULL;
	u->n_items = 0;
}

static int push(struct ui *u, size_t *cap, struct cg_stat_row *r, long thread, char *label)
{
	if (!label)
		return -ENOMEM;
	if (u->n_items == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct line *nl = realloc(u->items, nc * sizeof(*nl));

		if (!nl) {
			free(label);
			return -ENOMEM;
		}
		u->items = nl;
		*cap = nc;
	}
	u->items[u->n_items++] = (struct line){ .row = r, .thread = thread, .label = label };
	return 0;
}

/* The lines of a cgroup's threads (with -H, in a threaded cgroup), indented by indent. */
static int push_threads(struct ui *u, size_t *cap, struct cg_stat_row *r, const char *indent)
{
	for (size_t t = 0; u->a.out.threads && t < r->n_threads; t++) {
		_cleanup_free_ char *comm = screen_text(u, r->threads[t].comm);
		char *label = NULL;

		if (!comm ||
		    asprintf(&label, "%s  %d %s", indent, (int)r->threads[t].tid, comm) < 0)
			return -ENOMEM;
		if (push(u, cap, r, (long)t, label) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * What the path alone does not show at a glance (cmd/cgtop2/names/origin.c): a container's short ID, a
 * machine, or the unit a cgroup below a unit's belongs to. "" for none.
 */
static void origin_tag(const char *path, char *buf, size_t size)
{
	const char *leaf = strrchr(path, '/');
	struct cg_origin o;

	const struct cg_rt_info *rt;

	cg_origin_parse(path, &o);
	rt = cg_rt_of_path(path, o.container_id);
	/* the names its runtime gives it: a pod's container, or Docker's name */
	if (rt && rt->v[CG_RT_POD][0])
		snprintf(buf, size, "  [%.80s/%.80s]", rt->v[CG_RT_POD], rt->v[CG_RT_CONTAINER]);
	else if (rt && rt->v[CG_RT_NAME][0])
		snprintf(buf, size, "  [container %.80s]", rt->v[CG_RT_NAME]);
	else if (o.container_id[0])
		snprintf(buf, size, "  [container %.12s]", o.container_id);
	else if (o.machine[0])
		snprintf(buf, size, "  [machine %s]", o.machine);
	else if (o.unit[0] && strcmp(leaf ? leaf + 1 : path, o.unit))
		snprintf(buf, size, "  [%s]", o.unit);
	else
		buf[0] = '\0';
}

static int flat_lines(struct ui *u, size_t *cap)
{
	for (size_t i = 0; i < u->v.n; i++) {
		struct cg_stat_row *r = u->v.rows[i];
		char tag[300];
		_cleanup_free_ char *full = NULL;

		/* the tag is data from the path: escaped as the path is */
		origin_tag(r->path, tag, sizeof(tag));
		if (asprintf(&full, "%s%s", r->path, tag) < 0)
			return -ENOMEM;
		if (push(u, cap, r, -1, screen_text(u, full)) < 0 ||
		    push_threads(u, cap, r, "") < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ---- the tree ------------------------------------------------------------------------------ */

struct by_path {
	const char *path;
	size_t idx;
};

static int by_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct by_path *)a)->path, ((const struct by_path *)b)->path);
}

/* The view index of path's parent, or -1 (not shown, or path is the top). */
static long parent_of(const struct by_path *bp, size_t n, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len, lo = 0, hi = n;
	char *want;
	long found = -1;

	if (!slash || !path[1])
		return -1;
	len = slash == path ? 1 : (size_t)(slash - path);
	want = strndup(path, len);
	if (!want)
		return -1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(bp[mid].path, want);

		if (!c) {
			found = (long)bp[mid].idx;
			break;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	free(want);
	return found;
}

struct tree {
	size_t *first, *kids; /* CSR: the children of i are kids[first[i], first[i + 1]) */
	long *parent;
	bool *last; /* along the path being drawn: was the node at that level its parent's last */
};

static size_t descendants(const struct tree *t, size_t i)
{
	size_t n = 0;

	for (size_t k = t->first[i]; k < t->first[i + 1]; k++)
		n += 1 + descendants(t, t->kids[k]);
	return n;
}

/* The line of view row i at tree level lvl and its subtree, unless folded. */
static int tree_walk(struct ui *u, size_t *cap, struct tree *t, size_t i, size_t lvl)
{
	struct cg_stat_row *r = u->v.rows[i];
	const char *name = r->path, *slash = strrchr(r->path, '/');
	_cleanup_free_ char *prefix = NULL, *label = NULL;
	size_t plen = 0, nkids = t->first[i + 1] - t->first[i];
	bool folded = nkids && screen_is_collapsed(u, r->path);
	const char *vert = u->utf8 ? "│ " : "| ", *tee = u->utf8 ? "├─" : "|-",
		   *elbow = u->utf8 ? "└─" : "`-";
	struct line *l;

	/* a root shows its whole path, a child its name */
	if (lvl && slash)
		name = slash + 1;
	prefix = malloc(lvl * 8 + 1);
	if (!prefix)
		return -ENOMEM;
	for (size_t k = 1; k < lvl; k++)
		plen += (size_t)sprintf(prefix + plen, "%s", t->last[k] ? "  " : vert);
	if (lvl)
		plen += (size_t)sprintf(prefix + plen, "%s", t->last[lvl] ? elbow : tee);
	prefix[plen] = '\0';
	{
		_cleanup_free_ char *e = screen_text(u, name);

		if (!e)
			return -ENOMEM;
		if (folded && asprintf(&label, "%s%s [+%zu]", prefix, e, descendants(t, i)) < 0)
			return -ENOMEM;
		if (!folded && asprintf(&label, "%s%s", prefix, e) < 0)
			return -ENOMEM;
	}
	if (push(u, cap, r, -1, TAKE_PTR(label)) < 0)
		return -ENOMEM;
	l = &u->items[u->n_items - 1];
	l->children = nkids > 0;
	l->collapsed = folded;
	if (push_threads(u, cap, r, prefix) < 0)
		return -ENOMEM;
	if (folded)
		return 0;
	for (size_t k = t->first[i]; k < t->first[i + 1]; k++) {
		t->last[lvl + 1] = k + 1 == t->first[i + 1];
		if (tree_walk(u, cap, t, t->kids[k], lvl + 1) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int tree_lines(struct ui *u, size_t *cap)
{
	size_t n = u->v.n;
	struct by_path *bp = malloc((n + 1) * sizeof(*bp));
	struct tree t = { .first = calloc(n + 2, sizeof(size_t)),
			  .kids = malloc((n + 1) * sizeof(size_t)),
			  .parent = malloc((n + 1) * sizeof(long)),
			  .last = calloc(n + 2, sizeof(bool)) };
	size_t *fill = calloc(n + 1, sizeof(size_t));
	int ret = -ENOMEM;

	if (!bp || !t.first || !t.kids || !t.parent || !t.last || !fill)
		goto out;
	for (size_t i = 0; i < n; i++)
		bp[i] = (struct by_path){ u->v.rows[i]->path, i };
	qsort(bp, n, sizeof(*bp), by_path_cmp);
	/* children in view order: siblings keep the sort order */
	for (size_t i = 0; i < n; i++) {
		t.parent[i] = parent_of(bp, n, u->v.rows[i]->path);
		if (t.parent[i] >= 0)
			t.first[t.parent[i] + 1]++;
	}
	for (size_t i = 0; i < n; i++)
		t.first[i + 1] += t.first[i];
	t.first[n + 1] = t.first[n];
	for (size_t i = 0; i < n; i++)
		if (t.parent[i] >= 0) {
			size_t p = (size_t)t.parent[i];

			t.kids[t.first[p] + fill[p]++] = i;
		}
	ret = 0;
	for (size_t i = 0; i < n && !ret; i++)
		if (t.parent[i] < 0)
			ret = tree_walk(u, cap, &t, i, 0);
out:
	free(bp);
	free(t.first);
	free(t.kids);
	free(t.parent);
	free(t.last);
	free(fill);
	return ret;
}

int screen_lines(struct ui *u)
{
	size_t cap = 0, body = screen_body();
	int r;

	screen_lines_free(u);
	r = u->tree ? tree_lines(u, &cap) : flat_lines(u, &cap);
	if (r < 0)
		return r;
	/* the selected cgroup where it is now; if it vanished, the line at the same place */
	for (size_t i = 0, found = 0; u->sel && i < u->n_items && !found; i++) {
		const struct line *l = &u->items[i];
		pid_t tid = l->thread < 0 ? 0 : l->row->threads[l->thread].tid;

		if (strcmp(l->row->path, u->sel))
			continue;
		if (tid == u->sel_tid || !tid)
			u->cur = i;
		found = tid == u->sel_tid;
	}
	if (u->cur >= u->n_items)
		u->cur = u->n_items ? u->n_items - 1 : 0;
	if (u->n_items && (!u->sel || strcmp(u->sel, u->items[u->cur].row->path))) {
		char *s = strdup(u->items[u->cur].row->path);

		if (!s)
			return -ENOMEM;
		free(u->sel);
		u->sel = s;
		u->sel_tid = 0;
	}
	if (u->cur < u->top)
		u->top = u->cur;
	if (u->cur >= u->top + body)
		u->top = u->cur - body + 1;
	if (u->top + body > u->n_items)
		u->top = u->n_items > body ? u->n_items - body : 0;
	return 0;
}

/* ---- drawing ------------------------------------------------------------------------------- */

static enum hist_metric hist_of(enum order o)
{
	switch (o) {
	case ORDER_MEMORY:
		return HIST_MEM;
	case ORDER_IO:
		return HIST_IO;
	case ORDER_PRESSURE:
		return HIST_PSI;
	default:
		return HIST_CPU;
	}
}

/* The row a line's cells are made from: a thread's is a row of its own CPU only. */
static const struct cg_stat_row *cells_row(const struct line *l, struct cg_stat_row *tmp)
{
	const struct cg_stat_thread *th;
	long hz = sysconf(_SC_CLK_TCK);

	if (l->thread < 0)
		return l->row;
	th = &l->row->threads[l->thread];
	*tmp = (struct cg_stat_row){ .path = l->row->path, .have = CG_STAT_CPU };
	tmp->cpu_ns = th->ticks * (NSEC_PER_SEC / (uint64_t)(hz > 0 ? hz : 100));
	if (th->cpu_percent >= 0) {
		tmp->have |= CG_STAT_CPU_RATE;
		tmp->cpu_percent = th->cpu_percent;
	}
	return tmp;
}

static void draw_title(struct ui *u)
{
	/* a replay's title says what was recorded */
	_cleanup_free_ char *path =
		screen_text(u, source_is_replay(u->src) ? source_info(u->src)->path : u->a.path);
	char title[1024], when[64] = "", shown[sizeof(title)];

	if (source_is_replay(u->src)) {
		time_t t = (time_t)(u->smp.time_ns / NSEC_PER_SEC);
		struct tm tm;

		if (localtime_r(&t, &tm))
			strftime(when, sizeof(when), "  replay %Y-%m-%d %H:%M:%S", &tm);
		snprintf(when + strlen(when), sizeof(when) - strlen(when), " (%zu/%zu)",
			 u->smp.index + 1, source_count(u->src));
	}
	snprintf(title, sizeof(title),
		 "cgtop2 %s  depth %d  order %s  every %gs  counting %s%s%s%s%s%s%s%s  (h: help)",
		 cg_path_display(path ? path : "?", shown, sizeof(shown)), u->a.depth,
		 order_names[u->a.order], (double)u->a.delay_ns / (double)NSEC_PER_SEC,
		 count_names[u->a.out.count],
		 u->a.out.count != CG_COUNT_TASKS && u->a.own_only ? " (own only)" : "",
		 u->paused ? "  PAUSED" : "", u->a.out.raw ? "  raw" : "", u->tree ? "  tree" : "",
		 when, *u->filter ? "  filter: " : "", u->filter);
	move(0, 0);
	attron(A_BOLD);
	screen_put(stdscr, title, (size_t)COLS);
	attroff(A_BOLD);
}

static void draw_status(struct ui *u, size_t body)
{
	char s[320];
	size_t below = u->n_items > u->top + body ? u->n_items - u->top - body : 0;

	move(LINES - 1, 0);
	if (u->editing) {
		snprintf(s, sizeof(s), "filter: %s", u->edit);
		screen_put(stdscr, s, (size_t)COLS);
		return;
	}
	if (trig_counter_failed(u->a.trig)) {
		attron(A_BOLD);
		screen_put(stdscr, TRIG_FAILED, (size_t)COLS);
		attroff(A_BOLD);
		return;
	}
	if (trig_counter_unwatched(u->a.trig)) {
		snprintf(s, sizeof(s), TRIG_UNWATCHED, trig_counter_unwatched(u->a.trig));
		attron(A_BOLD);
		screen_put(stdscr, s, (size_t)COLS);
		attroff(A_BOLD);
		return;
	}
	if (!u->n_items) {
		screen_put(stdscr, "no cgroup to show", (size_t)COLS);
		return;
	}
	snprintf(s, sizeof(s), "line %zu of %zu  (%zu-%zu shown)%s", u->cur + 1, u->n_items,
		 u->top + 1, u->top + (body < u->n_items - u->top ? body : u->n_items - u->top),
		 u->top ? "  more above" : "");
	if (below)
		snprintf(s + strlen(s), sizeof(s) - strlen(s), "  %zu more below", below);
	screen_put(stdscr, s, (size_t)COLS);
}

/* A column's title, with the sort's mark when the rows are sorted by it. */
static void title_of(const struct ui *u, size_t c, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", table_title(&u->a.out, c),
		 screen_sorted(u, c) ? (u->utf8 ? "▼" : "*") : "");
}

void screen_draw(struct ui *u)
{
	size_t nc = table_columns(), w[32] = { 0 }, body = screen_body(), label_w, fixed = 0;
	size_t ew[SETTINGS_EXTRA] = { 0 };
	size_t cols = (size_t)COLS;
	enum hist_metric hm = hist_of(u->a.order);
	bool hist, shown[32] = { false };
	char buf[256];
	struct cg_stat_row tmp;
	struct out o = { .fd = -1 };

	if (nc > 32)
		nc = 32;
	werase(stdscr);
	draw_title(u);
	for (size_t c = 1; c < nc; c++) {
		/* the columns chooser's (C): hidden ones take no room */
		shown[c] = !(u->hidden & (1u << c));
		if (!shown[c])
			continue;
		title_of(u, c, buf, sizeof(buf));
		w[c] = text_cols(buf, strlen(buf));
		for (size_t i = 0; i < u->n_items; i++) {
			table_cell(&u->a.out, cells_row(&u->items[i], &tmp), c, buf, sizeof(buf));
			if (strlen(buf) > w[c])
				w[c] = strlen(buf);
		}
		fixed += 1 + w[c];
	}
	/* the chooser's statistics (C), after the table's columns, titled by their key */
	for (size_t k = 0; k < u->n_extra; k++) {
		ew[k] = strlen(field_key(u->extra[k]));
		for (size_t i = 0; i < u->n_items; i++) {
			field_cell(u->extra[k], cells_row(&u->items[i], &tmp), buf, sizeof(buf));
			if (strlen(buf) > ew[k])
				ew[k] = strlen(buf);
		}
		fixed += 1 + ew[k];
	}
	/* the history column when the path keeps 30 columns beside it */
	hist = !(u->hidden & SETTINGS_HIST) && cols >= fixed + 1 + SPARK_W + 30;
	if (hist)
		fixed += 1 + SPARK_W;
	label_w = cols > fixed + 10 ? cols - fixed : 10;
	/* the header, then each line shown: composed, then cut to the screen's width */
	o.len = 0;
	title_of(u, 0, buf, sizeof(buf));
	out_printf(&o, "%s", buf);
	out_pad(&o,
		label_w > text_cols(buf, strlen(buf)) ? label_w - text_cols(buf, strlen(buf)) : 0);
	for (size_t c = 1; c < nc; c++) {
		if (!shown[c])
			continue;
		title_of(u, c, buf, sizeof(buf));
		/* right-aligned by columns: the mark is one column of three bytes */
		out_pad(&o, 1 + w[c] - text_cols(buf, strlen(buf)));
		out_printf(&o, "%s", buf);
	}
	for (size_t k = 0; k < u->n_extra; k++)
		out_printf(&o, " %*s", (int)ew[k], field_key(u->extra[k]));
	if (hist)
		out_printf(&o, " %-*s", SPARK_W, hist_titles[hm]);
	out_pad(&o, cols);
	move(1, 0);
	attron(u->color ? COLOR_PAIR(PAIR_HEADER) : A_REVERSE);
	screen_put(stdscr, o.s ? o.s : "", cols);
	attroff(u->color ? COLOR_PAIR(PAIR_HEADER) : A_REVERSE);
	for (size_t i = u->top; i < u->n_items && i < u->top + body; i++) {
		const struct line *l = &u->items[i];
		attr_t at = u->color ? COLOR_PAIR(PAIR_SELECT) | A_BOLD : A_REVERSE;

		o.len = 0;
		/* a PSI trigger of the cgroup fired in its last window: "!cpu" after the name */
		if (l->thread < 0 &&
		    trig_counter_fired(u->a.trig, l->row->path, buf + 1, sizeof(buf) - 1)) {
			char *marked = NULL;

			buf[0] = '!';
			if (asprintf(&marked, "%s %s", l->label, buf) >= 0)
				put_ellipsized(&o, marked, label_w);
			free(marked);
		} else {
			put_ellipsized(&o, l->label, label_w);
		}
		for (size_t c = 1; c < nc; c++) {
			if (!shown[c])
				continue;
			table_cell(&u->a.out, cells_row(l, &tmp), c, buf, sizeof(buf));
			out_printf(&o, " %*s", (int)w[c], buf);
		}
		for (size_t k = 0; k < u->n_extra; k++) {
			field_cell(u->extra[k], cells_row(l, &tmp), buf, sizeof(buf));
			out_printf(&o, " %*s", (int)ew[k], buf);
		}
		if (hist && l->thread < 0) {
			double vals[HIST_LEN];
			size_t n = hist_get(u->hist, l->row->path, hm, vals, SPARK_W);
			char sp[SPARK_W * 4 + 1];

			spark(sp, sizeof(sp), vals, n, SPARK_W, hm == HIST_CPU ? 1.0 : 0.01,
			      u->utf8);
			out_printf(&o, " %s", sp);
		}
		if (i == u->cur)
			out_pad(&o, cols);
		move((int)(i - u->top) + 2, 0);
		if (i == u->cur)
			attron(at);
		screen_put(stdscr, o.s ? o.s : "", cols);
		if (i == u->cur)
			attroff(at);
	}
	free(o.s);
	draw_status(u, body);
}
