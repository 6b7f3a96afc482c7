/* SPDX-License-Identifier: MIT */
/*
 * Monotonic time in nanoseconds, sleeps, and the timeouts the tools share. (Not "time.h": with
 * -Icommon that name would stand in for the C library's <time.h> in every file.)
 */
#ifndef CGKIT_CLOCK_H
#define CGKIT_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC  1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

/*
 * How long processes get to go once told to: the wait for a kill to empty a cgroup, for a
 * freeze to settle, for a killed child to be reaped, and cgcreate2's default --grace between
 * SIGTERM and SIGKILL. A SIGKILLed task normally goes in milliseconds; one releasing gigabytes
 * of memory or finishing an uninterruptible I/O takes longer, and 5 s covers that. What takes
 * longer is held by something a kill cannot undo (a frozen ancestor, a task stuck in D state):
 * waiting more would only hang the tool, so it gives up and says what is left. The man pages
 * promise 5 s.
 */
#define CG_KILL_TIMEOUT_NS (5 * NSEC_PER_SEC)

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t cg_now_ns(void);
/* Sleep ns, a signal's interruption resumed: the whole time passes. */
void cg_sleep_ns(uint64_t ns);
/* ns -> struct timespec (relative or CLOCK_MONOTONIC absolute). */
struct timespec cg_timespec_ns(uint64_t ns);

#endif
