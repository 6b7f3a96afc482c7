// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for cgtop2's check of a user's regex (cmd/cgtop2/output/pattern.c), against glibc:
 * a pattern it finds no back-reference in never gets regcomp's "invalid back reference".
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *re = malloc(size + 1), err[256];
	ssize_t at;
	regex_t r;
	int e;

	if (!re)
		return 0;
	memcpy(re, data, size);
	re[size] = '\0';
	at = pattern_backref(re);
	if (at >= 0 && (re[at] != '\\' || re[at + 1] < '1' || re[at + 1] > '9'))
		abort();
	if ((pattern_check(re, err, sizeof(err)) < 0) != (at >= 0))
		abort();
	/*
	 * bounds ({n,m}) and repeated repetitions (a++++...) grow glibc's automaton past any
	 * memory: regcomp's cost, not the check's; a short pattern without bounds is compiled
	 */
	if (at < 0 && size <= 32 && !strchr(re, '{')) {
		e = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
		if (e == REG_ESUBREG)
			abort();
		if (!e)
			regfree(&r);
	}
	free(re);
	return 0;
}
