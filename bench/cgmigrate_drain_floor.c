// SPDX-License-Identifier: MIT
/*
 * cgmigrate_drain_floor [-n] SRC DST [FSRC FDST]: the floor a frozen drain is measured against, the
 * kernel work of `cgmigrate -z -F SRC -g DST` and nothing else: freeze the source and the
 * destination, read the source's cgroup.procs once, one write(2) per pid into DST's
 * cgroup.procs, thaw both. v2: SRC and DST are cgroup2 directories (cgroup.freeze, waited for
 * on cgroup.events). v1: SRC and DST are in the hierarchy the processes move in, FSRC and FDST
 * the freezer hierarchy's cgroups of the same paths (freezer.state, polled until FROZEN).
 * -n: no freeze (the floor of a drain without --freeze: one listing, one pass of writes).
 * Prints one line: the milliseconds of each step, the pids listed, the writes that failed, the
 * processes the source lists afterwards. Exits 1 if it lists any.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int put(const char *dir, const char *file, const char *val)
{
	char p[4096];
	int fd, ok;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* Reads dir/file whole into buf (NUL-terminated); its length, or -1. */
static ssize_t get(const char *dir, const char *file, char *buf, size_t size)
{
	char p[4096];
	ssize_t n = 0, k;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (n < (ssize_t)size - 1 && (k = read(fd, buf + n, size - 1 - (size_t)n)) > 0)
		n += k;
	close(fd);
	buf[n] = '\0';
	return n;
}

/* Freezes (or thaws) and waits until the kernel says so: what a drain must wait for too. */
static int freeze(const char *dir, int v1, int on)
{
	char buf[4096];
	const struct timespec tick = { 0, 1000000 };

	if (put(dir, v1 ? "freezer.state" : "cgroup.freeze",
		v1 ? (on ? "FROZEN" : "THAWED") : (on ? "1" : "0")) < 0)
		return -1;
	if (!on)
		return 0;
	for (int i = 0; i < 30000; i++) {
		if (v1 ? get(dir, "freezer.state", buf, sizeof(buf)) > 0 &&
				    !strncmp(buf, "FROZEN", 6)
		       : get(dir, "cgroup.events", buf, sizeof(buf)) > 0 && strstr(buf, "frozen 1"))
			return 0;
		nanosleep(&tick, NULL);
	}
	return -1;
}

int main(int argc, char **argv)
{
	static char list[1 << 20];
	int nofreeze = argc > 1 && !strcmp(argv[1], "-n");
	int v1, fd, bad = 0, n = 0, left = 0;
	const char *fsrc, *fdst;
	double t[6];
	char p[4096];

	argc -= nofreeze;
	argv += nofreeze;
	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: cgmigrate_drain_floor [-n] SRC DST [FSRC FDST]\n");
		return 2;
	}
	v1 = argc == 5;
	fsrc = v1 ? argv[3] : argv[1];
	fdst = v1 ? argv[4] : argv[2];
	snprintf(p, sizeof(p), "%s/cgroup.procs", argv[2]);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(p);
		return 2;
	}
	t[0] = now_ms();
	if (!nofreeze && (freeze(fsrc, v1, 1) < 0 || freeze(fdst, v1, 1) < 0)) {
		fprintf(stderr, "cgmigrate_drain_floor: freeze failed\n");
		freeze(fsrc, v1, 0);
		freeze(fdst, v1, 0);
		return 2;
	}
	t[1] = now_ms();
	if (get(argv[1], "cgroup.procs", list, sizeof(list)) < 0)
		return 2;
	t[2] = now_ms();
	for (char *s = list, *e; *s; s = e) {
		e = strchr(s, '\n');
		if (!e)
			break;
		n++;
		if (write(fd, s, (size_t)(e - s)) != e - s)
			bad++;
		e++;
	}
	t[3] = now_ms();
	if (!nofreeze) {
		freeze(fdst, v1, 0);
		freeze(fsrc, v1, 0);
	}
	t[4] = now_ms();
	get(argv[1], "cgroup.procs", list, sizeof(list));
	for (const char *s = list; *s; s++)
		left += *s == '\n';
	printf("drain floor%s: freeze %.1f ms, list %.1f ms, %d writes %.1f ms (%d failed), thaw %.1f ms, total %.1f ms, left %d\n",
	       nofreeze ? " -n" : "", t[1] - t[0], t[2] - t[1], n, t[3] - t[2], bad, t[4] - t[3],
	       t[4] - t[0], left);
	return left != 0;
}
