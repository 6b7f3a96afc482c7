// SPDX-License-Identifier: MIT
/* common/strv: split, join, push, contains, on controller lists. */
#include <stdlib.h>

#include "check.h"
#include "base/strv.h"

static void join(char *const *v, const char *sep, const char *want)
{
	char *s = cg_strv_join(v, sep);

	CHECK_STR(s, want);
	free(s);
}

int main(void)
{
	_cleanup_strv_free_ char **v = cg_strv_split("cpu,,memory,", ",");
	_cleanup_strv_free_ char **none = cg_strv_split("", ",");
	char **p = NULL;

	CHECK_INT(cg_strv_len(v), 2);
	CHECK_STR(v[0], "cpu");
	CHECK_STR(v[1], "memory");
	CHECK(v[2] == NULL);
	CHECK(cg_strv_contains(v, "memory"));
	CHECK(!cg_strv_contains(v, ""));
	CHECK(!cg_strv_contains(NULL, "cpu"));
	CHECK_INT(cg_strv_len(NULL), 0);
	CHECK_INT(cg_strv_len(none), 0);

	/* the three joins this replaced: a v1 label, a cgrules.conf spec, the unified offers */
	join(v, ",", "cpu,memory");
	join(v, " ", "cpu memory");
	join(v, ", ", "cpu, memory");
	join(none, ",", "");
	join(NULL, ",", "");

	CHECK_INT(cg_strv_push(&p, "pids"), 0);
	CHECK_INT(cg_strv_push(&p, "name=systemd"), 0);
	CHECK_INT(cg_strv_len(p), 2);
	join(p, ",", "pids,name=systemd");
	cg_strv_free(p);
	cg_strv_free(NULL);
	return CHECK_DONE();
}
