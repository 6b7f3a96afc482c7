// SPDX-License-Identifier: MIT
/*
 * The exposition's lines of each cgroup kept between scrapes. Formatting the lines is most of
 * a scrape's CPU (16 lines and more a cgroup), and most cgroups of a big tree are still: their
 * lines are the last scrape's, byte for byte. A row's text is kept with everything it was made
 * of (its values, its labels' text, the table's key), and made again only when one of those
 * differs: comparing them is a memcmp of a few hundred bytes, writing them a few thousand
 * instructions. The text is cut into one segment per family (and resource), so that the
 * exposition, family after family, copies each row's segment in turn.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "metrics_cache.h"
#include "names/netdev.h"

/*
 * A row's kept text and key, each in a block of its size (not a buffer grown by doubling: the
 * cache holds one a cgroup, 10,000 and more).
 */
struct entry {
	char *key; /* what the text was made of (key_of) */
	/* n_ends segment ends (segment k runs from ends[k - 1], 0 for the first, to ends[k]),
	 * uint16_t (uint32_t when wide: a text of 64 KiB or more), then the text */
	char *block;
	uint32_t key_len, block_len, block_cap, n_ends;
	unsigned round; /* the last exposition whose view had it (struct metrics_cache's) */
	uint64_t id; /* its path's hash: whether a chunk ends after its lines, the chunk's key */
	bool stale, failed, wide;
	char path[]; /* the cgroup's, in the entry's allocation (the map's key) */
};

struct metrics_cache {
	struct cg_pathmap map; /* path -> struct entry */
	struct entry **at, **prev_at; /* the view's row i's, this exposition's and the last's */
	size_t n, prev_n, cap_at;
	struct out scratch; /* a row's key being compared */
	struct out text; /* a stale row's text being written, then copied to its entry */
	uint32_t *ends;
	size_t n_ends, cap_ends;
	unsigned key;
	unsigned round; /* one more at each exposition begun */
	bool changed;
	struct metrics_cut *cuts; /* this exposition's, for the server's gzip by chunks */
	size_t n_cuts, cap_cuts, cut_at; /* cut_at: the last one's end */
	bool cuts_failed;
};

struct metrics_cache *metrics_cache_new(void)
{
	return calloc(1, sizeof(struct metrics_cache));
}

static void entry_free(struct entry *e)
{
	if (!e)
		return;
	free(e->key);
	free(e->block);
	free(e);
}

void metrics_cache_free(struct metrics_cache *c)
{
	const struct cg_pathmap_slot *s;

	if (!c)
		return;
	for (size_t i = 0; (s = cg_pathmap_next(&c->map, &i));)
		entry_free(s->value);
	cg_pathmap_clear(&c->map);
	free(c->at);
	free(c->prev_at);
	free(c->scratch.s);
	free(c->text.s);
	free(c->ends);
	free(c->cuts);
	free(c);
}

/*
 * The fixed part of a row's key: zeroed first, so that its padding compares equal too. Which
 * values follow it is said by it (have, x_have, the counts): a value no line can say (a
 * collector off, a resource without PSI) takes no room, the cache holding a key a cgroup.
 */
struct key_head {
	unsigned have;
	bool esc;
	uint64_t x_have, k_have[CG_K_WORDS];
	uint32_t n_iodevs, n_threads, lab_len, n_ifs, n_percpu;
};

/* n more bytes of k's buffer, or NULL (k->failed) without memory */
static char *grow(struct out *k, size_t n)
{
	char *p;

	if (k->cap - k->len < n) {
		size_t cap = 2 * (k->len + n);

		p = realloc(k->s, cap);
		if (!p) {
			k->failed = true;
			return NULL;
		}
		k->s = p;
		k->cap = cap;
	}
	p = k->s + k->len;
	k->len += n;
	return p;
}

/* name (an array of size bytes) into p up to its NUL, zeros after it; the end */
static char *names(char *p, const char *name, size_t size)
{
	size_t n = strnlen(name, size);

	memcpy(p, name, n);
	memset(p + n, 0, size - n);
	return p + size;
}

/* n bytes of v into p when it is known; the end */
static char *value(char *p, const void *v, size_t n, bool known)
{
	if (!known)
		return p;
	memcpy(p, v, n);
	return p + n;
}

/* r's known values of x (packed by x_have) whose bits are in used, one after the other, into p */
static char *known(char *p, const struct cg_stat_row *r, uint64_t used)
{
	size_t j = 0;

	for (uint64_t m = r->x_have; m; m &= m - 1, j++) {
		if (!(used & m & -m))
			continue;
		memcpy(p, &r->x[j], sizeof(r->x[j]));
		p += sizeof(r->x[j]);
	}
	return p;
}

/*
 * Everything of row r a line of the exposition is made of: the values every family reads
 * (of x[], those of x_used: a PSI avg300 no line says decays for many minutes after a
 * cgroup's last stall; the kernel's statistics and the CPUs' times too), the devices and
 * threads with their names, the interfaces of the network namespace the row writes (ns, or
 * NULL), the row's labels as labels.c made them.
 */
static void key_of(struct out *k, const struct cg_stat_row *r, uint64_t x_used,
		   const struct cg_net_ns *ns, const char *lab, size_t lab_len, bool esc)
{
	struct key_head h;
	size_t n_ifs = ns ? ns->n : 0, n_k = cg_kstat_count(r);
	size_t n, n_if = sizeof(ns->ifs->name) + sizeof(ns->ifs->v);
	char *p;

	n = sizeof(h) + 5 * sizeof(uint64_t) + 2 * CG_PSI_N * sizeof(double) + lab_len +
	    (size_t)__builtin_popcountll(r->x_have & x_used) * sizeof(uint64_t) +
	    n_k * sizeof(uint64_t) + n_ifs * n_if +
	    r->n_iodevs * (sizeof(struct cg_io_dev) + sizeof(r->iodevs->name)) +
	    r->n_threads * (sizeof(pid_t) + sizeof(uint64_t) + sizeof(r->threads->comm)) +
	    r->n_percpu * sizeof(r->percpu_ns[0]);

	k->len = 0;
	p = grow(k, n);
	if (!p)
		return;
	memset(&h, 0, sizeof(h));
	h.have = r->have;
	h.esc = esc;
	h.x_have = r->x_have;
	memcpy(h.k_have, r->k_have, sizeof(h.k_have));
	h.n_ifs = (uint32_t)n_ifs;
	h.n_iodevs = (uint32_t)r->n_iodevs;
	h.n_threads = (uint32_t)r->n_threads;
	h.n_percpu = (uint32_t)r->n_percpu;
	h.lab_len = (uint32_t)lab_len;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	p = value(p, &r->tasks, sizeof(r->tasks), r->have & CG_STAT_TASKS);
	p = value(p, &r->cpu_ns, sizeof(r->cpu_ns), r->have & CG_STAT_CPU);
	p = value(p, &r->memory, sizeof(r->memory), r->have & CG_STAT_MEMORY);
	p = value(p, &r->io_read, sizeof(r->io_read), r->have & CG_STAT_IO);
	p = value(p, &r->io_write, sizeof(r->io_write), r->have & CG_STAT_IO);
	for (int j = 0; j < CG_PSI_N; j++) {
		double full = cg_stat_xd(r, CG_X_PSI_FULL_AVG10 + j);

		p = value(p, &r->psi[j], sizeof(r->psi[j]), r->have & (CG_STAT_PSI_CPU << j));
		p = value(p, &full, sizeof(full), r->x_have & (1ull << (CG_X_PSI_FULL_AVG10 + j)));
	}
	memcpy(p, lab, lab_len);
	p += lab_len;
	/* only the values known: most rows have a few of them */
	p = known(p, r, x_used);
	/* the kernel's statistics: the row keeps only the known ones */
	p = value(p, r->k, n_k * sizeof(uint64_t), n_k);
	for (size_t j = 0; j < n_ifs; j++) {
		p = names(p, ns->ifs[j].name, sizeof(ns->ifs[j].name));
		memcpy(p, ns->ifs[j].v, sizeof(ns->ifs[j].v));
		p += sizeof(ns->ifs[j].v);
	}
	for (size_t j = 0; j < r->n_iodevs; j++) {
		const struct cg_stat_iodev *d = &r->iodevs[j];
		struct cg_io_dev io;

		memset(&io, 0, sizeof(io));
		io.major = d->io.major;
		io.minor = d->io.minor;
		io.have = d->io.have;
		memcpy(io.v, d->io.v, sizeof(io.v));
		memcpy(p, &io, sizeof(io));
		p += sizeof(io);
		p = names(p, d->name, sizeof(d->name));
	}
	for (size_t t = 0; t < r->n_threads; t++) {
		const struct cg_stat_thread *th = &r->threads[t];

		memcpy(p, &th->tid, sizeof(th->tid));
		p += sizeof(th->tid);
		memcpy(p, &th->ticks, sizeof(th->ticks));
		p += sizeof(th->ticks);
		p = names(p, th->comm, sizeof(th->comm));
	}
	if (r->n_percpu) {
		memcpy(p, r->percpu_ns, r->n_percpu * sizeof(r->percpu_ns[0]));
		p += r->n_percpu * sizeof(r->percpu_ns[0]);
	}
	/* n was room for every value: the key is what was written */
	k->len = (size_t)(p - k->s);
}

/*
 * The entries of cgroups that left the view (their round is an older one's) removed and freed:
 * listed first, as the map must not change while it is walked. Most expositions lose none,
 * and allocate nothing; without memory for the list they stay until the next one.
 */
static void forget_departed(struct metrics_cache *c)
{
	const struct cg_pathmap_slot *s;
	struct entry **gone;
	size_t n = 0;

	for (size_t i = 0; (s = cg_pathmap_next(&c->map, &i));)
		n += ((struct entry *)s->value)->round != c->round;
	if (!n || !(gone = malloc(n * sizeof(*gone))))
		return;
	n = 0;
	for (size_t i = 0; (s = cg_pathmap_next(&c->map, &i));)
		if (((struct entry *)s->value)->round != c->round)
			gone[n++] = s->value;
	for (size_t k = 0; k < n; k++) {
		cg_pathmap_remove(&c->map, NULL, gone[k]->path);
		entry_free(gone[k]);
	}
	free(gone);
}

/* a cgroup's path hashed (FNV-1a, then mixed): which cgroups end a chunk */
static uint64_t path_id(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

static bool room(struct metrics_cache *c, size_t n)
{
	struct entry **at, **prev;

	if (n <= c->cap_at)
		return true;
	at = realloc(c->at, n * sizeof(*at));
	if (!at)
		return false;
	c->at = at;
	prev = realloc(c->prev_at, n * sizeof(*prev));
	if (!prev)
		return false;
	c->prev_at = prev;
	c->cap_at = n;
	return true;
}

bool metrics_cache_begin(struct metrics_cache *c, const struct view *v, const struct labels *l,
			 uint64_t x_used, const struct cg_net_ns *const *ns, unsigned key)
{
	struct entry **swap;

	c->n_cuts = c->cut_at = 0;
	c->cuts_failed = false;
	if (!l->end || !room(c, v->n ? v->n : 1))
		return false;
	swap = c->prev_at;
	c->prev_at = c->at;
	c->at = swap;
	c->prev_n = c->n;
	c->n = 0;
	c->changed = key != c->key || v->n != c->prev_n;
	c->round++;
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];
		size_t from = i ? l->end[i - 1] : 0;
		/* a path twice in a view (it is not) would share the one entry */
		struct entry *e = cg_pathmap_get(&c->map, NULL, r->path);

		key_of(&c->scratch, r, x_used, ns ? ns[i] : NULL, l->text.s + from,
		       l->end[i] - from, l->esc[i]);
		if (c->scratch.failed)
			goto fail;
		if (!e) {
			size_t len = strlen(r->path);

			e = calloc(1, sizeof(*e) + len + 1);
			if (!e)
				goto fail;
			memcpy(e->path, r->path, len + 1);
			e->id = path_id(e->path);
			e->stale = true;
			if (cg_pathmap_put(&c->map, NULL, e->path, e) < 0) {
				entry_free(e);
				goto fail;
			}
		} else {
			e->stale = key != c->key || e->failed || e->key_len != c->scratch.len ||
				   memcmp(e->key, c->scratch.s, c->scratch.len);
		}
		e->round = c->round;
		c->at[i] = e;
		c->n = i + 1;
		c->changed = c->changed || e->stale || c->prev_at[i] != e;
		if (e->stale && e->key_len != c->scratch.len) {
			char *k = realloc(e->key, c->scratch.len);

			if (!k) {
				e->key_len = 0; /* stale next time */
				goto fail;
			}
			e->key = k;
		}
		if (e->stale) {
			memcpy(e->key, c->scratch.s, c->scratch.len);
			e->key_len = (uint32_t)c->scratch.len;
		}
	}
	forget_departed(c);
	c->key = key;
	return true;
fail:
	/* every row's entry met so far is in the map: made again next time */
	for (size_t i = 0; i < c->n; i++)
		c->at[i]->key_len = 0;
	c->n = c->prev_n = 0;
	c->scratch.failed = false;
	return false;
}

struct out *metrics_cache_stale(struct metrics_cache *c, size_t i)
{
	if (!c->at[i]->stale)
		return NULL;
	c->text.len = 0;
	c->text.failed = false;
	c->text.fd = -1;
	c->n_ends = 0;
	return &c->text;
}

void metrics_cache_cut(struct metrics_cache *c, size_t i)
{
	if (c->n_ends == c->cap_ends) {
		size_t cap = c->cap_ends ? 2 * c->cap_ends : 64;
		uint32_t *ends = realloc(c->ends, cap * sizeof(*ends));

		if (!ends) {
			c->text.failed = true;
			return;
		}
		c->ends = ends;
		c->cap_ends = cap;
	}
	c->ends[c->n_ends++] = (uint32_t)c->text.len;
}

void metrics_cache_keep(struct metrics_cache *c, size_t i)
{
	struct entry *e = c->at[i];
	bool wide = c->text.len > UINT16_MAX;
	size_t w = wide ? sizeof(uint32_t) : sizeof(uint16_t), ends = c->n_ends * w,
	       n = ends + c->text.len;

	e->failed = c->text.failed || n > UINT32_MAX;
	/* a block a bit too big is kept: a counter's next digit is not a realloc each time */
	if (!e->failed && (n > e->block_cap || n + 256 < e->block_cap)) {
		char *b = realloc(e->block, n ? n : 1);

		if (b) {
			e->block = b;
			e->block_cap = (uint32_t)n;
		}
		e->failed = !b;
	}
	if (e->failed) {
		e->n_ends = 0;
		return;
	}
	/* most rows' texts are short: two bytes an end, not four (a row has 60 and more) */
	for (size_t k = 0; k < c->n_ends; k++) {
		uint16_t end16 = (uint16_t)c->ends[k];

		memcpy(e->block + k * w, wide ? (const void *)&c->ends[k] : &end16, w);
	}
	memcpy(e->block + ends, c->text.s, c->text.len);
	e->n_ends = (uint32_t)c->n_ends;
	e->block_len = (uint32_t)n;
	e->wide = wide;
}

/* End k of e's segments. */
static uint32_t end_of(const struct entry *e, size_t k)
{
	uint32_t end;
	uint16_t end16;

	if (e->wide) {
		memcpy(&end, e->block + k * sizeof(end), sizeof(end));
		return end;
	}
	memcpy(&end16, e->block + k * sizeof(end16), sizeof(end16));
	return end16;
}

/*
 * A chunk ends at o's end: after the segment of a cgroup whose path says so (one in
 * METRICS_CUT_EVERY) once the chunk holds METRICS_CUT_MIN (a chunk of a few lines deflated
 * alone is mostly its Huffman header), or of any once METRICS_CUT_BYTES are in it. The cuts
 * follow the cgroups, not their values: a value that changes changes the one chunk its line
 * is in, a cgroup that comes or goes one chunk of each family, the others are the same text.
 */
static void cut(struct out *o, struct metrics_cache *c, const struct entry *e, size_t k)
{
	if (o->len - c->cut_at < METRICS_CUT_MIN ||
	    ((e->id & (METRICS_CUT_EVERY - 1)) && o->len - c->cut_at < METRICS_CUT_BYTES))
		return;
	if (c->n_cuts == c->cap_cuts) {
		size_t cap = c->cap_cuts ? 2 * c->cap_cuts : 256;
		struct metrics_cut *cuts = realloc(c->cuts, cap * sizeof(*cuts));

		if (!cuts) {
			c->cuts_failed = true;
			return;
		}
		c->cuts = cuts;
		c->cap_cuts = cap;
	}
	c->cut_at = o->len;
	c->cuts[c->n_cuts++] =
		(struct metrics_cut){ .end = o->len, .key = (e->id ^ k) * 0x9e3779b97f4a7c15ull };
}

void metrics_cache_put(struct out *o, struct metrics_cache *c, size_t i, size_t k)
{
	const struct entry *e = c->at[i];
	const char *text = e->block + e->n_ends * (e->wide ? sizeof(uint32_t) : sizeof(uint16_t));
	uint32_t from, to;

	if (e->failed || k >= e->n_ends) {
		o->failed = true;
		return;
	}
	from = k ? end_of(e, k - 1) : 0;
	to = end_of(e, k);
	if (to > from) {
		out_put(o, text + from, to - from);
		cut(o, c, e, k);
	}
}

const struct metrics_cut *metrics_cache_cuts(const struct metrics_cache *c, size_t *n)
{
	*n = c->cuts_failed ? 0 : c->n_cuts;
	return c->cuts;
}

bool metrics_cache_unchanged(const struct metrics_cache *c)
{
	return !c->changed;
}
