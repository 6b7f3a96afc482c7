// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen's helpers that know no server: the answers but the metrics, gzip, the query's
 * bounds, ?collect[]=, and a log that cannot flood.
 */
#include <errno.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "sampler/stats.h"

#include "output/metrics_cache.h"
#include "serve_io.h"
#include "tool.h"
#include "webconfig.h"

/* Fast compression: a scrape's text repeats itself, level 1 already takes it to a tenth or less. */
int serve_gzip(const char *text, size_t len, unsigned char **ret, size_t *ret_len)
{
	z_stream z = { 0 };
	unsigned char *p;
	uLong bound;

	/* 16 + 15: a gzip wrapper around the largest window */
	if (deflateInit2(&z, 1, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	bound = deflateBound(&z, (uLong)len);
	p = malloc(bound);
	if (!p) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)len;
	z.next_out = p;
	z.avail_out = (uInt)bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(p);
		return -EIO;
	}
	*ret_len = z.total_out;
	deflateEnd(&z);
	*ret = p;
	return 0;
}

/* room for what deflate makes of len bytes: zlib's deflateBound and a sync flush's, amply */
static size_t raw_bound(size_t len)
{
	return len + (len >> 3) + 64;
}

/*
 * The raw deflate streams of the chunks: a small hash (2^12 heads), which a chunk of a few
 * KiB fills as well as the default's 2^15 and which each chunk's deflateReset clears.
 */
#define GZC_MEMLEVEL 5
#define GZC_NONE     UINT32_MAX

void gz_chunks_free(struct gz_chunks *k)
{
	if (k->zs_ready)
		deflateEnd(&k->zs);
	free(k->text);
	free(k->z);
	free(k->c);
	free(k->map);
	*k = (struct gz_chunks){ 0 };
}

static bool chunk_is(const struct gz_chunks *k, size_t m, uint64_t key, const char *p, size_t len)
{
	const struct gz_chunk *c = &k->c[m];

	return c->key == key && c->len == len && !memcmp(k->text + c->off, p, len);
}

/* k's chunks by key, made when a chunk is not where the last one's successor was */
static bool map_chunks(struct gz_chunks *k)
{
	size_t size = 16;

	while (size < 2 * k->n)
		size *= 2;
	if (size != k->map_size) {
		uint32_t *map = realloc(k->map, size * sizeof(*map));

		if (!map)
			return false;
		k->map = map;
		k->map_size = size;
	}
	memset(k->map, 0xff, size * sizeof(*k->map));
	for (size_t m = 0; m < k->n; m++) {
		size_t h = k->c[m].key & (size - 1);

		while (k->map[h] != GZC_NONE)
			h = (h + 1) & (size - 1);
		k->map[h] = (uint32_t)m;
	}
	k->mapped = true;
	return true;
}

/* The kept chunk whose text is p's: the one after the last matched first, else by key. */
static size_t find_chunk(struct gz_chunks *k, size_t next, uint64_t key, const char *p, size_t len)
{
	if (next < k->n && chunk_is(k, next, key, p, len))
		return next;
	if (!k->n || k->n >= GZC_NONE || (!k->mapped && !map_chunks(k)))
		return GZC_NONE;
	for (size_t h = key & (k->map_size - 1); k->map[h] != GZC_NONE;
	     h = (h + 1) & (k->map_size - 1))
		if (chunk_is(k, k->map[h], key, p, len))
			return k->map[h];
	return GZC_NONE;
}

/* n more bytes of room at *p's end (cap *cap, len used), or false */
static bool zroom(unsigned char **p, size_t *cap, size_t len, size_t n)
{
	unsigned char *q;
	size_t c;

	if (*cap - len >= n)
		return true;
	c = 2 * (len + n);
	q = realloc(*p, c);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

/* text deflated alone, byte-aligned after a sync flush, at *p + *len: its length, or 0 */
static size_t deflate_chunk(struct gz_chunks *k, const char *text, size_t len, unsigned char **p,
			    size_t *cap, size_t at)
{
	size_t room = raw_bound(len);

	if (!k->zs_ready) {
		if (deflateInit2(&k->zs, 1, Z_DEFLATED, -15, GZC_MEMLEVEL, Z_DEFAULT_STRATEGY) !=
		    Z_OK)
			return 0;
		k->zs_ready = true;
	} else if (deflateReset(&k->zs) != Z_OK) {
		return 0;
	}
	if (!zroom(p, cap, at, room))
		return 0;
	k->zs.next_in = (Bytef *)text;
	k->zs.avail_in = (uInt)len;
	k->zs.next_out = *p + at;
	k->zs.avail_out = (uInt)room;
	/* all of it in, and room left: a sync flush that filled the room may not be complete */
	if (deflate(&k->zs, Z_SYNC_FLUSH) != Z_OK || k->zs.avail_in || !k->zs.avail_out)
		return 0;
	return room - k->zs.avail_out;
}

/*
 * One gzip member of chunks, each a raw deflate stream of its own ended by a sync flush (no
 * back-reference reaches into another), which may follow one another byte for byte: a chunk
 * whose text is a kept one's has its bytes copied, the others are deflated. The CRC is the
 * chunks' combined, each with the operator of its length kept beside it.
 */
int gz_chunks_gzip(struct gz_chunks *k, const char *text, size_t len,
		   const struct metrics_cut *cuts, size_t n_cuts, unsigned char **ret,
		   size_t *ret_len)
{
	static const unsigned char gz_head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 3 };
	/* the last block: empty, fixed Huffman codes, BFINAL */
	static const unsigned char last[2] = { 3, 0 };
	struct gz_chunk *nc = malloc((n_cuts + 1) * sizeof(*nc));
	size_t cap = sizeof(gz_head) + k->z_len + 64, at = sizeof(gz_head), n = 0, next = 0, s = 0;
	unsigned char *p = malloc(cap);
	uLong crc = crc32(0, NULL, 0);
	unsigned char *z;
	char *kept;
	/* every chunk where the kept one of its index was, as long: the kept text is patched */
	bool in_place = k->text && k->text_len == len;

	if (!nc || !p)
		goto fail;
	memcpy(p, gz_head, sizeof(gz_head));
	k->reused = k->deflated = 0;
	for (size_t j = 0; j <= n_cuts && s < len; j++) {
		size_t e = j < n_cuts && cuts[j].end < len ? cuts[j].end : len;
		uint64_t key = j < n_cuts ? cuts[j].key : 0;
		struct gz_chunk *c = &nc[n];
		size_t m;

		if (e <= s)
			continue;
		*c = (struct gz_chunk){
			.off = s, .len = e - s, .key = key, .zoff = at - sizeof(gz_head)
		};
		m = find_chunk(k, next, key, text + s, c->len);
		if (m != GZC_NONE) {
			c->zlen = k->c[m].zlen;
			c->crc = k->c[m].crc;
			c->op = k->c[m].op;
			if (!zroom(&p, &cap, at, c->zlen))
				goto fail;
			memcpy(p + at, k->z + k->c[m].zoff, c->zlen);
			next = m + 1;
			k->reused++;
			in_place = in_place && m == n && k->c[m].off == s;
		} else {
			c->zlen = deflate_chunk(k, text + s, c->len, &p, &cap, at);
			if (!c->zlen)
				goto fail;
			c->crc = crc32(0, (const Bytef *)text + s, (uInt)c->len);
			c->op = crc32_combine_gen((z_off_t)c->len);
			c->fresh = true;
			next++;
			k->deflated++;
			in_place =
				in_place && n < k->n && k->c[n].off == s && k->c[n].len == c->len;
		}
		crc = n ? crc32_combine_op(crc, c->crc, c->op) : c->crc;
		at += c->zlen;
		s = e;
		n++;
	}
	if (!zroom(&p, &cap, at, sizeof(last) + 8))
		goto fail;
	/*
	 * What the next body's chunks are compared with, and copied from: the chunks deflated
	 * now copied in place when the others are where they were (a scrape in which values
	 * moved), else the whole text.
	 */
	if (in_place && n == k->n) {
		for (size_t i = 0; i < n; i++)
			if (nc[i].fresh)
				memcpy(k->text + nc[i].off, text + nc[i].off, nc[i].len);
	} else {
		kept = realloc(k->text, len ? len : 1);
		if (!kept)
			goto fail;
		k->text = kept;
		memcpy(k->text, text, len);
		k->text_len = len;
	}
	z = realloc(k->z, at - sizeof(gz_head) + 1);
	if (!z)
		goto fail;
	k->z = z;
	k->z_len = at - sizeof(gz_head);
	memcpy(k->z, p + sizeof(gz_head), k->z_len);
	free(k->c);
	k->c = nc;
	k->n = n;
	k->mapped = false;
	memcpy(p + at, last, sizeof(last));
	at += sizeof(last);
	for (int i = 0; i < 4; i++)
		p[at++] = (unsigned char)(crc >> (8 * i));
	for (int i = 0; i < 4; i++)
		p[at++] = (unsigned char)((uint64_t)len >> (8 * i));
	*ret = p;
	*ret_len = at;
	return 0;
fail:
	/* made afresh next time */
	free(nc);
	free(p);
	gz_chunks_free(k);
	return -ENOMEM;
}

struct metrics_cut *serve_keep_cuts(const struct serve_keep *k, size_t *n)
{
	const struct metrics_cut *cuts = k->cache ? metrics_cache_cuts(k->cache, n) : NULL;
	struct metrics_cut *ret;

	if (!cuts || !*n || !(ret = malloc(*n * sizeof(*ret)))) {
		*n = 0;
		return NULL;
	}
	memcpy(ret, cuts, *n * sizeof(*ret));
	return ret;
}

int serve_keep_gzip(struct serve_keep *k, int e, const char *text, size_t len,
		    const struct metrics_cut *cuts, size_t n_cuts, unsigned char **ret,
		    size_t *ret_len)
{
	if (!k->cache)
		return serve_gzip(text, len, ret, ret_len);
	return gz_chunks_gzip(&k->gz[e], text, len, cuts, n_cuts, ret, ret_len);
}

void serve_keep_init(struct serve_keep *k)
{
	*k = (struct serve_keep){ .cache = metrics_cache_new() };
}

void serve_keep_free(struct serve_keep *k)
{
	metrics_cache_free(k->cache);
	for (size_t i = 0; i < ARRAY_SIZE(k->gz); i++)
		gz_chunks_free(&k->gz[i]);
}

enum MHD_Result serve_reply(const struct webconfig *wc, struct MHD_Connection *c, unsigned status,
			    const void *body, size_t len, const char *type, bool basic_auth)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	for (size_t i = 0; wc && i < wc->n_headers; i++)
		MHD_add_response_header(resp, wc->headers[i].name, wc->headers[i].value);
	if (basic_auth)
		ret = MHD_queue_basic_auth_fail_response(c, "cgtop2", resp);
	else
		ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

enum MHD_Result serve_text(const struct webconfig *wc, struct MHD_Connection *c, unsigned status,
			   const char *msg)
{
	return serve_reply(wc, c, status, msg, strlen(msg), "text/plain; charset=utf-8", false);
}

enum MHD_Result serve_retry(const struct webconfig *wc, struct MHD_Connection *c, unsigned status,
			    unsigned seconds, const char *msg)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	char after[16];

	resp = MHD_create_response_from_buffer(strlen(msg), (void *)msg, MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	snprintf(after, sizeof(after), "%u", seconds);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, after);
	for (size_t i = 0; wc && i < wc->n_headers; i++)
		MHD_add_response_header(resp, wc->headers[i].name, wc->headers[i].value);
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* RequireAnyClientCert and the Verify modes, once the TLS handshake is done: NULL when fine. */
const char *serve_cert_refused(const struct webconfig *wc, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci;
	gnutls_session_t ts;
	unsigned n = 0, status = 0;

	if (!wc->tls || wc->client_auth == CA_NONE || wc->client_auth == CA_REQUEST)
		return NULL;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	ts = ci ? (gnutls_session_t)ci->tls_session : NULL;
	if (!ts)
		return "Forbidden: no TLS session\n";
	if (!gnutls_certificate_get_peers(ts, &n) || !n) {
		if (wc->client_auth == CA_REQUIRE_ANY || wc->client_auth == CA_REQUIRE_VERIFY)
			return "Forbidden: a client certificate is required\n";
		return NULL;
	}
	if (wc->client_auth == CA_REQUIRE_ANY)
		return NULL;
	if (gnutls_certificate_verify_peers2(ts, &status) < 0 || status)
		return "Forbidden: the client certificate is not signed by client_ca_file\n";
	return NULL;
}

unsigned serve_query_refused(const char *query)
{
	size_t n = 1;

	if (!query)
		return 0;
	if (strlen(query) > SERVE_QUERY_MAX)
		return MHD_HTTP_URI_TOO_LONG;
	/* a parameter per '&', as libmicrohttpd splits them (an empty one is filed too) */
	for (const char *s = query; (s = strchr(s, '&')); s++)
		n++;
	return n > SERVE_QUERY_PARAMS_MAX ? MHD_HTTP_BAD_REQUEST : 0;
}

/* ?collect[]=NAME, repeatable: a bit per collector named; an unknown name is refused. */
enum MHD_Result serve_on_argument(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value)
{
	struct collect_arg *ca = cls;
	int c;

	if (strcmp(key, "collect[]"))
		return MHD_YES;
	for (c = 0; c < CG_COLL_N; c++)
		if (value && !strcmp(value, cg_collector_names[c]))
			break;
	if (c == CG_COLL_N)
		ca->bad = true;
	else
		ca->mask |= 1u << c;
	return MHD_YES;
}

/*
 * libmicrohttpd's own messages (TLS handshakes that failed, limits hit), one escaped line each,
 * at most SERVE_LOG_BURST in SERVE_LOG_WINDOW: a flood of hostile connections floods no log.
 */
#define SERVE_LOG_BURST	 5
#define SERVE_LOG_WINDOW (10 * NSEC_PER_SEC)

static void __attribute__((format(printf, 1, 0))) say_limited(const char *fmt, va_list ap)
{
	static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
	static uint64_t window;
	static unsigned lines;
	uint64_t now = cg_now_ns();
	char buf[1024];
	size_t n;

	pthread_mutex_lock(&log_lock);
	if (now - window > SERVE_LOG_WINDOW) {
		window = now;
		lines = 0;
	}
	if (++lines <= SERVE_LOG_BURST) {
		vsnprintf(buf, sizeof(buf), fmt, ap);
		n = strlen(buf);
		while (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		tool_say("http: %s", buf);
	} else if (lines == SERVE_LOG_BURST + 1) {
		tool_say("http: more messages in the next %d s left out",
			 (int)(SERVE_LOG_WINDOW / NSEC_PER_SEC));
	}
	pthread_mutex_unlock(&log_lock);
}

void serve_on_log(void *cls, const char *fmt, va_list ap)
{
	say_limited(fmt, ap);
}

void serve_say_http(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_limited(fmt, ap);
	va_end(ap);
}
