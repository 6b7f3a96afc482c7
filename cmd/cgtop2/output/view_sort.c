// SPDX-License-Identifier: MIT
/*
 * The key order of the rows kept from one refresh to the next (issue 46: work that follows
 * change). While the sampler's shape stays (the same rows in the same order), a refresh
 * computes every row's key, sorts only the rows whose key changed and merges them into the
 * others, which are still in order among themselves: O(n + k log k) for k rows that moved,
 * where a sort of all was n log n comparisons through qsort's callback. The order is the
 * comparison's (key, then the rank by path: a total order), so it is the sort's, row for row.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "view_sort.h"
#include "sampler/stats.h"

struct keyed {
	double key;
	uint32_t rank; /* by path */
	uint32_t at; /* the input row's index */
};

struct view_sorted {
	enum order order;
	uint64_t shape;
	size_t n;
	struct keyed *ks; /* every input row, in the order */
	double *key; /* by input row */
	bool *moved; /* by input row: its key is not the last one's */
};

static double pressure_max(const struct cg_stat_row *r)
{
	double m = -1;

	for (int p = 0; p < CG_PSI_N; p++)
		if ((r->have & (CG_STAT_PSI_CPU << p)) && r->psi[p] > m)
			m = r->psi[p];
	return m;
}

/* The sort key; NAN when unknown, which sorts last. */
static double order_key(enum order order, const struct cg_stat_row *r)
{
	switch (order) {
	case ORDER_TASKS:
		return r->have & CG_STAT_TASKS ? (double)r->tasks : NAN;
	case ORDER_CPU:
		return r->have & CG_STAT_CPU_RATE ? r->cpu_percent : NAN;
	case ORDER_MEMORY:
		return r->have & CG_STAT_MEMORY ? (double)r->memory : NAN;
	case ORDER_IO:
		return r->have & CG_STAT_IO_RATE ? r->io_read_bps + r->io_write_bps : NAN;
	case ORDER_PRESSURE: {
		double m = pressure_max(r);
		return m < 0 ? NAN : m;
	}
	default:
		return NAN;
	}
}

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *x = pa, *y = pb;
	double ka = x->key, kb = y->key;

	if (isnan(ka) != isnan(kb))
		return isnan(ka) ? 1 : -1;
	if (!isnan(ka) && ka != kb)
		return ka > kb ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static bool same_key(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

void view_sorted_free(struct view_sorted **sp)
{
	struct view_sorted *s = *sp;

	if (s) {
		free(s->ks);
		free(s->key);
		free(s->moved);
		free(s);
	}
	*sp = NULL;
}

size_t view_sorted_at(const struct view_sorted *s, size_t i)
{
	return s->ks[i].at;
}

/* The rows whose key moved, sorted, merged into the others, which keep their order. */
static int patch(struct view_sorted *s, const uint32_t *rank, size_t moved)
{
	struct keyed *m = malloc(moved * sizeof(*m)), *out = malloc(s->n * sizeof(*out));
	size_t a = 0, b = 0;

	if (!m || !out) {
		free(m);
		free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->moved[i])
			m[b++] = (struct keyed){ .key = s->key[i],
						 .rank = rank[i],
						 .at = (uint32_t)i };
	qsort(m, moved, sizeof(*m), keyed_cmp);
	b = 0;
	for (size_t o = 0; o < s->n; o++) {
		while (a < s->n && s->moved[s->ks[a].at])
			a++;
		if (a < s->n && (b == moved || keyed_cmp(&s->ks[a], &m[b]) < 0))
			out[o] = s->ks[a++];
		else
			out[o] = m[b++];
	}
	free(s->ks);
	s->ks = out;
	free(m);
	return 0;
}

int view_sort(struct view_sorted **sp, const uint32_t *rank, struct cg_stat_row *const *rows,
	      size_t n, uint64_t shape, enum order order)
{
	struct view_sorted *s = *sp;
	size_t moved = 0;

	if (s && shape && s->shape == shape && s->n == n && s->order == order) {
		for (size_t i = 0; i < n; i++) {
			double k = order_key(order, rows[i]);

			s->moved[i] = !same_key(k, s->key[i]);
			s->key[i] = k;
			moved += s->moved[i];
		}
		/* beyond a quarter moved, one sort of all costs about what the merge would */
		if (moved <= n / 4)
			return moved ? patch(s, rank, moved) : 0;
	} else {
		view_sorted_free(sp);
		s = *sp = calloc(1, sizeof(*s));
		if (!s || !(s->ks = malloc((n ? n : 1) * sizeof(*s->ks))) ||
		    !(s->key = malloc((n ? n : 1) * sizeof(*s->key))) ||
		    !(s->moved = calloc(n ? n : 1, sizeof(*s->moved)))) {
			view_sorted_free(sp);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			s->key[i] = order_key(order, rows[i]);
	}
	s->order = order;
	s->shape = shape;
	s->n = n;
	for (size_t i = 0; i < n; i++)
		s->ks[i] = (struct keyed){ .key = s->key[i], .rank = rank[i], .at = (uint32_t)i };
	qsort(s->ks, n, sizeof(*s->ks), keyed_cmp);
	return 0;
}
