/* SPDX-License-Identifier: MIT */
/* Stopping and removing cgroups: signal, kill (cgroup.kill, v1 frozen rounds), remove checked. */
#ifndef CGKIT_REMOVE_H
#define CGKIT_REMOVE_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroups/cgroup.h"
#include "base/error.h"
#include "kernel/mount.h"
#include "kernel/spec.h"

/*
 * Send sig to every process in the cgroup (recursive: its subtree). Returns how many.
 * cg_remove_targets signals each process once across its targets (the twins of a hybrid).
 */
int cg_signal(const struct cg_hier *h, const char *path, bool recursive, int sig);
/*
 * Kill everything in the subtree and wait until it is empty: cgroup.kill where the kernel
 * has it, else SIGKILL rounds. timeout_ns bounds the wait; -ETIMEDOUT when it runs out.
 */
int cg_kill(const struct cg_hier *h, const char *path, uint64_t timeout_ns, struct cg_diag *d);
/* The same; on v1 each round first freezes the cgroup of the same path in l's freezer hierarchy. */
int cg_kill_layout(const struct cg_layout *l, const struct cg_hier *h, const char *path,
		   uint64_t timeout_ns, struct cg_diag *d);

enum cg_remove_step {
	CG_REMOVE_SIGNAL, /* sig sent to count processes */
	CG_REMOVE_KILL, /* count processes were still there after the grace and were killed */
	CG_REMOVE_RMDIR, /* path removed */
	CG_REMOVE_MOVE, /* count processes (thread: threads) of path's subtree moved to to */
	CG_REMOVE_WAIT, /* on_wait: count processes still in path's subtree, left_ns of the grace */
};
struct cg_remove_event {
	enum cg_remove_step what;
	const struct cg_hier *hier;
	const char *path;
	int sig, count;
	const char *to; /* CG_REMOVE_MOVE: the parent they went to */
	bool thread; /* CG_REMOVE_MOVE: count is of threads (a v2 threaded cgroup) */
	uint64_t left_ns; /* CG_REMOVE_WAIT: how long the grace still runs */
};

struct cg_remove_opts {
	bool recursive; /* children first, depth-first */
	int signal; /* 0: refuse a populated cgroup; else send it, wait grace, then kill */
	/*
	 * Instead of refusing or signalling: move what runs in each target's subtree into the
	 * target's parent, verified empty, then remove (libcgroup's cgdelete -r). Not with signal.
	 */
	bool migrate_to_parent;
	uint64_t grace_ns;
	uint64_t kill_timeout_ns; /* 0: CG_KILL_TIMEOUT_NS */
	/* v1: kill rounds freeze the freezer cgroup of the same path first, where it has one */
	const struct cg_layout *layout;
	void (*on_step)(const struct cg_remove_event *e, void *ctx); /* for -v, may be NULL */
	/* during the grace, about once a second while a target is populated; may be NULL */
	void (*on_wait)(const struct cg_remove_event *e, void *ctx);
	void *ctx; /* for both */
};
/*
 * Whether a removal may go ahead, touching nothing: -EINVAL for a request that is refused
 * as such (a hierarchy root, a subtree holding the calling process), -EBUSY for children
 * without recursive or processes without signal, other -errno when it cannot be read. With
 * migrate_to_parent, a populated subtree whose parent may hold no process (v2: -EBUSY, the
 * no-internal-process rule; -EOPNOTSUPP, a domain invalid parent) is refused too.
 */
int cg_remove_check(const struct cg_hier *h, const char *path, const struct cg_remove_opts *o,
		    struct cg_diag *d);
/*
 * What of ts there is to remove, into there (its targets borrowed from ts and from twins): each
 * target that exists, and on a hybrid layout its twins, which "-r memory.max=1G /a" made
 * (cg_setup_route): the same path in each v1 hierarchy of a controller, where it exists. They
 * join the request before it is checked, and are checked as the rest. A target that is not
 * there goes to on_fail (unless quiet) and the others go ahead: returns how many were reported
 * so. -errno when one cannot be looked at (on_fail heard it: what cannot be read cannot be
 * checked, so nothing is to be touched) or memory ran out; there and twins are to be freed
 * (free(there->t), cg_targets_clear(twins)) either way.
 */
int cg_remove_present(const struct cg_layout *l, const struct cg_targets *ts, bool quiet,
		      struct cg_targets *there, struct cg_targets *twins, cg_diag_fn *on_fail,
		      void *ctx);
/*
 * Remove every target: all are checked first (nothing is signalled or removed when one is
 * refused), then signalled, given the grace, killed (cgroup.kill; v1: frozen, killed,
 * thawed; then SIGKILL rounds up to kill_timeout_ns), or with migrate_to_parent emptied into
 * their parents (every target before any is removed: a move that fails removes nothing), and
 * removed deepest first.
 */
int cg_remove_targets(const struct cg_targets *ts, const struct cg_remove_opts *o,
		      struct cg_diag *d);
int cg_remove(const struct cg_hier *h, const char *path, const struct cg_remove_opts *o,
	      struct cg_diag *d);

#endif
