// SPDX-License-Identifier: MIT
/* Emptying a cgroup into others: list and move again in bounded rounds, frozen if asked. */
#include "drain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "kernel/proc.h"

/* Is path top or below it? */
static bool is_under(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (!n)
		return true;
	return !strncmp(path, top, n) && (path[n] == '\0' || path[n] == '/');
}

/*
 * A target the drain of src cannot have (same hierarchy): src itself, or with recursive a
 * cgroup inside its subtree, which the drain would fill while it is to empty it (left out of
 * the listing, it was reported empty while the target held processes). A target above the
 * source (a child emptied into its parent) is fine. 0, or -EINVAL with d.
 */
static int target_refused(const struct cg_target *src, const struct cg_target *t, bool recursive,
			  struct cg_diag *d)
{
	char where[PATH_MAX + 2], to[PATH_MAX + 2];

	if (t->hier != src->hier || !is_under(t->path, src->path))
		return 0;
	cg_target_name(src, where, sizeof(where));
	if (!strcmp(t->path, src->path))
		return cg_diag_say(
			d, EINVAL, where, src->hier->label, "drain",
			"the source is also the target: nothing would move (-g names where the processes go, -F where they come from)");
	if (recursive && *src->path)
		return cg_diag_say(
			d, EINVAL, where, src->hier->label, "drain",
			"the target %s is inside the subtree that -R empties: it would be filled instead (name a target outside %s, or drop -R to drain only the source's own processes)",
			cg_target_name(t, to, sizeof(to)), where);
	return 0;
}

static int pids_append(pid_t **v, size_t *n, const pid_t *add, size_t na)
{
	pid_t *nv;

	if (!na)
		return 0;
	nv = realloc(*v, (*n + na) * sizeof(pid_t));
	if (!nv)
		return -ENOMEM;
	memcpy(nv + *n, add, na * sizeof(pid_t));
	*v = nv;
	*n += na;
	return 0;
}

/* How long a drain reads one listing, and how much of it, before it moves what it has. */
#define CG_LISTING_SLICE_NS 250000000ULL
#define CG_LISTING_MAX	    (16u << 20)

/*
 * The processes of one cgroup, for a drain: unlike cg_members_read, not always to the end. A
 * v2 listing is a walk over the cgroup's task list that each read() continues, and a fork
 * storm appends to that list faster than it is read: to the end, the read never ended. Cut
 * (*cut set) after CG_LISTING_SLICE_NS or CG_LISTING_MAX at a line's end, it is a listing that
 * is not empty, which is all a drain needs: it moves those and lists again.
 */
static int members_read_slice(const struct cg_hier *h, const char *path, pid_t **ret, size_t *ret_n,
			      bool *cut)
{
	const struct cg_read_bound b = { .deadline_ns = cg_now_ns() + CG_LISTING_SLICE_NS,
					 .max_len = CG_LISTING_MAX };
	bool c = false;
	int r = cg_members_read_bounded(h, path, 0, &b, ret, ret_n, &c);

	if (c)
		*cut = true;
	return r;
}

struct source_walk {
	pid_t **v;
	size_t *n;
	bool *cut;
};

static int list_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct source_walk *w = ctx;
	_cleanup_free_ pid_t *own = NULL;
	size_t no = 0;
	int r;

	/* a child cgroup removed during the walk held nobody: the walk skips it */
	r = members_read_slice(h, path, &own, &no, w->cut);
	/*
	 * A v2 threaded cgroup below the source lists no processes: its threaded domain, which
	 * the walk met first, lists them, and a process moves with all its threads.
	 */
	if (r == -EOPNOTSUPP && depth && h->version == 2)
		return 0;
	return r < 0 ? r : pids_append(w->v, w->n, own, no);
}

/* Processes of the source (recursive: its subtree). */
static int list_source(const struct cg_target *src, bool recursive, pid_t **v, size_t *n, bool *cut)
{
	struct source_walk w = { .v = v, .n = n, .cut = cut };

	if (!recursive)
		return list_one(src->hier, src->path, 0, &w);
	return cg_walk(src->hier, src->path, 0, list_one, &w);
}

static int note_failure(struct cg_drain_result *res, const struct cg_move *m)
{
	struct cg_move *nv = realloc(res->failures, (res->nfailures + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	res->failures = nv;
	nv[res->nfailures++] = *m;
	res->failed++;
	return 0;
}

/* A process listed again after a move that went through: a zombie, which stays until reaped. */
static bool reappeared_dead(pid_t id, unsigned round)
{
	return round > 1 && cg_task_dead(id, 0);
}

/*
 * The drain found nothing to move: does the source itself say so too? One more read of its
 * own listing, so that no fault in what a drain leaves out can ever report work not done as
 * done. What it still lists (live, not failed before) becomes the next round's, as when
 * another mover put something back meanwhile.
 */
static int recheck_own(const struct cg_target *src, const pid_t *skip, size_t nskip, pid_t **ids,
		       size_t *live, bool *cut)
{
	size_t n = 0;
	int r;

	free(*ids);
	*ids = NULL;
	r = members_read_slice(src->hier, src->path, ids, &n, cut);
	if (r < 0)
		return r;
	*live = 0;
	for (size_t k = 0; k < n; k++)
		if (!cg_pids_contain(skip, nskip, (*ids)[k]) && !cg_task_dead((*ids)[k], 0))
			(*ids)[(*live)++] = (*ids)[k];
	return 0;
}

/*
 * Why the source does not empty. Not frozen: its processes fork faster than they move. Frozen
 * on v1: the freezer hierarchy's cgroup of that path may not hold them (then it stops none of
 * their forks); the time was up in the middle of a round (late); else something moves them back
 * in.
 */
static const char *refill_reason(const struct cg_freezer *fz, bool late, const pid_t *ids, size_t n,
				 char *buf, size_t size)
{
	if (!fz)
		return "they fork faster than they can be moved (use --freeze)";
	if (late)
		return "the time was up before every frozen process had moved (a larger --timeout?)";
	for (size_t k = 0; k < n && k < 8; k++) {
		_cleanup_free_ char *now = NULL;

		if (cg_pid_cgroup(fz->hier, ids[k], 0, &now) < 0)
			continue; /* exited meanwhile */
		if (is_under(now, fz->path))
			break;
		snprintf(
			buf, size,
			"the %s cgroup /%s (%s) does not hold them (process %d is in /%s there), so the freeze stops none of their forks",
			fz->hier->version == 2 ? "freezing" : "freezer hierarchy's", fz->path,
			fz->hier->label, (int)ids[k], now);
		return buf;
	}
	return "something moves them back in as they leave (another program?)";
}

static int drain_rounds(const struct cg_target *src, const struct cg_targets *dst,
			const struct cg_drain_opts *o, const int *fds, struct cg_freezer *fz,
			uint64_t start, uint64_t deadline, struct cg_drain_result *res,
			struct cg_diag *d)
{
	unsigned max = o->max_rounds ? o->max_rounds : CG_DRAIN_ROUNDS;
	_cleanup_free_ pid_t *skip = NULL;
	size_t nskip = 0;
	char where[PATH_MAX + 2];
	bool late = false; /* the deadline cut the last round short */

	cg_path_display(src->path, where, sizeof(where));
	for (unsigned round = 0;;) {
		_cleanup_free_ pid_t *ids = NULL;
		size_t n = 0, live = 0;
		bool cut = false;
		char why[PATH_MAX * 2 + 256];
		int r;

		r = list_source(src, o->recursive, &ids, &n, &cut);
		if (r < 0)
			return cg_diag_fail(d, -r, CG_OP_READ, src->hier->version, where,
					    src->hier->label, "list processes");
		res->started = true;
		/*
		 * What failed already was reported once; it does not keep the drain going, but it
		 * is still there: swapped behind the live ones, counted when nothing else is left.
		 */
		for (size_t k = 0; k < n; k++)
			if (!cg_pids_contain(skip, nskip, ids[k])) {
				pid_t keep = ids[live];

				ids[live++] = ids[k];
				ids[k] = keep;
			}
		if (!live) {
			size_t failed_there = 0;

			for (size_t k = 0; k < n; k++)
				failed_there += !cg_task_dead(ids[k], 0);
			r = recheck_own(src, skip, nskip, &ids, &live, &cut);
			if (r < 0)
				return cg_diag_fail(d, -r, CG_OP_READ, src->hier->version, where,
						    src->hier->label, "list processes");
			/* never empty while a process whose move failed is listed */
			if (!live) {
				res->left = failed_there;
				return 0;
			}
		}
		res->left = live;
		if (cg_signals_waiting(o->stop))
			return -EINTR;
		if (round >= max || cg_now_ns() >= deadline)
			return cg_diag_say(
				d, EAGAIN, where, src->hier->label, "drain",
				"%s%zu process%s still there after %u round%s (%.1f s): %s",
				cut ? "at least " : "", live, live == 1 ? " is" : "es are", round,
				round == 1 ? "" : "s", (double)(cg_now_ns() - start) / 1e9,
				refill_reason(fz, late, ids, live, why, sizeof(why)));
		res->rounds = ++round;
		for (size_t k = 0; k < live; k++) {
			struct cg_move m = { .id = ids[k] };

			/*
			 * A round is as long as its listing: thousands of moves, each a wait for
			 * the kernel's threadgroup lock. The deadline and a signal end it early;
			 * the next listing says what is left.
			 */
			if (cg_now_ns() >= deadline) {
				late = true;
				break;
			}
			if ((k & 15) == 15 && cg_signals_waiting(o->stop))
				return -EINTR;
			for (size_t i = 0; i < dst->n && m.state == CG_MOVE_PENDING; i++) {
				r = cg_attach_fd(fds[i], ids[k]);
				if (r == -ESRCH)
					m.state = CG_MOVE_GONE;
				else if (r < 0)
					m = (struct cg_move){ .id = ids[k],
							      .state = CG_MOVE_FAILED,
							      .step = CG_STEP_WRITE,
							      .err = r,
							      .target = i };
			}
			/* the kernel takes a zombie's pid and moves nothing */
			if (m.state == CG_MOVE_PENDING && reappeared_dead(ids[k], round))
				m.state = CG_MOVE_GONE;
			if (m.state == CG_MOVE_PENDING) {
				res->moved++;
				continue;
			}
			if (m.state == CG_MOVE_GONE)
				res->gone++;
			else if ((r = note_failure(res, &m)) < 0)
				return r;
			r = pids_append(&skip, &nskip, &ids[k], 1);
			if (r < 0)
				return r;
			qsort(skip, nskip, sizeof(pid_t), cg_pid_cmp);
		}
		/*
		 * Forks in flight are done when a move returns (the kernel's threadgroup lock), so
		 * a source that refills at once is being fed, by a fork storm or by another mover
		 * (which a freeze does not stop). Pausing 1, 2 .. 10 ms before looking again
		 * spreads the bounded number of rounds over about a second instead of a blink.
		 */
		cg_sleep_ns((uint64_t)(round < 10 ? round : 10) * NSEC_PER_MSEC);
	}
}

int cg_drain_check(const struct cg_targets *src, const struct cg_targets *dst, bool recursive,
		   struct cg_diag *d)
{
	for (size_t i = 0; i < src->n; i++)
		for (size_t k = 0; k < dst->n; k++) {
			int r = target_refused(&src->t[i], &dst->t[k], recursive, d);

			if (r < 0)
				return r;
		}
	return 0;
}

/*
 * --freeze: the destination in the source's hierarchy is held frozen while the processes move,
 * unless it is frozen already (its owner's freeze is left alone) or cannot be (a root, no v1
 * freezer cgroup of its path: the drain goes on unheld). A moved process arrives frozen and
 * stays so: thawed there it forks, and each fork holds cgroup_threadgroup_rwsem, which every
 * later cgroup.procs write waits for; a storm of a few hundred took minutes to drain that way.
 * The destination's own processes stop for the drain too, for as long as the moves take.
 */
static void hold_destination(const struct cg_layout *l, const struct cg_target *src,
			     const struct cg_targets *dst, uint64_t wait_ns, const sigset_t *stop,
			     struct cg_freezer *ret)
{
	for (size_t i = 0; i < dst->n; i++) {
		if (dst->t[i].hier != src->hier)
			continue;
		if (!*dst->t[i].path || cg_is_frozen(&dst->t[i], NULL) != 0 ||
		    cg_freezer_find(l, &dst->t[i], ret, NULL) < 0)
			return;
		/* cg_freeze leaves it thawed when it does not freeze in time */
		(void)cg_freeze(ret, wait_ns, stop, NULL);
		return;
	}
}

int cg_drain(const struct cg_layout *l, const struct cg_target *src, const struct cg_targets *dst,
	     const struct cg_drain_opts *o, struct cg_drain_result *res, struct cg_diag *d)
{
	struct cg_freezer fz = { 0 }, dfz = { 0 };
	int *fds = calloc(dst->n ? dst->n : 1, sizeof(int));
	char where[PATH_MAX + 2];
	int r = 0, t;
	/* one deadline for the freeze and the rounds: --timeout bounds the whole drain */
	uint64_t start = cg_now_ns();
	uint64_t deadline = start + (o->timeout_ns ? o->timeout_ns : CG_DRAIN_TIMEOUT_NS);

	*res = (struct cg_drain_result){ 0 };
	if (!fds)
		return -ENOMEM;
	for (size_t i = 0; i < dst->n; i++)
		fds[i] = -1;
	cg_path_display(src->path, where, sizeof(where));
	/* the root holds every process of the system, kernel threads too: never drain it */
	if (!*src->path) {
		r = cg_diag_say(d, EINVAL, where, src->hier->label, "drain",
				"refusing to drain the root of the hierarchy");
		goto out;
	}
	t = 0;
	for (size_t i = 0; i < dst->n; i++)
		t += dst->t[i].hier == src->hier;
	if (!t) {
		r = cg_diag_say(
			d, EINVAL, where, src->hier->label, "drain",
			"no target in this hierarchy: a drain moves processes within one hierarchy (add -g %s:PATH)",
			src->hier->label);
		goto out;
	}
	for (size_t i = 0; i < dst->n; i++) {
		r = target_refused(src, &dst->t[i], o->recursive, d);
		if (r < 0)
			goto out;
		fds[i] = cg_attach_open(dst->t[i].hier, dst->t[i].path, false);
		if (fds[i] < 0) {
			char w[PATH_MAX + 2];

			cg_path_display(dst->t[i].path, w, sizeof(w));
			r = cg_diag_fail(d, -fds[i], CG_OP_ATTACH, dst->t[i].hier->version, w,
					 dst->t[i].hier->label, "open cgroup.procs");
			goto out;
		}
	}
	t = cg_open_dir(src->hier, src->path);
	if (t == -ENOENT) {
		/* CG_OP_OPEN's ENOENT is a missing interface file: here it is the cgroup */
		r = cg_diag_say(d, ENOENT, where, src->hier->label, "drain",
				"%s (the cgroup does not exist)", strerror(ENOENT));
		goto out;
	}
	if (t < 0) {
		/* not only "no such cgroup": EACCES, ESTALE are reasons of their own */
		r = cg_diag_fail(d, -t, CG_OP_OPEN, src->hier->version, where, src->hier->label,
				 "drain");
		goto out;
	}
	close(t);
	if (o->freeze) {
		r = cg_freezer_find(l, src, &fz, d);
		if (r < 0)
			goto out;
		/*
		 * A storm of a thousand processes can take longer than the default 5 s to freeze:
		 * with --timeout the freeze may take what the drain may (and leaves the rest to
		 * the rounds), never more.
		 */
		uint64_t fwait = o->freeze_timeout_ns ? o->freeze_timeout_ns
				 : o->timeout_ns      ? o->timeout_ns
						      : CG_KILL_TIMEOUT_NS;

		if (fwait > deadline - start)
			fwait = deadline - start;
		r = cg_freeze(&fz, fwait, o->stop, d);
		if (r < 0)
			goto out;
		hold_destination(l, src, dst, fwait, o->stop, &dfz);
	}
	r = drain_rounds(src, dst, o, fds, o->freeze ? &fz : NULL, start, deadline, res, d);
	if (r == -EINTR)
		cg_diag_say(d, EINTR, where, src->hier->label, "drain",
			    "interrupted by a signal after %u round%s, %zu process%s left%s",
			    res->rounds, res->rounds == 1 ? "" : "s", res->left,
			    res->left == 1 ? "" : "es", o->freeze ? "; thawed the source" : "");
	if (o->freeze) {
		struct cg_diag td;

		/* a cgroup left frozen is worse than any drain error: its report wins */
		t = cg_thaw(&fz, &td);
		if (t < 0) {
			if (d)
				*d = td;
			r = t;
		}
		t = dfz.frozen ? cg_thaw(&dfz, &td) : 0;
		if (t < 0) {
			if (d)
				*d = td;
			r = t;
		}
	}
out:
	for (size_t i = 0; i < dst->n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return r;
}
