// SPDX-License-Identifier: MIT
/*
 * cgtop2's interactive screen: raw mode, keys, drawing, and its loop (signals as reads, so that
 * every exit restores the terminal). Its one entry is tty_run(): a screen on another library
 * (ncurses) replaces this file, not its callers.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "cgtop2.h"
#include "cleanup.h"

/* What the tasks column counts, in the title. */
static const char *const count_names[] = { "tasks", "processes", "user processes" };

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
		int n = snprintf(
			title, sizeof(title),
			"cgtop2 /%s  depth %d  order %s  every %gs  counting %s%s%s%s%s%s  (h: help)",
			path ? path : "?", u->a.depth, order_names[u->a.order],
			(double)u->a.delay_ns / (double)NSEC_PER_SEC, count_names[u->a.count],
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

int tty_run(const struct cgtop2_args *a, struct cg_stats *s)
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
		uint64_t now = cg_now_ns();
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
		now = cg_now_ns();
		timeout = u.paused     ? -1
			  : next > now ? (int)((next - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC)
				       : 0;
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
