// SPDX-License-Identifier: MIT
/*
 * cgtop2's text measures: which UTF-8 characters a terminal may be given, and how many columns
 * escaped text takes (wcwidth), for the table and the screen alike. Widths come from the C.UTF-8
 * locale, whatever the user's, so that batch output is laid out the same everywhere.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "text.h"
#include "base/utf8.h"

static locale_t utf8_locale(void)
{
	static locale_t loc;
	static bool tried;

	if (!tried) {
		tried = true;
		loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	return loc;
}

/* A character of one byte: printable ASCII takes a column, any other byte none (-1). */
static int lone_width(const unsigned char *s)
{
	return s[0] >= 0x20 && s[0] < 0x7f ? 1 : -1;
}

int text_char_width(const unsigned char *s, size_t len)
{
	locale_t loc = utf8_locale(), old;
	uint32_t c;
	int w;

	if (len == 1)
		return lone_width(s);
	if (!loc)
		return -1;
	old = uselocale(loc);
	w = cg_utf8_decode(s, len, &c) == len ? wcwidth((wchar_t)c) : -1;
	uselocale(old);
	return w;
}

/* Length of the character at s in escaped text: whole UTF-8 characters, else a byte. */
static size_t step(const char *s, size_t left)
{
	size_t n = 1;

	while (n < left && ((unsigned char)s[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/*
 * A byte not followed by a continuation byte is a character of its own (step's rule), measured
 * here without text_char_width's call: every row's name is measured at every refresh
 * (bench/RESULTS-scale.md).
 */
static bool lone_byte(const char *s, size_t left)
{
	return left == 1 || ((unsigned char)s[1] & 0xc0) != 0x80;
}

size_t text_cols(const char *s, size_t len)
{
	size_t cols = 0;

	for (size_t i = 0, n; i < len; i += n) {
		int w;

		if (lone_byte(s + i, len - i)) {
			n = 1;
			cols += lone_width((const unsigned char *)s + i) > 0;
			continue;
		}
		n = step(s + i, len - i);
		w = text_char_width((const unsigned char *)s + i, n);
		cols += w > 0 ? (size_t)w : 0;
	}
	return cols;
}

size_t text_cut(const char *s, size_t len, size_t cols)
{
	size_t i, used = 0;

	for (i = 0; i < len;) {
		size_t n = step(s + i, len - i);
		int w = text_char_width((const unsigned char *)s + i, n);

		if (w > 0 && used + (size_t)w > cols)
			break;
		used += w > 0 ? (size_t)w : 0;
		i += n;
	}
	return i;
}
