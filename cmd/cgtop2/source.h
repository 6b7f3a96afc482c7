/* SPDX-License-Identifier: MIT */
/*
 * Where cgtop2's samples come from: the live sampler or a recording (--replay), behind one
 * interface, so that the batch writers and the screen show either the same way.
 *
 * A source hands out one sample at a time: rows (as cg_stats_sample gives them, in no
 * particular order) and the wall-clock time they were taken. The rows stay valid until the
 * next call on the same source (any of the stepping functions) or source_free.
 *
 * Stepping functions return 1 with *ret filled, 0 when there is no such sample (before the
 * first, after the last, nothing at or after a time: the position and *ret are unchanged), or
 * -errno. A live source can only go forward: each source_next is a new sample taken now; the
 * others return -EOPNOTSUPP (source_current samples again, as after a depth change).
 *
 * Nothing here prints, sleeps or knows keys: the caller paces a live source and maps its keys
 * (say, left and right arrows) to source_prev and source_next.
 */
#ifndef CGTOP2_SOURCE_H
#define CGTOP2_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct source;

struct source_sample {
	struct cg_stat_row *const *rows;
	size_t n;
	uint64_t time_ns; /* CLOCK_REALTIME of the sample, nanoseconds since the epoch */
	size_t index; /* a replay's sample number from 0; a live source counts its samples */
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

/*
 * A live source over sampler s, which stays the caller's (the screen turns its depth, count
 * and threads with cg_stats_set_*, then calls source_current). info is copied.
 */
int source_live_new(struct cg_stats *s, const struct source_info *info, struct source **ret);

/*
 * A replay source over a recording. The file is read and checked once, here: a damaged or
 * truncated tail is skipped and reported once through *ret_damage (its byte offset and what is
 * wrong, NULL when the file is whole) for the caller to print; a file of a newer major version
 * or that is no recording at all is -EPROTONOSUPPORT / -EBADMSG with *ret_damage saying why.
 * The recording's own strings (paths) are kept as recorded: escape them as for a live sample.
 */
int source_replay_new(const char *file, struct source **ret, char **ret_damage);

void source_free(struct source *src);

bool source_is_replay(const struct source *src);
/* The live source's sampler, NULL for a replay (whose depth, count and threads are fixed). */
struct cg_stats *source_stats(struct source *src);
const struct source_info *source_info(const struct source *src);
/* A replay's number of samples; 0 for a live source. */
size_t source_count(const struct source *src);

/* Live: a new sample. Replay: the one after the current one (the first, on the first call). */
int source_next(struct source *src, struct source_sample *ret);
/* The current sample again (live: sampled again; rows from before are invalid). */
int source_current(struct source *src, struct source_sample *ret);
/* Replay only: one sample back, the first, the last. */
int source_prev(struct source *src, struct source_sample *ret);
int source_first(struct source *src, struct source_sample *ret);
int source_last(struct source *src, struct source_sample *ret);
/* Replay only: the first sample taken at or after time_ns (CLOCK_REALTIME, ns). */
int source_seek(struct source *src, uint64_t time_ns, struct source_sample *ret);

/*
 * A time as --at takes it, local time "YYYY-MM-DD HH:MM[:SS]" or "@EPOCH" (seconds, fractions
 * allowed), into ns since the epoch: 0 or -EINVAL.
 */
int source_parse_time(const char *s, uint64_t *ret_ns);

#endif
