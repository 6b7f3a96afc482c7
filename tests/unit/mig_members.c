// SPDX-License-Identifier: MIT
/* common/migrate: membership listings as the kernel writes them (cgroup.procs, tasks). */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "base/kparse.h"
#include "ops/migrate.h"

int main(void)
{
	pid_t *v = NULL;
	size_t n = 99;

	CHECK_INT(cg_kparse_members("", false, &v, &n), 0);
	CHECK_INT(n, 0);
	free(v);
	v = NULL;
	/* v1 lists sorted; v2 in css_set order, with repeats across pages: sorted, unique */
	CHECK_INT(cg_kparse_members("300\n12\n4194304\n12\n7\n", false, &v, &n), 0);
	CHECK_INT(n, 4);
	if (n == 4) {
		CHECK_INT(v[0], 7);
		CHECK_INT(v[1], 12);
		CHECK_INT(v[2], 300);
		CHECK_INT(v[3], 4194304);
	}
	free(v);
	v = NULL;
	CHECK_INT(cg_kparse_members("1\n2", false, &v, &n), 0); /* no final newline */
	CHECK_INT(n, 2);
	free(v);
	v = NULL;
	CHECK_INT(cg_kparse_members("1\nx\n", false, &v, &n), -EINVAL);
	CHECK_INT(cg_kparse_members("0\n", false, &v, &n), -EINVAL);
	CHECK_INT(cg_kparse_members("99999999999999999999\n", false, &v, &n), -EINVAL);
	/* one above CG_PID_MAX (2^22), blanks and signs: none is a kernel listing */
	CHECK_INT(cg_kparse_members("4194305\n", false, &v, &n), -EINVAL);
	CHECK_INT(cg_kparse_members("12 \n", false, &v, &n), -EINVAL);
	CHECK_INT(cg_kparse_members(" 12\n", false, &v, &n), -EINVAL);
	CHECK_INT(cg_kparse_members("+12\n", false, &v, &n), -EINVAL);
	CHECK_INT(cg_kparse_members("12\0"
				    "34\n",
				    false, &v, &n),
		  0); /* the text ends at a NUL */
	CHECK_INT(n, 1);
	free(v);
	v = NULL;
	CHECK_INT(cg_kparse_members("\n\n5\n\n", false, &v, &n), 0); /* empty lines are no ids */
	CHECK_INT(n, 1);
	free(v);
	v = NULL;
	/* lax: a line that is no id is skipped, the rest sorted and unique as strict */
	CHECK_INT(cg_kparse_members("9\nx\n0\n+3\n 4\n99999999999999999999\n4194305\n7\n9\n12 \n2",
				    true, &v, &n),
		  0);
	CHECK_INT(n, 3);
	if (n == 3)
		CHECK(v[0] == 2 && v[1] == 7 && v[2] == 9);
	free(v);
	v = NULL;
	CHECK_INT(cg_kparse_members("x", true, &v, &n), 0);
	CHECK_INT(n, 0);
	free(v);
	v = NULL;
	/* a listing of thousands of ids, more than one kernel page */
	{
		char *big = malloc(20000 * 8);
		size_t off = 0;

		for (int i = 20000; i >= 1; i--)
			off += (size_t)sprintf(big + off, "%d\n", i);
		CHECK_INT(cg_kparse_members(big, false, &v, &n), 0);
		CHECK_INT(n, 20000);
		if (n == 20000)
			CHECK(v[0] == 1 && v[19999] == 20000);
		free(v);
		free(big);
	}
	return CHECK_DONE();
}
