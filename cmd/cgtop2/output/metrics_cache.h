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
#include <stdint.h>

#include "labels.h"
#include "out.h"
#include "render.h"

struct metrics_cache;
struct cg_net_ns;

/* metrics.c: the cgroups' families of an exposition, for render_metrics (metrics_own.c) */
void metrics_cgroups(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
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
/* Segment k of row i's text into o (and where a chunk ends, metrics_cache_cuts). */
void metrics_cache_put(struct out *o, struct metrics_cache *c, size_t i, size_t k);
/*
 * The last exposition cut into chunks for the server's gzip (serve_io.c): a chunk ends after
 * the lines of one cgroup in METRICS_CUT_EVERY (by its path) once it holds METRICS_CUT_MIN
 * bytes, or once it holds METRICS_CUT_BYTES; key: the cgroup's and the segment's, a chunk's likely the same in the
 * next exposition. Ends in increasing order; what follows the last end is a chunk too.
 */
#define METRICS_CUT_EVERY 32
#define METRICS_CUT_BYTES (32 * 1024)
#define METRICS_CUT_MIN	  2048
struct metrics_cut {
	size_t end;
	uint64_t key;
};
/* The cuts of the last exposition, *n of them (0: none, the body one chunk). */
const struct metrics_cut *metrics_cache_cuts(const struct metrics_cache *c, size_t *n);
/*
 * After the rows' texts were made: whether every row's text and the rows themselves (which,
 * in which order) are the last exposition's, so that its lines are too.
 */
bool metrics_cache_unchanged(const struct metrics_cache *c);

#endif
