// SPDX-License-Identifier: MIT
/*
 * cgtop2's recording format (record.h; man/cgtop2-record.5.scd): sessions of a header record
 * (a self-describing field table) and sample records (rows with per-field presence codes), each
 * framed with its length and a CRC-32. The field tables and the writer; record_read.c parses.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/cleanup.h"
#include "base/hash.h"
#include "record.h"
#include "record_fields.h"

#define RF(n, w, t, h, m)                                                                          \
	{                                                                                          \
		n, w, t, -1, h, offsetof(struct cg_stat_row, m), 0, 0                              \
	}
#define XF(n, i)                                                                                   \
	{                                                                                          \
		n, W_UINT, T_U64, i, 0, 0, 0, 0                                                    \
	}
#define PF(n, p)                                                                                   \
	{                                                                                          \
		n, W_F64, T_DOUBLE, CG_X_PSI_FULL_AVG10 + p, 0, 0, 0, 0                            \
	}
#define AF(n, a, p)                                                                                \
	{                                                                                          \
		n, W_F64, T_DOUBLE, CG_X_PSI_AVG + (a)*CG_PSI_N + (p), 0, 0, 0, 0                  \
	}
#define TF(n, w, t, m)                                                                             \
	{                                                                                          \
		n, w, t, -1, 0, offsetof(struct cg_stat_thread, m), 0, 0                           \
	}
#define DF(n, w, t, h, m)                                                                          \
	{                                                                                          \
		n, w, t, -1, h, offsetof(struct cg_stat_iodev, m),                                 \
			sizeof(((struct cg_stat_iodev *)0)->m), 0                                  \
	}

/*
 * The row's fields. A new field gets a new name (never a changed meaning); a name the reader
 * does not know is skipped, a known one missing from a file is unknown (no bit). The order is
 * the files' (a new one goes at the end).
 */
static const struct field row_fields[] = {
	RF("depth", W_UINT, T_INT, 0, depth),
	RF("tasks", W_UINT, T_U64, CG_STAT_TASKS, tasks),
	RF("cpu_ns", W_UINT, T_U64, CG_STAT_CPU, cpu_ns),
	RF("cpu_percent", W_F64, T_DOUBLE, CG_STAT_CPU_RATE, cpu_percent),
	RF("memory", W_UINT, T_U64, CG_STAT_MEMORY, memory),
	RF("io_read", W_UINT, T_U64, CG_STAT_IO, io_read),
	RF("io_write", W_UINT, T_U64, CG_STAT_IO, io_write),
	RF("io_read_bps", W_F64, T_DOUBLE, CG_STAT_IO_RATE, io_read_bps),
	RF("io_write_bps", W_F64, T_DOUBLE, CG_STAT_IO_RATE, io_write_bps),
	RF("psi_cpu", W_F64, T_DOUBLE, CG_STAT_PSI_CPU, psi[CG_PSI_CPU]),
	RF("psi_memory", W_F64, T_DOUBLE, CG_STAT_PSI_MEMORY, psi[CG_PSI_MEMORY]),
	RF("psi_io", W_F64, T_DOUBLE, CG_STAT_PSI_IO, psi[CG_PSI_IO]),
	RF("threaded", W_FLAG, T_FLAG, CG_STAT_THREADED, have),
	/* the collectors' (enum cg_stat_x) */
	XF("cpu_user_ns", CG_X_CPU_USER_NS),
	XF("cpu_system_ns", CG_X_CPU_SYSTEM_NS),
	XF("cpu_periods", CG_X_CPU_PERIODS),
	XF("cpu_throttled", CG_X_CPU_THROTTLED),
	XF("cpu_throttled_ns", CG_X_CPU_THROTTLED_NS),
	XF("memory_peak", CG_X_MEM_PEAK),
	XF("memory_anon", CG_X_MEM_ANON),
	XF("memory_file", CG_X_MEM_FILE),
	XF("memory_kernel", CG_X_MEM_KERNEL),
	XF("memory_shmem", CG_X_MEM_SHMEM),
	XF("memory_slab", CG_X_MEM_SLAB),
	XF("memory_sock", CG_X_MEM_SOCK),
	XF("memory_inactive_file", CG_X_MEM_INACTIVE_FILE),
	XF("memory_working_set", CG_X_MEM_WORKING_SET),
	XF("memory_swap", CG_X_MEM_SWAP),
	XF("memory_max", CG_X_MEM_MAX),
	XF("memory_high", CG_X_MEM_HIGH),
	XF("memory_low", CG_X_MEM_LOW),
	XF("memory_min", CG_X_MEM_MIN),
	XF("memory_swap_max", CG_X_MEM_SWAP_MAX),
	XF("memory_events_low", CG_X_MEM_EV_LOW),
	XF("memory_events_high", CG_X_MEM_EV_HIGH),
	XF("memory_events_max", CG_X_MEM_EV_MAX),
	XF("memory_events_oom", CG_X_MEM_EV_OOM),
	XF("memory_events_oom_kill", CG_X_MEM_EV_OOM_KILL),
	XF("memory_events_oom_group_kill", CG_X_MEM_EV_OOM_GROUP_KILL),
	XF("memory_under_oom", CG_X_MEM_UNDER_OOM),
	XF("io_rios", CG_X_IO_RIOS),
	XF("io_wios", CG_X_IO_WIOS),
	XF("io_dbytes", CG_X_IO_DBYTES),
	XF("io_dios", CG_X_IO_DIOS),
	XF("pids_max", CG_X_PIDS_MAX),
	XF("pids_events_max", CG_X_PIDS_EV_MAX),
	XF("psi_some_us_cpu", CG_X_PSI_SOME_US + CG_PSI_CPU),
	XF("psi_some_us_memory", CG_X_PSI_SOME_US + CG_PSI_MEMORY),
	XF("psi_some_us_io", CG_X_PSI_SOME_US + CG_PSI_IO),
	XF("psi_full_us_cpu", CG_X_PSI_FULL_US + CG_PSI_CPU),
	XF("psi_full_us_memory", CG_X_PSI_FULL_US + CG_PSI_MEMORY),
	XF("psi_full_us_io", CG_X_PSI_FULL_US + CG_PSI_IO),
	PF("psi_full_cpu", CG_PSI_CPU),
	PF("psi_full_memory", CG_PSI_MEMORY),
	PF("psi_full_io", CG_PSI_IO),
	AF("psi_some_avg60_cpu", CG_PSI_SOME60, CG_PSI_CPU),
	AF("psi_some_avg60_memory", CG_PSI_SOME60, CG_PSI_MEMORY),
	AF("psi_some_avg60_io", CG_PSI_SOME60, CG_PSI_IO),
	AF("psi_some_avg300_cpu", CG_PSI_SOME300, CG_PSI_CPU),
	AF("psi_some_avg300_memory", CG_PSI_SOME300, CG_PSI_MEMORY),
	AF("psi_some_avg300_io", CG_PSI_SOME300, CG_PSI_IO),
	AF("psi_full_avg60_cpu", CG_PSI_FULL60, CG_PSI_CPU),
	AF("psi_full_avg60_memory", CG_PSI_FULL60, CG_PSI_MEMORY),
	AF("psi_full_avg60_io", CG_PSI_FULL60, CG_PSI_IO),
	AF("psi_full_avg300_cpu", CG_PSI_FULL300, CG_PSI_CPU),
	AF("psi_full_avg300_memory", CG_PSI_FULL300, CG_PSI_MEMORY),
	AF("psi_full_avg300_io", CG_PSI_FULL300, CG_PSI_IO),
	XF("memory_soft_limit", CG_X_MEM_SOFT_LIMIT),
	XF("memory_memsw_max", CG_X_MEM_MEMSW_MAX),
	XF("cpu_max_quota", CG_X_CPU_QUOTA),
	XF("cpu_max_period", CG_X_CPU_PERIOD),
	XF("cpu_weight", CG_X_CPU_WEIGHT),
	XF("memory_mapped_file", CG_X_MEM_MAPPED_FILE),
	XF("cpu_shares", CG_X_CPU_SHARES),
};

static const struct field thread_fields[] = {
	TF("tid", W_UINT, T_INT, tid),
	{ "comm", W_BYTES, T_CHARS, -1, 0, offsetof(struct cg_stat_thread, comm),
	  sizeof(((struct cg_stat_thread *)0)->comm), 0 },
	TF("ticks", W_UINT, T_U64, ticks),
	TF("cpu_percent", W_F64, T_OPT_DOUBLE, cpu_percent),
};

/* a task of the row's cgroup (cg_stats_set_members_all), as the detail pane lists it */
#define KF(n, w, t, m)                                                                             \
	{                                                                                          \
		n, w, t, -1, 0, offsetof(struct cg_stat_member, m),                                \
			sizeof(((struct cg_stat_member *)0)->m), 0                                 \
	}
static const struct field task_fields[] = {
	KF("id", W_UINT, T_INT, id),	    KF("thread", W_UINT, T_BOOL, thread),
	KF("state", W_UINT, T_CHAR, state), KF("comm", W_BYTES, T_CHARS, comm),
	KF("ticks", W_UINT, T_U64, ticks),  KF("cpu_percent", W_F64, T_OPT_DOUBLE, cpu_percent),
};

/* a block device's figures (with CG_COLL_IODEVICE), present by their CG_IO_* bits */
static const struct field iodev_fields[] = {
	DF("major", W_UINT, T_UINT, 0, io.major),
	DF("minor", W_UINT, T_UINT, 0, io.minor),
	DF("name", W_BYTES, T_CHARS, 0, name),
	DF("rbytes", W_UINT, T_U64, 1u << CG_IO_RBYTES, io.v[CG_IO_RBYTES]),
	DF("wbytes", W_UINT, T_U64, 1u << CG_IO_WBYTES, io.v[CG_IO_WBYTES]),
	DF("rios", W_UINT, T_U64, 1u << CG_IO_RIOS, io.v[CG_IO_RIOS]),
	DF("wios", W_UINT, T_U64, 1u << CG_IO_WIOS, io.v[CG_IO_WIOS]),
	DF("dbytes", W_UINT, T_U64, 1u << CG_IO_DBYTES, io.v[CG_IO_DBYTES]),
	DF("dios", W_UINT, T_U64, 1u << CG_IO_DIOS, io.v[CG_IO_DIOS]),
};

/* a CPU's time of v1's cpuacct.usage_percpu (minor version 2), an element per CPU by number */
static const struct field percpu_fields[] = {
	{ "ns", W_UINT, T_U64, -1, 0, 0, 0, 0 },
};

/*
 * The row's fields and after them the kernel's statistics (cg_kstats), a field each under its
 * key: made from both tables when the program starts, so that a statistic added there is
 * recorded without a line here (a new one at the end of the table, as any field).
 */
#define ROW_N (ARRAY_SIZE(row_fields) + CG_K_N)
static struct field row_all[ROW_N];

__attribute__((constructor)) static void row_all_make(void)
{
	memcpy(row_all, row_fields, sizeof(row_fields));
	for (int i = 0; i < CG_K_N; i++)
		row_all[ARRAY_SIZE(row_fields) + i] =
			(struct field){ cg_kstats[i].key,
					W_UINT,
					T_U64,
					-1,
					0,
					0, /* the row's k holds the known alone */
					0,
					i + 1 };
}

/* encode_elem' codes: 2 bits a field in 64 bytes; x_have's bits */
_Static_assert(ROW_N <= 256 && ARRAY_SIZE(thread_fields) <= 256 &&
		       ARRAY_SIZE(iodev_fields) <= 256 && ARRAY_SIZE(task_fields) <= 256,
	       "too many fields for encode_elem");
_Static_assert(CG_X_N <= 64, "x_have has 64 bits");

_Static_assert(TB_N == CG_REC_TABLES, "record.h's lists");
const struct table cg_rec_tables[TB_N] = {
	[TB_ROW] = { "row", row_all, ROW_N, sizeof(struct cg_stat_row),
		     offsetof(struct cg_stat_row, have), offsetof(struct cg_stat_row, x_have),
		     NO_OFF, NO_OFF },
	[TB_THREAD] = { "thread", thread_fields, ARRAY_SIZE(thread_fields),
			sizeof(struct cg_stat_thread), NO_OFF, NO_OFF,
			offsetof(struct cg_stat_row, threads),
			offsetof(struct cg_stat_row, n_threads) },
	[TB_IODEV] = { "iodev", iodev_fields, ARRAY_SIZE(iodev_fields),
		       sizeof(struct cg_stat_iodev), offsetof(struct cg_stat_iodev, io.have),
		       NO_OFF, offsetof(struct cg_stat_row, iodevs),
		       offsetof(struct cg_stat_row, n_iodevs) },
	/* minor version 1 */
	[TB_TASK] = { "task", task_fields, ARRAY_SIZE(task_fields), sizeof(struct cg_stat_member),
		      NO_OFF, NO_OFF, offsetof(struct cg_stat_row, members),
		      offsetof(struct cg_stat_row, n_members) },
	/* minor version 2 */
	[TB_PERCPU] = { "percpu", percpu_fields, ARRAY_SIZE(percpu_fields), sizeof(uint64_t),
			NO_OFF, NO_OFF, offsetof(struct cg_stat_row, percpu_ns),
			offsetof(struct cg_stat_row, n_percpu) },
};

const char *const cg_rec_count_names[3] = { "tasks", "processes", "user_processes" };

/* ---- bytes ---------------------------------------------------------------------------------- */

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	bool failed;
};

static void put(struct wbuf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->failed = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	if (n) /* an empty string's p may be NULL, which memcpy may not take */
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_varint(struct wbuf *b, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;

	do {
		t[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			t[n] |= 0x80;
		n++;
	} while (v);
	put(b, t, n);
}

static void put_le(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_bytes(struct wbuf *b, const void *p, size_t n)
{
	put_varint(b, n);
	put(b, p, n);
}

static void put_str(struct wbuf *b, const char *s)
{
	put_bytes(b, s, strlen(s));
}

static uint64_t cg_rec_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* ---- values --------------------------------------------------------------------------------- */

/* Hundredths that give back exactly v (PSI figures, most percentages): 1-3 bytes, not 8. */
static bool centi_of(double v, int64_t *ret)
{
	double t;

	if (!(v > -9e13 && v < 9e13))
		return false;
	t = v * 100.0;
	t = t < 0 ? -(double)(int64_t)(-t + 0.5) : (double)(int64_t)(t + 0.5);
	if (t / 100.0 != v)
		return false;
	*ret = (int64_t)t;
	return true;
}

static uint64_t f64_bits(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static bool field_present(const struct field *f, const char *base, unsigned have, uint64_t xhave)
{
	if (f->ctype == T_OPT_DOUBLE)
		return *(const double *)(base + f->off) >= 0;
	if (f->xbit >= 0)
		return xhave & (1ull << f->xbit);
	if (f->kbit)
		return cg_kstat_known((const struct cg_stat_row *)(const void *)base, f->kbit - 1);
	return !f->have || (have & f->have);
}

/* Append f's code to codes and its value to vals. */
static void encode_field(const struct field *f, const char *base, unsigned have, uint64_t xhave,
			 uint8_t *codes, size_t i, struct wbuf *vals)
{
	const struct cg_stat_row *row = (const struct cg_stat_row *)(const void *)base;
	const char *p = base + f->off;
	enum code c = C_ABSENT;
	/* a row's packed values (x, k), each stored as what the field reads */
	union {
		uint64_t u;
		double d;
	} kv;

	if (!field_present(f, base, have, xhave))
		goto out;
	if (f->kbit) {
		kv.u = cg_kstat_get(row, f->kbit - 1);
		p = (const char *)&kv;
	} else if (f->xbit >= 0 && f->ctype == T_DOUBLE) {
		kv.d = cg_stat_xd(row, f->xbit);
		p = (const char *)&kv;
	} else if (f->xbit >= 0) {
		kv.u = cg_stat_x(row, f->xbit);
		p = (const char *)&kv;
	}
	switch (f->ctype) {
	case T_U64:
	case T_INT:
	case T_UINT:
	case T_BOOL:
	case T_CHAR: {
		uint64_t v = f->ctype == T_U64	  ? *(const uint64_t *)p
			     : f->ctype == T_INT  ? cg_rec_zigzag(*(const int *)p)
			     : f->ctype == T_BOOL ? *(const bool *)p
			     : f->ctype == T_CHAR ? *(const unsigned char *)p
						  : *(const unsigned *)p;

		c = v ? C_VALUE : C_ZERO;
		if (v)
			put_varint(vals, v);
		break;
	}
	case T_DOUBLE:
	case T_OPT_DOUBLE: {
		double v = *(const double *)p;
		uint8_t le[8];
		int64_t centi;

		if (f64_bits(v) == 0) {
			c = C_ZERO;
		} else if (centi_of(v, &centi)) {
			c = C_CENTI;
			put_varint(vals, cg_rec_zigzag(centi));
		} else {
			c = C_VALUE;
			put_le(le, f64_bits(v), 8);
			put(vals, le, 8);
		}
		break;
	}
	case T_CHARS: {
		size_t n = strnlen(p, f->size);

		c = n ? C_VALUE : C_ZERO;
		if (n)
			put_bytes(vals, p, n);
		break;
	}
	default:
		c = C_ZERO;
		break;
	}
out:
	codes[i / 4] |= (uint8_t)(c << (2 * (i % 4)));
}

/* One element of table t (a row, a thread, a device): its codes, then its values. */
static void encode_elem(struct wbuf *b, const struct table *t, const void *elem, struct wbuf *vals)
{
	const char *base = elem;
	unsigned have = t->have_off != NO_OFF ? *(const unsigned *)(base + t->have_off) : 0;
	uint64_t xhave = t->xhave_off != NO_OFF ? *(const uint64_t *)(base + t->xhave_off) : 0;
	/* 2 bits a field: 64 bytes hold 256 fields */
	uint8_t codes[64] = { 0 };

	vals->len = 0;
	for (size_t i = 0; i < t->n; i++)
		encode_field(&t->fields[i], base, have, xhave, codes, i, vals);
	put(b, codes, (t->n + 3) / 4);
	if (vals->failed)
		b->failed = true;
	else
		put(b, vals->p, vals->len);
}

/* ---- writing -------------------------------------------------------------------------------- */

struct rec_path {
	char *path; /* the map's key */
	uint64_t id;
};

struct cg_rec_writer {
	struct wbuf rec, vals;
	struct cg_pathmap ids; /* the session's cgroups: path -> struct rec_path */
	uint64_t next_id;
};

int cg_rec_diag(struct cg_diag *d, int r, const char *what, const char *why)
{
	if (why)
		return cg_diag_say(d, -r, "", "", what, "%s", why);
	return cg_diag_fail(d, -r, CG_OP_OTHER, 0, "", "", "%s", what);
}

int cg_rec_writer_new(struct cg_rec_writer **ret, struct cg_diag *d)
{
	struct cg_rec_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return cg_rec_diag(d, -ENOMEM, "record", NULL);
	*ret = w;
	return 0;
}

static void rec_path_free(struct rec_path *p)
{
	if (p) {
		free(p->path);
		free(p);
	}
}

static void dict_clear(struct cg_rec_writer *w)
{
	const struct cg_pathmap_slot *e;
	size_t i = 0;

	while ((e = cg_pathmap_next(&w->ids, &i)))
		rec_path_free(e->value);
	cg_pathmap_clear(&w->ids);
	w->next_id = 0;
}

void cg_rec_writer_free(struct cg_rec_writer *w)
{
	if (!w)
		return;
	dict_clear(w);
	free(w->rec.p);
	free(w->vals.p);
	free(w);
}

/* The id of path in this session; *is_new when it is first named here. -ENOMEM. */
static int dict_id(struct cg_rec_writer *w, const char *path, uint64_t *ret, bool *is_new)
{
	struct rec_path *p = cg_pathmap_get(&w->ids, NULL, path);

	*is_new = !p;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p || !(p->path = strdup(path)) ||
		    cg_pathmap_put(&w->ids, NULL, p->path, p) < 0) {
			rec_path_free(p);
			return -ENOMEM;
		}
		p->id = w->next_id++;
	}
	*ret = p->id;
	return 0;
}

void cg_rec_file_head(uint8_t head[CG_REC_HEAD_SIZE])
{
	memcpy(head, CG_REC_MAGIC, 8);
	put_le(head + 8, CG_REC_MAJOR, 2);
	put_le(head + 10, CG_REC_MINOR, 2);
}

static void frame_begin(struct wbuf *b, uint8_t type)
{
	uint8_t h[5] = { 0, 0, 0, 0, type };

	b->len = 0;
	b->failed = false;
	put(b, h, sizeof(h));
}

/* Fill in the length, append the CRC-32 of length, type and payload. */
static int frame_end(struct wbuf *b, const uint8_t **ret, size_t *ret_len)
{
	uint8_t crc[4];

	if (b->failed || b->len - 4 > CG_REC_MAX_RECORD)
		return b->failed ? -ENOMEM : -EFBIG;
	put_le(b->p, b->len - 4, 4);
	put_le(crc, crc32(0, b->p, (uInt)b->len), 4);
	put(b, crc, 4);
	if (b->failed)
		return -ENOMEM;
	*ret = b->p;
	*ret_len = b->len;
	return 0;
}

static void put_info(struct wbuf *b, const char *key, const char *val)
{
	put_str(b, key);
	put_str(b, val);
}

static void put_table(struct wbuf *b, const struct table *t)
{
	put_str(b, t->name);
	put_varint(b, t->n);
	for (size_t i = 0; i < t->n; i++) {
		put_str(b, t->fields[i].name);
		put(b, &t->fields[i].wire, 1);
	}
}

static int encode_header(struct cg_rec_writer *w, const struct cg_rec_info *info,
			 const uint8_t **ret, size_t *ret_len)
{
	struct wbuf *b = &w->rec;
	char num[3][24];
	int r;

	dict_clear(w);
	frame_begin(b, R_HEADER);
	put_varint(b, CG_REC_MAJOR);
	put_varint(b, CG_REC_MINOR);
	snprintf(num[0], sizeof(num[0]), "%d", info->depth);
	snprintf(num[1], sizeof(num[1]), "%llu", (unsigned long long)info->delay_ns);
	put_varint(b, 7);
	put_info(b, "path", info->path ? info->path : "");
	put_info(b, "host", info->host ? info->host : "");
	put_info(b, "count", cg_rec_count_names[info->count]);
	put_info(b, "own_only", info->own_only ? "1" : "0");
	put_info(b, "threads", info->threads ? "1" : "0");
	put_info(b, "depth", num[0]);
	put_info(b, "delay_ns", num[1]);
	put_varint(b, TB_N);
	for (size_t t = 0; t < TB_N; t++)
		put_table(b, &cg_rec_tables[t]);
	r = frame_end(b, ret, ret_len);
	/* a reader resynchronising after damage looks for headers no larger */
	if (r == 0 && *ret_len - 8 > CG_REC_MAX_HEADER)
		r = -EFBIG;
	return r;
}

static int encode_sample(struct cg_rec_writer *w, uint64_t time_ns, struct cg_stat_row *const *rows,
			 size_t n, const uint8_t **ret, size_t *ret_len)
{
	struct wbuf *b = &w->rec;

	frame_begin(b, R_SAMPLE);
	put_varint(b, time_ns);
	put_varint(b, n);
	for (size_t i = 0; i < n; i++) {
		const struct cg_stat_row *r = rows[i];
		uint64_t id;
		bool is_new;
		int e = dict_id(w, r->path, &id, &is_new);

		if (e < 0)
			return e;
		put_varint(b, id << 1 | is_new);
		if (is_new)
			put_str(b, r->path);
		encode_elem(b, &cg_rec_tables[TB_ROW], r, &w->vals);
		/* the row's lists: its threads, its devices */
		for (size_t t = TB_ROW + 1; t < TB_N; t++) {
			const struct table *tb = &cg_rec_tables[t];
			const char *list = *(char *const *)((const char *)r + tb->list_off);
			size_t count = *(const size_t *)((const char *)r + tb->count_off);

			put_varint(b, count);
			for (size_t k = 0; k < count; k++)
				encode_elem(b, tb, list + k * tb->elem, &w->vals);
		}
	}
	return frame_end(b, ret, ret_len);
}

int cg_rec_encode_header(struct cg_rec_writer *w, const struct cg_rec_info *info,
			 const uint8_t **ret, size_t *ret_len, struct cg_diag *d)
{
	int r = encode_header(w, info, ret, ret_len);

	return r < 0 ? cg_rec_diag(d, r, "record a session header", NULL) : r;
}

int cg_rec_encode_sample(struct cg_rec_writer *w, uint64_t time_ns, struct cg_stat_row *const *rows,
			 size_t n, const uint8_t **ret, size_t *ret_len, struct cg_diag *d)
{
	int r = encode_sample(w, time_ns, rows, n, ret, ret_len);

	return r < 0 ? cg_rec_diag(d, r, "record a sample", NULL) : r;
}
