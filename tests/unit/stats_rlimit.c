// SPDX-License-Identifier: MIT
/*
 * common/stats changes no process-wide limit: cg_stats_new sizes its fd cache by RLIMIT_NOFILE
 * as it finds it (cgtop2 raises the soft limit itself; tests/cgtop2.sh checks that). Reads the
 * first mounted hierarchy's root at depth 0, nothing else. Skips (77) when no cgroup filesystem
 * is mounted or the hard limit leaves no room below it.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>

#include "check.h"
#include "kernel/mount.h"
#include "sampler/stats.h"

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_stats_opts o = { .depth = 0 };
	struct cg_stats *s = NULL;
	struct rlimit rl, after;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_max < 200) {
		puts("the hard limit of open files leaves no room below it");
		return 77;
	}
	rl.rlim_cur = 150;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		perror("setrlimit");
		return 1;
	}
	if (cg_layout_load(&l) < 0 || !l->n) {
		puts("no cgroup filesystem is mounted");
		cg_layout_free(l);
		return 77;
	}
	CHECK_INT(cg_stats_new(l, &o, &s, NULL), 0);
	CHECK_INT(getrlimit(RLIMIT_NOFILE, &after), 0);
	CHECK_INT(after.rlim_cur, 150);
	CHECK_INT(after.rlim_max, rl.rlim_max);
	cg_stats_free(s);
	/* a cgroup no hierarchy has: the tool's one line from the sampler's diagnostic */
	{
		struct cg_stats_opts none = o;
		struct cg_diag d = { 0 };

		s = NULL;
		none.path = "cgkit-no-such-cgroup/\x1b[31m";
		CHECK_INT(cg_stats_new(l, &none, &s, &d), -ENOENT);
		CHECK(s == NULL);
		CHECK_STR(d.where, "/cgkit-no-such-cgroup/\\x1b[31m"); /* escaped */
		CHECK_STR(d.what, "open");
		CHECK_STR(d.why, "no such cgroup in any mounted hierarchy");
	}
	cg_layout_free(l);
	return CHECK_DONE();
}
