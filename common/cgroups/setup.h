/* SPDX-License-Identifier: MIT */
/*
 * One plan for making cgroups, shared by cgcreate2 and cgexec2 -t: -r settings routed to the
 * hierarchy of their controller, then create -> enable -> threaded -> check every setting ->
 * write them -> owners, every step journaled so that a failure takes the call back.
 */
#ifndef CGKIT_SETUP_H
#define CGKIT_SETUP_H

#include <stdbool.h>

#include "cgroup.h"
#include "base/error.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "kernel/spec.h"

/*
 * Route -r FILE among the call's targets, touching nothing: a file of a controller goes to
 * the target in the hierarchy serving that controller (on v2 the controller is recorded in
 * that target's controllers, to be enabled); a core file (cgroup.*) goes to the unified target
 * when the call has one, else to every v1 target. With grow, a controller's hierarchy that
 * no target is in joins the targets at its root (cgexec2 -t without -g: the transient cgroup
 * is then made there). Refused with EINVAL, before any cgroup is touched: a name with '/',
 * membership files and control files (cg_setting_refused); with ENOENT: no target in the
 * controller's hierarchy, or the controller is not mounted.
 */
int cg_setup_route(const struct cg_layout *l, struct cg_targets *ts, const char *file, bool grow,
		   struct cg_diag *d);
/* cg_setup_route for each file of set (may be NULL), in order: 0 or the first -errno. */
int cg_setup_route_all(const struct cg_layout *l, struct cg_targets *ts,
		       const struct cg_assignments *set, bool grow, struct cg_diag *d);
/* Whether target i of ts takes -r FILE (after cg_setup_route). */
bool cg_setup_applies(const struct cg_targets *ts, size_t i, const char *file);

enum cg_setup_step {
	CG_SETUP_CREATED, /* path made */
	CG_SETUP_ENABLED, /* arg enabled in path's cgroup.subtree_control */
	CG_SETUP_THREADED, /* path made threaded */
	CG_SETUP_SET, /* arg=value written */
	CG_SETUP_OWNED, /* owner and modes set (-a -t -d -f -s) */
	CG_SETUP_DELEGATED,
};
struct cg_setup_event {
	enum cg_setup_step what;
	const struct cg_hier *hier;
	const char *path, *arg, *value;
	const char *written; /* CG_SETUP_SET: the files really written when translated, or "" */
};

struct cg_setup_opts {
	bool parents; /* missing ancestors are made, an existing cgroup is fine */
	bool threaded; /* v2 targets become threaded (cg_threaded_setup) */
	bool lock; /* serialise with other calls per hierarchy (cg_hier_lock) */
	char *const *enable; /* more controllers for every v2 target */
	const struct cg_assignments *set; /* routed with cg_setup_route first */
	const struct cg_perm *perm; /* NULL: owners left alone */
	bool delegate;
	uid_t d_uid;
	gid_t d_gid;
	void (*on_step)(const struct cg_setup_event *e, void *ctx); /* -v; may be NULL */
	void *ctx;
};

/*
 * Make every target as o says. Every setting is checked (translation, and that its file is
 * there) before any is written. What it did is in j. On failure (-errno, d filled) all of it
 * is undone (rmdir, disable, old values written back) before it returns, under the lock; d
 * says so when some of it could not be.
 */
int cg_setup_apply(const struct cg_layout *l, struct cg_targets *ts, const struct cg_setup_opts *o,
		   struct cg_journal *j, struct cg_diag *d);

#endif
