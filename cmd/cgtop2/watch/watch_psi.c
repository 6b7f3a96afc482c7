// SPDX-License-Identifier: MIT
/*
 * PSI triggers as events (Documentation/accounting/psi.rst, "Monitoring for pressure
 * thresholds"): the --psi-trigger spec (pure, tested and fuzzed), a trigger written to a cgroup2
 * cgroup's RESOURCE.pressure on an fd of its own and polled for POLLPRI beside inotify, the
 * kernel's refusals said as its rules, and the :sample fallback that reads avg10 instead.
 */
#include "watch_psi.h"
#include "watch.h"
#include "watch_core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/kparse.h"
#include "base/parse.h"

static const char *const res_names[CG_PSIR_N] = { "cpu", "memory", "io", "irq" };
static const char *const psi_files[CG_PSIR_N] = { "cpu.pressure", "memory.pressure", "io.pressure",
						  "irq.pressure" };

const char *cg_psi_res_name(enum cg_psi_res r)
{
	return (unsigned)r < CG_PSIR_N ? res_names[r] : NULL;
}

/* Psi.rst's range; kernels from 6.4 take windows under 500 ms too, older ones refuse them. */
#define WINDOW_MIN_US 500000
#define WINDOW_MAX_US 10000000

/* One field of the spec, [p, p + len), as cg_parse_seconds takes it: whole microseconds. */
static int field_us(const char *p, size_t len, uint64_t *ret)
{
	char buf[32];
	uint64_t ns;
	int r;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, p, len);
	buf[len] = '\0';
	r = cg_parse_seconds(buf, &ns);
	if (r < 0)
		return r;
	if (ns % 1000)
		return -EINVAL;
	*ret = ns / 1000;
	return 0;
}

int cg_psi_trigger_parse(const char *spec, struct cg_psi_trigger *ret, const char **ret_why)
{
	struct cg_psi_trigger t = { .res = CG_PSIR_N };
	const char *f[6], *why = NULL;
	size_t len[6], n = 0;
	int r = -EINVAL;

	for (const char *p = spec;; p++) {
		f[n] = p;
		len[n] = strcspn(p, ":");
		p += len[n];
		if (++n == ARRAY_SIZE(f) || !*p)
			break;
	}
	if (n < 4 || n > 5) {
		why = "RESOURCE:some|full:STALL:WINDOW[:sample]";
		goto fail;
	}
	for (int i = 0; i < CG_PSIR_N; i++)
		if (strlen(res_names[i]) == len[0] && !strncmp(f[0], res_names[i], len[0]))
			t.res = i;
	if (t.res == CG_PSIR_N) {
		why = "the resource is cpu, memory, io or irq";
		goto fail;
	}
	if (len[1] == 4 && (!strncmp(f[1], "some", 4) || !strncmp(f[1], "full", 4))) {
		t.full = f[1][0] == 'f';
	} else {
		why = "the second field is some or full";
		goto fail;
	}
	if (t.res == CG_PSIR_IRQ && !t.full) {
		why = "irq.pressure has only a full line";
		goto fail;
	}
	if (n == 5) {
		if (len[4] != 6 || strncmp(f[4], "sample", 6)) {
			why = "the fifth field, if any, is sample";
			goto fail;
		}
		t.sample = true;
	}
	r = field_us(f[2], len[2], &t.stall_us);
	if (r == 0)
		r = field_us(f[3], len[3], &t.window_us);
	if (r < 0) {
		why = "STALL and WINDOW are times: 150ms, 1s, 2.5s (whole microseconds)";
		goto fail;
	}
	if (t.window_us < WINDOW_MIN_US || t.window_us > WINDOW_MAX_US) {
		why = "the window is 500ms to 10s";
		r = -ERANGE;
		goto fail;
	}
	if (t.stall_us > t.window_us) {
		why = "the stall is at most the window";
		r = -ERANGE;
		goto fail;
	}
	*ret = t;
	return 0;
fail:
	if (ret_why)
		*ret_why = why;
	return r;
}

/* ---- kernel triggers ---------------------------------------------------------------------- */

/* CAP_SYS_RESOURCE in the effective set: what decides the kernel's window rule. */
static bool have_sys_resource(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	return d[CAP_SYS_RESOURCE / 32].effective & (1u << (CAP_SYS_RESOURCE % 32));
}

/* What the kernel's refusal of a trigger means, by errno */
static const struct {
	int err;
	const char *why;
} psi_rules[] = {
	{ EINVAL,
	  "the kernel refused the trigger (kernels before 6.4 need a window of 500 ms to 10 s)" },
	{ EACCES,
	  "a trigger is a write to the file, which this user may not write (before 6.5 only root may; from 6.5 the file's owner, with windows a multiple of 2 s)" },
	{ EPERM,
	  "a trigger is a write to the file, which this user may not write (before 6.5 only root may; from 6.5 the file's owner, with windows a multiple of 2 s)" },
	{ EOPNOTSUPP, "PSI is off in this kernel (psi=0 on its command line)" },
	{ EBUSY, "the file already holds a trigger (one per open file)" },
	{ EMFILE,
	  "out of file descriptors: each trigger of each cgroup holds one (ulimit -n, fs.file-max)" },
	{ ENFILE,
	  "out of file descriptors: each trigger of each cgroup holds one (ulimit -n, fs.file-max)" },
	{ ENOENT,
	  "no such file: the kernel has no PSI (CONFIG_PSI off, or psi=0 on its command line), PSI is off for this cgroup (cgroup.pressure 0), or irq.pressure without CONFIG_IRQ_TIME_ACCOUNTING" },
};

/* The kernel refused trigger t on n: the rule, in one line. */
static int psi_refused(struct cg_watch *w, struct wnode *n, const struct cg_psi_trigger *t, int e,
		       const char *file)
{
	const char *label = n->h->h->label;
	char what[64], where[PATH_MAX + 2];

	cg_path_display(n->path, where, sizeof(where));

	snprintf(what, sizeof(what), "PSI trigger %s:%s on %s", res_names[t->res],
		 t->full ? "full" : "some", file);
	if (e == EINVAL && t->window_us % 2000000 && !have_sys_resource())
		return cg_diag_say(
			w->d, e, where, label, what,
			"without CAP_SYS_RESOURCE the kernel (6.5 and later) takes only windows that are a multiple of 2 s, this one is %llu ms",
			(unsigned long long)(t->window_us / 1000));
	for (size_t i = 0; i < ARRAY_SIZE(psi_rules); i++)
		if (psi_rules[i].err == e)
			return cg_diag_say(w->d, e, where, label, what, "%s", psi_rules[i].why);
	return cg_diag_fail(w->d, e, CG_OP_WRITE, 2, where, label, "%s", what);
}

/*
 * Whether the triggers have taken what RLIMIT_NOFILE leaves them (the limit less the caller's
 * fd_reserve), read at each new trigger: a limit lowered meanwhile (prlimit) binds too.
 */
static bool psi_full(const struct cg_watch *w)
{
	struct rlimit rl;

	if (!w->o.fd_reserve || getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return false;
	return w->n_psi + w->o.fd_reserve >= rl.rlim_cur;
}

static int psi_register(struct cg_watch *w, struct wnode *n, size_t i, bool top)
{
	const struct cg_psi_trigger *t = &w->o.triggers[i];
	struct epoll_event ee = { .events = EPOLLPRI };
	const char *file = psi_files[t->res];
	char rel[PATH_MAX], line[64];
	_cleanup_close_ int fd = -1;
	struct efd_slot *s;
	int r;

	if ((size_t)snprintf(rel, sizeof(rel), "%s%s%s", n->path, *n->path ? "/" : "", file) >=
	    sizeof(rel))
		return -ENAMETOOLONG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	*s = (struct efd_slot){ .node = n, .fd = -1, .type = EFD_PSI, .trig = i };
	n->psi[i] = s;
	if (t->sample) {
		w->sampled = true;
		return 0;
	}
	/* as if the kernel had said so: the fds left are the tool's and the files' */
	if (psi_full(w))
		return psi_refused(w, n, t, EMFILE, file);
	fd = cg_hier_open(n->h->h, rel, O_RDWR);
	/* a cgroup removed since it was listed: its IN_DELETE follows */
	if (fd == -ENOENT && !top)
		return 0;
	if (fd < 0)
		return psi_refused(w, n, t, -fd, file);
	/* the kernel takes the line up to its last byte, which is the NUL (psi.rst's example) */
	snprintf(line, sizeof(line), "%s %llu %llu", t->full ? "full" : "some",
		 (unsigned long long)t->stall_us, (unsigned long long)t->window_us);
	r = cg_write_fd(fd, line, strlen(line) + 1);
	if (r == -ENODEV && !top)
		return 0;
	if (r < 0)
		return psi_refused(w, n, t, -r, file);
	ee.data.ptr = s;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ee) < 0)
		return -errno;
	s->fd = TAKE_FD(fd);
	w->n_psi++;
	return 0;
}

int wp_arm(struct cg_watch *w, struct wnode *n)
{
	int r;

	if (!w->o.n_triggers || n->h->h->version != 2 || !(w->o.kinds & (1u << CG_EV_PRESSURE)))
		return 0;
	n->psi = calloc(w->o.n_triggers, sizeof(*n->psi));
	if (!n->psi)
		return -ENOMEM;
	for (size_t i = 0; i < w->o.n_triggers; i++) {
		r = psi_register(w, n, i, n == n->h->top);
		if (r < 0)
			return r;
	}
	return 0;
}

static void psi_close(struct cg_watch *w, struct efd_slot *s)
{
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
		w->n_psi--;
	}
}

void wp_free(struct cg_watch *w, struct wnode *n)
{
	if (!n->psi)
		return;
	for (size_t i = 0; i < w->o.n_triggers; i++)
		if (n->psi[i]) {
			psi_close(w, n->psi[i]);
			free(n->psi[i]);
		}
	free(n->psi);
	n->psi = NULL;
}

/* The event of s's wake-ups: the file's line of its kind as it is now. */
static void psi_emit(struct cg_watch *w, struct efd_slot *s, uint64_t now)
{
	const struct cg_psi_trigger *t = &w->o.triggers[s->trig];
	struct cg_watch_event ev = { .kind = CG_EV_PRESSURE,
				     .source = t->sample ? CG_SRC_SAMPLED : CG_SRC_TRIGGER,
				     .trigger = t,
				     .count = s->wakes };
	char buf[512];
	struct cg_psi p;

	ev.file = psi_files[t->res];
	if (wc_read_file(s->node, ev.file, buf, sizeof(buf)) == 0 && cg_kparse_psi(buf, &p) == 0) {
		ev.avg10 = t->full ? p.full_avg10 : p.some_avg10;
		ev.avg60 = t->full ? p.full_avg60 : p.some_avg60;
		ev.total = t->full ? p.full_total_us : p.some_total_us;
	}
	s->wakes = 0;
	s->last_ns = now;
	wc_emit(w, s->node, &ev);
}

/*
 * A wake-up of s: an event, unless one was given less than a window ago (the kernel limits
 * itself so, a sampled trigger does not); then it waits for the window's end, counted.
 */
static void psi_wake(struct cg_watch *w, struct efd_slot *s, uint64_t now)
{
	uint64_t window_ns = w->o.triggers[s->trig].window_us * 1000;

	s->wakes++;
	if (s->last_ns && now - s->last_ns < window_ns) {
		if (!w->psi_due || s->last_ns + window_ns < w->psi_due)
			w->psi_due = s->last_ns + window_ns;
		return;
	}
	psi_emit(w, s, now);
}

void wp_on_fd(struct cg_watch *w, struct efd_slot *s, uint32_t events)
{
	/* the cgroup is being removed: the kernel dropped the trigger, the fd says so for ever */
	if (events & EPOLLERR) {
		psi_close(w, s);
		return;
	}
	if (events & EPOLLPRI)
		psi_wake(w, s, cg_now_ns());
}

/* Sampled triggers: avg10 of the line at or above stall/window. Due wake-ups: reported. */
static void psi_node(struct cg_watch *w, struct wnode *n, uint64_t now, bool sample)
{
	for (struct wnode *c = n->child; c; c = c->sibling)
		psi_node(w, c, now, sample);
	if (!n->psi)
		return;
	for (size_t i = 0; i < w->o.n_triggers; i++) {
		struct efd_slot *s = n->psi[i];
		const struct cg_psi_trigger *t = &w->o.triggers[i];
		uint64_t window_ns = t->window_us * 1000;

		if (!s)
			continue;
		if (sample && t->sample) {
			char buf[512];
			struct cg_psi p;
			double avg;

			if (wc_read_file(n, psi_files[t->res], buf, sizeof(buf)) == 0 &&
			    cg_kparse_psi(buf, &p) == 0) {
				avg = t->full ? p.full_avg10 : p.some_avg10;
				if (avg * (double)t->window_us >= 100.0 * (double)t->stall_us)
					psi_wake(w, s, now);
			}
		}
		if (s->wakes && now - s->last_ns >= window_ns)
			psi_emit(w, s, now);
		else if (s->wakes && (!w->psi_due || s->last_ns + window_ns < w->psi_due))
			w->psi_due = s->last_ns + window_ns;
	}
}

void wp_tick(struct cg_watch *w, bool sample)
{
	uint64_t now = cg_now_ns();

	if (!sample && (!w->psi_due || now < w->psi_due))
		return;
	w->psi_due = 0;
	for (size_t i = 0; i < w->n_hiers; i++)
		if (w->hiers[i].top && w->hiers[i].h->version == 2)
			psi_node(w, w->hiers[i].top, now, sample);
}
