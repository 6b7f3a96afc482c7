// SPDX-License-Identifier: MIT
/*
 * Benchmark aid for bench/cgtop2*.sh and bench/scale.sh:
 *   cgtop2_floor rusage CMD [ARG...]   run CMD (stdout to /dev/null), print
 *                                       "USER_SYS_US MAXRSS_KB WALL_US"
 *   cgtop2_floor floor ITER DIR FILE... the floor: pread at offset 0 on cached fds of FILE in
 *                                       every child directory of DIR, ITER rounds; prints
 *                                       "US_PER_ROUND FILES_PER_ROUND CACHED"
 *   cgtop2_floor changed ITER DIR FILE  one read per cgroup whose state may have changed: pread
 *                                       at offset 0 on a cached fd of FILE in DIR and in each
 *                                       child whose cgroup.events says populated 1 (an empty
 *                                       cgroup changes only with a cgroup.events change, which
 *                                       inotify tells), ITER rounds; prints
 *                                       "CPU_US_PER_ROUND WALL_US_PER_ROUND READS_PER_ROUND"
 *   cgtop2_floor every MS DIR FILE      the same reads, one round every MS milliseconds until
 *                                       killed, as cgtop2 refreshes every -d (measured from
 *                                       outside as cgtop2 is); prints "READS_PER_ROUND" first
 * When not every file fits under the fd limit, the floor is the cost per cached pread times the
 * files a round has: what the kernel charges at best to regenerate and copy them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/file.h"

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static long long mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int do_rusage(char **argv)
{
	struct rusage ru;
	int status, null;
	long long t0 = mono_us();
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "cgtop2_floor: %s failed (status %d)\n", argv[0], status);
		return 1;
	}
	printf("%lld %ld %lld\n", tv_us(ru.ru_utime) + tv_us(ru.ru_stime), ru.ru_maxrss,
	       mono_us() - t0);
	return 0;
}

static int do_floor(int iters, const char *dir, char **files, int n_files)
{
	struct rlimit rl;
	struct rusage a, b;
	DIR *d = opendir(dir);
	struct dirent *de;
	int *fds = NULL;
	size_t n = 0, cap = 0, total = 0, budget;
	char buf[4096];

	if (!d)
		return 1;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	budget = rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 0;
	while ((de = readdir(d))) {
		int dfd;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		total += (size_t)n_files;
		if (n + (size_t)n_files + 1 > budget)
			continue;
		dfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			continue;
		for (int f = 0; f < n_files; f++) {
			int fd = openat(dfd, files[f], O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				fds = realloc(fds, cap * sizeof(*fds));
				if (!fds)
					return 1;
			}
			fds[n++] = fd;
		}
		close(dfd);
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "cgtop2_floor: no files under %s\n", dir);
		return 1;
	}
	getrusage(RUSAGE_SELF, &a);
	for (int i = 0; i < iters; i++)
		for (size_t k = 0; k < n; k++)
			if (cg_pread_buf(fds[k], buf, sizeof(buf)) < 0)
				return 1;
	getrusage(RUSAGE_SELF, &b);
	{
		double per_read = (double)(tv_us(b.ru_utime) + tv_us(b.ru_stime) -
					   tv_us(a.ru_utime) - tv_us(a.ru_stime)) /
				  ((double)iters * (double)n);

		printf("%.0f %zu %zu\n", per_read * (double)total, total, n);
	}
	return 0;
}

/* 1 when DIR's cgroup.events (dfd) says populated 1 */
static int populated(int dfd)
{
	char buf[256];
	int fd = openat(dfd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : cg_pread_buf(fd, buf, sizeof(buf));

	if (fd >= 0)
		close(fd);
	return len > 0 && strstr(buf, "populated 1") != NULL;
}

/* Keeps an fd of FILE in dfd (when populated) in fds[], up to cap; counts it in *want. */
static void keep_changed(int dfd, const char *file, int *fds, size_t cap, size_t *n, size_t *want)
{
	int fd;

	if (!populated(dfd))
		return;
	(*want)++;
	if (*n >= cap)
		return;
	fd = openat(dfd, file, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		fds[(*n)++] = fd;
}

/*
 * Opens FILE in DIR and in each populated child, as many as the fd limit allows: the fds in
 * *ret (n of them), the count of cgroups that may have changed in *want.
 */
static int open_changed(const char *dir, const char *file, int **ret, size_t *n, size_t *want)
{
	struct rlimit rl;
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap;

	*n = *want = 0;
	if (!d)
		return -1;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	cap = rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 1;
	*ret = calloc(cap, sizeof(**ret));
	if (!*ret) {
		closedir(d);
		return -1;
	}
	keep_changed(dirfd(d), file, *ret, cap, n, want);
	while ((de = readdir(d))) {
		int dfd;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		dfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			continue;
		keep_changed(dfd, file, *ret, cap, n, want);
		close(dfd);
	}
	closedir(d);
	return 0;
}

static int do_changed(int iters, const char *dir, const char *file)
{
	struct rusage a, b;
	size_t n, want;
	long long w0, w1;
	double per_read_cpu, per_read_wall;
	int *fds;
	char buf[4096];

	if (open_changed(dir, file, &fds, &n, &want) < 0)
		return 1;
	if (!n) {
		/* nothing may have changed: the floor is no read at all */
		printf("0 0 0\n");
		return 0;
	}
	getrusage(RUSAGE_SELF, &a);
	w0 = mono_us();
	for (int i = 0; i < iters; i++)
		for (size_t k = 0; k < n; k++)
			if (cg_pread_buf(fds[k], buf, sizeof(buf)) < 0)
				return 1;
	w1 = mono_us();
	getrusage(RUSAGE_SELF, &b);
	per_read_cpu = (double)(tv_us(b.ru_utime) + tv_us(b.ru_stime) - tv_us(a.ru_utime) -
				tv_us(a.ru_stime)) /
		       ((double)iters * (double)n);
	per_read_wall = (double)(w1 - w0) / ((double)iters * (double)n);
	printf("%.0f %.0f %zu\n", per_read_cpu * (double)want, per_read_wall * (double)want, want);
	return 0;
}

static int do_every(int ms, const char *dir, const char *file)
{
	struct timespec pause = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };
	size_t n, want;
	int *fds;
	char buf[4096];

	if (open_changed(dir, file, &fds, &n, &want) < 0)
		return 1;
	/* the reads beyond the fd limit are left out: say so by the two counts */
	printf("%zu %zu\n", want, n);
	fflush(stdout);
	for (;;) {
		nanosleep(&pause, NULL);
		for (size_t k = 0; k < n; k++)
			if (cg_pread_buf(fds[k], buf, sizeof(buf)) < 0)
				return 1;
	}
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "rusage"))
		return do_rusage(argv + 2);
	if (argc >= 5 && !strcmp(argv[1], "floor"))
		return do_floor(atoi(argv[2]), argv[3], argv + 4, argc - 4);
	if (argc == 5 && !strcmp(argv[1], "changed"))
		return do_changed(atoi(argv[2]), argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "every"))
		return do_every(atoi(argv[2]), argv[3], argv[4]);
	fprintf(stderr,
		"usage: cgtop2_floor rusage CMD... | floor ITER DIR FILE... | changed ITER DIR FILE | "
		"every MS DIR FILE\n");
	return 2;
}
