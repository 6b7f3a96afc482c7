/* SPDX-License-Identifier: MIT */
/*
 * The recording's fields: how each is stored (the wire types, the codes of a row, the record
 * types), the field tables (record.c's) and the wire's decoding helpers, which record.c writes
 * by and record_read.c reads by.
 */
#ifndef CGKIT_RECORD_FIELDS_H
#define CGKIT_RECORD_FIELDS_H

#include <stddef.h>
#include <stdint.h>

/*
 * How a value is stored. The set is fixed within a major version: a reader skips a field it
 * does not know by its wire type alone, which is how new fields stay readable by old readers.
 */
enum wire { W_UINT = 1, W_F64 = 2, W_BYTES = 3, W_FLAG = 4 };
/* A field's code in a row: 2 bits each, in field-table order. */
enum code { C_ABSENT, C_ZERO, C_VALUE, C_CENTI };
/* Record types. */
enum { R_HEADER = 'H', R_SAMPLE = 'S' };

/* What a field is in memory. */
enum ctype { T_U64, T_INT, T_UINT, T_DOUBLE, T_OPT_DOUBLE, T_CHARS, T_FLAG, T_BOOL, T_CHAR };

/*
 * A field: its name and wire type in files, where it is in an element and when it is there: a
 * bit of the element's x_have word (xbit >= 0: a row's value cg_stat_x or cg_stat_xd, no off),
 * else of its have word (have; 0: always), and for T_OPT_DOUBLE when >= 0.
 */
struct field {
	const char *name;
	uint8_t wire, ctype;
	int8_t xbit;
	unsigned have;
	size_t off, size; /* size: T_CHARS's array */
	/* a row's kernel statistic kbit - 1 (cg_kstats), present by its bit, no off (cg_kstat_get);
	 * 0: none */
	int kbit;
};

/* A table of fields: the row's, or a list each row holds (threads, IO devices, tasks). */
struct table {
	const char *name;
	const struct field *fields;
	size_t n, elem;
	size_t have_off, xhave_off; /* the element's have words; NO_OFF: none */
	size_t list_off, count_off; /* the list and its length in struct cg_stat_row */
};
#define NO_OFF ((size_t)-1)

/* In files and here, the row table comes first; the lists follow each row in table order. */
enum { TB_ROW, TB_THREAD, TB_IODEV, TB_TASK, TB_PERCPU, TB_N };
extern const struct table cg_rec_tables[TB_N];
/* enum cg_count's names in a header's "count" */
extern const char *const cg_rec_count_names[3];

static inline int64_t cg_rec_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint64_t cg_rec_get_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#endif
