// SPDX-License-Identifier: MIT
/*
 * The sampler's read layer, under stats.c and the collectors: a kind of file of a node read
 * through its kept fd (or opened for the read when the budget is spent), and a task's /proc
 * files through proc.c with cached fds given back when none is left.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "kernel/file.h"
#include "kernel/proc.h"
#include "stats_read.h"
#include "stats_defs.h"
#include "stats_state.h"
#include "stats_tree.h"

/*
 * A v1 membership listing (tasks, cgroup.procs) is built when the file is opened and reused by
 * every later read of that open file until a second passes without one: read again through a
 * kept fd each second, it never changes. So it is opened for each read.
 */
static bool fresh_only(int k)
{
	return st_defs[k].count && st_defs[k].role != R_UNIFIED;
}

int st_read_kind(struct cg_stats *s, struct node *n, int k, char **heap)
{
	const struct file_def *d = &st_defs[k];
	int fd = n->fd[k], tmp = -1, r;
	ssize_t len;

	*heap = NULL;
	if (fd == FD_ABSENT)
		return -ENOENT;
	if (fd < 0) {
		/* one directory open per node and sample (sample_dfd), however many files need it */
		if (d->role == R_PROC)
			tmp = st_open_relieved(s, cg_kf_name(d->file));
		else
			tmp = st_node_open(s, n, s->canon[d->role], cg_kf_name(d->file),
					   O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
					   &s->sample_dfd[s->canon[d->role]]);
		/* a FIFO or a file of another filesystem planted under a name of ours is absent */
		if (tmp >= 0 && d->role != R_PROC && cg_fd_check_interface(tmp, O_RDONLY) < 0) {
			close(tmp);
			tmp = -ENOENT;
		}
		if (tmp < 0) {
			/* the file or the cgroup: a stat that never existed here is absent */
			if (tmp == -ENOENT && d->role != R_PROC)
				n->fd[k] = FD_ABSENT;
			return tmp;
		}
		if (fresh_only(k)) {
			/* not a cache miss: such a file must be opened anew for every read */
			n->fd[k] = FD_UNCACHED;
			fd = tmp;
		} else if (fd_budget_left(s)) {
			n->fd[k] = tmp;
			s->fds_held++;
			fd = tmp;
			tmp = -1;
		} else {
			n->fd[k] = FD_UNCACHED;
			s->reopened++;
			fd = tmp;
		}
	}
	len = cg_pread_buf(fd, s->buf, s->buf_size);
	if (len == -EFBIG) {
		r = cg_read_fd(fd, heap, NULL);
		len = r < 0 ? r : 0;
	}
	if (tmp >= 0)
		close(tmp);
	return len < 0 ? (int)len : 0;
}

/* The directory of role vanished under a node we read: what inotify will say next anyway. */
void st_read_failed(struct cg_stats *s, struct node *n, int k, int r)
{
	/*
	 * EOPNOTSUPP: cgroup.procs of a threaded cgroup (its processes are its domain's), which
	 * stays threaded: as good as absent.
	 */
	if ((gone(r) || r == -EOPNOTSUPP) && st_defs[k].role != R_PROC && n->fd[k] != FD_ABSENT) {
		st_close_fd(s, &n->fd[k]);
		n->fd[k] = FD_ABSENT;
	}
	if (r == -ENODEV)
		n->gone_seen = true;
}

void st_sample_dirs_close(struct cg_stats *s)
{
	for (int r = 0; r < R_N; r++) {
		if (s->sample_dfd[r] >= 0)
			close(s->sample_dfd[r]);
		s->sample_dfd[r] = -1;
	}
}

int st_task_stat(struct cg_stats *s, pid_t pid, pid_t tid, char *buf, size_t size)
{
	int r;

	do
		r = cg_task_stat(pid, tid, buf, size);
	while (st_relieved(s, r));
	return r;
}

bool st_task_is_kthread(struct cg_stats *s, pid_t pid)
{
	int r;

	do
		r = cg_task_kthread(pid);
	while (st_relieved(s, r));
	/* gone since the listing: not counted as a kernel thread, it was a process */
	return r > 0;
}
