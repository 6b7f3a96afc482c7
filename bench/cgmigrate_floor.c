// SPDX-License-Identifier: MIT
/*
 * cgmigrate_floor PIDFILE PROCS...: the floor cgmigrate is measured against. Reads the pids,
 * opens each cgroup.procs once, then one write(2) per pid and file. Nothing else: no checks,
 * no verification. Exits 1 if any write failed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	FILE *f = argc > 2 ? fopen(argv[1], "re") : NULL;
	int nfd = argc - 2, fds[8], bad = 0;
	size_t n = 0, cap = 1024;
	int *pids = malloc(cap * sizeof(int));
	char buf[32];
	int pid;

	if (!f || nfd > 8) {
		fprintf(stderr, "usage: cgmigrate_floor PIDFILE PROCS... (at most 8)\n");
		return 2;
	}
	while (fscanf(f, "%d", &pid) == 1) {
		if (n == cap)
			pids = realloc(pids, (cap *= 2) * sizeof(int));
		pids[n++] = pid;
	}
	fclose(f);
	for (int i = 0; i < nfd; i++)
		if ((fds[i] = open(argv[i + 2], O_WRONLY | O_CLOEXEC)) < 0) {
			perror(argv[i + 2]);
			return 2;
		}
	for (int i = 0; i < nfd; i++)
		for (size_t k = 0; k < n; k++) {
			int len = snprintf(buf, sizeof(buf), "%d", pids[k]);

			if (write(fds[i], buf, (size_t)len) != len)
				bad = 1;
		}
	return bad;
}
