// SPDX-License-Identifier: MIT
/* cgtop2's batch writers (batch.h): each sample in the format asked for, on stdout. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "tool.h"

#include "pipeline/args.h"
#include "batch.h"
#include "fields.h"
#include "metrics_cache.h"
#include "pipeline/pipeline.h"
#include "render.h"
#include "report.h"

struct batch {
	struct sink k;
	const struct batch_opts *a;
	struct source *src;
	struct view v;
	struct out o;
	/* the expositions: each cgroup's lines kept from one refresh to the next, as a scrape's */
	struct metrics_cache *cache;
	unsigned long it;
	int status;
};

static int batch_put(struct sink *k, int step, int r, const struct source_sample *smp)
{
	struct batch *b = (struct batch *)k;
	const struct batch_opts *a = b->a;
	struct view *v = &b->v;

	(void)step;
	if (r == 0) {
		if (b->it == 0 && source_is_replay(b->src)) {
			if (a->window)
				tool_say("replay %s: no sample from --begin to --end",
					 a->replay_file);
			else
				tool_say("replay %s: no sample at or after that time (%zu %s)",
					 a->replay_file, source_count(b->src),
					 tool_plural(source_count(b->src), "sample", "samples"));
			b->status = 1;
		}
		return 1;
	}
	v->sample_ns = smp->took_ns;
	v->errors = smp->errors;
	r = make_view(smp->rows, smp->n, smp->shape, a->order, NULL, v);
	v->time_ns = smp->time_ns;
	if (r == 0 && a->order_field)
		r = fields_sort(v, a->order_field - 1);
	if (r < 0) {
		k->failed = "sort";
		return r;
	}
	/* --top: the view's rows past N are left out of this sample's output only */
	if (a->top && v->n > a->top)
		v->n = a->top;
	switch (a->format) {
	case FMT_JSON:
		if (a->out.n_fields)
			fields_json(&b->o, &a->out, v);
		else
			render_json(&b->o, &a->out, v);
		break;
	case FMT_CSV:
		if (a->out.n_fields)
			fields_csv(&b->o, &a->out, v, b->it == 0);
		else
			render_csv(&b->o, &a->out, v, b->it == 0);
		break;
	case FMT_OPENMETRICS:
	case FMT_PROMETHEUS:
		render_metrics(&b->o, a->format == FMT_PROMETHEUS, &a->out, v, b->cache);
		break;
	default:
		/* a blank line between snapshots, as systemd-cgtop does */
		if (b->it)
			out_printf(&b->o, "\n");
		render_table(&b->o, &a->out, v, 0, 0, "\n");
		break;
	}
	b->it++;
	r = out_flush(&b->o, STDOUT_FILENO);
	if (r < 0) {
		b->status = out_stdout_failed(r) ? 1 : b->status;
		return 1;
	}
	return 0;
}

static const struct sink_ops batch_ops = { .put = batch_put };

struct sink *batch_new(const struct batch_opts *a, struct source *src)
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	*b = (struct batch){
		.k = { .ops = &batch_ops,
		       /* a replay prints its samples one after the other, as fast as they come */
		       .delay_ns = source_is_replay(src) ? 0 : a->delay_ns,
		       .iterations = a->iterations },
		.a = a,
		.src = src,
		.o = { .fd = STDOUT_FILENO },
	};
	/* without one (no memory), every refresh writes every line */
	if (a->format == FMT_OPENMETRICS || a->format == FMT_PROMETHEUS)
		b->cache = metrics_cache_new();
	return &b->k;
}

int batch_end(struct sink *k)
{
	struct batch *b = (struct batch *)k;
	int status = b->status;

	view_free(&b->v);
	metrics_cache_free(b->cache);
	free(b->o.s);
	free(b);
	return status;
}

int batch_run(const struct batch_opts *a, struct source *src)
{
	struct sink *k = batch_new(a, src);
	int r;

	if (!k)
		return report_errno(a->path, "print", -ENOMEM);
	r = pipeline_run(src, k, a->at ? SOURCE_SEEK : SOURCE_NEXT, a->at_ns);
	if (r < 0)
		((struct batch *)k)->status = report_errno(a->path, k->failed, r);
	return batch_end(k);
}
