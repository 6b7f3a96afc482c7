/* SPDX-License-Identifier: MIT */
/* Private to cgtop2's ncurses screen (screen*.c) and its history (history.c). */
#ifndef CGTOP2_SCREEN_H
#define CGTOP2_SCREEN_H

#include <curses.h>
#include <panel.h>

#include "pipeline/args.h"
#include "history.h"
#include "output/render.h"
#include "output/report.h"
#include "output/text.h"
#include "tty.h"
#include "screen_state.h"
#include "pipeline/source.h"

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
/* The sorted column of the table (ORDER_IO: both rates; ORDER_PRESSURE: the three PSI). */
bool screen_sorted(const struct ui *u, size_t c);

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
/*
 * The status line drawn over the table's, when an action asks or said something (not while the
 * filter is edited): false when it has nothing.
 */
bool screen_act_status(struct ui *u);
/* Draw the chooser, when one is open (after a resize: anew). */
void screen_act_draw(struct ui *u, bool resized);
void screen_act_free(struct ui *u);
/* The collectors the detail pane and the statistics' columns need, set on a live source. */
void screen_collect(struct ui *u);
/* The settings file: read at start (what it says applied, a damaged one said on the status line). */
void screen_settings_load(struct ui *u);

/* The help overlay, opened or closed. */
void screen_help(struct ui *u, bool show);

/* screen_detail.c */
void screen_detail(struct ui *u, bool show);
void screen_detail_draw(struct ui *u);
/* Scroll the detail pane by lines (by; INT_MIN: to the top, INT_MAX: to the end). */
void screen_detail_scroll(struct ui *u, int by);

#endif
