// SPDX-License-Identifier: MIT
/*
 * cgmigrate_time [-c] CMD [ARG...]: run CMD (its output to /dev/null) and print its wall time in
 * microseconds, from just before fork to just after wait: the same stopwatch for the floor,
 * cgmigrate and cgclassify. -c: then its CPU time too (user + system of CMD and its threads,
 * from wait4), "WALL CPU". Exits with CMD's status.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
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
	int cpu = argc > 1 && !strcmp(argv[1], "-c");
	struct rusage ru = { 0 };
	long long t0;
	int st;
	pid_t p;

	argc -= cpu;
	argv += cpu;
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
	wait4(p, &st, 0, &ru);
	if (cpu)
		printf("%lld %lld\n", now_us() - t0,
		       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
			       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	else
		printf("%lld\n", now_us() - t0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
