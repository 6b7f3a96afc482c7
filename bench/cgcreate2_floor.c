// SPDX-License-Identifier: MIT
/*
 * The floor of creating cgroups: one mkdir(2) per cgroup from one process, nothing else, so
 * that the kernel's own work is all that is measured. Usage: cgcreate2_floor DIR NAME...
 * (each NAME made under DIR; with -x, removed instead).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	int rm = argc > 1 && !strcmp(argv[1], "-x");
	int dfd;

	if (argc < 2 + rm) {
		fprintf(stderr, "usage: cgcreate2_floor [-x] DIR NAME...\n");
		return 64;
	}
	dfd = open(argv[1 + rm], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		perror(argv[1 + rm]);
		return 1;
	}
	for (int i = 2 + rm; i < argc; i++)
		if ((rm ? unlinkat(dfd, argv[i], AT_REMOVEDIR) : mkdirat(dfd, argv[i], 0755)) < 0) {
			perror(argv[i]);
			return 1;
		}
	return 0;
}
