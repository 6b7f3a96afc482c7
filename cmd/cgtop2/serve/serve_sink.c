// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen's main thread, a sink of the scheduler with no source, as --events is: its
 * wait (pipeline_wait's, through trig_counter_wait) is for the stop and reload signals on a
 * signalfd, the guard's next sweep and --psi-trigger's watcher; its put sweeps, counts and
 * reloads. libmicrohttpd serves on threads of its own and samples there on each scrape: the
 * scheduler paces nothing here.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "events/triggers.h"
#include "pipeline/pipeline.h"
#include "serve_guard.h"
#include "serve_io.h"
#include "serve_sink.h"
#include "tool.h"

#define SERVE_SWEEP_NS (250 * NSEC_PER_MSEC) /* how often deadlines are looked at */

struct serve_sink {
	struct sink k;
	const struct serve_sink_opts *o;
	int sfd;
	uint64_t next_sweep;
	bool waited;
	struct pollfd p[1];
};

static int sink_wait(struct sink *k, uint64_t deadline_ns)
{
	struct serve_sink *ss = (struct serve_sink *)k;
	int r;

	(void)deadline_ns; /* paused: a sink with no source has no clock of the scheduler's */
	ss->p[0] = (struct pollfd){ .fd = ss->sfd, .events = POLLIN };
	ss->waited = true;
	r = trig_counter_wait(ss->o->tc, ss->p, 1, ss->next_sweep);
	if (r < 0) {
		k->failed = "poll";
		return r;
	}
	return PIPE_CLOCK;
}

static int sink_put(struct sink *k, int step, int r, const struct source_sample *smp)
{
	struct serve_sink *ss = (struct serve_sink *)k;
	struct signalfd_siginfo si;
	bool stop = false;

	(void)step;
	(void)r;
	(void)smp;
	/* told once before the first wait: nothing came yet */
	if (!ss->waited)
		return 0;
	if (cg_now_ns() >= ss->next_sweep) {
		size_t open, shut = guard_sweep(ss->o->guard, &open);

		if (shut)
			serve_say_http(
				"closed %zu of %zu connections: no complete request line and headers within %d s",
				shut, open, (int)(SERVE_HEADER_NS / NSEC_PER_SEC));
		ss->next_sweep = cg_now_ns() + SERVE_SWEEP_NS;
	}
	if (!(ss->p[0].revents & POLLIN))
		return 0;
	/* in the order they came: a SIGHUP before a SIGTERM is still a reload */
	while (read(ss->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGHUP)
			stop = true;
		else if (!stop)
			ss->o->reload(ss->o->arg);
	}
	return stop ? 1 : 0;
}

static const struct sink_ops serve_sink_ops = { .put = sink_put, .wait = sink_wait };

int serve_sink_run(const struct serve_sink_opts *o)
{
	_cleanup_close_ int sfd = signalfd(-1, o->signals, SFD_CLOEXEC | SFD_NONBLOCK);
	struct serve_sink ss = { .k = { .ops = &serve_sink_ops, .paused = true },
				 .o = o,
				 .sfd = sfd,
				 .next_sweep = cg_now_ns() + SERVE_SWEEP_NS };
	int r;

	if (sfd < 0) {
		tool_say("signalfd: %s", strerror(errno));
		return 1;
	}
	r = pipeline_run(NULL, &ss.k, SOURCE_NEXT, 0);
	if (r < 0) {
		tool_say("%s: %s", ss.k.failed ? ss.k.failed : "poll", strerror(-r));
		return 1;
	}
	return 0;
}
