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

#include "base/kfile.h"
#include "base/cleanup.h"
#include "kernel/file.h"
#include "base/strv.h"

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
		r = cg_read_at(fd, cg_kf_name(CG_KF_CGROUP_EVENTS), &ev);
		if (r < 0)
			return r;
		p = strstr(ev, "populated ");
		return p && p[10] == '1';
	}
	/* v1 has no populated flag: the first cgroup of the subtree that lists a process */
	r = cg_walk(h, path, 0, has_members, NULL);
	return r == CG_WALK_STOP ? 1 : r;
}
