/* SPDX-License-Identifier: MIT */
/* Who is in charge of a cgroup: a running systemd's units, a subtree they delegated, or nobody. */
#ifndef CGKIT_OWNER_H
#define CGKIT_OWNER_H

#include <stdbool.h>

#include "base/error.h"
#include "kernel/spec.h"

enum cg_owner_kind {
	CG_OWNER_NONE, /* no systemd runs here (PID 1 is something else) */
	CG_OWNER_OUTSIDE, /* systemd runs, but no unit's cgroup is on the path (e.g. /x at the root) */
	CG_OWNER_SYSTEMD, /* inside a unit's cgroup (slice, service, scope) that is not delegated */
	CG_OWNER_DELEGATED, /* at or below a unit whose cgroup carries a delegation mark */
};

struct cg_owner {
	enum cg_owner_kind kind;
	/* the innermost unit on the path, its cgroup ("/system.slice/a.service"); "" for none */
	char unit[256];
	char unit_cgroup[512];
	/* the cgroup's path below the unit's: "" or "/a/b" */
	char below[512];
	/* the mark that delegates it: "trusted.delegate" or "user.delegate"; "" for none */
	char mark[32];
	/* a nested manager (user@UID.service) owns the path below a delegated unit */
	bool user_manager;
};

/*
 * Is a systemd the system's service manager: /run/systemd/system is a directory (sd_booted's
 * rule). $CGKIT_SYSTEMD_RUNTIME names another directory instead (fixture trees).
 */
bool cg_systemd_running(void);

/* "a.service", "b.slice", "c.scope": a name systemd gives a unit's cgroup. */
bool cg_owner_is_unit_name(const char *name, size_t len);

/*
 * The owner of t's cgroup, which need not exist: the innermost component of the hierarchy's
 * path (mount root + t->path) named like a unit decides; an existing cgroup of that unit
 * with a true "trusted.delegate" or "user.delegate" extended attribute delegates all below it.
 * Components that do not exist carry no mark. Returns 0; -errno only for a path too long.
 */
int cg_owner_get(const struct cg_target *t, struct cg_owner *ret);

/*
 * Is t a delegated scope's own cgroup (cgcreate2 --scope's), which stopping the scope empties
 * and removes? true with ret filled; false for anything else, or when it cannot tell.
 */
bool cg_owner_scope_root(const struct cg_target *t, struct cg_owner *ret);

/* "not systemd's", "systemd's (unit a.service, not delegated)", ... for -v, into buf */
const char *cg_owner_describe(const struct cg_owner *o, char *buf, size_t size);

#endif
