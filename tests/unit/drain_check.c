// SPDX-License-Identifier: MIT
/* common/drain: a source that is also a target, or -R with a target inside it, is refused first. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "ops/drain.h"

int main(void)
{
	struct cg_hier cpu = { .version = 1, .label = (char *)"cpu" };
	struct cg_hier mem = { .version = 1, .label = (char *)"memory" };
	struct cg_target src[] = { { .hier = &cpu, .path = (char *)"a/src" } };
	struct cg_target same[] = { { .hier = &mem, .path = (char *)"a/dst" },
				    { .hier = &cpu, .path = (char *)"a/src" } };
	struct cg_target other[] = { { .hier = &mem, .path = (char *)"a/src" },
				     { .hier = &cpu, .path = (char *)"a/src/child" } };
	struct cg_target near[] = { { .hier = &cpu, .path = (char *)"a/src2" },
				    { .hier = &cpu, .path = (char *)"a" } };
	struct cg_target root[] = { { .hier = &cpu, .path = (char *)"" } };
	const struct cg_targets s = { .t = src, .n = 1 }, r = { .t = root, .n = 1 };
	const struct cg_targets t_near = { .t = near, .n = 2 };
	const struct cg_targets t_same = { .t = same, .n = 2 };
	const struct cg_targets t_other = { .t = other, .n = 2 };
	struct cg_diag d = { 0 };

	/* the same path in another hierarchy, or a child in the same one: something can move */
	CHECK_INT(cg_drain_check(&s, &t_other, false, &d), 0);
	CHECK_INT(cg_drain_check(&s, &t_same, false, &d), -EINVAL);
	CHECK_STR(d.where, "/a/src");
	CHECK_STR(d.hier, "cpu");
	CHECK_STR(d.what, "drain");
	CHECK(strstr(d.why, "the source is also the target: nothing would move") != NULL);
	CHECK_INT(cg_drain_check(&s, &t_same, true, &d), -EINVAL);

	/*
	 * -R: a child of the source in the same hierarchy would be filled while the subtree is
	 * emptied; the drain left it out and said "/a/src empty" while it held processes.
	 */
	memset(&d, 0, sizeof(d));
	CHECK_INT(cg_drain_check(&s, &t_other, true, &d), -EINVAL);
	CHECK_STR(d.where, "/a/src");
	CHECK_STR(d.hier, "cpu");
	CHECK_STR(
		d.why,
		"the target /a/src/child is inside the subtree that -R empties: it would be filled instead (name a target outside /a/src, or drop -R to drain only the source's own processes)");
	/* a sibling whose name starts like the source's, and an ancestor, are outside it */
	CHECK_INT(cg_drain_check(&s, &t_near, true, &d), 0);
	/* the root's subtree is everything: cg_drain refuses to drain the root itself */
	CHECK_INT(cg_drain_check(&r, &t_other, true, &d), 0);
	return CHECK_DONE();
}
