// SPDX-License-Identifier: MIT
/* Where cgexec2 runs its command: the targets, checked, and the transient cgroup made there. */
#include "place.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/file.h"
#include "cgroups/freeze.h"
#include "ops/launch.h"
#include "ops/rules.h"
#include "cgroups/setup.h"

static int check_exist(const struct cg_targets *t, bool transient, struct cg_diag *d)
{
	char where[PATH_MAX + 2];

	for (size_t i = 0; i < t->n; i++) {
		int fd = cg_open_dir(t->t[i].hier, t->t[i].path);

		if (fd >= 0) {
			close(fd);
			continue;
		}
		/* a mount that has gone, a permission: the kernel's reason, not "no such cgroup" */
		if (fd != -ENOENT)
			return cg_diag_fail(d, -fd, CG_OP_OPEN, t->t[i].hier->version,
					    cg_target_name(&t->t[i], where, sizeof(where)),
					    t->t[i].hier->label, "use");
		return cg_diag_say(d, ENOENT, cg_target_name(&t->t[i], where, sizeof(where)),
				   t->t[i].hier->label, "use",
				   "No such cgroup (cgexec2 %s; create it with cgcreate2%s)",
				   transient ? "makes the transient cgroup under an existing one"
					     : "runs COMMAND in existing cgroups",
				   transient ? "" : ", or use -t for a transient one");
	}
	return 0;
}

/*
 * Refuse frozen cgroups before anything is made or run there: a process placed in one stops
 * before its first instruction, and a transient cgroup made under one is frozen from birth.
 */
static int check_not_frozen(const struct cg_targets *t, bool parents, struct cg_diag *d)
{
	struct cg_diag f;

	if (cg_targets_frozen(t, &f) == 0)
		return 0;
	return cg_diag_say(d, EBUSY, f.where, f.hier, f.what,
			   "%s; %sCOMMAND would never run (thaw it first)", f.why,
			   parents ? "a transient cgroup under it would be frozen too, and " : "");
}

/* -t: the hierarchies the transient cgroup is made in, with -r routed to them */
static int route_transient(const struct cg_layout *l, const struct cg_place_opts *o,
			   struct cg_targets *t, struct cg_diag *d)
{
	bool by_set = !o->named && !l->unified && o->set && o->set->n;
	int r;

	if (!o->named && !by_set) {
		r = cg_spec_parse(l, "/", t, d);
		if (r < 0)
			return r;
	}
	r = cg_setup_route_all(l, t, o->set, !o->named, d);
	if (r < 0)
		return r;
	if (by_set && !t->n)
		return cg_spec_parse(l, "/", t, d);
	return 0;
}

int cg_place_targets(const struct cg_layout *l, const struct cg_place_opts *o, struct cg_targets *t,
		     struct cg_diag *d)
{
	int r = 0;

	if (o->transient) {
		r = route_transient(l, o, t, d);
	} else if (!o->named) {
		r = cg_rules_classify_command(l, getpid(), o->command, t, d);
		if (r == -ENOENT && d) {
			size_t n = strlen(d->why);

			snprintf(d->why + n, sizeof(d->why) - n,
				 "; name the cgroup with -g, or use -t");
		}
	}
	if (r == 0)
		r = cg_targets_check_placeable(t, d);
	if (r == 0)
		r = check_exist(t, o->transient, d);
	if (r == 0)
		r = check_not_frozen(t, o->transient, d);
	return r;
}

int cg_place_transient(const struct cg_layout *l, struct cg_targets *t, const char *name,
		       const struct cg_assignments *set, struct cg_journal *j, struct cg_diag *d)
{
	const struct cg_setup_opts o = { .set = set };
	int r;

	for (size_t i = 0; i < t->n; i++) {
		char *child = cg_path_join(t->t[i].path, name);

		if (!child)
			return -ENOMEM;
		free(t->t[i].path);
		t->t[i].path = child;
	}
	r = cg_setup_apply(l, t, &o, j, d);
	/* frozen since the check: a new cgroup inherits its parent's freeze */
	if (r == 0)
		r = check_not_frozen(t, false, d);
	return r;
}
