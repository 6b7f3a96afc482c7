// SPDX-License-Identifier: MIT
/* The freezer on every layout: find it, freeze and wait, thaw, is a cgroup frozen and why. */
#include "freeze.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "base/kfile.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/parse.h"

static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* Is this line (without its newline) in text? */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

int cg_freezer_find(const struct cg_layout *l, const struct cg_target *t, struct cg_freezer *ret,
		    struct cg_diag *d)
{
	const struct cg_hier *h = t->hier;
	char where[PATH_MAX + 2];

	cg_path_display(t->path, where, sizeof(where));
	if (h->version == 1) {
		_cleanup_close_ int fd = -1;

		h = NULL;
		for (size_t i = 0; i < l->n; i++)
			if (l->hier[i].version == 1 && cg_hier_has(&l->hier[i], "freezer"))
				h = &l->hier[i];
		if (h)
			fd = cg_open_dir(h, t->path);
		/*
		 * hybrid: a twin's processes are the unified cgroup's of the same path (a bare PATH
		 * places them in both), whose cgroup.freeze holds them where no v1 freezer cgroup
		 * of that path is; a process in the twin alone is told apart by the drain's check
		 */
		if ((!h || fd == -ENOENT) && l->unified) {
			_cleanup_close_ int ufd = cg_open_dir(l->unified, t->path);

			if (ufd >= 0) {
				*ret = (struct cg_freezer){ .hier = l->unified, .path = t->path };
				return 0;
			}
		}
		if (!h)
			return cg_diag_say(d, ENOENT, where, t->hier->label, "freeze",
					   "no v1 freezer hierarchy is mounted");
		if (fd == -ENOENT)
			return cg_diag_say(
				d, ENOENT, where, h->label, "freeze",
				"no freezer cgroup of that path: on v1 the freezer is its own hierarchy; create the source in it too (cgcreate2 -g %s,freezer:%s)",
				t->hier->label, where);
		if (fd < 0)
			return cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, where, h->label,
					    "open the freezer cgroup");
	}
	*ret = (struct cg_freezer){ .hier = h, .path = t->path };
	return 0;
}

void cg_freezer_signals(sigset_t *ret)
{
	sigemptyset(ret);
	for (size_t i = 0; i < ARRAY_SIZE(held_signals); i++)
		sigaddset(ret, held_signals[i]);
}

bool cg_signals_waiting(const sigset_t *set)
{
	sigset_t pending;

	if (!set || sigpending(&pending) < 0)
		return false;
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigismember(set, sig) != 1 || sigismember(&pending, sig) != 1)
			continue;
		/* ignored, it is dropped at the unblocking: stopping for it would do what nobody asked */
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			continue;
		return true;
	}
	return false;
}

/* v2: is "frozen 1" in cgroup.events? v1: does freezer.state say FROZEN? */
static int is_frozen(int dfd, int version)
{
	_cleanup_free_ char *text = NULL;
	int r = cg_read_at(dfd, cg_kf_name(cg_kv_src(CG_KV_FROZEN, version)->file), &text);

	if (r < 0)
		return r;
	if (version == 1)
		return !strcmp(text, "FROZEN\n") || !strcmp(text, "FROZEN");
	return strstr(text, "frozen 1") != NULL;
}

int cg_freeze(struct cg_freezer *f, uint64_t timeout_ns, const sigset_t *stop, struct cg_diag *d)
{
	const struct cg_hier *h = f->hier;
	const char *file = h->version == 2 ? "cgroup.freeze" : "freezer.state";
	_cleanup_close_ int dfd = cg_open_dir(h, f->path);
	_cleanup_close_ int ev = -1;
	uint64_t deadline = cg_now_ns() + (timeout_ns ? timeout_ns : CG_KILL_TIMEOUT_NS);
	char where[PATH_MAX + 2];
	int r;

	cg_path_display(f->path, where, sizeof(where));
	if (dfd < 0)
		return cg_diag_fail(d, -dfd, CG_OP_OPEN, h->version, where, h->label, "open");
	r = cg_write_at(dfd, file, h->version == 2 ? "1" : "FROZEN");
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_WRITE, h->version, where, h->label, "write %s",
				    file);
	f->frozen = true;
	if (h->version == 2)
		ev = cg_open_beneath(dfd, cg_kf_name(CG_KF_CGROUP_EVENTS), O_RDONLY, 0);
	for (;;) {
		r = is_frozen(dfd, h->version);
		if (r != 0)
			break;
		if (cg_now_ns() >= deadline) {
			r = -ETIMEDOUT;
			break;
		}
		if (cg_signals_waiting(stop)) {
			r = -EINTR;
			break;
		}
		if (ev >= 0) {
			/* cgroup.events signals a change with POLLPRI */
			struct pollfd p = { .fd = ev, .events = POLLPRI };

			(void)poll(&p, 1, 10);
		} else {
			/* v1 moves FREEZING -> FROZEN only when asked again */
			cg_sleep_ns(NSEC_PER_MSEC);
			if (h->version == 1)
				(void)cg_write_at(dfd, file, "FROZEN");
		}
	}
	if (r < 0) {
		cg_thaw(f, NULL);
		if (r == -ETIMEDOUT)
			return cg_diag_say(
				d, ETIMEDOUT, where, h->label, "freeze",
				"the cgroup did not freeze in time (a task in uninterruptible sleep?); thawed it again");
		if (r == -EINTR)
			return cg_diag_say(d, EINTR, where, h->label, "freeze",
					   "interrupted by a signal; thawed it again");
		return cg_diag_fail(d, -r, CG_OP_READ, h->version, where, h->label, "freeze");
	}
	return 0;
}

int cg_thaw(struct cg_freezer *f, struct cg_diag *d)
{
	const struct cg_hier *h = f->hier;
	char where[PATH_MAX + 2];
	_cleanup_close_ int dfd = -1;
	int r;

	if (!f->frozen)
		return 0;
	dfd = cg_open_dir(h, f->path);
	r = dfd < 0 ? dfd
		    : cg_write_at(dfd, h->version == 2 ? "cgroup.freeze" : "freezer.state",
				  h->version == 2 ? "0" : "THAWED");
	/* a cgroup removed meanwhile has nothing left to thaw */
	if (r == 0 || r == -ENOENT || r == -ENODEV) {
		f->frozen = false;
		return 0;
	}
	cg_path_display(f->path, where, sizeof(where));
	return cg_diag_fail(d, -r, CG_OP_WRITE, h->version, where, h->label, "thaw");
}

/* why the target t is frozen, in d: -EBUSY */
static int frozen(const struct cg_target *t, const char *why, struct cg_diag *d)
{
	char where[PATH_MAX + 2];

	return cg_diag_say(d, EBUSY, cg_target_name(t, where, sizeof(where)), t->hier->label, "use",
			   "the cgroup is frozen: %s", why);
}

int cg_is_frozen(const struct cg_target *t, struct cg_diag *d)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *ev = NULL, *fr = NULL, *pf = NULL;
	char why[256];

	/* a v1 hierarchy without the freezer has nothing to read: not even the open is needed */
	if (t->hier->version == 1 && !cg_hier_has(t->hier, "freezer"))
		return 0;
	fd = cg_open_dir(t->hier, t->path);
	if (fd < 0)
		return 0;
	if (t->hier->version == 2) {
		if (cg_read_at(fd, cg_kf_name(CG_KF_CGROUP_EVENTS), &ev) == 0 &&
		    has_line(ev, "frozen 1"))
			return frozen(
				t,
				"cgroup.events says frozen 1 (a freeze of the cgroup itself or of an ancestor)",
				d);
		if (cg_read_at(fd, "cgroup.freeze", &fr) == 0 && has_line(fr, "1"))
			return frozen(t, "cgroup.freeze is 1 (it is freezing)", d);
		return 0;
	}
	if (cg_read_at(fd, "freezer.state", &fr) < 0)
		return 0;
	if (!has_line(fr, "FROZEN") && !has_line(fr, "FREEZING"))
		return 0;
	fr[strcspn(fr, "\n")] = 0;
	snprintf(why, sizeof(why), "freezer.state is %s%s", fr,
		 cg_read_at(fd, "freezer.parent_freezing", &pf) == 0 && has_line(pf, "1")
			 ? " (freezer.parent_freezing 1: an ancestor is frozen)"
			 : "");
	return frozen(t, why, d);
}

int cg_targets_frozen(const struct cg_targets *t, struct cg_diag *d)
{
	for (size_t i = 0; i < t->n; i++) {
		int r = cg_is_frozen(&t->t[i], d);

		if (r < 0)
			return r;
	}
	return 0;
}

static int thaw_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	_cleanup_close_ int fd = cg_hier_open(h, path, O_RDONLY | O_DIRECTORY);
	_cleanup_free_ char *state = NULL;
	int r;

	if (fd < 0)
		return fd;
	if (cg_read_at(fd, "freezer.state", &state) < 0 || has_line(state, "THAWED"))
		return 0;
	r = cg_write_at(fd, "freezer.state", "THAWED");
	/* removed meanwhile: nothing left to thaw, and no error */
	return cg_vanished(r) ? 0 : r;
}

int cg_thaw_tree(const struct cg_hier *h, const char *path)
{
	/* a subtree made deep on purpose costs a bounded walk: 65 levels below path are thawed */
	static const struct cg_walk_budget b = { .max_depth = 65 };
	int r;

	if (h->version != 1 || !cg_hier_has(h, "freezer"))
		return 0;
	r = cg_walk_bounded(h, path, CG_WALK_KEEP_GOING, &b, thaw_one, NULL);
	return cg_vanished(r) ? 0 : r;
}
