// SPDX-License-Identifier: MIT
/* cgtop2's batch writers (batch.h): each sample in the format asked for, on stdout. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "tool.h"

#include "pipeline/args.h"
#include "batch.h"
#include "pipeline/pipeline.h"
#include "render.h"
#include "report.h"

struct batch {
	struct sink k;
	const struct cgtop2_args *a;
	struct source *src;
	struct view v;
	struct out o;
	unsigned long it;
	int status;
};

static int batch_put(struct sink *k, int step, int r, const struct source_sample *smp)
{
	struct batch *b = (struct batch *)k;
	const struct cgtop2_args *a = b->a;
	struct view *v = &b->v;

	(void)step;
	if (r == 0) {
		if (b->it == 0 && source_is_replay(b->src)) {
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
	if (r < 0) {
		k->failed = "sort";
		return r;
	}
	switch (a->format) {
	case FMT_JSON:
		render_json(&b->o, a, v);
		break;
	case FMT_CSV:
		render_csv(&b->o, a, v, b->it == 0);
		break;
	case FMT_OPENMETRICS:
		render_openmetrics(&b->o, a, v);
		break;
	case FMT_PROMETHEUS:
		render_prometheus(&b->o, a, v);
		break;
	default:
		/* a blank line between snapshots, as systemd-cgtop does */
		if (b->it)
			out_printf(&b->o, "\n");
		render_table(&b->o, a, v, 0, 0, "\n");
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

int batch_run(const struct cgtop2_args *a, struct source *src)
{
	struct batch b = {
		.k = { .ops = &batch_ops,
		       /* a replay prints its samples one after the other, as fast as they come */
		       .delay_ns = source_is_replay(src) ? 0 : a->delay_ns,
		       .iterations = a->iterations },
		.a = a,
		.src = src,
		.o = { .fd = STDOUT_FILENO },
	};
	int r = pipeline_run(src, &b.k, a->at ? SOURCE_SEEK : SOURCE_NEXT, a->at_ns);

	if (r < 0)
		b.status = report_errno(a, b.k.failed, r);
	view_free(&b.v);
	free(b.o.s);
	return b.status;
}
