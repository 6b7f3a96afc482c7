// SPDX-License-Identifier: MIT
/*
 * Cgroup lifecycle: create, enable controllers, own, delegate, and the undo journal (values:
 * cgroup_set.c, above it; the members' listing: walk.c).
 */
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

#include "base/cleanup.h"
#include "vocab/cpu.h"
#include "vocab/vocab.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "kernel/spec.h"
#include "base/strv.h"

#define disp cg_path_display

int cg_journal_add(struct cg_journal *j, enum cg_undo_kind kind, const struct cg_hier *h,
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

bool cg_journal_made(const struct cg_journal *j, const struct cg_hier *h, const char *path)
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
		r = cg_journal_add(j, CG_UNDO_RMDIR, h, path, NULL, NULL);
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
			r = cg_journal_add(j, CG_UNDO_DISABLE, h, sofar, *k, NULL);
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

bool cg_is_membership_file(const char *file)
{
	return !strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads") ||
	       !strcmp(file, "tasks");
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
	int r, dfd;

	disp(path, buf, sizeof(buf));
	if (fd < 0)
		return cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, buf, h->label, "open");
	if ((r = chown_one(fd, "", p->a_uid, p->a_gid)) < 0)
		return cg_diag_fail(d, -r, CG_OP_CHOWN, h->version, buf, h->label, "chown");
	if (p->has_dmode && fchmod(fd, p->dmode) < 0)
		return cg_diag_fail(d, errno, CG_OP_CHOWN, h->version, buf, h->label, "chmod");
	/* the directory stream takes an fd of its own, close-on-exec as every fd of cgkit */
	dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	dir = dfd < 0 ? NULL : fdopendir(dfd);
	if (!dir) {
		r = errno;
		if (dfd >= 0)
			close(dfd);
		return cg_diag_fail(d, r, CG_OP_OPEN, h->version, buf, h->label, "opendir");
	}
	while ((e = readdir(dir))) {
		bool member;

		if (e->d_type != DT_REG)
			continue;
		member = cg_is_membership_file(e->d_name);
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
