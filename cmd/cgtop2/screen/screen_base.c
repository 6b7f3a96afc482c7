// SPDX-License-Identifier: MIT
/*
 * cgtop2's screen: what every part of it draws with (text for the terminal, windows and
 * panels), below the table (screen_table.c), the actions (screen_act.c) and the panes
 * (screen_detail.c), so that none of them calls back up into another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen_base.h"
#include "output/text.h"

char *screen_text(const struct ui *u, const char *raw)
{
	char *e = escaped(raw, Q_TABLE), *a, *p;

	if (!e || u->utf8)
		return e;
	/* a terminal that is not UTF-8 gets ASCII only */
	a = malloc(strlen(e) * 4 + 1);
	if (!a) {
		free(e);
		return NULL;
	}
	p = a;
	for (const unsigned char *s = (const unsigned char *)e; *s; s++)
		if (*s < 0x80)
			*p++ = (char)*s;
		else
			p += sprintf(p, "\\x%02x", *s);
	*p = '\0';
	free(e);
	return a;
}

size_t screen_put(WINDOW *w, const char *s, size_t cols)
{
	size_t len = text_cut(s, strlen(s), cols);

	waddnstr(w, s, (int)len);
	return text_cols(s, len);
}

WINDOW *screen_window(int h, int w, int y, int x)
{
	if (h > LINES - y)
		h = LINES - y;
	if (w > COLS - x)
		w = COLS - x;
	return newwin(h < 1 ? 1 : h, w < 1 ? 1 : w, y, x);
}

void screen_panel_close(PANEL **p)
{
	WINDOW *w;

	if (!*p)
		return;
	w = panel_window(*p);
	del_panel(*p);
	delwin(w);
	*p = NULL;
	/* what it covered is drawn again from stdscr */
	touchwin(stdscr);
	update_panels();
}

bool screen_can_act(const struct ui *u)
{
	return source_layout(u->src) && !u->a.read_only;
}

bool screen_sorted(const struct ui *u, size_t c)
{
	switch (u->a.order) {
	case ORDER_PATH:
		return c == 0;
	case ORDER_TASKS:
		return c == 1;
	case ORDER_CPU:
		return c == 2;
	case ORDER_MEMORY:
		return c == 3;
	case ORDER_IO:
		return c == 4 || c == 5;
	default:
		return c >= 6;
	}
}
