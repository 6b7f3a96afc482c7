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

/* raw deflate of text at level 1 into p (room for deflateBound's): its length, or 0 (failed) */
static size_t raw_deflate(const char *text, size_t len, unsigned char *p, size_t room, int flush)
{
	z_stream z = { 0 };
	size_t n = 0;

	if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)len;
	z.next_out = p;
	z.avail_out = (uInt)room;
	/* all of it in, and room left: a sync flush that filled the room may not be complete */
	if (deflate(&z, flush) == (flush == Z_FINISH ? Z_STREAM_END : Z_OK) && !z.avail_in &&
	    z.avail_out)
		n = z.total_out;
	deflateEnd(&z);
	return n;
}

/* room for what deflate makes of len bytes: zlib's deflateBound and a sync flush's, amply */
static size_t raw_bound(size_t len)
{
	return len + (len >> 3) + 64;
}

void gz_kept_free(struct gz_kept *k)
{
	free(k->z);
	*k = (struct gz_kept){ 0 };
}

/*
 * A deflate stream may be cut at a byte with a sync flush and another one's blocks follow: the
 * start, deflated once and kept, and the rest deflated now are one gzip body, whose CRC is
 * the two parts' combined.
 */
int serve_gzip_kept(const char *text, size_t len, size_t head, unsigned gen, struct gz_kept *k,
		    unsigned char **ret, size_t *ret_len)
{
	static const unsigned char gz_head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 3 };
	unsigned char *p;
	size_t n;
	uLong crc;

	if (head > len)
		return -EINVAL;
	if (!k->z || k->gen != gen || k->len != head) {
		gz_kept_free(k);
		k->z = malloc(raw_bound(head));
		if (!k->z)
			return -ENOMEM;
		k->zlen = raw_deflate(text, head, k->z, raw_bound(head), Z_SYNC_FLUSH);
		if (!k->zlen) {
			gz_kept_free(k);
			return -EIO;
		}
		k->crc = crc32(crc32(0, NULL, 0), (const Bytef *)text, (uInt)head);
		k->len = head;
		k->gen = gen;
	}
	p = malloc(sizeof(gz_head) + k->zlen + raw_bound(len - head) + 8);
	if (!p)
		return -ENOMEM;
	memcpy(p, gz_head, sizeof(gz_head));
	memcpy(p + sizeof(gz_head), k->z, k->zlen);
	n = sizeof(gz_head) + k->zlen;
	*ret_len = raw_deflate(text + head, len - head, p + n, raw_bound(len - head), Z_FINISH);
	if (!*ret_len) {
		free(p);
		return -EIO;
	}
	n += *ret_len;
	crc = crc32_combine(
		k->crc, crc32(crc32(0, NULL, 0), (const Bytef *)text + head, (uInt)(len - head)),
		(z_off_t)(len - head));
	for (int i = 0; i < 4; i++)
		p[n++] = (unsigned char)(crc >> (8 * i));
	for (int i = 0; i < 4; i++)
		p[n++] = (unsigned char)((uint64_t)len >> (8 * i));
	*ret = p;
	*ret_len = n;
	return 0;
}

void serve_keep_init(struct serve_keep *k)
{
	*k = (struct serve_keep){ .cache = metrics_cache_new() };
}

void serve_keep_free(struct serve_keep *k)
{
	metrics_cache_free(k->cache);
	for (size_t i = 0; i < ARRAY_SIZE(k->gz); i++)
		gz_kept_free(&k->gz[i]);
}

int serve_keep_gzip(struct serve_keep *k, int e, const char *text, size_t len, size_t head,
		    unsigned char **ret, size_t *ret_len)
{
	if (!head || !k->cache)
		return serve_gzip(text, len, ret, ret_len);
	return serve_gzip_kept(text, len, head, metrics_cache_gen(k->cache), &k->gz[e], ret,
			       ret_len);
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
