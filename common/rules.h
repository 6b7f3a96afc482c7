/* SPDX-License-Identifier: MIT */
/* The only user of libcgroup: cgrules.conf classification and cgrulesengd's sticky flag. */
#ifndef CGKIT_RULES_H
#define CGKIT_RULES_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "mount.h"
#include "spec.h"

/*
 * The destination cgrules.conf (libcgroup's parser and matching: user, @group, process
 * name, '%' continuation lines) gives for pid, as targets in this layout.
 * -ENOENT with a sentence in d when no rule matches.
 */
int cg_rules_classify(const struct cg_layout *l, pid_t pid, struct cg_targets *ret,
		      struct cg_diag *d);
/* Tell a running cgrulesengd to leave pid (and its children) where it is, or to stop doing so. */
int cg_rules_sticky(pid_t pid, bool sticky, struct cg_diag *d);

#endif
