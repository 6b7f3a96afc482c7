// SPDX-License-Identifier: MIT
/*
 * The watcher's reading side: the events files and what their changes mean (pure, tested and
 * fuzzed), v1 memory eventfds (cgroup.event_control), and what is sampled every interval.
 */
#include "watch_files.h"
#include "watch.h"
#include "watch_core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/kfile.h"
#include "base/kparse.h"
#include "base/parse.h"

static const char *const kind_names[CG_EV_N] = {
	"created",  "removed",	 "populated", "empty",	     "frozen",
	"thawed",   "oom",	 "oom_kill",  "memory_high", "memory_max",
	"pids_max", "threshold", "throttled", "pressure",    "unwatched",
};

const char *cg_watch_kind_name(enum cg_watch_kind k)
{
	return (unsigned)k < CG_EV_N ? kind_names[k] : NULL;
}

int cg_watch_kinds_parse(const char *list, unsigned *ret, const char **ret_bad)
{
	unsigned kinds = 0;

	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		unsigned k;

		if (len == 3 && !strncmp(p, "all", 3))
			kinds |= CG_EV_ALL;
		else {
			for (k = 0; k < CG_EV_N; k++)
				if (strlen(kind_names[k]) == len && !strncmp(p, kind_names[k], len))
					break;
			if (k == CG_EV_N) {
				if (ret_bad)
					*ret_bad = p;
				return -EINVAL;
			}
			kinds |= 1u << k;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	*ret = kinds;
	return 0;
}

/* ---- the events files: parsed values and what their change means ------------------------- */

/* the file vocabulary's (base/kfile.h) */
static const enum cg_kf efile_kf[EF_N] = { CG_KF_CGROUP_EVENTS, CG_KF_MEMORY_EVENTS,
					   CG_KF_PIDS_EVENTS };

/* an events file's name (the file vocabulary's) */
static const char *wf_efile_name(enum efile f)
{
	return cg_kf_name(efile_kf[f]);
}

/* key[i]: a value of the vocabulary, its cgroup2 key in the file; CG_KV_N: none */
struct efile_def {
	enum cg_kv key[EF_KEYS];
	enum cg_watch_kind up[EF_KEYS], down[EF_KEYS]; /* down: a state, CG_EV_N for a counter */
};

static const struct efile_def efile_defs[EF_N] = {
	[EF_CGROUP] = { { CG_KV_POPULATED, CG_KV_FROZEN, CG_KV_N, CG_KV_N },
			{ CG_EV_POPULATED, CG_EV_FROZEN, CG_EV_N, CG_EV_N },
			{ CG_EV_EMPTY, CG_EV_THAWED, CG_EV_N, CG_EV_N } },
	[EF_MEMORY] = { { CG_KV_MEM_EV_HIGH, CG_KV_MEM_EV_MAX, CG_KV_MEM_EV_OOM,
			  CG_KV_MEM_EV_OOM_KILL },
			{ CG_EV_MEMORY_HIGH, CG_EV_MEMORY_MAX, CG_EV_OOM, CG_EV_OOM_KILL },
			{ CG_EV_N, CG_EV_N, CG_EV_N, CG_EV_N } },
	[EF_PIDS] = { { CG_KV_PIDS_EV_MAX, CG_KV_N, CG_KV_N, CG_KV_N },
		      { CG_EV_PIDS_MAX, CG_EV_N, CG_EV_N, CG_EV_N },
		      { CG_EV_N, CG_EV_N, CG_EV_N, CG_EV_N } },
};

static int efile_of(const char *name)
{
	for (int f = 0; f < EF_N; f++)
		if (!strcmp(name, wf_efile_name(f)))
			return f;
	return -1;
}

/* Keys the file does not have stay 0; a key with a value that is no number is -EINVAL. */
static int wf_efile_parse(enum efile f, const char *text, uint64_t v[EF_KEYS])
{
	for (int i = 0; i < EF_KEYS; i++) {
		const struct cg_ksrc *src =
			efile_defs[f].key[i] < CG_KV_N ? cg_kv_src(efile_defs[f].key[i], 2) : NULL;
		int r = src ? cg_kparse_keyed(text, src->key, &v[i]) : -ENOENT;

		if (r == -ENOENT)
			v[i] = 0;
		else if (r < 0)
			return r;
	}
	return 0;
}

/* The events from old to new values of f, into ev[0, n): how many (at most n). */
static size_t efile_diff(enum efile f, const uint64_t old[EF_KEYS], const uint64_t new[EF_KEYS],
			 struct cg_watch_event *ev, size_t n)
{
	const struct efile_def *d = &efile_defs[f];
	size_t k = 0;

	for (int i = 0; i < EF_KEYS && k < n; i++) {
		if (d->key[i] == CG_KV_N || old[i] == new[i])
			continue;
		ev[k] = (struct cg_watch_event){ .file = wf_efile_name(f), .count = 1 };
		if (d->down[i] != CG_EV_N) {
			ev[k++].kind = new[i] ? d->up[i] : d->down[i];
			continue;
		}
		ev[k].kind = d->up[i];
		ev[k].total = new[i];
		/* a counter that went down was reset (made again under the name): from zero */
		ev[k].count = new[i] > old[i] ? new[i] - old[i] : new[i];
		if (ev[k].count)
			k++;
	}
	return k;
}

int cg_watch_diff(const char *file, const char *old_text, const char *new_text,
		  struct cg_watch_event *ev, size_t n)
{
	uint64_t o[EF_KEYS], v[EF_KEYS];
	int f = efile_of(file);

	if (f < 0 || wf_efile_parse(f, new_text, v) < 0)
		return -EINVAL;
	if (!old_text || wf_efile_parse(f, old_text, o) < 0)
		memset(o, 0, sizeof(o));
	return (int)efile_diff(f, o, v, ev, n);
}

/* ---- reading a cgroup's files ------------------------------------------------------------- */

/* cpu.stat's nr_throttled: the same file and key on cgroup2 and v1's cpu hierarchy */
static int read_throttled(struct wnode *n, uint64_t *ret)
{
	const struct cg_ksrc *k = cg_kv_src(CG_KV_CPU_THROTTLED, 2);

	return wc_read_u64(n, cg_kf_name(k->file), k->key, ret);
}

/* Re-read an events file and report what changed since the values known. */
void wf_efile_update(struct cg_watch *w, struct wnode *n, enum efile f, enum cg_watch_source src)
{
	struct cg_watch_event ev[EF_KEYS];
	uint64_t v[EF_KEYS];
	char buf[1024];
	size_t k;

	if (wc_read_file(n, wf_efile_name(f), buf, sizeof(buf)) < 0 ||
	    wf_efile_parse(f, buf, v) < 0)
		return;
	k = efile_diff(f, n->ev[f], v, ev, EF_KEYS);
	memcpy(n->ev[f], v, sizeof(v));
	n->have[f] = true;
	for (size_t i = 0; i < k; i++) {
		ev[i].source = src;
		wc_emit(w, n, &ev[i]);
	}
}

void wf_threshold_check(struct cg_watch *w, struct wnode *n, uint64_t usage, uint64_t count,
			enum cg_watch_source src)
{
	bool above = usage >= n->threshold;
	struct cg_watch_event ev = { .kind = CG_EV_THRESHOLD,
				     .source = src,
				     .usage = usage,
				     .threshold = n->threshold,
				     .above = above,
				     .file = n->thr_v2 ? cg_kf_name(CG_KF_MEMORY_CURRENT)
						       : cg_kf_name(CG_KF_MEMORY_V1_USAGE) };

	if (above == n->above && !count)
		return;
	n->above = above;
	ev.count = count ? count : 1;
	wc_emit(w, n, &ev);
}

/* v1: an eventfd that cgroup.event_control signals for file (and args): the slot or -errno */
static int v1_event(struct cg_watch *w, struct wnode *n, const char *file, const char *args,
		    bool threshold, struct efd_slot **ret)
{
	char rel[PATH_MAX], line[64];
	_cleanup_close_ int efd = -1, cfd = -1, ctl = -1;
	struct epoll_event ee = { .events = EPOLLIN };
	struct efd_slot *s;
	const char *p = *n->path ? n->path : ".";
	int r;

	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0)
		return -errno;
	snprintf(rel, sizeof(rel), "%s/%s", p, file);
	cfd = cg_hier_open(n->h->h, rel, O_RDONLY);
	if (cfd < 0)
		return cfd;
	snprintf(rel, sizeof(rel), "%s/cgroup.event_control", p);
	ctl = cg_hier_open(n->h->h, rel, O_WRONLY);
	if (ctl < 0)
		return ctl;
	snprintf(line, sizeof(line), "%d %d%s%s", efd, cfd, args ? " " : "", args ? args : "");
	r = cg_write_fd(ctl, line, strlen(line));
	if (r < 0)
		return r;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	*s = (struct efd_slot){ .node = n, .fd = efd, .type = threshold ? EFD_THRESHOLD : EFD_OOM };
	ee.data.ptr = s;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, efd, &ee) < 0) {
		free(s);
		return -errno;
	}
	s->fd = TAKE_FD(efd);
	*ret = s;
	return 0;
}

void wf_efd_free(struct efd_slot *s)
{
	if (s) {
		close(s->fd);
		free(s);
	}
}

static const struct cg_watch_threshold *threshold_for(const struct cg_watch *w, const char *path)
{
	for (size_t i = 0; i < w->o.n_thresholds; i++)
		if (!strcmp(w->o.thresholds[i].path, path))
			return &w->o.thresholds[i];
	return NULL;
}

/*
 * Everything a cgroup's node watches, added after its directory watch: the events files (whose
 * inotify watch also keeps the inode cached, without which the kernel's notification finds
 * nothing to notify), v1 memory eventfds, the baseline of what is sampled. fresh: the cgroup
 * was just made, so its events start from nothing and what the files say already is reported.
 */
int wf_arm(struct cg_watch *w, struct wnode *n, bool fresh, enum cg_watch_source src)
{
	const struct cg_watch_threshold *t = threshold_for(w, n->path);
	unsigned k = w->o.kinds;
	uint64_t v;
	int r;

	for (int f = 0; f < EF_N; f++) {
		bool want = f == EF_CGROUP   ? k & (0xfu << CG_EV_POPULATED)
			    : f == EF_MEMORY ? k & (0xfu << CG_EV_OOM) || t
					     : k & (1u << CG_EV_PIDS_MAX);

		if (!want || (f == EF_CGROUP && n->h->h->version == 1))
			continue;
		r = wc_add_watch(w, n, S_EFILE0 + f, wf_efile_name(f), IN_MODIFY);
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return r;
		if (fresh)
			wf_efile_update(w, n, f, src);
		else {
			char buf[1024];

			if (wc_read_file(n, wf_efile_name(f), buf, sizeof(buf)) == 0 &&
			    wf_efile_parse(f, buf, n->ev[f]) == 0)
				n->have[f] = true;
		}
	}
	if (n->h->memory_v1 && (k & (3u << CG_EV_OOM))) {
		r = v1_event(w, n, cg_kf_name(CG_KF_MEMORY_V1_OOM_CONTROL), NULL, false, &n->oom);
		if (r < 0 && r != -ENOENT)
			return cg_diag_fail(w->d, -r, CG_OP_WRITE, 1, *n->path ? n->path : "/",
					    n->h->h->label,
					    "register an oom eventfd in cgroup.event_control");
		wc_read_u64(n, cg_kf_name(CG_KF_MEMORY_V1_OOM_CONTROL), "oom_kill", &n->oom_kill);
	}
	if (t && (k & (1u << CG_EV_THRESHOLD))) {
		char arg[32];

		n->threshold = t->bytes;
		if (n->h->memory_v1) {
			snprintf(arg, sizeof(arg), "%llu", (unsigned long long)t->bytes);
			r = v1_event(w, n, cg_kf_name(CG_KF_MEMORY_V1_USAGE), arg, true, &n->thr);
			if (r < 0 && r != -ENOENT)
				return cg_diag_fail(w->d, -r, CG_OP_WRITE, 1,
						    *n->path ? n->path : "/", n->h->h->label,
						    "register a threshold in cgroup.event_control");
			if (wc_read_u64(n, cg_kf_name(CG_KF_MEMORY_V1_USAGE), NULL, &v) == 0)
				n->above = v >= t->bytes;
		} else if (n->h->h->version == 2 &&
			   wc_read_u64(n, cg_kf_name(CG_KF_MEMORY_CURRENT), NULL, &v) == 0) {
			n->thr_v2 = true;
			w->sampled = true;
			n->above = v >= t->bytes;
			if (fresh && n->above)
				wf_threshold_check(w, n, v, 1, src);
		}
	}
	if ((k & (1u << CG_EV_THROTTLED)) && (n->h->h->version == 2 || n->h->cpu) &&
	    read_throttled(n, &n->nr_throttled) == 0) {
		n->throttle = true;
		w->sampled = true;
	}
	if (n->h->v1_populated || n->h->v1_pids)
		w->sampled = true;
	return 0;
}

void wf_on_eventfd(struct cg_watch *w, struct efd_slot *s)
{
	struct wnode *n = s->node;
	uint64_t count, v;
	struct cg_watch_event ev = { .source = CG_SRC_EVENTFD,
				     .file = cg_kf_name(CG_KF_MEMORY_V1_OOM_CONTROL) };

	if (read(s->fd, &count, sizeof(count)) != sizeof(count))
		return;
	if (s->type == EFD_THRESHOLD) {
		/* the kernel signals every event of a cgroup it removes: no file, no event */
		if (wc_read_u64(n, cg_kf_name(CG_KF_MEMORY_V1_USAGE), NULL, &v) == 0)
			wf_threshold_check(w, n, v, count, CG_SRC_EVENTFD);
		return;
	}
	if (wc_read_u64(n, cg_kf_name(CG_KF_MEMORY_V1_OOM_CONTROL), "oom_kill", &v) < 0) {
		char buf[256];

		if (wc_read_file(n, cg_kf_name(CG_KF_MEMORY_V1_OOM_CONTROL), buf, sizeof(buf)) < 0)
			return;
		v = n->oom_kill;
	}
	ev.kind = CG_EV_OOM;
	ev.count = count;
	wc_emit(w, n, &ev);
	if (v != n->oom_kill) {
		ev.kind = CG_EV_OOM_KILL;
		ev.count = v > n->oom_kill ? v - n->oom_kill : v;
		ev.total = v;
		n->oom_kill = v;
		wc_emit(w, n, &ev);
	}
}

/* v1 membership, populated when it or a descendant has a process: bottom up */
bool wf_sample_populated(struct cg_watch *w, struct wnode *n, bool quiet)
{
	bool pop = false;
	char buf[16];

	for (struct wnode *c = n->child; c; c = c->sibling)
		pop |= wf_sample_populated(w, c, quiet);
	if (wc_read_file(n, cg_kf_name(CG_KF_CGROUP_PROCS), buf, sizeof(buf)) == 0 && buf[0])
		pop = true;
	if (pop != n->populated) {
		n->populated = pop;
		if (!quiet)
			wc_emit_simple(w, n, pop ? CG_EV_POPULATED : CG_EV_EMPTY, CG_SRC_SAMPLED);
	}
	return pop;
}

static void sample_node(struct cg_watch *w, struct wnode *n, uint64_t now)
{
	uint64_t v;

	for (struct wnode *c = n->child; c; c = c->sibling)
		sample_node(w, c, now);
	if (n->h->v1_pids && n->have[EF_PIDS])
		wf_efile_update(w, n, EF_PIDS, CG_SRC_SAMPLED);
	if (n->thr_v2 && wc_read_u64(n, cg_kf_name(CG_KF_MEMORY_CURRENT), NULL, &v) == 0)
		wf_threshold_check(w, n, v, 0, CG_SRC_SAMPLED);
	if (n->throttle && read_throttled(n, &v) == 0 && v != n->nr_throttled) {
		struct cg_watch_event ev = { .kind = CG_EV_THROTTLED,
					     .source = CG_SRC_SAMPLED,
					     .file = cg_kf_name(CG_KF_CPU_STAT),
					     .total = v,
					     .count = v > n->nr_throttled ? v - n->nr_throttled
									  : v };

		n->nr_throttled = v;
		if (ev.count)
			wc_emit(w, n, &ev);
	}
	wc_episodes_end(w, n, now);
}

void wf_sample(struct cg_watch *w)
{
	for (size_t i = 0; i < w->n_hiers; i++) {
		struct whier *h = &w->hiers[i];

		if (!h->top)
			continue;
		sample_node(w, h->top, cg_now_ns());
		if (h->v1_populated)
			wf_sample_populated(w, h->top, false);
	}
}

int cg_watch_threshold_parse(const char *arg, char **ret_path, uint64_t *ret_bytes)
{
	const char *colon = strrchr(arg, ':');
	_cleanup_free_ char *raw = NULL;
	char *path = NULL;
	uint64_t v;
	int r;

	if (!colon)
		return -EINVAL;
	r = cg_parse_size(colon + 1, CG_SIZE_BYTES, &v);
	if (r < 0)
		return r;
	raw = strndup(arg, (size_t)(colon - arg));
	if (!raw)
		return -ENOMEM;
	r = cg_path_normalize(raw, &path);
	if (r < 0)
		return r;
	*ret_path = path;
	*ret_bytes = v;
	return 0;
}
