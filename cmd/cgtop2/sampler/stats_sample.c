// SPDX-License-Identifier: MIT
/*
 * One sample (cg_stats_sample): the tree brought up to date, each node's metrics from the first
 * file that serves them, rates against the previous sample, the collectors, counted tasks summed.
 */
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "base/kparse.h"
#include "stats.h"
#include "stats_collect.h"
#include "stats_defs.h"
#include "stats_members.h"
#include "stats_read.h"
#include "stats_state.h"
#include "stats_tree.h"

static bool is_threaded(struct cg_stats *s, struct node *n)
{
	_cleanup_free_ char *heap = NULL;

	if (st_read_kind(s, n, F_TYPE, &heap) < 0)
		return false;
	return !strcmp(heap ? heap : s->buf, "threaded\n");
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
		    !st_kind_wanted(s, k))
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
			if (cg_kparse_keyed(text, "usage_usec", a) < 0)
				continue;
			*a *= 1000;
			break;
		case F_MEMINFO:
			/* the root has no memory.current: what the whole machine uses */
			if (cg_kparse_meminfo(text, a) < 0)
				continue;
			break;
		case F_IO_STAT:
			if (cg_kparse_io_stat(text, a, b) < 0)
				continue;
			break;
		case F_BLKIO_THROTTLE:
		case F_BLKIO:
		case F_BLKIO_BFQ:
			if (cg_kparse_blkio(text, a, b) < 0)
				continue;
			break;
		case F_PSI_CPU:
		case F_PSI_MEMORY:
		case F_PSI_IO:
		case F_PROC_PSI_CPU:
		case F_PROC_PSI_MEMORY:
		case F_PROC_PSI_IO:
			if (cg_kparse_psi_avg10(text, dv) < 0)
				continue;
			n->psi_busy |= !cg_kparse_psi_idle(text);
			break;
		default:
			if (st_defs[k].procs) {
				if (st_procs_count(s, text, a) < 0)
					continue;
			} else if (st_defs[k].count) {
				*a = cg_kparse_count_lines(text);
			} else if (cg_kparse_number(text, a) < 0) {
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
				n->populated = cg_kparse_populated(heap ? heap : s->buf);
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
		st_threads_sample(s, n, now, n->has_prev ? n->prev_t : 0);
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

int cg_stats_sample(struct cg_stats *s, struct cg_stat_row *const **ret_rows, size_t *ret_n,
		    struct cg_diag *d)
{
	uint64_t now;
	int r;

	s->out_of_fds = 0;
	r = st_drain_events(s);
	if (r < 0)
		return st_diag(d, s->layout, s->root, r, CG_OP_READ, "sample", NULL);
	if (s->rescan || !s->msub) {
		r = st_scan_all(s);
		if (r < 0)
			return st_diag(d, s->layout, s->root, r, CG_OP_READ, "sample", NULL);
	}
	now = cg_now_ns();
	s->now = now;
	for (size_t i = 0; i < s->n_nodes; i++)
		sample_node(s, s->nodes[i], now);
	/* ENODEV: removed while we read; inotify says so too, but do not show a half row */
	r = st_collect_removed(s);
	if (r < 0)
		return st_diag(d, s->layout, s->root, r, CG_OP_READ, "sample", NULL);
	/*
	 * Every cached fd was given back and a file still could not be opened: its figures would
	 * be missing without a word. Fewer fds than one open at a time needs is an error.
	 */
	if (s->out_of_fds)
		return st_diag(d, s->layout, s->root, s->out_of_fds, CG_OP_READ, "sample", NULL);
	sum_counted_tasks(s);
	st_members_sample(s, now);
	st_members_all_sample(s, now);
	for (size_t i = 0; i < s->n_nodes; i++)
		s->rows[i] = &s->nodes[i]->row;
	*ret_rows = s->rows;
	*ret_n = s->n_nodes;
	return 0;
}

uint64_t cg_stats_shape(const struct cg_stats *s)
{
	return s->shape;
}
