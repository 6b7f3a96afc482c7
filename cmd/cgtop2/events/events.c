// SPDX-License-Identifier: MIT
/* cgtop2 --events: the watcher's events as lines or JSON, and --exec's commands, one a cgroup. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/cleanup.h"
#include "kernel/mount.h"
#include "tool.h"
#include "watch/watch.h"

#include "pipeline/args.h"
#include "pipeline/pipeline.h"
#include "events.h"
#include "output/render.h"
#include "output/report.h"

/* Events waiting behind a cgroup's running command; more are counted and said, not run. */
#define EXEC_QUEUE 64
/*
 * Events waiting over all cgroups, and their bytes: a storm of new cgroups (each with a queue
 * of its own, which EXEC_QUEUE does not bound) stays a bounded queue, and --timeout's wait
 * for it a bounded wait.
 */
#define EXEC_QUEUED_MAX	  1024
#define EXEC_QUEUED_BYTES (1024 * 1024)
/* fds the PSI triggers leave free: stdio, the signalfd, the files the watcher reads one at a time */
#define EVENTS_FD_RESERVE 32

/* Commands running at once over all cgroups: an event storm does not become a fork storm. */
#define EXEC_RUNNING 16
/* the callback's "stop": -n N events seen */
#define STOP_DONE 2

static const char *const edge_names[] = { NULL, "started", "stopped" };
static const char *const source_names[] = { "inotify", "eventfd", "sampled", "rescan", "trigger" };

/* A queued event: its own variables only, "KEY=VALUE" each ending in a NUL, then a NUL. */
struct qev {
	struct qev *next;
	size_t size;
	char vars[];
};

struct job {
	char *hier, *path; /* the cgroup: a queue per cgroup and hierarchy */
	pid_t pid; /* 0: none running */
	struct qev *head, **tail;
	size_t n;
	uint64_t dropped; /* since the last command started */
	char *event; /* of the running command, for its failure */
	struct job *next;
};

struct ctx {
	const struct events_opts *a;
	struct out o;
	unsigned long seen;
	int err; /* a failed write of the output */
	struct job *jobs;
	size_t running;
	/* over all jobs: what waits, and what the global bound refused (said once, then summed) */
	size_t queued, queued_bytes;
	uint64_t refused;
	bool unwatched_said; /* the first unwatched event's line on stderr: said once */
};

extern char **environ;

/* Now: the ISO 8601 time of the text and of "time", and the JSON's two time keys. */
static void now_times(char *iso, size_t size, char *keys, size_t keys_size)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	json_times(keys, keys_size, (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec, iso,
		   size);
}

static bool is_counter(enum cg_watch_kind k)
{
	return k >= CG_EV_OOM && k != CG_EV_THRESHOLD && k != CG_EV_PRESSURE &&
	       k != CG_EV_UNWATCHED;
}

static void print_event(struct ctx *c, const struct cg_watch_event *ev, const char *when,
			const char *times)
{
	_cleanup_free_ char *path = NULL, *hier = NULL;
	struct out *o = &c->o;

	if (c->a->format == FMT_JSON) {
		out_printf(o,
			   "{\"schema\":\"cgtop2-events/1\",\"time\":\"%s\",%s,\"cgroup\":", when,
			   times);
		put_json_name(o, "cgroup", ev->path);
		out_printf(o, ",\"hierarchy\":");
		put_json_name(o, "hierarchy", ev->hier);
		out_printf(o, ",\"event\":\"%s\",\"count\":%" PRIu64 ",\"source\":\"%s\"",
			   cg_watch_kind_name(ev->kind), ev->count, source_names[ev->source]);
		if (ev->file)
			out_printf(o, ",\"file\":\"%s\"", ev->file);
		if (ev->edge)
			out_printf(o, ",\"state\":\"%s\"", edge_names[ev->edge]);
		if (is_counter(ev->kind))
			out_printf(o, ",\"total\":%" PRIu64, ev->total);
		if (ev->kind == CG_EV_THRESHOLD)
			out_printf(o,
				   ",\"usage\":%" PRIu64 ",\"threshold\":%" PRIu64
				   ",\"direction\":\"%s\"",
				   ev->usage, ev->threshold, ev->above ? "above" : "below");
		if (ev->limit)
			out_printf(o, ",\"limit\":\"%s\"", ev->limit);
		if (ev->kind == CG_EV_PRESSURE)
			out_printf(o,
				   ",\"resource\":\"%s\",\"kind\":\"%s\",\"stall_us\":%" PRIu64
				   ",\"window_us\":%" PRIu64
				   ",\"avg10\":%.2f,\"avg60\":%.2f,\"total_us\":%" PRIu64,
				   cg_psi_res_name(ev->trigger->res),
				   ev->trigger->full ? "full" : "some", ev->trigger->stall_us,
				   ev->trigger->window_us, ev->avg10, ev->avg60, ev->total);
		out_printf(o, "}\n");
		return;
	}
	path = escaped(ev->path, Q_WORD);
	hier = escaped(ev->hier, Q_WORD);
	if (!path || !hier) {
		o->failed = true;
		return;
	}
	out_printf(o, "%s %s %s %s", when, path, hier, cg_watch_kind_name(ev->kind));
	if (is_counter(ev->kind))
		out_printf(o, " count=%" PRIu64 " total=%" PRIu64, ev->count, ev->total);
	if (ev->kind == CG_EV_THRESHOLD)
		out_printf(o, " %s usage=%" PRIu64 " threshold=%" PRIu64 " count=%" PRIu64,
			   ev->above ? "above" : "below", ev->usage, ev->threshold, ev->count);
	if (ev->kind == CG_EV_PRESSURE)
		out_printf(o,
			   " resource=%s kind=%s stall_us=%" PRIu64 " window_us=%" PRIu64
			   " count=%" PRIu64 " avg10=%.2f avg60=%.2f total_us=%" PRIu64,
			   cg_psi_res_name(ev->trigger->res), ev->trigger->full ? "full" : "some",
			   ev->trigger->stall_us, ev->trigger->window_us, ev->count, ev->avg10,
			   ev->avg60, ev->total);
	if (ev->limit)
		out_printf(o, " limit=%s", ev->limit);
	if (ev->edge)
		out_printf(o, " state=%s", edge_names[ev->edge]);
	if (ev->source != CG_SRC_INOTIFY)
		out_printf(o, " source=%s", source_names[ev->source]);
	out_printf(o, "\n");
}

/* ---- --exec ------------------------------------------------------------------------------ */

/* Append "KEY=VALUE\0" to q's variables (grown as needed): false without memory. */
static bool __attribute__((format(printf, 2, 3))) qev_put(struct qev **q, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;
	struct qev *nq;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		return false;
	nq = realloc(*q, sizeof(**q) + (*q ? (*q)->size : 0) + (size_t)len + 2);
	if (!nq) {
		free(s);
		return false;
	}
	if (!*q)
		nq->size = 0;
	*q = nq;
	memcpy(nq->vars + nq->size, s, (size_t)len + 1);
	nq->size += (size_t)len + 1;
	nq->vars[nq->size] = '\0';
	free(s);
	return true;
}

/* The event's own variables, for a command to come: NULL without memory. */
static struct qev *event_vars(const struct cg_watch_event *ev, const char *when)
{
	struct qev *q = NULL;
	bool ok;

	ok = qev_put(&q, "CGROUP=%s", ev->path) &&
	     qev_put(&q, "CGROUP_EVENT=%s", cg_watch_kind_name(ev->kind)) &&
	     qev_put(&q, "CGROUP_HIERARCHY=%s", ev->hier) &&
	     qev_put(&q, "CGROUP_DIR=%s%s", ev->mountpoint,
		     strcmp(ev->path, "/") ? ev->path : "") &&
	     qev_put(&q, "CGROUP_COUNT=%" PRIu64, ev->count) &&
	     qev_put(&q, "CGROUP_TIME=%s", when) &&
	     qev_put(&q, "CGROUP_SOURCE=%s", source_names[ev->source]);
	if (ok && ev->file)
		ok = qev_put(&q, "CGROUP_FILE=%s", ev->file);
	if (ok && ev->edge)
		ok = qev_put(&q, "CGROUP_STATE=%s", edge_names[ev->edge]);
	if (ok && ev->limit)
		ok = qev_put(&q, "CGROUP_LIMIT=%s", ev->limit);
	if (ok && is_counter(ev->kind))
		ok = qev_put(&q, "CGROUP_TOTAL=%" PRIu64, ev->total);
	if (ok && ev->kind == CG_EV_THRESHOLD)
		ok = qev_put(&q, "CGROUP_USAGE=%" PRIu64, ev->usage) &&
		     qev_put(&q, "CGROUP_THRESHOLD=%" PRIu64, ev->threshold) &&
		     qev_put(&q, "CGROUP_DIRECTION=%s", ev->above ? "above" : "below");
	if (ok && ev->kind == CG_EV_PRESSURE)
		ok = qev_put(&q, "CGROUP_PSI_RESOURCE=%s", cg_psi_res_name(ev->trigger->res)) &&
		     qev_put(&q, "CGROUP_PSI_KIND=%s", ev->trigger->full ? "full" : "some") &&
		     qev_put(&q, "CGROUP_PSI_STALL_US=%" PRIu64, ev->trigger->stall_us) &&
		     qev_put(&q, "CGROUP_PSI_WINDOW_US=%" PRIu64, ev->trigger->window_us) &&
		     qev_put(&q, "CGROUP_PSI_AVG10=%.2f", ev->avg10) &&
		     qev_put(&q, "CGROUP_PSI_AVG60=%.2f", ev->avg60) &&
		     qev_put(&q, "CGROUP_PSI_TOTAL_US=%" PRIu64, ev->total);
	if (!ok) {
		free(q);
		return NULL;
	}
	return q;
}

/*
 * The command's environment: the event's variables, dropped (if any), then cgtop2's own less
 * any CGROUP*; pointers into q and environ, NULL without memory.
 */
static char **event_env(const struct qev *q, const char *dropped)
{
	size_t n = 2, k = 0;
	char **env;

	for (const char *p = q->vars; *p; p += strlen(p) + 1)
		n++;
	for (char **e = environ; *e; e++)
		n++;
	env = calloc(n, sizeof(*env));
	if (!env)
		return NULL;
	for (const char *p = q->vars; *p; p += strlen(p) + 1)
		env[k++] = (char *)p;
	if (dropped)
		env[k++] = (char *)dropped;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "CGROUP", 6))
			env[k++] = *e;
	return env;
}

static const char *qev_get(const struct qev *q, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = q->vars; *p; p += strlen(p) + 1)
		if (!strncmp(p, key, kl) && p[kl] == '=')
			return p + kl + 1;
	return "";
}

static void __attribute__((format(printf, 2, 3))) job_say(const struct job *j, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tool_say("cgroup %s (%s): --exec: %s", j->path, j->hier, msg);
}

/* j's first queued event, taken off the queue (the caller frees it). */
static struct qev *job_pop(struct ctx *c, struct job *j)
{
	struct qev *q = j->head;

	j->head = q->next;
	if (!j->head)
		j->tail = &j->head;
	j->n--;
	c->queued--;
	c->queued_bytes -= q->size;
	return q;
}

/* Start j's next queued command; a spawn that fails is said and the next one tried. */
static void job_start(struct ctx *c, struct job *j)
{
	static const int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	posix_spawnattr_t at;
	posix_spawn_file_actions_t fa;
	sigset_t none, def;

	while (!j->pid && j->n && c->running < EXEC_RUNNING) {
		_cleanup_free_ struct qev *q = job_pop(c, j);
		_cleanup_free_ char **env = NULL;
		char *argv[] = { "sh", "-c", (char *)c->a->exec, NULL };
		char dropped[48] = "";
		int r;

		/* the events the queue could not hold, told to the next command that runs */
		if (j->dropped) {
			job_say(j, "%" PRIu64 " events not run (queue full)", j->dropped);
			snprintf(dropped, sizeof(dropped), "CGROUP_DROPPED=%" PRIu64, j->dropped);
			j->dropped = 0;
		}
		free(j->event);
		j->event = strdup(qev_get(q, "CGROUP_EVENT"));
		env = event_env(q, dropped[0] ? dropped : NULL);
		if (!env) {
			job_say(j, "start /bin/sh for %s: %s", j->event ? j->event : "?",
				strerror(ENOMEM));
			continue;
		}
		sigemptyset(&none);
		sigemptyset(&def);
		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
			sigaddset(&def, sigs[i]);
		posix_spawnattr_init(&at);
		posix_spawnattr_setsigmask(&at, &none);
		posix_spawnattr_setsigdefault(&at, &def);
		posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
		/* standard output is the event stream (-F json | jq): a command's text goes to stderr */
		posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
		r = posix_spawn(&j->pid, "/bin/sh", &fa, &at, argv, env);
		posix_spawn_file_actions_destroy(&fa);
		posix_spawnattr_destroy(&at);
		if (r) {
			j->pid = 0;
			job_say(j, "start /bin/sh for %s: %s", j->event ? j->event : "?",
				strerror(r));
			continue;
		}
		c->running++;
	}
}

static void job_free(struct ctx *c, struct job *j)
{
	while (j->n)
		free(job_pop(c, j));
	free(j->path);
	free(j->hier);
	free(j->event);
	free(j);
}

static void exec_event(struct ctx *c, const struct cg_watch_event *ev, const char *when)
{
	struct job *j;
	struct qev *q;

	for (j = c->jobs; j; j = j->next)
		if (!strcmp(j->path, ev->path) && !strcmp(j->hier, ev->hier))
			break;
	if (j && j->n == EXEC_QUEUE) {
		j->dropped++;
		return;
	}
	q = event_vars(ev, when);
	/* the whole queue is full (or memory is out): counted, said once, summed at the end */
	if (!q || c->queued >= EXEC_QUEUED_MAX || c->queued_bytes + q->size > EXEC_QUEUED_BYTES) {
		if (!c->refused++)
			tool_say(
				"--exec: %zu events (%zu bytes) wait for their commands, the most cgtop2 queues: the events from now on that find the queue full are not run, only counted",
				c->queued, c->queued_bytes);
		free(q);
		return;
	}
	if (!j) {
		j = calloc(1, sizeof(*j));
		if (!j || !(j->path = strdup(ev->path)) || !(j->hier = strdup(ev->hier))) {
			if (j)
				free(j->path);
			free(j);
			free(q);
			c->refused++;
			return;
		}
		j->tail = &j->head;
		j->next = c->jobs;
		c->jobs = j;
	}
	q->next = NULL;
	*j->tail = q;
	j->tail = &q->next;
	j->n++;
	c->queued++;
	c->queued_bytes += q->size;
	job_start(c, j);
}

/* Reap what ended; say what failed; start what waits. */
static void exec_reap(struct ctx *c)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (struct job *j = c->jobs; j; j = j->next) {
			if (j->pid != pid)
				continue;
			j->pid = 0;
			c->running--;
			if (WIFEXITED(status) && WEXITSTATUS(status))
				job_say(j, "the command for %s exited with status %d",
					j->event ? j->event : "?", WEXITSTATUS(status));
			else if (WIFSIGNALED(status))
				job_say(j, "the command for %s was killed by signal %d (%s)",
					j->event ? j->event : "?", WTERMSIG(status),
					strsignal(WTERMSIG(status)));
			break;
		}
	}
	for (struct job **p = &c->jobs; *p;) {
		struct job *j = *p;

		job_start(c, j);
		if (!j->pid && !j->n) {
			/* nothing left to run that could tell it */
			if (j->dropped)
				job_say(j, "%" PRIu64 " events not run (out of memory)",
					j->dropped);
			*p = j->next;
			job_free(c, j);
		} else {
			p = &j->next;
		}
	}
}

/* A signal: what waits is not run, said in one line over all cgroups. */
static void exec_drop_queued(struct ctx *c)
{
	size_t cgroups = 0, queued = c->queued;
	uint64_t dropped = c->refused;

	for (struct job *j = c->jobs; j; j = j->next) {
		cgroups += j->n > 0;
		dropped += j->dropped;
		j->dropped = 0;
		while (j->n)
			free(job_pop(c, j));
	}
	c->refused = 0;
	if (queued && dropped)
		tool_say("--exec: %zu queued events of %zu %s not run (interrupted); %" PRIu64
			 " more were not run (queue full)",
			 queued, cgroups, tool_plural(cgroups, "cgroup", "cgroups"), dropped);
	else if (queued)
		tool_say("--exec: %zu queued events of %zu %s not run (interrupted)", queued,
			 cgroups, tool_plural(cgroups, "cgroup", "cgroups"));
	else if (dropped)
		tool_say("--exec: %" PRIu64 " events not run (queue full)", dropped);
}

/* ---- the loop ---------------------------------------------------------------------------- */

/*
 * The first cgroup the watcher could not watch, once on stderr (the others are events only):
 * a user who makes cgroups in the subtree can reach the limit, and is not to flood the log.
 */
static void say_unwatched(struct ctx *c, const struct cg_watch_event *ev)
{
	_cleanup_free_ char *path = escaped(ev->path, Q_TABLE);
	const char *why = !strcmp(ev->limit, "inotify_watches")
				  ? "out of inotify watches (fs.inotify.max_user_watches)"
			  : !strcmp(ev->limit, "file_max") ? "out of file descriptors (fs.file-max)"
							   : "out of file descriptors (ulimit -n)";

	if (c->unwatched_said)
		return;
	c->unwatched_said = true;
	tool_say(
		"cgroup %s (%s): not watched: %s; what is watched still is, and each cgroup not watched is an unwatched event",
		path ? path : "?", ev->hier, why);
}

static int on_event(const struct cg_watch_event *ev, void *userdata)
{
	struct ctx *c = userdata;
	char when[40], times[128];

	if (ev->kind == CG_EV_UNWATCHED)
		say_unwatched(c, ev);
	now_times(when, sizeof(when), times, sizeof(times));
	print_event(c, ev, when, times);
	if (c->a->exec)
		exec_event(c, ev, when);
	c->seen++;
	return c->a->iterations && c->seen >= c->a->iterations ? STOP_DONE : 0;
}

static void say_watch_error(const struct events_opts *a, struct cg_diag *d, int r)
{
	if (d->why[0])
		tool_report(d, r);
	else
		report_errno(a->watch.path, "watch", r);
}

/*
 * --events as a sink of the scheduler (pipeline.h), with no source: its wait is the watcher's
 * and the signalfd's (SIGCHLD of --exec's commands, the stop signals), its put takes in what
 * came. done: no more events (-n, --timeout, a signal, the cgroup gone, a failure), the queued
 * commands still reaped unless a signal said stop.
 */
struct events_sink {
	struct sink k;
	struct ctx *c;
	struct cg_watch *w;
	struct cg_diag *d;
	int sfd;
	uint64_t deadline; /* --timeout's, monotonic; 0: none */
	bool waited, done, interrupted;
	struct pollfd p[1];
	int ret;
};

static int events_wait(struct sink *k, uint64_t deadline_ns)
{
	struct events_sink *es = (struct events_sink *)k;
	uint64_t until = UINT64_MAX;
	int tmo = es->done ? -1 : cg_watch_timeout_ms(es->w), r;

	(void)deadline_ns; /* paused: the scheduler's clock has nothing due for a sink with no source */
	if (tmo >= 0)
		until = cg_now_ns() + (uint64_t)tmo * NSEC_PER_MSEC;
	if (!es->done && es->deadline && es->deadline < until)
		until = es->deadline;
	es->p[0] = (struct pollfd){ .fd = es->sfd, .events = POLLIN };
	es->waited = true;
	r = pipeline_wait(es->done ? NULL : es->w, es->p, 1, until);
	if (r < 0) {
		es->ret = report_errno(es->c->a->watch.path, "poll", r);
		return PIPE_STOP;
	}
	return PIPE_CLOCK;
}

static int events_put(struct sink *k, int step, int r, const struct source_sample *smp)
{
	struct events_sink *es = (struct events_sink *)k;
	struct ctx *c = es->c;
	const struct events_opts *a = c->a;

	(void)step;
	(void)smp;
	/* told once before the first wait: nothing came yet */
	if (!es->waited)
		return 0;
	if (es->p[0].revents & POLLIN) {
		struct signalfd_siginfo si;

		while (read(es->sfd, &si, sizeof(si)) == sizeof(si))
			if (si.ssi_signo != SIGCHLD) {
				es->interrupted = es->done = true;
				exec_drop_queued(c);
			}
		exec_reap(c);
	}
	if (!es->done) {
		size_t before = cg_watch_overflows(es->w);

		r = cg_watch_process(es->w, on_event, c, es->d);
		if (cg_watch_overflows(es->w) != before)
			tool_say(
				"the inotify queue overflowed (fs.inotify.max_queued_events): rescanned, what differs is reported with source=rescan");
		if (r < 0) {
			say_watch_error(a, es->d, r);
			es->ret = 1;
			es->done = true;
		} else if (r > 0) {
			es->done = true;
		}
		if (es->deadline && cg_now_ns() >= es->deadline)
			es->done = true;
	}
	/* a queue whose commands could not start has no SIGCHLD to wait for */
	if (es->done && c->jobs)
		exec_reap(c);
	r = out_flush(&c->o, STDOUT_FILENO);
	if (r < 0) {
		es->ret = out_stdout_failed(r) ? 1 : es->ret;
		es->done = es->interrupted = true;
	}
	return es->done && (!c->jobs || es->interrupted) ? 1 : 0;
}

static const struct sink_ops events_ops = { .put = events_put, .wait = events_wait };

int events_run(const struct events_opts *a, const struct cg_layout *l)
{
	struct cg_watch_opts wo = a->watch;
	struct ctx c = { .a = a, .o = { .fd = STDOUT_FILENO } };
	struct cg_diag d = { 0 };
	struct cg_watch *w = NULL;
	_cleanup_close_ int sfd = -1;
	struct events_sink es;
	sigset_t mask, old;
	uint64_t deadline = a->timeout_ns ? cg_now_ns() + a->timeout_ns : 0;
	int r, ret;

	wo.fd_reserve = EVENTS_FD_RESERVE;
	/* a threshold outside the subtree would never fire: say so rather than wait for it */
	for (size_t i = 0; i < a->watch.n_thresholds; i++) {
		const char *t = a->watch.thresholds[i].path;
		size_t pl = strlen(a->watch.path);

		if (pl && (strncmp(t, a->watch.path, pl) || (t[pl] && t[pl] != '/'))) {
			char ts[PATH_MAX + 2], ws[PATH_MAX + 2];

			tool_say("--memory-threshold %s: not in the watched subtree %s",
				 cg_path_display(t, ts, sizeof(ts)),
				 cg_path_display(a->watch.path, ws, sizeof(ws)));
			return TOOL_EXIT_USAGE;
		}
	}
	/* signals arrive on the poll loop: SIGCHLD of --exec's commands, the stop signals */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		r = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		return report_errno(a->watch.path, "signalfd", r);
	}
	r = cg_watch_new(l, &wo, &w, &d);
	if (r < 0) {
		char ws[PATH_MAX + 2];

		if (r == -ENOENT && !d.why[0])
			tool_say("cgroup %s: watch: no such cgroup in any mounted hierarchy",
				 cg_path_display(a->watch.path, ws, sizeof(ws)));
		else
			say_watch_error(a, &d, r);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	if (a->verbose && a->watch.n_triggers)
		tool_say("watching %zu %s with %zu inotify %s and %zu PSI %s", cg_watch_cgroups(w),
			 tool_plural(cg_watch_cgroups(w), "cgroup", "cgroups"), cg_watch_watches(w),
			 tool_plural(cg_watch_watches(w), "watch", "watches"), cg_watch_triggers(w),
			 tool_plural(cg_watch_triggers(w), "trigger", "triggers"));
	else if (a->verbose)
		tool_say("watching %zu %s with %zu inotify %s", cg_watch_cgroups(w),
			 tool_plural(cg_watch_cgroups(w), "cgroup", "cgroups"), cg_watch_watches(w),
			 tool_plural(cg_watch_watches(w), "watch", "watches"));
	es = (struct events_sink){ .k = { .ops = &events_ops, .paused = true },
				   .c = &c,
				   .w = w,
				   .d = &d,
				   .sfd = sfd,
				   .deadline = deadline };
	(void)pipeline_run(NULL, &es.k, SOURCE_NEXT, 0);
	ret = es.ret;
	/* the events the whole queue refused, when no signal said them */
	if (c.refused)
		tool_say("--exec: %" PRIu64 " events not run (queue full)", c.refused);
	/* what still runs is the user's: left to finish, not waited for after a signal */
	for (struct job *j = c.jobs, *next; j; j = next) {
		next = j->next;
		job_free(&c, j);
	}
	free(c.o.s);
	cg_watch_free(w);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
