// SPDX-License-Identifier: MIT
/*
 * cgmigrate_floor [-l] PIDFILE PROCS...: the floor cgmigrate is measured against. Reads the
 * pids, opens each cgroup.procs once, then one write(2) per pid and file. Nothing else: no
 * checks, no verification. Exits 1 if any write failed.
 * -l: then read the first PROCS file to its end once: the least a verification of the moves
 * costs (cgmigrate verifies with one such listing; the kernel builds and sorts it per read).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "floor.h"

int main(int argc, char **argv)
{
	int listing = argc > 1 && !strcmp(argv[1], "-l");
	FILE *f;
	int nfd, fds[8], bad = 0;
	size_t n = 0, cap = 1024;
	int *pids = malloc(cap * sizeof(int));
	char buf[32];
	int pid;

	argc -= listing;
	argv += listing;
	f = argc > 2 ? fopen(argv[1], "re") : NULL;
	nfd = argc - 2;
	if (!f || nfd > 8) {
		fprintf(stderr, "usage: cgmigrate_floor [-l] PIDFILE PROCS... (at most 8)\n");
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

			/* the first failure is named: a benchmark that cannot say why it stopped is
			 * rerun for an hour to find out */
			if (write(fds[i], buf, (size_t)len) != len && !bad++)
				fprintf(stderr, "cgmigrate_floor: %s: pid %d: %m\n", argv[i + 2],
					pids[k]);
		}
	if (listing && floor_read_all(argv[2]) < 0)
		bad = 1;
	return bad != 0;
}
