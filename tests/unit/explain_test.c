// SPDX-License-Identifier: MIT
/*
 * common/error: cg_explain, errno + operation + version -> the kernel rule behind it, and the
 * "why" cg_diag_fail builds from it. The same errno means different rules per operation.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "base/error.h"

/*
 * The rule for err in op on a version contains what; "!what": it does not; NULL: there is
 * none, strerror says it all.
 */
static const struct {
	int err;
	enum cg_op op;
	int version;
	const char *what;
} cases[] = {
	/* EBUSY: no-internal-process on v2 moves and subtree_control; v1 has no such rule */
	{ EBUSY, CG_OP_ATTACH, 2, "no-internal-process rule: the cgroup has controllers" },
	{ EBUSY, CG_OP_ATTACH_THREAD, 2, "no-internal-process rule" },
	{ EBUSY, CG_OP_ATTACH, 1, "cpu.rt_runtime_us" },
	{ EBUSY, CG_OP_ATTACH, 1, "!no-internal-process" },
	{ EBUSY, CG_OP_SUBTREE, 2, "processes of its own" },
	{ EBUSY, CG_OP_RMDIR, 2, "still has processes or child cgroups" },
	{ EBUSY, CG_OP_TYPE, 2, "cannot become threaded" },
	{ EBUSY, CG_OP_WRITE, 2, NULL },
	/* EOPNOTSUPP: the threaded rules */
	{ EOPNOTSUPP, CG_OP_ATTACH, 2, "domain invalid" },
	{ EOPNOTSUPP, CG_OP_ATTACH_THREAD, 2, "same threaded subtree" },
	{ EOPNOTSUPP, CG_OP_SUBTREE, 2, "only threaded controllers" },
	{ EOPNOTSUPP, CG_OP_MKDIR, 2, "cannot be created under a threaded one" },
	{ EOPNOTSUPP, CG_OP_READ, 2, NULL },
	/* ENOENT: a file whose controller is not there, a target that is not */
	{ ENOENT, CG_OP_WRITE, 2, "no such interface file" },
	{ ENOENT, CG_OP_OPEN, 1, "bound to another v1 hierarchy" },
	{ ENOENT, CG_OP_READ, 2, "built without it" },
	{ ENOENT, CG_OP_SUBTREE, 2, "the controller is not available here" },
	{ ENOENT, CG_OP_ATTACH, 2, "the cgroup does not exist" },
	{ ENOENT, CG_OP_MKDIR, 2, NULL },
	/* EACCES/EPERM: the delegation rules, per operation */
	{ EACCES, CG_OP_ATTACH, 2, "delegation rule: the writer must own cgroup.procs" },
	{ EPERM, CG_OP_ATTACH_THREAD, 2, "common ancestor" },
	{ EACCES, CG_OP_MKDIR, 2, "parent cgroup directory must be owned" },
	{ EPERM, CG_OP_RMDIR, 1, "parent cgroup directory must be owned" },
	{ EACCES, CG_OP_SUBTREE, 2, "cgroup.subtree_control must be owned" },
	{ EPERM, CG_OP_KILL, 2, "no permission to signal" },
	{ EACCES, CG_OP_OPEN, 2, "owner or mode of the cgroup file" },
	{ EACCES, CG_OP_WRITE, 2, "a delegated cgroup's own limits stay its delegator's" },
	/* EINVAL: a value, the threaded domain, a thread move on v2 only */
	{ EINVAL, CG_OP_WRITE, 1, "rejected the value" },
	{ EINVAL, CG_OP_TYPE, 2, "cannot become a threaded domain" },
	{ EINVAL, CG_OP_ATTACH_THREAD, 2, "the target is not threaded" },
	{ EINVAL, CG_OP_ATTACH_THREAD, 1, NULL },
	/* EAGAIN is pids.max only for a move */
	{ EAGAIN, CG_OP_ATTACH, 2, "pids.max" },
	{ EAGAIN, CG_OP_WRITE, 2, NULL },
	/* and the kernel's answer to a mkdir beyond max.descendants or max.depth */
	{ EAGAIN, CG_OP_MKDIR, 2, "cgroup.max.descendants or cgroup.max.depth" },
	/* the same for every operation */
	{ ESRCH, CG_OP_OTHER, 2, "no such process" },
	{ ENODEV, CG_OP_READ, 2, "removed meanwhile" },
	/* a write's ENODEV is also io.max's (blkio's) answer to a device the kernel lacks */
	{ ENODEV, CG_OP_WRITE, 1, "or the block device the value names is gone" },
	{ ESTALE, CG_OP_OPEN, 1, "unmounted since the mount table was read" },
	{ EROFS, CG_OP_MKDIR, 2, "read-only" },
	{ ENOSPC, CG_OP_MKDIR, 2, "cgroup.max.descendants" },
	{ ENXIO, CG_OP_WRITE, 2, "not a cgroup filesystem" },
	{ EMEDIUMTYPE, CG_OP_READ, 2, "not a regular file" },
	{ ELOOP, CG_OP_OPEN, 2, "symbolic link" },
	{ EXDEV, CG_OP_OPEN, 2, "crosses a mount point" },
	{ EIO, CG_OP_WRITE, 2, NULL },
	{ 0, CG_OP_WRITE, 2, NULL },
};

int main(void)
{
	struct cg_diag d = { 0 };
	char line[2048];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *r = cg_explain(cases[i].err, cases[i].op, cases[i].version);
		const char *w = cases[i].what;
		bool ok = !w ? r == NULL : *w == '!' ? !r || !strstr(r, w + 1) : r && strstr(r, w);

		if (!ok) {
			fprintf(stderr, "case %zu: cg_explain(%s, op %d, v%d) == \"%s\"\n", i,
				strerror(cases[i].err), (int)cases[i].op, cases[i].version,
				r ? r : "(null)");
			check_failures++;
		}
	}
	/* -errno as common/ returns it means the same */
	CHECK_STR(cg_explain(-EBUSY, CG_OP_RMDIR, 2), cg_explain(EBUSY, CG_OP_RMDIR, 2));
	CHECK_STR(cg_explain(-EACCES, CG_OP_MKDIR, 1), cg_explain(EACCES, CG_OP_MKDIR, 1));

	/* the diagnostic: strerror, then the rule in parentheses; the returned value is -errno */
	CHECK_INT(cg_diag_fail(&d, EBUSY, CG_OP_RMDIR, 2, "/a", "unified", "rmdir"), -EBUSY);
	CHECK_STR(d.why,
		  "Device or resource busy (the cgroup still has processes or child cgroups)");
	CHECK_STR(
		cg_diag_format(&d, line, sizeof(line)),
		"cgroup /a (unified): rmdir: Device or resource busy (the cgroup still has processes or child cgroups)");
	CHECK_INT(cg_diag_fail(&d, -EIO, CG_OP_WRITE, 1, "/b", "pids", "write %s", "pids.max"),
		  -EIO);
	CHECK_STR(cg_diag_format(&d, line, sizeof(line)),
		  "cgroup /b (pids): write pids.max: Input/output error");
	CHECK_INT(cg_diag_fail(NULL, EPERM, CG_OP_KILL, 2, "/c", "unified", "kill"), -EPERM);
	return CHECK_DONE();
}
