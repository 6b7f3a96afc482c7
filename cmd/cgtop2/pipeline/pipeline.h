/* SPDX-License-Identifier: MIT */
/*
 * Private to cgtop2: the scheduler, the one loop (pipeline.c). Every paced mode is a sink of
 * it: the batch writers (batch.c), the recorder (record.c), the screen (screen.c), and so are
 * the event watcher (events.c) and the exporter's main thread (serve_sink.c), sinks without a
 * source; each hands pipeline_run its sink, and the loop steps the source (source.h) when the
 * sink's clock or its input says so and gives the sink each sample; a sink waits through
 * pipeline_wait, the one wait of cgtop2. The exporter's scrapes are not paced: each pulls from
 * the live source on libmicrohttpd's threads.
 *
 * Pacing: a step forward is due every k->delay_ns from the last one that was due, so that the
 * refreshes keep their rate; one that is late (a sample that took longer than -d, a pause) is
 * taken at once and the clock starts again from it, with no burst to make up what was missed.
 */
#ifndef CGTOP2_PIPELINE_H
#define CGTOP2_PIPELINE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"

/*
 * What a sink asks for after waiting: a step of the source (enum source_step), one of these,
 * or -errno to stop failing.
 */
enum {
	PIPE_CLOCK = 16, /* nothing: the next step forward when the clock says so */
	PIPE_REFRESH, /* a step forward now, and the clock starts again from it */
	PIPE_STOP,
};

struct sink;

struct sink_ops {
	/*
	 * After each turn of the loop: step is the step taken (PIPE_CLOCK: none was due) and r its
	 * outcome, 1 with the sample in *s, 0 when the source had none such. 0 to go on, 1 to stop,
	 * or -errno to stop failing, with k->failed saying what failed.
	 */
	int (*put)(struct sink *k, int step, int r, const struct source_sample *s);
	/*
	 * Until deadline_ns (CLOCK_MONOTONIC; UINT64_MAX: none, as a paused screen) or input: what
	 * to do next (-errno with k->failed set: stop failing). NULL: sleep until the deadline.
	 */
	int (*wait)(struct sink *k, uint64_t deadline_ns);
};

struct sink {
	const struct sink_ops *ops;
	uint64_t delay_ns; /* the clock's period (0: as fast as the source goes, a replay) */
	bool paused; /* no step forward by the clock */
	unsigned long iterations; /* stop after this many samples forward; 0: never */
	const char *failed; /* what failed, when the loop ends on an error */
};

/*
 * Run src into k until k stops, a step fails or k->iterations: first is the first step
 * (SOURCE_SEEK: to at_ns). src NULL: no step is taken, k is told (put, step PIPE_CLOCK) after
 * each wait, and its wait decides what it waits for. 0, or -errno with k->failed saying what
 * failed.
 */
int pipeline_run(struct source *src, struct sink *k, enum source_step first, uint64_t at_ns);

struct cg_watch;
/*
 * A sink's wait: until deadline_ns (CLOCK_MONOTONIC; UINT64_MAX: none), one of fds[0..n)
 * (poll's events and revents) or, with w, the watcher's events (through cg_watch_poll, which
 * its PSI triggers need). > 0 when something is ready, 0 at the deadline or on a signal,
 * -errno.
 */
int pipeline_wait(struct cg_watch *w, struct pollfd *fds, size_t n, uint64_t deadline_ns);

#endif
