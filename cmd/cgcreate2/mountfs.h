/* SPDX-License-Identifier: MIT */
/* cgcreate2 --mount: the cgroup filesystems mounted at /sys/fs/cgroup in early boot. */
#ifndef CGKIT_MOUNTFS_H
#define CGKIT_MOUNTFS_H

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

#endif
