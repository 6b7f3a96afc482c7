/* SPDX-License-Identifier: MIT */
/*
 * The exposition's lines of each cgroup kept from one scrape to the next (metrics_cache.c):
 * a cgroup whose values and labels are those of the last scrape has its lines copied, not
 * written again (issue 46: work that follows change).
 */
#ifndef CGTOP2_METRICS_CACHE_H
#define CGTOP2_METRICS_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "labels.h"
#include "out.h"
#include "render.h"

struct metrics_cache;
struct cg_net_ns;

/*
 * metrics.c: the cgroups' families of an exposition, for render_metrics (metrics_own.c);
 * returns the length of their head as render_metrics does.
 */
size_t metrics_cgroups(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
		       struct metrics_cache *c);

struct metrics_cache *metrics_cache_new(void);
void metrics_cache_free(struct metrics_cache *c);

/*
 * metrics.c's, at the start of an exposition of v with the labels l: v's rows matched to the
 * kept texts by path; a row whose inputs (every value the families write: of x[], those of
 * the mask x_used; the kernel's
 * statistics, the interfaces of the network namespace ns[i] it writes (ns NULL: none), its
 * labels, and key: what else a line depends on, the table and the counts) differ from those
 * its text was made of is stale. false without memory (or labels): write this one without
 * the cache.
 */
bool metrics_cache_begin(struct metrics_cache *c, const struct view *v, const struct labels *l,
			 uint64_t x_used, const struct cg_net_ns *const *ns, unsigned key);
/* Row i's text emptied to be written again, or NULL when the kept one holds. */
struct out *metrics_cache_stale(struct metrics_cache *c, size_t i);
/* The end of a segment of row i's text: segments are numbered in the order they are cut. */
void metrics_cache_cut(struct metrics_cache *c, size_t i);
/* Row i's text, written and cut, kept (metrics_cache_stale's buffer is the next row's). */
void metrics_cache_keep(struct metrics_cache *c, size_t i);
/* Segment k of row i's text into o. */
void metrics_cache_put(struct out *o, const struct metrics_cache *c, size_t i, size_t k);
/*
 * After the rows' texts were made: whether every row's text and the rows themselves (which,
 * in which order) are the last exposition's, so that its lines are too.
 */
bool metrics_cache_unchanged(const struct metrics_cache *c);
/* One more at each exposition whose rows' lines are not the last one's: equal, they are. */
unsigned metrics_cache_gen(const struct metrics_cache *c);

#endif
