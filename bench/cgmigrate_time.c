// SPDX-License-Identifier: MIT
/*
 * cgmigrate_time CMD [ARG...]: run CMD (its output to /dev/null) and print its wall time in
 * microseconds, from just before fork to just after wait: the same stopwatch for the floor,
 * cgmigrate and cgclassify. Exits with CMD's status.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	long long t0;
	int st;
	pid_t p;

	if (argc < 2)
		return 2;
	t0 = now_us();
	p = fork();
	if (p == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	waitpid(p, &st, 0);
	printf("%lld\n", now_us() - t0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
