/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: the exporter's main thread as a sink of the scheduler (serve_sink.c). */
#ifndef CGTOP2_SERVE_SINK_H
#define CGTOP2_SERVE_SINK_H

#include <signal.h>

struct guard;
struct trig_counter;

struct serve_sink_opts {
	struct guard *guard; /* swept for connections past their deadline */
	struct trig_counter *tc; /* --psi-trigger's wake-ups, counted in the wait; or NULL */
	const sigset_t *signals; /* blocked by the caller: SIGHUP calls reload, the others stop */
	void (*reload)(void *arg);
	void *arg;
};

/*
 * Run the exporter's main thread through pipeline_run, a sink with no source, until a stop
 * signal: 0, or the exit status after saying what failed.
 */
int serve_sink_run(const struct serve_sink_opts *o);

#endif
