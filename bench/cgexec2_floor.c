// SPDX-License-Identifier: MIT
/*
 * cgexec2_floor PROCS COMMAND [ARG...]: the floor cgexec2's exec mode is measured against.
 * Writes its own pid into the cgroup.procs file PROCS and execs COMMAND: the one migration
 * and the one extra exec that any move-myself-then-exec wrapper pays. Nothing else: no mount
 * discovery, no path checks, no verification. Exits 125 when the move fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[24];
	int fd, n;

	if (argc < 3) {
		fprintf(stderr, "usage: cgexec2_floor PROCS COMMAND [ARG...]\n");
		return 125;
	}
	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	n = snprintf(buf, sizeof(buf), "%d", (int)getpid());
	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		perror("cgexec2_floor");
		return 125;
	}
	execv(argv[2], argv + 2);
	perror("cgexec2_floor");
	return 127;
}
