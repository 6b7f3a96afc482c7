// SPDX-License-Identifier: MIT
/*
 * The tasks of one cgroup (cg_stats_set_members), for a view of that cgroup alone: its listing
 * from the first hierarchy that lists any, each task's /proc stat, and its CPU against the
 * previous sample's list (kept for that cgroup only, and forgotten when another is named).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "base/kparse.h"
#include "kernel/proc.h"
#include "stats_members.h"
#include "stats.h"
#include "stats_defs.h"
#include "stats_read.h"
#include "stats_state.h"
#include "stats_tree.h"

/* The listings in preference order, cgroup2 first: processes; threads where those fail. */
static const int procs_kinds[] = { F_PROCS_V2,	   F_PROCS_PIDS,  F_PROCS_CPUACCT,
				   F_PROCS_MEMORY, F_PROCS_BLKIO, F_PROCS_SYSTEMD };
static const int threads_kinds[] = { F_THREADS_V2,   F_TASKS_PIDS,  F_TASKS_CPUACCT,
				     F_TASKS_MEMORY, F_TASKS_BLKIO, F_TASKS_SYSTEMD };

int cg_stats_set_members(struct cg_stats *s, const char *path, struct cg_diag *d)
{
	char *p = NULL;

	if (path && s->members_path && !strcmp(path + (*path == '/'), s->members_path))
		return 0;
	if (path && !(p = strdup(path + (*path == '/'))))
		return st_diag(d, s->layout, path, -ENOMEM, CG_OP_OTHER, "list the tasks", NULL);
	st_members_free(s);
	s->members_path = p;
	return 0;
}

int cg_stats_members(const struct cg_stats *s, const char *path, const struct cg_stat_member **ret,
		     size_t *ret_n)
{
	bool ours = path && s->members_path && s->members_t &&
		    !strcmp(path + (*path == '/'), s->members_path);

	*ret = ours ? s->members : NULL;
	*ret_n = ours ? s->n_members : 0;
	return ours ? 0 : -ENOENT;
}

static void all_free(struct cg_stats *s)
{
	for (size_t i = 0; i < s->n_nodes; i++) {
		s->nodes[i]->row.members = NULL;
		s->nodes[i]->row.n_members = 0;
	}
	free(s->all_members);
	free(s->all_prev);
	s->all_members = NULL;
	s->all_prev = NULL;
	s->n_all_prev = 0;
	s->all_t = 0;
}

void st_members_free(struct cg_stats *s)
{
	free(s->members_path);
	free(s->members);
	s->members_path = NULL;
	s->members = NULL;
	s->n_members = 0;
	s->members_t = 0;
	all_free(s);
}

void cg_stats_set_members_all(struct cg_stats *s, bool on)
{
	if (!on)
		all_free(s);
	s->members_all = on;
}

/* The first of kinds[0, n) the node has whose listing is not empty: its ids, or none. */
static void list(struct cg_stats *s, struct node *nd, const int *kinds, size_t n, pid_t **ret,
		 size_t *ret_n)
{
	for (size_t i = 0; i < n && !*ret_n; i++) {
		_cleanup_free_ char *heap = NULL;
		int k = kinds[i], r;

		if (!(nd->srcs & (1u << s->canon[st_defs[k].role])))
			continue;
		r = st_read_kind(s, nd, k, &heap);
		if (r < 0) {
			st_read_failed(s, nd, k, r);
			continue;
		}
		free(*ret);
		*ret = NULL;
		if (cg_kparse_members(heap ? heap : s->buf, false, ret, ret_n) < 0)
			*ret_n = 0;
	}
}

static int by_cpu(const void *a, const void *b)
{
	const struct cg_stat_member *x = a, *y = b;

	if (x->cpu_percent != y->cpu_percent)
		return x->cpu_percent < y->cpu_percent ? 1 : -1;
	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * The one CPU figure of a task: percent of one CPU between then (when it had used prev ticks)
 * and now, -1 when it cannot be told; a pid reused since would not have used less.
 */
static double cpu_percent(const struct cg_stats *s, uint64_t ticks, uint64_t prev, uint64_t then,
			  uint64_t now)
{
	if (now <= then || ticks < prev)
		return -1;
	return (double)(ticks - prev) / (double)s->clk_tck /
	       ((double)(now - then) / (double)NSEC_PER_SEC) * 100.0;
}

/*
 * A task's name and ticks from its stat line, state and start time too when asked: false when
 * it has gone.
 */
static bool task_stat(struct cg_stats *s, pid_t id, bool thread, char *comm, size_t size,
		      uint64_t *ticks, char *state, uint64_t *start)
{
	char buf[CG_TASK_STAT_SIZE];

	/* a failed read: exited since the listing */
	return st_task_stat(s, id, thread ? id : 0, buf, sizeof(buf)) >= 0 &&
	       cg_kparse_proc_stat(buf, comm, size, ticks) >= 0 &&
	       (!state || cg_kparse_proc_state(buf, state) >= 0) &&
	       (!start || cg_kparse_proc_starttime(buf, start) >= 0);
}

/* A task's figures from /proc, no CPU figure yet: false when it has gone. */
static bool task_read(struct cg_stats *s, pid_t id, bool thread, struct cg_stat_member *m)
{
	*m = (struct cg_stat_member){ .id = id, .thread = thread, .cpu_percent = -1 };
	return task_stat(s, id, thread, m->comm, sizeof(m->comm), &m->ticks, &m->state, &m->start);
}

/* m's CPU since it had used ticks at then (0: no previous sample). */
static void task_cpu(const struct cg_stats *s, struct cg_stat_member *m, uint64_t ticks,
		     uint64_t then, uint64_t now)
{
	if (then)
		m->cpu_percent = cpu_percent(s, m->ticks, ticks, then, now);
}

/* A task's figures from /proc, its CPU against its previous ones: false when it has gone. */
static bool member(struct cg_stats *s, pid_t id, bool thread, uint64_t now,
		   struct cg_stat_member *m)
{
	if (!task_read(s, id, thread, m))
		return false;
	/* a task that goes meanwhile keeps its figures from stat, without these */
	m->have_proc = cg_task_rss_uid(id, &m->rss, &m->uid) == 0 &&
		       cg_task_cmdline(id, m->cmdline, sizeof(m->cmdline), NULL) >= 0;
	for (size_t j = 0; j < s->n_members; j++) {
		const struct cg_stat_member *o = &s->members[j];

		if (o->id == id && o->thread == thread) {
			task_cpu(s, m, o->ticks, s->members_t, now);
			break;
		}
	}
	return true;
}

void st_threads_sample(struct cg_stats *s, struct node *n, uint64_t now, uint64_t prev_t)
{
	_cleanup_free_ char *heap = NULL;
	_cleanup_free_ pid_t *tids = NULL;
	struct cg_stat_thread *old = n->row.threads, *nt = NULL;
	size_t n_old = n->row.n_threads, n_new = 0, cap = 0, n_tids = 0;
	int r;

	r = st_read_kind(s, n, F_THREADS_V2, &heap);
	if (r < 0 || cg_kparse_members(heap ? heap : s->buf, false, &tids, &n_tids) < 0)
		goto out;
	for (size_t i = 0; i < n_tids; i++) {
		struct cg_stat_thread t = { .cpu_percent = -1 };
		pid_t tid = tids[i];

		if (!task_stat(s, tid, true, t.comm, sizeof(t.comm), &t.ticks, NULL, NULL))
			continue;
		t.tid = tid;
		for (size_t j = 0; j < n_old; j++) {
			if (old[j].tid == tid) {
				t.cpu_percent = cpu_percent(s, t.ticks, old[j].ticks, prev_t, now);
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

int st_procs_count(struct cg_stats *s, const char *text, uint64_t *ret)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r;

	if (s->count != CG_COUNT_USER_PROCESSES) {
		*ret = cg_kparse_count_lines(text);
		return 0;
	}
	r = cg_kparse_members(text, false, &pids, &n);
	if (r < 0)
		return r;
	*ret = 0;
	for (size_t i = 0; i < n; i++)
		*ret += !st_task_is_kthread(s, pids[i]);
	return 0;
}

/* A node's own tasks: processes, or threads with threads on or where no process is listed. */
static void node_tasks(struct cg_stats *s, struct node *nd, pid_t **ids, size_t *n_ids,
		       bool *thread)
{
	*thread = false;
	if (!s->threads)
		list(s, nd, procs_kinds, ARRAY_SIZE(procs_kinds), ids, n_ids);
	if (!*n_ids) {
		list(s, nd, threads_kinds, ARRAY_SIZE(threads_kinds), ids, n_ids);
		*thread = true;
	}
	st_sample_dirs_close(s);
}

void st_members_sample(struct cg_stats *s, uint64_t now)
{
	_cleanup_free_ pid_t *ids = NULL;
	struct cg_stat_member *m = NULL;
	struct node *nd;
	size_t n_ids = 0, n = 0;
	bool thread = false;

	if (!s->members_path)
		return;
	nd = st_node_find(s, s->members_path);
	if (nd)
		node_tasks(s, nd, &ids, &n_ids, &thread);
	if (n_ids && !(m = calloc(n_ids, sizeof(*m))))
		n_ids = 0;
	for (size_t i = 0; i < n_ids; i++)
		n += member(s, ids[i], thread, now, &m[n]);
	if (n)
		qsort(m, n, sizeof(*m), by_cpu);
	free(s->members);
	s->members = m;
	s->n_members = n;
	s->members_t = now;
}

static uint64_t task_key(const struct cg_stat_member *m)
{
	return (uint64_t)(uint32_t)m->id << 1 | m->thread;
}

static int by_key(const void *a, const void *b)
{
	const struct st_ticks *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* The tasks of every node, each node's the most CPU first; a failure only empties the lists. */
void st_members_all_sample(struct cg_stats *s, uint64_t now)
{
	_cleanup_free_ size_t *first = NULL;
	struct cg_stat_member *all = NULL;
	struct st_ticks *prev = NULL;
	size_t n = 0, cap = 0;
	unsigned v1 = 0;

	if (!s->members_all)
		return;
	for (size_t k = 1; k < ARRAY_SIZE(procs_kinds); k++)
		v1 |= 1u << s->canon[st_defs[procs_kinds[k]].role];
	for (size_t i = 0; i < s->n_nodes; i++) {
		s->nodes[i]->row.members = NULL;
		s->nodes[i]->row.n_members = 0;
	}
	first = calloc(s->n_nodes + 1, sizeof(*first));
	for (size_t i = 0; first && i < s->n_nodes; i++) {
		struct node *nd = s->nodes[i];
		_cleanup_free_ pid_t *ids = NULL;
		size_t n_ids = 0;
		bool thread;

		first[i] = n;
		/*
		 * Nothing in its cgroup2 subtree and in no v1 hierarchy that could list a task
		 * (empty cgroups are most of a large tree): no listing to read.
		 */
		if (nd->populated == 0 && !(nd->srcs & v1))
			continue;
		node_tasks(s, nd, &ids, &n_ids, &thread);
		if (n + n_ids > cap) {
			size_t ncap = cap ? cap : 256;
			struct cg_stat_member *na;

			while (ncap < n + n_ids)
				ncap *= 2;
			na = realloc(all, ncap * sizeof(*all));
			if (!na)
				break;
			all = na;
			cap = ncap;
		}
		for (size_t k = 0; k < n_ids; k++) {
			struct cg_stat_member *m = &all[n];
			struct st_ticks want, *o;

			if (!task_read(s, ids[k], thread, m))
				continue;
			want.key = task_key(m);
			o = s->n_all_prev ? bsearch(&want, s->all_prev, s->n_all_prev,
						    sizeof(*s->all_prev), by_key)
					  : NULL;
			if (o)
				task_cpu(s, m, o->ticks, s->all_t, now);
			n++;
		}
		/* none yet: all may still be NULL, which qsort may not take */
		if (n > first[i])
			qsort(all + first[i], n - first[i], sizeof(*all), by_cpu);
		nd->row.n_members = n - first[i];
	}
	/* the array has stopped moving */
	for (size_t i = 0; first && i < s->n_nodes; i++)
		if (s->nodes[i]->row.n_members)
			s->nodes[i]->row.members = all + first[i];
	/* for the next sample's CPU figures */
	if (n && (prev = malloc(n * sizeof(*prev)))) {
		for (size_t k = 0; k < n; k++)
			prev[k] = (struct st_ticks){ task_key(&all[k]), all[k].ticks };
		qsort(prev, n, sizeof(*prev), by_key);
	}
	free(s->all_members);
	free(s->all_prev);
	s->all_members = all;
	s->all_prev = prev;
	s->n_all_prev = prev ? n : 0;
	s->all_t = now;
}
