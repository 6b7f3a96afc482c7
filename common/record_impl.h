/* SPDX-License-Identifier: MIT */
/* Private to record.c and record_read.c: the format's wire types, codes and field tables. */
#ifndef CGKIT_RECORD_IMPL_H
#define CGKIT_RECORD_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

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
enum ctype { T_U64, T_INT, T_DOUBLE, T_OPT_DOUBLE, T_COMM, T_FLAG };

struct field {
	const char *name;
	uint8_t wire, ctype;
	unsigned have; /* the row's have bit; 0: always present */
	size_t off;
};

/* Both tables: row fields, then the fields of a row's threads. */
extern const struct field cg_rec_row_fields[], cg_rec_thread_fields[];
extern const size_t cg_rec_n_row_fields, cg_rec_n_thread_fields;
/* enum cg_count's names in a header's "count" */
extern const char *const cg_rec_count_names[3];
#define CG_REC_COMM_SIZE sizeof(((struct cg_stat_thread *)0)->comm)

uint64_t cg_rec_zigzag(int64_t v);

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
