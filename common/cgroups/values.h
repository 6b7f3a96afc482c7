/* SPDX-License-Identifier: MIT */
/*
 * A cgroup's interface files read back by name, as libcgroup's cgget reads them: on the
 * hierarchy that has the file, or translated from the other vocabulary (cpu.weight from v1's
 * cpu.shares, cpu.shares from v2's cpu.weight) with the kernel's own text kept beside.
 */
#ifndef CGKIT_VALUES_H
#define CGKIT_VALUES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/hier.h"

struct cg_diag;

struct cg_value {
	const struct cg_hier *hier; /* where it was read */
	char *text; /* the value, its last newline taken off (translated: in the name asked) */
	/* translated: "cpu.shares: 300" (the files read, as they read), else NULL */
	char *from;
};

/*
 * FILE of the cgroup at path, looked for on the hierarchies hs (n of them, in order; those
 * serving FILE's controller first), then translated where the other vocabulary has it on one
 * of them. 0 with ret filled; -ENOENT (no such cgroup on any of hs: d says so), -ENODATA (no
 * such file there, nor a translation: d names the file), or -errno of a read, d filled.
 */
int cg_value_get(struct cg_hier *const *hs, size_t n, const char *path, const char *file,
		 struct cg_value *ret, struct cg_diag *d);
void cg_value_clear(struct cg_value *v);

/*
 * The readable interface files of path's cgroup on h, in the directory's order (cgget's): every
 * one whose name starts with "CTRL." for a controller in ctrls (NULL: every one). A
 * NULL-terminated vector, or -errno (-ENOENT: no such cgroup).
 */
int cg_value_files(const struct cg_hier *h, const char *path, char *const *ctrls, char ***ret);

/* Who owns a cgroup: its directory (cgcreate2 -a) and its cgroup.procs (-t), by number. */
struct cg_value_owners {
	unsigned a_uid, a_gid, t_uid, t_gid;
};
/* 0 with ret filled, or -errno (-ENOENT: no such cgroup) */
int cg_value_owners(const struct cg_hier *h, const char *path, struct cg_value_owners *ret);

#endif
