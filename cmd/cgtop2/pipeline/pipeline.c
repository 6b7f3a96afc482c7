// SPDX-License-Identifier: MIT
/* cgtop2's scheduler (pipeline.h): one clock, one source, one sink, one wait. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <time.h>

#include "base/clock.h"
#include "watch/watch.h"

#include "pipeline.h"

/*
 * The one place cgtop2's main thread waits: ppoll, or the watcher's epoll_wait through
 * cg_watch_poll (tests/structure.sh, test_one_loop).
 */
int pipeline_wait(struct cg_watch *w, struct pollfd *fds, size_t n, uint64_t deadline_ns)
{
	uint64_t now = cg_now_ns(), ms;
	struct timespec ts;
	int r;

	if (deadline_ns == UINT64_MAX && !w && !n)
		return 0; /* nothing to wait for, and no end */
	/* the watcher's wait takes the fds in: its PSI wake-ups are said to the first poll only */
	if (w) {
		int timeout = -1;

		if (deadline_ns != UINT64_MAX) {
			ms = deadline_ns > now
				     ? (deadline_ns - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC
				     : 0;
			timeout = ms > INT_MAX ? INT_MAX : (int)ms;
		}
		return cg_watch_poll(w, fds, n, timeout);
	}
	/* to the nanosecond: a sink with no fds sleeps until its clock, whatever interrupts it */
	do {
		now = cg_now_ns();
		ts = cg_timespec_ns(deadline_ns > now ? deadline_ns - now : 0);
		r = ppoll(fds, n, deadline_ns == UINT64_MAX ? NULL : &ts, NULL);
	} while (r < 0 && errno == EINTR && !n);
	return r < 0 ? (errno == EINTR ? 0 : -errno) : r;
}

int pipeline_run(struct source *src, struct sink *k, enum source_step first, uint64_t at_ns)
{
	struct source_sample smp = { 0 };
	unsigned long done = 0;
	uint64_t next = 0;
	/* a sink without a source (--events) is only waited for and told */
	int want = src ? (int)first : PIPE_CLOCK;

	for (;;) {
		uint64_t now = cg_now_ns();
		int r = 0;

		if (want == PIPE_REFRESH) {
			next = 0;
			want = PIPE_CLOCK;
		}
		if (want == PIPE_CLOCK && src && !k->paused && now >= next)
			want = SOURCE_NEXT;
		if (want != PIPE_CLOCK) {
			r = source_step(src, (enum source_step)want, at_ns, &smp);
			/* a step the source cannot take (back, on a live one) has no sample */
			if (r == -EOPNOTSUPP)
				r = 0;
			if (r < 0) {
				k->failed = "sample";
				return r;
			}
			if (r > 0 && want != SOURCE_PREV && want != SOURCE_FIRST &&
			    want != SOURCE_LAST)
				done++;
			if (want == SOURCE_NEXT && now >= next)
				next = next && next + k->delay_ns >= now ? next + k->delay_ns
									 : now + k->delay_ns;
		}
		r = k->ops->put(k, want, r, &smp);
		if (r)
			return r < 0 ? r : 0;
		if (k->iterations && done >= k->iterations)
			return 0;
		if (k->ops->wait) {
			want = k->ops->wait(k, k->paused ? UINT64_MAX : next);
		} else {
			want = pipeline_wait(NULL, NULL, 0, next);
			want = want < 0 ? want : PIPE_CLOCK;
		}
		if (want == PIPE_STOP || want < 0)
			return want < 0 ? want : 0;
	}
}
