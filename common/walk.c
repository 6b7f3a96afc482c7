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
#include "parse.h"
#include "strv.h"

int cg_read_pids(const struct cg_hier *h, const char *path, bool threads, pid_t **ret,
		 size_t *ret_n)
{
	_cleanup_close_ int fd = cg_open_dir(h, path);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ pid_t *v = NULL;
	size_t n = 0, cap = 0;
	char *save = NULL;
	const char *file =
		threads ? (h->version == 2 ? "cgroup.threads" : "tasks") : "cgroup.procs";
	int r;

	if (fd < 0)
		return fd;
	r = cg_read_at(fd, file, &text);
	if (r < 0)
		return r;
	for (char *t = strtok_r(text, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
		pid_t pid;

		if (cg_parse_pid(t, &pid) < 0)
			continue;
		if (n == cap) {
			pid_t *nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(pid_t));
			if (!nv)
				return -ENOMEM;
			v = nv;
		}
		v[n++] = pid;
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
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
	int r = cg_read_pids(h, path, false, &pids, &n);

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
