// SPDX-License-Identifier: MIT
/*
 * cgtop2's interactive screen on ncursesw: the terminal (taken, and given back on every exit,
 * a crash included), signals as reads (signalfd, so that every exit passes through endwin), keys
 * as ncurses decodes them, and the loop over a sample source (live or a replay). A terminal
 * ncurses cannot drive makes tty_run ask for batch output instead.
 */
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "events/triggers.h"
#include "pipeline/pipeline.h"
#include "screen.h"
#include "history.h"
#include "output/report.h"
#include "screen_act.h"
#include "screen_detail.h"
#include "screen_state.h"
#include "screen_table.h"
#include "tool.h"

/*
 * LeakSanitizer (make SAN=1) reads this: libpanelw's pseudo-panel for stdscr, made by the first
 * new_panel, is freed by no ncurses call (not by delscreen either). Without a sanitizer, unused.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:new_panel\n";
}

/* ---- the terminal, also for a crash ---------------------------------------------------------- */

/* What a fatal signal's handler writes and restores: async-signal-safe, no ncurses call. */
static struct termios crash_tio;
static char crash_seq[512];
static size_t crash_len;
static volatile sig_atomic_t in_curses;
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction fatal_old[ARRAY_SIZE(fatal_signals)];

static void fatal(int sig)
{
	if (in_curses) {
		if (write(STDOUT_FILENO, crash_seq, crash_len) < 0) {
			/* nothing left to do on a terminal that is gone */
		}
		tcsetattr(STDIN_FILENO, TCSANOW, &crash_tio);
	}
	/* SA_RESETHAND: the default action now, with the original signal's core and status */
	raise(sig);
}

static void crash_seq_add(const char *cap)
{
	const char *s = tigetstr(cap);
	size_t len;

	if (!s || s == (char *)-1)
		return;
	len = strlen(s);
	if (crash_len + len < sizeof(crash_seq)) {
		memcpy(crash_seq + crash_len, s, len);
		crash_len += len;
	}
}

/*
 * Whether ncurses can drive this terminal full-screen: known to terminfo, cursor addressing,
 * not a hardcopy or generic one (TERM=dumb has no cup). Collects what a crash must undo.
 */
static bool term_usable(const char **why)
{
	const char *term = getenv("TERM");
	const char *cup;
	int err = 0;
	bool ok;

	if (!term || !*term) {
		*why = "TERM is not set";
		return false;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		*why = "terminfo does not know it";
		return false;
	}
	cup = tigetstr("cup");
	ok = cup && cup != (char *)-1 && tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	*why = "it has no cursor addressing";
	crash_len = 0;
	crash_seq_add("sgr0");
	crash_seq_add("cnorm");
	crash_seq_add("rmkx");
	/* mouse reporting, which ncurses turns on where the terminal has it */
	if (tigetstr("kmous") && tigetstr("kmous") != (char *)-1) {
		static const char mouse_off[] = "\033[?1000l\033[?1002l\033[?1006l";

		memcpy(crash_seq + crash_len, mouse_off, sizeof(mouse_off) - 1);
		crash_len += sizeof(mouse_off) - 1;
	}
	crash_seq_add("rmcup");
	del_curterm(cur_term);
	return ok;
}

static void fatal_handlers(bool on)
{
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		struct sigaction sa = { .sa_handler = fatal,
					.sa_flags = SA_RESETHAND | SA_NODEFER };

		if (on)
			sigaction(fatal_signals[i], &sa, &fatal_old[i]);
		else
			sigaction(fatal_signals[i], &fatal_old[i], NULL);
	}
}

static void colors(struct ui *u)
{
	const char *nc = getenv("NO_COLOR");

	/* https://no-color.org: set and not empty */
	u->color = has_colors() && !(nc && *nc);
	if (!u->color)
		return;
	start_color();
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_CYAN, -1);
	init_pair(PAIR_HEADER, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_SELECT, COLOR_BLACK, COLOR_GREEN);
	init_pair(PAIR_RED, COLOR_RED, -1);
	init_pair(PAIR_BAR, COLOR_GREEN, -1);
}

/* ---- the selection --------------------------------------------------------------------------- */

static void select_line(struct ui *u, long i)
{
	char *s;

	if (!u->n_items)
		return;
	if (i < 0)
		i = 0;
	if ((size_t)i >= u->n_items)
		i = (long)u->n_items - 1;
	s = strdup(u->items[i].row->path);
	if (!s)
		return;
	free(u->sel);
	u->sel = s;
	u->sel_tid = u->items[i].thread < 0 ? 0 : u->items[i].row->threads[u->items[i].thread].tid;
	u->cur = (size_t)i;
}

static void fold(struct ui *u, bool fold_it)
{
	const struct line *l;
	char **nc;

	if (!u->tree || !u->n_items)
		return;
	l = &u->items[u->cur];
	if (!fold_it) {
		for (size_t i = 0; i < u->n_collapsed; i++)
			if (!strcmp(u->collapsed[i], l->row->path)) {
				free(u->collapsed[i]);
				u->collapsed[i] = u->collapsed[--u->n_collapsed];
				break;
			}
		return;
	}
	if (!l->children || l->collapsed || l->thread >= 0) {
		/* a leaf or a folded one: to its parent, as in a file manager */
		const char *slash = strrchr(l->row->path, '/');
		size_t len = slash ? (size_t)(slash - l->row->path) : 0;

		for (size_t i = u->cur; i-- > 0;)
			if (u->items[i].thread < 0 &&
			    (len ? strlen(u->items[i].row->path) == len &&
					     !strncmp(u->items[i].row->path, l->row->path, len)
				 : !strcmp(u->items[i].row->path, "/"))) {
				select_line(u, (long)i);
				break;
			}
		return;
	}
	nc = realloc(u->collapsed, (u->n_collapsed + 1) * sizeof(*nc));
	if (!nc)
		return;
	u->collapsed = nc;
	if ((nc[u->n_collapsed] = strdup(l->row->path)))
		u->n_collapsed++;
}

/* ---- keys ------------------------------------------------------------------------------------ */

enum action { A_NONE, A_RESAMPLE, A_REFRESH, A_STEP_PREV, A_STEP_NEXT, A_FIRST, A_LAST, A_SEEK };

static enum action edit_key(struct ui *u, int c)
{
	size_t len = strlen(u->edit);

	if (c == '\r' || c == '\n' || c == KEY_ENTER) {
		snprintf(u->filter, sizeof(u->filter), "%s", u->edit);
		u->editing = false;
	} else if (c == 27) {
		u->filter[0] = '\0';
		u->editing = false;
	} else if ((c == KEY_BACKSPACE || c == 127 || c == 8) && len) {
		u->edit[len - 1] = '\0';
	} else if (c >= 0x20 && c < 0x7f && len < sizeof(u->edit) - 1) {
		u->edit[len] = (char)c;
		u->edit[len + 1] = '\0';
	}
	return A_NONE;
}

static void mouse(struct ui *u)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return;
	/* the wheel scrolls what is in front: the detail pane, or the table's selection */
	if ((ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) && u->detail)
		screen_detail_scroll(u, ev.bstate & BUTTON4_PRESSED ? -3 : 3);
	else if (ev.bstate & BUTTON4_PRESSED)
		select_line(u, (long)u->cur - 3);
	else if (ev.bstate & BUTTON5_PRESSED)
		select_line(u, (long)u->cur + 3);
	else if ((ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) && ev.y >= 2 && !u->detail)
		select_line(u, (long)u->top + ev.y - 2);
}

/*
 * The detail pane shows what the collectors read (limits, memory breakdown, events, throttling,
 * IO per device, PSI totals): they are on while it is open, unless --collectors chose them.
 */
static enum action show_detail(struct ui *u, bool show)
{
	screen_detail(u, show);
	if (u->a.collectors_set || !source_tunable(u->src))
		return A_NONE;
	screen_collect(u);
	return u->detail ? A_RESAMPLE : A_NONE;
}

static enum action key(struct ui *u, int c)
{
	bool live = source_tunable(u->src);
	long page = (long)screen_body();

	if (u->editing)
		return edit_key(u, c);
	if (u->help) {
		/* a help taller than the screen turns its pages */
		if (c == KEY_NPAGE || c == KEY_PPAGE) {
			/* after the last page, the first */
			u->help_page += c == KEY_NPAGE ? 1 : u->help_page ? -1 : 0;
			screen_help(u, true);
		} else if (c != KEY_RESIZE && c != KEY_MOUSE) {
			screen_help(u, false);
		}
		return A_NONE;
	}
	/* the actions, their questions and the settings' keys */
	switch (screen_act_key(u, c)) {
	case -1:
		break;
	case 0:
		return A_NONE;
	default:
		return A_RESAMPLE;
	}
	/* the detail pane's own keys: its page keys scroll it (Up and Down still select) */
	if (u->detail && (c == KEY_PPAGE || c == KEY_NPAGE || c == KEY_HOME || c == KEY_END)) {
		int rows = LINES > 6 ? LINES - 5 : 1;

		screen_detail_scroll(u, c == KEY_PPAGE	 ? -rows
					: c == KEY_NPAGE ? rows
					: c == KEY_HOME	 ? INT_MIN
							 : INT_MAX);
		return A_NONE;
	}
	switch (c) {
	case 'q':
		u->quit = true;
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

		if (!live)
			break;
		u->a.out.count = u->a.out.count == want ? CG_COUNT_TASKS : want;
		source_set_count(u->src, u->a.out.count, u->a.own_only);
		return A_RESAMPLE;
	}
	case 'r':
		/* as in systemd-cgtop: tasks are always counted recursively */
		if (!live || u->a.out.count == CG_COUNT_TASKS)
			break;
		u->a.own_only = !u->a.own_only;
		source_set_count(u->src, u->a.out.count, u->a.own_only);
		return A_RESAMPLE;
	case '%':
		u->a.out.cpu_time = !u->a.out.cpu_time;
		break;
	case 'R':
		u->a.out.raw = !u->a.out.raw;
		break;
	case ' ':
		return A_REFRESH;
	case 'z':
		u->paused = !u->paused;
		break;
	case '+':
	case '=':
		if (!live)
			break;
		u->a.depth++;
		source_set_depth(u->src, u->a.depth);
		return A_RESAMPLE;
	case '-':
		if (!live || u->a.depth <= 0)
			break;
		u->a.depth--;
		source_set_depth(u->src, u->a.depth);
		return A_RESAMPLE;
	case 'H':
		if (!live)
			break;
		u->a.out.threads = !u->a.out.threads;
		source_set_threads(u->src, u->a.out.threads);
		return A_RESAMPLE;
	case 'T':
		u->tree = !u->tree;
		break;
	case '/':
		u->editing = true;
		snprintf(u->edit, sizeof(u->edit), "%s", u->filter);
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		screen_help(u, true);
		break;
	case KEY_UP:
		select_line(u, (long)u->cur - 1);
		break;
	case KEY_DOWN:
		select_line(u, (long)u->cur + 1);
		break;
	case KEY_PPAGE:
		select_line(u, (long)u->cur - page);
		break;
	case KEY_NPAGE:
		select_line(u, (long)u->cur + page);
		break;
	case KEY_HOME:
		select_line(u, 0);
		break;
	case KEY_END:
		select_line(u, (long)u->n_items - 1);
		break;
	case KEY_LEFT:
		fold(u, true);
		break;
	case KEY_RIGHT:
		fold(u, false);
		break;
	case KEY_MOUSE:
		mouse(u);
		break;
	case '\r':
	case '\n':
	case KEY_ENTER:
		return show_detail(u, !u->detail);
	case 27:
		return show_detail(u, false);
	case '[':
		return A_STEP_PREV;
	case ']':
		return A_STEP_NEXT;
	case '{':
		return A_FIRST;
	case '}':
		return A_LAST;
	}
	return A_NONE;
}

/* ---- the loop -------------------------------------------------------------------------------- */

/* The window's size again: the overlays are made anew to fit. */
static void resized(struct ui *u, bool from_signal)
{
	struct winsize ws;

	if (from_signal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	if (u->help)
		screen_help(u, true);
	if (u->detail)
		screen_detail(u, true);
	screen_act_draw(u, true);
}

static void draw(struct ui *u)
{
	screen_draw(u);
	/* an action's question or outcome over the table's status line */
	screen_act_status(u);
	wnoutrefresh(stdscr);
	if (u->detail)
		screen_detail_draw(u);
	screen_act_draw(u, false);
	/* the overlays go over the table drawn anew (update_panels copies touched ones only) */
	if (u->help_panel)
		touchwin(panel_window(u->help_panel));
	if (u->detail_panel)
		touchwin(panel_window(u->detail_panel));
	update_panels();
	doupdate();
}

/* The screen as the pipeline's sink (pipeline.h): it draws each turn and waits for keys. */
struct screen_sink {
	struct sink k;
	struct ui *u;
	int sigfd;
	int pending; /* a step to take at once (--at past a recording's end: its last) */
	bool quiet; /* the wait ended for --psi-trigger's watcher alone: its marks wait for a step */
};

/* The detail pane lists the selected cgroup's tasks: read only while it is open. */
static int focus(struct ui *u)
{
	int r = source_set_focus(u->src, u->detail ? u->sel : NULL);

	return r == -EOPNOTSUPP ? 0 : r;
}

static int tty_put(struct sink *k, int step, int r, const struct source_sample *smp)
{
	struct ui *u = ((struct screen_sink *)k)->u;

	if (step == PIPE_CLOCK && ((struct screen_sink *)k)->quiet)
		return 0;
	/* --at after the recording's end: its last sample, whose time the title shows */
	if (step == SOURCE_SEEK && r == 0) {
		((struct screen_sink *)k)->pending = SOURCE_LAST;
		return 0;
	}
	if (r > 0) {
		u->smp = *smp;
		/* a replay that jumps has no continuous history */
		if (step == SOURCE_PREV || step == SOURCE_FIRST || step == SOURCE_LAST)
			hist_clear(u->hist);
		if (hist_add(u->hist, u->smp.rows, u->smp.n) < 0) {
			k->failed = "sample";
			return -ENOMEM;
		}
	}
	if (make_view(u->smp.rows, u->smp.n, u->smp.shape, u->a.order, u->filter, &u->v) < 0 ||
	    screen_lines(u) < 0) {
		k->failed = "sort";
		return -ENOMEM;
	}
	draw(u);
	return 0;
}

static int tty_wait(struct sink *k, uint64_t deadline_ns)
{
	static const int steps[] = { [A_NONE] = PIPE_CLOCK,	  [A_RESAMPLE] = SOURCE_CURRENT,
				     [A_REFRESH] = PIPE_REFRESH,  [A_STEP_PREV] = SOURCE_PREV,
				     [A_STEP_NEXT] = SOURCE_NEXT, [A_FIRST] = SOURCE_FIRST,
				     [A_LAST] = SOURCE_LAST,	  [A_SEEK] = SOURCE_SEEK };
	struct screen_sink *ss = (struct screen_sink *)k;
	struct ui *u = ss->u;
	int sigfd = ss->sigfd;
	struct pollfd pfd[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
				 { .fd = sigfd, .events = POLLIN } };
	enum action act = A_NONE;
	int r, c;

	if (ss->pending >= 0) {
		r = ss->pending;
		ss->pending = -1;
		return r;
	}
	/* the triggers' wake-ups are counted in the screen's wait (the main thread's one wait) */
	r = trig_counter_wait(u->a.trig, pfd, 2, deadline_ns);
	if (r < 0)
		return PIPE_STOP;
	ss->quiet = !pfd[0].revents && !pfd[1].revents;
	if (pfd[1].revents & POLLIN) {
		struct signalfd_siginfo si;

		while (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGWINCH) {
				resized(u, true);
			} else if (si.ssi_signo == SIGCONT) {
				/* stopped by someone else: the terminal may hold anything */
				clearok(curscr, TRUE);
			} else if (si.ssi_signo == SIGTSTP) {
				/* give the terminal back while stopped */
				endwin();
				in_curses = 0;
				raise(SIGSTOP);
				in_curses = 1;
				clearok(curscr, TRUE);
				resized(u, true);
			} else {
				u->quit = true;
			}
		}
	}
	if (pfd[0].revents & (POLLHUP | POLLERR) && !(pfd[0].revents & POLLIN))
		u->quit = true;
	while (!u->quit && (c = getch()) != ERR) {
		enum action a = c == KEY_RESIZE ? (resized(u, false), A_NONE) : key(u, c);

		if (a != A_NONE)
			act = a;
	}
	if (u->quit)
		return PIPE_STOP;
	/* z pauses, d changes the delay: the clock the pipeline keeps */
	k->paused = u->paused;
	k->delay_ns = u->a.delay_ns;
	r = focus(u);
	if (r < 0) {
		k->failed = "sample";
		return r;
	}
	return steps[act];
}

static const struct sink_ops screen_ops = { .put = tty_put, .wait = tty_wait };

static int loop(struct ui *u, int sigfd)
{
	bool replay = source_is_replay(u->src);
	struct screen_sink ss = {
		.k = { .ops = &screen_ops,
		       .delay_ns = u->a.delay_ns,
		       .paused = u->paused,
		       /* a replay is read, not watched: -n counts the refreshes of a live one */
		       .iterations = replay ? 0 : u->a.iterations },
		.u = u,
		.sigfd = sigfd,
		.pending = -1,
	};
	int r = focus(u);

	if (r == 0)
		r = pipeline_run(u->src, &ss.k, replay && u->a.at ? SOURCE_SEEK : SOURCE_NEXT,
				 u->a.at_ns);
	if (r < 0)
		u->failed = ss.k.failed ? ss.k.failed : "sample";
	return r;
}

int tty_run(const struct screen_opts *a, struct source *src)
{
	struct ui u = { .a = *a, .src = src, .tree = a->tree, .proc_mark = -1 };
	sigset_t blocked, old_mask;
	SCREEN *scr = NULL;
	const char *why = NULL;
	int sigfd, ret;

	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGHUP);
	sigaddset(&blocked, SIGWINCH);
	sigaddset(&blocked, SIGTSTP);
	sigaddset(&blocked, SIGCONT);
	/* signals arrive as reads in the loop, so that every exit passes through endwin */
	sigprocmask(SIG_BLOCK, &blocked, &old_mask);
	sigfd = signalfd(-1, &blocked, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0) {
		ret = report_errno(a->path, "signalfd", -errno);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		return ret;
	}
	setlocale(LC_CTYPE, "");
	u.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (!term_usable(&why) || tcgetattr(STDIN_FILENO, &crash_tio) < 0 ||
	    !(scr = newterm(NULL, stdout, stdin))) {
		const char *term = getenv("TERM");

		tool_say(
			"the terminal (TERM=%s) cannot be driven full-screen: %s; printing plain snapshots as -b does",
			term ? TOOL_SHOWN(term) : "", why);
		close(sigfd);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		return TTY_FALLBACK;
	}
	fatal_handlers(true);
	in_curses = 1;
	set_term(scr);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	colors(&u);
	screen_settings_load(&u);
	/* a replay waits for keys: it is read, not watched; z plays it at its recorded pace */
	u.paused = source_is_replay(src);
	if (u.paused) {
		u.a.depth = source_info(src)->depth;
		if (source_info(src)->delay_ns)
			u.a.delay_ns = source_info(src)->delay_ns;
	}
	u.hist = hist_new();
	u.failed = "history";
	ret = u.hist ? loop(&u, sigfd) : -ENOMEM;
	screen_help(&u, false);
	screen_detail(&u, false);
	screen_act_free(&u);
	endwin();
	in_curses = 0;
	delscreen(scr);
	fatal_handlers(false);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	/* said once the terminal is back */
	if (ret < 0)
		ret = report_errno(a->path, u.failed, ret);
	screen_lines_free(&u);
	for (size_t i = 0; i < u.n_collapsed; i++)
		free(u.collapsed[i]);
	free(u.collapsed);
	free(u.sel);
	view_free(&u.v);
	hist_free(u.hist);
	return ret;
}
