// SPDX-License-Identifier: MIT
/*
 * The sampler's cgroup tree: one node per cgroup path, joined over the hierarchies; the walk
 * (getdents64), inotify for what appears and vanishes between samples, and the fd budget (the
 * cached fds are the cache, given back when the process runs out).
 */
#include "stats_tree.h"
#include "stats.h"
#include "stats_defs.h"
#include "stats_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "kernel/proc.h"
#include "mirror/mirror.h"

struct node *st_node_find(struct cg_stats *s, const char *path)
{
	return cg_pathmap_get(&s->by_path, NULL, path);
}

struct node *st_node_add(struct cg_stats *s, struct node *parent, const char *path)
{
	struct node *n;

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
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->path = strdup(path);
	if (asprintf(&n->row.path, "/%s", path) < 0)
		n->row.path = NULL;
	if (!n->path || !n->row.path || cg_pathmap_put(&s->by_path, NULL, n->path, n) < 0) {
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
	n->index = s->n_nodes;
	s->nodes[s->n_nodes++] = n;
	s->shape++;
	return n;
}

void st_close_fd(struct cg_stats *s, int *fd)
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
		if (s->canon[st_defs[f].role] != role)
			continue;
		st_close_fd(s, &n->fd[f]);
		n->fd[f] = FD_UNTRIED;
		if (n->tasks_kind == f)
			n->tasks_kind = -1;
	}
	st_close_fd(s, &n->dfd[role]);
	n->dfd[role] = -1;
	if (n->wd[role] >= 0) {
		if ((size_t)n->wd[role] < s->n_wds)
			s->wds[n->wd[role]].node = NULL;
		if (s->msub)
			mirror_unwatch(s->msub, n->wd[role]);
		n->wd[role] = -1;
	}
	n->srcs &= ~(1u << role);
	/* the numbers may now come from another hierarchy: a delta across sources is no rate */
	n->has_prev = false;
}

void st_row_limits_free(struct cg_stat_row *row)
{
	for (int i = 0; i < CG_LT_N; i++) {
		free(row->limit_text[i]);
		row->limit_text[i] = NULL;
	}
}

void st_node_free(struct cg_stats *s, struct node *n)
{
	struct node **pp;

	while (n->child)
		st_node_free(s, n->child);
	for (int r = 0; r < R_N; r++)
		node_drop_role(s, n, r);
	for (int f = 0; f < F_N; f++)
		st_close_fd(s, &n->fd[f]);
	if (n->parent) {
		for (pp = &n->parent->child; *pp != n; pp = &(*pp)->sibling)
			;
		*pp = n->sibling;
	}
	cg_pathmap_remove(&s->by_path, NULL, n->path);
	s->nodes[n->index] = s->nodes[--s->n_nodes];
	s->nodes[n->index]->index = n->index;
	s->shape++;
	free(n->row.threads);
	free(n->row.iodevs);
	free(n->row.percpu_ns);
	free(n->row.k);
	free(n->row.x);
	st_row_limits_free(&n->row);
	free(n->row.path);
	free(n->path);
	free(n);
}

/* The directory went away in one hierarchy: so did every descendant there. */
static void st_node_vanish(struct cg_stats *s, struct node *n, int role)
{
	for (struct node *c = n->child, *next; c; c = next) {
		next = c->sibling;
		st_node_vanish(s, c, role);
	}
	node_drop_role(s, n, role);
	if (!n->srcs)
		st_node_free(s, n);
}

int st_open_root_relative(const struct cg_stats *s, int role, const char *path)
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
bool st_fd_relief(struct cg_stats *s)
{
	size_t held = s->fds_held;

	s->fd_budget = held > 16 ? held - 16 : 0;
	for (size_t i = 0; i < s->n_nodes && s->fds_held > s->fd_budget; i++) {
		struct node *n = s->nodes[i];

		/* a directory fd saves less than a stat file's: it goes first */
		for (int r = 0; r < R_N && s->fds_held > s->fd_budget; r++) {
			st_close_fd(s, &n->dfd[r]);
			n->dfd[r] = -1;
		}
		for (int f = 0; f < F_N && s->fds_held > s->fd_budget; f++) {
			if (n->fd[f] < 0)
				continue;
			st_close_fd(s, &n->fd[f]);
			n->fd[f] = FD_UNTRIED;
		}
	}
	if (s->fds_held < held)
		return true;
	if (!s->msub)
		return false;
	/* the mirror's fd closes with its last user: ours, unless it is shared */
	mirror_sub_free(s->msub);
	s->msub = NULL;
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
int st_node_open(struct cg_stats *s, struct node *n, int role, const char *name, int flags,
		 int *own)
{
	for (;;) {
		int dfd = n->dfd[role], r;

		if (dfd < 0 && own && !s->starved) {
			if (*own < 0)
				*own = st_open_root_relative(s, role, n->path);
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
		if (st_fd_relief(s))
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

int st_diag(struct cg_diag *d, const struct cg_layout *l, const char *path, int r, enum cg_op op,
	    const char *what, const char *why)
{
	char where[PATH_MAX + 2];
	const char *hier = cg_layout_kind_name(cg_layout_kind(l));

	cg_path_display(path, where, sizeof(where));
	if (why)
		return cg_diag_say(d, -r, where, hier, what, "%s", why);
	if (out_of_fds(r))
		return cg_diag_say(
			d, -r, where, hier, what,
			"%s (every cached file descriptor was given back and a file still could not be opened)",
			strerror(-r));
	return cg_diag_fail(d, -r, op, 0, where, hier, "%s", what);
}

bool st_relieved(struct cg_stats *s, int r)
{
	if (!out_of_fds(r))
		return false;
	if (st_fd_relief(s))
		return true;
	s->out_of_fds = r;
	return false;
}

/* A file outside cgroupfs (/proc): opened as st_node_open does, giving cached fds back for it. */
int st_open_relieved(struct cg_stats *s, const char *path)
{
	int fd;

	do
		fd = cg_proc_open(path);
	while (st_relieved(s, fd));
	return fd;
}

static void watch(struct cg_stats *s, struct node *n, int role)
{
	_cleanup_free_ char *abs = NULL;
	int wd;

	if (!s->msub || n->wd[role] >= 0)
		return;
	if (asprintf(&abs, "%s/%s", cg_hier_dir(s->hier[role]), n->path) < 0)
		return;
	/* cgroup2 also reports cgroup.events changes (populated) as IN_MODIFY of the directory */
	wd = mirror_watch(s->msub, abs,
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
			mirror_unwatch(s->msub, wd);
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
struct node *st_node_attach(struct cg_stats *s, struct node *parent, const char *path, int role,
			    int fd)
{
	struct node *n = st_node_find(s, path);

	if (!n)
		n = st_node_add(s, parent, path);
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
		dfd = tmp = st_node_open(s, n, role, ".", DIR_FLAGS, NULL);
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
				st_node_vanish(s, c, role);
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
		c = st_node_find(s, cpath);
		/* known: a rescan still walks below it, an event-driven scan need not */
		if (c && (c->srcs & (1u << role)))
			continue;
		if (fd_budget_left(s)) {
			cfd = st_node_open(s, n, role, found[i].name, DIR_FLAGS, NULL);
			if (gone(cfd)) {
				found[i].walk = false;
				continue; /* gone between the listing and the open */
			}
		}
		if (!st_node_attach(s, n, cpath, role, cfd)) {
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
		c = st_node_find(s, cpath);
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
	return st_node_find(s, s->root);
}

int st_scan_all(struct cg_stats *s)
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
int st_drain_events(struct cg_stats *s)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		/* out of fds, the inotify fd may have been given back while an event was applied */
		ssize_t len = s->msub ? mirror_read(s->msub, buf, sizeof(buf)) : 0;

		if (len <= 0)
			return (int)len;
		for (char *p = buf; p < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			struct wd_slot *w;
			struct node *c;
			_cleanup_free_ char *cpath = NULL;

			p += sizeof(*ev) + ev->len;
			/* out of fds, the inotify fd was given back: every sample lists the tree */
			if (!s->msub)
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
				c = st_node_find(s, cpath);
				if (c && (c->srcs & (1u << w->role)))
					st_node_vanish(s, c, w->role);
			} else if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
				struct node *parent = w->node;
				int role = w->role, cfd;

				if (parent->depth >= s->depth)
					continue;
				cfd = st_node_open(s, parent, role, ev->name, DIR_FLAGS, NULL);
				if (gone(cfd))
					continue; /* created and removed before we looked */
				if (cfd < 0) {
					/* out of fds, say: the next sample lists the parent */
					s->rescan = true;
					continue;
				}
				c = st_node_attach(s, parent, cpath, role, cfd);
				if (!c)
					return -ENOMEM;
				/* mkdir -p may have made children before the watch was set */
				if (scan(s, c, role, false) < 0)
					s->rescan = true;
			}
		}
	}
}

void st_fd_budget_init(struct cg_stats *s, size_t reserve)
{
	struct rlimit rl;

	/*
	 * The fds are the cache: take what the limit allows, keep a margin for the tool. Raising
	 * the limit is the tool's decision (cgtop2 raises it to the hard limit first), not ours.
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		/*
		 * What the tool and one sample hold besides the cache: stdio, the hierarchy roots,
		 * inotify, a directory and a file per hierarchy. Under a low limit, half of it.
		 */
		s->fd_budget =
			rl.rlim_cur >= 128 ? (size_t)rl.rlim_cur - 64 : (size_t)rl.rlim_cur / 2;
	} else {
		s->fd_budget = 960;
	}
	s->fd_budget = s->fd_budget > reserve ? s->fd_budget - reserve : 0;
}

int st_collect_removed(struct cg_stats *s)
{
	for (size_t i = 0; i < s->n_nodes;) {
		struct node *n = s->nodes[i];

		if (n->gone_seen) {
			n->gone_seen = false;
			for (int role = 0; role < R_PROC; role++) {
				_cleanup_free_ char *procs = NULL;
				int root;

				/* a role the node is not in may have no hierarchy at all (the unified
				 * one on a legacy machine): only then is there a mount to ask */
				if (!(n->srcs & (1u << role)))
					continue;
				root = cg_hier_fd(s->hier[role]);
				/* by path, which takes no fd: the fds may be what ran out */
				procs = cg_path_join(n->path, "cgroup.procs");
				if (!procs)
					return -ENOMEM;
				/* a removed cgroup directory lists nothing and reads ENODEV */
				if (root < 0 || faccessat(root, procs, F_OK, 0) < 0) {
					st_node_vanish(s, n, role);
					i = 0;
					goto next;
				}
			}
		}
		i++;
	next:;
	}
	return 0;
}

int cg_stats_set_depth(struct cg_stats *s, int depth, struct cg_diag *d)
{
	int r;

	if (depth < 0)
		depth = 0;
	if (depth < s->depth) {
		for (size_t i = 0; i < s->n_nodes;) {
			struct node *n = s->nodes[i];

			if (n->depth > depth && (!n->parent || n->parent->depth <= depth)) {
				st_node_free(s, n);
				i = 0;
				continue;
			}
			i++;
		}
	}
	s->depth = depth;
	r = st_scan_all(s);
	return r < 0 ? st_diag(d, s->layout, s->root, r, CG_OP_READ, "list", NULL) : 0;
}
