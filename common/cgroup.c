// SPDX-License-Identifier: MIT
/* Cgroup lifecycle: create, enable controllers, set values, own, delegate (the walker: walk.c). */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "cpu.h"
#include "vocab.h"
#include "file.h"
#include "parse.h"
#include "spec.h"
#include "strv.h"

const char *cg_path_display(const char *path, char *buf, size_t size)
{
	snprintf(buf, size, "/%s", path);
	return buf;
}

#define disp cg_path_display

/* arg: the controller (CG_UNDO_DISABLE) or the file (CG_UNDO_WRITE); value: its old content */
static int journal_add(struct cg_journal *j, enum cg_undo_kind kind, const struct cg_hier *h,
		       const char *path, const char *arg, const char *value)
{
	struct cg_undo *nu;

	if (!j)
		return 0;
	nu = realloc(j->u, (j->n + 1) * sizeof(*nu));
	if (!nu)
		return -ENOMEM;
	j->u = nu;
	nu[j->n] = (struct cg_undo){ .kind = kind, .hier = h };
	nu[j->n].path = strdup(path);
	nu[j->n].controller = arg ? strdup(arg) : NULL;
	nu[j->n].value = value ? strdup(value) : NULL;
	if (!nu[j->n].path || (arg && !nu[j->n].controller) || (value && !nu[j->n].value)) {
		free(nu[j->n].path);
		free(nu[j->n].controller);
		free(nu[j->n].value);
		return -ENOMEM;
	}
	j->n++;
	return 0;
}

static bool journal_made(const struct cg_journal *j, const struct cg_hier *h, const char *path)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->u[i].kind == CG_UNDO_RMDIR && j->u[i].hier == h &&
		    !strcmp(j->u[i].path, path))
			return true;
	return false;
}

void cg_journal_clear(struct cg_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->u[i].path);
		free(j->u[i].controller);
		free(j->u[i].value);
	}
	free(j->u);
	j->u = NULL;
	j->n = 0;
}

int cg_journal_rollback(struct cg_journal *j)
{
	int first = 0;

	for (size_t i = j->n; i-- > 0;) {
		struct cg_undo *u = &j->u[i];
		int r;

		if (u->kind == CG_UNDO_RMDIR) {
			r = cg_rmdir(u->hier, u->path);
		} else if (u->kind == CG_UNDO_WRITE) {
			_cleanup_close_ int fd = cg_open_dir(u->hier, u->path);

			r = fd < 0 ? fd : cg_write_at(fd, u->controller, u->value);
		} else {
			_cleanup_close_ int fd = cg_open_dir(u->hier, u->path);
			char v[80];

			snprintf(v, sizeof(v), "-%s", u->controller);
			r = fd < 0 ? fd : cg_write_at(fd, "cgroup.subtree_control", v);
		}
		if (r < 0 && !first)
			first = r;
	}
	cg_journal_clear(j);
	return first;
}

int cg_open_dir(const struct cg_hier *h, const char *path)
{
	return cg_hier_open(h, path, O_PATH | O_DIRECTORY);
}

/* Split "a/b/c" into the parent's fd (beneath the mount, verified cgroupfs) and "c". */
static int open_parent(const struct cg_hier *h, const char *path, const char **ret_name)
{
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *parent = slash ? strndup(path, (size_t)(slash - path)) : strdup("");
	_cleanup_close_ int fd = -1;
	int r;

	if (!parent)
		return -ENOMEM;
	*ret_name = slash ? slash + 1 : path;
	/*
	 * Not cg_name_is_plain: that is the rule for names a user types. A delegatee can mkdir
	 * names with control characters, and those must still be removable; paths reach here
	 * normalized (specs) or straight from readdir.
	 */
	if (!**ret_name || !strcmp(*ret_name, ".") || !strcmp(*ret_name, ".."))
		return -EINVAL;
	fd = cg_open_dir(h, parent);
	if (fd < 0)
		return fd;
	r = cg_fd_check_cgroupfs(fd);
	if (r < 0)
		return r;
	return TAKE_FD(fd);
}

int cg_rmdir(const struct cg_hier *h, const char *path)
{
	const char *name;
	_cleanup_close_ int pfd = -1;

	if (!*path)
		return -EBUSY; /* the hierarchy root is never removed */
	pfd = open_parent(h, path, &name);
	if (pfd < 0)
		return pfd;
	return unlinkat(pfd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}

/* v1 cpuset starts a new cgroup with no CPUs and no memory nodes, so no task could join. */
static int cpuset_inherit(const struct cg_hier *h, const char *path, const char *parent)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
	_cleanup_close_ int cfd = cg_open_dir(h, path), pfd = cg_open_dir(h, parent);

	if (cfd < 0 || pfd < 0)
		return cfd < 0 ? cfd : pfd;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *mine = NULL, *theirs = NULL;
		int r;

		if (cg_read_at(cfd, files[i], &mine) < 0 || (mine[0] && mine[0] != '\n'))
			continue;
		r = cg_read_at(pfd, files[i], &theirs);
		if (r < 0)
			return r;
		if (theirs[0] && theirs[0] != '\n' && (r = cg_write_at(cfd, files[i], theirs)) < 0)
			return r;
	}
	return 0;
}

void cg_parent_cache_clear(struct cg_parent_cache *pc)
{
	if (pc->fd >= 0)
		close(pc->fd);
	free(pc->path);
	*pc = (struct cg_parent_cache)CG_PARENT_CACHE_INIT;
}

/* The parent of path, opened and checked as open_parent does, or pc's when it is the same. */
static int cached_parent(const struct cg_hier *h, const char *path, struct cg_parent_cache *pc,
			 const char **ret_name)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;
	int fd;

	if (pc->fd >= 0 && pc->h == h && strlen(pc->path) == len && !strncmp(pc->path, path, len)) {
		*ret_name = slash ? slash + 1 : path;
		if (!**ret_name || !strcmp(*ret_name, ".") || !strcmp(*ret_name, ".."))
			return -EINVAL;
		return pc->fd;
	}
	fd = open_parent(h, path, ret_name);
	if (fd < 0)
		return fd;
	cg_parent_cache_clear(pc);
	pc->path = strndup(path, len);
	if (!pc->path) {
		close(fd);
		return -ENOMEM;
	}
	pc->h = h;
	pc->fd = fd;
	return fd;
}

/* Why the parent of path cannot be opened: the first ancestor that is missing or closed. */
static int explain_parent(const struct cg_hier *h, const char *path, int r, struct cg_diag *d)
{
	_cleanup_free_ char *copy = strdup(path), *sofar = strdup("");
	char buf[PATH_MAX + 2], *save = NULL;

	if (!copy || !sofar)
		return -ENOMEM;
	for (char *c = strtok_r(copy, "/", &save); c && save && *save;
	     c = strtok_r(NULL, "/", &save)) {
		_cleanup_free_ char *next = cg_path_join(sofar, c);
		_cleanup_close_ int afd = next ? cg_open_dir(h, next) : -ENOMEM;

		if (afd == -ENOENT)
			return cg_diag_say(d, ENOENT, disp(next, buf, sizeof(buf)), h->label,
					   "mkdir",
					   "the parent cgroup does not exist (-p creates it)");
		/* there or not, it cannot be looked at: that is the reason, not absence */
		if (afd < 0)
			return afd == -ENOMEM ? afd
					      : cg_diag_fail(d, -afd, CG_OP_MKDIR, h->version,
							     disp(next, buf, sizeof(buf)), h->label,
							     "mkdir");
		free(sofar);
		sofar = TAKE_PTR(next);
	}
	return cg_diag_fail(d, -r, CG_OP_MKDIR, h->version, disp(path, buf, sizeof(buf)), h->label,
			    "mkdir");
}

/* mkdir one cgroup whose parent exists; exists_ok: -EEXIST is fine (and not journaled). */
static int make_one(const struct cg_hier *h, const char *path, const char *parent, bool exists_ok,
		    struct cg_parent_cache *pc, struct cg_journal *j, struct cg_diag *d)
{
	char buf[PATH_MAX + 2];
	const char *name;
	int pfd = cached_parent(h, path, pc, &name), r;

	if (pfd == -ENOMEM)
		return pfd;
	if (pfd < 0)
		return cg_diag_fail(d, -pfd, CG_OP_MKDIR, h->version, disp(path, buf, sizeof(buf)),
				    h->label, "mkdir");
	if (mkdirat(pfd, name, 0755) < 0) {
		r = -errno;
		if (r != -EEXIST || !exists_ok)
			return cg_diag_fail(d, -r, CG_OP_MKDIR, h->version,
					    disp(path, buf, sizeof(buf)), h->label, "mkdir");
	} else {
		r = journal_add(j, CG_UNDO_RMDIR, h, path, NULL, NULL);
		if (r < 0)
			return r;
	}
	/*
	 * Also for a cgroup that existed: one made by a call that died (or was not yet seeded by a
	 * concurrent one) before it copied the parent's sets is repaired here; cpuset_inherit
	 * writes only into an empty set.
	 */
	if (h->version == 1 && cg_hier_has(h, "cpuset") &&
	    (r = cpuset_inherit(h, path, parent)) < 0)
		return cg_diag_fail(d, -r, CG_OP_WRITE, h->version, disp(path, buf, sizeof(buf)),
				    h->label, "copy cpuset.cpus/mems from the parent");
	return 0;
}

int cg_create(const struct cg_hier *h, const char *path, bool parents, struct cg_parent_cache *pc,
	      struct cg_journal *j, struct cg_diag *d)
{
	_cleanup_(cg_parent_cache_clear) struct cg_parent_cache local = CG_PARENT_CACHE_INIT;
	_cleanup_free_ char *sofar = strdup(""), *copy = strdup(path);
	char *save = NULL;
	int r;

	if (!sofar || !copy)
		return -ENOMEM;
	if (!pc)
		pc = &local;
	if (!*path)
		return parents ? 0
			       : cg_diag_fail(d, EEXIST, CG_OP_MKDIR, h->version, "/", h->label,
					      "mkdir");
	if (!parents) {
		/* one open of the parent (none for a sibling of the last one), one mkdirat */
		const char *slash = strrchr(path, '/');
		_cleanup_free_ char *parent = strndup(path, slash ? (size_t)(slash - path) : 0);
		const char *name;

		if (!parent)
			return -ENOMEM;
		r = cached_parent(h, path, pc, &name);
		if (r < 0 && r != -ENOMEM && r != -EINVAL)
			return explain_parent(h, path, r, d);
		/* from pc now; or it says what failed */
		return make_one(h, path, parent, false, pc, j, d);
	}
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		_cleanup_free_ char *next = cg_path_join(sofar, c);

		if (!next)
			return -ENOMEM;
		r = make_one(h, next, sofar, true, pc, j, d);
		if (r < 0)
			return r;
		free(sofar);
		sofar = TAKE_PTR(next);
	}
	return 0;
}

int cg_enable(const struct cg_hier *h, const char *path, char *const *ctrls, struct cg_journal *j,
	      struct cg_diag *d)
{
	_cleanup_free_ char *copy = strdup(path), *sofar = strdup("");
	char buf[PATH_MAX + 2], *save = NULL, *c;
	int r;

	if (!copy || !sofar)
		return -ENOMEM;
	if (h->version != 2 || !ctrls || !*ctrls)
		return 0;
	for (char *const *k = ctrls; *k; k++)
		if (!cg_hier_has(h, *k))
			return cg_diag_say(
				d, ENOENT, disp(path, buf, sizeof(buf)), h->label, "enable",
				"controller '%s' is not available in the unified hierarchy at %s (it is bound to a v1 hierarchy or not built into the kernel)",
				*k, h->mountpoint);
	/* walk root -> parent(path); each level enables what the next one down needs */
	c = strtok_r(copy, "/", &save);
	while (c) {
		_cleanup_close_ int fd = cg_open_dir(h, sofar);
		_cleanup_free_ char *cur = NULL, *next = NULL;
		_cleanup_strv_free_ char **on = NULL;

		if (fd < 0)
			return cg_diag_fail(d, -fd, CG_OP_SUBTREE, 2, disp(sofar, buf, sizeof(buf)),
					    h->label, "open");
		r = cg_read_at(fd, "cgroup.subtree_control", &cur);
		if (r < 0)
			return cg_diag_fail(d, -r, CG_OP_SUBTREE, 2, disp(sofar, buf, sizeof(buf)),
					    h->label, "read cgroup.subtree_control");
		on = cg_strv_split(cur, " \n");
		if (!on)
			return -ENOMEM;
		for (char *const *k = ctrls; *k; k++) {
			char v[80];

			if (cg_strv_contains(on, *k))
				continue;
			snprintf(v, sizeof(v), "+%s", *k);
			r = cg_write_at(fd, "cgroup.subtree_control", v);
			if (r < 0)
				return cg_diag_fail(d, -r, CG_OP_SUBTREE, 2,
						    disp(sofar, buf, sizeof(buf)), h->label,
						    "enable %s in cgroup.subtree_control", v);
			r = journal_add(j, CG_UNDO_DISABLE, h, sofar, *k, NULL);
			if (r < 0)
				return r;
		}
		next = cg_path_join(sofar, c);
		if (!next)
			return -ENOMEM;
		free(sofar);
		sofar = TAKE_PTR(next);
		c = strtok_r(NULL, "/", &save);
	}
	return 0;
}

static bool is_membership_file(const char *file)
{
	return !strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads") ||
	       !strcmp(file, "tasks");
}

const char *cg_setting_refused(const char *file)
{
	if (is_membership_file(file))
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
	char dev[sizeof(out[0].value)];
	const char *why_not;
	int r;

	if (!cg_name_is_plain(file))
		return cg_diag_say(d, EINVAL, where, h->label, "set",
				   "'%s' is not an interface file name (no '/' allowed)", file);
	why_not = cg_setting_refused(file);
	if (why_not)
		return cg_diag_say(d, EINVAL, where, h->label, "set", "%s is not a setting: %s",
				   file, why_not);
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
		if (j && !journal_made(j, h, path) && cg_read_at(fd, out[i].file, &old) == 0 &&
		    (r = journal_add(j, CG_UNDO_WRITE, h, path, out[i].file, old)) < 0)
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

int cg_hier_lock(const struct cg_hier *h)
{
	_cleanup_close_ int fd = cg_hier_open(h, "", O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return fd;
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return -errno;
	return TAKE_FD(fd);
}

static int chown_one(int dfd, const char *name, uid_t uid, gid_t gid)
{
	if (uid == (uid_t)-1 && gid == (gid_t)-1)
		return 0;
	if (fchownat(dfd, name, uid, gid, *name ? AT_SYMLINK_NOFOLLOW : AT_EMPTY_PATH) < 0)
		return -errno;
	return 0;
}

/* A directory fd that may be read (for listing, fchmod) and that is on cgroupfs. */
static int open_cgroup_rdonly(const struct cg_hier *h, const char *path)
{
	_cleanup_close_ int fd = cg_hier_open(h, path, O_RDONLY | O_DIRECTORY);
	int r;

	if (fd < 0)
		return fd;
	r = cg_fd_check_cgroupfs(fd);
	return r < 0 ? r : TAKE_FD(fd);
}

int cg_apply_perm(const struct cg_hier *h, const char *path, const struct cg_perm *p,
		  struct cg_diag *d)
{
	_cleanup_close_ int fd = open_cgroup_rdonly(h, path);
	_cleanup_closedir_ DIR *dir = NULL;
	char buf[PATH_MAX + 2];
	struct dirent *e;
	int r;

	disp(path, buf, sizeof(buf));
	if (fd < 0)
		return cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, buf, h->label, "open");
	if ((r = chown_one(fd, "", p->a_uid, p->a_gid)) < 0)
		return cg_diag_fail(d, -r, CG_OP_CHOWN, h->version, buf, h->label, "chown");
	if (p->has_dmode && fchmod(fd, p->dmode) < 0)
		return cg_diag_fail(d, errno, CG_OP_CHOWN, h->version, buf, h->label, "chmod");
	dir = fdopendir(dup(fd));
	if (!dir)
		return cg_diag_fail(d, errno, CG_OP_OPEN, h->version, buf, h->label, "opendir");
	while ((e = readdir(dir))) {
		bool member;

		if (e->d_type != DT_REG)
			continue;
		member = is_membership_file(e->d_name);
		r = member ? chown_one(fd, e->d_name, p->t_uid, p->t_gid)
			   : chown_one(fd, e->d_name, p->a_uid, p->a_gid);
		if (r < 0)
			return cg_diag_fail(d, -r, CG_OP_CHOWN, h->version, buf, h->label,
					    "chown %s", e->d_name);
		if (member ? p->has_tmode : p->has_fmode) {
			if (fchmodat(fd, e->d_name, member ? p->tmode : p->fmode, 0) < 0)
				return cg_diag_fail(d, errno, CG_OP_CHOWN, h->version, buf,
						    h->label, "chmod %s", e->d_name);
		}
	}
	return 0;
}

int cg_delegate(const struct cg_hier *h, const char *path, uid_t uid, gid_t gid, struct cg_diag *d)
{
	static const char *const v1_files[] = { "tasks", "cgroup.procs" };
	_cleanup_close_ int fd = open_cgroup_rdonly(h, path);
	_cleanup_free_ char *list = NULL;
	_cleanup_strv_free_ char **files = NULL;
	char buf[PATH_MAX + 2];
	int r;

	disp(path, buf, sizeof(buf));
	if (fd < 0)
		return cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, buf, h->label, "open");
	if (h->version == 2) {
		/* the kernel publishes which files a delegatee must own */
		int kfd = open("/sys/kernel/cgroup/delegate", O_RDONLY | O_CLOEXEC);

		if (kfd >= 0) {
			r = cg_read_fd(kfd, &list, NULL);
			close(kfd);
			if (r < 0)
				list = NULL;
		}
		files = cg_strv_split(list ? list
					   : "cgroup.procs\ncgroup.threads\n"
					     "cgroup.subtree_control\n",
				      "\n");
	} else {
		files = calloc(ARRAY_SIZE(v1_files) + 1, sizeof(char *));
		for (size_t i = 0; files && i < ARRAY_SIZE(v1_files); i++)
			files[i] = strdup(v1_files[i]);
	}
	if (!files)
		return -ENOMEM;
	if ((r = chown_one(fd, "", uid, gid)) < 0)
		return cg_diag_fail(d, -r, CG_OP_CHOWN, h->version, buf, h->label, "chown");
	for (char **f = files; *f; f++) {
		r = chown_one(fd, *f, uid, gid);
		/* memory.reclaim and friends exist only where their controller is enabled */
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return cg_diag_fail(d, -r, CG_OP_CHOWN, h->version, buf, h->label,
					    "chown %s", *f);
	}
	return 0;
}
