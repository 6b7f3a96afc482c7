// SPDX-License-Identifier: MIT
/* Moving processes and threads between cgroups: one write per id, verified, drains. */
#include "migrate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "file.h"

const char *cg_membership_file(const struct cg_hier *h, bool thread)
{
	if (!thread)
		return "cgroup.procs";
	return h->version == 2 ? "cgroup.threads" : "tasks";
}

int cg_attach_open(const struct cg_hier *h, const char *path, bool thread)
{
	_cleanup_close_ int dfd = cg_open_beneath(h->fd, path, O_PATH | O_DIRECTORY, 0);
	_cleanup_close_ int fd = -1;
	int r;

	if (dfd < 0)
		return dfd;
	fd = cg_open_beneath(dfd, cg_membership_file(h, thread), O_WRONLY, 0);
	if (fd < 0)
		return fd;
	r = cg_fd_check_cgroupfs(fd);
	return r < 0 ? r : TAKE_FD(fd);
}

int cg_attach_fd(int fd, pid_t id)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%d", (int)id);

	return cg_write_fd(fd, buf, (size_t)n);
}

int cg_attach(const struct cg_hier *h, const char *path, pid_t id, bool thread,
	      struct cg_diag *d)
{
	_cleanup_close_ int fd = cg_attach_open(h, path, thread);
	enum cg_op op = thread ? CG_OP_ATTACH_THREAD : CG_OP_ATTACH;
	char where[PATH_MAX + 2];
	int r;

	snprintf(where, sizeof(where), "/%s", path);
	if (fd < 0)
		return cg_diag_fail(d, -fd, op, h->version, where, h->label, "open %s",
				    cg_membership_file(h, thread));
	r = cg_attach_fd(fd, id);
	if (r < 0)
		return cg_diag_fail(d, -r, op, h->version, where, h->label, "move %s %d",
				    thread ? "thread" : "process", (int)id);
	return 0;
}
