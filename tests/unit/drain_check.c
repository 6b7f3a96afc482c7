// SPDX-License-Identifier: MIT
/* common/drain: a source that is also a target is refused before any drain starts. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "drain.h"

int main(void)
{
	struct cg_hier cpu = { .version = 1, .label = (char *)"cpu" };
	struct cg_hier mem = { .version = 1, .label = (char *)"memory" };
	struct cg_target src[] = { { .hier = &cpu, .path = (char *)"a/src" } };
	struct cg_target same[] = { { .hier = &mem, .path = (char *)"a/dst" },
				    { .hier = &cpu, .path = (char *)"a/src" } };
	struct cg_target other[] = { { .hier = &mem, .path = (char *)"a/src" },
				     { .hier = &cpu, .path = (char *)"a/src/child" } };
	const struct cg_targets s = { .t = src, .n = 1 };
	const struct cg_targets t_same = { .t = same, .n = 2 };
	const struct cg_targets t_other = { .t = other, .n = 2 };
	struct cg_diag d = { 0 };

	/* the same path in another hierarchy, or a child in the same one: something can move */
	CHECK_INT(cg_drain_check(&s, &t_other, &d), 0);
	CHECK_INT(cg_drain_check(&s, &t_same, &d), -EINVAL);
	CHECK_STR(d.where, "/a/src");
	CHECK_STR(d.hier, "cpu");
	CHECK_STR(d.what, "drain");
	CHECK(strstr(d.why, "the source is also the target: nothing would move") != NULL);
	return CHECK_DONE();
}
