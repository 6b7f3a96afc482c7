/* SPDX-License-Identifier: MIT */
/* Events of a cgroup subtree on every hierarchy: inotify, v1 eventfds, and what must be sampled. */
#ifndef CGKIT_WATCH_H
#define CGKIT_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "kernel/mount.h"
#include "watch_types.h"

/* "created", "oom_kill", ...; NULL out of range */
const char *cg_watch_kind_name(enum cg_watch_kind k);
/* "populated,empty" or "all" -> a bit per kind; -EINVAL naming nothing known (*ret_bad: where) */
int cg_watch_kinds_parse(const char *list, unsigned *ret, const char **ret_bad);

/* "cpu", "memory", "io", "irq"; NULL out of range */
const char *cg_psi_res_name(enum cg_psi_res r);
/*
 * "memory:some:150ms:1s", "cpu:full:50ms:500ms:sample": STALL and WINDOW as cg_parse_seconds
 * (whole microseconds), the window 500 ms to 10 s, the stall above 0 and at most the window, irq
 * only full. -EINVAL (*ret_why, if given: the rule broken, a static string), -ERANGE.
 */
int cg_psi_trigger_parse(const char *spec, struct cg_psi_trigger *ret, const char **ret_why);

struct cg_watch;

/*
 * Watch path's subtree in every hierarchy of l that has it (-ENOENT when none does): an
 * inotify watch on each directory and on its cgroup.events, memory.events and pids.events,
 * v1 memory eventfds for oom and thresholds. Nothing is reported for the state found at the
 * start. -ENOSPC: out of inotify watches (fs.inotify.max_user_watches; d says how many are
 * allowed), -EMFILE out of inotify instances or fds. l must outlive the watcher. Once it runs,
 * those limits are no error: see cg_watch_unwatched.
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
 * Cgroups found after the start that could not be watched, wholly or in part, for lack of file
 * descriptors or inotify watches: each was an unwatched event (CG_EV_UNWATCHED), and the
 * watcher went on with what it holds.
 */
size_t cg_watch_unwatched(const struct cg_watch *w);

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
