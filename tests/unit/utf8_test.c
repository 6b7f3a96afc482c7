// SPDX-License-Identifier: MIT
/*
 * common/utf8: the decoder on literal bytes: each length at its bounds, overlong forms, the
 * surrogates, past U+10FFFF, stray and missing continuation bytes, a sequence cut by the length
 * given or by a NUL.
 */
#include <stdint.h>

#include "check.h"
#include "base/utf8.h"

/* s (n bytes) decodes as len bytes of code point cp, or not at all (len 0) */
#define CHECK_DEC(s, n, len, cp)                                                                   \
	do {                                                                                       \
		uint32_t _c = 0xdeadbeef;                                                          \
		size_t _n = cg_utf8_decode((const unsigned char *)(s), (n), &_c);                  \
		CHECK_INT(_n, len);                                                                \
		if ((len) && _n == (len))                                                          \
			CHECK_INT(_c, cp);                                                         \
		if (!(len))                                                                        \
			CHECK_INT(_c, 0xdeadbeef);                                                 \
	} while (0)

int main(void)
{
	/* ASCII, NUL and DEL included: one byte, itself */
	CHECK_DEC("A", 1, 1, 'A');
	CHECK_DEC("", 1, 1, 0);
	CHECK_DEC("\x7f", 1, 1, 0x7f);
	CHECK_DEC("\x1b[", 2, 1, 0x1b);
	/* nothing left: nothing */
	CHECK_DEC("A", 0, 0, 0);
	/* each length at its first and last code point */
	CHECK_DEC("\xc2\x80", 2, 2, 0x80);
	CHECK_DEC("\xdf\xbf", 2, 2, 0x7ff);
	CHECK_DEC("\xe0\xa0\x80", 3, 3, 0x800);
	CHECK_DEC("\xef\xbf\xbf", 3, 3, 0xffff);
	CHECK_DEC("\xf0\x90\x80\x80", 4, 4, 0x10000);
	CHECK_DEC("\xf4\x8f\xbf\xbf", 4, 4, 0x10ffff);
	CHECK_DEC("\xc3\xa9t\xc3\xa9", 5, 2, 0xe9);
	CHECK_DEC("\xe2\x80\xae", 3, 3, 0x202e); /* a bidi override is a character: not its call */
	CHECK_DEC("\xf0\x9f\x98\x80", 4, 4, 0x1f600);
	/* overlong: "/" in two, three and four bytes, NUL in two (modified UTF-8), U+07FF in three */
	CHECK_DEC("\xc0\xaf", 2, 0, 0);
	CHECK_DEC("\xc1\xbf", 2, 0, 0);
	CHECK_DEC("\xe0\x80\xaf", 3, 0, 0);
	CHECK_DEC("\xf0\x80\x80\xaf", 4, 0, 0);
	CHECK_DEC("\xc0\x80", 2, 0, 0);
	CHECK_DEC("\xe0\x9f\xbf", 3, 0, 0);
	CHECK_DEC("\xf0\x8f\xbf\xbf", 4, 0, 0);
	/* the surrogates, and either side of them */
	CHECK_DEC("\xed\xa0\x80", 3, 0, 0);
	CHECK_DEC("\xed\xbf\xbf", 3, 0, 0);
	CHECK_DEC("\xed\x9f\xbf", 3, 3, 0xd7ff);
	CHECK_DEC("\xee\x80\x80", 3, 3, 0xe000);
	/* past U+10FFFF, and lead bytes no character has */
	CHECK_DEC("\xf4\x90\x80\x80", 4, 0, 0);
	CHECK_DEC("\xf5\x80\x80\x80", 4, 0, 0);
	CHECK_DEC("\xf8\x88\x80\x80\x80", 5, 0, 0);
	CHECK_DEC("\xfe", 1, 0, 0);
	CHECK_DEC("\xff", 1, 0, 0);
	/* a continuation byte alone, and a lead without its continuation */
	CHECK_DEC("\x80", 1, 0, 0);
	CHECK_DEC("\xbf\xbf", 2, 0, 0);
	CHECK_DEC("\xc3"
		  "A",
		  2, 0, 0);
	CHECK_DEC("\xe2\x82"
		  "A",
		  3, 0, 0);
	CHECK_DEC("\xf0\x9f\x98"
		  "A",
		  4, 0, 0);
	/* truncated: by the length given, by a NUL (a C string given with SIZE_MAX) */
	CHECK_DEC("\xc3\xa9", 1, 0, 0);
	CHECK_DEC("\xe2\x82\xac", 2, 0, 0);
	CHECK_DEC("\xf0\x9f\x98\x80", 3, 0, 0);
	CHECK_DEC("\xe2\x82", SIZE_MAX, 0, 0);
	CHECK_DEC("\xf0\x9f", SIZE_MAX, 0, 0);
	CHECK_DEC("\xe2\x82\xac", SIZE_MAX, 3, 0x20ac);
	/* without ret: the length alone */
	CHECK_INT(cg_utf8_decode((const unsigned char *)"\xc3\xa9", 2, NULL), 2);
	CHECK_INT(cg_utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, NULL), 0);
	return CHECK_DONE();
}
