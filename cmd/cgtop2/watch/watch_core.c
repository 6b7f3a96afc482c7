// SPDX-License-Identifier: MIT
/*
 * The watcher's core, beneath watch.c, watch_files.c and watch_psi.c (which call it, never the
 * other way): the nodes by hierarchy and path, the inotify watches by descriptor, a cgroup's
 * files read, and the events handed to the callback.
 */
#include "watch_core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "kernel/proc.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/kparse.h"
#include "base/parse.h"
#include "mirror/mirror.h"

int wc_init(struct cg_watch *w)
{
	w->wds_size = 1024;
	w->wds = calloc(w->wds_size, sizeof(*w->wds));
	return w->wds ? 0 : -ENOMEM;
}

void wc_fini(struct cg_watch *w)
{
	for (size_t i = 0; i < w->wds_size; i++)
		while (w->wds[i]) {
			struct wslot *s = w->wds[i];

			w->wds[i] = s->next;
			free(s);
		}
	free(w->wds);
	cg_pathmap_clear(&w->nodes);
}

struct wnode *wc_node_find(struct cg_watch *w, const struct whier *h, const char *path)
{
	return cg_pathmap_get(&w->nodes, h, path);
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

void wc_wd_forget(struct cg_watch *w, int wd)
{
	for (struct wslot **p = &w->wds[(size_t)wd & (w->wds_size - 1)]; *p; p = &(*p)->next)
		if ((*p)->wd == wd) {
			struct wslot *s = *p;

			*p = s->next;
			free(s);
			w->n_wds--;
			/* the mirror keeps the kernel's watch while another subscriber holds it */
			mirror_unwatch(w->msub, wd);
			return;
		}
}

struct wslot *wc_wd_find(struct cg_watch *w, int wd)
{
	for (struct wslot *s = w->wds[(size_t)wd & (w->wds_size - 1)]; s; s = s->next)
		if (s->wd == wd)
			return s;
	return NULL;
}

struct wnode *wc_node_new(struct cg_watch *w, struct whier *h, struct wnode *parent,
			  const char *path)
{
	struct wnode *n = calloc(1, sizeof(*n));

	if (!n || !(n->path = strdup(path)) || cg_pathmap_put(&w->nodes, h, n->path, n) < 0) {
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
	n->gen = w->gen;
	return n;
}

void wc_node_drop(struct cg_watch *w, struct wnode *n)
{
	if (n->parent)
		for (struct wnode **p = &n->parent->child; *p; p = &(*p)->sibling)
			if (*p == n) {
				*p = n->sibling;
				break;
			}
	cg_pathmap_remove(&w->nodes, n->h, n->path);
	for (int i = 0; i < S_N; i++)
		if (n->wd[i] >= 0) {
			struct wslot *s = wc_wd_find(w, n->wd[i]);

			/* the watch goes with the slot (the parent, which lives on, too) */
			if (s && s->node == n)
				wc_wd_forget(w, n->wd[i]);
		}
	if (n->h->top == n)
		n->h->top = NULL;
	free(n->path);
	free(n);
}

/* ---- watches and eventfds ----------------------------------------------------------------- */

int wc_add_watch(struct cg_watch *w, struct wnode *n, int slot, const char *file, uint32_t mask)
{
	char abs[PATH_MAX];
	struct wslot *s;
	int wd;

	if ((size_t)snprintf(abs, sizeof(abs), "%s/%s%s%s", cg_hier_dir(n->h->h), n->path,
			     file ? "/" : "", file ? file : "") >= sizeof(abs))
		return cg_diag_say(w->d, ENAMETOOLONG, n->path, n->h->h->label, "watch",
				   "the path is longer than PATH_MAX");
	wd = mirror_watch(w->msub, abs, mask | IN_DONT_FOLLOW);
	if (wd < 0) {
		int e = -wd;

		if (e == ENOENT || e == ENOTDIR)
			return -ENOENT;
		if (e == ENOSPC) {
			char lim[32] = "?";

			if (cg_proc_read("/proc/sys/fs/inotify/max_user_watches", lim,
					 sizeof(lim)) > 0)
				lim[strcspn(lim, "\n")] = '\0';
			else
				strcpy(lim, "?");
			return cg_diag_say(
				w->d, ENOSPC, *n->path ? n->path : "/", n->h->h->label, "watch",
				"out of inotify watches: fs.inotify.max_user_watches is %s for this user (this watcher holds %zu, up to 4 a cgroup and hierarchy); raise it with sysctl fs.inotify.max_user_watches=N",
				lim, w->n_wds);
		}
		return cg_diag_fail(w->d, e, CG_OP_READ, n->h->h->version, *n->path ? n->path : "/",
				    n->h->h->label, "inotify_add_watch");
	}
	if (wc_wd_find(w, wd))
		wc_wd_forget(w, wd);
	if (wds_grow(w) < 0 || !(s = malloc(sizeof(*s))))
		return -ENOMEM;
	*s = (struct wslot){ .wd = wd, .node = n, .slot = slot };
	s->next = w->wds[(size_t)wd & (w->wds_size - 1)];
	w->wds[(size_t)wd & (w->wds_size - 1)] = s;
	w->n_wds++;
	n->wd[slot] = wd;
	return 0;
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

		if (&w->hiers[i] == n->h || !(o = wc_node_find(w, &w->hiers[i], n->path)))
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

void wc_episodes_end(struct cg_watch *w, struct wnode *n, uint64_t now)
{
	static const enum cg_watch_kind kinds[] = { CG_EV_THROTTLED, CG_EV_PIDS_MAX };
	static const enum cg_kf files[] = { CG_KF_CPU_STAT, CG_KF_PIDS_EVENTS };

	for (size_t i = 0; i < ARRAY_SIZE(n->ep); i++) {
		struct episode *e = &n->ep[i];
		struct cg_watch_event ev = { .kind = kinds[i],
					     .source = CG_SRC_SAMPLED,
					     .edge = CG_EDGE_STOPPED,
					     .file = cg_kf_name(files[i]) };

		if (!e->on || e->last_ns + EPISODE_QUIET_SAMPLES * w->o.interval_ns > now)
			continue;
		e->on = false;
		ev.count = e->count;
		ev.total = e->total;
		wc_emit(w, n, &ev);
	}
}

void wc_emit(struct cg_watch *w, struct wnode *n, struct cg_watch_event *ev)
{
	char path[PATH_MAX + 2];

	if (w->stop || !(w->o.kinds & (1u << ev->kind) || ev->kind == CG_EV_UNWATCHED))
		return;
	if (ev->kind <= CG_EV_EMPTY && said_elsewhere(w, n, ev->kind))
		return;
	if (ev->source == CG_SRC_SAMPLED && !ev->edge &&
	    (ev->kind == CG_EV_THROTTLED || ev->kind == CG_EV_PIDS_MAX) &&
	    !episode_starts(w, n, ev))
		return;
	cg_path_display(n->path, path, sizeof(path));
	ev->path = path;
	ev->hier = n->h->h->label;
	ev->mountpoint = cg_hier_dir(n->h->h);
	w->stop = w->cb(ev, w->ud);
}

void wc_emit_simple(struct cg_watch *w, struct wnode *n, enum cg_watch_kind k,
		    enum cg_watch_source src)
{
	struct cg_watch_event ev = { .kind = k, .source = src, .count = 1 };

	wc_emit(w, n, &ev);
}

/* ---- reading a cgroup's files ------------------------------------------------------------- */

int wc_read_file(struct wnode *n, const char *name, char *buf, size_t size)
{
	char rel[PATH_MAX];
	_cleanup_close_ int fd = -1;
	ssize_t len;

	if ((size_t)snprintf(rel, sizeof(rel), "%s%s%s", n->path, *n->path ? "/" : "", name) >=
	    sizeof(rel))
		return -ENAMETOOLONG;
	fd = cg_hier_open(n->h->h, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	len = cg_pread_buf(fd, buf, size);
	return len < 0 ? (int)len : 0;
}

int wc_read_u64(struct wnode *n, const char *name, const char *key, uint64_t *ret)
{
	char buf[4096];
	int r = wc_read_file(n, name, buf, sizeof(buf));

	if (r < 0)
		return r;
	return key ? cg_kparse_keyed(buf, key, ret) : cg_kparse_number(buf, ret);
}
