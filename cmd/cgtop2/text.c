// SPDX-License-Identifier: MIT
/*
 * cgtop2's text measures: which UTF-8 characters a terminal may be given, and how many columns
 * escaped text takes (wcwidth), for the table and the screen alike. Widths come from the C.UTF-8
 * locale, whatever the user's, so that batch output is laid out the same everywhere.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "text.h"

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

/* The code point of the well-formed sequence s[0, len) (len from utf8_len). */
static wchar_t decode(const unsigned char *s, size_t len)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	wchar_t wc = s[0] & lead_mask[len];

	for (size_t i = 1; i < len; i++)
		wc = (wc << 6) | (s[i] & 0x3f);
	return wc;
}

int text_char_width(const unsigned char *s, size_t len)
{
	locale_t loc = utf8_locale(), old;
	int w;

	if (len == 1)
		return s[0] >= 0x20 && s[0] < 0x7f ? 1 : -1;
	if (!loc)
		return -1;
	old = uselocale(loc);
	w = wcwidth(decode(s, len));
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

size_t text_cols(const char *s, size_t len)
{
	size_t cols = 0;

	for (size_t i = 0, n; i < len; i += n) {
		int w;

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
