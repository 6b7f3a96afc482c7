/* SPDX-License-Identifier: MIT */
/*
 * Where cgtop2's samples come from: the live sampler (source_live.c) or a recording
 * (--replay, source_replay.c), behind one table of functions, so that every sink (the batch
 * writers, the recorder, the screen, the exporter) takes either the same way. Only the live
 * source knows the sampler (cmd/cgtop2/sampler/stats.h's cg_stats); the rows it hands out are
 * cmd/cgtop2/sampler/stats.h's struct cg_stat_row, the one type the sinks read.
 *
 * A source hands out one sample at a time: rows (in no particular order) and the wall-clock
 * time they were taken. The rows stay valid until the next step on the same source or
 * source_free.
 *
 * A step returns 1 with *ret filled, 0 when there is no such sample (before the first, after
 * the last, nothing at or after a time: the position and *ret are unchanged), or -errno. A live
 * source can only go forward: each SOURCE_NEXT is a new sample taken now, SOURCE_CURRENT
 * samples again (as after a depth change), the others are -EOPNOTSUPP. What a source cannot
 * do (a replay's depth is fixed) is -EOPNOTSUPP too.
 *
 * Nothing here prints, sleeps or knows keys: the scheduler (pipeline.h) paces a source and a
 * sink maps its keys to steps.
 */
#ifndef CGTOP2_SOURCE_H
#define CGTOP2_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampler/stats.h"

struct cg_layout;

enum source_step {
	SOURCE_NEXT,
	SOURCE_CURRENT,
	SOURCE_PREV,
	SOURCE_FIRST,
	SOURCE_LAST,
	SOURCE_SEEK, /* the first sample taken at or after a time */
};

struct source_sample {
	struct cg_stat_row *const *rows;
	size_t n;
	uint64_t time_ns; /* CLOCK_REALTIME of the sample, nanoseconds since the epoch */
	size_t index; /* a replay's sample number from 0; a live source counts its samples */
	uint64_t took_ns; /* how long taking it took; 0 for a replay (decoded, not taken) */
	/* the collectors' error counts so far, by enum cg_collector; NULL: unknown (a replay) */
	const uint64_t *errors;
	/* cg_stats_shape: the same, the same rows in the same order as before; 0: unknown */
	uint64_t shape;
};

/* What a recording says about how it was taken (a live source: the sampler's options). */
struct source_info {
	const char *path; /* the cgroup sampled, normalized ("" is the root) */
	const char *host; /* the machine's name; "" when unknown */
	enum cg_count count; /* what the tasks column counts */
	bool own_only; /* --recursive=no */
	bool threads; /* per-thread rows were collected */
	int depth;
	uint64_t delay_ns; /* the recorder's --delay; 0 when unknown */
	bool tasks; /* a replay: its rows carry their cgroups' tasks (recordings since format 1.1) */
};

struct source;

/* An implementation's functions; NULL: it cannot (the wrappers below say -EOPNOTSUPP). */
struct source_ops {
	int (*step)(struct source *src, enum source_step step, uint64_t time_ns,
		    struct source_sample *ret);
	const struct source_info *(*info)(const struct source *src);
	void (*free)(struct source *src);
	/* a recording's number of samples */
	size_t (*count)(const struct source *src);
	/* the live sampler's knobs, for the next sample */
	int (*set_depth)(struct source *src, int depth);
	int (*set_count)(struct source *src, enum cg_count count, bool own_only);
	int (*set_threads)(struct source *src, bool threads);
	int (*set_collectors)(struct source *src, unsigned collectors);
	/* list the tasks of this cgroup (NULL: none) at the next sample */
	int (*set_focus)(struct source *src, const char *path);
	/* the tasks of path as the last sample listed them (-ENOENT: not listed) */
	int (*members)(const struct source *src, const char *path,
		       const struct cg_stat_member **ret, size_t *ret_n);
	/* the mount table the live source reads: what the screen's actions act on */
	const struct cg_layout *(*layout)(const struct source *src);
	/* for --verbose: what it reads, and how many files it read without a cached fd */
	const char *(*describe)(const struct source *src);
	size_t (*reopened)(const struct source *src);
	struct mirror *(*mirror)(const struct source *src);
};

struct source {
	const struct source_ops *ops;
	bool replay; /* a recording: read, not watched (the screen starts paused) */
};

/*
 * The live source of the sampler so (its cgroup, depth, counting, threads, collectors, the fds
 * to leave free) on layout l, which must outlive it, taken every delay_ns; members_all: every
 * cgroup's tasks in each sample (a recording, whose replay may list any cgroup's). 0, -ENOENT
 * (no such cgroup in any hierarchy), or -errno.
 */
int source_live_new(const struct cg_stats_opts *so, uint64_t delay_ns, bool members_all,
		    const struct cg_layout *l, struct source **ret);

/*
 * A replay source over a recording. The file is read and checked once, here: a damaged or
 * truncated tail is skipped and reported once through *ret_damage (its byte offset and what is
 * wrong, NULL when the file is whole) for the caller to print; a file of a newer major version
 * or that is no recording at all is -EPROTONOSUPPORT / -EBADMSG with *ret_damage saying why.
 * The recording's own strings (paths) are kept as recorded: escape them as for a live sample.
 */
int source_replay_new(const char *file, struct source **ret, char **ret_damage);
/*
 * A replay over the journal in dir (journal.h): with all, the day files from begin_ns to end_ns
 * (a day wider each way; 0 and UINT64_MAX: open), else the newest alone; oldest first, as one
 * run. -ENOENT: no day file there; else as source_replay_new.
 */
int source_replay_journal(const char *dir, uint64_t begin_ns, uint64_t end_ns, bool all,
			  struct source **ret, char **ret_msg);

/*
 * --begin, --end: the replay shows only the samples taken from begin_ns to end_ns (both
 * included), as if the others were not recorded; before its first step. 0, -ENOMEM.
 */
int source_replay_window(struct source *src, uint64_t begin_ns, uint64_t end_ns);

void source_free(struct source *src);

int source_step(struct source *src, enum source_step step, uint64_t time_ns,
		struct source_sample *ret);
const struct source_info *source_info(const struct source *src);
size_t source_count(const struct source *src);
int source_set_depth(struct source *src, int depth);
int source_set_count(struct source *src, enum cg_count count, bool own_only);
int source_set_threads(struct source *src, bool threads);
int source_set_collectors(struct source *src, unsigned collectors);
int source_set_focus(struct source *src, const char *path);
int source_members(const struct source *src, const char *path, const struct cg_stat_member **ret,
		   size_t *ret_n);
/* NULL for a replay */
const struct cg_layout *source_layout(const struct source *src);
const char *source_describe(const struct source *src);
size_t source_reopened(const struct source *src);
/* The live sampler's tree mirror (cg_stats_mirror), for the triggers' watcher; NULL for a replay. */
struct mirror *source_mirror(const struct source *src);

/*
 * CLOCK_REALTIME in nanoseconds since the epoch, moved by $CGKIT_TEST_CLOCK_OFFSET (seconds,
 * signed) when that is set: for tests only, so that a live sample's time and the "now" of a
 * relative --begin can be put where a test wants them without waiting for them. A value that
 * starts with / names a file holding the offset, read at each call: a running recorder's clock
 * jumps when the test rewrites it (the journal's midnight).
 */
uint64_t source_wall_ns(void);

static inline bool source_is_replay(const struct source *src)
{
	return src->replay;
}

/* Live: the sampler's knobs turn (source_set_*). */
static inline bool source_tunable(const struct source *src)
{
	return src->ops->set_depth != NULL;
}

static inline int source_next(struct source *src, struct source_sample *ret)
{
	return source_step(src, SOURCE_NEXT, 0, ret);
}

static inline int source_current(struct source *src, struct source_sample *ret)
{
	return source_step(src, SOURCE_CURRENT, 0, ret);
}

#endif
