// SPDX-License-Identifier: MIT
/*
 * The event watcher behind cgtop2 --events: one node per cgroup and hierarchy, an inotify
 * watch on each directory (created, removed) and on each events file (cgroup.events,
 * memory.events, pids.events: IN_MODIFY), v1 memory eventfds through cgroup.event_control,
 * and a sample every interval for what the kernel does not notify.
 */
#include "watch_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "file.h"
#include "kparse.h"

static size_t hash_of(const struct whier *h, const char *p, size_t size)
{
	uint64_t x = 14695981039346656037ULL ^ (uintptr_t)h;

	for (; *p; p++)
		x = (x ^ (unsigned char)*p) * 1099511628211ULL;
	return (size_t)(x & (size - 1));
}

static struct wnode *node_find(struct cg_watch *w, const struct whier *h, const char *path)
{
	for (struct wnode *n = w->hash[hash_of(h, path, w->hash_size)]; n; n = n->hnext)
		if (n->h == h && !strcmp(n->path, path))
			return n;
	return NULL;
}

/* Twice as many buckets as entries at most, grown fourfold (sizes stay powers of two). */
static int nodes_grow(struct cg_watch *w)
{
	size_t ns = w->hash_size * 4;
	struct wnode **nt;

	if (w->n_nodes < w->hash_size * 2)
		return 0;
	nt = calloc(ns, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (size_t i = 0; i < w->hash_size; i++)
		for (struct wnode *n = w->hash[i], *next; n; n = next) {
			size_t b = hash_of(n->h, n->path, ns);

			next = n->hnext;
			n->hnext = nt[b];
			nt[b] = n;
		}
	free(w->hash);
	w->hash = nt;
	w->hash_size = ns;
	return 0;
}

static int wds_grow(struct cg_watch *w)
{
	size_t ns = w->wds_size * 4;
	struct wslot **nt;

	if (w->n_wds < w->wds_size * 2)
		return 0;
	nt = calloc(ns, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (size_t i = 0; i < w->wds_size; i++)
		for (struct wslot *s = w->wds[i], *next; s; s = next) {
			size_t b = (size_t)s->wd & (ns - 1);

			next = s->next;
			s->next = nt[b];
			nt[b] = s;
		}
	free(w->wds);
	w->wds = nt;
	w->wds_size = ns;
	return 0;
}

static void wd_forget(struct cg_watch *w, int wd)
{
	for (struct wslot **p = &w->wds[(size_t)wd & (w->wds_size - 1)]; *p; p = &(*p)->next)
		if ((*p)->wd == wd) {
			struct wslot *s = *p;

			*p = s->next;
			free(s);
			w->n_wds--;
			return;
		}
}

static struct wslot *wd_find(struct cg_watch *w, int wd)
{
	for (struct wslot *s = w->wds[(size_t)wd & (w->wds_size - 1)]; s; s = s->next)
		if (s->wd == wd)
			return s;
	return NULL;
}

/* ---- events to the callback -------------------------------------------------------------- */

static bool node_populated(const struct wnode *n)
{
	return n->h->h->version == 2 ? n->have[EF_CGROUP] && n->ev[EF_CGROUP][0] : n->populated;
}

/*
 * A path is one cgroup however many hierarchies have it (a hybrid layout's unified tree and
 * each v1 hierarchy): created when the first has it, removed when the last goes, populated
 * while any is, so that a change is one event. Whether another hierarchy's node of n's path
 * already says what ev would.
 */
static bool said_elsewhere(struct cg_watch *w, const struct wnode *n, enum cg_watch_kind k)
{
	for (size_t i = 0; i < w->n_hiers; i++) {
		struct wnode *o;

		if (&w->hiers[i] == n->h || !(o = node_find(w, &w->hiers[i], n->path)))
			continue;
		if (k == CG_EV_CREATED || k == CG_EV_REMOVED ||
		    ((k == CG_EV_POPULATED || k == CG_EV_EMPTY) && node_populated(o)))
			return true;
	}
	return false;
}

/*
 * A sampled counter rising every sample (a cgroup throttled for minutes) is one event when it
 * starts and one when it has been quiet for EPISODE_QUIET_SAMPLES samples, with the count:
 * whether ev is the start (to emit) or a rise within the episode (counted).
 */
static bool episode_starts(struct cg_watch *w, struct wnode *n, struct cg_watch_event *ev)
{
	struct episode *e = &n->ep[ev->kind == CG_EV_PIDS_MAX];

	e->last_ns = cg_now_ns();
	e->total = ev->total;
	if (e->on) {
		e->count += ev->count;
		return false;
	}
	e->on = true;
	e->count = ev->count;
	ev->edge = CG_EDGE_STARTED;
	return true;
}

void episodes_end(struct cg_watch *w, struct wnode *n, uint64_t now)
{
	static const enum cg_watch_kind kinds[] = { CG_EV_THROTTLED, CG_EV_PIDS_MAX };
	static const char *const files[] = { "cpu.stat", "pids.events" };

	for (size_t i = 0; i < ARRAY_SIZE(n->ep); i++) {
		struct episode *e = &n->ep[i];
		struct cg_watch_event ev = { .kind = kinds[i],
					     .source = CG_SRC_SAMPLED,
					     .edge = CG_EDGE_STOPPED,
					     .file = files[i] };

		if (!e->on || e->last_ns + EPISODE_QUIET_SAMPLES * w->o.interval_ns > now)
			continue;
		e->on = false;
		ev.count = e->count;
		ev.total = e->total;
		emit(w, n, &ev);
	}
}

void emit(struct cg_watch *w, struct wnode *n, struct cg_watch_event *ev)
{
	char path[PATH_MAX + 2];

	if (w->stop || !(w->o.kinds & (1u << ev->kind)))
		return;
	if (ev->kind <= CG_EV_EMPTY && said_elsewhere(w, n, ev->kind))
		return;
	if (ev->source == CG_SRC_SAMPLED && !ev->edge &&
	    (ev->kind == CG_EV_THROTTLED || ev->kind == CG_EV_PIDS_MAX) &&
	    !episode_starts(w, n, ev))
		return;
	snprintf(path, sizeof(path), "/%s", n->path);
	ev->path = path;
	ev->hier = n->h->h->label;
	ev->mountpoint = cg_hier_dir(n->h->h);
	w->stop = w->cb(ev, w->ud);
}

void emit_simple(struct cg_watch *w, struct wnode *n, enum cg_watch_kind k,
		 enum cg_watch_source src)
{
	struct cg_watch_event ev = { .kind = k, .source = src, .count = 1 };

	emit(w, n, &ev);
}

/* ---- watches and eventfds ----------------------------------------------------------------- */

int add_watch(struct cg_watch *w, struct wnode *n, int slot, const char *file, uint32_t mask)
{
	char abs[PATH_MAX];
	struct wslot *s;
	int wd;

	if ((size_t)snprintf(abs, sizeof(abs), "%s/%s%s%s", cg_hier_dir(n->h->h), n->path,
			     file ? "/" : "", file ? file : "") >= sizeof(abs))
		return cg_diag_say(w->d, ENAMETOOLONG, n->path, n->h->h->label, "watch",
				   "the path is longer than PATH_MAX");
	wd = inotify_add_watch(w->ifd, abs, mask | IN_DONT_FOLLOW);
	if (wd < 0) {
		int e = errno;

		if (e == ENOENT || e == ENOTDIR)
			return -ENOENT;
		if (e == ENOSPC) {
			char lim[32] = "?";
			_cleanup_close_ int fd =
				open("/proc/sys/fs/inotify/max_user_watches", O_RDONLY | O_CLOEXEC);

			if (fd >= 0 && cg_pread_buf(fd, lim, sizeof(lim)) > 0)
				lim[strcspn(lim, "\n")] = '\0';
			return cg_diag_say(
				w->d, ENOSPC, *n->path ? n->path : "/", n->h->h->label, "watch",
				"out of inotify watches: fs.inotify.max_user_watches is %s for this user (this watcher holds %zu, up to 4 a cgroup and hierarchy); raise it with sysctl fs.inotify.max_user_watches=N",
				lim, w->n_wds);
		}
		return cg_diag_fail(w->d, e, CG_OP_READ, n->h->h->version, *n->path ? n->path : "/",
				    n->h->h->label, "inotify_add_watch");
	}
	if (wd_find(w, wd))
		wd_forget(w, wd);
	if (wds_grow(w) < 0 || !(s = malloc(sizeof(*s))))
		return -ENOMEM;
	*s = (struct wslot){ .wd = wd, .node = n, .slot = slot };
	s->next = w->wds[(size_t)wd & (w->wds_size - 1)];
	w->wds[(size_t)wd & (w->wds_size - 1)] = s;
	w->n_wds++;
	n->wd[slot] = wd;
	return 0;
}

static struct wnode *node_new(struct cg_watch *w, struct whier *h, struct wnode *parent,
			      const char *path)
{
	struct wnode *n = calloc(1, sizeof(*n));
	size_t b;

	if (!n || !(n->path = strdup(path)) || nodes_grow(w) < 0) {
		if (n)
			free(n->path);
		free(n);
		return NULL;
	}
	for (int i = 0; i < S_N; i++)
		n->wd[i] = -1;
	n->h = h;
	n->parent = parent;
	if (parent) {
		n->sibling = parent->child;
		parent->child = n;
	}
	b = hash_of(h, path, w->hash_size);
	n->hnext = w->hash[b];
	w->hash[b] = n;
	w->n_nodes++;
	n->gen = w->gen;
	return n;
}

/* Forget n and its subtree (no event); the kernel drops the watches of removed inodes. */
static void node_free(struct cg_watch *w, struct wnode *n)
{
	while (n->child)
		node_free(w, n->child);
	if (n->parent)
		for (struct wnode **p = &n->parent->child; *p; p = &(*p)->sibling)
			if (*p == n) {
				*p = n->sibling;
				break;
			}
	for (struct wnode **p = &w->hash[hash_of(n->h, n->path, w->hash_size)]; *p;
	     p = &(*p)->hnext)
		if (*p == n) {
			*p = n->hnext;
			break;
		}
	for (int i = 0; i < S_N; i++)
		if (n->wd[i] >= 0) {
			struct wslot *s = wd_find(w, n->wd[i]);

			if (s && s->node == n)
				wd_forget(w, n->wd[i]);
			/* the parent lives on: its watch does not go by itself */
			if (i == S_PARENT)
				inotify_rm_watch(w->ifd, n->wd[i]);
		}
	if (n->h->top == n)
		n->h->top = NULL;
	efd_free(n->oom);
	efd_free(n->thr);
	psi_free(w, n);
	free(n->path);
	free(n);
	w->n_nodes--;
}

/* n and everything below it is gone: removed, deepest first. */
static void node_removed(struct cg_watch *w, struct wnode *n, enum cg_watch_source src)
{
	while (n->child)
		node_removed(w, n->child, src);
	emit_simple(w, n, CG_EV_REMOVED, src);
	node_free(w, n);
}

static int scan(struct cg_watch *w, struct wnode *n, bool report, enum cg_watch_source src);

/*
 * Directory name appeared under parent: a node, its watches, then its own subtree listed (a
 * cgroup made inside it before its watch existed is found there; one made after is an
 * IN_CREATE). A directory already gone by then was still created: reported, and its IN_DELETE,
 * which follows in the queue, reports the removal.
 */
static int child_add(struct cg_watch *w, struct wnode *parent, const char *name, bool report,
		     enum cg_watch_source src)
{
	_cleanup_free_ char *path = cg_path_join(parent->path, name);
	struct wnode *n;
	int r;

	if (!path)
		return -ENOMEM;
	n = node_find(w, parent->h, path);
	if (n) {
		n->gen = w->gen;
		/* a rescan looks below what it knows too */
		return src == CG_SRC_RESCAN ? scan(w, n, report, src) : 0;
	}
	n = node_new(w, parent->h, parent, path);
	if (!n)
		return -ENOMEM;
	if (report)
		emit_simple(w, n, CG_EV_CREATED, src);
	r = add_watch(w, n, S_DIR, NULL,
		      IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |
			      IN_ONLYDIR);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	r = node_arm(w, n, report, src);
	return r < 0 ? r : scan(w, n, report, src);
}

static int scan(struct cg_watch *w, struct wnode *n, bool report, enum cg_watch_source src)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;
	int fd, r;

	fd = cg_hier_open(n->h->h, *n->path ? n->path : ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT || fd == -ENODEV ? 0 : fd;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		r = child_add(w, n, de->d_name, report, src);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- public ------------------------------------------------------------------------------- */

int cg_watch_new(const struct cg_layout *l, const struct cg_watch_opts *o, struct cg_watch **ret,
		 struct cg_diag *d)
{
	struct cg_watch *w = calloc(1, sizeof(*w));
	struct epoll_event ee = { .events = EPOLLIN };
	int r = -ENOMEM;

	if (!w)
		return -ENOMEM;
	w->l = l;
	w->o = *o;
	w->d = d;
	w->ifd = w->epfd = -1;
	w->hash_size = w->wds_size = 1024;
	w->hash = calloc(w->hash_size, sizeof(*w->hash));
	w->wds = calloc(w->wds_size, sizeof(*w->wds));
	w->hiers = calloc(l->n ? l->n : 1, sizeof(*w->hiers));
	if (!w->hash || !w->wds || !w->hiers)
		goto fail;
	w->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->ifd < 0) {
		r = -errno;
		if (r == -EMFILE)
			cg_diag_say(
				d, EMFILE, *o->path ? o->path : "/", "all hierarchies",
				"inotify_init",
				"out of inotify instances (fs.inotify.max_user_instances) or of open files");
		goto fail;
	}
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0 || epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->ifd, &ee) < 0) {
		r = -errno;
		goto fail;
	}
	r = -ENOENT;
	for (size_t i = 0; i < l->n; i++) {
		const struct cg_hier *h = &l->hier[i];
		struct whier *wh = &w->hiers[w->n_hiers];
		bool dup = false;
		int fd, e;

		for (size_t j = 0; j < w->n_hiers; j++)
			dup |= w->hiers[j].h->dev == h->dev;
		if (dup)
			continue;
		fd = cg_hier_open(h, *o->path ? o->path : ".", O_PATH | O_DIRECTORY);
		if (fd == -ENOENT || fd == -ENOTDIR || fd == -ESTALE)
			continue;
		if (fd < 0) {
			r = cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, *o->path ? o->path : "/",
					 h->label, "open");
			goto fail;
		}
		close(fd);
		*wh = (struct whier){ .h = h };
		wh->memory_v1 = h->version == 1 && cg_hier_has(h, "memory");
		wh->cpu = h->version == 1 && cg_hier_has(h, "cpu");
		wh->v1_populated = h->version == 1 && (o->kinds & (3u << CG_EV_POPULATED));
		wh->v1_pids = h->version == 1 && cg_hier_has(h, "pids") &&
			      (o->kinds & (1u << CG_EV_PIDS_MAX));
		w->n_hiers++;
		wh->top = node_new(w, wh, NULL, o->path);
		if (!wh->top) {
			r = -ENOMEM;
			goto fail;
		}
		e = add_watch(w, wh->top, S_DIR, NULL,
			      IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |
				      IN_ONLYDIR);
		/* not the root: its parent says when it goes (unreadable there: IN_DELETE_SELF) */
		if (e == 0 && *o->path) {
			e = add_watch(w, wh->top, S_PARENT, "..",
				      IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR);
			if (e == -EACCES || e == -EPERM)
				e = 0;
		}
		if (e == 0)
			e = node_arm(w, wh->top, false, CG_SRC_INOTIFY);
		if (e == 0)
			e = scan(w, wh->top, false, CG_SRC_INOTIFY);
		/* v1 membership as it is now: the baseline, not news */
		if (e == 0 && wh->v1_populated)
			sample_populated(w, wh->top, true);
		if (e < 0) {
			r = e;
			if (d && !d->why[0])
				cg_diag_fail(d, -e, CG_OP_READ, h->version,
					     *o->path ? o->path : "/", h->label, "watch");
			goto fail;
		}
		r = 0;
	}
	if (r < 0)
		goto fail;
	if (o->n_triggers && (o->kinds & (1u << CG_EV_PRESSURE))) {
		bool v2 = false;

		for (size_t i = 0; i < w->n_hiers; i++)
			v2 |= w->hiers[i].h->version == 2;
		if (!v2) {
			r = cg_diag_say(
				d, ENOTSUP, *o->path ? o->path : "/", "all hierarchies",
				"PSI triggers",
				"PSI triggers are cgroup2's: no cgroup2 hierarchy has this cgroup");
			goto fail;
		}
	}
	w->next_sample = cg_now_ns() + o->interval_ns;
	w->d = NULL;
	*ret = w;
	return 0;
fail:
	w->d = NULL;
	cg_watch_free(w);
	return r;
}

void cg_watch_free(struct cg_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_hiers; i++)
		if (w->hiers[i].top)
			node_free(w, w->hiers[i].top);
	for (size_t i = 0; i < w->wds_size; i++)
		while (w->wds[i]) {
			struct wslot *s = w->wds[i];

			w->wds[i] = s->next;
			free(s);
		}
	if (w->ifd >= 0)
		close(w->ifd);
	if (w->epfd >= 0)
		close(w->epfd);
	free(w->wds);
	free(w->hash);
	free(w->hiers);
	free(w);
}

int cg_watch_poll(struct cg_watch *w, struct pollfd *fds, size_t n, int timeout_ms)
{
	struct epoll_event *ee = w->ready + w->n_ready;
	int room = (int)ARRAY_SIZE(w->ready) - w->n_ready, got = 0, r = 0;
	size_t added = 0;

	/* the caller's fds join the epoll fd for this wait only, tagged 1..n: a slot is a pointer,
	 * inotify 0 */
	for (; added < n; added++) {
		struct epoll_event e = { .events = (uint32_t)fds[added].events,
					 .data.u64 = added + 1 };

		fds[added].revents = 0;
		if (fds[added].fd >= 0 &&
		    epoll_ctl(w->epfd, EPOLL_CTL_ADD, fds[added].fd, &e) < 0) {
			r = -errno;
			goto out;
		}
	}
	/* taken and not yet processed: the caller's fds are looked at, nothing waited for */
	if (room && (got = epoll_wait(w->epfd, ee, room, w->n_ready ? 0 : timeout_ms)) < 0) {
		r = errno == EINTR ? 0 : -errno;
		goto out;
	}
	for (int i = 0; i < got; i++) {
		uint64_t tag = ee[i].data.u64;

		if (tag >= 1 && tag <= n)
			fds[tag - 1].revents = (short)ee[i].events;
		else
			w->ready[w->n_ready++] = ee[i];
		r++;
	}
	if (!r && w->n_ready)
		r = 1;
out:
	while (added--)
		if (fds[added].fd >= 0)
			epoll_ctl(w->epfd, EPOLL_CTL_DEL, fds[added].fd, NULL);
	return r;
}

int cg_watch_timeout_ms(const struct cg_watch *w)
{
	uint64_t now = cg_now_ns();

	uint64_t next = w->sampled ? w->next_sample : 0;

	if (w->psi_due && (!next || w->psi_due < next))
		next = w->psi_due;
	if (!next)
		return -1;
	if (next <= now)
		return 0;
	return (int)((next - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC);
}

size_t cg_watch_overflows(const struct cg_watch *w)
{
	return w->overflows;
}

size_t cg_watch_cgroups(const struct cg_watch *w)
{
	return w->n_nodes;
}

size_t cg_watch_watches(const struct cg_watch *w)
{
	return w->n_wds;
}

size_t cg_watch_triggers(const struct cg_watch *w)
{
	return w->n_psi;
}

/* ---- what happened ------------------------------------------------------------------------ */

static int on_inotify(struct cg_watch *w, const struct inotify_event *ev, bool *overflow)
{
	struct wslot *s;
	struct wnode *n, *c;
	_cleanup_free_ char *path = NULL;
	int f;

	if (ev->mask & IN_Q_OVERFLOW) {
		*overflow = true;
		return 0;
	}
	s = wd_find(w, ev->wd);
	if (!s)
		return 0;
	n = s->node;
	if (ev->mask & IN_IGNORED) {
		if (n->wd[s->slot] == ev->wd)
			n->wd[s->slot] = -1;
		wd_forget(w, ev->wd);
		return 0;
	}
	if (s->slot == S_PARENT) {
		const char *base = strrchr(n->path, '/');

		base = base ? base + 1 : n->path;
		if ((ev->mask & (IN_DELETE | IN_MOVED_FROM)) && (ev->mask & IN_ISDIR) && ev->len &&
		    !strcmp(ev->name, base))
			node_removed(w, n, CG_SRC_INOTIFY);
		return 0;
	}
	if (s->slot >= S_EFILE0) {
		f = s->slot - S_EFILE0;
		if (ev->mask & IN_MODIFY) {
			efile_update(w, n, f, CG_SRC_INOTIFY);
			if (f == EF_MEMORY && n->thr_v2) {
				uint64_t v;

				if (read_u64(n, "memory.current", NULL, &v) == 0)
					threshold_check(w, n, v, 0, CG_SRC_INOTIFY);
			}
		}
		return 0;
	}
	if ((ev->mask & IN_DELETE_SELF) && n == n->h->top) {
		node_removed(w, n, CG_SRC_INOTIFY);
		return 0;
	}
	if (!(ev->mask & IN_ISDIR) || !ev->len)
		return 0;
	if (ev->mask & (IN_CREATE | IN_MOVED_TO))
		return child_add(w, n, ev->name, true, CG_SRC_INOTIFY);
	if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		path = cg_path_join(n->path, ev->name);
		if (!path)
			return -ENOMEM;
		c = node_find(w, n->h, path);
		if (c)
			node_removed(w, c, CG_SRC_INOTIFY);
	}
	return 0;
}

static void forget_unseen(struct cg_watch *w, struct wnode *n)
{
	for (struct wnode *c = n->child, *next; c; c = next) {
		next = c->sibling;
		if (c->gen != w->gen)
			node_removed(w, c, CG_SRC_RESCAN);
		else
			forget_unseen(w, c);
	}
	for (int f = 0; f < EF_N; f++)
		if (n->have[f])
			efile_update(w, n, f, CG_SRC_RESCAN);
}

static int rescan(struct cg_watch *w)
{
	w->gen++;
	for (size_t i = 0; i < w->n_hiers; i++) {
		struct wnode *top = w->hiers[i].top;
		int r;

		if (!top)
			continue;
		r = cg_hier_open(top->h->h, *top->path ? top->path : ".", O_PATH | O_DIRECTORY);
		if (r == -ENOENT || r == -ENODEV) {
			node_removed(w, top, CG_SRC_RESCAN);
			continue;
		}
		if (r >= 0)
			close(r);
		top->gen = w->gen;
		r = scan(w, top, true, CG_SRC_RESCAN);
		if (r < 0)
			return r;
		forget_unseen(w, top);
	}
	return 0;
}

int cg_watch_rescan(struct cg_watch *w, cg_watch_cb cb, void *userdata, struct cg_diag *d)
{
	int r;

	w->cb = cb;
	w->ud = userdata;
	w->stop = 0;
	w->d = d;
	r = rescan(w);
	w->d = NULL;
	return r < 0 ? r : w->stop;
}

static bool all_gone(const struct cg_watch *w)
{
	for (size_t i = 0; i < w->n_hiers; i++)
		if (w->hiers[i].top)
			return false;
	return true;
}

int cg_watch_process(struct cg_watch *w, cg_watch_cb cb, void *userdata, struct cg_diag *d)
{
	char buf[65536] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct epoll_event ee[ARRAY_SIZE(w->ready)];
	bool overflow = false;
	int n, r = 0;

	w->cb = cb;
	w->ud = userdata;
	w->stop = 0;
	w->d = d;
	/* eventfds first: only inotify's removals free nodes, which the slots point to */
	n = w->n_ready;
	memcpy(ee, w->ready, sizeof(ee[0]) * (size_t)n);
	w->n_ready = 0;
	if (!n)
		n = epoll_wait(w->epfd, ee, (int)ARRAY_SIZE(ee), 0);
	for (int i = 0; i < n; i++) {
		struct efd_slot *s = ee[i].data.ptr;

		if (s && s->type == EFD_PSI)
			on_psi(w, s, ee[i].events);
		else if (s)
			on_eventfd(w, s);
	}
	for (;;) {
		ssize_t len = read(w->ifd, buf, sizeof(buf));

		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				r = cg_diag_fail(d, errno, CG_OP_READ, 0, "/", "all hierarchies",
						 "read inotify events");
			break;
		}
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			r = on_inotify(w, ev, &overflow);
			if (r < 0)
				goto out;
			p += sizeof(*ev) + ev->len;
		}
	}
	if (overflow) {
		w->overflows++;
		r = rescan(w);
		if (r < 0)
			goto out;
	}
	if (w->sampled && cg_now_ns() >= w->next_sample) {
		sample(w);
		w->next_sample = cg_now_ns() + w->o.interval_ns;
	} else {
		psi_tick(w, false);
	}
out:
	w->d = NULL;
	if (r < 0)
		return r;
	if (w->stop)
		return w->stop;
	return all_gone(w) ? 1 : 0;
}
