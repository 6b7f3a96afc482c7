/* SPDX-License-Identifier: MIT */
/* The detail pane of the selected cgroup (screen_detail.c). */
#ifndef CGTOP2_SCREEN_DETAIL_H
#define CGTOP2_SCREEN_DETAIL_H

#include <stdbool.h>

#include "screen_state.h"

void screen_detail(struct ui *u, bool show);
void screen_detail_draw(struct ui *u);
/* Scroll the detail pane by lines (by; INT_MIN: to the top, INT_MAX: to the end). */
void screen_detail_scroll(struct ui *u, int by);

#endif
