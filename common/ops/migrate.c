// SPDX-License-Identifier: MIT
/* Moving processes and threads between cgroups: one write per id, verified (drains: drain.c). */
#include "migrate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "vocab/cpu.h"
#include "cgroups/threaded.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "kernel/proc.h"
#include "base/kparse.h"

/* the membership file of path's cgroup, opened beneath it */
static int membership_open(const struct cg_hier *h, const char *path, bool thread, int flags)
{
	_cleanup_close_ int dfd = cg_hier_open(h, path, O_PATH | O_DIRECTORY);

	if (dfd < 0)
		return dfd;
	return cg_open_beneath(dfd, cg_membership_file(h, thread), flags, 0);
}

int cg_attach_open(const struct cg_hier *h, const char *path, bool thread)
{
	/* cg_open_beneath has checked it is cgroupfs: a file opened to write is never a fixture's */
	return membership_open(h, path, thread, O_WRONLY);
}

int cg_attach_fd(int fd, pid_t id)
{
	char buf[CG_U64_LEN], *p;

	/* not snprintf: its ~700 instructions an id were a third of cgmigrate's user time */
	if (id <= 0)
		return cg_write_fd(fd, buf, (size_t)snprintf(buf, sizeof(buf), "%d", (int)id));
	p = cg_format_u64(buf, (uint64_t)id);
	return cg_write_fd(fd, p, (size_t)(buf + sizeof(buf) - p));
}

/* cgroup2's ENOENT writing into a target that opened: nsdelegate */
static int nsdelegate_diag(struct cg_diag *d, const struct cg_hier *h, const char *where,
			   const char *kind, pid_t id)
{
	return cg_diag_say(
		d, ENOENT, where, h->label, "move",
		"%s %d: No such file or directory (delegation boundary: cgroup2 is mounted with nsdelegate, which makes a cgroup namespace's root one; from inside the namespace no process moves in from outside its root or out to beyond it)",
		kind, (int)id);
}

int cg_attach(const struct cg_hier *h, const char *path, pid_t id, bool thread, struct cg_diag *d)
{
	_cleanup_close_ int fd = cg_attach_open(h, path, thread);
	enum cg_op op = thread ? CG_OP_ATTACH_THREAD : CG_OP_ATTACH;
	char where[PATH_MAX + 2];
	int r;

	cg_path_display(path, where, sizeof(where));
	if (fd < 0)
		return cg_diag_fail(d, -fd, op, h->version, where, h->label, "open %s",
				    cg_membership_file(h, thread));
	r = cg_attach_fd(fd, id);
	if (r < 0 && (r != -ENOENT || h->version != 2))
		return cg_diag_fail(d, -r, op, h->version, where, h->label, "move %s %d",
				    thread ? "thread" : "process", (int)id);
	if (r < 0)
		return nsdelegate_diag(d, h, where, thread ? "thread" : "process", id);
	return 0;
}

bool cg_pids_contain(const pid_t *v, size_t n, pid_t id)
{
	return v && bsearch(&id, v, n, sizeof(pid_t), cg_pid_cmp);
}

static void fail(struct cg_move *m, enum cg_move_step step, int err, size_t target)
{
	m->state = CG_MOVE_FAILED;
	m->step = step;
	m->err = err;
	m->target = target;
}

/*
 * The id is not in the target's listing: ask /proc where it is. Gone when it exited (or is a
 * zombie, which the kernel accepts in cgroup.procs without moving), else a failure.
 */
static void check_missing(const struct cg_target *t, size_t ti, bool thread, struct cg_move *m)
{
	pid_t pid = m->id, tid = 0;
	_cleanup_free_ char *now = NULL;
	int r;

	if (thread) {
		pid = cg_tid_tgid(m->id);
		tid = m->id;
		if (pid < 0) {
			m->state = CG_MOVE_GONE;
			return;
		}
	}
	r = cg_pid_cgroup(t->hier, pid, tid, &now);
	if (r == 0 && !strcmp(now, t->path))
		return; /* it arrived after all: the listing raced with a fork or exec */
	if (cg_task_exiting(pid, tid) || r == -ESRCH) {
		m->state = CG_MOVE_GONE;
		return;
	}
	fail(m, CG_STEP_CHECK, r < 0 ? r : -EXDEV, ti);
	free(m->seen);
	m->seen = r == 0 ? TAKE_PTR(now) : NULL;
}

/*
 * The first target tid (of pid; 0: the process) is not in, 1, with where it is instead (NULL:
 * in no cgroup of that hierarchy); 0 when it is in all; -errno when /proc could not tell.
 */
static int misplaced(const struct cg_targets *t, pid_t pid, pid_t tid, size_t *first_bad,
		     char **ret_actual)
{
	_cleanup_free_ char *text = NULL;
	int r = cg_task_cgroups(pid, tid, &text);

	if (r < 0)
		return r;
	for (size_t i = 0; i < t->n; i++) {
		_cleanup_free_ char *cur = NULL;

		r = cg_kparse_proc_cgroup(text, t->t[i].hier, &cur);
		if (r < 0 && r != -ENOENT)
			return r;
		if (r == 0 && !strcmp(cur, t->t[i].path))
			continue;
		*first_bad = i;
		*ret_actual = r == 0 ? TAKE_PTR(cur) : NULL;
		return 1;
	}
	return 0;
}

int cg_placement_verify(const struct cg_targets *t, pid_t pid, struct cg_diag *d)
{
	_cleanup_free_ char *actual = NULL;
	char where[PATH_MAX + 2];
	size_t bad = 0;
	int r = misplaced(t, pid, 0, &bad, &actual);

	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_READ, 0, "", "", "verify /proc/%d/cgroup",
				    pid ? (int)pid : (int)getpid());
	if (r == 0)
		return 0;
	return cg_diag_say(d, EXDEV, cg_target_name(&t->t[bad], where, sizeof(where)),
			   t->t[bad].hier->label, "verify placement",
			   "/proc/%d/cgroup says the process is in %s%s",
			   pid ? (int)pid : (int)getpid(),
			   actual ? "/" : "no cgroup of this hierarchy", actual ? actual : "");
}

/* where m's task is by /proc: 1 misplaced (m failed), 0 in every target, -errno unknown */
static int landed(const struct cg_targets *t, bool thread, struct cg_move *m)
{
	pid_t pid = thread ? cg_tid_tgid(m->id) : m->id, tid = thread ? m->id : 0;
	_cleanup_free_ char *actual = NULL;
	size_t bad = 0;
	int r = pid > 0 ? misplaced(t, pid, tid, &bad, &actual) : -ESRCH;

	/* a v1 hierarchy shows an exiting task in "/" (proc_cgroup_show): gone, not misplaced,
	 * and the next task answers for the call */
	if (r == 1 && cg_task_exiting(pid, tid)) {
		m->state = CG_MOVE_GONE;
		return -ESRCH;
	}
	if (r == 1) {
		fail(m, CG_STEP_CHECK, -EXDEV, bad);
		free(m->seen);
		m->seen = TAKE_PTR(actual);
	}
	return r;
}

/*
 * A target's path may not be the cgroup its directory is (another cgroup's directory mounted
 * over it: its listing is then the other one's and lists the id), so once a call the kernel is
 * asked where the first task that arrived is, on every target. Every write went through the
 * same files, so one task in place answers for all; one misplaced, and each is asked.
 */
static void check_landed(const struct cg_targets *t, bool thread, struct cg_move *m, size_t n)
{
	size_t k = 0;
	int r = -ESRCH;

	for (; k < n && r < 0; k++)
		if (m[k].state == CG_MOVE_PENDING)
			r = landed(t, thread, &m[k]);
	for (; r == 1 && k < n; k++)
		if (m[k].state == CG_MOVE_PENDING)
			landed(t, thread, &m[k]);
}

/*
 * A few ids are checked one by one through /proc; for many, one read of the target's listing
 * is far cheaper than a /proc/PID/cgroup per id (which costs more than the move itself).
 */
#define CG_VERIFY_BY_LISTING 8
/* From this many ids on, with several targets, a helper thread reads the first one's listing. */
#define CG_MOVE_HELPER 256

/*
 * The writes are what a move costs, and the first target's write is also the existence
 * check: the kernel looks the id up and answers ESRCH when no task has it. A separate probe
 * per id (getpriority, kill 0) would cost a third of a write again on a paravirtualised
 * kernel and decide nothing more: it would run a moment before the write, and a task reaped
 * in that moment is as gone as one reaped a moment after it.
 *
 * One listing is enough: a write the kernel acknowledged moved every live thread of the
 * process at once, so what a verification finds is a task that was exiting (gone: not in the
 * listing of the first target either) or one another program moved away again, which no
 * check can rule out a moment later. The other targets' writes are checked by their answers.
 * With several targets, a helper thread reads the first one's listing while the writer goes
 * on to the others.
 */
struct move_job {
	const struct cg_targets *t;
	const struct cg_move_opts *o;
	size_t n;
	pid_t **lists;
	size_t *nlists;
	/*
	 * Targets 0..written-1 have all their writes done. The helper sleeps on it: a wait that
	 * yields in a loop would take the second CPU from the writer for the whole move.
	 */
	size_t written;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void read_listing(struct move_job *j, size_t i)
{
	if (j->n > CG_VERIFY_BY_LISTING &&
	    cg_members_read(j->t->t[i].hier, j->t->t[i].path, j->o->thread ? CG_MEMBERS_THREADS : 0,
			    &j->lists[i], &j->nlists[i]) < 0)
		j->lists[i] = NULL;
}

static void *move_helper(void *arg)
{
	struct move_job *j = arg;

	pthread_mutex_lock(&j->lock);
	while (j->written < 1)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	read_listing(j, 0);
	return NULL;
}

int cg_move_many(const struct cg_targets *t, const struct cg_move_opts *o, struct cg_move *m,
		 size_t n, struct cg_move_summary *sum, struct cg_diag *d)
{
	int *fds = calloc(t->n ? t->n : 1, sizeof(int));
	struct move_job j = { .t = t,
			      .o = o,
			      .n = n,
			      .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	struct cg_move_summary s = { 0 };
	_cleanup_free_ pid_t *procs = NULL;
	size_t nprocs = 0;
	pthread_t helper;
	bool helped = false;
	int r = 0;

	j.lists = calloc(t->n ? t->n : 1, sizeof(pid_t *));
	j.nlists = calloc(t->n ? t->n : 1, sizeof(size_t));
	if (!fds || !j.lists || !j.nlists) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < t->n; i++)
		fds[i] = -1;
	for (size_t i = 0; i < t->n; i++) {
		char where[PATH_MAX + 2];

		fds[i] = cg_attach_open(t->t[i].hier, t->t[i].path, o->thread);
		if (fds[i] < 0) {
			cg_path_display(t->t[i].path, where, sizeof(where));
			r = cg_diag_fail(d, -fds[i], o->thread ? CG_OP_ATTACH_THREAD : CG_OP_ATTACH,
					 t->t[i].hier->version, where, t->t[i].hier->label,
					 "open %s", cg_membership_file(t->t[i].hier, o->thread));
			goto out;
		}
	}
	for (size_t k = 0; k < n; k++)
		m[k].state = CG_MOVE_PENDING;
	if (!o->no_verify && t->n > 1 && n >= CG_MOVE_HELPER &&
	    pthread_create(&helper, NULL, move_helper, &j) == 0)
		helped = true;
	for (size_t i = 0; i < t->n; i++) {
		for (size_t k = 0; k < n; k++) {
			if (m[k].state != CG_MOVE_PENDING)
				continue;
			r = cg_attach_fd(fds[i], m[k].id);
			/*
			 * No task has the id at its first write: a given id never existed (or
			 * was reaped before its turn, which nothing can tell apart), a listed
			 * one exited since the listing. At a later target it exited mid-move.
			 */
			if (r == -ESRCH && i == 0 && !o->listed && !o->no_verify)
				fail(&m[k], CG_STEP_EXIST, r, 0);
			else if (r == -ESRCH)
				m[k].state = CG_MOVE_GONE;
			else if (r < 0)
				fail(&m[k], CG_STEP_WRITE, r, i);
		}
		if (helped) {
			pthread_mutex_lock(&j.lock);
			j.written = i + 1;
			pthread_cond_signal(&j.cond);
			pthread_mutex_unlock(&j.lock);
		}
	}
	if (helped)
		pthread_join(helper, NULL);
	else if (t->n && !o->no_verify)
		read_listing(&j, 0);
	r = 0;
	for (size_t k = 0; t->n && !o->no_verify && k < n; k++)
		if (m[k].state == CG_MOVE_PENDING &&
		    !cg_pids_contain(j.lists[0], j.nlists[0], m[k].id))
			check_missing(&t->t[0], 0, o->thread, &m[k]);
	if (t->n && !o->no_verify)
		check_landed(t, o->thread, m, n);
	for (size_t k = 0; k < n; k++) {
		switch (m[k].state) {
		case CG_MOVE_PENDING:
			m[k].state = CG_MOVE_ARRIVED;
			s.arrived++;
			if (o->count_threads && !o->thread) {
				int c = cg_thread_count(m[k].id);

				m[k].threads = c > 0 ? (unsigned)c : 0;
				s.threads += m[k].threads;
			}
			break;
		case CG_MOVE_GONE:
			s.gone++;
			break;
		case CG_MOVE_FAILED:
			s.failed++;
			break;
		case CG_MOVE_ARRIVED:
			break;
		}
	}
	if (o->thread && o->count_threads) {
		/* threads moved, and the distinct processes they belong to */
		procs = calloc(s.arrived ? s.arrived : 1, sizeof(pid_t));
		for (size_t k = 0; procs && k < n; k++) {
			pid_t p = m[k].state == CG_MOVE_ARRIVED ? cg_tid_tgid(m[k].id) : -1;

			if (p > 0)
				procs[nprocs++] = p;
		}
		if (nprocs)
			qsort(procs, nprocs, sizeof(pid_t), cg_pid_cmp);
		for (size_t k = 0; k < nprocs; k++)
			if (!k || procs[k] != procs[k - 1])
				s.processes++;
		/*
		 * No memory for the list: the moves are done and must not be reported as none, so
		 * the distinct processes are counted in place (quadratic, only ever on ENOMEM).
		 */
		for (size_t k = 0; !procs && k < n; k++) {
			pid_t p = m[k].state == CG_MOVE_ARRIVED ? cg_tid_tgid(m[k].id) : -1;
			bool seen = false;

			for (size_t i = 0; p > 0 && !seen && i < k; i++)
				seen = m[i].state == CG_MOVE_ARRIVED && cg_tid_tgid(m[i].id) == p;
			if (p > 0 && !seen)
				s.processes++;
		}
		s.threads = s.arrived;
	} else {
		s.processes = s.arrived;
	}
	if (sum)
		*sum = s;
out:
	for (size_t i = 0; fds && i < t->n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	for (size_t i = 0; j.lists && i < t->n; i++)
		free(j.lists[i]);
	free(j.lists);
	free(j.nlists);
	free(fds);
	return r;
}

int cg_move_diag(const struct cg_targets *t, const struct cg_move_opts *o, const struct cg_move *m,
		 struct cg_diag *d)
{
	const struct cg_target *tg = &t->t[m->target < t->n ? m->target : 0];
	enum cg_op op = o->thread ? CG_OP_ATTACH_THREAD : CG_OP_ATTACH;
	const char *kind = o->thread ? "thread" : "process";
	char where[PATH_MAX + 2];

	cg_path_display(tg->path, where, sizeof(where));
	switch (m->step) {
	case CG_STEP_EXIST:
		return cg_diag_say(d, ESRCH, where, tg->hier->label, "move", "no such %s %d", kind,
				   (int)m->id);
	case CG_STEP_CHECK:
		if (m->seen)
			return cg_diag_say(
				d, EXDEV, where, tg->hier->label, "verify",
				"%s %d did not arrive: /proc says it is in /%s (moved again meanwhile, or another cgroup mounted over this path?)",
				kind, (int)m->id, m->seen);
		return cg_diag_fail(d, -m->err, CG_OP_READ, tg->hier->version, where,
				    tg->hier->label, "verify %s %d", kind, (int)m->id);
	case CG_STEP_WRITE:
		break;
	}
	/* EINVAL for a kernel thread is the kernel's rule, not a bad target: say so */
	if (m->err == -EINVAL && cg_task_is_kthread(m->id))
		return cg_diag_say(
			d, EINVAL, where, tg->hier->label, "move",
			"%s %d is a kernel thread (PF_KTHREAD in /proc/%d/stat): kernel threads cannot be moved",
			kind, (int)m->id, (int)m->id);
	/* the kernel's EOPNOTSUPP for a thread says little: name the threaded subtrees involved */
	if (o->thread && tg->hier->version == 2 && (m->err == -EOPNOTSUPP || m->err == -EINVAL)) {
		pid_t tgid = cg_tid_tgid(m->id);

		if (tgid > 0 && cg_thread_move_check(tg->hier, tg->path, tgid, m->id, d) < 0)
			return m->err;
	}
	if (m->err == -ENOENT && tg->hier->version == 2)
		return nsdelegate_diag(d, tg->hier, where, kind, m->id);
	return cg_diag_fail(d, -m->err, op, tg->hier->version, where, tg->hier->label, "move %s %d",
			    kind, (int)m->id);
}

size_t cg_moves_report(const struct cg_targets *t, const struct cg_move_opts *o,
		       const struct cg_move *m, size_t n, cg_diag_fn *on_fail, void *ctx)
{
	size_t failed = 0;

	for (size_t k = 0; k < n; k++) {
		/* cleared only for a failure: zeroing its buffers for each id cost 212 instructions */
		if (m[k].state == CG_MOVE_FAILED) {
			struct cg_diag d = { 0 };

			on_fail(&d, cg_move_diag(t, o, &m[k], &d), ctx);
			failed++;
		}
	}
	return failed;
}

void cg_moves_free(struct cg_move *m, size_t n)
{
	for (size_t k = 0; m && k < n; k++)
		free(m[k].seen);
	free(m);
}
