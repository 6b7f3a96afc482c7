// SPDX-License-Identifier: MIT
/* cgcreate2 -r memory.reclaim=SIZE, -r memory.peak=reset (actions.h). */
#include "actions.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/act.h"
#include "ops/guard.h"
#include "tool.h"

int actions_split(struct cg_assignments *set, struct cg_assignments *acts)
{
	size_t k = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct cg_assignment *v;

		if (!cg_act_pokes_file(set->v[i].file)) {
			set->v[k++] = set->v[i];
			continue;
		}
		v = realloc(acts->v, (acts->n + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		acts->v = v;
		acts->v[acts->n++] = set->v[i];
	}
	set->n = k;
	return 0;
}

int actions_run(const struct cg_layout *l, const struct cg_targets *ts,
		const struct cg_assignments *acts, bool force, bool verbose)
{
	char assignment[512], where[PATH_MAX + 2];
	int ret = TOOL_EXIT_OK;

	for (size_t i = 0; i < ts->n; i++) {
		bool seen = false;

		/* a path named on several hierarchies is one cgroup: its memory one acts */
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(ts->t[k].path, ts->t[i].path);
		for (size_t a = 0; a < acts->n && !seen; a++) {
			struct cg_diag d = { 0 };
			int r;

			snprintf(assignment, sizeof(assignment), "%s=%s", acts->v[a].file,
				 acts->v[a].value);
			r = cg_act_poke(l, ts->t[i].path, assignment, force ? CG_RULE_OWNER : 0,
					&d);
			if (r < 0) {
				tool_report(&d, r);
				if (ret == TOOL_EXIT_OK)
					ret = r == -EOPNOTSUPP ? ACTIONS_EXIT_UNAVAILABLE
							       : TOOL_EXIT_FAILED;
			} else if (verbose) {
				printf("%s=%s in cgroup %s: done\n", acts->v[a].file,
				       TOOL_SHOWN(acts->v[a].value),
				       cg_path_display(ts->t[i].path, where, sizeof(where)));
			}
		}
	}
	return ret;
}
