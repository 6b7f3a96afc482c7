/* SPDX-License-Identifier: MIT */
/* cgcreate2 and cgmigrate: say who owns each cgroup (-v), refuse a systemd unit's (--force). */
#ifndef CGKIT_TOOL_OWNER_H
#define CGKIT_TOOL_OWNER_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cgroups/owner.h"
#include "kernel/spec.h"
#include "ops/guard.h"
#include "tool.h"

/* what to run instead, for the tool's refusal line: into buf */
typedef const char *(*tool_owner_hint_fn)(const struct cg_target *t, const struct cg_owner *o,
					  void *ctx, char *buf, size_t size);

/*
 * For each target: with verbose, "cgroup /x (hier): owner: ..." on stdout for a cgroup
 * inside a systemd unit (nothing where no systemd runs or outside its units: there nothing
 * changes, -v's output included). A cgroup inside a unit that is not
 * delegated is refused with one line, why and hint's command, unless force; the line begins
 * with where when given (cgcreate2 --apply's FILE:LINE). Returns 0, or TOOL_EXIT_USAGE after
 * that line: a request refused before anything was touched.
 */
static inline int tool_owner_check_at(const struct cg_targets *ts, bool force, bool verbose,
				      tool_owner_hint_fn hint, void *ctx, const char *where)
{
	for (size_t i = 0; i < ts->n; i++) {
		const struct cg_target *t = &ts->t[i];
		struct cg_owner o;
		char name[PATH_MAX + 2], desc[512], how[1024];
		char qname[4 * sizeof(name)], qdesc[4 * sizeof(desc)];
		struct cg_diag d = { 0 };
		/* the rule is the guard's, which the screen's actions go through too */
		int r = cg_guard_owner(t, &o, &d);
		size_t len;

		if (o.kind == CG_OWNER_NONE || o.kind == CG_OWNER_OUTSIDE)
			continue;
		cg_target_name(t, name, sizeof(name));
		cg_owner_describe(&o, desc, sizeof(desc));
		if (verbose)
			printf("cgroup %s (%s): owner: %s%s\n",
			       cg_quote(name, qname, sizeof(qname)), t->hier->label,
			       cg_quote(desc, qdesc, sizeof(qdesc)),
			       o.kind == CG_OWNER_SYSTEMD && force ? ": going ahead (--force)"
								   : "");
		if (!r || force)
			continue;
		len = strlen(d.why);
		snprintf(d.why + len, sizeof(d.why) - len, "; %s, or pass --force",
			 hint(t, &o, ctx, how, sizeof(how)));
		fflush(stdout);
		if (where) {
			char line[2048];

			tool_say("%s: %s", where, cg_diag_format(&d, line, sizeof(line)));
		} else {
			tool_report(&d, -EPERM);
		}
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

static inline int tool_owner_check(const struct cg_targets *ts, bool force, bool verbose,
				   tool_owner_hint_fn hint, void *ctx)
{
	return tool_owner_check_at(ts, force, verbose, hint, ctx, NULL);
}

/* the manager's flag for systemctl and systemd-run: " --user" for a user's manager */
static inline const char *tool_owner_user_flag(const struct cg_owner *o)
{
	return o->user_manager ? " --user" : "";
}

/* is the unit a slice (it holds no processes: a new scope goes into it) */
static inline bool tool_owner_is_slice(const struct cg_owner *o)
{
	size_t n = strlen(o->unit);

	return n > 6 && !strcmp(o->unit + n - 6, ".slice");
}

#endif
