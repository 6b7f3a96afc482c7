// SPDX-License-Identifier: MIT
/*
 * The one subtree walker, over a directory fd: one listing of each directory, children in name
 * order, a cgroup removed meanwhile skipped, not failed, within a budget. Beneath the
 * hierarchies (cg_walk puts a hierarchy's root fd under it) so that the namespace root's search,
 * which runs before a hierarchy has a root fd, walks with it too.
 */
#include "subtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "file.h"
#include "base/strv.h"

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

struct walk {
	int rootfd;
	unsigned flags;
	const struct cg_walk_budget *b;
	size_t entries;
	int first_err; /* CG_WALK_KEEP_GOING: the first error met, returned at the end */
	cg_walk_fd_fn fn;
	void *ctx;
};

/* An error of the cgroup at depth: the walk's end (<0), or with CG_WALK_KEEP_GOING noted (0). */
static int walk_error(struct walk *w, int depth, int r)
{
	if (depth && cg_vanished(r))
		return 0;
	if (!(w->flags & CG_WALK_KEEP_GOING) || r == CG_WALK_STOP || r == -ENOMEM)
		return r;
	if (!w->first_err)
		w->first_err = r;
	return 0;
}

static int walk_at(struct walk *w, const char *path, int depth)
{
	_cleanup_strv_free_ char **kids = NULL;
	int fd = cg_open_beneath(w->rootfd, path, O_RDONLY | O_DIRECTORY, 0);
	int r = 0;

	if (fd < 0)
		return depth ? walk_error(w, depth, fd) : fd;
	if (!(w->flags & CG_WALK_POST)) {
		r = w->fn(w->rootfd, path, depth, w->ctx);
		if (r > 0 || (r < 0 && depth && cg_vanished(r))) {
			close(fd);
			return 0;
		}
		if (r < 0 && (r = walk_error(w, depth, r)) < 0) {
			close(fd);
			return r;
		}
	}
	/* past the depth budget: not listed, so the walk goes no deeper */
	if (w->b && w->b->max_depth && depth >= w->b->max_depth) {
		close(fd);
	} else {
		r = read_children(fd, &kids);
		/* removed since it was opened: no children; fn, called or to be, finds it gone */
		if (r < 0 && !cg_vanished(r) && (r = walk_error(w, depth, r)) < 0)
			return r;
	}
	for (char **k = kids; k && *k; k++) {
		_cleanup_free_ char *sub = cg_path_join(path, *k);

		if (!sub)
			return -ENOMEM;
		/* counted before it is opened: a budget bounds the opens as well as the calls */
		if (w->b && w->b->max_entries && ++w->entries > w->b->max_entries)
			return -E2BIG;
		r = walk_at(w, sub, depth + 1);
		if (r < 0)
			return r;
	}
	if (w->flags & CG_WALK_POST) {
		r = w->fn(w->rootfd, path, depth, w->ctx);
		if (r < 0 && !(depth && cg_vanished(r)))
			return walk_error(w, depth, r);
	}
	return 0;
}

int cg_walk_fd(int rootfd, const char *path, unsigned flags, const struct cg_walk_budget *b,
	       cg_walk_fd_fn fn, void *ctx)
{
	struct walk w = { .rootfd = rootfd, .flags = flags, .b = b, .fn = fn, .ctx = ctx };
	int r = walk_at(&w, path, 0);

	return r < 0 ? r : w.first_err;
}
