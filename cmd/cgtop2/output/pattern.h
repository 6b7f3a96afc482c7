/* SPDX-License-Identifier: MIT */
/*
 * The one check of a user's regular expression before regcomp: what POSIX extended expressions
 * promise, less what glibc adds that matches in exponential time. Pure: unit-tested and fuzzed.
 */
#ifndef CGTOP2_PATTERN_H
#define CGTOP2_PATTERN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The offset in re of its first back-reference (\1 to \9 outside a bracket expression, where a
 * backslash is an ordinary character), or -1 when it has none.
 */
ssize_t pattern_backref(const char *re);
/*
 * 0 when re may be compiled; -EINVAL with why in err (one line, the reference's digit and
 * offset) when it holds a back-reference.
 */
int pattern_check(const char *re, char *err, size_t errlen);

#endif
