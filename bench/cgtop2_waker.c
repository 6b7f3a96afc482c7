// SPDX-License-Identifier: MIT
/*
 * A process that wakes every N microseconds (argv[1], default 50,000) and sleeps again, for
 * ever: the CPU counters of its cgroup move at each wake, so that bench/scale.sh's busy rows
 * have that share of the cgroups changing between two refreshes or scrapes.
 */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long us = argc > 1 ? strtol(argv[1], NULL, 10) : 50000;
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	for (;;)
		nanosleep(&ts, NULL);
}
