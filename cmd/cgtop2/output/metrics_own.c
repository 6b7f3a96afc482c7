// SPDX-License-Identifier: MIT
/*
 * The expositions: the cgroups' families (metrics.c), then the exposition's own: how long the
 * sample took, how many cgroups, the collectors' errors, the PSI triggers' wake-ups, the
 * password checks. They change at every scrape, the cgroups' lines only with the cgroups
 * (metrics_cache.c).
 */
#include <inttypes.h>
#include <stdio.h>

#include "metrics_cache.h"
#include "render.h"
#include "base/clock.h"
#include "watch/watch.h"

#define SCRAPE_DURATION "cgtop2_scrape_duration_seconds"
#define CGROUPS		"cgtop2_cgroups"
#define DROPPED		"cgtop2_series_dropped_cgroups"
#define ERRORS		"cgtop2_collector_errors"
#define TRIGGER_EVENTS	"cgroup_pressure_trigger_events"
#define PASSWORD_CHECKS "cgtop2_password_checks"

/* How long the sample took, how many cgroups (and how many left out by --max-series), the
 * collectors' errors. */
static void self(struct out *o, bool prom, const struct render_opts *a, const struct view *v)
{
	if (v->sample_ns) {
		metrics_header(o, prom, SCRAPE_DURATION, false, "seconds",
			       "How long reading the statistics took");
		out_printf(o, SCRAPE_DURATION " %" PRIu64 ".%09" PRIu64 "\n",
			   (uint64_t)(v->sample_ns / NSEC_PER_SEC),
			   (uint64_t)(v->sample_ns % NSEC_PER_SEC));
	}
	metrics_header(o, prom, CGROUPS, false, NULL, "Cgroups in this exposition");
	out_printf(o, CGROUPS " %zu\n", v->n);
	if (a->max_series) {
		metrics_header(
			o, prom, DROPPED, false, NULL,
			"Cgroups left out of this exposition by --max-series, the deepest first");
		out_printf(o, DROPPED " %zu\n", v->dropped);
	}
	if (!v->errors)
		return;
	metrics_header(
		o, prom, ERRORS, true, NULL,
		"Stat files a collector could not read or parse (a vanished cgroup is none)");
	for (int c = 0; c < CG_COLL_N; c++)
		out_printf(o, ERRORS "_total{collector=\"%s\"} %" PRIu64 "\n",
			   cg_collector_names[c], v->errors[c]);
}

/* --listen --psi-trigger: the wake-ups of each resource and kind a trigger has. */
static void trigger_events(struct out *o, bool prom, const struct render_opts *a,
			   const struct view *v)
{
	unsigned said = 0;

	if (!v->trigger_events)
		return;
	metrics_header(o, prom, TRIGGER_EVENTS, true, NULL,
		       "Wake-ups of the --psi-trigger PSI triggers, over every cgroup they watch");
	for (size_t i = 0; i < a->n_triggers; i++) {
		const struct cg_psi_trigger *t = &a->triggers[i];
		unsigned bit = 1u << (t->res * 2 + t->full);

		if (said & bit)
			continue;
		said |= bit;
		out_printf(o, TRIGGER_EVENTS "_total{resource=\"%s\",kind=\"%s\"} %" PRIu64 "\n",
			   cg_psi_res_name(t->res), t->full ? "full" : "some",
			   v->trigger_events[t->res][t->full]);
	}
}

/* --listen with basic auth: what became of the passwords, and how many bcrypt checks ran. */
static void password_checks(struct out *o, bool prom, const struct view *v)
{
	if (!v->password_checks)
		return;
	metrics_header(
		o, prom, PASSWORD_CHECKS, true, NULL,
		"Basic auth passwords: cached or cached_wrong (no bcrypt), passed or failed (bcrypt), throttled (refused without bcrypt: the budget of failures)");
	for (size_t i = 0; i < v->n_password_results; i++)
		out_printf(o, PASSWORD_CHECKS "_total{result=\"%s\"} %" PRIu64 "\n",
			   v->password_results[i], v->password_checks[i]);
}

void metrics_own(struct out *o, bool prom, const struct render_opts *a, const struct view *v)
{
	self(o, prom, a, v);
	trigger_events(o, prom, a, v);
	password_checks(o, prom, v);
}

void render_metrics(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
		    struct metrics_cache *c)
{
	metrics_cgroups(o, prom, a, v, c);
	metrics_own(o, prom, a, v);
	if (!prom)
		out_printf(o, "# EOF\n");
}
