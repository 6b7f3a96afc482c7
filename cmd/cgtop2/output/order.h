/* SPDX-License-Identifier: MIT */
/* The rows' key order (render.c's sort key and comparison), kept and patched by view_sort.c. */
#ifndef CGTOP2_ORDER_H
#define CGTOP2_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "render.h"

struct keyed {
	double key;
	uint32_t rank; /* by path */
	uint32_t at; /* the input row's index */
};

/* render.c: the sort key of order (NAN when unknown, which sorts last); key, then rank */
double order_key(enum order order, const struct cg_stat_row *r);
int keyed_cmp(const void *pa, const void *pb);

/*
 * view_sort.c: every input row in order's key order, into v->sorted (v->rank made): the last
 * call's order patched while the shape and order stay, else sorted afresh. 0 or -ENOMEM.
 */
int view_sort(struct view *v, struct cg_stat_row *const *rows, size_t n, uint64_t shape,
	      enum order order);
/* The input row at place i of v->sorted. */
size_t view_sorted_at(const struct view *v, size_t i);
void view_sorted_free(struct view *v);

#endif
