/* SPDX-License-Identifier: MIT */
/* What a cgroup hierarchy and a layout of them are: the types mount.c fills and nsroot.c reads. */
#ifndef CGKIT_HIER_H
#define CGKIT_HIER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cg_hier {
	int version; /* 1 or 2 */
	char *mountpoint; /* unescaped, absolute */
	char *root; /* the mount's root inside the hierarchy: "/" unless bind/namespace */
	/*
	 * Where the cgroups the tools name start, as a directory: the mountpoint, or when the
	 * mount reaches above this process's cgroup namespace (mountinfo root "/..", cgroup2 or a
	 * v1 hierarchy mounted before unshare(CLONE_NEWCGROUP)) the namespace's root below it, so
	 * that "/" is the namespace's root as /proc/self/cgroup says. Absolute, unescaped. Found
	 * on first use (cg_hier_fd, cg_hier_dir, cg_hier_nsbase), not at load: a tool uses one or
	 * two of the hierarchies, and the search reads the tree. NULL until then and for the
	 * mountpoint.
	 */
	char *dir;
	/* that root below the mountpoint ("cgkit-test.1"), or NULL when dir is the mountpoint */
	char *nsbase;
	/*
	 * -EREMOTE when the mount reaches above the namespace's root but that root was not found
	 * below it (cg_hier_fd returns it: cg_explain says why), else 0.
	 */
	int ns_error;
	/* the search is still to be made (cg_layout_load sets it; a mutex orders the first use) */
	_Atomic bool ns_pending;
	char *name; /* v1 "name=" hierarchy name, or NULL */
	/*
	 * NULL-terminated. v1: from the mount options; v2: cgroup.controllers, which
	 * cg_layout_load leaves unread (controllers_pending) until cg_hier_controllers() or
	 * cg_hier_has() asks: read it through them.
	 */
	char **controllers;
	char *label; /* for messages: "cpu,cpuacct", "name=systemd", "unified" */
	dev_t dev; /* several mounts of one hierarchy share it */
	/*
	 * O_PATH|O_DIRECTORY of mountpoint, -1 until cg_hier_fd() opens it: a cache, not part of
	 * what the hierarchy is, filled in through the const hierarchies callers hold (see
	 * cg_hier_fd). Atomic: threads may share a hierarchy.
	 */
	_Atomic int fd;
	_Atomic bool controllers_pending;
};

enum cg_layout_kind {
	CG_LAYOUT_NONE,
	CG_LAYOUT_UNIFIED,
	CG_LAYOUT_LEGACY,
	CG_LAYOUT_HYBRID,
};

struct cg_layout {
	struct cg_hier *hier;
	size_t n;
	struct cg_hier *unified; /* NULL when no cgroup2 is mounted */
};

#endif
