// SPDX-License-Identifier: MIT
/* One cgroup acted on by its path: freeze, signal, kill, set a limit, move a process into it. */
#include "act.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "cgroups/freeze.h"
#include "guard.h"
#include "migrate.h"
#include "base/parse.h"
#include "remove.h"
#include "cgroups/setup.h"
#include "kernel/file.h"
#include "kernel/proc.h"
#include "kernel/spec.h"

/* The limits a user sets here, each named by its controller (the part before the dot). */
static const char *const settable[] = { "memory.max", "cpu.max", "cpu.weight", "pids.max" };

bool cg_act_settable(const char *file)
{
	for (size_t i = 0; i < ARRAY_SIZE(settable); i++)
		if (!strcmp(file, settable[i]))
			return true;
	return false;
}

/*
 * The targets of spec, the first of which must exist (its identity in id, when not NULL): 0 or
 * -errno with d filled.
 */
static int targets_id(const struct cg_layout *l, const char *spec, struct cg_targets *ts,
		      struct cg_act_id *id, struct cg_diag *d)
{
	_cleanup_close_ int fd = -1;
	char where[PATH_MAX + 2];
	struct stat st;
	/* on hybrid the cgroup is its unified member with the v1 twins, as cgmigrate takes it */
	int r = cg_spec_parse_flags(l, spec, CG_SPEC_TWINS, ts, d);

	if (r < 0)
		return r;
	if (!ts->n)
		return cg_diag_say(d, ENOENT, spec, "", "find", "no hierarchy has it");
	fd = cg_open_dir(ts->t[0].hier, ts->t[0].path);
	if (fd >= 0 && (!id || fstat(fd, &st) == 0)) {
		if (id)
			*id = (struct cg_act_id){ .dev = st.st_dev, .ino = st.st_ino };
		return 0;
	}
	if (fd >= 0)
		fd = -errno;
	cg_path_display(ts->t[0].path, where, sizeof(where));
	r = fd == -ENOENT
		    ? cg_diag_say(d, ENOENT, where, ts->t[0].hier->label, "find", "no such cgroup")
		    : cg_diag_fail(d, -fd, CG_OP_OPEN, ts->t[0].hier->version, where,
				   ts->t[0].hier->label, "open");
	cg_targets_clear(ts);
	return r;
}

static int targets(const struct cg_layout *l, const char *spec, struct cg_targets *ts,
		   struct cg_diag *d)
{
	return targets_id(l, spec, ts, NULL, d);
}

int cg_act_id(const struct cg_layout *l, const char *path, struct cg_act_id *id, struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	int r = targets_id(l, path, &ts, id, d);

	if (r == 0)
		cg_targets_clear(&ts);
	return r;
}

int cg_act_same(const struct cg_layout *l, const char *path, const struct cg_act_id *id,
		struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	struct cg_act_id now;
	char where[PATH_MAX + 2];
	int r = targets_id(l, path, &ts, &now, d);

	if (r < 0)
		return r;
	if (now.dev != id->dev || now.ino != id->ino) {
		cg_path_display(ts.t[0].path, where, sizeof(where));
		r = cg_diag_say(
			d, ESTALE, where, ts.t[0].hier->label, "act",
			"another cgroup has this path since it was chosen (removed and made anew, or renamed): choose it again");
	}
	cg_targets_clear(&ts);
	return r;
}

/*
 * The targets of spec, which the guard lets v act on (guard.h: the root, the subtree holding
 * this process, a systemd unit not delegated are refused, as the tools refuse them): 0 or
 * -errno with d filled and nothing in ts.
 */
static int guarded(const struct cg_layout *l, const char *spec, enum cg_guard_verb v,
		   struct cg_targets *ts, struct cg_diag *d)
{
	int r = targets(l, spec, ts, d);

	if (r == 0 && (r = cg_guard_all(ts, v, 0, d)) < 0)
		cg_targets_clear(ts);
	return r;
}

/*
 * Whether file of the cgroup may be written: 0 or -errno with d filled. With or_dir, a file
 * that is not there yet (a controller setup would enable) asks the cgroup's directory.
 */
static int may_write(const struct cg_hier *h, const char *path, const char *file, bool or_dir,
		     const char *what, struct cg_diag *d)
{
	char where[PATH_MAX + 2];
	_cleanup_close_ int fd = cg_open_dir(h, path);

	cg_path_display(path, where, sizeof(where));
	if (fd < 0)
		return cg_diag_fail(d, -fd, CG_OP_OPEN, h->version, where, h->label, "%s", what);
	if (or_dir && faccessat(fd, file, F_OK, 0) < 0 && errno == ENOENT)
		file = ".";
	if (faccessat(fd, file, W_OK, AT_EACCESS) < 0)
		return cg_diag_fail(d, errno, CG_OP_WRITE, h->version, where, h->label,
				    "%s: write %s", what,
				    !strcmp(file, ".") ? "in the directory" : file);
	return 0;
}

struct probe {
	pid_t denied;
	int err;
};

static int probe_one(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct probe *p = ctx;
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	int r = cg_members_read(h, path, CG_MEMBERS_LAX, &pids, &n);

	if (r == -EOPNOTSUPP && h->version == 2)
		r = cg_members_read(h, path, CG_MEMBERS_LAX | CG_MEMBERS_THREADS, &pids, &n);
	if (r < 0)
		return depth && cg_vanished(r) ? 0 : r;
	for (size_t i = 0; i < n; i++)
		if (kill(pids[i], 0) < 0 && errno != ESRCH) {
			p->denied = pids[i];
			p->err = errno;
			return CG_WALK_STOP;
		}
	return 0;
}

/* Whether every process of the subtree may be signalled (kill(pid, 0), the kernel's check). */
static int may_signal(const struct cg_hier *h, const char *path, struct cg_diag *d)
{
	struct probe p = { 0 };
	char where[PATH_MAX + 2];
	int r = cg_walk(h, path, 0, probe_one, &p);

	cg_path_display(path, where, sizeof(where));
	if (r == CG_WALK_STOP)
		return cg_diag_fail(d, p.err, CG_OP_KILL, h->version, where, h->label,
				    "signal process %d", (int)p.denied);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_READ, h->version, where, h->label,
				    "list the processes");
	return 0;
}

static int find_freezer(const struct cg_layout *l, const struct cg_targets *ts,
			struct cg_freezer *f, struct cg_diag *d)
{
	char where[PATH_MAX + 2];
	int r;

	if (!ts->t[0].path[0]) {
		cg_path_display("", where, sizeof(where));
		return cg_diag_say(d, EINVAL, where, ts->t[0].hier->label, "freeze",
				   "the root cgroup has no freezer");
	}
	r = cg_freezer_find(l, &ts->t[0], f, d);
	if (r < 0)
		return r;
	/* on v1 the freezer's own hierarchy decides whether it holds this process */
	return cg_guard(
		&(struct cg_target){ .hier = (struct cg_hier *)f->hier, .path = (char *)f->path },
		CG_GUARD_FREEZE, 0, d);
}

static int may_set(const struct cg_layout *l, const char *path, struct cg_diag *d)
{
	int first = 0;

	/* one limit the caller may write is enough: the others are refused when asked */
	for (size_t i = 0; i < ARRAY_SIZE(settable); i++) {
		struct cg_targets ts = { 0 };
		char spec[PATH_MAX + 64];
		const char *dot = strchr(settable[i], '.');
		struct cg_diag tmp;
		int r;

		snprintf(spec, sizeof(spec), "%.*s:%s", (int)(dot - settable[i]), settable[i],
			 path);
		r = targets(l, spec, &ts, &tmp);
		if (r == 0) {
			/* v1 names it otherwise (the vocabulary's): its directory decides there */
			r = may_write(ts.t[0].hier, ts.t[0].path,
				      ts.t[0].hier->version == 2 ? settable[i] : ".", true, "set",
				      &tmp);
			cg_targets_clear(&ts);
		}
		if (r == 0)
			return 0;
		if (r != -ENOENT && (!first || first == -ENOENT)) {
			if (d)
				*d = tmp;
			first = r;
		}
	}
	if (!first) {
		char where[PATH_MAX + 2];

		cg_path_display(path, where, sizeof(where));
		return cg_diag_say(
			d, ENOENT, where, "", "set a limit",
			"no hierarchy of the memory, cpu or pids controller has this cgroup");
	}
	return first;
}

static const enum cg_guard_verb guard_verb[CG_ACT_N] = {
	[CG_ACT_FREEZE] = CG_GUARD_FREEZE, [CG_ACT_SIGNAL] = CG_GUARD_SIGNAL,
	[CG_ACT_KILL] = CG_GUARD_KILL,	   [CG_ACT_SET] = CG_GUARD_SET,
	[CG_ACT_MOVE] = CG_GUARD_MOVE,
};

int cg_act_may(const struct cg_layout *l, const char *path, enum cg_act act, struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	struct cg_freezer f;
	const struct cg_hier *h;
	int r;

	if ((unsigned)act >= CG_ACT_N)
		return -EINVAL;
	/* the guard's refusals come before the kernel's: what is refused is never asked y/n */
	r = guarded(l, path, guard_verb[act], &ts, d);
	if (r < 0)
		return r;
	if (act == CG_ACT_SET) {
		cg_targets_clear(&ts);
		return may_set(l, path, d);
	}
	h = ts.t[0].hier;
	switch (act) {
	case CG_ACT_FREEZE:
		r = find_freezer(l, &ts, &f, d);
		if (r == 0)
			r = may_write(f.hier, f.path,
				      f.hier->version == 2 ? "cgroup.freeze" : "freezer.state",
				      false, "freeze", d);
		break;
	case CG_ACT_KILL:
		if (h->version == 2) {
			_cleanup_close_ int fd = cg_open_dir(h, ts.t[0].path);

			if (fd >= 0 && faccessat(fd, "cgroup.kill", F_OK, 0) == 0) {
				r = may_write(h, ts.t[0].path, "cgroup.kill", false, "kill", d);
				break;
			}
		}
		r = may_signal(h, ts.t[0].path, d);
		break;
	case CG_ACT_SIGNAL:
		r = may_signal(h, ts.t[0].path, d);
		break;
	case CG_ACT_MOVE:
		r = may_write(h, ts.t[0].path, cg_membership_file(h, false), false,
			      "move a process", d);
		break;
	default:
		r = -EINVAL;
	}
	cg_targets_clear(&ts);
	return r;
}

/* The freezer of path, whose targets stay in ts (their path is f's): 0 or -errno, d filled. */
static int freezer_of(const struct cg_layout *l, const char *path, struct cg_targets *ts,
		      struct cg_freezer *f, struct cg_diag *d)
{
	int r = guarded(l, path, CG_GUARD_FREEZE, ts, d);

	if (r < 0)
		return r;
	r = find_freezer(l, ts, f, d);
	if (r < 0)
		cg_targets_clear(ts);
	return r;
}

int cg_act_frozen(const struct cg_layout *l, const char *path, struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	struct cg_freezer f;
	int r = freezer_of(l, path, &ts, &f, d);

	if (r == 0) {
		struct cg_target t = { .hier = (struct cg_hier *)f.hier, .path = (char *)f.path };

		r = cg_is_frozen(&t, NULL);
		r = r == -EBUSY ? 1 : r;
		cg_targets_clear(&ts);
	}
	return r;
}

int cg_act_freeze(const struct cg_layout *l, const char *path, bool freeze, struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	struct cg_freezer f;
	int r = freezer_of(l, path, &ts, &f, d);

	if (r < 0)
		return r;
	if (freeze) {
		r = cg_freeze(&f, 0, NULL, d);
	} else {
		/* a thaw undoes any freeze, this tool's or another's */
		f.frozen = true;
		r = cg_thaw(&f, d);
	}
	cg_targets_clear(&ts);
	return r;
}

int cg_act_signal(const struct cg_layout *l, const char *path, int sig, struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	char where[PATH_MAX + 2];
	int r = guarded(l, path, CG_GUARD_SIGNAL, &ts, d);

	if (r < 0)
		return r;
	r = may_signal(ts.t[0].hier, ts.t[0].path, d);
	if (r == 0) {
		r = cg_signal(ts.t[0].hier, ts.t[0].path, true, sig);
		cg_path_display(ts.t[0].path, where, sizeof(where));
		if (r < 0)
			cg_diag_fail(d, -r, CG_OP_KILL, ts.t[0].hier->version, where,
				     ts.t[0].hier->label, "signal");
	}
	cg_targets_clear(&ts);
	return r;
}

int cg_act_kill(const struct cg_layout *l, const char *path, struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	int r = guarded(l, path, CG_GUARD_KILL, &ts, d);

	if (r < 0)
		return r;
	r = cg_kill_layout(l, ts.t[0].hier, ts.t[0].path, CG_KILL_TIMEOUT_NS, d);
	cg_targets_clear(&ts);
	return r;
}

int cg_act_set(const struct cg_layout *l, const char *path, const char *assignment,
	       struct cg_diag *d)
{
	struct cg_assignments set = { 0 };
	struct cg_targets ts = { 0 };
	struct cg_journal j = { 0 };
	const struct cg_setup_opts o = { .parents = true, .lock = true, .set = &set };
	char where[PATH_MAX + 2], spec[PATH_MAX + 64];
	const char *dot;
	int r;

	cg_path_display(path, where, sizeof(where));
	r = cg_assignments_add(&set, assignment);
	if (r < 0)
		return cg_diag_say(d, -r, where, "", "set", "not FILE=VALUE");
	if (!cg_act_settable(set.v[0].file)) {
		cg_assignments_clear(&set);
		return cg_diag_say(
			d, EINVAL, where, "", "set",
			"only memory.max, cpu.max, cpu.weight and pids.max are set here");
	}
	dot = strchr(set.v[0].file, '.');
	snprintf(spec, sizeof(spec), "%.*s:%s", (int)(dot - set.v[0].file), set.v[0].file, path);
	/* the controller's own hierarchy, and the cgroup there must exist: nothing is made */
	r = guarded(l, spec, CG_GUARD_SET, &ts, d);
	if (r == 0)
		r = cg_setup_route_all(l, &ts, &set, false, d);
	if (r == 0)
		r = cg_setup_apply(l, &ts, &o, &j, d);
	cg_journal_clear(&j);
	cg_targets_clear(&ts);
	cg_assignments_clear(&set);
	return r;
}

bool cg_act_pokes_file(const char *file)
{
	return !strcmp(file, "memory.reclaim") || !strcmp(file, "memory.peak");
}

/* A poke's write refused: the kernel's errno, and where it has no such action, since when */
static int poke_refused(const struct cg_hier *h, int dfd, const char *where, const char *file,
			int err, struct cg_diag *d)
{
	bool reclaim = !strcmp(file, "memory.reclaim");
	struct utsname u = { 0 };
	struct stat st;

	uname(&u);
	if (err == ENOENT)
		return cg_diag_say(
			d, EOPNOTSUPP, where, h->label,
			reclaim ? "reclaim memory" : "reset the peak", "no %s here (%s): %s", file,
			strerror(err),
			h->version == 2 ? "cgroup2's memory controller has it from Linux 5.19 on"
			: reclaim
				? "the v1 memory controller has none (cgroup2's has it from Linux 5.19 on)"
				: "the v1 memory controller's peak is memory.max_usage_in_bytes, reset by writing 0 to it");
	/*
	 * A file the kernel made read-only: the mode refuses others (EACCES), root's write reaches
	 * cgroup_file_write, which has no method for it (EINVAL on 6.1)
	 */
	if ((err == EACCES || err == EPERM || err == EINVAL) && !reclaim &&
	    fstatat(dfd, file, &st, 0) == 0 && !(st.st_mode & 0222))
		return cg_diag_say(
			d, EOPNOTSUPP, where, h->label, "reset the peak",
			"write %s: %s: this kernel (%s) makes memory.peak read-only; a write resets it from Linux 6.12 on",
			file, strerror(err), u.release);
	if (err == EAGAIN && reclaim)
		return cg_diag_say(d, EAGAIN, where, h->label, "reclaim memory",
				   "write %s: %s: the kernel reclaimed less than asked", file,
				   strerror(err));
	return cg_diag_fail(d, err, CG_OP_WRITE, h->version, where, h->label, "write %s", file);
}

int cg_act_poke(const struct cg_layout *l, const char *path, const char *assignment, unsigned skip,
		struct cg_diag *d)
{
	struct cg_assignments set = { 0 };
	struct cg_targets ts = { 0 };
	char where[PATH_MAX + 2], spec[PATH_MAX + 16], num[32];
	const char *file, *value;
	_cleanup_close_ int dfd = -1;
	uint64_t bytes = 0;
	int r;

	cg_path_display(path, where, sizeof(where));
	r = cg_assignments_add(&set, assignment);
	if (r < 0)
		return cg_diag_say(d, -r, where, "", "act", "not FILE=VALUE");
	file = set.v[0].file;
	value = set.v[0].value;
	if (!strcmp(file, "memory.reclaim")) {
		if (cg_parse_size(value, CG_SIZE_BYTES, &bytes) < 0 || !bytes)
			r = cg_diag_say(d, EINVAL, where, "", "reclaim memory",
					"memory.reclaim takes bytes with K, M, G or T, not '%s'",
					value);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)bytes);
		value = num;
	} else if (!strcmp(file, "memory.peak")) {
		if (strcmp(value, "reset"))
			r = cg_diag_say(d, EINVAL, where, "", "reset the peak",
					"memory.peak takes reset, not '%s'", value);
	} else {
		r = cg_diag_say(d, EINVAL, where, "", "act",
				"only memory.reclaim and memory.peak are actions");
	}
	snprintf(spec, sizeof(spec), "memory:%s", path);
	if (r == 0)
		r = targets(l, spec, &ts, d);
	if (r == 0)
		r = cg_guard_all(
			&ts, !strcmp(file, "memory.reclaim") ? CG_GUARD_RECLAIM : CG_GUARD_RESET,
			skip, d);
	if (r == 0) {
		cg_path_display(ts.t[0].path, where, sizeof(where));
		dfd = cg_open_dir(ts.t[0].hier, ts.t[0].path);
		r = dfd < 0 ? cg_diag_fail(d, -dfd, CG_OP_OPEN, ts.t[0].hier->version, where,
					   ts.t[0].hier->label, "open")
			    : cg_write_at(dfd, file, value);
		if (dfd >= 0 && r < 0)
			r = poke_refused(ts.t[0].hier, dfd, where, file, -r, d);
	}
	cg_targets_clear(&ts);
	cg_assignments_clear(&set);
	return r;
}

int cg_act_move(const struct cg_layout *l, pid_t pid, uint64_t start, const char *path,
		struct cg_diag *d)
{
	struct cg_targets ts = { 0 };
	const struct cg_move_opts o = { 0 };
	struct cg_move m = { .id = pid };
	char where[PATH_MAX + 2];
	uint64_t now_start;
	int r = guarded(l, path, CG_GUARD_MOVE, &ts, d);

	if (r < 0)
		return r;
	/*
	 * The pid was chosen a while ago: if that process exited, the pid may name a newcomer
	 * now, which nobody chose. Checked just before the write, the window left is the
	 * microseconds a pid needs to go round pid_max again.
	 */
	if (start && (cg_task_start(pid, &now_start) < 0 || now_start != start)) {
		cg_path_display(ts.t[0].path, where, sizeof(where));
		r = cg_diag_say(d, ESRCH, where, ts.t[0].hier->label, "move",
				"process %d exited since it was chosen%s", (int)pid,
				cg_task_dead(pid, 0) ? "" : " (its pid names another process now)");
		cg_targets_clear(&ts);
		return r;
	}
	r = cg_move_many(&ts, &o, &m, 1, NULL, d);
	if (r == 0 && m.state == CG_MOVE_FAILED) {
		cg_move_diag(&ts, &o, &m, d);
		r = m.err < 0 ? m.err : -EIO;
	} else if (r == 0 && m.state == CG_MOVE_GONE) {
		cg_path_display(ts.t[0].path, where, sizeof(where));
		r = cg_diag_say(d, ESRCH, where, ts.t[0].hier->label, "move", "process %d exited",
				(int)pid);
	}
	free(m.seen);
	cg_targets_clear(&ts);
	return r;
}
