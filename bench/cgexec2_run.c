// SPDX-License-Identifier: MIT
/*
 * cgexec2_run N COMMAND [ARG...]: start COMMAND N times, one after the other (vfork, exec,
 * wait), and print "median_us p10_us cpu_us": the median and 10th percentile of the wall
 * time per run, and the mean CPU time (user + system) per run of the children. The low
 * percentile is what a run costs when the machine leaves it alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroups/cgroup.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[1]) : 0;
	uint64_t *t;
	struct rusage ru;

	if (n <= 0) {
		fprintf(stderr, "usage: cgexec2_run N COMMAND [ARG...]\n");
		return 2;
	}
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < n; i++) {
		uint64_t t0 = cg_now_ns();
		pid_t pid;
		int st;

		pid = vfork();
		if (pid < 0) {
			perror("vfork");
			return 1;
		}
		if (pid == 0) {
			execv(argv[2], argv + 2);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "cgexec2_run: %s failed (status %d)\n", argv[2], st);
			return 1;
		}
		t[i] = cg_now_ns() - t0;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_u64);
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%llu %llu %llu\n", (unsigned long long)(t[n / 2] / 1000),
	       (unsigned long long)(t[n / 10] / 1000),
	       (unsigned long long)((tv_us(&ru.ru_utime) + tv_us(&ru.ru_stime)) / (uint64_t)n));
	free(t);
	return 0;
}
