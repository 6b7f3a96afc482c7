// SPDX-License-Identifier: MIT
/*
 * Benchmark aid for bench/cgtop2.sh:
 *   cgtop2_floor rusage CMD [ARG...]   run CMD (stdout to /dev/null), print "USER_SYS_US MAXRSS_KB"
 *   cgtop2_floor floor ITER DIR FILE... the floor: pread at offset 0 on cached fds of FILE in
 *                                       every child directory of DIR, ITER rounds; prints
 *                                       "US_PER_ROUND FILES_PER_ROUND CACHED"
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
#include <unistd.h>

#include "file.h"

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static int do_rusage(char **argv)
{
	struct rusage ru;
	int status, null;
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
	printf("%lld %ld\n", tv_us(ru.ru_utime) + tv_us(ru.ru_stime), ru.ru_maxrss);
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

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "rusage"))
		return do_rusage(argv + 2);
	if (argc >= 5 && !strcmp(argv[1], "floor"))
		return do_floor(atoi(argv[2]), argv[3], argv + 4, argc - 4);
	fprintf(stderr, "usage: cgtop2_floor rusage CMD... | floor ITER DIR FILE...\n");
	return 2;
}
