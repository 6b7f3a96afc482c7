/* SPDX-License-Identifier: MIT */
/* view_sort.c: the rows' key order kept from one refresh to the next and patched. */
#ifndef CGTOP2_VIEW_SORT_H
#define CGTOP2_VIEW_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/args.h"

struct cg_stat_row;
struct view_sorted;

/*
 * Every input row in order's key order (the key, then rank: the rows' places by path) into
 * *sp: the last call's order patched while the shape and order stay, else sorted afresh.
 * 0 or -ENOMEM.
 */
int view_sort(struct view_sorted **sp, const uint32_t *rank, struct cg_stat_row *const *rows,
	      size_t n, uint64_t shape, enum order order);
/* The input row at place i of the order. */
size_t view_sorted_at(const struct view_sorted *s, size_t i);
void view_sorted_free(struct view_sorted **sp);

#endif
