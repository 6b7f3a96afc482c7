// SPDX-License-Identifier: MIT
/* common/clock: nanosecond conversions, the monotonic clock, a sleep that lasts. */
#include <stdint.h>

#include "check.h"
#include "base/clock.h"

int main(void)
{
	struct timespec ts = cg_timespec_ns(5 * NSEC_PER_SEC + 7);
	uint64_t t0, t1;

	CHECK_INT(ts.tv_sec, 5);
	CHECK_INT(ts.tv_nsec, 7);
	ts = cg_timespec_ns(NSEC_PER_SEC - 1);
	CHECK_INT(ts.tv_sec, 0);
	CHECK_INT(ts.tv_nsec, 999999999);
	ts = cg_timespec_ns(0);
	CHECK_INT(ts.tv_sec, 0);
	CHECK_INT(ts.tv_nsec, 0);
	/* the man pages promise 5 s */
	CHECK(CG_KILL_TIMEOUT_NS == 5000000000ULL);

	t0 = cg_now_ns();
	cg_sleep_ns(2 * NSEC_PER_MSEC);
	t1 = cg_now_ns();
	CHECK(t1 >= t0 + 2 * NSEC_PER_MSEC);
	return CHECK_DONE();
}
