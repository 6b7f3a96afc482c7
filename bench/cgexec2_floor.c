// SPDX-License-Identifier: MIT
/*
 * cgexec2_floor [-v] PROCS COMMAND [ARG...]: the floor cgexec2's exec mode is measured against.
 * Writes its own pid into the cgroup.procs file PROCS and execs COMMAND: the one migration
 * and the one extra exec that any move-myself-then-exec wrapper pays. Nothing else: no mount
 * discovery, no path checks, no verification. Exits 125 when the move fails.
 * -v (the verified floor): also the two reads cgexec2's contract needs, each read to its end
 * once: /proc/self/mountinfo before the move (where the hierarchy of "cpu:X" is mounted: the
 * kernel prints every mount of the namespace) and /proc/self/cgroup after it (the check that
 * the process is where it was moved).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "floor.h"

int main(int argc, char **argv)
{
	int verified = argc > 1 && !strcmp(argv[1], "-v");
	char buf[24];
	int fd, n;

	argc -= verified;
	argv += verified;
	if (argc < 3) {
		fprintf(stderr, "usage: cgexec2_floor [-v] PROCS COMMAND [ARG...]\n");
		return 125;
	}
	if (verified && floor_read_all("/proc/self/mountinfo") < 0) {
		perror("cgexec2_floor: /proc/self/mountinfo");
		return 125;
	}
	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	n = snprintf(buf, sizeof(buf), "%d", (int)getpid());
	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		perror("cgexec2_floor");
		return 125;
	}
	if (verified && floor_read_all("/proc/self/cgroup") < 0) {
		perror("cgexec2_floor: /proc/self/cgroup");
		return 125;
	}
	execv(argv[2], argv + 2);
	perror("cgexec2_floor");
	return 127;
}
