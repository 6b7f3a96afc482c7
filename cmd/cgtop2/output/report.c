// SPDX-License-Identifier: MIT
/* cgtop2's failure lines (report.h), as common/base/error.h's cg_diag words them. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "base/parse.h"
#include "base/cleanup.h"
#include "base/error.h"
#include "kernel/mount.h"

#include "render.h"
#include "report.h"
#include "tool.h"

/* "/path" for messages, escaped as the table shows it (-M takes it from the kernel) */
static void where_of(const char *path, char *where, size_t size)
{
	_cleanup_free_ char *e = escaped(path, Q_TABLE);

	cg_path_display(e ? e : "?", where, size);
}

/*
 * Out of fds although the sampler gave back every cached one: too low a limit (ulimit -n) to
 * open even one file at a time beside what the tool holds. Say which limit, not only EMFILE.
 */
static void diag_fds(struct cg_diag *d, int r, const char *where, const char *hier,
		     const char *what)
{
	struct rlimit rl;

	if (r == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		cg_diag_say(
			d, EMFILE, where, hier, what,
			"%s (the limit of open files, %llu, leaves too few to open the stat files one at a time; raise ulimit -n)",
			strerror(EMFILE), (unsigned long long)rl.rlim_cur);
	else
		cg_diag_fail(d, -r, CG_OP_READ, 0, where, hier, "%s", what);
}

static int say(const struct cg_diag *d)
{
	tool_report(d, EIO);
	return 1;
}

int report_errno(const char *path, const char *what, int r)
{
	struct cg_diag d = { 0 };
	char where[PATH_MAX * 4 + 2];

	where_of(path, where, sizeof(where));
	diag_fds(&d, r, where, "all hierarchies", what);
	return say(&d);
}

int report_open(const char *path, const struct cg_layout *l, int r)
{
	const char *hier = cg_layout_kind_name(cg_layout_kind(l));
	struct cg_diag d = { 0 };
	char where[PATH_MAX * 4 + 2];

	where_of(path, where, sizeof(where));
	if (r == -ENOENT)
		cg_diag_say(&d, ENOENT, where, hier, "open",
			    "no such cgroup in any mounted hierarchy");
	else if (r == -EMFILE)
		diag_fds(&d, r, where, hier, "open");
	else
		cg_diag_fail(&d, -r, CG_OP_OPEN, 0, where, hier, "open");
	return say(&d);
}
