/* SPDX-License-Identifier: MIT */
/* Where the cgroup hierarchies are: unified, legacy, hybrid, named, namespaced. */
#ifndef CGKIT_MOUNT_H
#define CGKIT_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/hier.h"
#include "nsroot.h"

/* Parse mountinfo text only (no filesystem access): for unit tests and for cg_layout_load. */
int cg_layout_parse(const char *mountinfo, struct cg_layout **ret);
/*
 * Parse /proc/self/mountinfo ($CGKIT_MOUNTINFO overrides it, for fixture trees). The unified
 * controllers are read from its cgroup.controllers when first asked for (cg_hier_controllers).
 */
int cg_layout_load(struct cg_layout **ret);
/* The file cg_layout_load reads, for the message of its failure */
const char *cg_layout_source(void);
void cg_layout_free(struct cg_layout *l);

enum cg_layout_kind cg_layout_kind(const struct cg_layout *l);
const char *cg_layout_kind_name(enum cg_layout_kind k);

/*
 * The hierarchy root, O_PATH, opened on first use: a tool works in one or two hierarchies of
 * the ten or so mounted, and opening them all cost every cgexec2 run ~40 us. -errno on failure,
 * -ESTALE when the mountpoint is gone (unmounted since the mount table was read).
 * Thread-safe: of two racing first opens one fd is kept.
 */
int cg_hier_fd(const struct cg_hier *h);
/* cg_open_beneath(PATH) below the hierarchy root */
int cg_hier_open(const struct cg_hier *h, const char *path, int flags);

/*
 * The controllers of h; for the unified hierarchy of cg_layout_load, cgroup.controllers is read
 * on the first call (a missing or unreadable file: none). Thread-safe, as cg_hier_fd.
 */
char *const *cg_hier_controllers(const struct cg_hier *h);
bool cg_hier_has(const struct cg_hier *h, const char *controller);
/*
 * The hierarchy serving a controller ("cpu", "name=systemd"): a v1 hierarchy that has it
 * mounted, else the unified one when its cgroup.controllers offers it. NULL when neither.
 */
struct cg_hier *cg_layout_find(const struct cg_layout *l, const char *controller);

#endif
