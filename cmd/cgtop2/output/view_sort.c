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

#include "order.h"

struct view_sorted {
	enum order order;
	uint64_t shape;
	size_t n;
	struct keyed *ks; /* every input row, in the order */
	double *key; /* by input row */
	bool *moved; /* by input row: its key is not the last one's */
};

static bool same_key(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

void view_sorted_free(struct view *v)
{
	struct view_sorted *s = v->sorted;

	if (s) {
		free(s->ks);
		free(s->key);
		free(s->moved);
		free(s);
	}
	v->sorted = NULL;
}

size_t view_sorted_at(const struct view *v, size_t i)
{
	return v->sorted->ks[i].at;
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

int view_sort(struct view *v, struct cg_stat_row *const *rows, size_t n, uint64_t shape,
	      enum order order)
{
	struct view_sorted *s = v->sorted;
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
			return moved ? patch(s, v->rank, moved) : 0;
	} else {
		view_sorted_free(v);
		s = v->sorted = calloc(1, sizeof(*s));
		if (!s || !(s->ks = malloc((n ? n : 1) * sizeof(*s->ks))) ||
		    !(s->key = malloc((n ? n : 1) * sizeof(*s->key))) ||
		    !(s->moved = calloc(n ? n : 1, sizeof(*s->moved)))) {
			view_sorted_free(v);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			s->key[i] = order_key(order, rows[i]);
	}
	s->order = order;
	s->shape = shape;
	s->n = n;
	for (size_t i = 0; i < n; i++)
		s->ks[i] =
			(struct keyed){ .key = s->key[i], .rank = v->rank[i], .at = (uint32_t)i };
	qsort(s->ks, n, sizeof(*s->ks), keyed_cmp);
	return 0;
}
