/* SPDX-License-Identifier: MIT */
/* The actions, the settings that persist and the help (screen_act.c), as screen.c calls them. */
#ifndef CGTOP2_SCREEN_ACT_H
#define CGTOP2_SCREEN_ACT_H

#include <stdbool.h>

#include "screen_state.h"

/* Keys of the actions and their prompts: -1 when c is not one, else 1 to sample anew, or 0. */
int screen_act_key(struct ui *u, int c);
/* The status line over the table's, when an action asks or said something (not while the
 * filter is edited): false when it has nothing. */
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

#endif
