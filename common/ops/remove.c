// SPDX-License-Identifier: MIT
/* Stopping and removing cgroups: signal, kill (cgroup.kill, v1 frozen rounds), remove checked. */
#include "remove.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "cgroups/freeze.h"
#include "guard.h"
#include "drain.h"
#include "migrate.h"
#include "base/parse.h"
#include "kernel/proc.h"

#define disp cg_path_display

/* The processes signalled so far, sorted: a process in the twins of several hierarchies once */
struct pid_seen {
	pid_t *p;
	size_t n, cap;
};

/* Whether pid is new to seen, which then holds it (one it cannot hold counts as new). */
static bool pid_first(struct pid_seen *seen, pid_t pid)
{
	size_t lo = 0, hi = seen->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (seen->p[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < seen->n && seen->p[lo] == pid)
		return false;
	if (seen->n == seen->cap) {
		pid_t *p = reallocarray(seen->p, 2 * seen->cap + 64, sizeof(*p));

		if (!p)
			return true; /* a second signal is better than none */
		seen->p = p;
		seen->cap = 2 * seen->cap + 64;
	}
	memmove(seen->p + lo + 1, seen->p + lo, (seen->n++ - lo) * sizeof(*seen->p));
	seen->p[lo] = pid;
	return true;
}

/*
 * The members to signal. A threaded cgroup lists no processes (its cgroup.procs answers
 * EOPNOTSUPP); its threads are in cgroup.threads, and kill() of a thread id signals that
 * thread's whole process, which is what stopping the cgroup means. With seen, each process
 * once: a thread counts as its process.
 */
static int signal_members(const struct cg_hier *h, const char *path, int sig, struct pid_seen *seen)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r, count = 0;
	bool threads = false;

	r = cg_members_read(h, path, CG_MEMBERS_LAX, &pids, &n);
	if (r == -EOPNOTSUPP && h->version == 2) {
		r = cg_members_read(h, path, CG_MEMBERS_LAX | CG_MEMBERS_THREADS, &pids, &n);
		threads = true;
	}
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		pid_t pid = threads && seen ? cg_tid_tgid(pids[i]) : pids[i];

		if (pid <= 0 || (seen && !pid_first(seen, pid)))
			continue;
		if (kill(pid, sig) == 0)
			count++;
	}
	return count;
}

struct signal_walk {
	int sig, count, err;
	struct pid_seen *seen; /* NULL: every member */
};

static int signal_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct signal_walk *w = ctx;
	int r = signal_members(h, path, w->sig, w->seen);

	if (r >= 0)
		w->count += r;
	else if (!depth)
		return r;
	/* one cgroup that cannot be read does not spare the rest of a kill */
	else if (!cg_vanished(r) && !w->err)
		w->err = r;
	return 0;
}

static int signal_tree(const struct cg_hier *h, const char *path, int sig, struct pid_seen *seen)
{
	struct signal_walk w = { .sig = sig, .seen = seen };
	int r = cg_walk(h, path, 0, signal_one, &w);

	if (r < 0)
		return r;
	return w.err ? w.err : w.count;
}

int cg_signal(const struct cg_hier *h, const char *path, bool recursive, int sig)
{
	if (!recursive)
		return signal_members(h, path, sig, NULL);
	return signal_tree(h, path, sig, NULL);
}

/* Poll until the subtree is empty or the deadline passes. */
static int wait_empty(const struct cg_hier *h, const char *path, uint64_t deadline)
{
	uint64_t nap = 100000;

	for (;;) {
		int r = cg_populated(h, path);

		if (r <= 0)
			return r == -ENOENT ? 0 : r;
		if (cg_now_ns() >= deadline)
			return -ETIMEDOUT;
		cg_sleep_ns(nap);
		if (nap < 20000000)
			nap *= 2;
	}
}

static int count_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;

	if (cg_members_read(h, path, CG_MEMBERS_LAX, &pids, &n) == -EOPNOTSUPP)
		cg_members_read(h, path, CG_MEMBERS_LAX | CG_MEMBERS_THREADS, &pids, &n);
	*(size_t *)ctx += n;
	return 0;
}

/* Processes (threaded: threads) left in the subtree, for the message of a kill that gave up. */
static size_t count_members(const struct cg_hier *h, const char *path)
{
	size_t total = 0;

	/* what cannot be read is not counted: this is a message, not a decision */
	(void)cg_walk(h, path, 0, count_one, &total);
	return total;
}

static int kill_subtree(const struct cg_hier *h, const char *path, const struct cg_hier *freezer,
			uint64_t timeout_ns, struct cg_diag *d)
{
	uint64_t deadline = cg_now_ns() + timeout_ns;
	char buf[PATH_MAX + 2];
	int r;

	disp(path, buf, sizeof(buf));
	if (h->version == 2) {
		_cleanup_close_ int fd = cg_open_dir(h, path);

		if (fd < 0)
			return cg_diag_fail(d, -fd, CG_OP_KILL, 2, buf, h->label, "open");
		/*
		 * cgroup.kill (5.14+) kills the whole subtree atomically, forks included; a
		 * threaded cgroup refuses it (EOPNOTSUPP) and takes the signal rounds below.
		 */
		r = cg_write_at(fd, "cgroup.kill", "1");
		if (r == 0) {
			r = wait_empty(h, path, deadline);
			if (r == -ETIMEDOUT)
				return cg_diag_say(d, ETIMEDOUT, buf, h->label, "kill",
						   "%zu left after cgroup.kill and %.1f s",
						   count_members(h, path),
						   (double)timeout_ns / 1e9);
			return r < 0 ? cg_diag_fail(d, -r, CG_OP_KILL, 2, buf, h->label,
						    "wait for the cgroup to empty")
				     : 0;
		}
		if (r != -ENOENT && r != -EOPNOTSUPP)
			return cg_diag_fail(d, -r, CG_OP_KILL, 2, buf, h->label,
					    "write cgroup.kill");
	}
	/*
	 * v1: a frozen task cannot fork, and one killed while frozen dies the moment it is thawed,
	 * so freeze -> SIGKILL every member -> thaw ends a fork storm in one round. Not frozen in
	 * time (or no such freezer cgroup): cg_freeze thawed it again, the rounds below go on.
	 */
	bool froze = false;

	if (freezer) {
		struct cg_freezer fz = { .hier = freezer, .path = path };

		froze = cg_freeze(&fz, timeout_ns / 5 ? timeout_ns / 5 : 1, NULL, NULL) == 0;
		if (froze) {
			r = cg_signal(h, path, true, SIGKILL);
			cg_thaw(&fz, NULL);
			if (r < 0 && r != -ENOENT)
				return cg_diag_fail(d, -r, CG_OP_KILL, h->version, buf, h->label,
						    "kill");
		}
	}
	for (;;) {
		r = cg_signal(h, path, true, SIGKILL);
		if (r < 0 && r != -ENOENT)
			return cg_diag_fail(d, -r, CG_OP_KILL, h->version, buf, h->label, "kill");
		r = wait_empty(h, path, cg_now_ns() + 10000000);
		if (r == 0)
			return 0;
		if (r != -ETIMEDOUT)
			return cg_diag_fail(d, -r, CG_OP_KILL, h->version, buf, h->label, "kill");
		if (cg_now_ns() >= deadline) {
			size_t left = count_members(h, path);

			/*
			 * Which of the three it is decides what helps: a storm without a freezer
			 * wants one; a storm whose freezer cgroup did not freeze has a task that
			 * cannot freeze; after a freeze that worked, a killed task that stays is
			 * held elsewhere (frozen in another freezer cgroup, uninterruptible sleep).
			 */
			const char *why =
				!freezer
					? "the cgroup forks faster than it can be killed (put it in a freezer cgroup of the same path, or lower pids.max, and try again)"
				: !froze
					? "the freezer cgroup of the same path did not freeze in time either (a task in uninterruptible sleep?)"
					: "killed tasks that do not exit (frozen in another freezer cgroup, or in uninterruptible sleep?)";

			return cg_diag_say(d, ETIMEDOUT, buf, h->label, "kill",
					   "%zu %s left after %.1f s of SIGKILL rounds: %s", left,
					   left == 1 ? "process" : "processes",
					   (double)timeout_ns / 1e9, why);
		}
	}
}

int cg_kill(const struct cg_hier *h, const char *path, uint64_t timeout_ns, struct cg_diag *d)
{
	return kill_subtree(h, path, NULL, timeout_ns, d);
}

int cg_kill_layout(const struct cg_layout *l, const struct cg_hier *h, const char *path,
		   uint64_t timeout_ns, struct cg_diag *d)
{
	return kill_subtree(h, path, h->version == 1 ? cg_layout_find(l, "freezer") : NULL,
			    timeout_ns, d);
}

static void tell(const struct cg_remove_opts *o, enum cg_remove_step what, const struct cg_hier *h,
		 const char *path, int sig, int count)
{
	const struct cg_remove_event e = {
		.what = what, .hier = h, .path = path, .sig = sig, .count = count
	};

	if (o->on_step)
		o->on_step(&e, o->ctx);
}

struct remove_walk {
	const struct cg_remove_opts *o;
	struct cg_diag *d;
	bool said; /* d is filled */
};

static int remove_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct remove_walk *w = ctx;
	char buf[PATH_MAX + 2];
	int r = cg_rmdir(h, path);

	if (r == -EBUSY) {
		w->said = true;
		return cg_diag_say(w->d, EBUSY, disp(path, buf, sizeof(buf)), h->label, "rmdir",
				   "%s",
				   cg_has_children(h, path) > 0
					   ? "the cgroup has child cgroups (use -R)"
					   : "the cgroup has processes (use -k to stop them)");
	}
	/* a child someone else removed meanwhile is what was asked for: the walk skips it */
	if (r < 0 && depth && cg_vanished(r))
		return r;
	if (r < 0) {
		w->said = true;
		return cg_diag_fail(w->d, -r, CG_OP_RMDIR, h->version, disp(path, buf, sizeof(buf)),
				    h->label, "rmdir");
	}
	tell(w->o, CG_REMOVE_RMDIR, h, path, 0, 0);
	return 0;
}

static int remove_tree(const struct cg_hier *h, const char *path, const struct cg_remove_opts *o,
		       struct cg_diag *d)
{
	struct remove_walk w = { .o = o, .d = d };
	char buf[PATH_MAX + 2];
	int r;

	if (!o->recursive)
		return remove_one(h, path, 0, &w);
	/* children first */
	r = cg_walk(h, path, CG_WALK_POST, remove_one, &w);
	if (r < 0 && !w.said)
		return cg_diag_fail(d, -r, CG_OP_RMDIR, h->version, disp(path, buf, sizeof(buf)),
				    h->label, "list children");
	return r;
}

/*
 * The first populated cgroup of the subtree (pre-order), for the refusal. v2 says whether a
 * whole subtree is populated at once: an empty one is not entered.
 */
static int find_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r;

	if (h->version == 2) {
		r = cg_populated(h, path);
		if (r <= 0)
			return r < 0 ? r : CG_WALK_PRUNE;
	}
	r = cg_members_read(h, path, CG_MEMBERS_LAX, &pids, &n);
	if (r == -EOPNOTSUPP)
		r = cg_members_read(h, path, CG_MEMBERS_LAX | CG_MEMBERS_THREADS, &pids, &n);
	if (r < 0 || !n)
		return r;
	*(char **)ctx = strdup(path);
	return *(char **)ctx ? CG_WALK_STOP : -ENOMEM;
}

/* 1 and *ret when a cgroup of the subtree has processes; 0 if none (or no subtree). */
static int find_populated(const struct cg_hier *h, const char *path, char **ret)
{
	char *found = NULL;
	int r = cg_walk(h, path, 0, find_one, &found);

	if (r == CG_WALK_STOP) {
		*ret = found;
		return 1;
	}
	/* populated a moment ago, empty now, or gone: whatever was there left */
	return r == -ENOENT ? 0 : r;
}

/* The parent of a cgroup path ("" for a child of the root), or NULL without memory. */
static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return strndup(path, slash ? (size_t)(slash - path) : 0);
}

/* A v2 cgroup's one-line file (cgroup.type, cgroup.subtree_control), without its newline. */
static int read_line(const struct cg_hier *h, const char *path, const char *file, char **ret)
{
	_cleanup_close_ int fd = cg_open_dir(h, path);
	int r;

	if (fd < 0)
		return fd;
	r = cg_read_at(fd, file, ret);
	if (r == 0)
		(*ret)[strcspn(*ret, "\n")] = '\0';
	return r;
}

/* A v2 threaded cgroup: its members are threads, which move to the parent one by one. */
static int is_threaded(const struct cg_hier *h, const char *path)
{
	_cleanup_free_ char *type = NULL;
	int r;

	if (h->version != 2)
		return 0;
	r = read_line(h, path, "cgroup.type", &type);
	return r < 0 ? r : !strcmp(type, "threaded");
}

/*
 * Can the parent take what runs in path's populated subtree? v1 has no rule against it, nor
 * has the v2 root, nor a threaded parent of a threaded cgroup (the threads stay in their
 * threaded subtree). Else the kernel refuses a process in a domain that enables controllers
 * for its children (the no-internal-process rule; the populated child being removed is such
 * a child until it is empty) and in a domain invalid one: refused here, before anything
 * moves, with the rule.
 */
static int check_parent(const struct cg_hier *h, const char *path, struct cg_diag *d)
{
	_cleanup_free_ char *parent = NULL, *type = NULL, *ctl = NULL;
	char buf[PATH_MAX + 2], pbuf[PATH_MAX + 2];
	int r;

	if (h->version != 2)
		return 0;
	parent = parent_of(path);
	if (!parent)
		return -ENOMEM;
	if (!*parent)
		return 0;
	disp(path, buf, sizeof(buf));
	disp(parent, pbuf, sizeof(pbuf));
	r = is_threaded(h, path);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_READ, 2, buf, h->label, "read cgroup.type");
	if (r > 0)
		return 0;
	r = read_line(h, parent, "cgroup.type", &type);
	if (r == 0)
		r = read_line(h, parent, "cgroup.subtree_control", &ctl);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_READ, 2, pbuf, h->label,
				    "read the parent's cgroup.type and cgroup.subtree_control");
	if (!strcmp(type, "domain invalid"))
		return cg_diag_say(
			d, EOPNOTSUPP, buf, h->label, "move its processes to the parent",
			"threaded rule: the parent %s is domain invalid (a domain cgroup inside a threaded subtree) and may hold no process; nothing was moved or removed",
			pbuf);
	if (*ctl)
		return cg_diag_say(
			d, EBUSY, buf, h->label, "move its processes to the parent",
			"no-internal-process rule: the parent %s enables controllers for its children (cgroup.subtree_control: %s), so it may hold no process; nothing was moved or removed (use -k to stop them instead)",
			pbuf, ctl);
	return 0;
}

int cg_remove_check(const struct cg_hier *h, const char *path, const struct cg_remove_opts *o,
		    struct cg_diag *d)
{
	_cleanup_free_ char *busy = NULL;
	char buf[PATH_MAX + 2];
	int r;

	disp(path, buf, sizeof(buf));
	/* the owner rule is the tool's (cgcreate2 -v says it, --force passes it) */
	r = cg_guard(&(struct cg_target){ .hier = (struct cg_hier *)h, .path = (char *)path },
		     o->signal ? CG_GUARD_REMOVE_KILL : CG_GUARD_REMOVE, CG_RULE_OWNER, d);
	if (r < 0)
		return r;
	r = cg_has_children(h, path);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_RMDIR, h->version, buf, h->label, "remove");
	if (!o->recursive && r)
		return cg_diag_say(d, EBUSY, buf, h->label, "rmdir",
				   "the cgroup has child cgroups (use -R)");
	if (o->signal)
		return 0;
	r = find_populated(h, path, &busy);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_RMDIR, h->version, buf, h->label,
				    "read what runs there");
	if (r > 0 && o->migrate_to_parent)
		return check_parent(h, path, d);
	if (r > 0)
		return cg_diag_say(d, EBUSY, disp(busy, buf, sizeof(buf)), h->label, "rmdir",
				   "the cgroup has processes (use -k to stop them)");
	return 0;
}

/* The freezer hierarchy that can hold h's cgroup of the same path (v1 only), or NULL. */
static const struct cg_hier *freezer_for(const struct cg_remove_opts *o, const struct cg_hier *h)
{
	if (!o->layout || h->version != 1)
		return NULL;
	return cg_layout_find(o->layout, "freezer");
}

struct thread_walk {
	pid_t *v;
	size_t n;
};

static int list_threads(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct thread_walk *w = ctx;
	_cleanup_free_ pid_t *own = NULL;
	size_t n = 0;
	pid_t *nv;
	int r = cg_members_read(h, path, CG_MEMBERS_THREADS, &own, &n);

	if (r < 0)
		return r;
	if (!n)
		return 0;
	nv = realloc(w->v, (w->n + n) * sizeof(pid_t));
	if (!nv)
		return -ENOMEM;
	memcpy(nv + w->n, own, n * sizeof(pid_t));
	w->v = nv;
	w->n += n;
	return 0;
}

/*
 * A threaded subtree into its threaded parent: its threads, listed and moved (each one
 * verified by cg_move_many) until none is left, CG_DRAIN_ROUNDS at most; a thread made
 * meanwhile is caught by the next round.
 */
static int move_threads(const struct cg_hier *h, const char *path, const struct cg_targets *dst,
			size_t *moved, struct cg_diag *d)
{
	const struct cg_move_opts mo = { .thread = true, .listed = true };
	char buf[PATH_MAX + 2];
	int r;

	disp(path, buf, sizeof(buf));
	for (unsigned round = 0; round < CG_DRAIN_ROUNDS; round++) {
		struct thread_walk w = { 0 };
		struct cg_move_summary sum = { 0 };
		struct cg_move *m;

		r = cg_walk(h, path, 0, list_threads, &w);
		if (r < 0) {
			free(w.v);
			return cg_diag_fail(d, -r, CG_OP_READ, 2, buf, h->label, "list threads");
		}
		if (!w.n)
			return 0;
		m = calloc(w.n, sizeof(*m));
		if (!m) {
			free(w.v);
			return -ENOMEM;
		}
		for (size_t k = 0; k < w.n; k++)
			m[k].id = w.v[k];
		free(w.v);
		r = cg_move_many(dst, &mo, m, w.n, &sum, d);
		for (size_t k = 0; r == 0 && k < w.n; k++)
			if (m[k].state == CG_MOVE_FAILED)
				r = cg_move_diag(dst, &mo, &m[k], d);
		cg_moves_free(m, w.n);
		if (r < 0)
			return r;
		*moved += sum.arrived;
	}
	return cg_diag_say(
		d, EAGAIN, buf, h->label, "move its threads to the parent",
		"threads are still there after %u rounds: they are made faster than they move",
		CG_DRAIN_ROUNDS);
}

/*
 * Everything in the subtree of path into its parent: processes by a recursive drain (listed
 * and moved until the subtree lists none, so that forks are caught; a v2 threaded domain lists
 * the processes of its threaded children, whose threads go with them), or the threads of a v2
 * threaded cgroup. A process that could not be moved fails it, with the kernel's rule.
 */
static int migrate_subtree(const struct cg_hier *h, const char *path,
			   const struct cg_remove_opts *o, struct cg_diag *d)
{
	_cleanup_free_ char *parent = parent_of(path);
	struct cg_target src = { .hier = (struct cg_hier *)h, .path = (char *)path };
	struct cg_target to = { .hier = (struct cg_hier *)h, .path = parent };
	const struct cg_targets dst = { .t = &to, .n = 1 };
	const struct cg_drain_opts dopts = { .recursive = true };
	const struct cg_move_opts mo = { 0 };
	struct cg_drain_result res = { 0 };
	struct cg_remove_event e = { .what = CG_REMOVE_MOVE, .hier = h, .path = path };
	size_t moved = 0;
	int r;

	if (!parent)
		return -ENOMEM;
	e.to = parent;
	r = is_threaded(h, path);
	if (r > 0) {
		e.thread = true;
		r = move_threads(h, path, &dst, &moved, d);
	} else if (r == 0) {
		r = cg_drain(o->layout, &src, &dst, &dopts, &res, d);
		/* a drain that skipped a failed process can end "empty" without it: not done */
		if (r == 0 && res.nfailures)
			r = cg_move_diag(&dst, &mo, &res.failures[0], d);
		moved = res.moved;
		free(res.failures);
	} else {
		char buf[PATH_MAX + 2];

		r = cg_diag_fail(d, -r, CG_OP_READ, 2, disp(path, buf, sizeof(buf)), h->label,
				 "read cgroup.type");
	}
	if (r < 0)
		return r;
	e.count = (int)moved;
	if (o->on_step)
		o->on_step(&e, o->ctx);
	return 0;
}

static int add_twins(const struct cg_layout *l, struct cg_targets *there, struct cg_targets *twins,
		     struct cg_diag *d)
{
	struct cg_target *t;
	size_t n = there->n;

	if (cg_layout_kind(l) != CG_LAYOUT_HYBRID)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (there->t[i].hier->version != 2 || !*there->t[i].path)
			continue;
		for (size_t k = 0; k < l->n; k++) {
			const struct cg_hier *h = &l->hier[k];
			_cleanup_free_ char *spec = NULL;
			bool known = false;
			int fd, r;

			if (h->version != 1 || h->name || !h->controllers || !h->controllers[0])
				continue;
			for (size_t j = 0; j < n && !known; j++)
				known = there->t[j].hier == h &&
					!strcmp(there->t[j].path, there->t[i].path);
			fd = known ? -EEXIST : cg_open_dir(h, there->t[i].path);
			if (fd < 0)
				continue;
			close(fd);
			if (asprintf(&spec, "%s:/%s", h->label, there->t[i].path) < 0)
				return -ENOMEM;
			r = cg_spec_parse(l, spec, twins, d);
			if (r < 0)
				return r;
		}
	}
	if (!twins->n)
		return 0;
	t = realloc(there->t, (n + twins->n) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	there->t = t;
	for (size_t i = 0; i < twins->n; i++)
		there->t[there->n++] = twins->t[i];
	return 0;
}

int cg_remove_present(const struct cg_layout *l, const struct cg_targets *ts, bool quiet,
		      struct cg_targets *there, struct cg_targets *twins, cg_diag_fn *on_fail,
		      void *ctx)
{
	char name[PATH_MAX + 2];
	struct cg_diag d = { 0 };
	int missing = 0, r;

	there->t = calloc(ts->n + 1, sizeof(*ts->t));
	if (!there->t)
		return -ENOMEM;
	for (size_t i = 0; i < ts->n; i++) {
		struct cg_target *t = &ts->t[i];
		int fd = cg_open_dir(t->hier, t->path);

		if (fd >= 0) {
			close(fd);
			there->t[there->n++] = *t;
			continue;
		}
		if (fd == -ENOENT && quiet)
			continue;
		cg_diag_fail(&d, -fd, CG_OP_RMDIR, t->hier->version,
			     cg_target_name(t, name, sizeof(name)), t->hier->label, "remove");
		on_fail(&d, fd, ctx);
		if (fd != -ENOENT)
			return fd;
		missing++;
	}
	r = add_twins(l, there, twins, &d);
	if (r < 0) {
		/* the one line it always was: "remove: " and the errno's text */
		cg_diag_say(&d, r, NULL, NULL, "remove", "%s", strerror(-r));
		on_fail(&d, r, ctx);
		return r;
	}
	return missing;
}

/* o->signal to what runs in every target, each process once */
static int signal_targets(const struct cg_targets *ts, const struct cg_remove_opts *o,
			  struct cg_diag *d)
{
	struct pid_seen seen = { 0 };
	int r = 0;

	for (size_t i = 0; i < ts->n && r >= 0; i++) {
		const struct cg_target *t = &ts->t[i];

		if (cg_populated(t->hier, t->path) <= 0)
			continue;
		r = signal_tree(t->hier, t->path, o->signal, &seen);
		/* no step for a twin whose processes all had the signal already */
		if (r > 0)
			tell(o, CG_REMOVE_SIGNAL, t->hier, t->path, o->signal, r);
		else if (r < 0)
			r = cg_diag_fail(d, -r, CG_OP_KILL, t->hier->version,
					 cg_target_name(t, d->where, sizeof(d->where)),
					 t->hier->label, "signal");
	}
	free(seen.p);
	return r < 0 ? r : 0;
}

/* The grace for a target, telling on_wait each second what is left (silence looks hung) */
static int wait_grace(const struct cg_target *t, const struct cg_remove_opts *o, uint64_t deadline)
{
	uint64_t next = cg_now_ns() + NSEC_PER_SEC;

	for (;;) {
		int r = wait_empty(t->hier, t->path,
				   o->on_wait && next < deadline ? next : deadline);
		uint64_t now = cg_now_ns();
		struct cg_remove_event e = { .what = CG_REMOVE_WAIT,
					     .hier = t->hier,
					     .path = t->path };

		if (r != -ETIMEDOUT || !o->on_wait || now >= deadline)
			return r;
		e.count = (int)count_members(t->hier, t->path);
		e.left_ns = deadline - now;
		o->on_wait(&e, o->ctx);
		next += NSEC_PER_SEC;
	}
}

int cg_remove_targets(const struct cg_targets *ts, const struct cg_remove_opts *o,
		      struct cg_diag *d)
{
	uint64_t deadline;
	int r;

	/* everything is refused before anything is signalled or removed */
	for (size_t i = 0; i < ts->n; i++) {
		r = cg_remove_check(ts->t[i].hier, ts->t[i].path, o, d);
		if (r < 0)
			return r;
	}
	if (o->signal) {
		r = signal_targets(ts, o, d);
		if (r < 0)
			return r;
		deadline = cg_now_ns() + o->grace_ns;
		for (size_t i = 0; i < ts->n; i++) {
			const struct cg_target *t = &ts->t[i];
			uint64_t kill_ns =
				o->kill_timeout_ns ? o->kill_timeout_ns : CG_KILL_TIMEOUT_NS;
			int left;

			if (wait_grace(t, o, deadline) != -ETIMEDOUT)
				continue;
			left = (int)count_members(t->hier, t->path);
			r = kill_subtree(t->hier, t->path, freezer_for(o, t->hier), kill_ns, d);
			if (r < 0)
				return r;
			tell(o, CG_REMOVE_KILL, t->hier, t->path, SIGKILL, left);
		}
	}
	/* every subtree is emptied before any is removed: a move that fails removes nothing */
	for (size_t i = 0; o->migrate_to_parent && i < ts->n; i++) {
		const struct cg_target *t = &ts->t[i];

		r = cg_populated(t->hier, t->path);
		if (r > 0)
			r = migrate_subtree(t->hier, t->path, o, d);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < ts->n; i++) {
		r = remove_tree(ts->t[i].hier, ts->t[i].path, o, d);
		if (r < 0)
			return r;
	}
	return 0;
}

int cg_remove(const struct cg_hier *h, const char *path, const struct cg_remove_opts *o,
	      struct cg_diag *d)
{
	struct cg_target t = { .hier = (struct cg_hier *)h, .path = (char *)path };
	const struct cg_targets ts = { .t = &t, .n = 1 };

	return cg_remove_targets(&ts, o, d);
}
