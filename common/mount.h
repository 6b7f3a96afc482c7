/* SPDX-License-Identifier: MIT */
/* Where the cgroup hierarchies are: unified, legacy, hybrid, named, namespaced. */
#ifndef CGKIT_MOUNT_H
#define CGKIT_MOUNT_H

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

/* Parse mountinfo text only (no filesystem access): for unit tests and for cg_layout_load. */
int cg_layout_parse(const char *mountinfo, struct cg_layout **ret);
/*
 * Parse /proc/self/mountinfo ($CGKIT_MOUNTINFO overrides it, for fixture trees). The unified
 * controllers are read from its cgroup.controllers when first asked for (cg_hier_controllers).
 */
int cg_layout_load(struct cg_layout **ret);
void cg_layout_free(struct cg_layout *l);

enum cg_layout_kind cg_layout_kind(const struct cg_layout *l);
const char *cg_layout_kind_name(enum cg_layout_kind k);

/*
 * The hierarchy root, O_PATH, opened on first use: a tool works in one or two hierarchies of
 * the ten or so mounted, and opening them all cost every cgexec2 run ~40 us. -errno on failure,
 * -ESTALE when the mountpoint is gone (unmounted since the mount table was read).
 * Thread-safe: of two racing first opens one fd is kept.
 */
int cg_hier_fd(const struct cg_hier *h);
/*
 * The directory of the hierarchy's "/": h->dir once the namespace's root is found below a
 * mount from before the namespace, else the mountpoint (also when it was not found: cg_hier_fd
 * says so). Thread-safe, as cg_hier_fd.
 */
const char *cg_hier_dir(const struct cg_hier *h);
/* h->nsbase once looked for: the namespace's root below the mountpoint, or NULL */
const char *cg_hier_nsbase(const struct cg_hier *h);
/* cg_open_beneath(PATH) below the hierarchy root */
int cg_hier_open(const struct cg_hier *h, const char *path, int flags);

/*
 * The controllers of h; for the unified hierarchy of cg_layout_load, cgroup.controllers is read
 * on the first call (a missing or unreadable file: none). Thread-safe, as cg_hier_fd.
 */
char *const *cg_hier_controllers(const struct cg_hier *h);
bool cg_hier_has(const struct cg_hier *h, const char *controller);
/*
 * The hierarchy serving a controller ("cpu", "name=systemd"): a v1 hierarchy that has it
 * mounted, else the unified one when its cgroup.controllers offers it. NULL when neither.
 */
struct cg_hier *cg_layout_find(const struct cg_layout *l, const char *controller);

/*
 * "/proc/PID/cgroup" text -> this hierarchy's cgroup path relative to h->dir ("" for its
 * root): the mount's root, or the cgroup namespace's when the mount reaches above it (the
 * kernel prints both relative to the reader's namespace root). -ENOENT when the line is
 * missing or outside the mount, -EREMOTE when the cgroup is outside the namespace's root
 * ("/../x": CG_NS_RULE says why it cannot be used).
 */
int cg_proc_cgroup_parse(const char *text, const struct cg_hier *h, char **ret);

/*
 * How many levels above this process's cgroup namespace root a mountinfo root is: "/.." is 1,
 * "/../.." 2; 0 for "/" or a root below the namespace's ("/x", a bind of a subtree); -EREMOTE
 * for a root in another branch ("/../x"), from which the namespace's root cannot be reached.
 */
int cg_root_levels_up(const char *root);

/* The kernel's controller list in /proc/cgroups that are enabled and not bound to any v1 mount. */
enum cg_mount_mode {
	CG_MOUNT_UNIFIED,
	CG_MOUNT_HYBRID,
	CG_MOUNT_LEGACY,
};
/*
 * Mount the cgroup filesystems at /sys/fs/cgroup when nothing is mounted (early boot).
 * -EEXIST when a cgroup filesystem is already mounted: nothing is changed then.
 * verbose_cb, when set, hears each mount made.
 */
int cg_mount_setup(enum cg_mount_mode mode, void (*verbose_cb)(const char *what));

/* pid's (tid's) cgroup in h, relative to the mountpoint ("" for its root), or -errno. */
int cg_pid_cgroup(const struct cg_hier *h, pid_t pid, pid_t tid, char **ret);

#endif
