/* SPDX-License-Identifier: MIT */
/* What every screen file draws with (screen_base.c): text for the terminal, windows, panels. */
#ifndef CGTOP2_SCREEN_BASE_H
#define CGTOP2_SCREEN_BASE_H

#include <curses.h>
#include <panel.h>
#include <stdbool.h>
#include <stddef.h>

#include "screen_state.h"

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

#endif
