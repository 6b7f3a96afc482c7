// SPDX-License-Identifier: MIT
/* errno -> explanation in cgroup terms, and the diagnostic a failed operation leaves behind. */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *cg_explain(int err, enum cg_op op, int version)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case EBUSY:
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return version == 2
				       ? "no-internal-process rule: the cgroup has controllers "
					 "enabled in cgroup.subtree_control, so processes may "
					 "only live in its leaf children"
				       : "the kernel refused the move (a realtime task may need "
					 "cpu.rt_runtime_us in the target)";
		if (op == CG_OP_SUBTREE)
			return "no-internal-process rule: a cgroup with processes of its own "
			       "cannot "
			       "enable controllers for its children (move the processes into a "
			       "leaf "
			       "first), or a child still uses the controller being disabled";
		if (op == CG_OP_RMDIR)
			return "the cgroup still has processes or child cgroups";
		if (op == CG_OP_TYPE)
			return "threaded rule: the cgroup cannot become threaded while it has "
			       "controllers enabled that are not threaded-capable, or processes";
		return NULL;
	case EOPNOTSUPP:
		if (op == CG_OP_ATTACH)
			return "threaded rule: the target is domain invalid (a domain cgroup "
			       "inside a "
			       "threaded subtree): make it threaded (cgcreate2 -T) or move the "
			       "process "
			       "into the subtree's threaded domain";
		if (op == CG_OP_ATTACH_THREAD)
			return "threaded rule: threads can only move between cgroups of the same "
			       "threaded subtree of their process (make the target threaded with "
			       "cgcreate2 -T)";
		if (op == CG_OP_SUBTREE)
			return "threaded rule: only threaded controllers (cpu, cpuset, perf_event, "
			       "pids) can be enabled in a threaded subtree, and the cgroup must "
			       "not "
			       "be domain invalid";
		if (op == CG_OP_TYPE || op == CG_OP_MKDIR)
			return "threaded rule: a domain cgroup cannot be created under a threaded "
			       "one, "
			       "and a cgroup becomes threaded only if its parent can be a threaded "
			       "domain";
		return NULL;
	case ENOENT:
		if (op == CG_OP_WRITE || op == CG_OP_READ || op == CG_OP_OPEN)
			return "no such interface file: its controller is not enabled in the "
			       "parent's "
			       "cgroup.subtree_control (v2), or not mounted on this hierarchy (v1)";
		if (op == CG_OP_SUBTREE)
			return "the controller is not available here: the parent does not enable "
			       "it, "
			       "or it is bound to a v1 hierarchy";
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return "the cgroup does not exist";
		return NULL;
	case ESRCH:
		return "no such process or thread";
	case EACCES:
	case EPERM:
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return "delegation rule: the writer must own cgroup.procs of the target "
			       "and of "
			       "the common ancestor of source and target (see cgcreate2 -D)";
		if (op == CG_OP_MKDIR || op == CG_OP_RMDIR)
			return "delegation rule: the parent cgroup directory must be owned by the "
			       "caller (see cgcreate2 -D)";
		if (op == CG_OP_SUBTREE)
			return "delegation rule: cgroup.subtree_control must be owned by the "
			       "caller";
		if (op == CG_OP_KILL)
			return "no permission to signal the process";
		return "permission denied by the owner or mode of the cgroup file";
	case EINVAL:
		if (op == CG_OP_WRITE)
			return "the kernel rejected the value for this file";
		if (op == CG_OP_TYPE)
			return "threaded rule: the parent cannot become a threaded domain (it has "
			       "domain children or is itself domain invalid)";
		if (op == CG_OP_ATTACH_THREAD && version == 2)
			return "threaded rule: the target is not threaded";
		return NULL;
	case ENODEV:
		return "the cgroup was removed meanwhile";
	case ESTALE:
		return "the hierarchy's mount point is gone: unmounted since the mount table was "
		       "read";
	case EROFS:
		return "the cgroup filesystem is mounted read-only";
	case ENOSPC:
		return "cgroup.max.descendants or cgroup.max.depth of an ancestor is reached";
	case EAGAIN:
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return "pids.max of the target is reached";
		return NULL;
	case ENXIO:
		return "not a cgroup filesystem: refusing to write outside the cgroup mount";
	case ELOOP:
	case EXDEV:
		return "the path leaves the cgroup mount or goes through a symbolic link";
	default:
		return NULL;
	}
}

int cg_diag_fail(struct cg_diag *d, int err, enum cg_op op, int version, const char *where,
		 const char *hier, const char *what_fmt, ...)
{
	const char *rule;
	va_list ap;

	if (err < 0)
		err = -err;
	if (!d)
		return -err;
	snprintf(d->where, sizeof(d->where), "%s", where ? where : "");
	snprintf(d->hier, sizeof(d->hier), "%s", hier ? hier : "");
	va_start(ap, what_fmt);
	vsnprintf(d->what, sizeof(d->what), what_fmt, ap);
	va_end(ap);
	rule = cg_explain(err, op, version);
	if (rule)
		snprintf(d->why, sizeof(d->why), "%s (%s)", strerror(err), rule);
	else
		snprintf(d->why, sizeof(d->why), "%s", strerror(err));
	return -err;
}

int cg_diag_say(struct cg_diag *d, int err, const char *where, const char *hier, const char *what,
		const char *why_fmt, ...)
{
	va_list ap;

	if (err < 0)
		err = -err;
	if (!d)
		return -err;
	snprintf(d->where, sizeof(d->where), "%s", where ? where : "");
	snprintf(d->hier, sizeof(d->hier), "%s", hier ? hier : "");
	snprintf(d->what, sizeof(d->what), "%s", what ? what : "");
	va_start(ap, why_fmt);
	vsnprintf(d->why, sizeof(d->why), why_fmt, ap);
	va_end(ap);
	return -err;
}

const char *cg_diag_format(const struct cg_diag *d, char *buf, size_t size)
{
	if (d->hier[0])
		snprintf(buf, size, "cgroup %s (%s): %s: %s", d->where, d->hier, d->what, d->why);
	else if (d->where[0] && d->what[0])
		snprintf(buf, size, "%s: %s: %s", d->where, d->what, d->why);
	else if (d->where[0])
		snprintf(buf, size, "%s: %s", d->where, d->why);
	else
		snprintf(buf, size, "%s: %s", d->what, d->why);
	return buf;
}
