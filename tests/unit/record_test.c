// SPDX-License-Identifier: MIT
/*
 * common/record: rows round trip through the writer and the parser (every field, threads,
 * tasks, doubles exact); a file of a newer minor version with fields this reader does not know (of
 * every wire type), a known field of another wire type, a missing one and an unknown record
 * type; every truncation; versions and magic.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "record/record.h"

struct buf {
	uint8_t p[8192];
	size_t len;
};

static void add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > sizeof(b->p))
		abort();
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void add_varint(struct buf *b, uint64_t v)
{
	do {
		uint8_t c = (uint8_t)(v & 0x7f);

		v >>= 7;
		if (v)
			c |= 0x80;
		add(b, &c, 1);
	} while (v);
}

static void add_str(struct buf *b, const char *s)
{
	add_varint(b, strlen(s));
	add(b, s, strlen(s));
}

static void add_le32(struct buf *b, uint32_t v)
{
	uint8_t t[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	add(b, t, 4);
}

/* A record around payload p: length, type, payload, CRC-32 */
static void add_record(struct buf *b, uint8_t type, const struct buf *p)
{
	size_t at = b->len;

	add_le32(b, (uint32_t)p->len + 1);
	add(b, &type, 1);
	add(b, p->p, p->len);
	add_le32(b, (uint32_t)crc32(0, b->p + at, (uInt)(p->len + 5)));
}

static struct cg_rec_file *parse(const struct buf *b, size_t len, struct cg_rec_damage *d)
{
	struct cg_rec_file *f = NULL;
	unsigned major, minor;

	CHECK_INT(cg_rec_parse(b->p, len, &f, d, &major, &minor, NULL), 0);
	return f;
}

static void round_trip(void)
{
	struct cg_stat_thread th[2] = {
		{ .tid = 42, .comm = "worker \x1b[7m", .ticks = 9, .cpu_percent = -1 },
		{ .tid = 43, .comm = "", .ticks = 0, .cpu_percent = 12.5 }
	};
	struct cg_stat_row r0 = { .path = "/",
				  .depth = 0,
				  .tasks = 11,
				  .cpu_ns = 123456789012,
				  .cpu_percent = 1.0 / 3,
				  .memory = 1 << 30,
				  .io_read = 5,
				  .io_write = 0,
				  .io_read_bps = 1e9 + 0.5,
				  .io_write_bps = 0,
				  .psi = { 12.34, 0, 99.99 } },
			   r1 = { .path = "/a\tb", .depth = 1, .tasks = 3 },
			   r2 = { .path = "/t", .depth = 1, .threads = th, .n_threads = 2 };
	struct cg_stat_iodev dev[2] = {
		{ .io = { .major = 8, .minor = 0, .have = 3, .v = { 4096, 1 << 20 } },
		  .name = "sda" },
		{ .io = { .major = 259, .minor = 1, .have = 1u << 5, .v = { [5] = 7 } } }
	};
	/* tasks (minor version 1): a process with a hostile comm, a thread without a figure */
	struct cg_stat_member tk[2] = {
		{ .id = 4242,
		  .state = 'R',
		  .comm = "sh \x1b]2;x\a\t",
		  .ticks = 77,
		  .cpu_percent = 50 },
		{ .id = 7, .thread = true, .state = 'S', .comm = "w", .cpu_percent = -1 }
	};
	struct cg_stat_row *rows[] = { &r0, &r1, &r2 }, *rows2[] = { &r2, &r0 };
	struct cg_rec_info info = { .path = "a/b",
				    .host = "h",
				    .count = CG_COUNT_USER_PROCESSES,
				    .own_only = true,
				    .threads = true,
				    .depth = 7,
				    .delay_ns = 5 };
	struct cg_rec_writer *w = NULL;
	struct cg_rec_rows out = { 0 };
	struct cg_rec_damage d;
	struct cg_rec_file *f;
	struct buf b = { .len = CG_REC_HEAD_SIZE };
	const uint8_t *p;
	size_t n, prev = 0;

	r0.have = CG_STAT_TASKS | CG_STAT_CPU | CG_STAT_CPU_RATE | CG_STAT_MEMORY | CG_STAT_IO |
		  CG_STAT_IO_RATE | CG_STAT_PSI_CPU | CG_STAT_PSI_MEMORY | CG_STAT_PSI_IO;
	/* every collected value, a limit at "max" among them */
	for (int i = 0; i < CG_X_PSI_FULL_AVG10; i++)
		CHECK_INT(cg_stat_x_set(&r0, i, (uint64_t)i * 1000003), 0);
	for (int i = CG_X_PSI_FULL_AVG10; i < CG_X_N; i++)
		CHECK_INT(cg_stat_xd_set(&r0, i, 0), 0);
	CHECK_INT(cg_stat_x_set(&r0, CG_X_MEM_MAX, UINT64_MAX), 0);
	CHECK_INT(r0.x_have, CG_X_N == 64 ? UINT64_MAX : (1ull << CG_X_N) - 1);
	CHECK_INT(cg_stat_xd_set(&r0, CG_X_PSI_FULL_AVG10 + CG_PSI_IO, 0.5), 0);
	CHECK_INT(
		cg_stat_xd_set(&r0, CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N + CG_PSI_MEMORY, 3.25),
		0);
	CHECK_INT(cg_stat_xd_set(&r0, CG_X_PSI_AVG + CG_PSI_FULL60 * CG_PSI_N + CG_PSI_IO, 0.01),
		  0);
	/* the second row's kernel statistics come after the first row's values when decoded */
	CHECK_INT(cg_kstat_set(&r1, CG_K_N - 1, 88), 0);
	CHECK_INT(cg_kstat_set(&r1, 0, 77), 0);
	r0.iodevs = dev;
	r0.n_iodevs = 2;
	r1.have = CG_STAT_TASKS;
	r1.members = tk;
	r1.n_members = 2;
	r2.have = CG_STAT_THREADED;
	cg_rec_file_head(b.p);
	CHECK_INT(cg_rec_writer_new(&w, NULL), 0);
	CHECK_INT(cg_rec_encode_header(w, &info, &p, &n, NULL), 0);
	add(&b, p, n);
	CHECK_INT(cg_rec_encode_sample(w, 1000, rows, 3, &p, &n, NULL), 0);
	add(&b, p, n);
	CHECK_INT(cg_rec_encode_sample(w, 2000, rows2, 2, &p, &n, NULL), 0);
	add(&b, p, n);
	cg_rec_writer_free(w);

	f = parse(&b, b.len, &d);
	CHECK(d.why == NULL);
	CHECK_INT(cg_rec_count(f), 2);
	CHECK_INT(cg_rec_time(f, 0), 1000);
	CHECK_INT(cg_rec_time(f, 1), 2000);
	CHECK_STR(cg_rec_info_of(f, 1)->path, "a/b");
	CHECK_STR(cg_rec_info_of(f, 1)->host, "h");
	CHECK_INT(cg_rec_info_of(f, 1)->count, CG_COUNT_USER_PROCESSES);
	CHECK(cg_rec_info_of(f, 1)->own_only && cg_rec_info_of(f, 1)->threads);
	CHECK_INT(cg_rec_info_of(f, 1)->depth, 7);
	CHECK_INT(cg_rec_info_of(f, 1)->delay_ns, 5);
	CHECK_INT(cg_rec_decode(f, 0, &out, NULL), 0);
	CHECK_INT(out.n, 3);
	if (out.n == 3) {
		const struct cg_stat_row *a = out.ptrs[0], *c = out.ptrs[1], *t = out.ptrs[2];

		CHECK_STR(a->path, "/");
		CHECK_INT(a->have, r0.have);
		CHECK_INT(a->tasks, 11);
		CHECK_INT(a->cpu_ns, 123456789012);
		CHECK(a->cpu_percent == 1.0 / 3);
		CHECK_INT(a->memory, 1 << 30);
		CHECK_INT(a->io_read, 5);
		CHECK(a->io_read_bps == 1e9 + 0.5 && a->io_write_bps == 0);
		CHECK(a->psi[0] == 12.34 && a->psi[1] == 0 && a->psi[2] == 99.99);
		/* a collected value without a field in the format would be lost here */
		CHECK_INT(a->x_have, r0.x_have);
		for (int i = 0; i < CG_X_PSI_FULL_AVG10; i++)
			CHECK_INT(cg_stat_x(a, i), cg_stat_x(&r0, i));
		CHECK_INT(cg_stat_x(a, CG_X_MEM_MAX), UINT64_MAX);
		CHECK(cg_stat_xd(a, CG_X_PSI_FULL_AVG10 + CG_PSI_IO) == 0.5 &&
		      cg_stat_xd(a, CG_X_PSI_FULL_AVG10 + CG_PSI_CPU) == 0);
		CHECK(cg_stat_xd(a, CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N + CG_PSI_MEMORY) ==
			      3.25 &&
		      cg_stat_xd(a, CG_X_PSI_AVG + CG_PSI_FULL60 * CG_PSI_N + CG_PSI_IO) == 0.01 &&
		      cg_stat_xd(a, CG_X_PSI_AVG + CG_PSI_FULL300 * CG_PSI_N + CG_PSI_CPU) == 0);
		CHECK(cg_kstat_count(a) == 0 && a->k == NULL);
		CHECK_INT(a->n_iodevs, 2);
		if (a->n_iodevs == 2) {
			CHECK_INT(a->iodevs[0].io.major, 8);
			CHECK_INT(a->iodevs[0].io.have, 3);
			CHECK_INT(a->iodevs[0].io.v[1], 1 << 20);
			CHECK_STR(a->iodevs[0].name, "sda");
			CHECK_INT(a->iodevs[1].io.minor, 1);
			CHECK_INT(a->iodevs[1].io.have, 1u << 5);
			CHECK_INT(a->iodevs[1].io.v[5], 7);
			CHECK_STR(a->iodevs[1].name, "");
		}
		CHECK_STR(c->path, "/a\tb");
		CHECK_INT(c->have, CG_STAT_TASKS);
		CHECK_INT(c->depth, 1);
		CHECK_INT(c->n_threads, 0);
		CHECK(c->iodevs == NULL && c->x_have == 0);
		CHECK_INT(cg_kstat_count(c), 2);
		CHECK(cg_kstat_get(c, 0) == 77 && cg_kstat_get(c, CG_K_N - 1) == 88);
		CHECK_INT(c->n_members, 2);
		if (c->n_members == 2) {
			CHECK_INT(c->members[0].id, 4242);
			CHECK(!c->members[0].thread && c->members[1].thread);
			CHECK_INT(c->members[0].state, 'R');
			CHECK_STR(c->members[0].comm, "sh \x1b]2;x\a\t");
			CHECK_INT(c->members[0].ticks, 77);
			CHECK(c->members[0].cpu_percent == 50 && c->members[1].cpu_percent < 0);
			CHECK_INT(c->members[1].id, 7);
			CHECK_INT(c->members[1].state, 'S');
		}
		CHECK(a->n_members == 0 && a->members == NULL);
		CHECK_INT(t->have, CG_STAT_THREADED);
		CHECK_INT(t->n_threads, 2);
		if (t->n_threads == 2) {
			CHECK_INT(t->threads[0].tid, 42);
			CHECK_STR(t->threads[0].comm, "worker \x1b[7m");
			CHECK_INT(t->threads[0].ticks, 9);
			CHECK(t->threads[0].cpu_percent < 0);
			CHECK_STR(t->threads[1].comm, "");
			CHECK(t->threads[1].cpu_percent == 12.5);
		}
	}
	/* the second sample names known cgroups by number only */
	CHECK_INT(cg_rec_decode(f, 1, &out, NULL), 0);
	CHECK_INT(out.n, 2);
	if (out.n == 2) {
		CHECK_STR(out.ptrs[0]->path, "/t");
		CHECK_INT(out.ptrs[0]->n_threads, 2);
		CHECK_STR(out.ptrs[1]->path, "/");
		CHECK_INT(out.ptrs[1]->memory, 1 << 30);
		CHECK_INT(cg_stat_x(out.ptrs[1], CG_X_MEM_MAX), UINT64_MAX);
		CHECK_INT(cg_stat_x(out.ptrs[1], CG_X_PSI_FULL_US + CG_PSI_IO),
			  (CG_X_PSI_FULL_US + CG_PSI_IO) * 1000003ull);
	}
	cg_rec_file_free(f);

	/* every cut: the whole samples before it, the damage said unless it is a boundary */
	for (size_t len = CG_REC_HEAD_SIZE; len <= b.len; len++) {
		f = parse(&b, len, &d);
		if (!f)
			continue;
		CHECK(cg_rec_count(f) >= prev && cg_rec_count(f) <= 2);
		if (len == b.len)
			CHECK(!d.why);
		if (d.why)
			CHECK(d.offset + d.bytes == len);
		prev = cg_rec_count(f);
		cg_rec_file_free(f);
	}
	CHECK_INT(prev, 2);
	cg_rec_rows_free(&out);
	free(r0.x);
	free(r1.k);
}

/*
 * What a later minor version may write: fields of every wire type this reader does not know,
 * "memory" as another wire type (not the memory this reader knows: skipped), no "cpu_ns" at
 * all, an unknown info key, an unknown record type.
 */
static void newer_minor(void)
{
	struct buf b = { .len = 0 }, h = { .len = 0 }, s = { .len = 0 }, z = { .len = 0 };
	uint8_t head[CG_REC_HEAD_SIZE], f64[8];
	struct cg_rec_rows out = { 0 };
	struct cg_rec_damage d;
	struct cg_rec_file *f;
	double v = 2.5;
	uint8_t codes;

	cg_rec_file_head(head);
	head[10] = 9; /* minor 9 */
	add(&b, head, sizeof(head));
	add_varint(&h, 1);
	add_varint(&h, 9);
	add_varint(&h, 3);
	add_str(&h, "path");
	add_str(&h, "x");
	add_str(&h, "count");
	add_str(&h, "processes");
	add_str(&h, "zz");
	add_str(&h, "whatever");
	add_varint(&h, 3);
	add_str(&h, "row");
	add_varint(&h, 8);
	add_str(&h, "future_u");
	add(&h, "\x01", 1);
	add_str(&h, "tasks");
	add(&h, "\x01", 1);
	add_str(&h, "future_f");
	add(&h, "\x02", 1);
	add_str(&h, "future_b");
	add(&h, "\x03", 1);
	add_str(&h, "future_flag");
	add(&h, "\x04", 1);
	add_str(&h, "memory");
	add(&h, "\x02", 1);
	add_str(&h, "psi_io");
	add(&h, "\x02", 1);
	add_str(&h, "future_c");
	add(&h, "\x02", 1);
	/* a list this reader does not know, then the threads with a field it does not know */
	add_str(&h, "future_list");
	add_varint(&h, 1);
	add_str(&h, "u");
	add(&h, "\x01", 1);
	add_str(&h, "thread");
	add_varint(&h, 2);
	add_str(&h, "tid");
	add(&h, "\x01", 1);
	add_str(&h, "future_t");
	add(&h, "\x03", 1);
	add_record(&b, 'H', &h);
	add_str(&z, "a record of a type to come");
	add_record(&b, 'Z', &z);
	add_varint(&s, 77);
	add_varint(&s, 1);
	add_varint(&s, 0 << 1 | 1);
	add_str(&s, "/a");
	/* codes: u=2 tasks=2 f=2 b=2 | flag=1 memory=3 psi_io=3 c=3 */
	codes = 2 | 2 << 2 | 2 << 4 | 2 << 6;
	add(&s, &codes, 1);
	codes = 1 | 3 << 2 | 3 << 4 | 3 << 6;
	add(&s, &codes, 1);
	add_varint(&s, 300);
	add_varint(&s, 7);
	memcpy(f64, &v, 8);
	add(&s, f64, 8);
	add_str(&s, "hello");
	add_varint(&s, 4);
	add_varint(&s, 2468); /* psi_io: zigzag 1234 hundredths */
	add_varint(&s, 5);
	/* two elements of the unknown list, one thread */
	add_varint(&s, 2);
	codes = 2;
	add(&s, &codes, 1);
	add_varint(&s, 99);
	codes = 0;
	add(&s, &codes, 1);
	add_varint(&s, 1);
	codes = 2 | 2 << 2;
	add(&s, &codes, 1);
	add_varint(&s, 2 * 321);
	add_str(&s, "skip me");
	add_record(&b, 'S', &s);

	f = parse(&b, b.len, &d);
	CHECK(d.why == NULL);
	if (!f)
		return;
	CHECK_INT(cg_rec_count(f), 1);
	CHECK_STR(cg_rec_info_of(f, 0)->path, "x");
	CHECK_INT(cg_rec_info_of(f, 0)->count, CG_COUNT_PROCESSES);
	CHECK_INT(cg_rec_decode(f, 0, &out, NULL), 0);
	CHECK_INT(out.n, 1);
	if (out.n == 1) {
		CHECK_STR(out.ptrs[0]->path, "/a");
		CHECK_INT(out.ptrs[0]->have, CG_STAT_TASKS | CG_STAT_PSI_IO);
		CHECK_INT(out.ptrs[0]->tasks, 7);
		CHECK(out.ptrs[0]->psi[CG_PSI_IO] == 12.34);
		CHECK_INT(out.ptrs[0]->n_threads, 1);
		if (out.ptrs[0]->n_threads == 1) {
			CHECK_INT(out.ptrs[0]->threads[0].tid, 321);
			CHECK_STR(out.ptrs[0]->threads[0].comm, "");
			CHECK(out.ptrs[0]->threads[0].cpu_percent < 0);
		}
	}
	cg_rec_rows_free(&out);
	cg_rec_file_free(f);
}

static void versions(void)
{
	struct buf b = { .len = CG_REC_HEAD_SIZE };
	struct cg_rec_file *f = NULL;
	struct cg_rec_damage d;
	unsigned major = 0, minor = 0;

	cg_rec_file_head(b.p);
	b.p[8] = 2;
	b.p[10] = 3;
	{
		struct cg_diag diag = { 0 };

		CHECK_INT(cg_rec_parse(b.p, b.len, &f, &d, &major, &minor, &diag),
			  -EPROTONOSUPPORT);
		CHECK_STR(diag.what, "replay");
		CHECK_STR(diag.why, "format version 2.3 is newer than this reader's (1.x)");
	}
	CHECK_INT(major, 2);
	CHECK_INT(minor, 3);
	CHECK(f == NULL);
	b.p[0] = 'X';
	{
		struct cg_diag diag = { 0 };

		CHECK_INT(cg_rec_parse(b.p, b.len, &f, &d, &major, &minor, &diag), -EBADMSG);
		CHECK_STR(diag.why, "not a cgtop2 recording");
	}
	CHECK_STR(d.why, "not a cgtop2 recording");
	CHECK_INT(cg_rec_parse(b.p, 3, &f, &d, &major, &minor, NULL), -EBADMSG);
	/* a head alone is an empty recording */
	cg_rec_file_head(b.p);
	f = parse(&b, b.len, &d);
	CHECK(f && cg_rec_count(f) == 0 && !d.why);
	cg_rec_file_free(f);
}

int main(void)
{
	round_trip();
	newer_minor();
	versions();
	return CHECK_DONE();
}
