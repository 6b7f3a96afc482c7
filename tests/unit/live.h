/* SPDX-License-Identifier: MIT */
/* The live unit tests' sandbox: cgkit-test.<pid> at the top of the unified hierarchy. */
#ifndef CGKIT_TEST_LIVE_H
#define CGKIT_TEST_LIVE_H

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/mount.h"

/*
 * Load the layout, make the sandbox (name into sb) and route SIGTERM, SIGINT and SIGHUP (the
 * driver's timeout) to on_signal, which is to remove it. Returns 0, or what main is to return:
 * 77 (a skip, said why: not root, no unified hierarchy) or 1; nothing is left to free then.
 */
static inline int live_sandbox(struct cg_layout **ret_l, struct cg_hier **ret_u, int *ret_fd,
			       char *sb, size_t size, void (*on_signal)(int))
{
	struct cg_layout *l = NULL;
	int fd;

	if (geteuid() != 0) {
		puts("needs root");
		return 77;
	}
	if (cg_layout_load(&l) < 0 || !l->unified) {
		puts("no unified hierarchy here");
		cg_layout_free(l);
		return 77;
	}
	fd = cg_hier_fd(l->unified);
	snprintf(sb, size, "cgkit-test.%d", (int)getpid());
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	if (fd < 0 || mkdirat(fd, sb, 0755) < 0) {
		perror("mkdir sandbox");
		sb[0] = '\0';
		cg_layout_free(l);
		return 1;
	}
	*ret_l = l;
	*ret_u = l->unified;
	*ret_fd = fd;
	return 0;
}

/*
 * Remove dfd's subtree name, depth first, by fd: the tests' own removal, which depends on
 * nothing under test (cg_walk, cg_remove). What still has processes stays (kill them first).
 */
static inline void live_remove(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;

	if (dir) {
		while ((e = readdir(dir)))
			if (e->d_type == DT_DIR && strcmp(e->d_name, ".") &&
			    strcmp(e->d_name, ".."))
				live_remove(dirfd(dir), e->d_name);
		closedir(dir);
	} else if (fd >= 0) {
		close(fd);
	}
	(void)unlinkat(dfd, name, AT_REMOVEDIR);
}

#endif
