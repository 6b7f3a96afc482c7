// SPDX-License-Identifier: MIT
/* A hierarchy seen from this process's cgroup namespace, and which cgroup a process is in. */
#include "nsroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "file.h"
#include "kparse.h"
#include "proc.h"

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

	return cg_read_at(dfd, "cgroup.events", &text) == 0 && cg_stats_parse_populated(text) == 0;
}

/*
 * Below dfd, up levels down, the directory whose self/cgroup.procs lists pid: the namespace's
 * root, as its path (rel, of size PATH_MAX, filled from len on). 1 when found, 0 when not,
 * -E2BIG when the budget of directories ran out.
 */
static int ns_search(int dfd, int up, const char *self, pid_t pid, int version, char *rel,
		     size_t len, size_t *budget)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *e;
	int fd;

	if (up == 0)
		return lists_pid(dfd, self, pid);
	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while ((e = readdir(dir))) {
		_cleanup_close_ int cfd = -1;
		size_t n = strlen(e->d_name);
		int r;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!(*budget)--)
			return -E2BIG;
		if (len + 1 + n >= PATH_MAX)
			continue;
		cfd = openat(dirfd(dir), e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0 || (version == 2 && unpopulated(cfd)))
			continue;
		rel[len] = len ? '/' : '\0';
		memcpy(rel + len + !!len, e->d_name, n + 1);
		r = ns_search(cfd, up - 1, self, pid, version, rel, len + !!len + n, budget);
		if (r != 0)
			return r;
		rel[len] = '\0';
	}
	return 0;
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
	_cleanup_free_ char *self_cgroups = NULL, *self = NULL, *rel = NULL;
	_cleanup_close_ int mfd = -1;
	size_t budget = NS_SEARCH_MAX;
	int up = cg_kparse_root_levels_up(h->root), r;

	h->ns_error = -EREMOTE;
	if (up <= 0)
		return 0;
	r = cg_task_cgroups(getpid(), 0, &self_cgroups);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	r = cg_kparse_proc_cgroup(self_cgroups, h, &self);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	rel = calloc(1, PATH_MAX);
	if (!rel)
		return -ENOMEM;
	mfd = open(h->mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return 0;
	r = ns_search(mfd, up, self, getpid(), h->version, rel, 0, &budget);
	if (r <= 0)
		return 0;
	h->nsbase = strdup(rel);
	if (!h->nsbase || asprintf(&h->dir, "%s/%s", h->mountpoint, rel) < 0) {
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
