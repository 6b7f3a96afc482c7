// SPDX-License-Identifier: MIT
/*
 * Parsing a recording (record.h): every record's frame, checksum and structure checked, damage
 * skipped to the next session header, samples indexed at parse and decoded on demand.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/cleanup.h"
#include "base/parse.h"
#include "record.h"
#include "record_fields.h"

struct rbuf {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t get_varint(struct rbuf *r)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 70; shift += 7) {
		uint8_t c;

		if (r->p >= r->end || (shift == 63 && (*r->p & 0xfe))) {
			r->bad = true;
			return 0;
		}
		c = *r->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static const uint8_t *get_bytes(struct rbuf *r, size_t *ret_len)
{
	uint64_t n = get_varint(r);
	const uint8_t *p = r->p;

	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		*ret_len = 0;
		return NULL;
	}
	r->p += n;
	*ret_len = (size_t)n;
	return p;
}

static const uint8_t *get_fixed(struct rbuf *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || n > (size_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

/* ---- reading -------------------------------------------------------------------------------- */

/* A table as a session's header lists it, mapped onto ours. */
struct stable {
	int known; /* enum TB_*, -1: a table this reader does not know (skipped) */
	size_t n;
	uint8_t *wire;
	int *map; /* file field -> our field of that table, -1: unknown, skipped */
};

/* One session: its info, its tables, the cgroups it has named. */
struct session {
	struct cg_rec_info info;
	char *path, *host;
	struct stable *tabs;
	size_t n_tabs;
	char **paths;
	size_t n_paths, paths_cap;
};

struct sample_ix {
	const uint8_t *p;
	size_t len;
	uint64_t time_ns;
	size_t session;
};

struct cg_rec_file {
	struct session *ss;
	size_t n_ss;
	struct sample_ix *ix;
	size_t n, cap;
};

static void session_free(struct session *s)
{
	free(s->path);
	free(s->host);
	for (size_t i = 0; i < s->n_tabs; i++) {
		free(s->tabs[i].wire);
		free(s->tabs[i].map);
	}
	free(s->tabs);
	for (size_t i = 0; i < s->n_paths; i++)
		free(s->paths[i]);
	free(s->paths);
}

void cg_rec_file_free(struct cg_rec_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n_ss; i++)
		session_free(&f->ss[i]);
	free(f->ss);
	free(f->ix);
	free(f);
}

size_t cg_rec_count(const struct cg_rec_file *f)
{
	return f->n;
}

uint64_t cg_rec_time(const struct cg_rec_file *f, size_t i)
{
	return f->ix[i].time_ns;
}

const struct cg_rec_info *cg_rec_info_of(const struct cg_rec_file *f, size_t i)
{
	return &f->ss[f->ix[i].session].info;
}

/* bytes without a NUL, as a string; NULL when they hold one or without memory */
/* bytes without a NUL, as a string; NULL when they hold one or without memory */
static char *dup_text(const uint8_t *p, size_t n)
{
	if (memchr(p, '\0', n))
		return NULL;
	return strndup((const char *)p, n);
}

static bool text_is(const uint8_t *p, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(p, s, n);
}

/* A table of the header: its name, its fields mapped onto ours by name and wire type. */
static int read_table(struct rbuf *r, struct stable *st, unsigned *seen)
{
	size_t len;
	const uint8_t *name = get_bytes(r, &len);
	uint64_t n = get_varint(r);
	const struct table *ours = NULL;

	st->known = -1;
	if (r->bad || n > 4096 || n > (uint64_t)(r->end - r->p))
		return -EBADMSG;
	for (int t = 0; t < TB_N; t++)
		if (text_is(name, len, cg_rec_tables[t].name))
			st->known = t;
	if (st->known >= 0) {
		/* one list per table: a second would count a row's elements twice */
		if (*seen & (1u << st->known))
			return -EBADMSG;
		*seen |= 1u << st->known;
		ours = &cg_rec_tables[st->known];
	}
	st->wire = malloc(n ? n : 1);
	st->map = malloc((n ? n : 1) * sizeof(*st->map));
	if (!st->wire || !st->map)
		return -ENOMEM;
	st->n = (size_t)n;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *fname = get_bytes(r, &len), *w = get_fixed(r, 1);

		if (r->bad || *w < W_UINT || *w > W_FLAG)
			return -EBADMSG;
		st->wire[i] = *w;
		st->map[i] = -1;
		for (size_t k = 0; ours && k < ours->n; k++)
			if (ours->fields[k].wire == *w && text_is(fname, len, ours->fields[k].name))
				st->map[i] = (int)k;
	}
	return 0;
}

static int read_info(struct rbuf *r, struct session *s)
{
	uint64_t n = get_varint(r), v;

	if (r->bad || n > 256)
		return -EBADMSG;
	for (uint64_t i = 0; i < n; i++) {
		size_t klen, vlen;
		const uint8_t *k = get_bytes(r, &klen), *val = get_bytes(r, &vlen);
		char num[24];

		if (r->bad)
			return -EBADMSG;
		if (text_is(k, klen, "path") || text_is(k, klen, "host")) {
			char **dst = k[0] == 'p' ? &s->path : &s->host;

			free(*dst);
			*dst = dup_text(val, vlen);
			if (!*dst)
				return -EBADMSG;
			continue;
		}
		if (text_is(k, klen, "count")) {
			for (size_t c = 0; c < 3; c++)
				if (text_is(val, vlen, cg_rec_count_names[c]))
					s->info.count = (enum cg_count)c;
			continue;
		}
		/* the rest are numbers; an unknown key is a newer writer's, skipped */
		if (vlen >= sizeof(num) || memchr(val, '\0', vlen))
			continue;
		memcpy(num, val, vlen);
		num[vlen] = '\0';
		if (cg_parse_u64(num, UINT64_MAX, &v) < 0)
			continue;
		if (text_is(k, klen, "own_only"))
			s->info.own_only = v != 0;
		else if (text_is(k, klen, "threads"))
			s->info.threads = v != 0;
		else if (text_is(k, klen, "depth"))
			s->info.depth = v > 1000 ? 1000 : (int)v;
		else if (text_is(k, klen, "delay_ns"))
			s->info.delay_ns = v;
	}
	return 0;
}

static int read_header(struct rbuf *r, struct session *s)
{
	uint64_t major = get_varint(r), n;
	unsigned seen = 0;
	int e;

	get_varint(r); /* minor: every one of this major reads the same */
	if (r->bad || major != CG_REC_MAJOR)
		return -EBADMSG;
	e = read_info(r, s);
	if (e < 0)
		return e;
	n = get_varint(r);
	if (r->bad || n == 0 || n > 64)
		return -EBADMSG;
	s->tabs = calloc((size_t)n, sizeof(*s->tabs));
	if (!s->tabs)
		return -ENOMEM;
	for (; s->n_tabs < n; s->n_tabs++) {
		e = read_table(r, &s->tabs[s->n_tabs], &seen);
		if (e < 0) {
			s->n_tabs++;
			return e;
		}
	}
	/* the rows' table first: the lists follow each row */
	if (s->tabs[0].known != TB_ROW)
		return -EBADMSG;
	for (size_t i = 0; i < s->n_tabs; i++)
		if (s->tabs[i].known == TB_TASK)
			s->info.tasks = true;
	if (!s->path)
		s->path = strdup("");
	if (!s->host)
		s->host = strdup("");
	if (!s->path || !s->host)
		return -ENOMEM;
	s->info.path = s->path;
	s->info.host = s->host;
	return 0;
}

/*
 * Where decoding sets presence: the element's have words (or scratch ones); a row's values of
 * x and k by index into x and k, CG_X_N and CG_K_N values of 8 bytes (the row keeps the known
 * ones alone: walk_sample packs them).
 */
struct bits {
	unsigned *have;
	uint64_t *xhave;
	char *x, *k;
};

/* One field's value: into base when f (ours) takes it, else skipped. */
static void decode_field(struct rbuf *r, uint8_t wire, enum code c, const struct field *f,
			 char *base, struct bits *bits)
{
	char *p = !f		 ? NULL
		  : f->kbit	 ? bits->k + 8 * (f->kbit - 1)
		  : f->xbit >= 0 ? bits->x + 8 * f->xbit
				 : base + f->off;
	uint64_t v = 0;
	double d = 0;
	const uint8_t *b = NULL;
	size_t len = 0;

	if (c == C_ABSENT)
		return;
	switch (wire) {
	case W_UINT:
		if (c == C_VALUE)
			v = get_varint(r);
		else if (c != C_ZERO)
			r->bad = true;
		/* memcpy: p may be struct bits' x or k, bytes for a row's packed values */
		if (f && f->ctype == T_U64)
			memcpy(p, &v, sizeof(v));
		else if (f && f->ctype == T_UINT)
			*(unsigned *)p = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		else if (f && f->ctype == T_BOOL)
			*(bool *)p = v != 0;
		else if (f && f->ctype == T_CHAR)
			*(char *)p = v > 0xff ? '?' : (char)v;
		else if (f)
			*(int *)p = (int)cg_rec_unzigzag(v);
		break;
	case W_F64:
		if (c == C_VALUE && (b = get_fixed(r, 8))) {
			v = cg_rec_get_le(b, 8);
			memcpy(&d, &v, sizeof(d));
		} else if (c == C_CENTI) {
			d = (double)cg_rec_unzigzag(get_varint(r)) / 100.0;
		}
		/* rates and percentages: what no sampler gives is unknown, not a number to print */
		if (!(d >= 0 && d <= 1e15))
			f = NULL;
		if (f)
			memcpy(p, &d, sizeof(d));
		break;
	case W_BYTES:
		if (c == C_VALUE)
			b = get_bytes(r, &len);
		else if (c != C_ZERO)
			r->bad = true;
		if (f && !r->bad) {
			len = len < f->size ? len : f->size - 1;
			if (len)
				memcpy(p, b, len);
			p[len] = '\0';
		}
		break;
	default: /* W_FLAG: the code is the value */
		if (c != C_ZERO)
			r->bad = true;
		break;
	}
	if (!f || r->bad)
		return;
	if (f->xbit >= 0) {
		*bits->xhave |= 1ull << f->xbit;
	} else if (f->kbit) {
		struct cg_stat_row *row = (struct cg_stat_row *)(void *)base;

		row->k_have[(f->kbit - 1) / 64] |= 1ull << ((f->kbit - 1) % 64);
	} else {
		*bits->have |= f->have;
	}
}

/*
 * An element of session table st: into base (ours, table t) when both are there; a row's x and k
 * into x and k (struct bits).
 */
static void decode_elem(struct rbuf *r, const struct stable *st, const struct table *t, char *base,
			char *x, char *k)
{
	const uint8_t *codes = get_fixed(r, (st->n + 3) / 4);
	unsigned scratch = 0;
	uint64_t xscratch = 0;
	struct bits bits = { &scratch, &xscratch, x, k };

	if (base && t->have_off != NO_OFF)
		bits.have = (unsigned *)(base + t->have_off);
	if (base && t->xhave_off != NO_OFF)
		bits.xhave = (uint64_t *)(base + t->xhave_off);
	for (size_t i = 0; codes && i < st->n && !r->bad; i++) {
		enum code c = (enum code)(codes[i / 4] >> (2 * (i % 4)) & 3);

		decode_field(r, st->wire[i], c,
			     base && st->map[i] >= 0 ? &t->fields[st->map[i]] : NULL, base, &bits);
	}
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	np = realloc(*p, n * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = n;
	return 0;
}

/* A new element of list t in out, zeroed (an optional double: unknown); NULL without memory. */
static char *new_elem(struct cg_rec_rows *out, int t)
{
	const struct table *tb = &cg_rec_tables[t];
	char *e;

	if (grow(&out->lists[t], &out->list_cap[t], out->list_n[t] + 1, tb->elem) < 0)
		return NULL;
	e = (char *)out->lists[t] + out->list_n[t]++ * tb->elem;
	memset(e, 0, tb->elem);
	for (size_t i = 0; i < tb->n; i++)
		if (tb->fields[i].ctype == T_OPT_DOUBLE)
			*(double *)(e + tb->fields[i].off) = -1;
	return e;
}

/* A row's lists (threads, devices), in the session's table order. */
static int walk_lists(struct rbuf *r, const struct session *s, struct cg_stat_row *row,
		      struct cg_rec_rows *out)
{
	for (size_t k = 1; k < s->n_tabs; k++) {
		const struct stable *st = &s->tabs[k];
		uint64_t n = get_varint(r);
		bool keep = row && st->known > TB_ROW;

		if (r->bad || n > (uint64_t)(r->end - r->p))
			return -EBADMSG;
		if (keep)
			*(size_t *)((char *)row + cg_rec_tables[st->known].count_off) = (size_t)n;
		for (uint64_t i = 0; i < n; i++) {
			char *e = keep ? new_elem(out, st->known) : NULL;

			if (keep && !e)
				return -ENOMEM;
			decode_elem(r, st, st->known >= 0 ? &cg_rec_tables[st->known] : NULL, e,
				    NULL, NULL);
			if (r->bad)
				return -EBADMSG;
		}
	}
	return 0;
}

/* A row's known values (of x and k, by index) after the rows before's in out->vals. */
static int pack_values(struct cg_rec_rows *out, const struct cg_stat_row *row, const char *x,
		       const char *k)
{
	size_t n = (size_t)__builtin_popcountll(row->x_have) + cg_kstat_count(row);

	if (grow((void **)&out->vals, &out->vals_cap, out->vals_n + n, sizeof(uint64_t)) < 0)
		return -ENOMEM;
	/* bytes: a PSI average was stored as a double */
	for (int i = 0; i < CG_X_N; i++)
		if (cg_stat_x_known(row, i))
			memcpy(&out->vals[out->vals_n++], x + 8 * i, 8);
	for (int i = 0; i < CG_K_N; i++)
		if (cg_kstat_known(row, i))
			memcpy(&out->vals[out->vals_n++], k + 8 * i, 8);
	return 0;
}

/*
 * Point each row at its part of the lists and of the kernel statistics, which may have moved
 * while they grew.
 */
static void link_lists(struct cg_rec_rows *out)
{
	size_t at = 0;

	for (size_t i = 0; i < out->n; i++) {
		struct cg_stat_row *row = &out->rows[i];
		size_t nx = (size_t)__builtin_popcountll(row->x_have), nk = cg_kstat_count(row);

		row->x = nx ? out->vals + at : NULL;
		row->k = nk ? out->vals + at + nx : NULL;
		at += nx + nk;
	}
	for (int t = TB_ROW + 1; t < TB_N; t++) {
		const struct table *tb = &cg_rec_tables[t];
		size_t k = 0;

		for (size_t i = 0; i < out->n; i++) {
			char *row = (char *)&out->rows[i];
			size_t n = *(size_t *)(row + tb->count_off);

			*(void **)(row + tb->list_off) =
				n ? (char *)out->lists[t] + k * tb->elem : NULL;
			k += n;
		}
	}
}

/*
 * Walk a sample's payload. out NULL: check it and learn the cgroups it names (the parse);
 * else decode it into out (the paths are known by then).
 */
static int walk_sample(struct session *s, const uint8_t *p, size_t len, uint64_t *ret_time,
		       struct cg_rec_rows *out)
{
	struct rbuf r = { p, p + len, false };
	uint64_t n, x[CG_X_N], k[CG_K_N];

	*ret_time = get_varint(&r);
	n = get_varint(&r);
	if (r.bad || n > len)
		return -EBADMSG;
	if (out) {
		struct cg_stat_row **ptrs;

		if (grow((void **)&out->rows, &out->cap, n, sizeof(*out->rows)) < 0)
			return -ENOMEM;
		ptrs = realloc(out->ptrs, (out->cap ? out->cap : 1) * sizeof(*ptrs));
		if (!ptrs)
			return -ENOMEM;
		out->ptrs = ptrs;
		out->n = 0;
		out->vals_n = 0;
		memset(out->list_n, 0, sizeof(out->list_n));
	}
	for (uint64_t i = 0; i < n; i++) {
		struct cg_stat_row *row = out ? &out->rows[i] : NULL;
		uint64_t ref = get_varint(&r), id = ref >> 1;
		int e;

		if (r.bad)
			return -EBADMSG;
		if (ref & 1) {
			size_t plen;
			const uint8_t *pp = get_bytes(&r, &plen);

			if (r.bad || plen > 65536)
				return -EBADMSG;
			if (!out) {
				char *path;

				if (id != s->n_paths)
					return -EBADMSG;
				path = dup_text(pp, plen);
				if (!path)
					return -EBADMSG;
				if (grow((void **)&s->paths, &s->paths_cap, s->n_paths + 1,
					 sizeof(*s->paths)) < 0) {
					free(path);
					return -ENOMEM;
				}
				s->paths[s->n_paths++] = path;
			}
		}
		if (id >= s->n_paths)
			return -EBADMSG;
		if (row) {
			memset(row, 0, sizeof(*row));
			memset(x, 0, sizeof(x));
			memset(k, 0, sizeof(k));
			row->path = s->paths[id];
			out->ptrs[i] = row;
			out->n = (size_t)i + 1;
		}
		decode_elem(&r, &s->tabs[0], &cg_rec_tables[TB_ROW], (char *)row, (char *)x,
			    (char *)k);
		if (r.bad)
			return -EBADMSG;
		if (row && pack_values(out, row, (const char *)x, (const char *)k) < 0)
			return -ENOMEM;
		e = walk_lists(&r, s, row, out);
		if (e < 0)
			return e;
	}
	if (out)
		link_lists(out);
	return 0;
}

/* A frame at off: 0 with its type and payload, or -EBADMSG and why. */
static int frame_at(const uint8_t *buf, size_t len, size_t off, uint8_t *type,
		    const uint8_t **payload, size_t *plen, const char **why)
{
	uint32_t l;

	if (len - off < 4 + 1 + 4) {
		*why = "truncated record";
		return -EBADMSG;
	}
	l = (uint32_t)cg_rec_get_le(buf + off, 4);
	if (l == 0 || l > CG_REC_MAX_RECORD) {
		*why = "bad record length";
		return -EBADMSG;
	}
	if ((size_t)l + 8 > len - off) {
		*why = "truncated record";
		return -EBADMSG;
	}
	if (crc32(0, buf + off, l + 4) != cg_rec_get_le(buf + off + 4 + l, 4)) {
		*why = "bad checksum";
		return -EBADMSG;
	}
	*type = buf[off + 4];
	*payload = buf + off + 5;
	*plen = l - 1;
	return 0;
}

/*
 * The next offset after off where a whole session header starts, or len. A header is a few
 * KiB: a candidate claiming more is not checksummed (a file of look-alikes would otherwise cost
 * a CRC over megabytes at every other byte).
 */
static size_t resync(const uint8_t *buf, size_t len, size_t off)
{
	for (size_t o = off + 1; len - o >= 10; o++) {
		uint8_t type;
		const uint8_t *p;
		size_t n;
		const char *why;

		if (buf[o + 4] == R_HEADER && buf[o + 5] == CG_REC_MAJOR &&
		    cg_rec_get_le(buf + o, 4) <= CG_REC_MAX_HEADER &&
		    frame_at(buf, len, o, &type, &p, &n, &why) == 0)
			return o;
	}
	return len;
}

static int add_session(struct cg_rec_file *f, const uint8_t *p, size_t n)
{
	struct rbuf r = { p, p + n, false };
	struct session *ns = realloc(f->ss, (f->n_ss + 1) * sizeof(*ns)), *s;
	int e;

	if (!ns)
		return -ENOMEM;
	f->ss = ns;
	s = &f->ss[f->n_ss];
	memset(s, 0, sizeof(*s));
	s->info.depth = 3;
	e = read_header(&r, s);
	if (e < 0) {
		session_free(s);
		return e;
	}
	f->n_ss++;
	return 0;
}

static int parse(const uint8_t *buf, size_t len, struct cg_rec_file **ret,
		 struct cg_rec_damage *damage, unsigned *ret_major, unsigned *ret_minor)
{
	struct cg_rec_file *f;
	size_t off = CG_REC_HEAD_SIZE;
	bool in_session = false;

	memset(damage, 0, sizeof(*damage));
	if (len < CG_REC_HEAD_SIZE || memcmp(buf, CG_REC_MAGIC, 8)) {
		damage->why = "not a cgtop2 recording";
		return -EBADMSG;
	}
	*ret_major = (unsigned)cg_rec_get_le(buf + 8, 2);
	*ret_minor = (unsigned)cg_rec_get_le(buf + 10, 2);
	if (*ret_major > CG_REC_MAJOR) {
		damage->why = "a newer format version";
		return -EPROTONOSUPPORT;
	}
	if (*ret_major < CG_REC_MAJOR) {
		damage->why = "an unknown format version";
		return -EBADMSG;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	while (off < len) {
		const uint8_t *p;
		size_t n, next;
		uint8_t type;
		const char *why = NULL;
		int e = frame_at(buf, len, off, &type, &p, &n, &why);

		if (e == 0 && type == R_HEADER) {
			e = add_session(f, p, n);
			in_session = e == 0;
			if (e == -EBADMSG)
				why = "bad session header";
		} else if (e == 0 && type == R_SAMPLE && !in_session) {
			e = -EBADMSG;
			why = "a sample outside a session";
		} else if (e == 0 && type == R_SAMPLE) {
			struct sample_ix *x;

			e = grow((void **)&f->ix, &f->cap, f->n + 1, sizeof(*f->ix));
			if (e == 0) {
				x = &f->ix[f->n];
				x->p = p;
				x->len = n;
				x->session = f->n_ss - 1;
				e = walk_sample(&f->ss[x->session], p, n, &x->time_ns, NULL);
				if (e == 0)
					f->n++;
				else if (e == -EBADMSG)
					why = "bad sample";
			}
		}
		if (e == -ENOMEM) {
			cg_rec_file_free(f);
			return -ENOMEM;
		}
		if (e == 0) {
			/* a record of a type this reader does not know is skipped whole */
			off += n + 9;
			continue;
		}
		/* damaged: the rest of the session is lost (its later samples may name cgroups
		 * only the damaged part defined); go on at the next session header */
		next = resync(buf, len, off);
		if (!damage->why) {
			damage->why = why;
			damage->offset = off;
		}
		damage->bytes += next - off;
		off = next;
		in_session = false;
	}
	*ret = f;
	return 0;
}

int cg_rec_parse(const uint8_t *buf, size_t len, struct cg_rec_file **ret,
		 struct cg_rec_damage *damage, unsigned *ret_major, unsigned *ret_minor,
		 struct cg_diag *d)
{
	int r = parse(buf, len, ret, damage, ret_major, ret_minor);

	if (r == -EPROTONOSUPPORT)
		return cg_diag_say(d, EPROTONOSUPPORT, "", "", "replay",
				   "format version %u.%u is newer than this reader's (%u.x)",
				   *ret_major, *ret_minor, CG_REC_MAJOR);
	return r < 0 ? cg_rec_diag(d, r, "replay", r == -EBADMSG ? damage->why : NULL) : r;
}

int cg_rec_decode(const struct cg_rec_file *f, size_t i, struct cg_rec_rows *out, struct cg_diag *d)
{
	const struct sample_ix *x = &f->ix[i];
	uint64_t t;
	/* decoding writes nothing into the session (only the parse learns paths) */
	int r = walk_sample((struct session *)&f->ss[x->session], x->p, x->len, &t, out);

	return r < 0 ? cg_rec_diag(d, r, "replay a sample", NULL) : r;
}

void cg_rec_rows_free(struct cg_rec_rows *out)
{
	free(out->rows);
	free(out->ptrs);
	for (size_t t = 0; t < ARRAY_SIZE(out->lists); t++)
		free(out->lists[t]);
	free(out->vals);
	memset(out, 0, sizeof(*out));
}
