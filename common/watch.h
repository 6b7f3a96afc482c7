/* SPDX-License-Identifier: MIT */
/* Events of a cgroup subtree on every hierarchy: inotify, v1 eventfds, and what must be sampled. */
#ifndef CGKIT_WATCH_H
#define CGKIT_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "mount.h"

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
	CG_EV_N
};

#define CG_EV_ALL ((1u << CG_EV_N) - 1)

/* "created", "oom_kill", ...; NULL out of range */
const char *cg_watch_kind_name(enum cg_watch_kind k);
/* "populated,empty" or "all" -> a bit per kind; -EINVAL naming nothing known (*ret_bad: where) */
int cg_watch_kinds_parse(const char *list, unsigned *ret, const char **ret_bad);

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

/* "cpu", "memory", "io", "irq"; NULL out of range */
const char *cg_psi_res_name(enum cg_psi_res r);
/*
 * "memory:some:150ms:1s", "cpu:full:50ms:500ms:sample": STALL and WINDOW as cg_parse_seconds
 * (whole microseconds), the window 500 ms to 10 s, the stall above 0 and at most the window, irq
 * only full. -EINVAL (*ret_why, if given: the rule broken, a static string), -ERANGE.
 */
int cg_psi_trigger_parse(const char *spec, struct cg_psi_trigger *ret, const char **ret_why);

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
};

/* One --memory-threshold: a cgroup path (normalized, "" the root) and a size in bytes. */
struct cg_watch_threshold {
	const char *path;
	uint64_t bytes;
};

struct cg_watch_opts {
	const char *path; /* normalized ("" is the root) */
	unsigned kinds; /* bit per enum cg_watch_kind */
	uint64_t interval_ns; /* how often the sampled kinds are read */
	const struct cg_watch_threshold *thresholds;
	size_t n_thresholds;
	/* registered on every cgroup2 cgroup watched, each on its own fd (pressure events) */
	const struct cg_psi_trigger *triggers;
	size_t n_triggers;
};

typedef int (*cg_watch_cb)(const struct cg_watch_event *ev, void *userdata);

struct cg_watch;

/*
 * Watch path's subtree in every hierarchy of l that has it (-ENOENT when none does): an
 * inotify watch on each directory and on its cgroup.events, memory.events and pids.events,
 * v1 memory eventfds for oom and thresholds. Nothing is reported for the state found at the
 * start. -ENOSPC: out of inotify watches (fs.inotify.max_user_watches; d says how many are
 * allowed), -EMFILE out of inotify instances or fds. l must outlive the watcher.
 */
int cg_watch_new(const struct cg_layout *l, const struct cg_watch_opts *o, struct cg_watch **ret,
		 struct cg_diag *d);
void cg_watch_free(struct cg_watch *w);

/*
 * Wait up to timeout_ms (-1: no limit) for the watcher's events or one of fds[0..n) (poll's
 * events and revents); > 0 when something is ready, 0 on timeout or a signal, -errno. The one
 * way to wait: the kernel's PSI trigger says its wake-up once, to the first poll of its fd,
 * and a poll() of an epoll fd polls the fds it holds, so a caller's poll() of the watcher's
 * epoll fd would take the wake-up and cg_watch_process would see none.
 */
int cg_watch_poll(struct cg_watch *w, struct pollfd *fds, size_t n, int timeout_ms);
/* Milliseconds until the next sample of the sampled kinds is due (-1: none are sampled). */
int cg_watch_timeout_ms(const struct cg_watch *w);

/*
 * Read what is pending and, when due, sample; cb hears each event, in order. A cb returning
 * non-zero is not called again by this call, which still takes in what it read, and returns
 * that value (use one above 1). Else 1 when the watched cgroup is gone from every hierarchy,
 * 0, or -errno on failure (d filled).
 */
int cg_watch_process(struct cg_watch *w, cg_watch_cb cb, void *userdata, struct cg_diag *d);

/*
 * List the whole subtree again and report what differs from what is known: created and removed
 * cgroups, changed events files. What an inotify queue overflow triggers; public for tests.
 */
int cg_watch_rescan(struct cg_watch *w, cg_watch_cb cb, void *userdata, struct cg_diag *d);

/*
 * How many rescans an inotify queue overflow caused, watched cgroups, inotify watches and PSI
 * triggers registered (an fd each).
 */
size_t cg_watch_overflows(const struct cg_watch *w);
size_t cg_watch_cgroups(const struct cg_watch *w);
size_t cg_watch_watches(const struct cg_watch *w);
size_t cg_watch_triggers(const struct cg_watch *w);

/*
 * Pure, for tests: the events that the change of an events file (cgroup.events, memory.events,
 * pids.events) from old to new text means, as kinds and counts into ev[] (at most n); returns
 * how many, or -EINVAL when new is not such a file. A counter that went down (a cgroup removed
 * and made again under the same name) counts from zero.
 */
int cg_watch_diff(const char *file, const char *old_text, const char *new_text,
		  struct cg_watch_event *ev, size_t n);

/*
 * "CGROUP:SIZE" (--memory-threshold): the path normalized (a new string) and SIZE in bytes,
 * a number with an optional K, M, G or T (powers of 1024). -EINVAL, -ERANGE, -ENAMETOOLONG.
 */
int cg_watch_threshold_parse(const char *arg, char **ret_path, uint64_t *ret_bytes);

#endif
