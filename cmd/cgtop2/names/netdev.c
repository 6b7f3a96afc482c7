// SPDX-License-Identifier: MIT
/*
 * A cgroup's network namespace and its interfaces' counters, for cgtop2's network families
 * (cAdvisor's container_network_*): no cgroup file counts a cgroup's traffic, but a member's
 * /proc/PID/net/dev counts its namespace's, which is the container's when it has one of its
 * own. A cgroup whose member is in the host's namespace has none (the host's interfaces are
 * node_exporter's). Each namespace's file is read once an exposition, however many cgroups
 * share it (a pod's containers share their sandbox's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cleanup.h"
#include "base/kparse.h"
#include "kernel/file.h"
#include "kernel/mount.h"
#include "kernel/proc.h"
#include "netdev.h"

static const struct cg_layout *layout;
static uint64_t host_ns;
/* this exposition's namespaces, read at their first ask (a node has a few hundred at most) */
static struct cg_net_ns *seen;
static size_t n_seen;

/* A membership listing is read this far: its first pid is the one asked for. */
#define MEMBERS_READ_MAX 4096

static int ns_of(const char *proc_path, uint64_t *ret)
{
	struct stat st;

	if (stat(proc_path, &st) < 0)
		return -errno;
	*ret = (uint64_t)st.st_ino;
	return 0;
}

int cg_net_init(const struct cg_layout *l)
{
	uint64_t ns;
	/* PID 1's is the host's as cgtop2 sees it; inside a container of its own, its own */
	int r = ns_of("/proc/1/ns/net", &ns);

	if (r < 0 && (r = ns_of("/proc/self/ns/net", &ns)) < 0)
		return r;
	cg_net_done();
	host_ns = ns;
	layout = l;
	return 0;
}

void cg_net_refresh(void)
{
	for (size_t i = 0; i < n_seen; i++)
		free(seen[i].ifs);
	free(seen);
	seen = NULL;
	n_seen = 0;
}

void cg_net_done(void)
{
	cg_net_refresh();
	layout = NULL;
}

/* The first member of path on hierarchy h: 0, -ENOENT where h lacks the cgroup, -ESRCH empty. */
static int first_member(const struct cg_hier *h, const char *path, pid_t *ret)
{
	const struct cg_read_bound bound = { .max_len = MEMBERS_READ_MAX };
	_cleanup_free_ char *file = NULL;
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	bool cut = false;
	int fd = cg_hier_fd(h), r;

	if (fd < 0)
		return -ENOENT;
	while (*path == '/')
		path++;
	if (asprintf(&file, "%s%scgroup.procs", path, *path ? "/" : "") < 0) {
		file = NULL;
		return -ENOMEM;
	}
	r = cg_members_read_at(fd, file, CG_MEMBERS_LAX, &bound, &pids, &n, &cut);
	if (r < 0)
		return r == -ENOENT ? -ENOENT : -ESRCH;
	if (!n)
		return -ESRCH;
	*ret = pids[0];
	return 0;
}

int cg_net_member(const char *path, struct cg_net_member *ret)
{
	char proc[64], stat[CG_TASK_STAT_SIZE];
	pid_t pid = 0;
	int r = -ENOENT;

	if (!layout)
		return -ENOENT;
	/* the unified hierarchy first; a cgroup only v1 hierarchies have (a cgroupfs driver's) next */
	if (layout->unified)
		r = first_member(layout->unified, path, &pid);
	for (size_t i = 0; r == -ENOENT && i < layout->n; i++)
		if (&layout->hier[i] != layout->unified)
			r = first_member(&layout->hier[i], path, &pid);
	if (r < 0)
		return -ENOENT;
	snprintf(proc, sizeof(proc), "/proc/%d/ns/net", (int)pid);
	if (ns_of(proc, &ret->ns) < 0 || ret->ns == host_ns)
		return -ENOENT;
	if (cg_task_stat(pid, 0, stat, sizeof(stat)) < 0 ||
	    cg_kparse_proc_starttime(stat, &ret->start) < 0)
		return -ENOENT;
	ret->pid = pid;
	return 0;
}

const struct cg_net_ns *cg_net_counters(const struct cg_net_member *m)
{
	_cleanup_free_ char *text = NULL;
	struct cg_net_ns ns = { .ns = m->ns }, *t;
	char path[64];

	for (size_t i = 0; i < n_seen; i++)
		if (seen[i].ns == m->ns)
			return seen[i].ifs ? &seen[i] : NULL;
	snprintf(path, sizeof(path), "/proc/%d/net/dev", (int)m->pid);
	/* a namespace that cannot be read is noted too: it is not tried again this exposition */
	if (cg_proc_read_all(path, &text) < 0 || cg_kparse_net_dev(text, &ns.ifs, &ns.n) < 0)
		ns = (struct cg_net_ns){ .ns = m->ns };
	t = realloc(seen, (n_seen + 1) * sizeof(*seen));
	if (!t) {
		free(ns.ifs);
		return NULL;
	}
	seen = t;
	seen[n_seen] = ns;
	return seen[n_seen++].ifs ? &seen[n_seen - 1] : NULL;
}
