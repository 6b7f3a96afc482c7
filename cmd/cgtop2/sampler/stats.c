// SPDX-License-Identifier: MIT
/* Live statistics sampler: cached dir fds + pread, cpu/memory/io/tasks/PSI, v1 and v2 joined. */
#include "stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_collect.h"
#include "stats_defs.h"
#include "stats_members.h"
#include "stats_state.h"
#include "stats_tree.h"
#include "mirror/mirror.h"

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

struct mirror *cg_stats_mirror(const struct cg_stats *s)
{
	return s->msub ? mirror_of(s->msub) : NULL;
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
			    (d->root_only && *s->root) || !st_kind_wanted(s, k))
				continue;
			off += (size_t)snprintf(
				s->sources + off, sizeof(s->sources) - off, "%s %s %s", sep,
				d->role == R_PROC ? "proc" : s->hier[d->role]->label,
				cg_kf_name(d->file));
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
			if (st_defs[k].metric != M_TASKS || st_kind_wanted(s, k) || n->fd[k] < 0)
				continue;
			st_close_fd(s, &n->fd[k]);
			n->fd[k] = FD_UNTRIED;
		}
	}
	root = st_node_find(s, s->root);
	if (root)
		describe_sources(s, root);
}

int cg_stats_new(const struct cg_layout *l, const struct cg_stats_opts *o, struct cg_stats **ret,
		 struct cg_diag *d)
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
	if (!s->root || !s->buf) {
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
	/* none to be had (out of inotify instances or fds): every sample lists the tree */
	(void)mirror_sub_new(o->mirror, &s->msub);
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
	return st_diag(d, l, o->path ? o->path : "", r, CG_OP_OPEN, "open",
		       r == -ENOENT ? "no such cgroup in any mounted hierarchy" : NULL);
}

void cg_stats_free(struct cg_stats *s)
{
	if (!s)
		return;
	/* its watches go with it (the mirror's last user closes the inotify fd) */
	mirror_sub_free(s->msub);
	s->msub = NULL;
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
	cg_pathmap_clear(&s->by_path);
	free(s->buf);
	free(s->root);
	free(s);
}
