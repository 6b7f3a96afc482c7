// SPDX-License-Identifier: MIT
/* runas UID GID COMMAND...: drop to a user (no PAM, no login), for delegation tests. */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: runas UID GID COMMAND [ARG...]\n");
		return 125;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid = (gid_t)strtoul(argv[2], NULL, 10);
	if (setgroups(0, NULL) < 0 || setgid(gid) < 0 || setuid(uid) < 0) {
		perror("runas");
		return 125;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
