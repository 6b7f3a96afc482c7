/* SPDX-License-Identifier: MIT */
/* Live statistics sampler: cached dir fds + pread, cpu/memory/io/tasks/PSI, v1 and v2 joined. */
#ifndef CGKIT_STATS_H
#define CGKIT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "base/kparse.h"
#include "kernel/mount.h"
#include "stats_types.h"

/*
 * A row's limit as its cgroup2 file reads, without the last newline: "max", "536870912",
 * "50000 100000", "0-3", "8:0 rbps=max wbps=1048576 riops=max wiops=max" (a line per device),
 * "default 100"; v1's files translated back, the exact inverse of what cgcreate2 -r writes
 * there. Into buf (or the row's own text); NULL when unknown (no such file or knob, or its
 * collector off).
 */
const char *cg_stat_limit(const struct cg_stat_row *r, enum cg_limit i, char *buf, size_t size);

struct cg_stats;

/*
 * Find path in every hierarchy that offers statistics and start watching it. -ENOENT when
 * no hierarchy has it. The layout must outlive the sampler. The stat files it keeps open are
 * bounded by RLIMIT_NOFILE as it finds it, less o->fd_reserve (it changes no limit; the tool
 * may raise it first). A failure is told in d (may be NULL): the cgroup, the layout, why.
 */
int cg_stats_new(const struct cg_layout *l, const struct cg_stats_opts *o, struct cg_stats **ret,
		 struct cg_diag *d);
void cg_stats_free(struct cg_stats *s);
/* 0, or -errno of the listing of the levels that came into view (told in d, may be NULL). */
int cg_stats_set_depth(struct cg_stats *s, int depth, struct cg_diag *d);
void cg_stats_set_threads(struct cg_stats *s, bool threads);
void cg_stats_set_count(struct cg_stats *s, enum cg_count count, bool own_only);
/*
 * The collectors from the next sample on (a bit per enum cg_collector). A v1 cpu or cpuset
 * hierarchy of its own (not co-mounted with cpuacct) is only watched when cg_stats_new had the
 * cpu or limits collector, or may_collect.
 */
void cg_stats_set_collectors(struct cg_stats *s, unsigned collectors);
/*
 * "cpu,memory" (these only), "+iodevice,-psi" (the default set changed), "all", "none" -> a bit
 * per enum cg_collector. -EINVAL and *ret_bad pointing at the unknown name (up to its comma).
 */
int cg_collectors_parse(const char *text, unsigned *ret, const char **ret_bad);
/*
 * Read or parse failures of each collector's files since the sampler started (a file or cgroup
 * that is gone is none), indexed by enum cg_collector.
 */
void cg_stats_errors(const struct cg_stats *s, uint64_t ret[CG_COLL_N]);

/*
 * Take a sample: pick up cgroups that appeared, drop those that vanished (never an error),
 * re-read every stat file and compute rates against the previous sample. The rows stay
 * valid until the next call; they are in no particular order. A failure (inotify, a listing,
 * out of fds with none left to give back) is told in d (may be NULL).
 */
int cg_stats_sample(struct cg_stats *s, struct cg_stat_row *const **ret_rows, size_t *ret_n,
		    struct cg_diag *d);

/*
 * Changes whenever a cgroup appears or vanishes: two samples with the same shape have the same
 * rows in the same order, each with the same path (a view's path order can be kept). Not 0
 * once there is a row.
 */
uint64_t cg_stats_shape(const struct cg_stats *s);

/*
 * From the next sample on, also list the tasks of one cgroup (path as rows name it, "/" or
 * "/a/b"; NULL: none), for a view of that cgroup alone: each sample reads /proc for each of
 * them. Its own tasks only (not its descendants'), from the first hierarchy that lists any
 * (cgroup2, then v1): processes, or threads with threads on (cg_stats_set_threads) and where
 * no process can be listed (a threaded cgroup's cgroup.procs cannot be read). 0 or -ENOMEM
 * (told in d, may be NULL).
 */
int cg_stats_set_members(struct cg_stats *s, const char *path, struct cg_diag *d);
/*
 * From the next sample on, also list the tasks of every cgroup sampled, as cg_stats_set_members
 * does for one, into each row's members (valid until the next sample): a /proc read per task
 * of the whole tree each sample, for a recording that shows any cgroup's tasks later.
 */
void cg_stats_set_members_all(struct cg_stats *s, bool on);
/*
 * The tasks of the last sample, the most CPU first (those without a figure last), none when
 * the cgroup is gone; valid until the next sample or cg_stats_set_members. -ENOENT (and none)
 * when path is not the cgroup cg_stats_set_members named, or no sample has listed it yet.
 */
int cg_stats_members(const struct cg_stats *s, const char *path, const struct cg_stat_member **ret,
		     size_t *ret_n);

/* Which hierarchy serves each column, e.g. "cpu: unified cpu.stat; memory: memory v1 ...". */
const char *cg_stats_sources(const struct cg_stats *s);
/* The layout the sampler was made on (cg_stats_new's), for acting on what it shows. */
const struct cg_layout *cg_stats_layout(const struct cg_stats *s);

/* How many stat files are read with openat each time because the fd limit ran out. */
size_t cg_stats_reopened(const struct cg_stats *s);
/*
 * The tree mirror the sampler subscribes to, for another subscriber (the triggers' watcher) to
 * share: one inotify instance a process. NULL when it has none (out of inotify instances or
 * fds: every sample lists the tree).
 */
struct mirror *cg_stats_mirror(const struct cg_stats *s);

#endif
