/* SPDX-License-Identifier: MIT */
/* A cgroup's network namespace and its interfaces' counters (netdev.c). */
#ifndef CGTOP2_NETDEV_H
#define CGTOP2_NETDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hier.h"
#include "base/kparse.h"

/* Where a cgroup's first member's network namespace is, and who that member is. */
struct cg_net_member {
	uint64_t ns; /* the namespace's inode (nsfs) */
	uint64_t start; /* the member's start time, clock ticks after boot */
	pid_t pid;
};

/* A namespace's interfaces, as /proc/PID/net/dev counts them. */
struct cg_net_ns {
	uint64_t ns;
	struct cg_net_if *ifs;
	size_t n;
};

/*
 * The host's namespace (PID 1's, else this process's) noted and the cgroups of layout l
 * (which must outlive the use) read from now on: 0, or -errno (no /proc).
 */
int cg_net_init(const struct cg_layout *l);
void cg_net_done(void);
/* A new exposition: each namespace's counters are read again at their first ask. */
void cg_net_refresh(void);
/*
 * The first member (lowest pid) of cgroup path ("/a/b", as a row names it) on the first
 * hierarchy holding the cgroup, unified first: 0, or -ENOENT when it has none, or its member
 * is in the host's namespace or gone, or cg_net_init was not called.
 */
int cg_net_member(const char *path, struct cg_net_member *ret);
/*
 * The interfaces of namespace m->ns, read through m->pid's /proc/PID/net/dev once an
 * exposition however many cgroups share it; NULL when it cannot be read. Valid until the
 * next cg_net_refresh.
 */
const struct cg_net_ns *cg_net_counters(const struct cg_net_member *m);

#endif
