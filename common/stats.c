// SPDX-License-Identifier: MIT
/* Live statistics sampler: cached dir fds + pread, cpu/memory/io/tasks/PSI, v1 and v2 joined. */
#include "stats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "file.h"
#include "migrate.h"
#include "parse.h"
#include "spec.h"

/* ---- pure parsers ---------------------------------------------------------------------- */

/* Copy the token [p, e) into buf so the strict parser sees a whole string. */
static int token_u64(const char *p, const char *e, uint64_t *ret)
{
	char buf[32];
	size_t n = (size_t)(e - p);

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return cg_parse_u64(buf, UINT64_MAX, ret);
}

/* A kernel counter that is summed must not wrap silently. */
static int add_u64(uint64_t *acc, uint64_t v)
{
	if (*acc > UINT64_MAX - v)
		return -ERANGE;
	*acc += v;
	return 0;
}

int cg_stats_parse_keyed(const char *text, const char *key, uint64_t *ret)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l;) {
		const char *eol = strchrnul(l, '\n');

		if ((size_t)(eol - l) > kl && !strncmp(l, key, kl) && l[kl] == ' ')
			return token_u64(l + kl + 1, eol, ret);
		l = *eol ? eol + 1 : eol;
	}
	return -ENOENT;
}

int cg_stats_parse_number(const char *text, uint64_t *ret)
{
	return cg_parse_u64(text, UINT64_MAX, ret);
}

int cg_stats_parse_io_stat(const char *text, uint64_t *ret_read, uint64_t *ret_write)
{
	uint64_t rd = 0, wr = 0;

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n'), *p = l;
		bool dev = false;

		while (p < eol) {
			const char *e = p, *eq;
			uint64_t v;

			while (e < eol && *e != ' ')
				e++;
			if (!dev) {
				/* "MAJ:MIN" opens every line */
				if (!memchr(p, ':', (size_t)(e - p)))
					return -EINVAL;
				dev = true;
			} else if (e > p) {
				eq = memchr(p, '=', (size_t)(e - p));
				if (!eq || token_u64(eq + 1, e, &v) < 0)
					return -EINVAL;
				if (eq - p == 6 && !strncmp(p, "rbytes", 6) && add_u64(&rd, v) < 0)
					return -ERANGE;
				if (eq - p == 6 && !strncmp(p, "wbytes", 6) && add_u64(&wr, v) < 0)
					return -ERANGE;
			}
			p = e < eol ? e + 1 : e;
		}
		l = *eol ? eol + 1 : eol;
	}
	*ret_read = rd;
	*ret_write = wr;
	return 0;
}

int cg_stats_parse_blkio(const char *text, uint64_t *ret_read, uint64_t *ret_write)
{
	uint64_t rd = 0, wr = 0;

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n');
		const char *sp1 = memchr(l, ' ', (size_t)(eol - l)), *sp2;
		uint64_t v;

		if (eol == l) {
			l = *eol ? eol + 1 : eol;
			continue;
		}
		if (!sp1)
			return -EINVAL;
		/* the grand "Total N" line has no device */
		if (sp1 - l == 5 && !strncmp(l, "Total", 5)) {
			if (token_u64(sp1 + 1, eol, &v) < 0)
				return -EINVAL;
			l = *eol ? eol + 1 : eol;
			continue;
		}
		sp2 = memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1));
		if (!memchr(l, ':', (size_t)(sp1 - l)) || !sp2 || token_u64(sp2 + 1, eol, &v) < 0)
			return -EINVAL;
		if (sp2 - sp1 - 1 == 4 && !strncmp(sp1 + 1, "Read", 4) && add_u64(&rd, v) < 0)
			return -ERANGE;
		if (sp2 - sp1 - 1 == 5 && !strncmp(sp1 + 1, "Write", 5) && add_u64(&wr, v) < 0)
			return -ERANGE;
		l = *eol ? eol + 1 : eol;
	}
	*ret_read = rd;
	*ret_write = wr;
	return 0;
}

int cg_stats_parse_psi(const char *text, double *ret_some_avg10)
{
	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n');

		if (!strncmp(l, "some ", 5)) {
			const char *p = strstr(l, " avg10=");
			char buf[32], *end;
			size_t n = 0;
			double v;

			if (!p || p > eol)
				return -EINVAL;
			p += 7;
			while (p + n < eol && p[n] != ' ' && n < sizeof(buf) - 1) {
				buf[n] = p[n];
				n++;
			}
			buf[n] = '\0';
			if (!n || !(buf[0] >= '0' && buf[0] <= '9'))
				return -EINVAL;
			errno = 0;
			v = strtod(buf, &end);
			if (errno || *end || !isfinite(v) || v < 0 || v > 100)
				return -EINVAL;
			*ret_some_avg10 = v;
			return 0;
		}
		l = *eol ? eol + 1 : eol;
	}
	return -EINVAL;
}

uint64_t cg_stats_count_lines(const char *text)
{
	uint64_t n = 0;

	for (const char *p = text; *p; p++)
		if (*p == '\n')
			n++;
	/* a last line without its newline still counts */
	if (*text && text[strlen(text) - 1] != '\n')
		n++;
	return n;
}

int cg_stats_parse_proc_stat(const char *text, char *comm, size_t size, uint64_t *ret_ticks)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	uint64_t ut, st;
	size_t n;

	if (!open || !close || close < open || size == 0)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= size)
		n = size - 1;
	memcpy(comm, open + 1, n);
	comm[n] = '\0';
	/* after ")": state is field 3, utime field 14, stime field 15 */
	p = close;
	for (int field = 1; field < 13; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EINVAL;
	}
	{
		const char *e = strchr(p + 1, ' ');
		const char *e2;

		if (!e || token_u64(p + 1, e, &ut) < 0)
			return -EINVAL;
		e2 = strchr(e + 1, ' ');
		if (!e2)
			e2 = e + 1 + strlen(e + 1);
		if (token_u64(e + 1, e2, &st) < 0)
			return -EINVAL;
	}
	*ret_ticks = ut + st;
	return 0;
}

int cg_stats_parse_proc_flags(const char *text, uint64_t *ret_flags)
{
	const char *p = strrchr(text, ')'), *e;

	/* after ")": state is field 3, flags field 9; comm may hold spaces and parentheses */
	if (!p)
		return -EINVAL;
	for (int field = 2; field < 9; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EINVAL;
	}
	e = strchr(p + 1, ' ');
	if (!e)
		e = p + 1 + strlen(p + 1);
	return token_u64(p + 1, e, ret_flags);
}

/* ---- sampler --------------------------------------------------------------------------- */

/* The hierarchies a cgroup's numbers can come from. */
/*
 * R_SYSTEMD: v1 name=systemd, which has no controller but mirrors the unit tree, so that on a
 * legacy system a unit's cgroup is there even where no controller hierarchy has it: its tasks.
 */
enum role { R_UNIFIED, R_CPUACCT, R_MEMORY, R_BLKIO, R_PIDS, R_SYSTEMD, R_PROC, R_N };

enum metric { M_CPU, M_MEMORY, M_IO, M_TASKS, M_PSI_CPU, M_PSI_MEMORY, M_PSI_IO, M_N };

enum kind {
	F_CPU_STAT,
	F_CPUACCT,
	F_MEM_CURRENT,
	F_MEM_V1,
	F_MEMINFO,
	F_IO_STAT,
	F_BLKIO_THROTTLE,
	F_BLKIO,
	F_PIDS_V2,
	F_PIDS_V1,
	F_TASKS_PIDS,
	F_THREADS_V2,
	F_TASKS_CPUACCT,
	F_TASKS_MEMORY,
	F_TASKS_BLKIO,
	F_TASKS_SYSTEMD,
	F_PROCS_V2,
	F_PROCS_PIDS,
	F_PROCS_CPUACCT,
	F_PROCS_MEMORY,
	F_PROCS_BLKIO,
	F_PROCS_SYSTEMD,
	F_PSI_CPU,
	F_PSI_MEMORY,
	F_PSI_IO,
	F_PROC_PSI_CPU,
	F_PROC_PSI_MEMORY,
	F_PROC_PSI_IO,
	F_TYPE,
	F_EVENTS,
	F_N
};

/* Preference order within a metric is the order of the table. */
static const struct file_def {
	enum metric metric;
	enum role role;
	const char *name;
	bool root_only; /* a stand-in for the root cgroup, where the kernel has no cgroup file */
	bool count; /* tasks by counting lines, not a pids.current */
	bool procs; /* a cgroup.procs: the source of M_TASKS when processes are counted */
} defs[F_N] = {
	[F_CPU_STAT] = { M_CPU, R_UNIFIED, "cpu.stat", false, false },
	[F_CPUACCT] = { M_CPU, R_CPUACCT, "cpuacct.usage", false, false },
	[F_MEM_CURRENT] = { M_MEMORY, R_UNIFIED, "memory.current", false, false },
	[F_MEM_V1] = { M_MEMORY, R_MEMORY, "memory.usage_in_bytes", false, false },
	[F_MEMINFO] = { M_MEMORY, R_PROC, "/proc/meminfo", true, false },
	[F_IO_STAT] = { M_IO, R_UNIFIED, "io.stat", false, false },
	[F_BLKIO_THROTTLE] = { M_IO, R_BLKIO, "blkio.throttle.io_service_bytes", false, false },
	[F_BLKIO] = { M_IO, R_BLKIO, "blkio.io_service_bytes", false, false },
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
};

/* fd[] states besides a real fd */
#define FD_UNTRIED  (-1)
#define FD_ABSENT   (-2)
#define FD_UNCACHED (-3) /* exists; opened for each read because the fd budget is spent */

struct node {
	char *path; /* "" or "a/b" */
	int depth;
	struct node *parent, *child, *sibling, *hnext;
	size_t index; /* in s->nodes */
	unsigned srcs; /* bit per role: the directory exists there */
	int dfd[R_N]; /* O_RDONLY|O_DIRECTORY, -1 when not cached */
	int wd[R_N];
	int fd[F_N];
	int tasks_kind;
	uint64_t own_tasks; /* counted (not pids.current): this cgroup's own */
	int kind_used[M_N]; /* the file each metric came from last time, -1 for none */
	bool has_prev;
	/*
	 * cgroup2: an unpopulated cgroup whose counters stopped and whose PSI is all zero cannot
	 * change until something joins it, which cgroup.events reports through inotify (IN_MODIFY
	 * on the directory). Until then its cgroup2 files are not read again, nor kept open.
	 */
	int populated; /* -1 unknown (read cgroup.events next sample), 0, 1 */
	bool quiet, psi_busy;
	uint64_t prev_t, prev_cpu, prev_rd, prev_wr;
	unsigned prev_have;
	struct cg_stat_row row;
};

struct wd_slot {
	struct node *node;
	int role;
};

struct cg_stats {
	const struct cg_layout *layout;
	const struct cg_hier *hier[R_N]; /* NULL: not mounted */
	int canon[R_N]; /* a hierarchy serving two roles is listed and read under the first */
	int sample_dfd[R_N]; /* the directory of the node being sampled, when it has no dfd */
	char *root;
	int depth;
	bool threads, always_read;
	enum cg_count count;
	bool own_only;
	int ifd;
	struct wd_slot *wds;
	size_t n_wds;
	struct node **nodes;
	size_t n_nodes, cap_nodes;
	struct node **hash;
	size_t hash_size;
	struct cg_stat_row **rows;
	size_t fds_held, fd_budget, reopened;
	/* out of fds with nothing left to give back: no directory fd of its own per open either */
	bool starved;
	int out_of_fds; /* -EMFILE or -ENFILE when an open failed for want of an fd this sample */
	bool rescan;
	char *buf;
	size_t buf_size;
	char sources[1024];
	long clk_tck;
};

static size_t hash_path(const char *p, size_t size)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (size_t)(h & (size - 1));
}

static struct node *node_find(struct cg_stats *s, const char *path)
{
	for (struct node *n = s->hash[hash_path(path, s->hash_size)]; n; n = n->hnext)
		if (!strcmp(n->path, path))
			return n;
	return NULL;
}

static int hash_grow(struct cg_stats *s)
{
	size_t size = s->hash_size * 2;
	struct node **h = calloc(size, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_nodes; i++) {
		struct node *n = s->nodes[i];
		size_t b = hash_path(n->path, size);

		n->hnext = h[b];
		h[b] = n;
	}
	free(s->hash);
	s->hash = h;
	s->hash_size = size;
	return 0;
}

static struct node *node_add(struct cg_stats *s, struct node *parent, const char *path)
{
	struct node *n;
	size_t b;

	if (s->n_nodes == s->cap_nodes) {
		size_t cap = s->cap_nodes ? s->cap_nodes * 2 : 64;
		struct node **nn = realloc(s->nodes, cap * sizeof(*nn));
		struct cg_stat_row **nr = realloc(s->rows, cap * sizeof(*nr));

		if (nn)
			s->nodes = nn;
		if (nr)
			s->rows = nr;
		if (!nn || !nr)
			return NULL;
		s->cap_nodes = cap;
	}
	if (s->n_nodes >= s->hash_size && hash_grow(s) < 0)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->path = strdup(path);
	if (asprintf(&n->row.path, "/%s", path) < 0)
		n->row.path = NULL;
	if (!n->path || !n->row.path) {
		free(n->path);
		free(n->row.path);
		free(n);
		return NULL;
	}
	for (int r = 0; r < R_N; r++)
		n->dfd[r] = n->wd[r] = -1;
	for (int f = 0; f < F_N; f++)
		n->fd[f] = FD_UNTRIED;
	n->tasks_kind = -1;
	n->populated = -1;
	for (int m = 0; m < M_N; m++)
		n->kind_used[m] = -1;
	n->parent = parent;
	n->depth = parent ? parent->depth + 1 : 0;
	n->row.depth = n->depth;
	if (parent) {
		n->sibling = parent->child;
		parent->child = n;
	}
	b = hash_path(path, s->hash_size);
	n->hnext = s->hash[b];
	s->hash[b] = n;
	n->index = s->n_nodes;
	s->nodes[s->n_nodes++] = n;
	return n;
}

static void close_fd(struct cg_stats *s, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		s->fds_held--;
	}
}

/* Forget everything the node had from one hierarchy (its directory went away there). */
static void node_drop_role(struct cg_stats *s, struct node *n, int role)
{
	for (int f = 0; f < F_N; f++) {
		if (s->canon[defs[f].role] != role)
			continue;
		close_fd(s, &n->fd[f]);
		n->fd[f] = FD_UNTRIED;
		if (n->tasks_kind == f)
			n->tasks_kind = -1;
	}
	close_fd(s, &n->dfd[role]);
	n->dfd[role] = -1;
	if (n->wd[role] >= 0) {
		if ((size_t)n->wd[role] < s->n_wds)
			s->wds[n->wd[role]].node = NULL;
		if (s->ifd >= 0)
			inotify_rm_watch(s->ifd, n->wd[role]);
		n->wd[role] = -1;
	}
	n->srcs &= ~(1u << role);
	/* the numbers may now come from another hierarchy: a delta across sources is no rate */
	n->has_prev = false;
}

static void node_free(struct cg_stats *s, struct node *n)
{
	struct node **pp;

	while (n->child)
		node_free(s, n->child);
	for (int r = 0; r < R_N; r++)
		node_drop_role(s, n, r);
	for (int f = 0; f < F_N; f++)
		close_fd(s, &n->fd[f]);
	if (n->parent) {
		for (pp = &n->parent->child; *pp != n; pp = &(*pp)->sibling)
			;
		*pp = n->sibling;
	}
	for (pp = &s->hash[hash_path(n->path, s->hash_size)]; *pp != n; pp = &(*pp)->hnext)
		;
	*pp = n->hnext;
	s->nodes[n->index] = s->nodes[--s->n_nodes];
	s->nodes[n->index]->index = n->index;
	free(n->row.threads);
	free(n->row.path);
	free(n->path);
	free(n);
}

/* The directory went away in one hierarchy: so did every descendant there. */
static void node_vanish(struct cg_stats *s, struct node *n, int role)
{
	for (struct node *c = n->child, *next; c; c = next) {
		next = c->sibling;
		node_vanish(s, c, role);
	}
	node_drop_role(s, n, role);
	if (!n->srcs)
		node_free(s, n);
}

static bool fd_budget_left(const struct cg_stats *s)
{
	return s->fds_held < s->fd_budget;
}

static bool gone(int r)
{
	return r == -ENODEV || r == -ENOENT;
}

static bool out_of_fds(int r)
{
	return r == -EMFILE || r == -ENFILE;
}

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)

static int open_root_relative(const struct cg_stats *s, int role, const char *path)
{
	int root = cg_hier_fd(s->hier[role]);
	int fd;

	if (root < 0)
		return root;
	fd = openat(root, *path ? path : ".", DIR_FLAGS);
	return fd < 0 ? -errno : fd;
}

/*
 * Out of fds (EMFILE, ENFILE): the cache gives them back. The budget drops below what was
 * held and cached fds are closed down to it; when none is cached, the inotify fd goes (every
 * sample then lists the tree again). False when there was nothing left to free.
 */
static bool fd_relief(struct cg_stats *s)
{
	size_t held = s->fds_held;

	s->fd_budget = held > 16 ? held - 16 : 0;
	for (size_t i = 0; i < s->n_nodes && s->fds_held > s->fd_budget; i++) {
		struct node *n = s->nodes[i];

		/* a directory fd saves less than a stat file's: it goes first */
		for (int r = 0; r < R_N && s->fds_held > s->fd_budget; r++) {
			close_fd(s, &n->dfd[r]);
			n->dfd[r] = -1;
		}
		for (int f = 0; f < F_N && s->fds_held > s->fd_budget; f++) {
			if (n->fd[f] < 0)
				continue;
			close_fd(s, &n->fd[f]);
			n->fd[f] = FD_UNTRIED;
		}
	}
	if (s->fds_held < held)
		return true;
	if (s->ifd < 0)
		return false;
	close(s->ifd);
	s->ifd = -1;
	for (size_t i = 0; i < s->n_nodes; i++)
		for (int r = 0; r < R_N; r++)
			s->nodes[i]->wd[r] = -1;
	if (s->wds)
		memset(s->wds, 0, s->n_wds * sizeof(*s->wds));
	return true;
}

/*
 * Open name ("." for the directory itself) in the node's directory of a hierarchy: through its
 * cached fd, else through *own (a directory fd the caller holds, opened here when -1; NULL:
 * none), else by path from the hierarchy root. Out of fds, the cache gives some back and the
 * open is tried again; when nothing is left but the one fd the open itself needs, *own is
 * closed too and never used again. -errno; s->out_of_fds says when even that was not enough.
 * Every cached fd may have been closed when this returns.
 */
static int node_open(struct cg_stats *s, struct node *n, int role, const char *name, int flags,
		     int *own)
{
	for (;;) {
		int dfd = n->dfd[role], r;

		if (dfd < 0 && own && !s->starved) {
			if (*own < 0)
				*own = open_root_relative(s, role, n->path);
			if (*own < 0 && !out_of_fds(*own))
				return *own;
			dfd = *own;
		}
		if (dfd >= 0) {
			r = openat(dfd, name, flags);
		} else {
			_cleanup_free_ char *path = cg_path_join(n->path, name);
			int root = cg_hier_fd(s->hier[role]);

			if (!path)
				return -ENOMEM;
			if (root < 0)
				return root;
			r = openat(root, path, flags);
		}
		if (r >= 0)
			return r;
		r = -errno;
		if (!out_of_fds(r))
			return r;
		if (fd_relief(s))
			continue;
		if (own && *own >= 0) {
			close(*own);
			*own = -1;
			s->starved = true;
			continue;
		}
		s->out_of_fds = r;
		return r;
	}
}

/* A file outside cgroupfs (/proc): opened as node_open does, giving cached fds back for it. */
static int open_relieved(struct cg_stats *s, const char *path)
{
	for (;;) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0)
			return fd;
		fd = -errno;
		if (!out_of_fds(fd))
			return fd;
		if (!fd_relief(s)) {
			s->out_of_fds = fd;
			return fd;
		}
	}
}

static void watch(struct cg_stats *s, struct node *n, int role)
{
	_cleanup_free_ char *abs = NULL;
	int wd;

	if (s->ifd < 0 || n->wd[role] >= 0)
		return;
	if (asprintf(&abs, "%s/%s", s->hier[role]->mountpoint, n->path) < 0)
		return;
	/* cgroup2 also reports cgroup.events changes (populated) as IN_MODIFY of the directory */
	wd = inotify_add_watch(s->ifd, abs,
			       IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR |
				       IN_DONT_FOLLOW | (role == R_UNIFIED ? IN_MODIFY : 0));
	if (wd < 0) {
		/* out of watches: this directory is re-listed every sample instead */
		s->rescan = true;
		return;
	}
	if ((size_t)wd >= s->n_wds) {
		size_t nw = (size_t)wd * 2 + 16;
		struct wd_slot *w = realloc(s->wds, nw * sizeof(*w));

		if (!w) {
			inotify_rm_watch(s->ifd, wd);
			s->rescan = true;
			return;
		}
		memset(w + s->n_wds, 0, (nw - s->n_wds) * sizeof(*w));
		s->wds = w;
		s->n_wds = nw;
	}
	s->wds[wd] = (struct wd_slot){ .node = n, .role = role };
	n->wd[role] = wd;
}

/* The cgroup at path exists in this hierarchy: make sure its node knows it. */
static struct node *node_attach(struct cg_stats *s, struct node *parent, const char *path, int role,
				int fd)
{
	struct node *n = node_find(s, path);

	if (!n)
		n = node_add(s, parent, path);
	if (!n) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!(n->srcs & (1u << role))) {
		n->srcs |= 1u << role;
		n->has_prev = false;
	}
	if (n->dfd[role] < 0 && fd >= 0 && fd_budget_left(s)) {
		n->dfd[role] = fd;
		s->fds_held++;
	} else if (fd >= 0) {
		close(fd);
	}
	watch(s, n, role);
	return n;
}

static bool is_dir_entry(int dfd, const struct dirent64 *de)
{
	struct stat st;

	if (de->d_type == DT_DIR)
		return true;
	if (de->d_type != DT_UNKNOWN)
		return false;
	return fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/*
 * List the node's children in one hierarchy (recursively down to the depth limit), adding
 * the new and, when prune is set, dropping the ones no longer listed. Out of fds, what could
 * not be listed is listed again next sample (s->rescan): never an error of the tree.
 */
static int scan(struct cg_stats *s, struct node *n, int role, bool prune)
{
	char dbuf[8192];
	int tmp = -1, dfd;
	size_t found_cap = 0, n_found = 0;
	struct found {
		char *name;
		bool walk; /* scan below it: new here, or a rescan */
	} *found = NULL;
	int r = 0;

	if (n->depth >= s->depth)
		return 0;
	dfd = n->dfd[role];
	if (dfd < 0)
		dfd = tmp = node_open(s, n, role, ".", DIR_FLAGS, NULL);
	if (dfd < 0) {
		if (out_of_fds(dfd))
			s->rescan = true;
		return gone(dfd) || out_of_fds(dfd) ? 0 : dfd;
	}
	if (lseek(dfd, 0, SEEK_SET) < 0) {
		r = gone(-errno) ? 0 : -errno;
		goto out;
	}
	for (;;) {
		long got = syscall(SYS_getdents64, dfd, dbuf, sizeof(dbuf));

		if (got < 0) {
			r = gone(-errno) ? 0 : -errno;
			goto out;
		}
		if (got == 0)
			break;
		for (long off = 0; off < got;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);

			off += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
			    !is_dir_entry(dfd, de))
				continue;
			if (n_found == found_cap) {
				size_t cap = found_cap ? found_cap * 2 : 16;
				struct found *nf = realloc(found, cap * sizeof(*nf));

				if (!nf) {
					r = -ENOMEM;
					goto out;
				}
				found = nf;
				found_cap = cap;
			}
			found[n_found].name = strdup(de->d_name);
			if (!found[n_found].name) {
				r = -ENOMEM;
				goto out;
			}
			found[n_found++].walk = prune;
		}
	}
	/* the listing is all the walk needs the directory for: no fd is held down the tree */
	if (tmp >= 0)
		close(tmp);
	tmp = -1;
	if (prune) {
		for (struct node *c = n->child, *next; c; c = next) {
			const char *base = strrchr(c->path, '/');
			bool seen = false;

			next = c->sibling;
			base = base ? base + 1 : c->path;
			for (size_t i = 0; i < n_found && !seen; i++)
				seen = !strcmp(found[i].name, base);
			if (!seen && (c->srcs & (1u << role)))
				node_vanish(s, c, role);
		}
	}
	for (size_t i = 0; i < n_found; i++) {
		_cleanup_free_ char *cpath = cg_path_join(n->path, found[i].name);
		struct node *c;
		int cfd = -1;

		if (!cpath) {
			r = -ENOMEM;
			goto out;
		}
		c = node_find(s, cpath);
		/* known: a rescan still walks below it, an event-driven scan need not */
		if (c && (c->srcs & (1u << role)))
			continue;
		if (fd_budget_left(s)) {
			cfd = node_open(s, n, role, found[i].name, DIR_FLAGS, NULL);
			if (gone(cfd)) {
				found[i].walk = false;
				continue; /* gone between the listing and the open */
			}
		}
		if (!node_attach(s, n, cpath, role, cfd)) {
			r = -ENOMEM;
			goto out;
		}
		found[i].walk = true;
	}
	for (size_t i = 0; i < n_found; i++) {
		_cleanup_free_ char *cpath = NULL;
		struct node *c;

		if (!found[i].walk)
			continue;
		cpath = cg_path_join(n->path, found[i].name);
		if (!cpath) {
			r = -ENOMEM;
			goto out;
		}
		c = node_find(s, cpath);
		if (c && (c->srcs & (1u << role)) && (r = scan(s, c, role, prune)) < 0)
			goto out;
	}
out:
	for (size_t i = 0; i < n_found; i++)
		free(found[i].name);
	free(found);
	if (tmp >= 0)
		close(tmp);
	return r;
}

static struct node *root_node(struct cg_stats *s)
{
	return node_find(s, s->root);
}

static int scan_all(struct cg_stats *s)
{
	struct node *root = root_node(s);
	int r;

	s->rescan = false;
	for (int role = 0; role < R_PROC; role++) {
		if (!s->hier[role] || !root || !(root->srcs & (1u << role)))
			continue;
		r = scan(s, root, role, true);
		if (r < 0)
			return r;
		root = root_node(s);
	}
	return 0;
}

/* Apply what inotify saw since the last sample. */
static int drain_events(struct cg_stats *s)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));

	if (s->ifd < 0)
		return 0;
	for (;;) {
		ssize_t len = read(s->ifd, buf, sizeof(buf));

		if (len < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -errno;
		for (char *p = buf; p < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			struct wd_slot *w;
			struct node *c;
			_cleanup_free_ char *cpath = NULL;

			p += sizeof(*ev) + ev->len;
			/* out of fds, the inotify fd was given back: every sample lists the tree */
			if (s->ifd < 0)
				return 0;
			if (ev->mask & IN_Q_OVERFLOW) {
				s->rescan = true;
				continue;
			}
			if (ev->wd < 0 || (size_t)ev->wd >= s->n_wds || !ev->len)
				continue;
			w = &s->wds[ev->wd];
			if (!w->node || w->node->wd[w->role] != ev->wd)
				continue;
			if (ev->mask & IN_MODIFY) {
				/* something changed in the cgroup: read all of it next time */
				w->node->quiet = false;
				w->node->populated = -1;
				continue;
			}
			if (!(ev->mask & IN_ISDIR))
				continue;
			cpath = cg_path_join(w->node->path, ev->name);
			if (!cpath)
				return -ENOMEM;
			if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
				c = node_find(s, cpath);
				if (c && (c->srcs & (1u << w->role)))
					node_vanish(s, c, w->role);
			} else if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
				struct node *parent = w->node;
				int role = w->role, cfd;

				if (parent->depth >= s->depth)
					continue;
				cfd = node_open(s, parent, role, ev->name, DIR_FLAGS, NULL);
				if (gone(cfd))
					continue; /* created and removed before we looked */
				if (cfd < 0) {
					/* out of fds, say: the next sample lists the parent */
					s->rescan = true;
					continue;
				}
				c = node_attach(s, parent, cpath, role, cfd);
				if (!c)
					return -ENOMEM;
				/* mkdir -p may have made children before the watch was set */
				if (scan(s, c, role, false) < 0)
					s->rescan = true;
			}
		}
	}
}

/*
 * A v1 membership listing (tasks, cgroup.procs) is built when the file is opened and reused by
 * every later read of that open file until a second passes without one: read again through a
 * kept fd each second, it never changes. So it is opened for each read.
 */
static bool fresh_only(int k)
{
	return defs[k].count && defs[k].role != R_UNIFIED;
}

/* Read one stat file of a node into s->buf (or *heap when it is bigger). */
static int read_kind(struct cg_stats *s, struct node *n, int k, char **heap)
{
	const struct file_def *d = &defs[k];
	int fd = n->fd[k], tmp = -1, r;
	ssize_t len;

	*heap = NULL;
	if (fd == FD_ABSENT)
		return -ENOENT;
	if (fd < 0) {
		/* one directory open per node and sample (sample_dfd), however many files need it */
		if (d->role == R_PROC)
			tmp = open_relieved(s, d->name);
		else
			tmp = node_open(s, n, s->canon[d->role], d->name,
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
static void read_failed(struct cg_stats *s, struct node *n, int k, int r)
{
	/*
	 * EOPNOTSUPP: cgroup.procs of a threaded cgroup (its processes are its domain's), which
	 * stays threaded: as good as absent.
	 */
	if ((gone(r) || r == -EOPNOTSUPP) && defs[k].role != R_PROC && n->fd[k] != FD_ABSENT) {
		close_fd(s, &n->fd[k]);
		n->fd[k] = FD_ABSENT;
	}
	if (r == -ENODEV)
		n->srcs |= 1u << 31; /* marker: collect after the pass */
}

/* A small /proc file read whole into buf, NUL-terminated: length or -errno. */
static ssize_t read_small(struct cg_stats *s, const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = open_relieved(s, path);

	return fd < 0 ? -errno : cg_pread_buf(fd, buf, size);
}

static void sample_threads(struct cg_stats *s, struct node *n, uint64_t now, uint64_t prev_t)
{
	_cleanup_free_ char *heap = NULL;
	_cleanup_free_ pid_t *tids = NULL;
	struct cg_stat_thread *old = n->row.threads, *nt = NULL;
	size_t n_old = n->row.n_threads, n_new = 0, cap = 0, n_tids = 0;
	int r;

	r = read_kind(s, n, F_THREADS_V2, &heap);
	if (r < 0 || cg_members_parse(heap ? heap : s->buf, &tids, &n_tids) < 0)
		goto out;
	for (size_t i = 0; i < n_tids; i++) {
		char path[96], sbuf[1024];
		struct cg_stat_thread t = { .cpu_percent = -1 };
		pid_t tid = tids[i];

		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)tid, (int)tid);
		/* a failed read: exited since the listing */
		if (read_small(s, path, sbuf, sizeof(sbuf)) < 0 ||
		    cg_stats_parse_proc_stat(sbuf, t.comm, sizeof(t.comm), &t.ticks) < 0)
			continue;
		t.tid = tid;
		for (size_t j = 0; j < n_old; j++) {
			if (old[j].tid == tid && now > prev_t && t.ticks >= old[j].ticks) {
				t.cpu_percent = (double)(t.ticks - old[j].ticks) /
						(double)s->clk_tck /
						((double)(now - prev_t) / 1e9) * 100.0;
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

	if (read_kind(s, n, F_TYPE, &heap) < 0)
		return false;
	return !strcmp(heap ? heap : s->buf, "threaded\n");
}

/* First file of the metric that this node has and that parses. */
/* PSI text with every average zero: nothing stalled in the last five minutes. */
static bool psi_idle(const char *text)
{
	for (const char *p = strstr(text, "avg"); p; p = strstr(p + 1, "avg")) {
		const char *v = strchr(p, '=');

		if (!v)
			return false;
		for (v++; *v && *v != ' ' && *v != '\n'; v++)
			if (*v >= '1' && *v <= '9')
				return false;
	}
	return true;
}

/* Which files serve M_TASKS: the task counters, or the process listings. */
static bool kind_wanted(const struct cg_stats *s, int k)
{
	return defs[k].metric != M_TASKS || defs[k].procs == (s->count != CG_COUNT_TASKS);
}

static bool is_kernel_thread(struct cg_stats *s, pid_t pid)
{
	char path[32], buf[1024];
	uint64_t flags;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	/* gone since the listing: not counted as a kernel thread, it was a process */
	if (read_small(s, path, buf, sizeof(buf)) < 0)
		return false;
	return cg_stats_parse_proc_flags(buf, &flags) == 0 && (flags & 0x00200000u);
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

static int read_metric(struct cg_stats *s, struct node *n, enum metric m, uint64_t *a, uint64_t *b,
		       double *dv)
{
	for (int k = 0; k < F_N; k++) {
		_cleanup_free_ char *heap = NULL;
		const char *text;
		int r;

		if (defs[k].metric != m || !(n->srcs & (1u << s->canon[defs[k].role])) ||
		    !kind_wanted(s, k))
			continue;
		if (defs[k].root_only && n->depth != 0)
			continue;
		if (defs[k].root_only && *n->path)
			continue;
		r = read_kind(s, n, k, &heap);
		if (r < 0) {
			read_failed(s, n, k, r);
			continue;
		}
		text = heap ? heap : s->buf;
		switch (k) {
		case F_CPU_STAT:
			if (cg_stats_parse_keyed(text, "usage_usec", a) < 0)
				continue;
			*a *= 1000;
			break;
		case F_MEMINFO: {
			uint64_t total, avail;

			/* the root has no memory.current: what the whole machine uses */
			if (sscanf(text, "MemTotal: %" SCNu64, &total) != 1)
				continue;
			text = strstr(text, "MemAvailable:");
			if (!text || sscanf(text, "MemAvailable: %" SCNu64, &avail) != 1 ||
			    avail > total)
				continue;
			*a = (total - avail) * 1024;
			break;
		}
		case F_IO_STAT:
			if (cg_stats_parse_io_stat(text, a, b) < 0)
				continue;
			break;
		case F_BLKIO_THROTTLE:
		case F_BLKIO:
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
			n->psi_busy |= !psi_idle(text);
			break;
		default:
			if (defs[k].procs) {
				if (count_procs(s, text, a) < 0)
					continue;
			} else if (defs[k].count) {
				*a = cg_stats_count_lines(text);
			} else if (cg_stats_parse_number(text, a) < 0) {
				continue;
			}
			break;
		}
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
			    s->canon[defs[n->kind_used[m]].role] == R_UNIFIED)
				kept |= mbits[m];
		row->have &= kept | CG_STAT_THREADED;
	} else {
		row->have = 0;
		if ((n->srcs & (1u << R_UNIFIED)) && n->populated < 0) {
			_cleanup_free_ char *heap = NULL;

			if (read_kind(s, n, F_EVENTS, &heap) == 0) {
				const char *p = strstr(heap ? heap : s->buf, "populated ");

				n->populated = p ? p[10] == '1' : 1;
			}
			/* read again only when inotify says it changed: not worth an fd */
			close_fd(s, &n->fd[F_EVENTS]);
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
	if (s->threads && (n->srcs & (1u << R_UNIFIED)) && is_threaded(s, n)) {
		row->have |= CG_STAT_THREADED;
		sample_threads(s, n, now, n->has_prev ? n->prev_t : 0);
	} else if (row->threads) {
		free(row->threads);
		row->threads = NULL;
		row->n_threads = 0;
	}
	if (n->has_prev && now > n->prev_t) {
		double dt = (double)(now - n->prev_t) / 1e9;

		if ((row->have & n->prev_have & CG_STAT_CPU) && row->cpu_ns >= n->prev_cpu) {
			row->cpu_percent = (double)(row->cpu_ns - n->prev_cpu) / 1e9 / dt * 100.0;
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
			if (s->canon[defs[f].role] != R_UNIFIED || n->fd[f] < 0)
				continue;
			close_fd(s, &n->fd[f]);
			n->fd[f] = FD_UNTRIED;
		}
		close_fd(s, &n->dfd[R_UNIFIED]);
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
			need = s->canon[defs[f].role] == r && n->fd[f] == FD_UNCACHED;
		if (!need || s->fds_held >= s->fd_budget) {
			close_fd(s, &n->dfd[r]);
			n->dfd[r] = -1;
		}
	}
	for (int r = 0; r < R_N; r++) {
		if (s->sample_dfd[r] >= 0)
			close(s->sample_dfd[r]);
		s->sample_dfd[r] = -1;
	}
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
		if (n->tasks_kind >= 0 && defs[n->tasks_kind].count)
			n->row.tasks = n->own_tasks;
	}
	for (int d = maxd; d > 0; d--) {
		for (size_t i = 0; i < s->n_nodes; i++) {
			struct node *n = s->nodes[i], *p = n->parent;

			if (n->depth != d || !p || p->tasks_kind < 0 || n->tasks_kind < 0 ||
			    !defs[p->tasks_kind].count ||
			    defs[p->tasks_kind].role != defs[n->tasks_kind].role ||
			    (defs[p->tasks_kind].procs && s->own_only))
				continue;
			p->row.tasks += n->row.tasks;
		}
	}
}

int cg_stats_sample(struct cg_stats *s, struct cg_stat_row *const **ret_rows, size_t *ret_n)
{
	uint64_t now;
	struct timespec ts;
	int r;

	s->out_of_fds = 0;
	r = drain_events(s);
	if (r < 0)
		return r;
	if (s->rescan || s->ifd < 0) {
		r = scan_all(s);
		if (r < 0)
			return r;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	for (size_t i = 0; i < s->n_nodes; i++)
		sample_node(s, s->nodes[i], now);
	/* ENODEV: removed while we read; inotify says so too, but do not show a half row */
	for (size_t i = 0; i < s->n_nodes;) {
		struct node *n = s->nodes[i];

		if (n->srcs & (1u << 31)) {
			n->srcs &= ~(1u << 31);
			for (int role = 0; role < R_PROC; role++) {
				_cleanup_free_ char *procs = NULL;
				int root = cg_hier_fd(s->hier[role]);

				if (!(n->srcs & (1u << role)))
					continue;
				/* by path, which takes no fd: the fds may be what ran out */
				procs = cg_path_join(n->path, "cgroup.procs");
				if (!procs)
					return -ENOMEM;
				/* a removed cgroup directory lists nothing and reads ENODEV */
				if (root < 0 || faccessat(root, procs, F_OK, 0) < 0) {
					node_vanish(s, n, role);
					i = 0;
					goto next;
				}
			}
		}
		i++;
	next:;
	}
	/*
	 * Every cached fd was given back and a file still could not be opened: its figures would
	 * be missing without a word. Fewer fds than one open at a time needs is an error.
	 */
	if (s->out_of_fds)
		return s->out_of_fds;
	sum_counted_tasks(s);
	for (size_t i = 0; i < s->n_nodes; i++)
		s->rows[i] = &s->nodes[i]->row;
	*ret_rows = s->rows;
	*ret_n = s->n_nodes;
	return 0;
}

int cg_stats_set_depth(struct cg_stats *s, int depth)
{
	if (depth < 0)
		depth = 0;
	if (depth < s->depth) {
		for (size_t i = 0; i < s->n_nodes;) {
			struct node *n = s->nodes[i];

			if (n->depth > depth && (!n->parent || n->parent->depth <= depth)) {
				node_free(s, n);
				i = 0;
				continue;
			}
			i++;
		}
	}
	s->depth = depth;
	return scan_all(s);
}

void cg_stats_set_threads(struct cg_stats *s, bool threads)
{
	s->threads = threads;
}

const char *cg_stats_sources(const struct cg_stats *s)
{
	return s->sources;
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
			const struct file_def *d = &defs[k];

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
			if (defs[k].metric != M_TASKS || kind_wanted(s, k) || n->fd[k] < 0)
				continue;
			close_fd(s, &n->fd[k]);
			n->fd[k] = FD_UNTRIED;
		}
	}
	root = node_find(s, s->root);
	if (root)
		describe_sources(s, root);
}

int cg_stats_new(const struct cg_layout *l, const struct cg_stats_opts *o, struct cg_stats **ret)
{
	static const char *const v1ctl[R_N] = { [R_CPUACCT] = "cpuacct",
						[R_MEMORY] = "memory",
						[R_BLKIO] = "blkio",
						[R_PIDS] = "pids" };
	static struct cg_hier proc_hier = { .label = (char *)"proc", .fd = -1 };
	struct cg_stats *s = calloc(1, sizeof(*s));
	struct rlimit rl;
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
	for (int role = R_CPUACCT; role <= R_PIDS; role++) {
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
	/* the fds are the cache: take all the kernel allows, keep a margin for the tool */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		/*
		 * What the tool and one sample hold besides the cache: stdio, the hierarchy roots,
		 * inotify, a directory and a file per hierarchy. Under a low limit, half of it.
		 */
		s->fd_budget =
			rl.rlim_cur >= 128 ? (size_t)rl.rlim_cur - 64 : (size_t)rl.rlim_cur / 2;
	} else {
		s->fd_budget = 960;
	}
	s->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	for (int role = 0; role < R_PROC; role++) {
		int fd;

		if (!s->hier[role])
			continue;
		if (s->canon[role] != role)
			continue;
		/* out of fds, the inotify fd is given back for it (every sample lists then) */
		do
			fd = open_root_relative(s, role, s->root);
		while (out_of_fds(fd) && fd_relief(s));
		if (fd < 0) {
			if (fd == -ENOENT || fd == -ENOTDIR)
				continue;
			r = fd;
			goto fail;
		}
		if (!root)
			root = node_add(s, NULL, s->root);
		if (!root) {
			close(fd);
			r = -ENOMEM;
			goto fail;
		}
		node_attach(s, NULL, s->root, role, fd);
	}
	if (!root) {
		r = -ENOENT;
		goto fail;
	}
	root->srcs |= 1u << R_PROC;
	describe_sources(s, root);
	r = scan_all(s);
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
		node_free(s, n);
	}
	if (s->ifd >= 0)
		close(s->ifd);
	free(s->wds);
	free(s->nodes);
	free(s->rows);
	free(s->hash);
	free(s->buf);
	free(s->root);
	free(s);
}
