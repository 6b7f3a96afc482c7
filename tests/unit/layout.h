/* SPDX-License-Identifier: MIT */
/* A layout from literal mountinfo text, for the unit tests that need no live kernel. */
#ifndef CGKIT_TEST_LAYOUT_H
#define CGKIT_TEST_LAYOUT_H

#include "check.h"
#include "kernel/mount.h"
#include "base/strv.h"

/* text parsed as /proc/self/mountinfo; the unified hierarchy offers v2ctrls ("cpu memory") */
static inline struct cg_layout *fixture_layout(const char *text, const char *v2ctrls)
{
	struct cg_layout *l = NULL;

	CHECK_INT(cg_layout_parse(text, &l), 0);
	if (l->unified) {
		cg_strv_free(l->unified->controllers);
		l->unified->controllers = cg_strv_split(v2ctrls, " ");
	}
	return l;
}

#endif
