/* SPDX-License-Identifier: MIT */
/* Cgroup lifecycle: create, enable controllers, set values, own, delegate, kill, remove. */
#ifndef CGKIT_CGROUP_H
#define CGKIT_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/clock.h"
#include "base/error.h"
#include "kernel/file.h"
#include "kernel/mount.h"
#include "kernel/spec.h"
#include "kernel/subtree.h"

/*
 * What a call changed, newest last, so that a failure can take all of it back (deepest
 * first): directories it made, controllers it enabled.
 */
enum cg_undo_kind { CG_UNDO_RMDIR, CG_UNDO_DISABLE, CG_UNDO_WRITE };
struct cg_undo {
	enum cg_undo_kind kind;
	const struct cg_hier *hier;
	char *path;
	char *controller; /* CG_UNDO_DISABLE: the controller; CG_UNDO_WRITE: the file */
	char *value; /* CG_UNDO_WRITE: what the file held before */
};
struct cg_journal {
	struct cg_undo *u;
	size_t n;
};
/* Undo everything recorded, newest first; best effort, returns the first error or 0. */
int cg_journal_rollback(struct cg_journal *j);
void cg_journal_clear(struct cg_journal *j);
/* arg: the controller (CG_UNDO_DISABLE) or the file (CG_UNDO_WRITE); value: its old content */
int cg_journal_add(struct cg_journal *j, enum cg_undo_kind kind, const struct cg_hier *h,
		   const char *path, const char *arg, const char *value);
/* Whether the journal made path's cgroup (a rollback removes it: its values need no undo) */
bool cg_journal_made(const struct cg_journal *j, const struct cg_hier *h, const char *path);
/* cgroup.procs, cgroup.threads or tasks: owned by the delegatee, never a setting */
bool cg_is_membership_file(const char *file);

/* rmdir of one cgroup beneath its parent (verified cgroupfs); the root is -EBUSY. */
int cg_rmdir(const struct cg_hier *h, const char *path);

/*
 * The cgroup's directory as an O_PATH fd beneath the hierarchy root, or -errno. Also the
 * existence check: -ENOENT is "no such cgroup", anything else (-EACCES, -ESTALE, ...) is a
 * reason of its own to report as it is.
 */
int cg_open_dir(const struct cg_hier *h, const char *path);

/*
 * cg_walk_fd (subtree.h) on the hierarchy h: fn hears each cgroup with the hierarchy, its path
 * relative to the hierarchy root and its depth.
 */
typedef int (*cg_walk_fn)(const struct cg_hier *h, const char *path, int depth, void *ctx);
int cg_walk(const struct cg_hier *h, const char *path, unsigned flags, cg_walk_fn fn, void *ctx);
/* cg_walk within b (NULL: none) */
int cg_walk_bounded(const struct cg_hier *h, const char *path, unsigned flags,
		    const struct cg_walk_budget *b, cg_walk_fn fn, void *ctx);
/* 1 if the cgroup has child cgroups, 0 if not, -errno. */
int cg_has_children(const struct cg_hier *h, const char *path);

/*
 * mkdir the cgroup. With parents, missing ancestors are made too and an existing cgroup
 * is fine (0); without, an existing one is -EEXIST. Every directory made is journaled.
 * On v1 cpuset, a new cgroup gets cpuset.cpus/mems copied from its parent (else no task
 * could ever join it).
 */
struct cg_parent_cache {
	const struct cg_hier *h;
	char *path;
	int fd; /* -1: empty */
};
#define CG_PARENT_CACHE_INIT                                                                       \
	{                                                                                          \
		.fd = -1                                                                           \
	}
void cg_parent_cache_clear(struct cg_parent_cache *pc);

/*
 * pc (NULL: none) keeps the last parent opened, so that siblings made one after the other
 * cost one mkdirat each: the floor. Clear it with cg_parent_cache_clear.
 */
int cg_create(const struct cg_hier *h, const char *path, bool parents, struct cg_parent_cache *pc,
	      struct cg_journal *j, struct cg_diag *d);

/*
 * v2: make ctrls available in path by enabling them top-down in the cgroup.subtree_control
 * of every ancestor from the hierarchy root to path's parent. Writes only where a controller
 * is not enabled yet. Journaled. No-op on v1.
 */
int cg_enable(const struct cg_hier *h, const char *path, char *const *ctrls, struct cg_journal *j,
	      struct cg_diag *d);

/*
 * Write FILE=VALUE. FILE must be a plain name and not a membership file (cgroup.procs,
 * cgroup.threads, tasks). The v2 vocabulary is translated for v1 (cpu.h, vocab.h).
 */
int cg_set(const struct cg_hier *h, const char *path, const char *file, const char *value,
	   struct cg_diag *d);
/*
 * cg_set, journaling each file's old content first so that a rollback writes it back. written
 * (NULL: not wanted) gets "FILE=VALUE[, ...]" of what was really written when the vocabulary
 * translated it, else "".
 */
int cg_set_undoable(const struct cg_hier *h, const char *path, const char *file, const char *value,
		    struct cg_journal *j, char *written, size_t wlen, struct cg_diag *d);
/*
 * Everything cg_set would refuse, without writing: the name, the value's translation, and,
 * once the cgroup is made, that every file to be written is there. Check all of a call's
 * settings before writing any, so that a bad one leaves the others unwritten.
 */
int cg_set_check(const struct cg_hier *h, const char *path, const char *file, const char *value,
		 bool made, struct cg_diag *d);
/*
 * Serialise creations in one hierarchy between cgkit calls: flock(2) on the hierarchy root,
 * held until the fd is closed. Without it a call that rolls back could rmdir a cgroup that a
 * concurrent -p call found existing and reported as made. Returns the fd or -errno.
 */
int cg_hier_lock(const struct cg_hier *h);
/*
 * Why FILE is not a setting that -r may write, or NULL: membership files, and files that act
 * instead of configure (cgroup.freeze, cgroup.kill, cgroup.type, cgroup.subtree_control, the
 * v1 hierarchy-wide knobs), each with the option that does it properly.
 */
const char *cg_setting_refused(const char *file);
/* The controller an interface file belongs to ("memory.max" -> "memory"), NULL for cgroup.* */
char *cg_file_controller(const char *file);

/* libcgroup's cgcreate permissions: -a, -t, -d, -f, -s. -1 / 0 fields mean "leave". */
struct cg_perm {
	uid_t a_uid;
	gid_t a_gid;
	uid_t t_uid;
	gid_t t_gid;
	mode_t dmode, fmode, tmode;
	bool has_dmode, has_fmode, has_tmode;
};
int cg_apply_perm(const struct cg_hier *h, const char *path, const struct cg_perm *p,
		  struct cg_diag *d);
/* Hand the cgroup to a user per the kernel's delegation rules (/sys/kernel/cgroup/delegate). */
int cg_delegate(const struct cg_hier *h, const char *path, uid_t uid, gid_t gid, struct cg_diag *d);

/*
 * The membership file for a move: v2 cgroup.procs / cgroup.threads; v1 cgroup.procs for a
 * whole process, tasks for a single thread.
 */
const char *cg_membership_file(const struct cg_hier *h, bool thread);
/*
 * The ids a cgroup lists (cgroup.procs, or with CG_MEMBERS_THREADS its threads), sorted and
 * unique: cg_members_read_at (file.h) on the cgroup's membership file, strict unless
 * CG_MEMBERS_LAX.
 */
int cg_members_read(const struct cg_hier *h, const char *path, unsigned flags, pid_t **ret,
		    size_t *ret_n);
/*
 * The same, cut at a line's end by b (cg_read_fd_bounded), *ret_cut set when it was: a drain's
 * slice of a listing that a fork storm grows faster than it is read.
 */
int cg_members_read_bounded(const struct cg_hier *h, const char *path, unsigned flags,
			    const struct cg_read_bound *b, pid_t **ret, size_t *ret_n,
			    bool *ret_cut);
/* 1 if the cgroup (subtree) has processes, 0 if not. */
int cg_populated(const struct cg_hier *h, const char *path);
#endif
