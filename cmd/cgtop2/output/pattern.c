// SPDX-License-Identifier: MIT
/*
 * A user's regular expression checked before regcomp (pattern.h). glibc's REG_EXTENDED takes
 * back-references as an extension of POSIX, and matching one backtracks: with
 * (.*)(.*)(.*)(.*)(.*)(.*)(.*)\7\6x one 200-byte cgroup name kept cgtop2 busy past 20 s (issue
 * 40). Without them glibc runs its automaton and does not backtrack.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/cleanup.h"
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

/* ---- --cgroup-include, --cgroup-exclude ------------------------------------------------- */

int path_filter_add(struct path_filter *pf, bool exclude, const char *regex, char *err,
		    size_t errlen)
{
	_cleanup_free_ char *anchored = NULL;
	regex_t *re;
	bool *ex;
	int r;

	r = pattern_check(regex, err, errlen);
	if (r < 0)
		return r;
	/* a group, so that an alternation is anchored as a whole: ^(a|b)$ */
	if (asprintf(&anchored, "^(%s)$", regex) < 0)
		return -ENOMEM;
	re = realloc(pf->re, (pf->n + 1) * sizeof(*re));
	if (!re)
		return -ENOMEM;
	pf->re = re;
	ex = realloc(pf->exclude, (pf->n + 1) * sizeof(*ex));
	if (!ex)
		return -ENOMEM;
	pf->exclude = ex;
	r = regcomp(&pf->re[pf->n], anchored, REG_EXTENDED | REG_NOSUB);
	if (r) {
		regerror(r, &pf->re[pf->n], err, errlen);
		regfree(&pf->re[pf->n]);
		return r == REG_ESPACE ? -ENOMEM : -EINVAL;
	}
	pf->exclude[pf->n++] = exclude;
	pf->any_include |= !exclude;
	return 0;
}

bool path_filter_keeps(const struct path_filter *pf, const char *path)
{
	bool included = !pf->any_include;

	for (size_t i = 0; i < pf->n; i++) {
		if ((pf->exclude[i] || !included) && !regexec(&pf->re[i], path, 0, NULL, 0)) {
			if (pf->exclude[i])
				return false;
			included = true;
		}
	}
	return included;
}

void path_filter_free(struct path_filter *pf)
{
	for (size_t i = 0; i < pf->n; i++)
		regfree(&pf->re[i]);
	free(pf->re);
	free(pf->exclude);
	*pf = (struct path_filter){ 0 };
}
