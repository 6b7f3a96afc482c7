/* SPDX-License-Identifier: MIT */
/* What cgroup.c gives cgroup_set.c: the undo journal a value's write is recorded in. */
#ifndef CGKIT_CGROUP_IMPL_H
#define CGKIT_CGROUP_IMPL_H

#include <stdbool.h>

#include "cgroup.h"

/* arg: the controller (CG_UNDO_DISABLE) or the file (CG_UNDO_WRITE); value: its old content */
int cg_journal_add(struct cg_journal *j, enum cg_undo_kind kind, const struct cg_hier *h,
		   const char *path, const char *arg, const char *value);
/* Whether the journal made path's cgroup (a rollback removes it: its values need no undo) */
bool cg_journal_made(const struct cg_journal *j, const struct cg_hier *h, const char *path);
/* cgroup.procs, cgroup.threads or tasks: owned by the delegatee, never a setting */
bool cg_is_membership_file(const char *file);

#endif
