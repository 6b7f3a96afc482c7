// SPDX-License-Identifier: MIT
/* The refusals every entrance shares before it acts on a cgroup: root, self, owner. */
#include "guard.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "kernel/nsroot.h"

static const struct {
	const char *op; /* the diagnostic's what */
	const char *self; /* what the act would do to the caller */
	unsigned rules;
} verbs[CG_GUARD_N] = {
	[CG_GUARD_FREEZE] = { "freeze", "it would freeze too",
			      CG_RULE_ROOT | CG_RULE_SELF | CG_RULE_OWNER },
	[CG_GUARD_SIGNAL] = { "signal", "it would be signalled too",
			      CG_RULE_ROOT | CG_RULE_SELF | CG_RULE_OWNER },
	[CG_GUARD_KILL] = { "kill", "it would be killed too",
			    CG_RULE_ROOT | CG_RULE_SELF | CG_RULE_OWNER },
	[CG_GUARD_SET] = { "set a limit", NULL, CG_RULE_ROOT | CG_RULE_OWNER },
	[CG_GUARD_MOVE] = { "move a process", NULL, CG_RULE_OWNER },
	[CG_GUARD_REMOVE] = { "remove", NULL, CG_RULE_ROOT | CG_RULE_SELF | CG_RULE_OWNER },
	[CG_GUARD_REMOVE_KILL] = { "remove", NULL, CG_RULE_ROOT | CG_RULE_SELF | CG_RULE_OWNER },
	/* the root's reclaim is the whole machine's: no one cgroup's action */
	[CG_GUARD_RECLAIM] = { "reclaim memory", NULL, CG_RULE_ROOT | CG_RULE_OWNER },
	[CG_GUARD_RESET] = { "reset a peak", NULL, CG_RULE_ROOT | CG_RULE_OWNER },
};

unsigned cg_guard_rules(enum cg_guard_verb v)
{
	return (unsigned)v < CG_GUARD_N ? verbs[v].rules : 0;
}

bool cg_guard_below(const char *mine, const char *path)
{
	size_t len = strlen(path);

	if (!len)
		return true;
	return !strncmp(mine, path, len) && (!mine[len] || mine[len] == '/');
}

static int owner_rule(const struct cg_target *t, struct cg_owner *o, const char *op,
		      struct cg_diag *d)
{
	char name[PATH_MAX + 2];

	if (cg_owner_get(t, o) < 0)
		o->kind = CG_OWNER_NONE;
	if (o->kind != CG_OWNER_SYSTEMD)
		return 0;
	return cg_diag_say(
		d, EPERM, cg_target_name(t, name, sizeof(name)), t->hier->label, op,
		"inside %s unit %s, which is not delegated: that manager is the single writer of its cgroups and may undo this",
		o->user_manager ? "a user's systemd's" : "systemd's", o->unit);
}

int cg_guard_owner(const struct cg_target *t, struct cg_owner *o, struct cg_diag *d)
{
	struct cg_owner own;

	return owner_rule(t, o ? o : &own, "refused", d);
}

static int root_rule(const struct cg_target *t, enum cg_guard_verb v, struct cg_diag *d)
{
	const char *op = verbs[v].op, *label = t->hier->label;
	char where[PATH_MAX + 2];

	cg_path_display("", where, sizeof(where));
	if (v == CG_GUARD_REMOVE || v == CG_GUARD_REMOVE_KILL)
		return cg_diag_say(
			d, EINVAL, where, label, op, "the hierarchy root cannot be removed%s",
			v == CG_GUARD_REMOVE_KILL ? ", and what runs in it is never signalled"
						  : "");
	/* inside a cgroup namespace whose mount was made there, nothing tells its root apart */
	return cg_diag_say(
		d, EINVAL, where, label, op,
		"the root of the hierarchy or cgroup namespace: never acted on as a whole");
}

int cg_guard(const struct cg_target *t, enum cg_guard_verb v, unsigned skip, struct cg_diag *d)
{
	unsigned rules = cg_guard_rules(v) & ~skip;
	_cleanup_free_ char *mine = NULL;
	char where[PATH_MAX + 2];

	if ((unsigned)v >= CG_GUARD_N)
		return -EINVAL;
	if ((rules & CG_RULE_ROOT) && !t->path[0])
		return root_rule(t, v, d);
	if ((rules & CG_RULE_SELF) && cg_pid_cgroup(t->hier, getpid(), 0, &mine) == 0 &&
	    cg_guard_below(mine, t->path)) {
		cg_path_display(t->path, where, sizeof(where));
		return cg_diag_say(d, EINVAL, where, t->hier->label, verbs[v].op,
				   "the subtree holds %s itself (it runs in /%s)%s%s",
				   program_invocation_short_name, mine, verbs[v].self ? ": " : "",
				   verbs[v].self ? verbs[v].self : "");
	}
	if (rules & CG_RULE_OWNER) {
		struct cg_owner o;

		return owner_rule(t, &o, verbs[v].op, d);
	}
	return 0;
}

int cg_guard_all(const struct cg_targets *ts, enum cg_guard_verb v, unsigned skip,
		 struct cg_diag *d)
{
	for (size_t i = 0; i < ts->n; i++) {
		int r = cg_guard(&ts->t[i], v, skip, d);

		if (r < 0)
			return r;
	}
	return 0;
}
