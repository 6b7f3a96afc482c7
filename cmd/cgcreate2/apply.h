/* SPDX-License-Identifier: MIT */
/* cgcreate2 --apply: the group blocks of a cgconfig.conf file made, set and owned. */
#ifndef CGCREATE2_APPLY_H
#define CGCREATE2_APPLY_H

#include <stdbool.h>

/*
 * Each group of FILE as cgcreate2 -p -g CTRL:/NAME -r FILE=VALUE ... with its owners (or the
 * default block's) would make it, in the file's order; with dry_run the plan printed instead.
 * An exit status: 0, 1 (the file unreadable, malformed, or a group failed: FILE:LINE named).
 */
int apply_run(const char *file, bool dry_run);

#endif
