// SPDX-License-Identifier: MIT
/*
 * The one UTF-8 decoder (cg_quote's printable characters, cgtop2's escaping and widths): names
 * are bytes a delegatee chose and comm is cut at 15 bytes, maybe inside a character, so what is
 * not well-formed must be told apart before anything is shown as text.
 */
#include "utf8.h"

size_t cg_utf8_decode(const unsigned char *s, size_t left, uint32_t *ret)
{
	/* the second byte's range by lead byte: Table 3-7 of the Unicode standard, RFC 3629 */
	unsigned lo = 0x80, hi = 0xbf;
	uint32_t c;
	size_t n;

	if (!left)
		return 0;
	if (s[0] < 0x80) {
		n = 1;
		c = s[0];
		goto out;
	}
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n > left)
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0; /* overlong below U+0800 */
	else if (s[0] == 0xed)
		hi = 0x9f; /* the surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90; /* overlong below U+10000 */
	else if (s[0] == 0xf4)
		hi = 0x8f; /* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	c = s[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
out:
	if (ret)
		*ret = c;
	return n;
}
