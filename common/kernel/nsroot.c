// SPDX-License-Identifier: MIT
/* A hierarchy seen from this process's cgroup namespace, and which cgroup a process is in. */
#include "nsroot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/kfile.h"
#include "base/cleanup.h"
#include "file.h"
#include "base/kparse.h"
#include "proc.h"
#include "subtree.h"

/* Searching a machine's whole tree for the namespace's root is a bug: stop well before. */
#define NS_SEARCH_MAX 100000

/* Is pid listed in dfd/path/cgroup.procs? */
static bool lists_pid(int dfd, const char *path, pid_t pid)
{
	_cleanup_free_ char *file = NULL;
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;

	if (asprintf(&file, "%s%scgroup.procs", path, *path ? "/" : "") < 0)
		return false;
	if (cg_members_read_at(dfd, file, CG_MEMBERS_LAX, NULL, &pids, &n, NULL) < 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/* cgroup2 prunes by populated: every ancestor of this process's cgroup has "populated 1" */
static bool unpopulated(int dfd)
{
	_cleanup_free_ char *text = NULL;

	return cg_read_at(dfd, cg_kf_name(CG_KF_CGROUP_EVENTS), &text) == 0 &&
	       cg_kparse_populated(text) == 0;
}

struct ns_walk {
	int up;
	const char *self;
	pid_t pid;
	int version;
	char *found; /* the namespace's root, relative to the mountpoint */
};

/*
 * A candidate for the namespace's root, up levels below the mountpoint: the directory whose
 * self/cgroup.procs lists pid. On cgroup2 an unpopulated subtree is passed by (every ancestor of
 * this process's cgroup is populated).
 */
static int ns_candidate(int mfd, const char *path, int depth, void *ctx)
{
	struct ns_walk *w = ctx;
	_cleanup_close_ int fd = -1;

	if (depth == 0)
		return 0;
	fd = cg_open_beneath(mfd, path, O_PATH | O_DIRECTORY, 0);
	/* what cannot be read holds nothing this search can tell: passed by, not an error */
	if (fd < 0 || (w->version == 2 && unpopulated(fd)))
		return CG_WALK_PRUNE;
	if (depth < w->up)
		return 0;
	if (!lists_pid(fd, w->self, w->pid))
		return CG_WALK_PRUNE;
	w->found = strdup(path);
	return w->found ? CG_WALK_STOP : -ENOMEM;
}

/*
 * A mount from before this process's cgroup namespace (mountinfo root "/..", once a level
 * above the namespace's root): /proc/PID/cgroup names cgroups from the namespace's root, and
 * so do the tools, so h->dir becomes that root below the mount. Neither table names the
 * levels in between; the root is the cgroup, that many levels down, below which this process
 * is where its own /proc/self/cgroup says. The search reads one cgroup.procs per candidate and
 * on cgroup2 skips unpopulated subtrees. Not found: h->ns_error, reported at use.
 */
static int ns_locate(struct cg_hier *h)
{
	const struct cg_walk_budget b = { .max_depth = cg_kparse_root_levels_up(h->root),
					  .max_entries = NS_SEARCH_MAX };
	_cleanup_free_ char *self_cgroups = NULL, *self = NULL;
	struct ns_walk w = { .up = b.max_depth, .pid = getpid(), .version = h->version };
	_cleanup_close_ int mfd = -1;
	int r;

	h->ns_error = -EREMOTE;
	if (w.up <= 0)
		return 0;
	r = cg_task_cgroups(w.pid, 0, &self_cgroups);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	r = cg_kparse_proc_cgroup(self_cgroups, h, &self);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	w.self = self;
	mfd = open(h->mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return 0;
	/* not found, out of budget (-E2BIG), unreadable: the same "not found", h->ns_error */
	r = cg_walk_fd(mfd, "", CG_WALK_KEEP_GOING, &b, ns_candidate, &w);
	if (r == -ENOMEM)
		return r;
	if (r != CG_WALK_STOP)
		return 0;
	h->nsbase = TAKE_PTR(w.found);
	if (asprintf(&h->dir, "%s/%s", h->mountpoint, h->nsbase) < 0) {
		h->dir = NULL;
		return -ENOMEM;
	}
	h->ns_error = 0;
	return 0;
}

/*
 * The search of ns_locate on a hierarchy's first use. Like cg_hier_fd's cache, a write through
 * a const hierarchy (every cg_hier is a modifiable object); the mutex lets one thread search
 * while the others wait, and the flag's release orders the fields before it for them.
 */
static void ns_resolve(const struct cg_hier *ch)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct cg_hier *h = (struct cg_hier *)ch;

	if (!atomic_load(&h->ns_pending))
		return;
	pthread_mutex_lock(&lock);
	if (atomic_load(&h->ns_pending)) {
		int r = ns_locate(h);

		if (r < 0)
			h->ns_error = r;
		atomic_store(&h->ns_pending, false);
	}
	pthread_mutex_unlock(&lock);
}

const char *cg_hier_dir(const struct cg_hier *h)
{
	ns_resolve(h);
	return h->dir ? h->dir : h->mountpoint;
}

const char *cg_hier_nsbase(const struct cg_hier *h)
{
	ns_resolve(h);
	return h->nsbase;
}

int cg_pid_cgroup(const struct cg_hier *h, pid_t pid, pid_t tid, char **ret)
{
	_cleanup_free_ char *text = NULL;
	int r = cg_task_cgroups(pid, tid, &text);

	return r < 0 ? r : cg_kparse_proc_cgroup(text, h, ret);
}
