// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen --psi-trigger: the wake-ups of PSI triggers on every cgroup2 cgroup watched,
 * counted by resource and some/full on a thread of their own (the watcher polls; the server's
 * threads only read the counts) for cgroup_pressure_trigger_events_total.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "tool.h"
#include "watch.h"

#include "args.h"
#include "report.h"
#include "triggers.h"

struct trig_counter {
	struct cg_watch *w;
	pthread_t th;
	int stop[2]; /* a byte on stop[1] ends the thread */
	pthread_mutex_t lock;
	uint64_t n[CG_PSIR_N][2];
};

static int on_wake(const struct cg_watch_event *ev, void *userdata)
{
	struct trig_counter *t = userdata;

	if (ev->kind != CG_EV_PRESSURE || !ev->trigger)
		return 0;
	pthread_mutex_lock(&t->lock);
	t->n[ev->trigger->res][ev->trigger->full] += ev->count;
	pthread_mutex_unlock(&t->lock);
	return 0;
}

static void *loop(void *arg)
{
	struct trig_counter *t = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = t->stop[0], .events = POLLIN },
				       { .fd = cg_watch_fd(t->w), .events = POLLIN } };

		if (poll(p, 2, cg_watch_timeout_ms(t->w)) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		/* a failure (out of fds for a new cgroup's trigger) stops the counting, said once */
		if (cg_watch_process(t->w, on_wake, t, NULL) < 0) {
			tool_say("--psi-trigger: the watcher failed: the trigger counts stop here");
			break;
		}
	}
	return NULL;
}

int trig_counter_start(const struct cgtop2_args *a, const struct cg_layout *l,
		       struct trig_counter **ret)
{
	struct cg_watch_opts wo = { .path = a->path,
				    .kinds = 1u << CG_EV_PRESSURE,
				    .interval_ns = a->delay_ns,
				    .triggers = a->triggers,
				    .n_triggers = a->n_triggers };
	struct cg_diag d = { 0 };
	struct trig_counter *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return report_errno(a, "--psi-trigger", -ENOMEM);
	t->stop[0] = t->stop[1] = -1;
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
	pthread_mutex_destroy(&t->lock);
	free(t);
}
