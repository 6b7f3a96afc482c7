/* SPDX-License-Identifier: MIT */
/* Moving processes and threads between cgroups: one write per id, verified. */
#ifndef CGKIT_MIGRATE_H
#define CGKIT_MIGRATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/clock.h"
#include "base/error.h"
#include "kernel/file.h"
#include "cgroups/freeze.h"
#include "kernel/mount.h"
#include "kernel/proc.h"
#include "kernel/spec.h"

/* Open the target's membership file once (O_WRONLY, verified cgroupfs), for many moves. */
int cg_attach_open(const struct cg_hier *h, const char *path, bool thread);
/* Move one pid (or tid) through an fd from cg_attach_open: one write, -errno. */
int cg_attach_fd(int fd, pid_t id);
/* Open + move + close, with a diagnostic naming the cgroup and the rule on failure. */
int cg_attach(const struct cg_hier *h, const char *path, pid_t id, bool thread, struct cg_diag *d);

/*
 * Is pid in every target? Reads /proc/PID/cgroup once (0: the calling process). -EXDEV with
 * the expected and the actual cgroup in d when one differs: the kernel's word on where a
 * process is, which no listing of the target gives when another cgroup's directory is mounted
 * over the target's path (a listing read there is the other cgroup's).
 */
int cg_placement_verify(const struct cg_targets *t, pid_t pid, struct cg_diag *d);

/* Is id in the sorted vector v (NULL when n is 0)? */
bool cg_pids_contain(const pid_t *v, size_t n, pid_t id);

enum cg_move_state {
	CG_MOVE_PENDING,
	CG_MOVE_ARRIVED,
	CG_MOVE_GONE, /* existed when asked, exited before or while it moved */
	CG_MOVE_FAILED,
};

/* What failed for a CG_MOVE_FAILED entry. */
enum cg_move_step {
	CG_STEP_EXIST, /* the id did not exist when the move began */
	CG_STEP_WRITE, /* the kernel refused the write */
	CG_STEP_CHECK, /* the write passed, but /proc shows the task elsewhere */
};

struct cg_move {
	pid_t id; /* a pid, or a tid for thread moves */
	enum cg_move_state state;
	enum cg_move_step step;
	int err; /* -errno of the failed step */
	size_t target; /* index of the target it failed on */
	char *seen; /* CG_STEP_CHECK: where /proc says the task is */
	unsigned threads; /* count_threads: threads the process had when it arrived */
};

struct cg_move_opts {
	bool thread; /* ids are thread ids: cgroup.threads / v1 tasks */
	bool count_threads; /* fill cg_move.threads (one stat per process; for -v) */
	/*
	 * The ids come from a listing (a cgroup's, a process's tasks): one the kernel no longer
	 * finds exited since, and is gone. Otherwise it is a failure: no such process.
	 */
	bool listed;
	/*
	 * Trust each write's answer: no verification after. An id the kernel does not find
	 * counts as gone, a zombie as arrived. For bulk moves where the listing a verification
	 * reads costs as much as the moves (v1, many threads).
	 */
	bool no_verify;
};

struct cg_move_summary {
	size_t arrived, threads, gone, failed;
	size_t processes; /* thread moves: distinct processes the arrived threads belong to */
};

/*
 * Move every id into every target. Per target the membership file is opened once and each id
 * is one write; the first target's write is the existence check (ESRCH: a failure, or gone
 * for o->listed ids). Then verification: an id counts as arrived when the first target lists
 * it (one read of its listing), else /proc/PID/cgroup (or /proc/PID/task/TID/cgroup) decides:
 * exited or a zombie is gone, elsewhere is a failure; the other targets' writes count by their
 * answer. Outcomes are left in m[]; the summary may be NULL.
 * Returns 0, or -errno with d filled when a target cannot be opened (nothing moved then).
 */
int cg_move_many(const struct cg_targets *t, const struct cg_move_opts *o, struct cg_move *m,
		 size_t n, struct cg_move_summary *sum, struct cg_diag *d);
/* The diagnostic for a failed entry (the rule behind it, for v2 threads the threaded subtree). */
int cg_move_diag(const struct cg_targets *t, const struct cg_move_opts *o, const struct cg_move *m,
		 struct cg_diag *d);
/* Each failed entry's diagnostic (cg_move_diag) to on_fail: how many failed. */
size_t cg_moves_report(const struct cg_targets *t, const struct cg_move_opts *o,
		       const struct cg_move *m, size_t n, cg_diag_fn *on_fail, void *ctx);
void cg_moves_free(struct cg_move *m, size_t n);

#endif
