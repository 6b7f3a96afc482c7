// SPDX-License-Identifier: MIT
/* common/migrate: membership listings as the kernel writes them (cgroup.procs, tasks). */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "migrate.h"

int main(void)
{
	pid_t *v = NULL;
	size_t n = 99;

	CHECK_INT(cg_members_parse("", &v, &n), 0);
	CHECK_INT(n, 0);
	free(v);
	v = NULL;
	/* v1 lists sorted; v2 in css_set order, with repeats across pages: sorted, unique */
	CHECK_INT(cg_members_parse("300\n12\n4194304\n12\n7\n", &v, &n), 0);
	CHECK_INT(n, 4);
	if (n == 4) {
		CHECK_INT(v[0], 7);
		CHECK_INT(v[1], 12);
		CHECK_INT(v[2], 300);
		CHECK_INT(v[3], 4194304);
	}
	free(v);
	v = NULL;
	CHECK_INT(cg_members_parse("1\n2", &v, &n), 0); /* no final newline */
	CHECK_INT(n, 2);
	free(v);
	v = NULL;
	CHECK_INT(cg_members_parse("1\nx\n", &v, &n), -EINVAL);
	CHECK_INT(cg_members_parse("0\n", &v, &n), -EINVAL);
	CHECK_INT(cg_members_parse("99999999999999999999\n", &v, &n), -EINVAL);
	/* one above CG_PID_MAX (2^22), blanks and signs: none is a kernel listing */
	CHECK_INT(cg_members_parse("4194305\n", &v, &n), -EINVAL);
	CHECK_INT(cg_members_parse("12 \n", &v, &n), -EINVAL);
	CHECK_INT(cg_members_parse(" 12\n", &v, &n), -EINVAL);
	CHECK_INT(cg_members_parse("+12\n", &v, &n), -EINVAL);
	CHECK_INT(cg_members_parse("12\0"
				   "34\n",
				   &v, &n),
		  0); /* the text ends at a NUL */
	CHECK_INT(n, 1);
	free(v);
	v = NULL;
	CHECK_INT(cg_members_parse("\n\n5\n\n", &v, &n), 0); /* empty lines are no ids */
	CHECK_INT(n, 1);
	free(v);
	v = NULL;
	/* a listing of thousands of ids, more than one kernel page */
	{
		char *big = malloc(20000 * 8);
		size_t off = 0;

		for (int i = 20000; i >= 1; i--)
			off += (size_t)sprintf(big + off, "%d\n", i);
		CHECK_INT(cg_members_parse(big, &v, &n), 0);
		CHECK_INT(n, 20000);
		if (n == 20000)
			CHECK(v[0] == 1 && v[19999] == 20000);
		free(v);
		free(big);
	}
	return CHECK_DONE();
}
