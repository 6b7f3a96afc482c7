// SPDX-License-Identifier: MIT
/*
 * cgtop2's live source (source.h): the sampler, cmd/cgtop2/sampler/stats.h's cg_stats, with what cgtop2's
 * options ask of it. The one file of cgtop2 that knows the sampler.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "sampler/stats.h"

#include "source.h"

struct live {
	struct source src;
	struct source_info info;
	struct cg_stats *stats;
	size_t taken;
	char *path;
	uint64_t errors[CG_COLL_N];
};

static struct live *live_of(const struct source *src)
{
	return (struct live *)src;
}

/* Live: every step forward is a new sample, now; there is no going back. */
static int live_step(struct source *src, enum source_step step, uint64_t time_ns,
		     struct source_sample *ret)
{
	struct live *lv = live_of(src);
	struct cg_stat_row *const *rows;
	uint64_t start = cg_now_ns();
	size_t n;
	int r;

	(void)time_ns;
	if (step != SOURCE_NEXT && step != SOURCE_CURRENT)
		return -EOPNOTSUPP;
	r = cg_stats_sample(lv->stats, &rows, &n, NULL);
	if (r < 0)
		return r;
	cg_stats_errors(lv->stats, lv->errors);
	ret->rows = rows;
	ret->n = n;
	ret->time_ns = source_wall_ns();
	ret->index = lv->taken++;
	ret->took_ns = cg_now_ns() - start;
	ret->errors = lv->errors;
	ret->shape = cg_stats_shape(lv->stats);
	return 1;
}

static const struct source_info *live_info(const struct source *src)
{
	return &live_of(src)->info;
}

static void live_free(struct source *src)
{
	struct live *lv = live_of(src);

	cg_stats_free(lv->stats);
	free(lv->path);
	free(lv);
}

static int live_set_depth(struct source *src, int depth)
{
	struct live *lv = live_of(src);
	int r = cg_stats_set_depth(lv->stats, depth, NULL);

	if (r == 0)
		lv->info.depth = depth;
	return r;
}

static int live_set_count(struct source *src, enum cg_count count, bool own_only)
{
	struct live *lv = live_of(src);

	cg_stats_set_count(lv->stats, count, own_only);
	lv->info.count = count;
	lv->info.own_only = own_only;
	return 0;
}

static int live_set_threads(struct source *src, bool threads)
{
	struct live *lv = live_of(src);

	cg_stats_set_threads(lv->stats, threads);
	lv->info.threads = threads;
	return 0;
}

static int live_set_collectors(struct source *src, unsigned collectors)
{
	cg_stats_set_collectors(live_of(src)->stats, collectors);
	return 0;
}

static int live_set_focus(struct source *src, const char *path)
{
	return cg_stats_set_members(live_of(src)->stats, path, NULL);
}

static int live_members(const struct source *src, const char *path,
			const struct cg_stat_member **ret, size_t *ret_n)
{
	return cg_stats_members(live_of(src)->stats, path, ret, ret_n);
}

static const struct cg_layout *live_layout(const struct source *src)
{
	return cg_stats_layout(live_of(src)->stats);
}

static const char *live_describe(const struct source *src)
{
	return cg_stats_sources(live_of(src)->stats);
}

static size_t live_reopened(const struct source *src)
{
	return cg_stats_reopened(live_of(src)->stats);
}

static struct mirror *live_mirror(const struct source *src)
{
	return cg_stats_mirror(live_of(src)->stats);
}

static const struct source_ops live_ops = {
	.step = live_step,
	.info = live_info,
	.free = live_free,
	.set_depth = live_set_depth,
	.set_count = live_set_count,
	.set_threads = live_set_threads,
	.set_collectors = live_set_collectors,
	.set_focus = live_set_focus,
	.members = live_members,
	.layout = live_layout,
	.describe = live_describe,
	.reopened = live_reopened,
	.mirror = live_mirror,
};

int source_live_new(const struct cg_stats_opts *so, uint64_t delay_ns, bool members_all,
		    const struct cg_layout *l, struct source **ret)
{
	struct live *lv = calloc(1, sizeof(*lv));
	int r;

	if (!lv)
		return -ENOMEM;
	lv->src.ops = &live_ops;
	lv->path = strdup(so->path ? so->path : "");
	r = lv->path ? cg_stats_new(l, so, &lv->stats, NULL) : -ENOMEM;
	if (r < 0) {
		free(lv->path);
		free(lv);
		return r;
	}
	if (members_all)
		cg_stats_set_members_all(lv->stats, true);
	lv->info = (struct source_info){ .path = lv->path,
					 .host = "",
					 .count = so->count,
					 .own_only = so->own_only,
					 .threads = so->threads,
					 .depth = so->depth,
					 .delay_ns = delay_ns };
	*ret = &lv->src;
	return 0;
}
