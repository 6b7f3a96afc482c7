/* SPDX-License-Identifier: MIT */
/* The one UTF-8 decoder. */
#ifndef CGKIT_UTF8_H
#define CGKIT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The character at s[0, left): its length, 1 to 4, with its code point in *ret (if ret), or 0
 * when s starts no well-formed UTF-8 sequence (RFC 3629): a continuation byte, a lead byte that
 * no character has (c0, c1, f5 to ff), an overlong form, a surrogate (U+D800 to U+DFFF), past
 * U+10FFFF, or a sequence cut short by left or by a byte that does not continue it (a NUL: a
 * C string may be given with left SIZE_MAX). An ASCII byte, NUL too, is itself.
 */
size_t cg_utf8_decode(const unsigned char *s, size_t left, uint32_t *ret);

#endif
