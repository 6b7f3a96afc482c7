/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: what a terminal may be given, and its width (text.c). */
#ifndef CGTOP2_TEXT_H
#define CGTOP2_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Columns of the UTF-8 character s[0, len) (len from a valid sequence): 1 or 2, < 1 if it
 * takes none or is not printable (control characters, format characters, combining marks). */
int text_char_width(const unsigned char *s, size_t len);
/* Columns of escaped text s[0, len). */
size_t text_cols(const char *s, size_t len);
/* The byte offset where escaped text s[0, len) is cut to fit cols columns, or len. */
size_t text_cut(const char *s, size_t len, size_t cols);

#endif
