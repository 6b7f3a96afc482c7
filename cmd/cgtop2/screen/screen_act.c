// SPDX-License-Identifier: MIT
/*
 * cgtop2's screen acting on the selected cgroup through common/ops/act.h: freeze and thaw, a signal
 * chosen from a list (as htop's F9), kill, a limit typed on a one-line editor, a process of the
 * detail pane moved. Each is asked of the kernel first (a refusal is said at once), then
 * confirmed on the status line, which names the cgroup, then done; what came of it stays on the
 * status line until the next key. Also the settings that persist (settings.h): the columns
 * chooser, the delay keys, the key that writes the file, and the file read at start; and the
 * help, which lists the keys (the actions only where the screen may act).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/act.h"
#include "base/cleanup.h"
#include "screen_act.h"
#include "screen_base.h"
#include "screen_detail.h"
#include "output/fields.h"
#include "settings.h"

static const struct {
	int sig;
	const char *name;
} signals[] = {
	{ SIGTERM, "TERM" }, { SIGINT, "INT" },	  { SIGHUP, "HUP" },   { SIGQUIT, "QUIT" },
	{ SIGKILL, "KILL" }, { SIGSTOP, "STOP" }, { SIGCONT, "CONT" }, { SIGTSTP, "TSTP" },
	{ SIGUSR1, "USR1" }, { SIGUSR2, "USR2" }, { SIGALRM, "ALRM" }, { SIGWINCH, "WINCH" },
};

static const char *sig_name(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(signals); i++)
		if (signals[i].sig == sig)
			return signals[i].name;
	return "?";
}

static const struct cg_layout *layout(const struct ui *u)
{
	return source_layout(u->src);
}

/* The status line's text; the pieces from the kernel or a user are escaped by the caller. */
static void tell(struct ui *u, bool bad, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void tell(struct ui *u, bool bad, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
	u->status_bad = bad;
}

/* what failed, and the diagnostic's line (cg_diag_format quotes every field) */
static void tell_diag(struct ui *u, const char *what, const struct cg_diag *d, int r)
{
	char buf[2048];

	if (d->why[0])
		tell(u, true, "%s: %s", what, cg_diag_format(d, buf, sizeof(buf)));
	else
		tell(u, true, "%s: %s", what, strerror(-r));
}

static void cancel(struct ui *u)
{
	screen_panel_close(&u->choose_panel);
	u->prompt = PR_NONE;
	u->act = SACT_NONE;
}

/* ---- the help ----------------------------------------------------------------------------- */

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
	"  PgUp PgDn Home End, the wheel: scroll the details",
	"/                  filter by path (Enter applies, Esc clears)",
	"H                  threads of threaded cgroups on / off",
	"[ ]  { }           replay: one sample back / on; first / last",
	"d D                refresh more / less often",
	"C                  choose the columns shown",
	"W                  write the settings (order, columns, tree, delay)",
	"h ?                this help; any key closes it",
};

/* the actions on the selected cgroup: not offered in a replay or with --read-only */
static const char *const act_lines[] = {
	"",
	"On the selected cgroup, each asked first (y confirms):",
	"f                  freeze / thaw",
	"x F9               send a signal to its processes (a list)",
	"X                  kill every process in it",
	"L                  set memory.max, cpu.max, cpu.weight or pids.max",
	"E                  once: memory.reclaim=SIZE or memory.peak=reset",
	"Tab Shift-Tab      detail pane: mark the next / previous process",
	"M                  detail pane: move the marked process to a cgroup",
};

void screen_help(struct ui *u, bool show)
{
	const char *lines[ARRAY_SIZE(help_lines) + ARRAY_SIZE(act_lines)];
	size_t n = 0, per, first, shown;
	int h, w = 0, y, x;
	WINDOW *win;

	screen_panel_close(&u->help_panel);
	u->help = false;
	if (!show) {
		u->help_page = 0;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(help_lines); i++)
		lines[n++] = help_lines[i];
	for (size_t i = 0; screen_can_act(u) && i < ARRAY_SIZE(act_lines); i++)
		lines[n++] = act_lines[i];
	/* taller than the screen (80x24): pages, the last line of each saying so */
	per = LINES > 4 && (size_t)LINES - 2 < n ? (size_t)LINES - 3 : n;
	first = (size_t)u->help_page * per;
	if (first >= n)
		first = u->help_page = 0;
	shown = n - first < per ? n - first : per;
	h = (int)shown + 2 + (per < n);
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(lines[i]) > w)
			w = (int)strlen(lines[i]);
	w += 4;
	y = LINES > h ? (LINES - h) / 2 : 0;
	x = COLS > w ? (COLS - w) / 2 : 0;
	win = screen_window(h, w, y, x);
	if (!win)
		return;
	werase(win);
	box(win, 0, 0);
	for (size_t i = 0; i < shown; i++) {
		wmove(win, (int)i + 1, 2);
		if (!(first + i))
			wattron(win, A_BOLD);
		screen_put(win, lines[first + i], (size_t)(w > 4 ? w - 4 : 0));
		if (!(first + i))
			wattroff(win, A_BOLD);
	}
	if (per < n) {
		wmove(win, (int)shown + 1, 2);
		wattron(win, A_BOLD);
		screen_put(win,
			   first + shown < n ? "PgDn: more; any other key closes the help"
					     : "PgUp: back; any other key closes the help",
			   (size_t)(w > 4 ? w - 4 : 0));
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

/* ---- the question, and the act ------------------------------------------------------------- */

static void question(struct ui *u, char *buf, size_t size)
{
	_cleanup_free_ char *path = screen_text(u, u->act_path), *arg = screen_text(u, u->act_edit),
			    *comm = screen_text(u, u->act_comm);

	switch (u->act) {
	case SACT_FREEZE:
	case SACT_THAW:
		snprintf(buf, size, "%s cgroup %s?", u->act == SACT_FREEZE ? "Freeze" : "Thaw",
			 path);
		break;
	case SACT_SIGNAL:
		snprintf(buf, size, "Send SIG%s to every process of cgroup %s and below?",
			 sig_name(u->act_sig), path);
		break;
	case SACT_KILL:
		snprintf(buf, size, "Kill every process of cgroup %s and below?", path);
		break;
	case SACT_SET:
		snprintf(buf, size, "Set %s in cgroup %s?", arg, path);
		break;
	case SACT_POKE:
		snprintf(buf, size, "Write %s in cgroup %s (once: no limit is kept)?", arg, path);
		break;
	case SACT_MOVE:
		snprintf(buf, size, "Move process %d (%s) from cgroup %s to cgroup %s?",
			 (int)u->act_pid, comm, path, arg);
		break;
	default:
		buf[0] = '\0';
	}
}

/* Do what was confirmed: 1, to sample anew and show its effect. */
static int act_do(struct ui *u)
{
	const struct cg_layout *l = layout(u);
	struct cg_diag d = { 0 };
	_cleanup_free_ char *path = screen_text(u, u->act_path), *arg = screen_text(u, u->act_edit);
	int r = -EINVAL;

	if (!l || !path || !arg)
		return 0;
	/* the cgroup the question named, not another made under its path since */
	r = cg_act_same(l, u->act == SACT_MOVE ? u->act_edit : u->act_path, &u->act_id, &d);
	if (r < 0) {
		tell_diag(u, "not done", &d, r);
		u->act = SACT_NONE;
		return 1;
	}
	r = -EINVAL;
	switch (u->act) {
	case SACT_FREEZE:
	case SACT_THAW:
		r = cg_act_freeze(l, u->act_path, u->act == SACT_FREEZE, &d);
		if (r == 0)
			tell(u, false, "cgroup %s %s", path,
			     u->act == SACT_FREEZE ? "frozen" : "thawed");
		break;
	case SACT_SIGNAL:
		r = cg_act_signal(l, u->act_path, u->act_sig, &d);
		if (r >= 0)
			tell(u, false, "SIG%s sent to %d %s of cgroup %s and below",
			     sig_name(u->act_sig), r, r == 1 ? "process" : "processes", path);
		break;
	case SACT_KILL:
		r = cg_act_kill(l, u->act_path, &d);
		if (r == 0)
			tell(u, false, "cgroup %s killed: no process is left in it", path);
		break;
	case SACT_SET:
		r = cg_act_set(l, u->act_path, u->act_edit, &d);
		if (r == 0)
			tell(u, false, "%s set in cgroup %s", arg, path);
		break;
	case SACT_POKE:
		r = cg_act_poke(l, u->act_path, u->act_edit, 0, &d);
		if (r == 0)
			tell(u, false, "%s done in cgroup %s", arg, path);
		break;
	case SACT_MOVE:
		r = cg_act_move(l, u->act_pid, u->act_start, u->act_edit, &d);
		if (r == 0)
			tell(u, false, "process %d moved to cgroup %s", (int)u->act_pid, arg);
		break;
	default:
		break;
	}
	if (r < 0)
		tell_diag(u, "failed", &d, r);
	u->act = SACT_NONE;
	return 1;
}

/*
 * Whether act may be done to path, saying why not: false when refused. When it may, which
 * cgroup path names is kept (act_id), for the answer to act on that one.
 */
static bool may(struct ui *u, const char *path, enum cg_act act)
{
	struct cg_diag d = { 0 };
	int r = cg_act_may(layout(u), path, act, &d);

	if (r == 0)
		r = cg_act_id(layout(u), path, &u->act_id, &d);
	if (r < 0)
		tell_diag(u, "refused", &d, r);
	return r == 0;
}

/* ---- the choosers ---------------------------------------------------------------------------- */

/* the columns chooser: the table's columns, the history, then every statistic (fields.h) */
static size_t choices(const struct ui *u)
{
	return u->prompt == PR_SIGNALS ? ARRAY_SIZE(signals) : table_columns() + fields_numeric_n();
}

/* where statistic f is among the screen's own columns, or -1 */
static int extra_at(const struct ui *u, int f)
{
	for (size_t k = 0; k < u->n_extra; k++)
		if (u->extra[k] == f)
			return (int)k;
	return -1;
}

/* The collectors the open pane and the chosen statistics read (a statistic of a collector is
 * unknown without it); --collectors decides alone when given, a replay has what it recorded */
void screen_collect(struct ui *u)
{
	unsigned c = u->detail	  ? CG_COLL_DEFAULT | 1u << CG_COLL_IODEVICE
		     : u->n_extra ? CG_COLL_DEFAULT
				  : 0;

	if (!u->a.collectors_set && source_tunable(u->src))
		(void)source_set_collectors(u->src, c);
}

/* Statistic f shown as a column or no longer: false when the columns are full */
static bool extra_toggle(struct ui *u, int f)
{
	int k = extra_at(u, f);

	if (k >= 0) {
		memmove(&u->extra[k], &u->extra[k + 1], (u->n_extra - (size_t)k - 1) * sizeof(int));
		u->n_extra--;
	} else if (u->n_extra == SETTINGS_EXTRA) {
		return false;
	} else {
		u->extra[u->n_extra++] = f;
	}
	screen_collect(u);
	return true;
}

/* a chooser's line i: a signal, or a column (the last: the history) with its mark */
static void choice_text(const struct ui *u, size_t i, char *buf, size_t size)
{
	if (u->prompt == PR_SIGNALS) {
		snprintf(buf, size, "%2d SIG%s", signals[i].sig, signals[i].name);
		return;
	}
	i++;
	if (i > table_columns())
		snprintf(buf, size, "[%c] %s",
			 extra_at(u, (int)(i - table_columns() - 1)) >= 0 ? 'x' : ' ',
			 field_key((int)(i - table_columns() - 1)));
	else if (i == table_columns())
		snprintf(buf, size, "[%c] history", u->hidden & SETTINGS_HIST ? ' ' : 'x');
	else
		snprintf(buf, size, "[%c] %s", u->hidden & (1u << i) ? ' ' : 'x',
			 table_title(&u->a.out, i));
}

void screen_act_draw(struct ui *u, bool resized)
{
	size_t n;
	WINDOW *w;

	if (u->prompt != PR_SIGNALS && u->prompt != PR_COLUMNS)
		return;
	n = choices(u);
	if (resized || !u->choose_panel) {
		screen_panel_close(&u->choose_panel);
		w = screen_window((int)n + 3, 24, 2, 0);
		if (!w || !(u->choose_panel = new_panel(w))) {
			if (w)
				delwin(w);
			cancel(u);
			return;
		}
	}
	w = panel_window(u->choose_panel);
	werase(w);
	box(w, 0, 0);
	wmove(w, 1, 2);
	wattron(w, A_BOLD);
	screen_put(w, u->prompt == PR_SIGNALS ? "Send" : "Columns", 20);
	wattroff(w, A_BOLD);
	for (size_t i = 0; i < n; i++) {
		char buf[64];

		choice_text(u, i, buf, sizeof(buf));
		wmove(w, (int)i + 2, 1);
		if ((int)i == u->choice)
			wattron(w, A_REVERSE);
		wprintw(w, " %-20s", buf);
		if ((int)i == u->choice)
			wattroff(w, A_REVERSE);
	}
	top_panel(u->choose_panel);
}

static int chooser_key(struct ui *u, int c)
{
	int n = (int)choices(u);

	switch (c) {
	case KEY_UP:
		u->choice = u->choice > 0 ? u->choice - 1 : 0;
		return 0;
	case KEY_DOWN:
		u->choice = u->choice + 1 < n ? u->choice + 1 : n - 1;
		return 0;
	case KEY_HOME:
		u->choice = 0;
		return 0;
	case KEY_END:
		u->choice = n - 1;
		return 0;
	case ' ':
	case '\r':
	case '\n':
	case KEY_ENTER:
		if (u->prompt == PR_COLUMNS && (size_t)u->choice >= table_columns()) {
			if (!extra_toggle(u, u->choice - (int)table_columns()))
				tell(u, true,
				     "at most %d columns from statistics: Space on one shown first",
				     SETTINGS_EXTRA);
			return 1;
		}
		if (u->prompt == PR_COLUMNS) {
			u->hidden ^= (size_t)u->choice + 1 == table_columns()
					     ? SETTINGS_HIST
					     : 1u << (u->choice + 1);
			return 0;
		}
		u->act_sig = signals[u->choice].sig;
		screen_panel_close(&u->choose_panel);
		u->prompt = PR_CONFIRM;
		return 0;
	case KEY_MOUSE:
		return 0;
	default:
		/* Esc, q, C: closed (the columns as they are now) */
		cancel(u);
		return 0;
	}
}

/* ---- the one-line editor --------------------------------------------------------------------- */

static int edit_key(struct ui *u, int c)
{
	size_t len = strlen(u->act_edit);
	const char *eq;

	if (c == 27) {
		cancel(u);
		tell(u, false, "cancelled");
	} else if ((c == KEY_BACKSPACE || c == 127 || c == 8) && len) {
		u->act_edit[len - 1] = '\0';
	} else if (c >= 0x20 && c < 0x7f && len < sizeof(u->act_edit) - 1) {
		u->act_edit[len] = (char)c;
		u->act_edit[len + 1] = '\0';
	} else if (c == '\r' || c == '\n' || c == KEY_ENTER) {
		if (u->act == SACT_MOVE) {
			if (!may(u, u->act_edit, CG_ACT_MOVE)) {
				cancel(u);
				return 0;
			}
		} else if (!(eq = strchr(u->act_edit, '=')) || eq == u->act_edit) {
			cancel(u);
			tell(u, true,
			     "a limit is FILE=VALUE: memory.max=1G, cpu.max=50000 100000, cpu.weight=200, pids.max=100");
			return 0;
		} else {
			char file[64];

			snprintf(file, sizeof(file), "%.*s", (int)(eq - u->act_edit), u->act_edit);
			if (u->act == SACT_POKE && !cg_act_pokes_file(file)) {
				cancel(u);
				tell(u, true, "E writes memory.reclaim=SIZE or memory.peak=reset");
				return 0;
			}
			if (u->act == SACT_SET && !cg_act_settable(file)) {
				cancel(u);
				tell(u, true,
				     "only memory.max, cpu.max, cpu.weight and pids.max are set here");
				return 0;
			}
		}
		u->prompt = PR_CONFIRM;
	}
	return 0;
}

/* ---- asking ---------------------------------------------------------------------------------- */

/* Start action a on the selected cgroup: refused, or asked (the first question). */
static int ask(struct ui *u, enum sact a)
{
	const struct cg_layout *l = layout(u);
	const char *path;
	char *p;
	int frozen;

	if (!l) {
		tell(u, true, "a replay shows what was recorded: nothing to act on");
		return 0;
	}
	if (u->a.read_only) {
		tell(u, true, "read-only (--read-only): no actions");
		return 0;
	}
	if (!u->n_items || u->cur >= u->n_items)
		return 0;
	path = u->items[u->cur].row->path;
	if (!(p = strdup(path)))
		return 0;
	free(u->act_path);
	u->act_path = p;
	u->act_edit[0] = '\0';
	switch (a) {
	case SACT_FREEZE: {
		struct cg_diag d = { 0 };

		if (!may(u, path, CG_ACT_FREEZE))
			return 0;
		frozen = cg_act_frozen(l, path, &d);
		if (frozen < 0) {
			tell_diag(u, "refused", &d, frozen);
			return 0;
		}
		u->act = frozen ? SACT_THAW : SACT_FREEZE;
		u->prompt = PR_CONFIRM;
		break;
	}
	case SACT_SIGNAL:
		if (!may(u, path, CG_ACT_SIGNAL))
			return 0;
		u->act = SACT_SIGNAL;
		u->prompt = PR_SIGNALS;
		u->choice = 0;
		break;
	case SACT_KILL:
		if (!may(u, path, CG_ACT_KILL))
			return 0;
		u->act = SACT_KILL;
		u->prompt = PR_CONFIRM;
		break;
	case SACT_SET:
	case SACT_POKE:
		/* the guard binds a reclaim and a peak's reset as a limit (the root, the owner) */
		if (!may(u, path, CG_ACT_SET))
			return 0;
		u->act = a;
		u->prompt = PR_EDIT;
		if (a == SACT_POKE)
			snprintf(u->act_edit, sizeof(u->act_edit), "memory.reclaim=");
		break;
	case SACT_MOVE:
		/* a Tab read in the same batch of keys: the mark is found where the pane is drawn */
		if (u->detail)
			screen_detail_draw(u);
		if (!u->detail || !u->mark_pid) {
			tell(u, true,
			     "to move a process: Enter opens the detail pane, Tab marks a process");
			return 0;
		}
		u->act = SACT_MOVE;
		u->act_pid = u->mark_pid;
		u->act_start = u->mark_start;
		snprintf(u->act_comm, sizeof(u->act_comm), "%s", u->mark_comm);
		/* the cgroup it is in, to be edited into where it goes */
		snprintf(u->act_edit, sizeof(u->act_edit), "%s", path);
		u->prompt = PR_EDIT;
		break;
	default:
		break;
	}
	return 0;
}

/* d and D: the delay shorter and longer, as systemd-cgtop's - and + */
static void delay(struct ui *u, bool longer)
{
	uint64_t ns = u->a.delay_ns;

	if (longer)
		ns = ns < NSEC_PER_SEC ? ns * 2 : ns + NSEC_PER_SEC;
	else
		ns = ns > NSEC_PER_SEC ? ns - NSEC_PER_SEC : ns / 2;
	if (ns > 86400 * NSEC_PER_SEC)
		ns = 86400 * NSEC_PER_SEC;
	if (ns < 10 * NSEC_PER_MSEC)
		ns = 10 * NSEC_PER_MSEC;
	u->a.delay_ns = ns;
	tell(u, false, "refreshing every %gs", (double)ns / (double)NSEC_PER_SEC);
}

static void save(struct ui *u)
{
	struct settings s = {
		.order = u->a.order, .hidden = u->hidden, .tree = u->tree, .delay_ns = u->a.delay_ns
	};

	for (size_t k = 0; k < u->n_extra; k++)
		snprintf(s.stats[s.n_stats++], SETTINGS_NAME, "%s", field_key(u->extra[k]));
	char why[1024], path[4096];
	_cleanup_free_ char *shown = NULL;

	if (settings_save(&s, why, sizeof(why)) < 0) {
		shown = screen_text(u, why);
		tell(u, true, "settings not written: %s", shown ? shown : "?");
		return;
	}
	if (settings_path(path, sizeof(path)) == 0)
		shown = screen_text(u, path);
	tell(u, false, "settings written to %s", shown ? shown : "?");
}

void screen_settings_load(struct ui *u)
{
	struct settings s;
	char why[1024];
	int r = settings_load(&s, why, sizeof(why));

	if (r < 0) {
		_cleanup_free_ char *shown = screen_text(u, why);

		tell(u, true, "settings ignored: %s", shown ? shown : "?");
		return;
	}
	if (!r)
		return;
	/* the command line's options win over the file */
	if ((s.have & SET_ORDER) && !u->a.order_set)
		u->a.order = s.order;
	if (s.have & SET_COLUMNS)
		u->hidden = s.hidden;
	if ((s.have & SET_VIEW) && !u->a.tree)
		u->tree = s.tree;
	if ((s.have & SET_DELAY) && !u->a.delay_set && !source_is_replay(u->src))
		u->a.delay_ns = s.delay_ns;
	/* a statistic this cgtop2 does not have (an older one's file, or a newer's) is left out */
	for (size_t k = 0; (s.have & SET_STATS) && k < s.n_stats; k++) {
		int f = field_lookup(s.stats[k]);

		if (field_numeric(f) && extra_at(u, f) < 0 && u->n_extra < SETTINGS_EXTRA)
			u->extra[u->n_extra++] = f;
	}
	screen_collect(u);
}

int screen_act_key(struct ui *u, int c)
{
	switch (u->prompt) {
	case PR_CONFIRM:
		u->prompt = PR_NONE;
		if (c == 'y' || c == 'Y')
			return act_do(u);
		u->act = SACT_NONE;
		tell(u, false, "cancelled");
		return 0;
	case PR_EDIT:
		return edit_key(u, c);
	case PR_SIGNALS:
	case PR_COLUMNS:
		return chooser_key(u, c);
	default:
		break;
	}
	if (c != KEY_MOUSE)
		u->status[0] = '\0';
	switch (c) {
	case 'f':
		return ask(u, SACT_FREEZE);
	case 'x':
	case KEY_F(9):
		return ask(u, SACT_SIGNAL);
	case 'X':
		return ask(u, SACT_KILL);
	case 'L':
		return ask(u, SACT_SET);
	case 'M':
		return ask(u, SACT_MOVE);
	case 'E':
		return ask(u, SACT_POKE);
	case '\t':
	case KEY_BTAB:
		if (!u->detail)
			return -1;
		if (c == '\t')
			u->proc_mark++;
		else if (u->proc_mark > 0)
			u->proc_mark--;
		u->mark_follow = true;
		return 0;
	case 'C':
		u->prompt = PR_COLUMNS;
		u->choice = 0;
		return 0;
	case 'd':
	case 'D':
		delay(u, c == 'D');
		return 0;
	case 'W':
		save(u);
		return 0;
	default:
		return -1;
	}
}

bool screen_act_status(struct ui *u)
{
	char q[2048];
	attr_t at = 0;

	if (u->editing)
		return false;
	q[0] = '\0';
	switch (u->prompt) {
	case PR_CONFIRM:
		question(u, q, sizeof(q));
		snprintf(q + strlen(q), sizeof(q) - strlen(q), "  y: yes, other keys: no");
		at = A_BOLD;
		break;
	case PR_EDIT: {
		_cleanup_free_ char *path = screen_text(u, u->act_path),
				    *text = screen_text(u, u->act_edit);

		if (u->act == SACT_MOVE)
			snprintf(q, sizeof(q), "Move process %d to cgroup: %s_  (Enter, Esc)",
				 (int)u->act_pid, text ? text : "");
		else if (u->act == SACT_POKE)
			snprintf(
				q, sizeof(q),
				"Once in cgroup %s: %s_  (memory.reclaim=SIZE or memory.peak=reset; Enter, Esc)",
				path ? path : "?", text ? text : "");
		else
			snprintf(
				q, sizeof(q),
				"Set in cgroup %s: %s_  (memory.max cpu.max cpu.weight pids.max=VALUE; Enter, Esc)",
				path ? path : "?", text ? text : "");
		at = A_BOLD;
		break;
	}
	case PR_SIGNALS:
		snprintf(q, sizeof(q), "Up Down: a signal, Enter: send it, Esc: cancel");
		break;
	case PR_COLUMNS:
		snprintf(q, sizeof(q), "Up Down: a column, Space: show / hide it, Esc: done");
		break;
	default:
		if (!u->status[0])
			return false;
		snprintf(q, sizeof(q), "%s", u->status);
		if (u->status_bad)
			at = u->color ? COLOR_PAIR(PAIR_RED) | A_BOLD : A_BOLD;
	}
	/* outside a UTF-8 locale only ASCII reaches the terminal */
	for (char *p = q; !u->utf8 && *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	move(LINES - 1, 0);
	clrtoeol();
	attron(at);
	screen_put(stdscr, q, (size_t)COLS);
	attroff(at);
	return true;
}

void screen_act_free(struct ui *u)
{
	screen_panel_close(&u->choose_panel);
	free(u->act_path);
	u->act_path = NULL;
}
