/* SPDX-License-Identifier: MIT */
/* The table (screen_table.c): its lines, flat or as a tree, drawn on stdscr. */
#ifndef CGTOP2_SCREEN_TABLE_H
#define CGTOP2_SCREEN_TABLE_H

#include <stddef.h>

#include "screen_state.h"

int screen_lines(struct ui *u);
void screen_draw(struct ui *u);
void screen_lines_free(struct ui *u);
/* The number of table lines that fit. */
size_t screen_body(void);

#endif
