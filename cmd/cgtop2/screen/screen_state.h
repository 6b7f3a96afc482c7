/* SPDX-License-Identifier: MIT */
/*
 * The state of cgtop2's ncurses screen (struct ui), private to screen*.c: its own header, beneath
 * every screen file (screen.h declares their functions), so that none reaches up for it.
 */
#ifndef CGTOP2_SCREEN_STATE_H
#define CGTOP2_SCREEN_STATE_H

#include <curses.h>
#include <panel.h>

#include "ops/act.h"
#include "pipeline/args.h"
#include "history.h"
#include "output/render.h"
#include "pipeline/source.h"
#include "settings.h"

enum prompt { PR_NONE, PR_CONFIRM, PR_EDIT, PR_SIGNALS, PR_COLUMNS };
/* SACT_POKE: memory.reclaim=SIZE or memory.peak=reset (cg_act_poke), key E */
enum sact {
	SACT_NONE,
	SACT_FREEZE,
	SACT_THAW,
	SACT_SIGNAL,
	SACT_KILL,
	SACT_SET,
	SACT_MOVE,
	SACT_POKE
};

/* One line of the table: a cgroup, or with -H one of its threads. */
struct line {
	struct cg_stat_row *row;
	long thread; /* -1: the cgroup itself */
	char *label; /* escaped, tree prefix included */
	bool children, collapsed;
	size_t hidden; /* collapsed: descendants not shown */
};

struct ui {
	struct screen_opts a;
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
	struct cg_act_id act_id; /* which cgroup act_path (a move: act_edit) named when asked */
	pid_t act_pid; /* SACT_MOVE: the process; its comm in act_comm, its start time */
	char act_comm[64];
	uint64_t act_start;
	int act_sig;
	char act_edit[256]; /* PR_EDIT's text */
	char status[1024]; /* the last outcome or refusal, shown until the next key */
	bool status_bad;
	int choice; /* the chooser's line */
	PANEL *choose_panel;
	long proc_mark; /* the detail pane's marked process (M moves it), -1: none; its pid, comm */
	pid_t mark_pid;
	char mark_comm[64];
	uint64_t mark_start; /* as sampled: who mark_pid named then (0: not known) */
	int mark_line; /* its line in the pane's text, -1: none shown */
	bool mark_follow; /* scroll the pane to it once */
	unsigned hidden; /* settings.h: the columns hidden */
	/* the chooser's columns from any statistic (output/fields.h's numbers), after the table's */
	int extra[SETTINGS_EXTRA];
	size_t n_extra;
};

enum { PAIR_TITLE = 1, PAIR_HEADER, PAIR_SELECT, PAIR_RED, PAIR_BAR };

#endif
