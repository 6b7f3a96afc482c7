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

#include <stdbool.h>

#include "pipeline/args.h"

/*
 * Add an --cgroup-include (exclude: --cgroup-exclude) regex, anchored at both ends: 0, or
 * -EINVAL with pattern_check's or regcomp's message in err, -ENOMEM.
 */
int path_filter_add(struct path_filter *pf, bool exclude, const char *regex, char *err,
		    size_t errlen);
/* A path is kept when it matches an include (or none is given) and no exclude. */
bool path_filter_keeps(const struct path_filter *pf, const char *path);
void path_filter_free(struct path_filter *pf);

#endif
