// SPDX-License-Identifier: MIT
/*
 * The event watcher behind cgtop2 --events: one node per cgroup and hierarchy, an inotify
 * watch on each directory (created, removed) and on each events file (cgroup.events,
 * memory.events, pids.events: IN_MODIFY), v1 memory eventfds through cgroup.event_control,
 * and a sample every interval for what the kernel does not notify.
 */
#include "watch.h"
#include "watch_core.h"
#include "watch_files.h"
#include "watch_psi.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/kparse.h"
#include "mirror/mirror.h"

/*
 * Out of file descriptors or inotify watches: limits that cgroups made by whoever may make them
 * in the watched subtree can reach. Once the watcher runs, what it holds is kept: n, which could
 * not be watched (wholly or in part), is an unwatched event, and the watcher goes on. At the
 * start it is an error, with the limit's line, as nothing is watched yet.
 */
static int node_unwatched(struct cg_watch *w, struct wnode *n, int r)
{
	struct cg_watch_event ev = { .kind = CG_EV_UNWATCHED,
				     .source = CG_SRC_INOTIFY,
				     .count = 1,
				     .limit = r == -ENOSPC   ? "inotify_watches"
					      : r == -ENFILE ? "file_max"
							     : "open_files" };

	if (!w->started || (r != -EMFILE && r != -ENFILE && r != -ENOSPC))
		return r;
	/* the limit's line is the event's now, not the caller's failure */
	if (w->d)
		*w->d = (struct cg_diag){ 0 };
	if (n->unwatched)
		return 0;
	n->unwatched = true;
	w->unwatched++;
	wc_emit(w, n, &ev);
	return 0;
}

/* Everything of n but its directory watch: its files (watch_files.c), then its PSI triggers */
static int node_arm(struct cg_watch *w, struct wnode *n, bool fresh, enum cg_watch_source src)
{
	int r = wf_arm(w, n, fresh, src);

	return r < 0 ? r : wp_arm(w, n);
}

/* Forget n and its subtree (no event); the kernel drops the watches of removed inodes. */
static void node_free(struct cg_watch *w, struct wnode *n)
{
	while (n->child)
		node_free(w, n->child);
	wf_efd_free(n->oom);
	wf_efd_free(n->thr);
	wp_free(w, n);
	wc_node_drop(w, n);
}

/* n and everything below it is gone: removed, deepest first. */
static void node_removed(struct cg_watch *w, struct wnode *n, enum cg_watch_source src)
{
	while (n->child)
		node_removed(w, n->child, src);
	wc_emit_simple(w, n, CG_EV_REMOVED, src);
	node_free(w, n);
}

/*
 * The cgroup at path appeared under parent: a node and its watches, its own subtree still to be
 * listed (a cgroup made inside it before its watch existed is found by that listing; one made
 * after is an IN_CREATE). A directory already gone by then was still created: reported, and its
 * IN_DELETE, which follows in the queue, reports the removal. CG_WALK_PRUNE: nothing to list
 * below it (gone, or known already: a rescan alone looks below what it knows).
 */
static int node_add(struct cg_watch *w, struct wnode *parent, const char *path, bool report,
		    enum cg_watch_source src)
{
	struct wnode *n = wc_node_find(w, parent->h, path);
	int r;

	if (n) {
		n->gen = w->gen;
		return src == CG_SRC_RESCAN ? 0 : CG_WALK_PRUNE;
	}
	n = wc_node_new(w, parent->h, parent, path);
	if (!n)
		return -ENOMEM;
	if (report)
		wc_emit_simple(w, n, CG_EV_CREATED, src);
	r = wc_add_watch(w, n, S_DIR, NULL,
			 IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |
				 IN_ONLYDIR);
	if (r == -ENOENT)
		return CG_WALK_PRUNE;
	/* without its directory's watch nothing below it would be seen: not listed either */
	if (r < 0)
		return node_unwatched(w, n, r) < 0 ? r : CG_WALK_PRUNE;
	r = node_arm(w, n, report, src);
	return r < 0 ? node_unwatched(w, n, r) : 0;
}

struct scan {
	struct cg_watch *w;
	struct whier *h;
	bool report;
	enum cg_watch_source src;
};

/* A directory of the walk below a node: its parent, met just before, is known by then. */
static int scan_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	const struct scan *s = ctx;
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *up = strndup(path, slash ? (size_t)(slash - path) : 0);
	struct wnode *parent;

	if (!depth)
		return 0;
	if (!up)
		return -ENOMEM;
	parent = wc_node_find(s->w, s->h, up);
	return parent ? node_add(s->w, parent, path, s->report, s->src) : CG_WALK_PRUNE;
}

/* n's subtree listed (the watch first, then the listing: see node_add); n gone is no error */
static int scan(struct cg_watch *w, struct wnode *n, bool report, enum cg_watch_source src)
{
	struct scan s = { .w = w, .h = n->h, .report = report, .src = src };
	int r = cg_walk(n->h->h, n->path, 0, scan_one, &s);

	return cg_vanished(r) ? 0 : r;
}

/* Directory name appeared under parent (an IN_CREATE): a node, then its subtree. */
static int child_add(struct cg_watch *w, struct wnode *parent, const char *name,
		     enum cg_watch_source src)
{
	_cleanup_free_ char *path = cg_path_join(parent->path, name);
	struct wnode *n;
	int r;

	if (!path)
		return -ENOMEM;
	r = node_add(w, parent, path, true, src);
	if (r != 0)
		return r < 0 ? r : 0;
	n = wc_node_find(w, parent->h, path);
	r = scan(w, n, true, src);
	/* the listing itself out of fds: what is below n and not yet known is not watched */
	return r < 0 ? node_unwatched(w, n, r) : 0;
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
	w->epfd = -1;
	w->hiers = calloc(l->n ? l->n : 1, sizeof(*w->hiers));
	if (wc_init(w) < 0 || !w->hiers)
		goto fail;
	r = mirror_sub_new(o->mirror, &w->msub);
	if (r < 0) {
		if (r == -EMFILE)
			cg_diag_say(
				d, EMFILE, *o->path ? o->path : "/", "all hierarchies",
				"inotify_init",
				"out of inotify instances (fs.inotify.max_user_instances) or of open files");
		goto fail;
	}
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0 ||
	    epoll_ctl(w->epfd, EPOLL_CTL_ADD, mirror_fd(mirror_of(w->msub)), &ee) < 0) {
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
		wh->top = wc_node_new(w, wh, NULL, o->path);
		if (!wh->top) {
			r = -ENOMEM;
			goto fail;
		}
		e = wc_add_watch(w, wh->top, S_DIR, NULL,
				 IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
					 IN_DELETE_SELF | IN_ONLYDIR);
		/* not the root: its parent says when it goes (unreadable there: IN_DELETE_SELF) */
		if (e == 0 && *o->path) {
			e = wc_add_watch(w, wh->top, S_PARENT, "..",
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
			wf_sample_populated(w, wh->top, true);
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
	w->started = true;
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
	wc_fini(w);
	mirror_sub_free(w->msub);
	if (w->epfd >= 0)
		close(w->epfd);
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
	/*
	 * taken and not yet processed, or filed for us by another subscriber's read of the mirror:
	 * the caller's fds are looked at, nothing waited for
	 */
	if (room &&
	    (got = epoll_wait(w->epfd, ee, room,
			      w->n_ready || mirror_pending(w->msub) ? 0 : timeout_ms)) < 0) {
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
	if (!r && (w->n_ready || mirror_pending(w->msub)))
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
	return w->nodes.n;
}

size_t cg_watch_watches(const struct cg_watch *w)
{
	return w->n_wds;
}

size_t cg_watch_triggers(const struct cg_watch *w)
{
	return w->n_psi;
}

size_t cg_watch_unwatched(const struct cg_watch *w)
{
	return w->unwatched;
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
	s = wc_wd_find(w, ev->wd);
	if (!s)
		return 0;
	n = s->node;
	if (ev->mask & IN_IGNORED) {
		if (n->wd[s->slot] == ev->wd)
			n->wd[s->slot] = -1;
		wc_wd_forget(w, ev->wd);
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
			wf_efile_update(w, n, f, CG_SRC_INOTIFY);
			if (f == EF_MEMORY && n->thr_v2) {
				uint64_t v;

				if (wc_read_u64(n, "memory.current", NULL, &v) == 0)
					wf_threshold_check(w, n, v, 0, CG_SRC_INOTIFY);
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
		return child_add(w, n, ev->name, CG_SRC_INOTIFY);
	if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		path = cg_path_join(n->path, ev->name);
		if (!path)
			return -ENOMEM;
		c = wc_node_find(w, n->h, path);
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
			wf_efile_update(w, n, f, CG_SRC_RESCAN);
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
		/* a listing cut short by a limit is no proof that what it did not reach is gone */
		if (r < 0) {
			r = node_unwatched(w, top, r);
			if (r < 0)
				return r;
			continue;
		}
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
			wp_on_fd(w, s, ee[i].events);
		else if (s)
			wf_on_eventfd(w, s);
	}
	for (;;) {
		ssize_t len = mirror_read(w->msub, buf, sizeof(buf));

		if (len <= 0) {
			if (len < 0)
				r = cg_diag_fail(d, (int)-len, CG_OP_READ, 0, "/",
						 "all hierarchies", "read inotify events");
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
		wf_sample(w);
		wp_tick(w, true);
		w->next_sample = cg_now_ns() + w->o.interval_ns;
	} else {
		wp_tick(w, false);
	}
out:
	w->d = NULL;
	if (r < 0)
		return r;
	if (w->stop)
		return w->stop;
	return all_gone(w) ? 1 : 0;
}
