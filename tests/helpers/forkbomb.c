// SPDX-License-Identifier: MIT
/*
 * forkbomb SECONDS: every process forks again and again (one fork a millisecond each), so
 * the count grows until pids.max stops it, and every process dies after SECONDS on its own
 * (alarm, inherited by nothing: each child sets its own from the same deadline). A kill that
 * lists then signals loses against it; one that freezes first does not.
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 20;
	time_t end = time(NULL) + (secs > 0 && secs <= 120 ? secs : 20);
	const struct timespec ms = { 0, 1000000 };

	for (;;) {
		time_t now = time(NULL);

		if (now >= end)
			return 0;
		alarm((unsigned)(end - now) + 1);
		if (fork() < 0)
			nanosleep(&ms, NULL);
		nanosleep(&ms, NULL);
	}
}
