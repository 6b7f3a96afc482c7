// SPDX-License-Identifier: MIT
/*
 * A user's regular expression checked before regcomp (pattern.h). glibc's REG_EXTENDED takes
 * back-references as an extension of POSIX, and matching one backtracks: with
 * (.*)(.*)(.*)(.*)(.*)(.*)(.*)\7\6x one 200-byte cgroup name kept cgtop2 busy past 20 s (issue
 * 40). Without them glibc runs its automaton and does not backtrack.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"

/*
 * The offset of the ']' that closes the bracket expression opening at re[i] (POSIX.1-2017
 * 9.3.5): a ']' first (after a '^') is a member, and [:class:], [=equiv=] and [.coll.] may
 * hold one. Unclosed: the offset of the NUL (regcomp refuses it).
 */
static size_t bracket_end(const char *re, size_t i)
{
	size_t j = i + 1;

	if (re[j] == '^')
		j++;
	if (re[j] == ']')
		j++;
	for (; re[j]; j++) {
		if (re[j] == ']')
			return j;
		if (re[j] == '[' && re[j + 1] && strchr(":=.", re[j + 1])) {
			const char close[3] = { re[j + 1], ']', '\0' };
			const char *end = strstr(re + j + 2, close);

			if (end)
				j = (size_t)(end - re) + 1;
		}
	}
	return j;
}

ssize_t pattern_backref(const char *re)
{
	for (size_t i = 0; re[i]; i++) {
		if (re[i] == '[') {
			i = bracket_end(re, i);
			if (!re[i])
				break;
		} else if (re[i] == '\\') {
			if (re[i + 1] >= '1' && re[i + 1] <= '9')
				return (ssize_t)i;
			/* the escaped character is itself, a backslash too */
			if (!re[++i])
				break;
		}
	}
	return -1;
}

int pattern_check(const char *re, char *err, size_t errlen)
{
	ssize_t at = pattern_backref(re);

	if (at < 0)
		return 0;
	snprintf(
		err, errlen,
		"a back-reference (\\%c at byte %zd) is refused: matching one takes time exponential in the name's length",
		re[at + 1], at);
	return -EINVAL;
}
