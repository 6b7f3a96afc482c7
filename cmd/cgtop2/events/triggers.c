// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen --psi-trigger and the screen's: the wake-ups of PSI triggers on every cgroup2
 * cgroup watched, counted by resource and some/full on a thread of their own (the watcher polls;
 * the server's threads and the screen only read) for cgroup_pressure_trigger_events_total, and
 * when each cgroup's fired last, for the screen's mark.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "tool.h"
#include "watch/watch.h"

#include "pipeline/args.h"
#include "output/report.h"
#include "triggers.h"

struct trig_counter {
	struct cg_watch *w;
	pthread_t th;
	int stop[2]; /* a byte on stop[1] ends the thread */
	bool on_screen; /* the screen shows a failure on its status line: not said on stderr */
	bool unwatched_said; /* a cgroup without its trigger (out of fds), said once (the thread's) */
	const char *unwatched; /* that limit's name (the event's, static), for the screen */
	pthread_mutex_t lock;
	bool failed; /* the watcher failed: no count or mark after it */
	uint64_t n[CG_PSIR_N][2];
	/* the last wake-up of each cgroup and resource that had one: when, and its window */
	struct fired {
		char *path;
		uint64_t at_ns[CG_PSIR_N], window_ns[CG_PSIR_N];
	} * fired;
	size_t n_fired;
};

/* Note path's wake-up of resource res now (under t->lock); out of memory: not marked. */
static void fired_note(struct trig_counter *t, const char *path, enum cg_psi_res res,
		       uint64_t window_ns)
{
	struct fired *f = NULL, *grown;

	for (size_t i = 0; i < t->n_fired && !f; i++)
		if (!strcmp(t->fired[i].path, path))
			f = &t->fired[i];
	if (!f) {
		grown = realloc(t->fired, (t->n_fired + 1) * sizeof(*grown));
		if (!grown)
			return;
		t->fired = grown;
		f = &grown[t->n_fired];
		*f = (struct fired){ .path = strdup(path) };
		if (!f->path)
			return;
		t->n_fired++;
	}
	f->at_ns[res] = cg_now_ns();
	f->window_ns[res] = window_ns;
}

static int on_wake(const struct cg_watch_event *ev, void *userdata)
{
	struct trig_counter *t = userdata;

	/* out of fds for a new cgroup's trigger: the others count on; the exporter says it once */
	if (ev->kind == CG_EV_UNWATCHED && !t->unwatched_said) {
		t->unwatched_said = true;
		/* the screen says it on its status line, and its caller on stderr once it is closed */
		pthread_mutex_lock(&t->lock);
		t->unwatched = ev->limit;
		pthread_mutex_unlock(&t->lock);
		if (!t->on_screen)
			tool_say(
				"--psi-trigger: cgroup %s (%s): no trigger (limit=%s reached); the cgroups that have one still count",
				ev->path, ev->hier, ev->limit);
	}
	if (ev->kind != CG_EV_PRESSURE || !ev->trigger)
		return 0;
	pthread_mutex_lock(&t->lock);
	t->n[ev->trigger->res][ev->trigger->full] += ev->count;
	fired_note(t, ev->path, ev->trigger->res, ev->trigger->window_us * 1000);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

static void *loop(void *arg)
{
	struct trig_counter *t = arg;

	for (;;) {
		struct pollfd p[1] = { { .fd = t->stop[0], .events = POLLIN } };

		if (cg_watch_poll(t->w, p, 1, cg_watch_timeout_ms(t->w)) < 0)
			break;
		if (p[0].revents)
			break;
		/*
		 * a failure (reading inotify; running short of fds is none) stops the counting, said once: by
		 * the exporter on stderr at once, by the screen on its status line (a line on stderr
		 * would be drawn over the screen) and by main once the screen is closed
		 */
		if (cg_watch_process(t->w, on_wake, t, NULL) < 0) {
			pthread_mutex_lock(&t->lock);
			t->failed = true;
			pthread_mutex_unlock(&t->lock);
			if (!t->on_screen)
				tool_say("%s", TRIG_FAILED);
			break;
		}
	}
	return NULL;
}

int trig_counter_start(const struct cgtop2_args *a, const struct cg_layout *l, bool on_screen,
		       size_t fd_reserve, struct trig_counter **ret)
{
	struct cg_watch_opts wo = {
		.path = a->path,
		.kinds = 1u << CG_EV_PRESSURE,
		.interval_ns = a->delay_ns,
		.triggers = a->triggers,
		.n_triggers = a->n_triggers,
		/* the sampler's margin (stats_tree.c), and the server's sockets */
		.fd_reserve = 64 + fd_reserve
	};
	struct cg_diag d = { 0 };
	struct trig_counter *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return report_errno(a, "--psi-trigger", -ENOMEM);
	t->stop[0] = t->stop[1] = -1;
	t->on_screen = on_screen;
	pthread_mutex_init(&t->lock, NULL);
	r = cg_watch_new(l, &wo, &t->w, &d);
	if (r < 0) {
		if (d.why[0])
			tool_report(&d, r);
		else
			report_errno(a, "--psi-trigger", r);
		trig_counter_stop(t);
		return 1;
	}
	if (pipe2(t->stop, O_CLOEXEC) < 0 || (r = pthread_create(&t->th, NULL, loop, t))) {
		r = report_errno(a, "--psi-trigger", errno ? -errno : -r);
		trig_counter_stop(t);
		return r;
	}
	*ret = t;
	return 0;
}

void trig_counter_read(struct trig_counter *t, uint64_t out[CG_PSIR_N][2])
{
	pthread_mutex_lock(&t->lock);
	memcpy(out, t->n, sizeof(t->n));
	pthread_mutex_unlock(&t->lock);
}

bool trig_counter_failed(struct trig_counter *t)
{
	bool failed;

	if (!t)
		return false;
	pthread_mutex_lock(&t->lock);
	failed = t->failed;
	pthread_mutex_unlock(&t->lock);
	return failed;
}

const char *trig_counter_unwatched(struct trig_counter *t)
{
	const char *limit;

	if (!t)
		return NULL;
	pthread_mutex_lock(&t->lock);
	limit = t->unwatched;
	pthread_mutex_unlock(&t->lock);
	return limit;
}

size_t trig_counter_fired(struct trig_counter *t, const char *path, char *buf, size_t size)
{
	uint64_t now = cg_now_ns();
	size_t len = 0;

	if (!t || !size)
		return 0;
	buf[0] = '\0';
	pthread_mutex_lock(&t->lock);
	for (size_t i = 0; i < t->n_fired; i++) {
		if (strcmp(t->fired[i].path, path))
			continue;
		for (int r = 0; r < CG_PSIR_N; r++)
			if (t->fired[i].at_ns[r] &&
			    now - t->fired[i].at_ns[r] < t->fired[i].window_ns[r] && len + 1 < size)
				len += (size_t)snprintf(buf + len, size - len, "%s%s",
							len ? "," : "", cg_psi_res_name(r));
		break;
	}
	pthread_mutex_unlock(&t->lock);
	return len < size ? len : size - 1;
}

void trig_counter_stop(struct trig_counter *t)
{
	if (!t)
		return;
	if (t->stop[1] >= 0) {
		if (t->th && write(t->stop[1], "", 1) == 1)
			pthread_join(t->th, NULL);
		close(t->stop[1]);
	}
	if (t->stop[0] >= 0)
		close(t->stop[0]);
	cg_watch_free(t->w);
	for (size_t i = 0; i < t->n_fired; i++)
		free(t->fired[i].path);
	free(t->fired);
	pthread_mutex_destroy(&t->lock);
	free(t);
}
