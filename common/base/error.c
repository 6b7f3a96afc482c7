// SPDX-License-Identifier: MIT
/* errno -> explanation in cgroup terms, and the diagnostic a failed operation leaves behind. */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

const char *cg_explain(int err, enum cg_op op, int version)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case EBUSY:
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return version == 2
				       ? "no-internal-process rule: the cgroup has controllers enabled in cgroup.subtree_control, so processes may only live in its leaf children"
				       : "the kernel refused the move (a realtime task may need cpu.rt_runtime_us in the target)";
		if (op == CG_OP_SUBTREE)
			return "no-internal-process rule: a cgroup with processes of its own cannot enable controllers for its children (move the processes into a leaf first), or a child still uses the controller being disabled";
		if (op == CG_OP_RMDIR)
			return "the cgroup still has processes or child cgroups";
		if (op == CG_OP_TYPE)
			return "threaded rule: the cgroup cannot become threaded while it has controllers enabled that are not threaded-capable, or processes";
		return NULL;
	case EOPNOTSUPP:
		if (op == CG_OP_ATTACH)
			return "threaded rule: the target is domain invalid (a domain cgroup inside a threaded subtree): make it threaded (cgcreate2 -T) or move the process into the subtree's threaded domain";
		if (op == CG_OP_ATTACH_THREAD)
			return "threaded rule: threads can only move between cgroups of the same threaded subtree of their process (make the target threaded with cgcreate2 -T)";
		if (op == CG_OP_SUBTREE)
			return "threaded rule: only threaded controllers (cpu, cpuset, perf_event, pids) can be enabled in a threaded subtree, and the cgroup must not be domain invalid";
		if (op == CG_OP_TYPE || op == CG_OP_MKDIR)
			return "threaded rule: a domain cgroup cannot be created under a threaded one, and a cgroup becomes threaded only if its parent can be a threaded domain";
		return NULL;
	case ENOENT:
		if (op == CG_OP_WRITE || op == CG_OP_READ || op == CG_OP_OPEN)
			return version == 1
				       ? "no such interface file in this hierarchy: its controller is bound to another v1 hierarchy, or the kernel lacks the feature (memsw files: swap accounting; blkio.bfq.*: the BFQ scheduler on a device)"
				       : "no such interface file: its controller is not enabled in the parent's cgroup.subtree_control, or the kernel was built without it";
		if (op == CG_OP_SUBTREE)
			return "the controller is not available here: the parent does not enable it, or it is bound to a v1 hierarchy";
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return "the cgroup does not exist";
		return NULL;
	case ESRCH:
		return "no such process or thread";
	case EACCES:
	case EPERM:
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return "delegation rule: the writer must own cgroup.procs of the target and of the common ancestor of source and target (see cgcreate2 -D)";
		if (op == CG_OP_MKDIR || op == CG_OP_RMDIR)
			return "delegation rule: the parent cgroup directory must be owned by the caller (see cgcreate2 -D)";
		if (op == CG_OP_SUBTREE)
			return "delegation rule: cgroup.subtree_control must be owned by the caller";
		if (op == CG_OP_KILL)
			return "no permission to signal the process";
		/*
		 * The delegatee's usual surprise: -D hands over the membership and subtree files
		 * only, so the limits of the delegated cgroup itself stay with whoever delegated it.
		 */
		return "permission denied by the owner or mode of the cgroup file (delegation rule: a delegated cgroup's own limits stay its delegator's; the delegatee sets those of the cgroups it creates below it)";
	case EINVAL:
		if (op == CG_OP_WRITE)
			return "the kernel rejected the value for this file";
		if (op == CG_OP_TYPE)
			return "threaded rule: the parent cannot become a threaded domain (it has domain children or is itself domain invalid)";
		if (op == CG_OP_ATTACH_THREAD && version == 2)
			return "threaded rule: the target is not threaded";
		return NULL;
	case ENODEV:
		/* io.max and blkio's files answer a device the kernel lacks with ENODEV too */
		if (op == CG_OP_WRITE)
			return "the cgroup was removed meanwhile, or the block device the value names is gone";
		return "the cgroup was removed meanwhile";
	case ESTALE:
		return "the hierarchy's mount point is gone: unmounted since the mount table was read";
	case EREMOTE:
		return CG_NS_RULE
			"; a mount that reaches above that root (mountinfo root /..) is used from it, and where this process cannot find it below the mount (it was moved out of it), mount the hierarchy again inside the namespace";
	case EROFS:
		/* the mount, not the file's mode: a container runtime's usual way to say "hands off" */
		return "the cgroup filesystem is mounted read-only here, as a container runtime mounts it for a container that may not change its cgroups: it can be read, nothing can be made, set or moved through it";
	case ENOSPC:
		return "cgroup.max.descendants or cgroup.max.depth of an ancestor is reached";
	case EAGAIN:
		if (op == CG_OP_ATTACH || op == CG_OP_ATTACH_THREAD)
			return "pids.max of the target is reached";
		/* what cgroup_mkdir() returns for these limits, not ENOSPC */
		if (op == CG_OP_MKDIR)
			return "cgroup.max.descendants or cgroup.max.depth of the parent or an ancestor is reached";
		return NULL;
	case ENXIO:
		return "not a cgroup filesystem: the file is not on cgroupfs (is something mounted over the cgroup?), refusing to use it";
	case EMEDIUMTYPE:
		return "not a regular file: a FIFO, socket or device where a cgroup interface file should be, refusing to use it";
	case ELOOP:
		return "the path goes through a symbolic link";
	case EXDEV:
		return "the path leaves the cgroup mount or crosses a mount point: what is mounted over the cgroup directory is not this hierarchy's cgroupfs";
	default:
		return NULL;
	}
}

/* Length of the printable UTF-8 character at s (1 to 4 bytes), or 0 when s[0] is to be escaped. */
static size_t printable_len(const unsigned char *s, size_t left)
{
	uint32_t c;
	size_t n = cg_utf8_decode(s, left, &c);

	/* C0, DEL; what is no character: a stray continuation byte, overlongs, surrogates */
	if (n == 1)
		return c >= 0x20 && c < 0x7f;
	if (!n)
		return 0;
	/* C1 controls (U+009B is CSI to some terminals), line breaks, bidirectional overrides */
	if (c < 0xa0 || c == 0x2028 || c == 0x2029 || c == 0x200e || c == 0x200f ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
		return 0;
	return n;
}

const char *cg_quote_n(const char *s, size_t n, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + (s ? n : 0);
	size_t w = 0, cut = 0, adv;

	if (!size)
		return buf;
	for (; p < end; p += adv) {
		char esc[8];
		const char *piece = esc;
		size_t len = printable_len(p, (size_t)(end - p));

		adv = len ? len : 1;
		if (len)
			piece = (const char *)p;
		else if (*p == '\n')
			piece = "\\n", len = 2;
		else if (*p == '\t')
			piece = "\\t", len = 2;
		else
			len = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", *p);
		if (w + len >= size) {
			/* back to the last piece after which "..." still fits */
			size_t dots = size - 1 - cut < 3 ? size - 1 - cut : 3;

			memcpy(buf + cut, "...", dots);
			buf[cut + dots] = '\0';
			return buf;
		}
		memcpy(buf + w, piece, len);
		w += len;
		if (w + 4 <= size)
			cut = w;
	}
	buf[w] = '\0';
	return buf;
}

const char *cg_quote(const char *s, char *buf, size_t size)
{
	return cg_quote_n(s, s ? strlen(s) : 0, buf, size);
}

/* A field of struct cg_diag from a format: quoted, and cut at its size with "...". */
static void set_field(char *field, size_t size, const char *fmt, va_list ap)
{
	char *raw = NULL;

	/* the whole text first: vsnprintf would cut silently, and maybe inside a character */
	if (vasprintf(&raw, fmt, ap) < 0) {
		snprintf(field, size, "%s", "(out of memory)");
		return;
	}
	cg_quote(raw, field, size);
	free(raw);
}

static void set_text(char *field, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_text(char *field, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_field(field, size, fmt, ap);
	va_end(ap);
}

int cg_diag_place(struct cg_diag *d, int err, const char *where, const char *hier)
{
	if (err < 0)
		err = -err;
	if (d) {
		cg_quote(where, d->where, sizeof(d->where));
		cg_quote(hier, d->hier, sizeof(d->hier));
	}
	return -err;
}

int cg_diag_fail(struct cg_diag *d, int err, enum cg_op op, int version, const char *where,
		 const char *hier, const char *what_fmt, ...)
{
	const char *rule;
	va_list ap;

	err = -cg_diag_place(d, err, where, hier);
	if (!d)
		return -err;
	va_start(ap, what_fmt);
	set_field(d->what, sizeof(d->what), what_fmt, ap);
	va_end(ap);
	rule = cg_explain(err, op, version);
	if (rule)
		set_text(d->why, sizeof(d->why), "%s (%s)", strerror(err), rule);
	else
		set_text(d->why, sizeof(d->why), "%s", strerror(err));
	return -err;
}

int cg_diag_say(struct cg_diag *d, int err, const char *where, const char *hier, const char *what,
		const char *why_fmt, ...)
{
	va_list ap;

	err = -cg_diag_place(d, err, where, hier);
	if (!d)
		return -err;
	cg_quote(what, d->what, sizeof(d->what));
	va_start(ap, why_fmt);
	set_field(d->why, sizeof(d->why), why_fmt, ap);
	va_end(ap);
	return -err;
}

const char *cg_diag_format(const struct cg_diag *d, char *buf, size_t size)
{
	/* room for every field whole, so that the one cut is cg_quote's, with its "..." */
	char line[sizeof(*d) + 32];

	if (d->hier[0])
		snprintf(line, sizeof(line), "cgroup %s (%s): %s: %s", d->where, d->hier, d->what,
			 d->why);
	else if (d->where[0] && d->what[0])
		snprintf(line, sizeof(line), "%s: %s: %s", d->where, d->what, d->why);
	else if (d->where[0])
		snprintf(line, sizeof(line), "%s: %s", d->where, d->why);
	else
		snprintf(line, sizeof(line), "%s: %s", d->what, d->why);
	return cg_quote(line, buf, size);
}
