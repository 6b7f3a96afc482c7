/* SPDX-License-Identifier: MIT */
/* Live statistics sampler: cached dir fds + pread, cpu/memory/io/tasks/PSI, v1 and v2 joined. */
#ifndef CGKIT_STATS_H
#define CGKIT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mount.h"

/* What a row carries: unknown values have no bit. */
enum {
	CG_STAT_TASKS = 1u << 0,
	CG_STAT_CPU = 1u << 1, /* cumulative cpu_ns */
	CG_STAT_CPU_RATE = 1u << 2, /* cpu_percent (needs a previous sample) */
	CG_STAT_MEMORY = 1u << 3,
	CG_STAT_IO = 1u << 4, /* cumulative io_read/io_write */
	CG_STAT_IO_RATE = 1u << 5, /* io_read_bps/io_write_bps */
	CG_STAT_PSI_CPU = 1u << 6,
	CG_STAT_PSI_MEMORY = 1u << 7,
	CG_STAT_PSI_IO = 1u << 8,
	CG_STAT_THREADED = 1u << 9, /* v2 cgroup.type is "threaded" */
};

enum { CG_PSI_CPU, CG_PSI_MEMORY, CG_PSI_IO, CG_PSI_N };

struct cg_stat_thread {
	pid_t tid;
	char comm[32];
	uint64_t ticks;
	double cpu_percent; /* < 0: no previous sample yet */
};

struct cg_stat_row {
	char *path; /* "/" or "/a/b", relative to the hierarchy roots */
	int depth; /* 0 for the cgroup the sampler was started on */
	unsigned have;
	uint64_t tasks;
	uint64_t cpu_ns;
	double cpu_percent;
	uint64_t memory;
	uint64_t io_read, io_write;
	double io_read_bps, io_write_bps;
	double psi[CG_PSI_N];
	/* with threads enabled, in a threaded cgroup */
	struct cg_stat_thread *threads;
	size_t n_threads;
};

struct cg_stats;

/* What the tasks column counts, as systemd-cgtop's default, -k and -P. */
enum cg_count {
	CG_COUNT_TASKS, /* every thread, kernel ones too; always recursive */
	CG_COUNT_PROCESSES, /* processes (a process counts once) and kernel threads */
	CG_COUNT_USER_PROCESSES, /* processes only, no kernel threads */
};

struct cg_stats_opts {
	const char *path; /* normalized ("" is the root) */
	int depth; /* rows down to this many levels below path */
	bool threads; /* collect per-thread rows in threaded cgroups */
	enum cg_count count;
	bool own_only; /* processes counted: the cgroup's own, not its descendants' too */
	/*
	 * Read every file every time, even of an unpopulated cgroup2 cgroup whose counters have
	 * stopped (normally skipped until cgroup.events says something joined): for benchmarks.
	 */
	bool always_read;
};

/*
 * Find path in every hierarchy that offers statistics and start watching it. -ENOENT when
 * no hierarchy has it. The layout must outlive the sampler. The stat files it keeps open are
 * bounded by RLIMIT_NOFILE as it finds it (it changes no limit; the tool may raise it first).
 */
int cg_stats_new(const struct cg_layout *l, const struct cg_stats_opts *o, struct cg_stats **ret);
void cg_stats_free(struct cg_stats *s);
int cg_stats_set_depth(struct cg_stats *s, int depth);
void cg_stats_set_threads(struct cg_stats *s, bool threads);
void cg_stats_set_count(struct cg_stats *s, enum cg_count count, bool own_only);

/*
 * Take a sample: pick up cgroups that appeared, drop those that vanished (never an error),
 * re-read every stat file and compute rates against the previous sample. The rows stay
 * valid until the next call; they are in no particular order.
 */
int cg_stats_sample(struct cg_stats *s, struct cg_stat_row *const **ret_rows, size_t *ret_n);

/* Which hierarchy serves each column, e.g. "cpu: unified cpu.stat; memory: memory v1 ...". */
const char *cg_stats_sources(const struct cg_stats *s);

/* How many stat files are read with openat each time because the fd limit ran out. */
size_t cg_stats_reopened(const struct cg_stats *s);

#endif
