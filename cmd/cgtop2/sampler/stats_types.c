// SPDX-License-Identifier: MIT
/*
 * The row's setters (stats_types.h): a row keeps only the values it knows, packed in index order,
 * its arrays grown here and freed with the sampler's node (stats_tree.c) or a replay's sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats_types.h"

/*
 * v into a row's packed values (x or k: the known alone, in index order) at its place at, of n
 * known, growing vals (*cap, up to max) where it is full: 0 or -ENOMEM.
 */
static int row_insert(uint64_t **vals, size_t *cap, size_t n, size_t at, uint64_t v, size_t max)
{
	if (n == *cap) {
		/* a row's values come from the same files each sample: it stops growing */
		size_t c = *cap ? *cap * 2 : 4;
		uint64_t *nv;

		c = c < max ? c : max;
		nv = realloc(*vals, c * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*vals = nv;
		*cap = c;
	}
	memmove(*vals + at + 1, *vals + at, (n - at) * sizeof(**vals));
	(*vals)[at] = v;
	return 0;
}

int cg_stat_x_set(struct cg_stat_row *r, int i, uint64_t v)
{
	size_t at = (size_t)__builtin_popcountll(r->x_have & ((1ull << i) - 1));

	if (cg_stat_x_known(r, i)) {
		r->x[at] = v;
		return 0;
	}
	if (row_insert(&r->x, &r->x_cap, (size_t)__builtin_popcountll(r->x_have), at, v, CG_X_N) <
	    0)
		return -ENOMEM;
	r->x_have |= 1ull << i;
	return 0;
}

int cg_kstat_set(struct cg_stat_row *r, int i, uint64_t v)
{
	size_t at = cg_kstat_slot(r, i);

	if (cg_kstat_known(r, i)) {
		r->k[at] = v;
		return 0;
	}
	if (row_insert(&r->k, &r->k_cap, cg_kstat_count(r), at, v, CG_K_N) < 0)
		return -ENOMEM;
	r->k_have[i / 64] |= 1ull << (i % 64);
	return 0;
}
