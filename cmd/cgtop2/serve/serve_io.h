/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: what the server uses and knows no server (serve_io.c). */
#ifndef CGTOP2_SERVE_IO_H
#define CGTOP2_SERVE_IO_H

#include <microhttpd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

struct webconfig;
/* An answer: body copied, status, Content-Type type, wc's headers; a Basic challenge (401). */
enum MHD_Result serve_reply(const struct webconfig *wc, struct MHD_Connection *c, unsigned status,
			    const void *body, size_t len, const char *type, bool basic_auth);
/* The same with msg as text/plain */
enum MHD_Result serve_text(const struct webconfig *wc, struct MHD_Connection *c, unsigned status,
			   const char *msg);
/* The same with Retry-After: seconds (503, 429); msg is a literal (not copied) */
enum MHD_Result serve_retry(const struct webconfig *wc, struct MHD_Connection *c, unsigned status,
			    unsigned seconds, const char *msg);
/* RequireAnyClientCert and the Verify modes, once the TLS handshake is done: NULL when fine. */
const char *serve_cert_refused(const struct webconfig *wc, struct MHD_Connection *c);
/* text gzipped at level 1 into a buffer of the caller's: 0 or -errno */
int serve_gzip(const char *text, size_t len, unsigned char **ret, size_t *ret_len);
/*
 * The last body of a format gzipped in chunks (output/metrics_cache.h's cuts), kept for the
 * next: its text, and each chunk deflated alone, its CRC and length.
 */
struct gz_chunk {
	size_t off, len; /* in text */
	size_t zoff, zlen; /* in z */
	uint64_t key; /* metrics_cut's */
	unsigned long crc, op; /* its CRC, and crc32_combine_gen of its length */
	bool fresh; /* deflated for this body, not copied */
};
struct gz_chunks {
	char *text;
	unsigned char *z; /* the chunks' deflated bytes, one after the other */
	size_t text_len, z_len;
	struct gz_chunk *c;
	size_t n;
	uint32_t *map; /* c's indexes by key, made when a chunk is not in its place */
	size_t map_size;
	bool mapped, zs_ready;
	z_stream zs;
	size_t reused, deflated; /* the last body's chunks, copied and deflated */
};
struct metrics_cut;
/*
 * text gzipped, cut at cuts (increasing ends; none: one chunk): a chunk that is a kept one's
 * text has its deflated bytes copied from k, the others are deflated; k keeps this body's.
 * 0 or -errno (k emptied: every chunk deflated the next time).
 */
int gz_chunks_gzip(struct gz_chunks *k, const char *text, size_t len,
		   const struct metrics_cut *cuts, size_t n_cuts, unsigned char **ret,
		   size_t *ret_len);
void gz_chunks_free(struct gz_chunks *k);
/* What the server keeps of one scrape for the next: the cgroups' lines, the gzipped chunks. */
struct metrics_cache;
struct serve_keep {
	struct metrics_cache *cache; /* NULL without memory: every line is written each time */
	struct gz_chunks gz[2]; /* by enum expo */
};
void serve_keep_init(struct serve_keep *k);
void serve_keep_free(struct serve_keep *k);
/*
 * A body of format e gzipped: in the chunks of cuts (serve_keep_cuts's, taken when it was made:
 * another format's body may be made before it is gzipped), those kept from the last body of
 * format e copied; deflated whole without the cache.
 */
int serve_keep_gzip(struct serve_keep *k, int e, const char *text, size_t len,
		    const struct metrics_cut *cuts, size_t n_cuts, unsigned char **ret,
		    size_t *ret_len);
/* A copy of where the cache cut the last exposition (*n of them; NULL: one chunk) */
struct metrics_cut *serve_keep_cuts(const struct serve_keep *k, size_t *n);
/* ?collect[]=NAME, repeatable: a bit per collector named; an unknown name is refused */
struct collect_arg {
	unsigned mask;
	bool bad;
};
/*
 * A request's query: at most SERVE_QUERY_MAX bytes and SERVE_QUERY_PARAMS_MAX parameters
 * (man page, LIMITS). libmicrohttpd files every parameter in the connection's 32 KiB pool
 * before a handler runs, and with a few hundred the pool runs out and the request is never
 * answered (0.9.75: its error state is overwritten). The status a query gets (414, 400), 0 when
 * it is within the bounds.
 */
#define SERVE_QUERY_MAX	       4096
#define SERVE_QUERY_PARAMS_MAX 64
unsigned serve_query_refused(const char *query);
/* MHD_get_connection_values' iterator filling a struct collect_arg */
enum MHD_Result serve_on_argument(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value);
/* libmicrohttpd's log, and the server's own lines about it: rate-limited, escaped */
void serve_on_log(void *cls, const char *fmt, va_list ap);
void __attribute__((format(printf, 1, 2))) serve_say_http(const char *fmt, ...);

#endif
