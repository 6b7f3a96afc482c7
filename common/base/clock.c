// SPDX-License-Identifier: MIT
/* Monotonic time in nanoseconds, sleeps, and the timeouts the tools share. */
#include "clock.h"

#include <errno.h>

uint64_t cg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

struct timespec cg_timespec_ns(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NSEC_PER_SEC),
				  .tv_nsec = (long)(ns % NSEC_PER_SEC) };
}

void cg_sleep_ns(uint64_t ns)
{
	struct timespec ts = cg_timespec_ns(ns);

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
