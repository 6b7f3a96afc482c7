// SPDX-License-Identifier: MIT
/* Live statistics sampler: cached dir fds + pread, cpu/memory/io/tasks/PSI, v1 and v2 joined. */
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "file.h"
#include "kparse.h"
#include "migrate.h"
#include "stats_impl.h"

/* Preference order within a metric is the order of the table. */
const struct file_def st_defs[F_N] = {
	[F_CPU_STAT] = { M_CPU, R_UNIFIED, "cpu.stat", false, false },
	[F_CPUACCT] = { M_CPU, R_CPUACCT, "cpuacct.usage", false, false },
	[F_MEM_CURRENT] = { M_MEMORY, R_UNIFIED, "memory.current", false, false },
	[F_MEM_V1] = { M_MEMORY, R_MEMORY, "memory.usage_in_bytes", false, false },
	[F_MEMINFO] = { M_MEMORY, R_PROC, "/proc/meminfo", true, false },
	[F_IO_STAT] = { M_IO, R_UNIFIED, "io.stat", false, false },
	[F_BLKIO_THROTTLE] = { M_IO, R_BLKIO, "blkio.throttle.io_service_bytes", false, false },
	[F_BLKIO] = { M_IO, R_BLKIO, "blkio.io_service_bytes", false, false },
	[F_BLKIO_BFQ] = { M_IO, R_BLKIO, "blkio.bfq.io_service_bytes", false, false },
	[F_PIDS_V2] = { M_TASKS, R_UNIFIED, "pids.current", false, false },
	[F_PIDS_V1] = { M_TASKS, R_PIDS, "pids.current", false, false },
	[F_TASKS_PIDS] = { M_TASKS, R_PIDS, "tasks", false, true },
	[F_THREADS_V2] = { M_TASKS, R_UNIFIED, "cgroup.threads", false, true },
	[F_TASKS_CPUACCT] = { M_TASKS, R_CPUACCT, "tasks", false, true },
	[F_TASKS_MEMORY] = { M_TASKS, R_MEMORY, "tasks", false, true },
	[F_TASKS_BLKIO] = { M_TASKS, R_BLKIO, "tasks", false, true },
	[F_TASKS_SYSTEMD] = { M_TASKS, R_SYSTEMD, "tasks", false, true },
	[F_PROCS_V2] = { M_TASKS, R_UNIFIED, "cgroup.procs", false, true, true },
	[F_PROCS_PIDS] = { M_TASKS, R_PIDS, "cgroup.procs", false, true, true },
	[F_PROCS_CPUACCT] = { M_TASKS, R_CPUACCT, "cgroup.procs", false, true, true },
	[F_PROCS_MEMORY] = { M_TASKS, R_MEMORY, "cgroup.procs", false, true, true },
	[F_PROCS_BLKIO] = { M_TASKS, R_BLKIO, "cgroup.procs", false, true, true },
	[F_PROCS_SYSTEMD] = { M_TASKS, R_SYSTEMD, "cgroup.procs", false, true, true },
	[F_PSI_CPU] = { M_PSI_CPU, R_UNIFIED, "cpu.pressure", false, false },
	[F_PSI_MEMORY] = { M_PSI_MEMORY, R_UNIFIED, "memory.pressure", false, false },
	[F_PSI_IO] = { M_PSI_IO, R_UNIFIED, "io.pressure", false, false },
	[F_PROC_PSI_CPU] = { M_PSI_CPU, R_PROC, "/proc/pressure/cpu", true, false },
	[F_PROC_PSI_MEMORY] = { M_PSI_MEMORY, R_PROC, "/proc/pressure/memory", true, false },
	[F_PROC_PSI_IO] = { M_PSI_IO, R_PROC, "/proc/pressure/io", true, false },
	[F_TYPE] = { M_N, R_UNIFIED, "cgroup.type", false, false },
	[F_EVENTS] = { M_N, R_UNIFIED, "cgroup.events", false, false },
	[F_X_CPUACCT_STAT] = { M_N, R_CPUACCT, "cpuacct.stat" },
	[F_X_CPU_V1_STAT] = { M_N, R_CPU, "cpu.stat" },
	[F_X_MEM_STAT] = { M_N, R_UNIFIED, "memory.stat" },
	[F_X_MEM_PEAK] = { M_N, R_UNIFIED, "memory.peak" },
	[F_X_MEM_MAX] = { M_N, R_UNIFIED, "memory.max" },
	[F_X_MEM_HIGH] = { M_N, R_UNIFIED, "memory.high" },
	[F_X_MEM_LOW] = { M_N, R_UNIFIED, "memory.low" },
	[F_X_MEM_MIN] = { M_N, R_UNIFIED, "memory.min" },
	[F_X_MEM_SWAP] = { M_N, R_UNIFIED, "memory.swap.current" },
	[F_X_MEM_SWAP_MAX] = { M_N, R_UNIFIED, "memory.swap.max" },
	[F_X_MEM_EVENTS] = { M_N, R_UNIFIED, "memory.events" },
	[F_X_MEM_V1_STAT] = { M_N, R_MEMORY, "memory.stat" },
	[F_X_MEM_V1_PEAK] = { M_N, R_MEMORY, "memory.max_usage_in_bytes" },
	[F_X_MEM_V1_LIMIT] = { M_N, R_MEMORY, "memory.limit_in_bytes" },
	[F_X_MEM_V1_FAILCNT] = { M_N, R_MEMORY, "memory.failcnt" },
	[F_X_MEM_V1_MEMSW] = { M_N, R_MEMORY, "memory.memsw.usage_in_bytes" },
	[F_X_MEM_V1_SOFT] = { M_N, R_MEMORY, "memory.soft_limit_in_bytes" },
	[F_X_MEM_V1_MEMSW_LIMIT] = { M_N, R_MEMORY, "memory.memsw.limit_in_bytes" },
	[F_X_MEM_V1_KMEM] = { M_N, R_MEMORY, "memory.kmem.usage_in_bytes" },
	[F_X_MEM_V1_OOM] = { M_N, R_MEMORY, "memory.oom_control" },
	[F_X_BLKIO_SERVICED] = { M_N, R_BLKIO, "blkio.throttle.io_serviced" },
	[F_X_BFQ_SERVICED] = { M_N, R_BLKIO, "blkio.bfq.io_serviced" },
	[F_X_PIDS_MAX] = { M_N, R_UNIFIED, "pids.max" },
	[F_X_PIDS_EVENTS] = { M_N, R_UNIFIED, "pids.events" },
	[F_X_PIDS_V1_MAX] = { M_N, R_PIDS, "pids.max" },
	[F_X_PIDS_V1_EVENTS] = { M_N, R_PIDS, "pids.events" },
	[F_X_CPU_MAX] = { M_N, R_UNIFIED, "cpu.max" },
	[F_X_CPU_WEIGHT] = { M_N, R_UNIFIED, "cpu.weight" },
	[F_X_CPUSET_CPUS] = { M_N, R_UNIFIED, "cpuset.cpus" },
	[F_X_IO_MAX] = { M_N, R_UNIFIED, "io.max" },
	[F_X_IO_WEIGHT] = { M_N, R_UNIFIED, "io.weight" },
	[F_X_CPU_V1_QUOTA] = { M_N, R_CPU, "cpu.cfs_quota_us" },
	[F_X_CPU_V1_PERIOD] = { M_N, R_CPU, "cpu.cfs_period_us" },
	[F_X_CPU_V1_SHARES] = { M_N, R_CPU, "cpu.shares" },
	[F_X_CPUSET_V1_CPUS] = { M_N, R_CPUSET, "cpuset.cpus" },
	[F_X_BLKIO_V1_RBPS] = { M_N, R_BLKIO, "blkio.throttle.read_bps_device" },
	[F_X_BLKIO_V1_WBPS] = { M_N, R_BLKIO, "blkio.throttle.write_bps_device" },
	[F_X_BLKIO_V1_RIOPS] = { M_N, R_BLKIO, "blkio.throttle.read_iops_device" },
	[F_X_BLKIO_V1_WIOPS] = { M_N, R_BLKIO, "blkio.throttle.write_iops_device" },
	[F_X_BFQ_WEIGHT] = { M_N, R_BLKIO, "blkio.bfq.weight" },
	[F_X_BFQ_WEIGHT_DEVICE] = { M_N, R_BLKIO, "blkio.bfq.weight_device" },
	[F_X_BLKIO_WEIGHT] = { M_N, R_BLKIO, "blkio.weight" },
};

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
			tmp = st_open_relieved(s, d->name);
		else
			tmp = st_node_open(s, n, s->canon[d->role], d->name,
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

ssize_t st_read_small(struct cg_stats *s, const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = st_open_relieved(s, path);

	return fd < 0 ? -errno : cg_pread_buf(fd, buf, size);
}

static void sample_threads(struct cg_stats *s, struct node *n, uint64_t now, uint64_t prev_t)
{
	_cleanup_free_ char *heap = NULL;
	_cleanup_free_ pid_t *tids = NULL;
	struct cg_stat_thread *old = n->row.threads, *nt = NULL;
	size_t n_old = n->row.n_threads, n_new = 0, cap = 0, n_tids = 0;
	int r;

	r = st_read_kind(s, n, F_THREADS_V2, &heap);
	if (r < 0 || cg_members_parse(heap ? heap : s->buf, &tids, &n_tids) < 0)
		goto out;
	for (size_t i = 0; i < n_tids; i++) {
		char path[96], sbuf[1024];
		struct cg_stat_thread t = { .cpu_percent = -1 };
		pid_t tid = tids[i];

		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)tid, (int)tid);
		/* a failed read: exited since the listing */
		if (st_read_small(s, path, sbuf, sizeof(sbuf)) < 0 ||
		    cg_stats_parse_proc_stat(sbuf, t.comm, sizeof(t.comm), &t.ticks) < 0)
			continue;
		t.tid = tid;
		for (size_t j = 0; j < n_old; j++) {
			if (old[j].tid == tid && now > prev_t && t.ticks >= old[j].ticks) {
				t.cpu_percent =
					(double)(t.ticks - old[j].ticks) / (double)s->clk_tck /
					((double)(now - prev_t) / (double)NSEC_PER_SEC) * 100.0;
				break;
			}
		}
		if (n_new == cap) {
			size_t c = cap ? cap * 2 : 8;
			struct cg_stat_thread *g = realloc(nt, c * sizeof(*g));

			if (!g)
				break;
			nt = g;
			cap = c;
		}
		nt[n_new++] = t;
	}
out:
	free(old);
	n->row.threads = nt;
	n->row.n_threads = n_new;
}

static bool is_threaded(struct cg_stats *s, struct node *n)
{
	_cleanup_free_ char *heap = NULL;

	if (st_read_kind(s, n, F_TYPE, &heap) < 0)
		return false;
	return !strcmp(heap ? heap : s->buf, "threaded\n");
}

/* Which files serve M_TASKS: the task counters, or the process listings. */
static bool kind_wanted(const struct cg_stats *s, int k)
{
	return st_defs[k].metric != M_TASKS || st_defs[k].procs == (s->count != CG_COUNT_TASKS);
}

static bool is_kernel_thread(struct cg_stats *s, pid_t pid)
{
	char path[32], buf[1024];
	uint64_t flags;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	/* gone since the listing: not counted as a kernel thread, it was a process */
	if (st_read_small(s, path, buf, sizeof(buf)) < 0)
		return false;
	return cg_stats_parse_proc_flags(buf, &flags) == 0 && (flags & CG_PF_KTHREAD);
}

/* Processes in a cgroup.procs listing; without kernel threads for CG_COUNT_USER_PROCESSES. */
static int count_procs(struct cg_stats *s, const char *text, uint64_t *ret)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r;

	if (s->count != CG_COUNT_USER_PROCESSES) {
		*ret = cg_stats_count_lines(text);
		return 0;
	}
	r = cg_members_parse(text, &pids, &n);
	if (r < 0)
		return r;
	*ret = 0;
	for (size_t i = 0; i < n; i++)
		*ret += !is_kernel_thread(s, pids[i]);
	return 0;
}

/* First file of the metric that this node has and that parses. */
static int read_metric(struct cg_stats *s, struct node *n, enum metric m, uint64_t *a, uint64_t *b,
		       double *dv)
{
	for (int k = 0; k < F_N; k++) {
		_cleanup_free_ char *heap = NULL;
		const char *text;
		int r;

		if (st_defs[k].metric != m || !(n->srcs & (1u << s->canon[st_defs[k].role])) ||
		    !kind_wanted(s, k))
			continue;
		if (st_defs[k].root_only && n->depth != 0)
			continue;
		if (st_defs[k].root_only && *n->path)
			continue;
		r = st_read_kind(s, n, k, &heap);
		if (r < 0) {
			st_read_failed(s, n, k, r);
			continue;
		}
		text = heap ? heap : s->buf;
		switch (k) {
		case F_CPU_STAT:
			if (cg_stats_parse_keyed(text, "usage_usec", a) < 0)
				continue;
			*a *= 1000;
			break;
		case F_MEMINFO:
			/* the root has no memory.current: what the whole machine uses */
			if (cg_stats_parse_meminfo(text, a) < 0)
				continue;
			break;
		case F_IO_STAT:
			if (cg_stats_parse_io_stat(text, a, b) < 0)
				continue;
			break;
		case F_BLKIO_THROTTLE:
		case F_BLKIO:
		case F_BLKIO_BFQ:
			if (cg_stats_parse_blkio(text, a, b) < 0)
				continue;
			break;
		case F_PSI_CPU:
		case F_PSI_MEMORY:
		case F_PSI_IO:
		case F_PROC_PSI_CPU:
		case F_PROC_PSI_MEMORY:
		case F_PROC_PSI_IO:
			if (cg_stats_parse_psi(text, dv) < 0)
				continue;
			n->psi_busy |= !cg_stats_psi_idle(text);
			break;
		default:
			if (st_defs[k].procs) {
				if (count_procs(s, text, a) < 0)
					continue;
			} else if (st_defs[k].count) {
				*a = cg_stats_count_lines(text);
			} else if (cg_stats_parse_number(text, a) < 0) {
				continue;
			}
			break;
		}
		st_collect_from(s, n, k, text);
		return k;
	}
	return -ENOENT;
}

static void sample_node(struct cg_stats *s, struct node *n, uint64_t now)
{
	struct cg_stat_row *row = &n->row;
	uint64_t a = 0, b = 0;
	double dv = 0;
	int k;

	static const unsigned mbits[M_N] = {
		[M_CPU] = CG_STAT_CPU,	       [M_MEMORY] = CG_STAT_MEMORY,
		[M_IO] = CG_STAT_IO,	       [M_TASKS] = CG_STAT_TASKS,
		[M_PSI_CPU] = CG_STAT_PSI_CPU, [M_PSI_MEMORY] = CG_STAT_PSI_MEMORY,
		[M_PSI_IO] = CG_STAT_PSI_IO,
	};
	unsigned kept = 0;

	if (n->quiet) {
		/* what came from cgroup2 stands; v1 hierarchies have no cgroup.events */
		for (int m = 0; m < M_N; m++)
			if (n->kind_used[m] >= 0 &&
			    s->canon[st_defs[n->kind_used[m]].role] == R_UNIFIED)
				kept |= mbits[m];
		row->have &= kept | CG_STAT_THREADED;
	} else {
		row->have = 0;
		st_collect_reset(row);
		if ((n->srcs & (1u << R_UNIFIED)) && n->populated < 0) {
			_cleanup_free_ char *heap = NULL;

			if (st_read_kind(s, n, F_EVENTS, &heap) == 0)
				n->populated = cg_stats_parse_populated(heap ? heap : s->buf);
			/* read again only when inotify says it changed: not worth an fd */
			st_close_fd(s, &n->fd[F_EVENTS]);
			if (n->fd[F_EVENTS] != FD_ABSENT)
				n->fd[F_EVENTS] = FD_UNTRIED;
		}
		n->psi_busy = false;
	}
	for (int m = 0; m < M_N; m++) {
		if (kept & mbits[m])
			continue;
		k = read_metric(s, n, (enum metric)m, &a, &b, &dv);
		n->kind_used[m] = k;
		if (k < 0)
			continue;
		row->have |= mbits[m];
		switch (m) {
		case M_CPU:
			row->cpu_ns = a;
			break;
		case M_MEMORY:
			row->memory = a;
			break;
		case M_IO:
			row->io_read = a;
			row->io_write = b;
			break;
		case M_TASKS:
			row->tasks = a;
			n->own_tasks = a;
			break;
		default:
			row->psi[m - M_PSI_CPU] = dv;
			break;
		}
	}
	n->tasks_kind = n->kind_used[M_TASKS];
	if (s->collectors)
		st_collect(s, n);
	if (s->threads && (n->srcs & (1u << R_UNIFIED)) && is_threaded(s, n)) {
		row->have |= CG_STAT_THREADED;
		sample_threads(s, n, now, n->has_prev ? n->prev_t : 0);
	} else if (row->threads) {
		free(row->threads);
		row->threads = NULL;
		row->n_threads = 0;
	}
	if (n->has_prev && now > n->prev_t) {
		double dt = (double)(now - n->prev_t) / (double)NSEC_PER_SEC;

		if ((row->have & n->prev_have & CG_STAT_CPU) && row->cpu_ns >= n->prev_cpu) {
			row->cpu_percent = (double)(row->cpu_ns - n->prev_cpu) /
					   (double)NSEC_PER_SEC / dt * 100.0;
			row->have |= CG_STAT_CPU_RATE;
		}
		if ((row->have & n->prev_have & CG_STAT_IO) && row->io_read >= n->prev_rd &&
		    row->io_write >= n->prev_wr) {
			row->io_read_bps = (double)(row->io_read - n->prev_rd) / dt;
			row->io_write_bps = (double)(row->io_write - n->prev_wr) / dt;
			row->have |= CG_STAT_IO_RATE;
		}
	}
	if (!n->quiet && !s->always_read && n->populated == 0 && !n->psi_busy && n->has_prev &&
	    row->cpu_ns == n->prev_cpu && row->io_read == n->prev_rd &&
	    row->io_write == n->prev_wr && !(row->have & CG_STAT_THREADED)) {
		n->quiet = true;
		/* the fds of a quiet cgroup are better spent on busy ones */
		for (int f = 0; f < F_N; f++) {
			if (s->canon[st_defs[f].role] != R_UNIFIED || n->fd[f] < 0)
				continue;
			st_close_fd(s, &n->fd[f]);
			n->fd[f] = FD_UNTRIED;
		}
		st_close_fd(s, &n->dfd[R_UNIFIED]);
		n->dfd[R_UNIFIED] = -1;
	}
	/*
	 * A directory fd is only needed to open files. Once every file is open (or known absent)
	 * it would take an fd from a stat file; and when the fds run out, a stat file's fd saves
	 * an open and a close per sample, a directory's only one open per node and sample.
	 */
	for (int r = 0; r < R_PROC; r++) {
		bool need = false;

		if (n->dfd[r] < 0)
			continue;
		for (int f = 0; f < F_N && !need; f++)
			need = s->canon[st_defs[f].role] == r && n->fd[f] == FD_UNCACHED;
		if (!need || s->fds_held >= s->fd_budget) {
			st_close_fd(s, &n->dfd[r]);
			n->dfd[r] = -1;
		}
	}
	st_sample_dirs_close(s);
	n->has_prev = true;
	n->prev_t = now;
	n->prev_have = row->have;
	n->prev_cpu = row->cpu_ns;
	n->prev_rd = row->io_read;
	n->prev_wr = row->io_write;
}

/* Counted tasks are the cgroup's own: add the descendants' from the same hierarchy. */
static void sum_counted_tasks(struct cg_stats *s)
{
	int maxd = 0;

	for (size_t i = 0; i < s->n_nodes; i++) {
		struct node *n = s->nodes[i];

		if (n->depth > maxd)
			maxd = n->depth;
		/* a quiet cgroup's row still holds last time's sum */
		if (n->tasks_kind >= 0 && st_defs[n->tasks_kind].count)
			n->row.tasks = n->own_tasks;
	}
	for (int d = maxd; d > 0; d--) {
		for (size_t i = 0; i < s->n_nodes; i++) {
			struct node *n = s->nodes[i], *p = n->parent;

			if (n->depth != d || !p || p->tasks_kind < 0 || n->tasks_kind < 0 ||
			    !st_defs[p->tasks_kind].count ||
			    st_defs[p->tasks_kind].role != st_defs[n->tasks_kind].role ||
			    (st_defs[p->tasks_kind].procs && s->own_only))
				continue;
			p->row.tasks += n->row.tasks;
		}
	}
}

int cg_stats_sample(struct cg_stats *s, struct cg_stat_row *const **ret_rows, size_t *ret_n)
{
	uint64_t now;
	int r;

	s->out_of_fds = 0;
	r = st_drain_events(s);
	if (r < 0)
		return r;
	if (s->rescan || s->ifd < 0) {
		r = st_scan_all(s);
		if (r < 0)
			return r;
	}
	now = cg_now_ns();
	s->now = now;
	for (size_t i = 0; i < s->n_nodes; i++)
		sample_node(s, s->nodes[i], now);
	/* ENODEV: removed while we read; inotify says so too, but do not show a half row */
	r = st_collect_removed(s);
	if (r < 0)
		return r;
	/*
	 * Every cached fd was given back and a file still could not be opened: its figures would
	 * be missing without a word. Fewer fds than one open at a time needs is an error.
	 */
	if (s->out_of_fds)
		return s->out_of_fds;
	sum_counted_tasks(s);
	st_members_sample(s, now);
	st_members_all_sample(s, now);
	for (size_t i = 0; i < s->n_nodes; i++)
		s->rows[i] = &s->nodes[i]->row;
	*ret_rows = s->rows;
	*ret_n = s->n_nodes;
	return 0;
}

void cg_stats_set_threads(struct cg_stats *s, bool threads)
{
	s->threads = threads;
}

const char *cg_stats_sources(const struct cg_stats *s)
{
	return s->sources;
}

const struct cg_layout *cg_stats_layout(const struct cg_stats *s)
{
	return s->layout;
}

size_t cg_stats_reopened(const struct cg_stats *s)
{
	return s->reopened;
}

static void describe_sources(struct cg_stats *s, const struct node *root)
{
	static const char *const mname[M_N] = { "cpu",	   "memory",	 "io",	  "tasks",
						"psi-cpu", "psi-memory", "psi-io" };
	static const char *const counted[] = { "tasks", "processes", "user processes" };
	size_t off = 0;

	for (int m = 0; m < M_N; m++) {
		const char *sep = "";

		off += (size_t)snprintf(s->sources + off, sizeof(s->sources) - off,
					"%s%s:", m ? "; " : "",
					m == M_TASKS ? counted[s->count] : mname[m]);
		for (int k = 0; k < F_N && off < sizeof(s->sources); k++) {
			const struct file_def *d = &st_defs[k];

			if (d->metric != (enum metric)m || !s->hier[d->role] ||
			    !(root->srcs & (1u << s->canon[d->role])) ||
			    (d->root_only && *s->root) || !kind_wanted(s, k))
				continue;
			off += (size_t)snprintf(
				s->sources + off, sizeof(s->sources) - off, "%s %s %s", sep,
				d->role == R_PROC ? "proc" : s->hier[d->role]->label, d->name);
			sep = ",";
		}
		if (off >= sizeof(s->sources))
			break;
	}
}

void cg_stats_set_count(struct cg_stats *s, enum cg_count count, bool own_only)
{
	const struct node *root;

	s->count = count;
	s->own_only = own_only;
	/*
	 * A quiet cgroup keeps its numbers, and the count it kept was of the other kind; the
	 * files of the other kind are no longer read and their fds better spent elsewhere.
	 */
	for (size_t i = 0; i < s->n_nodes; i++) {
		struct node *n = s->nodes[i];

		n->quiet = false;
		for (int k = 0; k < F_N; k++) {
			if (st_defs[k].metric != M_TASKS || kind_wanted(s, k) || n->fd[k] < 0)
				continue;
			st_close_fd(s, &n->fd[k]);
			n->fd[k] = FD_UNTRIED;
		}
	}
	root = st_node_find(s, s->root);
	if (root)
		describe_sources(s, root);
}

int cg_stats_new(const struct cg_layout *l, const struct cg_stats_opts *o, struct cg_stats **ret)
{
	static const char *const v1ctl[R_N] = {
		[R_CPUACCT] = "cpuacct", [R_MEMORY] = "memory", [R_BLKIO] = "blkio",
		[R_PIDS] = "pids",	 [R_CPU] = "cpu",	[R_CPUSET] = "cpuset"
	};
	/* v1 cpu and cpuset serve only these collectors: not walked without one of them */
	const unsigned cpu_only = (1u << CG_COLL_CPU) | (1u << CG_COLL_LIMITS),
		       cpuset_only = 1u << CG_COLL_LIMITS, wanted = o->collectors | o->may_collect;
	static struct cg_hier proc_hier = { .label = (char *)"proc", .fd = -1 };
	struct cg_stats *s = calloc(1, sizeof(*s));
	struct node *root = NULL;
	int r;

	if (!s)
		return -ENOMEM;
	s->layout = l;
	s->ifd = -1;
	for (int role = 0; role < R_N; role++)
		s->sample_dfd[role] = -1;
	s->depth = o->depth < 0 ? 0 : o->depth;
	s->threads = o->threads;
	s->always_read = o->always_read;
	s->count = o->count;
	s->own_only = o->own_only;
	s->collectors = o->collectors;
	s->clk_tck = sysconf(_SC_CLK_TCK);
	if (s->clk_tck <= 0)
		s->clk_tck = 100;
	s->root = strdup(o->path ? o->path : "");
	s->buf_size = 65536;
	s->buf = malloc(s->buf_size);
	s->hash_size = 1024;
	s->hash = calloc(s->hash_size, sizeof(*s->hash));
	if (!s->root || !s->buf || !s->hash) {
		r = -ENOMEM;
		goto fail;
	}
	s->hier[R_UNIFIED] = l->unified;
	for (int role = R_CPUACCT; role <= R_CPUSET; role++) {
		if ((role == R_CPU && !(wanted & cpu_only)) ||
		    (role == R_CPUSET && !(wanted & cpuset_only)))
			continue;
		for (size_t i = 0; i < l->n; i++)
			if (l->hier[i].version == 1 && cg_hier_has(&l->hier[i], v1ctl[role]))
				s->hier[role] = &l->hier[i];
	}
	s->hier[R_SYSTEMD] = cg_layout_find(l, "name=systemd");
	if (s->hier[R_SYSTEMD] && s->hier[R_SYSTEMD]->version != 1)
		s->hier[R_SYSTEMD] = NULL;
	s->hier[R_PROC] = &proc_hier;
	for (int role = 0; role < R_N; role++) {
		s->canon[role] = role;
		for (int other = R_CPUACCT; other < role && role < R_PROC; other++)
			if (s->hier[role] && s->hier[other] == s->hier[role]) {
				s->canon[role] = other;
				break;
			}
	}
	st_fd_budget_init(s, o->fd_reserve);
	s->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	for (int role = 0; role < R_PROC; role++) {
		int fd;

		if (!s->hier[role])
			continue;
		if (s->canon[role] != role)
			continue;
		/* out of fds, the inotify fd is given back for it (every sample lists then) */
		do
			fd = st_open_root_relative(s, role, s->root);
		while (out_of_fds(fd) && st_fd_relief(s));
		if (fd < 0) {
			if (fd == -ENOENT || fd == -ENOTDIR)
				continue;
			r = fd;
			goto fail;
		}
		if (!root)
			root = st_node_add(s, NULL, s->root);
		if (!root) {
			close(fd);
			r = -ENOMEM;
			goto fail;
		}
		st_node_attach(s, NULL, s->root, role, fd);
	}
	if (!root) {
		r = -ENOENT;
		goto fail;
	}
	root->srcs |= 1u << R_PROC;
	describe_sources(s, root);
	r = st_scan_all(s);
	if (r < 0)
		goto fail;
	*ret = s;
	return 0;
fail:
	cg_stats_free(s);
	return r;
}

void cg_stats_free(struct cg_stats *s)
{
	if (!s)
		return;
	/* closing the inotify fd drops every watch at once */
	if (s->ifd >= 0)
		close(s->ifd);
	s->ifd = -1;
	while (s->n_nodes) {
		struct node *n = s->nodes[0];

		while (n->parent)
			n = n->parent;
		st_node_free(s, n);
	}
	st_collect_free(s);
	st_members_free(s);
	free(s->wds);
	free(s->nodes);
	free(s->rows);
	free(s->hash);
	free(s->buf);
	free(s->root);
	free(s);
}
