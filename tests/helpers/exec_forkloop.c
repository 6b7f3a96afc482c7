// SPDX-License-Identifier: MIT
/*
 * exec_forkloop [MAX [PIDFILE]]: fork children that sleep, until fork fails or MAX (200) are
 * running; print "forks=N errno=NAME", write the children's pids to PIDFILE, and exit without
 * reaping them: they are the leftovers a transient cgroup must take care of.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Under SAN=1 LeakSanitizer's exit check needs a thread, and pids.max is exhausted by design:
 * that check would fail for want of a task, not of memory.
 */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return 1;
}

int main(int argc, char **argv)
{
	int max = argc > 1 ? atoi(argv[1]) : 200, n = 0, err = 0;
	FILE *pf = argc > 2 ? fopen(argv[2], "w") : NULL;

	if (max <= 0 || max > 1000)
		max = 200;
	while (n < max) {
		pid_t p = fork();

		if (p < 0) {
			err = errno;
			break;
		}
		if (p == 0) {
			/* bounded, in case nothing kills us: a test must not leave processes behind */
			for (int i = 0; i < 600; i++)
				sleep(1);
			_exit(0);
		}
		if (pf)
			fprintf(pf, "%d\n", (int)p);
		n++;
	}
	if (pf)
		fclose(pf);
	printf("forks=%d errno=%s\n", n, err ? strerrorname_np(err) : "none");
	return 0;
}
