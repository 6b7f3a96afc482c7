// SPDX-License-Identifier: MIT
/*
 * Reading a cgroup's members and walking its subtree (declared in cgroup.h): one listing of
 * each directory, children in name order, a cgroup removed meanwhile skipped, not failed.
 */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "file.h"
#include "strv.h"

const char *cg_membership_file(const struct cg_hier *h, bool thread)
{
	if (!thread)
		return "cgroup.procs";
	return h->version == 2 ? "cgroup.threads" : "tasks";
}

int cg_members_read(const struct cg_hier *h, const char *path, unsigned flags, pid_t **ret,
		    size_t *ret_n)
{
	return cg_members_read_bounded(h, path, flags, NULL, ret, ret_n, NULL);
}

int cg_members_read_bounded(const struct cg_hier *h, const char *path, unsigned flags,
			    const struct cg_read_bound *b, pid_t **ret, size_t *ret_n,
			    bool *ret_cut)
{
	_cleanup_close_ int dfd = cg_hier_open(h, path, O_PATH | O_DIRECTORY);

	if (dfd < 0)
		return dfd;
	return cg_members_read_at(dfd, cg_membership_file(h, flags & CG_MEMBERS_THREADS), flags, b,
				  ret, ret_n, ret_cut);
}

/* A cgroup removed under a walk: its directory is gone (ENOENT) or dead (ENODEV). */
bool cg_vanished(int r)
{
	return r == -ENOENT || r == -ENODEV;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the child cgroups in the directory fd (taken, closed), sorted; NULL-terminated. */
static int read_children(int fd, char ***ret)
{
	_cleanup_closedir_ DIR *dir = fdopendir(fd);
	_cleanup_strv_free_ char **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	if (!dir) {
		int r = -errno;

		close(fd);
		return r;
	}
	for (;;) {
		errno = 0;
		e = readdir(dir);
		if (!e) {
			if (errno)
				return -errno;
			break;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type == DT_UNKNOWN) {
			struct stat st;

			/* a filesystem without d_type (a test's fixture tree); gone is skipped */
			if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISDIR(st.st_mode))
				continue;
		} else if (e->d_type != DT_DIR) {
			continue;
		}
		/* grown by doubling: a cgroup with 10,000 children is a benchmark's case */
		if (n + 1 >= cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(char *));

			if (!nv)
				return -ENOMEM;
			v = nv;
		}
		v[n] = strdup(e->d_name);
		v[n + 1] = NULL;
		if (!v[n])
			return -ENOMEM;
		n++;
	}
	if (!v && !(v = calloc(1, sizeof(char *))))
		return -ENOMEM;
	qsort(v, n, sizeof(char *), cmp_name);
	*ret = TAKE_PTR(v);
	return 0;
}

static int walk_at(const struct cg_hier *h, const char *path, int depth, unsigned flags,
		   cg_walk_fn fn, void *ctx)
{
	_cleanup_strv_free_ char **kids = NULL;
	int fd = cg_hier_open(h, path, O_RDONLY | O_DIRECTORY);
	int r;

	if (fd < 0)
		return depth && cg_vanished(fd) ? 0 : fd;
	if (!(flags & CG_WALK_POST)) {
		r = fn(h, path, depth, ctx);
		if (r > 0 || (r < 0 && depth && cg_vanished(r))) {
			close(fd);
			return 0;
		}
		if (r < 0) {
			close(fd);
			return r;
		}
	}
	r = read_children(fd, &kids);
	/* removed since it was opened: no children; fn, called or still to be, finds it gone */
	if (r < 0 && !cg_vanished(r))
		return r;
	for (char **k = kids; k && *k; k++) {
		_cleanup_free_ char *sub = cg_path_join(path, *k);

		if (!sub)
			return -ENOMEM;
		r = walk_at(h, sub, depth + 1, flags, fn, ctx);
		if (r < 0)
			return r;
	}
	if (flags & CG_WALK_POST) {
		r = fn(h, path, depth, ctx);
		if (r < 0 && !(depth && cg_vanished(r)))
			return r;
	}
	return 0;
}

int cg_walk(const struct cg_hier *h, const char *path, unsigned flags, cg_walk_fn fn, void *ctx)
{
	return walk_at(h, path, 0, flags, fn, ctx);
}

static int first_child(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	return depth ? CG_WALK_STOP : 0;
}

int cg_has_children(const struct cg_hier *h, const char *path)
{
	int r = cg_walk(h, path, 0, first_child, NULL);

	return r == CG_WALK_STOP ? 1 : r;
}

static int has_members(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r = cg_members_read(h, path, CG_MEMBERS_LAX, &pids, &n);

	return r < 0 ? r : n ? CG_WALK_STOP : 0;
}

int cg_populated(const struct cg_hier *h, const char *path)
{
	int r;

	if (h->version == 2) {
		_cleanup_close_ int fd = cg_open_dir(h, path);
		_cleanup_free_ char *ev = NULL;
		char *p;

		if (fd < 0)
			return fd;
		r = cg_read_at(fd, "cgroup.events", &ev);
		if (r < 0)
			return r;
		p = strstr(ev, "populated ");
		return p && p[10] == '1';
	}
	/* v1 has no populated flag: the first cgroup of the subtree that lists a process */
	r = cg_walk(h, path, 0, has_members, NULL);
	return r == CG_WALK_STOP ? 1 : r;
}
