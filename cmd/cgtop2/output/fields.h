/* SPDX-License-Identifier: MIT */
/*
 * Private to cgtop2: --fields, --order=FIELD and --top (fields.c). A field is a statistic by
 * its JSON key (and CSV column): cpu_usage_seconds, memory_bytes, pressure_io (the JSON's
 * pressure.io flattened as the CSV's column), the limits' memory.max; a few also by the
 * kernel's name of what they read (cpu.usage, memory.current).
 */
#ifndef CGTOP2_FIELDS_H
#define CGTOP2_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline/args.h"
#include "render.h"

/* The field named s (its key or its other name): its number, or -ENOENT. */
int field_lookup(const char *s);
/* Whether field i is a number (--order takes only those; the limits are text). */
bool field_numeric(int i);
/* Every field's key, and its other name after a tab, a line each (--fields=help). */
void fields_list(struct out *o);
/*
 * The numeric fields, 0 .. fields_numeric_n() - 1, as the screen's chooser (C) lists them for
 * columns of its own: every statistic the table below has, so that a new one is offered there.
 */
size_t fields_numeric_n(void);
const char *field_key(int i);
/* Numeric field i of r as a cell: its value as --fields writes it, "-" when unknown. */
void field_cell(int i, const struct cg_stat_row *r, char *buf, size_t size);
/* --order=FIELD: the rows by that field, largest first, the unknown last, ties by path. */
int fields_sort(struct view *v, int field);
/* --fields: JSON lines and CSV of the path, the time and the fields asked for, in that order. */
void fields_json(struct out *o, const struct render_opts *a, const struct view *v);
void fields_csv(struct out *o, const struct render_opts *a, const struct view *v, bool header);

#endif
