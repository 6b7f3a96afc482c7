// SPDX-License-Identifier: MIT
/*
 * mig_threads OUTFILE NAME...: a process with one extra thread per NAME, each naming itself
 * with pthread_setname_np (its /proc/PID/task/TID/comm). When all are named it writes
 * "PID\n" then "TID NAME\n" per thread to OUTFILE (renamed into place: readers never see half
 * of it), then idles. Bounded lifetime: a test must not leave it behind.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct worker {
	const char *name;
	pid_t tid;
	pthread_barrier_t *ready;
};

static void *work(void *p)
{
	struct worker *w = p;

	w->tid = (pid_t)syscall(SYS_gettid);
	pthread_setname_np(pthread_self(), w->name);
	pthread_barrier_wait(w->ready);
	for (int i = 0; i < 600; i++)
		sleep(1);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc - 2;
	struct worker *w;
	pthread_barrier_t ready;
	char tmp[4096];
	FILE *f;

	if (n < 1 || n > 64) {
		fprintf(stderr, "usage: mig_threads OUTFILE NAME...\n");
		return 2;
	}
	w = calloc((size_t)n, sizeof(*w));
	pthread_barrier_init(&ready, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++) {
		pthread_t t;

		w[i].name = argv[i + 2];
		w[i].ready = &ready;
		if (pthread_create(&t, NULL, work, &w[i]) != 0)
			return 1;
	}
	pthread_barrier_wait(&ready);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	for (int i = 0; i < n; i++)
		fprintf(f, "%d %s\n", (int)w[i].tid, w[i].name);
	fclose(f);
	rename(tmp, argv[1]);
	for (int i = 0; i < 600; i++)
		sleep(1);
	return 0;
}
