/* SPDX-License-Identifier: MIT */
/* "CONTROLLERS:PATH" and bare "PATH" specs -> one target per hierarchy, confined to its mount. */
#ifndef CGKIT_SPEC_H
#define CGKIT_SPEC_H

#include "base/error.h"
#include "file.h"
#include "base/hash.h"
#include "mount.h"

struct cg_target {
	struct cg_hier *hier; /* borrowed from the layout */
	char *path; /* relative to the mountpoint, normalized: "a/b"; "" is the root */
	char **controllers; /* what the spec named on this hierarchy (v2: to be enabled) */
};

struct cg_targets {
	struct cg_target *t;
	size_t n;
	/* hierarchy+path -> 1 + position in t, so that merging stays linear */
	struct cg_pathmap index;
};

/*
 * Add the targets of one spec to acc (merging a repeated hierarchy+path).
 * Specs: "cpu,memory:/a/b", "name=systemd:a", "*:a", ":a" (libcgroup 3: the cgroup v2 hierarchy,
 * no controller), "a/b" (the unified hierarchy when one is mounted, else every v1 hierarchy). Rejects "..", control characters, unmounted
 * controllers and a path under a mount point ("/sys/fs/cgroup/pids/x": -EINVAL, the path inside
 * the hierarchy meant), with the reason in d. Returns 0 or -errno; acc is unchanged on failure.
 */
int cg_spec_parse(const struct cg_layout *l, const char *spec, struct cg_targets *acc,
		  struct cg_diag *d);
/*
 * cg_spec_parse with flags. CG_SPEC_TWINS: on a hybrid layout, a bare PATH names the cgroup in
 * the unified hierarchy and in every v1 hierarchy that has it (its twins), so that a process
 * joins, or a drain empties, all of them; elsewhere, and for "CONTROLLERS:PATH", nothing
 * changes. With CG_SPEC_NEAREST too (where a process goes, never a source), a hierarchy without
 * the cgroup but with one of its ancestors below the root gets the nearest such ancestor, so
 * that no limit set on the path is escaped. Twins are looked up on the live hierarchies.
 */
#define CG_SPEC_TWINS	1u
#define CG_SPEC_NEAREST 2u
int cg_spec_parse_flags(const struct cg_layout *l, const char *spec, unsigned flags,
			struct cg_targets *acc, struct cg_diag *d);
/*
 * A tool's -g list (NULL-terminated; NULL is none) parsed as cg_spec_parse_flags parses each
 * spec, in order, into acc: the one loop of cgcreate2, cgexec2 and cgmigrate. The first refused
 * spec ends it with its reason in d, and acc is then as it was: a request is taken whole or not
 * at all (running out of memory while merging may still leave part of it).
 */
int cg_specs_parse(const struct cg_layout *l, char *const *specs, unsigned flags,
		   struct cg_targets *acc, struct cg_diag *d);
void cg_targets_clear(struct cg_targets *t);

/*
 * Does path start above the hierarchy's root ("/../x")? /proc/PID/cgroup names so a cgroup
 * beyond the reader's cgroup namespace's root: refused with CG_NS_RULE, not as a bad path.
 */
bool cg_path_beyond_root(const char *path);

/*
 * Syntax only, no layout needed (for option parsing): 0, or -EINVAL / -ENAMETOOLONG. A path
 * beyond the root passes: cg_spec_parse refuses it with the rule.
 */
int cg_spec_check(const char *spec);

/* The path part of a spec: after a "CONTROLLERS:" (or libcgroup 3's empty ":") prefix, or all. */
const char *cg_spec_path(const char *spec);

/* "/a/b" for messages (static buffer per call site is the caller's: writes into buf). */
const char *cg_target_name(const struct cg_target *t, char *buf, size_t size);

#endif
