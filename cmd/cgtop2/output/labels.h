/* SPDX-License-Identifier: MIT */
/* The labels of cgtop2's expositions (labels.c), for metrics.c. */
#ifndef CGTOP2_LABELS_H
#define CGTOP2_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out.h"
#include "render.h"

/*
 * Each row's labels, escaped once for all the families that write them (a dozen and more a
 * row) rather than once a line. Without memory for it, each line makes its own.
 */
struct labels {
	struct out text; /* the rows' labels one after the other */
	size_t *end; /* row i's runs from end[i - 1] (0 for the first) to end[i] */
	bool *esc; /* row i's are the table's text (put_row_labels) */
	/* the values any row has: a family none has is left out without a look at each row */
	uint64_t x_have;
	unsigned dev_have;
	bool cadv;
};

/* The rows' labels of v made once (without memory: made for each line instead). */
void labels_make(struct labels *l, const struct view *v, bool cadv);
void labels_free(struct labels *l);
/*
 * Row i's labels after its cgroup label's opening quote, up to the closing quote of its last;
 * own: a name among the sample's own labels (a device's, a thread's), or NULL. Returns whether
 * the values are the table's text (a name Prometheus cannot take as it is).
 */
bool labels_put(struct out *o, const struct labels *l, const struct view *v, size_t i,
		const char *own);
/* A name as a label's value: its bytes, or with esc the table's text. */
void put_label_value(struct out *o, const char *name, bool esc);
/* The end of a sample's labels: escaped="true" with esc, and the closing brace. */
void labels_end(struct out *o, bool esc);

#endif
