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

struct hier_walk {
	const struct cg_hier *h;
	cg_walk_fn fn;
	void *ctx;
};

static int hier_step(int rootfd, const char *path, int depth, void *ctx)
{
	struct hier_walk *w = ctx;

	return w->fn(w->h, path, depth, w->ctx);
}

int cg_walk_bounded(const struct cg_hier *h, const char *path, unsigned flags,
		    const struct cg_walk_budget *b, cg_walk_fn fn, void *ctx)
{
	struct hier_walk w = { .h = h, .fn = fn, .ctx = ctx };
	int fd = cg_hier_fd(h);

	return fd < 0 ? fd : cg_walk_fd(fd, path, flags, b, hier_step, &w);
}

int cg_walk(const struct cg_hier *h, const char *path, unsigned flags, cg_walk_fn fn, void *ctx)
{
	return cg_walk_bounded(h, path, flags, NULL, fn, ctx);
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
