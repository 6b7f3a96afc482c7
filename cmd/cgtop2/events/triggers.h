/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen and the screen: --psi-trigger's wake-up counts (triggers.c). */
#ifndef CGTOP2_TRIGGERS_H
#define CGTOP2_TRIGGERS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "watch/watch.h"

struct cg_layout;
struct cg_watch_opts;
struct mirror;
struct trig_counter;
/* What a watcher's failure says (without the tool's name). */
#define TRIG_FAILED "--psi-trigger: the watcher failed: the trigger counts and marks stop here"
/*
 * Register o->triggers below o->path (a watcher of o, its fds and mirror as said here), to be counted by trig_counter_wait: 0, or the exit status
 * after saying why (the kernel's rule). on_screen: a later failure of the watcher is not said
 * on stderr (trig_counter_failed tells the screen and its caller). The triggers leave the
 * sampler's margin and fd_reserve more (an exporter's sockets) free under RLIMIT_NOFILE; a
 * cgroup past that has none, and the others count on. m: the sampler's tree mirror
 * (source_mirror), whose inotify instance the watcher shares; NULL: one of its own.
 */
int trig_counter_start(const struct cg_watch_opts *o, const struct cg_layout *l, bool on_screen,
		       size_t fd_reserve, struct mirror *m, struct trig_counter **ret);
/*
 * A sink's wait (pipeline_wait's, on the main thread) that counts the wake-ups: until
 * deadline_ns or sooner when the watcher has something due, one of fds[0..n) or a wake-up;
 * then what the watcher has is counted. t NULL, or its watcher failed: pipeline_wait alone.
 * As pipeline_wait: > 0 when something is ready, 0 at a deadline (the sink's or the watcher's:
 * no fd ready), -errno; a failure of the watcher is no failure of the wait: the counting stops
 * there, said once.
 */
int trig_counter_wait(struct trig_counter *t, struct pollfd *fds, size_t n, uint64_t deadline_ns);
/* Whether the watcher has failed (false for NULL). */
bool trig_counter_failed(struct trig_counter *t);
/* What a cgroup that got no trigger says (with the limit's name), on the screen or after it. */
#define TRIG_UNWATCHED                                                                             \
	"--psi-trigger: a new cgroup got no trigger (limit=%s reached); the cgroups that have one still count"
/* The limit's name ("open_files", ...) once a cgroup got no trigger, else NULL (NULL for NULL). */
const char *trig_counter_unwatched(struct trig_counter *t);
/* The wake-ups so far, by enum cg_psi_res and some (0) or full (1). */
void trig_counter_read(struct trig_counter *t, uint64_t out[CG_PSIR_N][2]);
void trig_counter_stop(struct trig_counter *t);
/*
 * The resources ("cpu,memory") of path's triggers that fired less than their window ago into
 * buf; its length, 0: none (or t NULL).
 */
size_t trig_counter_fired(struct trig_counter *t, const char *path, char *buf, size_t size);

#endif
