/* SPDX-License-Identifier: MIT */
/* The only user of libcgroup: cgrules.conf classification and cgrulesengd's sticky flag. */
#ifndef CGKIT_RULES_H
#define CGKIT_RULES_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "migrate.h"
#include "kernel/mount.h"
#include "kernel/spec.h"

/*
 * The destination cgrules.conf (libcgroup's parser and matching: user, @group, process
 * name, '%' continuation lines) gives for pid, as targets in this layout.
 * -ENOENT with a sentence in d when no rule matches (or there is no /etc/cgrules.conf).
 * 0 with no targets (ret->n == 0) when the matching rule is an "ignore" rule: leave pid be.
 * -ESRCH when pid does not exist. The rules are read once per process.
 *
 * Matching follows libcgroup's cached-rules matcher (the one cgrulesengd uses): the first
 * rule whose user (or '*', or @group of the effective uid/gid) matches and whose process
 * name is absent, equal to the name or its basename, or a "prefix*" of it. Destinations get
 * libcgroup's %u %U %g %G %p %P substitution; template cgroups are not created.
 */
int cg_rules_classify(const struct cg_layout *l, pid_t pid, struct cg_targets *ret,
		      struct cg_diag *d);
/*
 * The same for a command pid is about to exec: the rules match COMMAND as typed (its name and
 * basename), not pid's current name, as libcgroup's cgexec passes argv[optind]. A NULL
 * command is pid's name from procfs, as in cg_rules_classify.
 */
int cg_rules_classify_command(const struct cg_layout *l, pid_t pid, const char *command,
			      struct cg_targets *ret, struct cg_diag *d);
/*
 * Tell a running cgrulesengd to leave pid (and its children) where it is, or to stop doing so.
 * 0 also when no cgrulesengd is listening (as libcgroup: nothing to tell); -EIO when the
 * daemon did not confirm.
 */
/*
 * Each process of m[] moved where cgrules.conf sends it (cgmigrate without -g): an ignore rule
 * leaves it where it is, which counts as arrived. A process that cannot be classified or moved
 * is marked failed, its diagnostic to on_fail. Adds to sum; returns how many failed.
 */
size_t cg_rules_move(const struct cg_layout *l, const struct cg_move_opts *o, struct cg_move *m,
		     size_t n, struct cg_move_summary *sum, cg_diag_fn *on_fail, void *ctx);

int cg_rules_sticky(pid_t pid, bool sticky, struct cg_diag *d);
/* Whether a cgrulesengd listens on its socket (for -v: --sticky is a no-op without one). */
bool cg_rules_daemon_running(void);

#endif
