// SPDX-License-Identifier: MIT
/* Test helper for cgtop2: join cgroups, then spin (or sleep) in N named threads, holding memory. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int idle;
static const char *threads_file;

static void usage(void)
{
	fprintf(stderr,
		"usage: top_busy [-s] [-n THREADS] [-m MIB] [-T CGROUP.THREADS] [-r READYFILE] [PROCSFILE...]\n");
	exit(2);
}

static void write_file(const char *path, long id)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int n = snprintf(buf, sizeof(buf), "%ld\n", id);

	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		fprintf(stderr, "top_busy: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
}

static void spin(void)
{
	volatile unsigned long x = 0;

	for (;;) {
		if (idle)
			pause();
		x++;
	}
}

static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "busy-%d", (int)(long)arg);
	pthread_setname_np(pthread_self(), name);
	if (threads_file)
		write_file(threads_file, (long)syscall(SYS_gettid));
	spin();
	return NULL;
}

int main(int argc, char **argv)
{
	int opt, threads = 0;
	long mib = 0;
	const char *ready = NULL;

	while ((opt = getopt(argc, argv, "sn:m:T:r:")) != -1) {
		switch (opt) {
		case 's':
			idle = 1;
			break;
		case 'n':
			threads = atoi(optarg);
			break;
		case 'm':
			mib = atol(optarg);
			break;
		case 'T':
			threads_file = optarg;
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			usage();
		}
	}
	/* join first, so that everything below is accounted to the cgroups */
	for (int i = optind; i < argc; i++)
		write_file(argv[i], 0);
	if (mib > 0) {
		char *p = malloc((size_t)mib << 20);

		if (!p)
			return 1;
		memset(p, 0x5a, (size_t)mib << 20);
	}
	for (int i = 0; i < threads; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, worker, (void *)(long)(i + 1)) != 0)
			return 1;
	}
	if (ready) {
		/* tests wait for this file: every thread has joined once it exists */
		usleep(50000);
		close(open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	}
	if (threads)
		for (;;)
			pause();
	spin();
	return 0;
}
