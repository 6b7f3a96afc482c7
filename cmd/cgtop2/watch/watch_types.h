/* SPDX-License-Identifier: MIT */
/*
 * What the event watcher (watch.h) reports and is asked for: the kinds of event, their sources,
 * a PSI trigger, an event, the options. Its own header, beneath the watcher's files: watch_core.c
 * and the files above it use these types, and watch.c calls them, so that the calls go one way.
 */
#ifndef CGKIT_WATCH_TYPES_H
#define CGKIT_WATCH_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cg_watch_kind {
	CG_EV_CREATED,
	CG_EV_REMOVED,
	CG_EV_POPULATED,
	CG_EV_EMPTY,
	CG_EV_FROZEN,
	CG_EV_THAWED,
	CG_EV_OOM,
	CG_EV_OOM_KILL,
	CG_EV_MEMORY_HIGH,
	CG_EV_MEMORY_MAX,
	CG_EV_PIDS_MAX,
	CG_EV_THRESHOLD,
	CG_EV_THROTTLED,
	CG_EV_PRESSURE,
	/*
	 * a cgroup that appeared while the watcher was out of file descriptors or inotify watches:
	 * what of it could not be watched is not (always reported, whatever kinds were asked)
	 */
	CG_EV_UNWATCHED,
	CG_EV_N
};

#define CG_EV_ALL ((1u << CG_EV_N) - 1)

/* Where an event's knowledge came from: how exact it is. */
enum cg_watch_source {
	CG_SRC_INOTIFY, /* the kernel said so (a directory or an events file changed) */
	CG_SRC_EVENTFD, /* v1 cgroup.event_control */
	CG_SRC_SAMPLED, /* read every interval: a change between two reads is seen, not each one */
	CG_SRC_RESCAN, /* found by the rescan after an inotify queue overflow */
	CG_SRC_TRIGGER, /* a PSI trigger's wake-up (POLLPRI) */
};

/* The resources of the PSI files: cpu.pressure, memory.pressure, io.pressure, irq.pressure. */
enum cg_psi_res { CG_PSIR_CPU, CG_PSIR_MEMORY, CG_PSIR_IO, CG_PSIR_IRQ, CG_PSIR_N };

/* One --psi-trigger: RESOURCE:some|full:STALL:WINDOW[:sample] */
struct cg_psi_trigger {
	enum cg_psi_res res;
	bool full; /* else some */
	uint64_t stall_us, window_us;
	bool sample; /* no kernel trigger: avg10 read every interval against stall/window */
};

/* A sampled counter's episode: it started rising, or stopped (quiet for 5 samples). */
enum cg_watch_edge { CG_EDGE_NONE, CG_EDGE_STARTED, CG_EDGE_STOPPED };

struct cg_watch_event {
	enum cg_watch_kind kind;
	const char
		*path; /* "/" or "/a/b", relative to the hierarchy root as this process sees it */
	const char *hier; /* the hierarchy's label: "unified", "pids", "cpu,cpuacct" */
	const char *mountpoint; /* where this process sees the hierarchy: the directory is there */
	const char *file; /* the file that told: "cgroup.events", "memory.events", NULL for dirs */
	enum cg_watch_source source;
	/*
	 * by how many the counter rose (oom, oom_kill, memory_high/max, pids_max, throttled), else
	 * 1; a sampled counter's started: the rise then; its stopped: the rise over the episode
	 */
	uint64_t count;
	enum cg_watch_edge edge; /* sampled counters (throttled, v1 pids_max) only */
	/* the counter's value now (same kinds), 0 when not a counter */
	uint64_t total;
	/* threshold: usage and the threshold in bytes, above (crossed upwards) or not */
	uint64_t usage, threshold;
	bool above;
	/* pressure: the trigger, and the file's averages of its line (some or full) then; total is
	 * its stall time in microseconds, count the wake-ups since the last event */
	const struct cg_psi_trigger *trigger;
	double avg10, avg60;
	/* unwatched: the limit reached, "open_files" (ulimit -n), "file_max" (fs.file-max) or
	 * "inotify_watches" (fs.inotify.max_user_watches) */
	const char *limit;
};

/* One --memory-threshold: a cgroup path (normalized, "" the root) and a size in bytes. */
struct cg_watch_threshold {
	const char *path;
	uint64_t bytes;
};

struct mirror;

struct cg_watch_opts {
	const char *path; /* normalized ("" is the root) */
	unsigned kinds; /* bit per enum cg_watch_kind */
	uint64_t interval_ns; /* how often the sampled kinds are read */
	const struct cg_watch_threshold *thresholds;
	size_t n_thresholds;
	/* registered on every cgroup2 cgroup watched, each on its own fd (pressure events) */
	const struct cg_psi_trigger *triggers;
	size_t n_triggers;
	/*
	 * fds the triggers leave free under RLIMIT_NOFILE (for the files read one at a time and
	 * the tool's own: an exporter's connections); a trigger past it is out of fds. 0: no bound
	 */
	size_t fd_reserve;
	/* the tree mirror (mirror/mirror.h) to subscribe to; NULL: one of its own */
	struct mirror *mirror;
};

typedef int (*cg_watch_cb)(const struct cg_watch_event *ev, void *userdata);

#endif
