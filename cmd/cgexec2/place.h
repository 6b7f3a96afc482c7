/* SPDX-License-Identifier: MIT */
/* Where cgexec2 runs its command: the targets, checked, and the transient cgroup made there. */
#ifndef CGKIT_PLACE_H
#define CGKIT_PLACE_H

#include <stdbool.h>

#include "cgroups/cgroup.h"
#include "base/error.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "kernel/spec.h"

struct cg_place_opts {
	bool named; /* the targets hold -g's already */
	bool transient; /* -t: a transient cgroup is made under the targets */
	const struct cg_assignments *set; /* -r FILE=VALUE, routed for a transient cgroup */
	const char *command; /* COMMAND, for cgrules.conf when neither -g nor -t says where */
};

/*
 * The targets COMMAND runs in, into t (which holds -g's, if named), then checked: placeable
 * (cg_targets_check_placeable), existing, not frozen.
 * - transient without -g: "/" is the unified hierarchy, or every v1 one on a legacy system:
 *   there the -r files name the hierarchies needed and the transient cgroup is made in those
 *   alone; "/" is the fallback when they name none (core files only). -r is routed
 *   (cg_setup_route) either way.
 * - neither -g nor -t: libcgroup's rules for COMMAND say where, as for its cgexec; an ignore
 *   rule leaves t empty (COMMAND stays where the caller is).
 * Returns 0, or -errno with d filled.
 */
int cg_place_targets(const struct cg_layout *l, const struct cg_place_opts *o, struct cg_targets *t,
		     struct cg_diag *d);

/*
 * The transient cgroup NAME made under every target, enabled and set as -r asks (the journal
 * j undoes it); t then names it. Checked again for a freeze: a new cgroup inherits its parent's,
 * which may have come since cg_place_targets. 0, or -errno with d (the caller rolls j back).
 */
int cg_place_transient(const struct cg_layout *l, struct cg_targets *t, const char *name,
		       const struct cg_assignments *set, struct cg_journal *j, struct cg_diag *d);

#endif
