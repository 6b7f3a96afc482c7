/* SPDX-License-Identifier: MIT */
/* cgcreate2 --apply: the group blocks of a cgconfig.conf file made, set and owned. */
#ifndef CGCREATE2_APPLY_H
#define CGCREATE2_APPLY_H

#include <stdbool.h>

#include "tool_owner.h"

struct apply_opts {
	bool dry_run; /* -n: the plan printed, nothing touched */
	bool force, verbose; /* as for cgcreate2's other writers: the owner check's */
	tool_owner_hint_fn hint; /* what systemd offers instead, for a refused group */
};

/*
 * Each group of FILE as cgcreate2 -p -g CTRL:/NAME -r FILE=VALUE ... with its owners (or the
 * default block's) would make it, in the file's order; with dry_run the plan printed instead.
 * Every group is checked first as cgcreate2 checks its cgroups (a systemd unit's that is not
 * delegated is refused unless force), so a refusal touches nothing. An exit status: 0, 1 (the
 * file unreadable, malformed, or a group failed: FILE:LINE named), 64 (a group refused).
 */
int apply_run(const char *file, const struct apply_opts *o);

#endif
