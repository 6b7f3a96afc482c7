/* SPDX-License-Identifier: MIT */
/* Private to cgtop2's ncurses screen (screen*.c) and its history (history.c). */
#ifndef CGTOP2_SCREEN_H
#define CGTOP2_SCREEN_H

#include <curses.h>
#include <panel.h>

#include "args.h"
#include "history.h"
#include "render.h"
#include "report.h"
#include "text.h"
#include "tty.h"
#include "source.h"

/* ---- the screen's state -------------------------------------------------------------------- */

enum prompt { PR_NONE, PR_CONFIRM, PR_EDIT, PR_SIGNALS, PR_COLUMNS };
enum sact { SACT_NONE, SACT_FREEZE, SACT_THAW, SACT_SIGNAL, SACT_KILL, SACT_SET, SACT_MOVE };

/* One line of the table: a cgroup, or with -H one of its threads. */
struct line {
	struct cg_stat_row *row;
	long thread; /* -1: the cgroup itself */
	char *label; /* escaped, tree prefix included */
	bool children, collapsed;
	size_t hidden; /* collapsed: descendants not shown */
};

struct ui {
	struct cgtop2_args a;
	struct source *src;
	struct source_sample smp;
	bool utf8, color, paused, tree, help, detail, editing, quit;
	char filter[256], edit[256];
	char *sel; /* the selected cgroup's path: kept across refreshes, sorts and views */
	pid_t sel_tid; /* with -H, the selected thread of it; 0: the cgroup's own line */
	const char *failed; /* what failed, when the loop ends on an error */
	size_t cur, top; /* the selection's line, the first line shown */
	struct line *items;
	size_t n_items;
	char **collapsed; /* paths whose subtrees are folded (tree view) */
	size_t n_collapsed;
	struct history *hist;
	struct view v;
	PANEL *help_panel, *detail_panel;
	int help_page; /* the help's page, where it is taller than the screen */
	/* the detail pane's text, all of it, of which the panel shows detail_top on */
	WINDOW *detail_pad;
	int detail_top, detail_lines;
	/* screen_act.c: the action asked for on the selected cgroup, its question, its outcome */
	enum prompt prompt;
	enum sact act;
	char *act_path; /* the cgroup acted on, as selected when asked */
	pid_t act_pid; /* SACT_MOVE: the process; its comm in act_comm */
	char act_comm[64];
	int act_sig;
	char act_edit[256]; /* PR_EDIT's text */
	char status[1024]; /* the last outcome or refusal, shown until the next key */
	bool status_bad;
	int choice; /* the chooser's line */
	PANEL *choose_panel;
	long proc_mark; /* the detail pane's marked process (M moves it), -1: none; its pid, comm */
	pid_t mark_pid;
	char mark_comm[64];
	int mark_line; /* its line in the pane's text, -1: none shown */
	bool mark_follow; /* scroll the pane to it once */
	unsigned hidden; /* settings.h: the columns hidden */
};

enum { PAIR_TITLE = 1, PAIR_HEADER, PAIR_SELECT, PAIR_RED, PAIR_BAR };

/* screen_base.c: what the other screen files draw with */
/* Text for the screen: escaped, and outside a UTF-8 locale every non-ASCII byte as \xNN. */
char *screen_text(const struct ui *u, const char *raw);
/* Put escaped text at the cursor, at most cols columns; the columns used. */
size_t screen_put(WINDOW *w, const char *s, size_t cols);
/* A window for a panel, at least 1x1, inside the screen; a panel closed and its window freed. */
WINDOW *screen_window(int h, int w, int y, int x);
void screen_panel_close(PANEL **p);
/* Whether the screen offers actions: live, not --read-only. */
bool screen_can_act(const struct ui *u);

/* screen_table.c */
int screen_lines(struct ui *u);
void screen_draw(struct ui *u);
void screen_lines_free(struct ui *u);
/* The number of table lines that fit. */
size_t screen_body(void);
bool screen_is_collapsed(const struct ui *u, const char *path);

/* screen_act.c */
/* Keys of the actions and their prompts: -1 when c is not one, else 1 to sample anew, or 0. */
int screen_act_key(struct ui *u, int c);
/* The status line, when an action asks or said something: false when it has nothing. */
bool screen_act_status(struct ui *u);
/* Draw the chooser, when one is open (after a resize: anew). */
void screen_act_draw(struct ui *u, bool resized);
void screen_act_free(struct ui *u);
/* The settings file: read at start (what it says applied, a damaged one said on the status line). */
void screen_settings_load(struct ui *u);
/* The sorted column of the table (ORDER_IO: both rates; ORDER_PRESSURE: the three PSI). */
bool screen_sorted(const struct ui *u, size_t c);

/* screen_detail.c */
void screen_help(struct ui *u, bool show);
void screen_detail(struct ui *u, bool show);
void screen_detail_draw(struct ui *u);
/* Scroll the detail pane by lines (by; INT_MIN: to the top, INT_MAX: to the end). */
void screen_detail_scroll(struct ui *u, int by);

#endif
