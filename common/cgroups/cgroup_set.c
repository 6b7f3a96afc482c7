// SPDX-License-Identifier: MIT
/*
 * A cgroup's values: which files are settings (not membership, freezing, killing or the tree's
 * shape), FILE=VALUE in the one vocabulary planned for a hierarchy, checked, and written with
 * the old value journaled (cgroup.c's journal, below).
 */
#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "vocab/cpu.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "kernel/spec.h"
#include "vocab/vocab.h"
#include "vocab/relative.h"

#define disp cg_path_display

const char *cg_setting_refused(const char *file)
{
	if (cg_is_membership_file(file))
		return "a membership file: processes are placed with cgexec2 and moved with cgmigrate";
	if (!strcmp(file, "cgroup.freeze") || !strcmp(file, "freezer.state"))
		return "it freezes the cgroup, and whatever is in or joins a frozen cgroup stops (cgmigrate --freeze freezes for a move and always thaws)";
	if (!strcmp(file, "cgroup.kill"))
		return "it kills every process in the subtree (cgcreate2 -x -k stops and removes a cgroup)";
	if (!strcmp(file, "cgroup.type"))
		return "threaded subtrees are made with cgcreate2 -T (threaded rule: a process can no longer join a threaded cgroup through cgroup.procs)";
	if (!strcmp(file, "cgroup.subtree_control"))
		return "controllers are enabled with cgcreate2 -e, which enables them top-down and undoes what it enabled on failure";
	if (!strcmp(file, "release_agent") || !strcmp(file, "notify_on_release") ||
	    !strcmp(file, "cgroup.clone_children"))
		return "a hierarchy-wide v1 knob, not one cgroup's";
	return NULL;
}

char *cg_file_controller(const char *file)
{
	const char *dot = strchr(file, '.');

	if (!dot || dot == file || !strncmp(file, "cgroup.", 7) || !strcmp(file, "tasks") ||
	    !strcmp(file, "notify_on_release") || !strcmp(file, "release_agent"))
		return NULL;
	/* cpuacct.*, cpuset.*, memory.* ... the controller is the prefix */
	return strndup(file, (size_t)(dot - file));
}

/* FILE=VALUE as the files to write on this hierarchy (1 or 2), or -errno with d filled. */
static int plan_setting(const struct cg_hier *h, const char *where, const char *file,
			const char *value, const struct cg_vocab_ctx *ctx,
			struct cg_setting out[CG_SETTINGS_MAX], size_t *ret_n, struct cg_diag *d)
{
	char dev[sizeof(out[0].value)], abs[sizeof(out[0].value)];
	const char *why_not;
	int r;

	if (!cg_name_is_plain(file))
		return cg_diag_say(d, EINVAL, where, h->label, "set",
				   "'%s' is not an interface file name (no '/' allowed)", file);
	why_not = cg_setting_refused(file);
	if (why_not)
		return cg_diag_say(d, EINVAL, where, h->label, "set", "%s is not a setting: %s",
				   file, why_not);
	/* "memory.max=50%": absolute before any translation, the same bytes on v1 and v2 */
	r = cg_relative_resolve(file, value, abs, sizeof(abs), d);
	if (r < 0)
		return cg_diag_place(d, r, where, h->label);
	if (r == 0)
		value = abs;
	r = cg_cpu_translate(h->version, file, value, out, ret_n, d);
	if (r == 1 && (!strcmp(file, "io.max") || !strcmp(file, "io.weight"))) {
		r = cg_vocab_device(value, dev, sizeof(dev));
		if (r == -ENODEV)
			return cg_diag_say(
				d, ENODEV, where, h->label, "set",
				"%s=%s: no block device %.*s on this system (/sys/dev/block): %s needs an existing block device, as MAJ:MIN or a /dev path",
				file, value, (int)strcspn(value, " "), value, file);
		if (r < 0)
			return cg_diag_say(
				d, -r, where, h->label, "set",
				"%s=%s: the device is not a block device's MAJ:MIN or /dev path",
				file, value);
		value = dev;
		r = 1;
	}
	if (r == 1)
		r = cg_vocab_translate(h->version, file, value, ctx, out, ret_n, d);
	if (r < 0)
		return cg_diag_place(d, r, where, h->label);
	if (r == 1) {
		/* cg_cpu_translate has refused a v1 name on v2 already */
		if (strlen(file) >= sizeof(out[0].file) || strlen(value) >= sizeof(out[0].value))
			return cg_diag_say(d, EINVAL, where, h->label, "set", "%s=%s is too long",
					   file, value);
		snprintf(out[0].file, sizeof(out[0].file), "%s", file);
		snprintf(out[0].value, sizeof(out[0].value), "%s", value);
		*ret_n = 1;
	}
	return 0;
}

/*
 * FILE=VALUE planned for path's cgroup (where: its name for messages), and with want_fd the
 * cgroup opened: the fd (want_fd), 0 (planned only), or -errno with d filled.
 */
static int plan_for(const struct cg_hier *h, const char *path, const char *file, const char *value,
		    bool want_fd, bool writing, struct cg_setting out[CG_SETTINGS_MAX],
		    size_t *ret_n, char *where, size_t size, struct cg_diag *d)
{
	struct cg_vocab_ctx ctx = { .memory_limit = UINT64_MAX };
	_cleanup_close_ int fd = -1;
	int r;

	disp(path, where, size);
	if (!want_fd)
		/* no cgroup to look at yet: the value is checked, not what it adds up to */
		return plan_setting(h, where, file, value, NULL, out, ret_n, d);
	fd = cg_open_dir(h, path);
	if (fd < 0)
		return cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, where, h->label, "open");
	if (!writing) {
		/* before any -r is written, memory.max=1G may still come before memory.swap.max */
		r = plan_setting(h, where, file, value, NULL, out, ret_n, d);
		return r < 0 ? r : TAKE_FD(fd);
	}
	if (h->version == 1 && !strcmp(file, "memory.swap.max")) {
		/* v1 counts memory plus swap: the limit as it is now, written earlier by -r */
		_cleanup_free_ char *limit = NULL;
		int64_t v;

		if (cg_read_at(fd, "memory.limit_in_bytes", &limit) == 0 &&
		    cg_parse_i64(limit, 0, INT64_MAX, &v) == 0 && v < (INT64_MAX & ~4095LL))
			ctx.memory_limit = (uint64_t)v;
	}
	r = plan_setting(h, where, file, value, &ctx, out, ret_n, d);
	return r < 0 ? r : TAKE_FD(fd);
}

int cg_set_check(const struct cg_hier *h, const char *path, const char *file, const char *value,
		 bool made, struct cg_diag *d)
{
	struct cg_setting out[CG_SETTINGS_MAX];
	size_t n = 0;
	char buf[PATH_MAX + 2];
	int r = plan_for(h, path, file, value, made, false, out, &n, buf, sizeof(buf), d);
	_cleanup_close_ int fd = -1;

	/* not made yet: its files are checked once it is (0 is no fd here, never stdin) */
	if (r < 0 || !made)
		return r;
	fd = r;
	for (size_t i = 0; i < n; i++) {
		/* opening for writing writes nothing: it proves the file is there to take it */
		_cleanup_close_ int wfd = cg_open_beneath(fd, out[i].file, O_WRONLY, 0);

		if (wfd < 0)
			return cg_diag_fail(d, -wfd, CG_OP_WRITE, h->version, buf, h->label,
					    "write %s \"%s\"", out[i].file, out[i].value);
	}
	return 0;
}

int cg_set_undoable(const struct cg_hier *h, const char *path, const char *file, const char *value,
		    struct cg_journal *j, char *written, size_t wlen, struct cg_diag *d)
{
	struct cg_setting out[CG_SETTINGS_MAX];
	size_t n = 0, len = 0;
	char buf[PATH_MAX + 2];
	_cleanup_close_ int fd =
		plan_for(h, path, file, value, true, true, out, &n, buf, sizeof(buf), d);
	int r;

	if (fd < 0)
		return fd;
	if (written && wlen)
		written[0] = 0;
	/* what was written, when it is not FILE=VALUE as given: for -v */
	for (size_t i = 0; written && i < n; i++)
		if (n > 1 || strcmp(out[i].file, file) || strcmp(out[i].value, value))
			len += (size_t)snprintf(written + len, len < wlen ? wlen - len : 0,
						"%s%s=%s", i ? ", " : "", out[i].file,
						out[i].value);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *old = NULL;

		/*
		 * What was there, so that a later failure of this call can put it back; not
		 * for a cgroup this call made, which a rollback removes anyway.
		 */
		if (j && !cg_journal_made(j, h, path) && cg_read_at(fd, out[i].file, &old) == 0 &&
		    (r = cg_journal_add(j, CG_UNDO_WRITE, h, path, out[i].file, old)) < 0)
			return r;
		/*
		 * A write of zero bytes reaches no parser and "succeeds" having set nothing;
		 * a lone newline is the kernel's empty value (cpuset.cpus takes it, pids.max
		 * refuses it), so the answer is the kernel's.
		 */
		r = cg_write_at(fd, out[i].file, out[i].value[0] ? out[i].value : "\n");
		if (r < 0)
			return cg_diag_fail(d, -r, CG_OP_WRITE, h->version, buf, h->label,
					    "write %s \"%s\"", out[i].file, out[i].value);
	}
	return 0;
}

int cg_set(const struct cg_hier *h, const char *path, const char *file, const char *value,
	   struct cg_diag *d)
{
	return cg_set_undoable(h, path, file, value, NULL, NULL, 0, d);
}
