// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen --psi-trigger and the screen's: the wake-ups of PSI triggers on every cgroup2
 * cgroup watched, counted by resource and some/full in the wait of the exporter's or the
 * screen's sink (trig_counter_wait, on the main thread: the scheduler's one wait) for
 * cgroup_pressure_trigger_events_total, and when each cgroup's fired last, for the screen's
 * mark. The counts stay under a lock: the exporter's scrapes read them from libmicrohttpd's
 * threads.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "tool.h"
#include "watch/watch.h"

#include "pipeline/args.h"
#include "pipeline/pipeline.h"
#include "output/report.h"
#include "triggers.h"

struct trig_counter {
	struct cg_watch *w;
	bool on_screen; /* the screen shows a failure on its status line: not said on stderr */
	bool unwatched_said; /* a cgroup without its trigger (out of fds), said once */
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

/*
 * A failure (reading inotify or the wait; running short of fds is none) stops the counting,
 * said once: by the exporter on stderr at once, by the screen on its status line (a line on
 * stderr would be drawn over the screen) and by main once the screen is closed.
 */
static void watcher_failed(struct trig_counter *t)
{
	pthread_mutex_lock(&t->lock);
	t->failed = true;
	pthread_mutex_unlock(&t->lock);
	if (!t->on_screen)
		tool_say("%s", TRIG_FAILED);
}

int trig_counter_wait(struct trig_counter *t, struct pollfd *fds, size_t n, uint64_t deadline_ns)
{
	int tmo, r;

	/* failed (only the main thread sets it): the sink's own fds alone */
	if (!t || t->failed)
		return pipeline_wait(NULL, fds, n, deadline_ns);
	/* the watcher's own deadline: a wake-up held to its window's end, a sampled trigger */
	tmo = cg_watch_timeout_ms(t->w);
	if (tmo >= 0 && cg_now_ns() + (uint64_t)tmo * NSEC_PER_MSEC < deadline_ns)
		deadline_ns = cg_now_ns() + (uint64_t)tmo * NSEC_PER_MSEC;
	r = pipeline_wait(t->w, fds, n, deadline_ns);
	if (r < 0 || cg_watch_process(t->w, on_wake, t, NULL) < 0) {
		watcher_failed(t);
		return 0;
	}
	return r;
}

int trig_counter_start(const struct cg_watch_opts *o, const struct cg_layout *l, bool on_screen,
		       size_t fd_reserve, struct mirror *m, struct trig_counter **ret)
{
	struct cg_watch_opts wo = *o;
	struct cg_diag d = { 0 };
	struct trig_counter *t = calloc(1, sizeof(*t));
	int r;

	/* the sampler's margin (stats_tree.c), and the server's sockets */
	wo.fd_reserve = 64 + fd_reserve;
	wo.mirror = m;

	if (!t)
		return report_errno(o->path, "--psi-trigger", -ENOMEM);
	t->on_screen = on_screen;
	pthread_mutex_init(&t->lock, NULL);
	r = cg_watch_new(l, &wo, &t->w, &d);
	if (r < 0) {
		if (d.why[0])
			tool_report(&d, r);
		else
			report_errno(o->path, "--psi-trigger", r);
		trig_counter_stop(t);
		return 1;
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
	cg_watch_free(t->w);
	for (size_t i = 0; i < t->n_fired; i++)
		free(t->fired[i].path);
	free(t->fired);
	pthread_mutex_destroy(&t->lock);
	free(t);
}
