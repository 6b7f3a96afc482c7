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

#include "cleanup.h"
#include "mount.h"
#include "tool.h"
#include "watch.h"

#include "cgtop2.h"

/* Events waiting behind a cgroup's running command; more are counted and said, not run. */
#define EXEC_QUEUE 64
/* Commands running at once over all cgroups: an event storm does not become a fork storm. */
#define EXEC_RUNNING 16
/* the callback's "stop": -n N events seen */
#define STOP_DONE 2

static const char *const source_names[] = { "inotify", "eventfd", "sampled", "rescan" };

struct job {
	char *hier, *path; /* the cgroup: a queue per cgroup and hierarchy */
	pid_t pid; /* 0: none running */
	char **queue[EXEC_QUEUE]; /* each an environment */
	size_t head, n;
	uint64_t dropped; /* since the last command started */
	char *event; /* of the running command, for its failure */
	struct job *next;
};

struct ctx {
	const struct cgtop2_args *a;
	struct out o;
	unsigned long seen;
	int err; /* a failed write of the output */
	struct job *jobs;
	size_t running;
};

extern char **environ;

static void now_iso(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
}

static bool is_counter(enum cg_watch_kind k)
{
	return k >= CG_EV_OOM && k != CG_EV_THRESHOLD;
}

static void print_event(struct ctx *c, const struct cg_watch_event *ev, const char *when)
{
	_cleanup_free_ char *path = NULL, *hier = NULL;
	bool json = c->a->format == FMT_JSON;
	enum quoting q = json ? Q_JSON : Q_TABLE;
	struct out *o = &c->o;

	path = escaped(ev->path, q);
	hier = escaped(ev->hier, q);
	if (!path || !hier) {
		o->failed = true;
		return;
	}
	if (json) {
		out_printf(
			o,
			"{\"schema\":\"cgtop2-events/1\",\"time\":\"%s\",\"cgroup\":\"%s\",\"hierarchy\":\"%s\",\"event\":\"%s\",\"count\":%" PRIu64
			",\"source\":\"%s\"",
			when, path, hier, cg_watch_kind_name(ev->kind), ev->count,
			source_names[ev->source]);
		if (ev->file)
			out_printf(o, ",\"file\":\"%s\"", ev->file);
		if (is_counter(ev->kind))
			out_printf(o, ",\"total\":%" PRIu64, ev->total);
		if (ev->kind == CG_EV_THRESHOLD)
			out_printf(o,
				   ",\"usage\":%" PRIu64 ",\"threshold\":%" PRIu64
				   ",\"direction\":\"%s\"",
				   ev->usage, ev->threshold, ev->above ? "above" : "below");
		out_printf(o, "}\n");
		return;
	}
	out_printf(o, "%s %s %s %s", when, path, hier, cg_watch_kind_name(ev->kind));
	if (is_counter(ev->kind))
		out_printf(o, " count=%" PRIu64 " total=%" PRIu64, ev->count, ev->total);
	if (ev->kind == CG_EV_THRESHOLD)
		out_printf(o, " %s usage=%" PRIu64 " threshold=%" PRIu64 " count=%" PRIu64,
			   ev->above ? "above" : "below", ev->usage, ev->threshold, ev->count);
	if (ev->source != CG_SRC_INOTIFY)
		out_printf(o, " source=%s", source_names[ev->source]);
	out_printf(o, "\n");
}

/* ---- --exec ------------------------------------------------------------------------------ */

static void env_free(char **env)
{
	if (env)
		for (char **e = env; *e; e++)
			free(*e);
	free(env);
}

/* The process's environment and the event's, for the command: NULL without memory. */
static char **event_env(const struct cg_watch_event *ev, const char *when)
{
	size_t n = 0, k = 0;
	char **env, num[5][32];
	const char *name = cg_watch_kind_name(ev->kind);

	for (char **e = environ; *e; e++)
		n++;
	env = calloc(n + 16, sizeof(*env));
	if (!env)
		return NULL;
	snprintf(num[0], sizeof(num[0]), "%" PRIu64, ev->count);
	snprintf(num[1], sizeof(num[1]), "%" PRIu64, ev->total);
	snprintf(num[2], sizeof(num[2]), "%" PRIu64, ev->usage);
	snprintf(num[3], sizeof(num[3]), "%" PRIu64, ev->threshold);
#define PUT(fmt, ...)                                                                              \
	do {                                                                                       \
		if (asprintf(&env[k], fmt, __VA_ARGS__) < 0) {                                     \
			env[k] = NULL;                                                             \
			goto fail;                                                                 \
		}                                                                                  \
		k++;                                                                               \
	} while (0)
	PUT("CGROUP=%s", ev->path);
	PUT("CGROUP_EVENT=%s", name);
	PUT("CGROUP_HIERARCHY=%s", ev->hier);
	PUT("CGROUP_DIR=%s%s", ev->mountpoint, strcmp(ev->path, "/") ? ev->path : "");
	PUT("CGROUP_COUNT=%s", num[0]);
	PUT("CGROUP_TIME=%s", when);
	PUT("CGROUP_SOURCE=%s", source_names[ev->source]);
	if (ev->file)
		PUT("CGROUP_FILE=%s", ev->file);
	if (is_counter(ev->kind))
		PUT("CGROUP_TOTAL=%s", num[1]);
	if (ev->kind == CG_EV_THRESHOLD) {
		PUT("CGROUP_USAGE=%s", num[2]);
		PUT("CGROUP_THRESHOLD=%s", num[3]);
		PUT("CGROUP_DIRECTION=%s", ev->above ? "above" : "below");
	}
#undef PUT
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "CGROUP", 6) && !(env[k++] = strdup(*e)))
			goto fail;
	return env;
fail:
	env_free(env);
	return NULL;
}

static const char *env_get(char **env, const char *key)
{
	size_t kl = strlen(key);

	for (; *env; env++)
		if (!strncmp(*env, key, kl) && (*env)[kl] == '=')
			return *env + kl + 1;
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

/* Start j's next queued command; a spawn that fails is said and the next one tried. */
static void job_start(struct ctx *c, struct job *j)
{
	static const int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	posix_spawnattr_t at;
	posix_spawn_file_actions_t fa;
	sigset_t none, def;

	while (!j->pid && j->n && c->running < EXEC_RUNNING) {
		char **env = j->queue[j->head];
		char *argv[] = { "sh", "-c", (char *)c->a->exec, NULL };
		char dropped[48];
		int r;

		j->head = (j->head + 1) % EXEC_QUEUE;
		j->n--;
		/* the events the queue could not hold, told to the next command that runs */
		if (j->dropped) {
			char **end = env;

			job_say(j, "%" PRIu64 " events not run (queue full)", j->dropped);
			snprintf(dropped, sizeof(dropped), "CGROUP_DROPPED=%" PRIu64, j->dropped);
			/* event_env left room for it */
			while (*end)
				end++;
			*end = strdup(dropped);
			j->dropped = 0;
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
		r = posix_spawn(&j->pid, "/bin/sh", &fa, &at, argv, env);
		posix_spawn_file_actions_destroy(&fa);
		posix_spawnattr_destroy(&at);
		free(j->event);
		j->event = strdup(env_get(env, "CGROUP_EVENT"));
		env_free(env);
		if (r) {
			j->pid = 0;
			job_say(j, "start /bin/sh for %s: %s", j->event ? j->event : "?",
				strerror(r));
			continue;
		}
		c->running++;
	}
}

static void exec_event(struct ctx *c, const struct cg_watch_event *ev, const char *when)
{
	struct job *j;
	char **env;

	for (j = c->jobs; j; j = j->next)
		if (!strcmp(j->path, ev->path) && !strcmp(j->hier, ev->hier))
			break;
	if (!j) {
		j = calloc(1, sizeof(*j));
		if (!j || !(j->path = strdup(ev->path)) || !(j->hier = strdup(ev->hier))) {
			if (j)
				free(j->path);
			free(j);
			tool_say("--exec: %s", strerror(ENOMEM));
			return;
		}
		j->next = c->jobs;
		c->jobs = j;
	}
	if (j->n == EXEC_QUEUE) {
		j->dropped++;
		return;
	}
	env = event_env(ev, when);
	if (!env) {
		j->dropped++;
		return;
	}
	j->queue[(j->head + j->n) % EXEC_QUEUE] = env;
	j->n++;
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
			free(j->path);
			free(j->hier);
			free(j->event);
			free(j);
		} else {
			p = &j->next;
		}
	}
}

static void exec_drop_queued(struct ctx *c)
{
	for (struct job *j = c->jobs; j; j = j->next) {
		if (j->n)
			job_say(j, "%zu queued events not run (interrupted)", j->n);
		while (j->n) {
			env_free(j->queue[j->head]);
			j->head = (j->head + 1) % EXEC_QUEUE;
			j->n--;
		}
		j->dropped = 0;
	}
}

/* ---- the loop ---------------------------------------------------------------------------- */

static int on_event(const struct cg_watch_event *ev, void *userdata)
{
	struct ctx *c = userdata;
	char when[80];

	now_iso(when, sizeof(when));
	print_event(c, ev, when);
	if (c->a->exec)
		exec_event(c, ev, when);
	c->seen++;
	return c->a->iterations && c->seen >= c->a->iterations ? STOP_DONE : 0;
}

static void say_watch_error(const struct cgtop2_args *a, struct cg_diag *d, int r)
{
	if (d->why[0])
		tool_report(d, r);
	else
		report_errno(a, "watch", r);
}

int events_run(const struct cgtop2_args *a, const struct cg_layout *l)
{
	struct cg_watch_opts wo = {
		.path = a->path,
		.kinds = a->event_kinds ? a->event_kinds : CG_EV_ALL,
		.interval_ns = a->delay_ns,
		.thresholds = a->thresholds,
		.n_thresholds = a->n_thresholds,
	};
	struct ctx c = { .a = a, .o = { .fd = STDOUT_FILENO } };
	struct cg_diag d = { 0 };
	struct cg_watch *w = NULL;
	_cleanup_close_ int sfd = -1;
	sigset_t mask, old;
	uint64_t deadline = a->timeout_ns ? cg_now_ns() + a->timeout_ns : 0;
	bool done = false, interrupted = false;
	int r, ret = 0;

	/* a threshold outside the subtree would never fire: say so rather than wait for it */
	for (size_t i = 0; i < a->n_thresholds; i++) {
		const char *t = a->thresholds[i].path;
		size_t pl = strlen(a->path);

		if (pl && (strncmp(t, a->path, pl) || (t[pl] && t[pl] != '/'))) {
			tool_say("--memory-threshold /%s: not in the watched subtree /%s", t,
				 a->path);
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
		return report_errno(a, "signalfd", r);
	}
	r = cg_watch_new(l, &wo, &w, &d);
	if (r < 0) {
		if (r == -ENOENT && !d.why[0])
			tool_say("cgroup /%s: watch: no such cgroup in any mounted hierarchy",
				 a->path);
		else
			say_watch_error(a, &d, r);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	if (a->verbose)
		tool_say("watching %zu %s with %zu inotify %s", cg_watch_cgroups(w),
			 tool_plural(cg_watch_cgroups(w), "cgroup", "cgroups"), cg_watch_watches(w),
			 tool_plural(cg_watch_watches(w), "watch", "watches"));
	while (!done || (c.jobs && !interrupted)) {
		struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
				       { .fd = done ? -1 : cg_watch_fd(w), .events = POLLIN } };
		int tmo = done ? -1 : cg_watch_timeout_ms(w);

		if (!done && deadline) {
			uint64_t now = cg_now_ns();
			int left = now >= deadline ? 0
						   : (int)((deadline - now + NSEC_PER_MSEC - 1) /
							   NSEC_PER_MSEC);

			if (tmo < 0 || left < tmo)
				tmo = left;
		}
		if (poll(p, 2, tmo) < 0 && errno != EINTR) {
			ret = report_errno(a, "poll", -errno);
			break;
		}
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD) {
					interrupted = done = true;
					exec_drop_queued(&c);
				}
			exec_reap(&c);
		}
		if (!done) {
			size_t before = cg_watch_overflows(w);

			r = cg_watch_process(w, on_event, &c, &d);
			if (cg_watch_overflows(w) != before)
				tool_say(
					"the inotify queue overflowed (fs.inotify.max_queued_events): rescanned, what differs is reported with source=rescan");
			if (r < 0) {
				say_watch_error(a, &d, r);
				ret = 1;
				done = true;
			} else if (r > 0) {
				done = true;
			}
			if (deadline && cg_now_ns() >= deadline)
				done = true;
		}
		/* a queue whose commands could not start has no SIGCHLD to wait for */
		if (done && c.jobs)
			exec_reap(&c);
		r = out_flush(&c.o, STDOUT_FILENO);
		if (r < 0) {
			ret = out_stdout_failed(r) ? 1 : ret;
			done = interrupted = true;
		}
	}
	/* what still runs is the user's: left to finish, not waited for after a signal */
	for (struct job *j = c.jobs, *next; j; j = next) {
		next = j->next;
		for (size_t i = 0; i < j->n; i++)
			env_free(j->queue[(j->head + i) % EXEC_QUEUE]);
		free(j->path);
		free(j->hier);
		free(j->event);
		free(j);
	}
	free(c.o.s);
	cg_watch_free(w);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
