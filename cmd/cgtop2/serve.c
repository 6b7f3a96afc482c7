// SPDX-License-Identifier: MIT
/* cgtop2 --listen: /metrics for Prometheus on libmicrohttpd, with TLS and basic auth from --web-config. */
#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include "cleanup.h"
#include "clock.h"
#include "parse.h"
#include "serve.h"
#include "tool.h"

/*
 * Scrapes that arrive within this long of a sample share it: Prometheus servers of an HA pair,
 * or a scrape queued behind another in the one server thread, read the same instant.
 * $CGKIT_SERVE_REUSE_MS changes it (benchmarks: 0, every scrape samples).
 */
#define SERVE_REUSE_NS (250 * NSEC_PER_MSEC)

/* Limits against slow and hostile clients (man page, LIMITS). */
#define SERVE_CONNECTIONS	64
#define SERVE_PER_IP		8
#define SERVE_TIMEOUT_S		15
#define SERVE_CONNECTION_MEMORY (32 * 1024) /* a request's line and headers must fit */

static const char *const content_types[] = {
	[EXPO_TEXT] = "text/plain; version=0.0.4; charset=utf-8",
	[EXPO_OPENMETRICS] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
};

/*
 * The responses to a sample, by format and encoding, made when first asked for and shared by
 * every scrape of that sample: libmicrohttpd counts their users, so one still being sent when
 * the next sample replaces it is freed once sent. The plain body is gzipped from its buffer.
 */
struct body {
	struct MHD_Response *resp[2]; /* plain, gzip */
	const char *text;
	size_t len;
};

struct server {
	const struct cgtop2_args *a;
	struct cg_stats *s;
	/* the sampler is not thread-safe and a reload may run two daemons for a moment */
	pthread_mutex_t lock;
	struct webconfig *wc; /* under lock */
	int fd;
	bool sampled;
	uint64_t sampled_ns, reuse_ns;
	struct view v;
	struct body body[2]; /* by enum expo */
	size_t last_len[2]; /* the previous body's length, by enum expo */
};

static void say_errno(const char *what, const char *arg, int err)
{
	tool_say("%s %s: %s", what, arg, strerror(err));
}

/* ---- the sample and its renderings ----------------------------------------------------- */

static void drop_bodies(struct server *sv)
{
	for (size_t i = 0; i < ARRAY_SIZE(sv->body); i++) {
		for (size_t j = 0; j < 2; j++)
			if (sv->body[i].resp[j])
				MHD_destroy_response(sv->body[i].resp[j]);
		sv->body[i] = (struct body){ 0 };
	}
}

static struct MHD_Response *metrics_response(struct server *sv, void *buf, size_t len, enum expo e,
					     bool gz)
{
	struct MHD_Response *resp;

	resp = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(buf);
		return NULL;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_types[e]);
	if (gz)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
	for (size_t i = 0; sv->wc && i < sv->wc->n_headers; i++)
		MHD_add_response_header(resp, sv->wc->headers[i].name, sv->wc->headers[i].value);
	return resp;
}

static int fresh_sample(struct server *sv)
{
	struct cg_stat_row *const *rows;
	uint64_t now = cg_now_ns();
	size_t n;
	int r;

	if (sv->sampled && now - sv->sampled_ns < sv->reuse_ns)
		return 0;
	sv->sampled = false;
	r = cg_stats_sample(sv->s, &rows, &n);
	if (r < 0)
		return r;
	/* a stable order: a series is found at the same place in every scrape */
	r = make_view(rows, n, ORDER_PATH, NULL, &sv->v);
	if (r < 0)
		return r;
	/* the exposition's own families (man: cgtop2_scrape_duration_seconds, the errors) */
	sv->v.stats = sv->s;
	sv->v.sample_ns = cg_now_ns() - now;
	drop_bodies(sv);
	sv->sampled = true;
	sv->sampled_ns = now;
	return 1;
}

/* Fast compression: a scrape's text repeats itself, level 1 already takes it to a tenth or less. */
static int gzip_body(const char *text, size_t len, unsigned char **ret, size_t *ret_len)
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

static int scrape(struct server *sv, enum expo e, bool gz, struct MHD_Response **ret)
{
	struct body *b = &sv->body[e];
	bool fresh;
	int r;

	r = fresh_sample(sv);
	if (r < 0)
		return r;
	fresh = r > 0;
	if (!b->resp[0]) {
		struct out o = { .fd = -1 };

		/*
		 * A body is about as long as the last one: room for that and a bit more at once, not
		 * a buffer doubled a dozen times over (each a copy) to end up to twice its size.
		 */
		if (sv->last_len[e]) {
			o.cap = sv->last_len[e] + sv->last_len[e] / 16 + 4096;
			o.s = malloc(o.cap);
			if (!o.s)
				o.cap = 0;
		}

		if (e == EXPO_OPENMETRICS)
			render_openmetrics(&o, sv->a, &sv->v);
		else
			render_prometheus(&o, sv->a, &sv->v);
		if (o.failed || !o.s) {
			free(o.s);
			return -ENOMEM;
		}
		b->text = o.s;
		b->len = o.len;
		sv->last_len[e] = o.len;
		b->resp[0] = metrics_response(sv, o.s, o.len, e, false);
		if (!b->resp[0])
			return -ENOMEM;
	}
	if (gz && !b->resp[1]) {
		unsigned char *z;
		size_t zlen;

		r = gzip_body(b->text, b->len, &z, &zlen);
		if (r < 0)
			return r;
		b->resp[1] = metrics_response(sv, z, zlen, e, true);
		if (!b->resp[1])
			return -ENOMEM;
	}
	/*
	 * The window runs from when this scrape's answer is ready: scrapes that queued behind it
	 * while it sampled (seconds, at 10,000 cgroups on a loaded machine) share its sample.
	 */
	if (fresh)
		sv->sampled_ns = cg_now_ns();
	*ret = b->resp[gz];
	return 0;
}

/*
 * A scrape with ?collect[]=: the families of those collectors only (node_exporter's
 * parameter), rendered for this request alone from the shared sample; *ret is the caller's.
 */
static int scrape_collect(struct server *sv, enum expo e, bool gz, unsigned collect,
			  struct MHD_Response **ret)
{
	struct view v;
	struct out o = { .fd = -1 };
	unsigned char *z;
	size_t zlen;
	int r;

	r = fresh_sample(sv);
	if (r < 0)
		return r;
	v = sv->v;
	v.collect = collect;
	if (e == EXPO_OPENMETRICS)
		render_openmetrics(&o, sv->a, &v);
	else
		render_prometheus(&o, sv->a, &v);
	if (o.failed || !o.s) {
		free(o.s);
		return -ENOMEM;
	}
	if (!gz) {
		*ret = metrics_response(sv, o.s, o.len, e, false);
		return *ret ? 0 : -ENOMEM;
	}
	r = gzip_body(o.s, o.len, &z, &zlen);
	free(o.s);
	if (r < 0)
		return r;
	*ret = metrics_response(sv, z, zlen, e, true);
	return *ret ? 0 : -ENOMEM;
}

/* ---- requests -------------------------------------------------------------------------- */

/* ?collect[]=NAME, repeatable: a bit per collector named; an unknown name is refused. */
struct collect_arg {
	unsigned mask;
	bool bad;
};

static enum MHD_Result on_argument(void *cls, enum MHD_ValueKind kind, const char *key,
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

static enum MHD_Result reply(struct server *sv, struct MHD_Connection *c, unsigned status,
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
	for (size_t i = 0; sv->wc && i < sv->wc->n_headers; i++)
		MHD_add_response_header(resp, sv->wc->headers[i].name, sv->wc->headers[i].value);
	if (basic_auth)
		ret = MHD_queue_basic_auth_fail_response(c, "cgtop2", resp);
	else
		ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result text(struct server *sv, struct MHD_Connection *c, unsigned status,
			    const char *msg)
{
	return reply(sv, c, status, msg, strlen(msg), "text/plain; charset=utf-8", false);
}

/* RequireAnyClientCert and the Verify modes, once the TLS handshake is done: NULL when fine. */
static const char *client_cert_refused(const struct webconfig *wc, struct MHD_Connection *c)
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

static bool authorized(struct server *sv, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	if (!sv->wc || !sv->wc->n_users)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = user && pass && webconfig_check_user(sv->wc, user, pass);
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cgtop2</title></head>\n"
	"<body><h1>cgtop2</h1>\n<p>Statistics of this machine's cgroups for Prometheus: "
	"<a href=\"metrics\">metrics</a>.</p>\n<p>cgtop2 (cgkit) " CGKIT_VERSION "</p>\n"
	"</body></html>\n";

static enum MHD_Result handle(struct server *sv, struct MHD_Connection *c, const char *url,
			      const char *method)
{
	const char *why, *accept, *enc;
	struct MHD_Response *resp;
	struct collect_arg ca = { 0 };
	enum MHD_Result ret;
	enum expo e;
	bool gz;
	int r;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text(sv, c, MHD_HTTP_METHOD_NOT_ALLOWED, "Method Not Allowed\n");
	why = sv->wc ? client_cert_refused(sv->wc, c) : NULL;
	if (why)
		return text(sv, c, MHD_HTTP_FORBIDDEN, why);
	if (!authorized(sv, c))
		return reply(sv, c, MHD_HTTP_UNAUTHORIZED, "Unauthorized\n", 13,
			     "text/plain; charset=utf-8", true);
	if (!strcmp(url, "/"))
		return reply(sv, c, MHD_HTTP_OK, index_page, sizeof(index_page) - 1,
			     "text/html; charset=utf-8", false);
	if (strcmp(url, "/metrics"))
		return text(sv, c, MHD_HTTP_NOT_FOUND, "Not Found\n");

	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enc = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	e = negotiate_format(accept);
	gz = negotiate_gzip(enc);
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, on_argument, &ca);
	if (ca.bad)
		return text(
			sv, c, MHD_HTTP_BAD_REQUEST,
			"Bad Request: collect[] takes cpu, memory, io, iodevice, pids or psi\n");
	r = ca.mask ? scrape_collect(sv, e, gz, ca.mask, &resp) : scrape(sv, e, gz, &resp);
	if (r < 0) {
		tool_say("scrape: %s", strerror(-r));
		return text(sv, c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			    "Internal Server Error: sample failed\n");
	}
	ret = MHD_queue_response(c, MHD_HTTP_OK, resp);
	/* a shared body is the sample's; a collect[] one is this request's */
	if (ca.mask)
		MHD_destroy_response(resp);
	return ret;
}

static bool has_body(struct MHD_Connection *c)
{
	const char *len =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (len && strcmp(len, "0")) ||
	       MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	static int seen;
	struct server *sv = cls;
	enum MHD_Result ret;

	/*
	 * The first call has the headers. A request without a body is answered on the second,
	 * once it is complete, so that the connection can stay open for the next scrape; one with
	 * a body (never needed here) at once, and the connection is closed unread.
	 */
	if (!*con_cls && !has_body(c)) {
		*con_cls = &seen;
		return MHD_YES;
	}
	pthread_mutex_lock(&sv->lock);
	ret = handle(sv, c, url, method);
	pthread_mutex_unlock(&sv->lock);
	return ret;
}

/*
 * libmicrohttpd's own messages (TLS handshakes that failed, limits hit), one escaped line each,
 * at most SERVE_LOG_BURST in SERVE_LOG_WINDOW: a flood of hostile connections floods no log.
 */
#define SERVE_LOG_BURST	 5
#define SERVE_LOG_WINDOW (10 * NSEC_PER_SEC)

static void on_log(void *cls, const char *fmt, va_list ap)
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

/* ---- the daemon ------------------------------------------------------------------------ */

static struct MHD_Daemon *start(struct server *sv, struct webconfig *wc)
{
	unsigned flags =
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
	char prio[128];
	struct MHD_OptionItem o[16];
	size_t n = 0;

	/* first: libmicrohttpd logs the options after it with its own logger */
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)on_log, sv };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, sv->fd, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, SERVE_CONNECTIONS, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, SERVE_PER_IP, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, SERVE_TIMEOUT_S, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT,
					  SERVE_CONNECTION_MEMORY, NULL };
	if (wc && wc->tls) {
		flags |= MHD_USE_TLS;
		o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, wc->cert_pem };
		o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, wc->key_pem };
		o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0,
						  (void *)webconfig_priorities(wc, prio,
									       sizeof(prio)) };
		if (wc->ca_pem)
			o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0,
							  wc->ca_pem };
	}
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	return MHD_start_daemon(flags, 0, NULL, NULL, on_request, sv, MHD_OPTION_ARRAY, o,
				MHD_OPTION_END);
}

/* The listening socket, ours so that bind errors are told as they are and a reload keeps it. */
static int open_listener(const char *arg, char *shown, size_t size)
{
	_cleanup_free_ char *host = NULL;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res = NULL, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char port[8], h[INET6_ADDRSTRLEN];
	unsigned p;
	int fd = -1, err = 0, r;

	if (listen_parse(arg, &host, &p) < 0)
		return -EINVAL;
	snprintf(port, sizeof(port), "%u", p);
	/* every address: one IPv6 socket that takes IPv4 too, where the machine has IPv6 */
	if (!host)
		hints.ai_family = AF_INET6;
	r = getaddrinfo(host, port, &hints, &res);
	if (r && !host) {
		hints.ai_family = AF_INET;
		r = getaddrinfo(host, port, &hints, &res);
	}
	if (r) {
		tool_say("--listen %s: %s", arg ? arg : "", gai_strerror(r));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		int one = 1, zero = 0;

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6 && !host)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		say_errno("--listen", arg ? arg : "", err);
		return -err;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &s6->sin6_addr, h, sizeof(h));
			snprintf(shown, size, "[%s]:%u", h, ntohs(s6->sin6_port));
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &s4->sin_addr, h, sizeof(h));
			snprintf(shown, size, "%s:%u", h, ntohs(s4->sin_port));
		}
	}
	return fd;
}

static int load_config(const char *file, struct webconfig **ret)
{
	char err[1024];
	int r;

	r = webconfig_load(file, ret, err, sizeof(err));
	if (r < 0)
		tool_say("--web-config %s: %s", file, err);
	return r;
}

/*
 * SIGHUP: read the web config again. Users and headers change under the lock; a TLS change
 * needs a new daemon on the same socket (the old one stops accepting, then stops).
 */
static void reload(struct server *sv, struct MHD_Daemon **d)
{
	struct webconfig *wc = NULL, *old;

	if (load_config(sv->a->web_config, &wc) < 0) {
		tool_say("--web-config %s: kept the previous configuration", sv->a->web_config);
		return;
	}
	old = sv->wc;
	if (*d && !wc->tls && !(old && old->tls)) {
		pthread_mutex_lock(&sv->lock);
		sv->wc = wc;
		pthread_mutex_unlock(&sv->lock);
		webconfig_free(old);
		tool_say("--web-config %s: re-read", sv->a->web_config);
		return;
	}
	/* the socket stays open meanwhile: connections wait in its backlog, none is refused */
	if (*d) {
		sv->fd = MHD_quiesce_daemon(*d);
		if (sv->fd < 0) {
			tool_say(
				"--web-config %s: cannot hand the socket over; kept the previous configuration",
				sv->a->web_config);
			webconfig_free(wc);
			return;
		}
		MHD_stop_daemon(*d);
	}
	*d = start(sv, wc);
	if (!*d) {
		tool_say(
			"--web-config %s: the new TLS settings do not start (certificate or key?); kept the previous configuration",
			sv->a->web_config);
		webconfig_free(wc);
		*d = start(sv, old);
		if (*d)
			sv->fd = -1;
		else
			tool_say(
				"--web-config %s: cannot serve on the old settings either (the next SIGHUP tries again)",
				sv->a->web_config);
		return;
	}
	sv->fd = -1;
	pthread_mutex_lock(&sv->lock);
	sv->wc = wc;
	pthread_mutex_unlock(&sv->lock);
	webconfig_free(old);
	tool_say("--web-config %s: re-read", sv->a->web_config);
}

struct serve_pre {
	struct webconfig *wc;
	int fd;
	char shown[INET6_ADDRSTRLEN + 16];
};

void serve_pre_free(struct serve_pre *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	webconfig_free(p->wc);
	free(p);
}

int serve_prepare(const struct cgtop2_args *a, struct serve_pre **ret)
{
	struct serve_pre *p = calloc(1, sizeof(*p));

	*ret = NULL;
	if (!p) {
		say_errno("--listen", a->listen, ENOMEM);
		return 1;
	}
	p->fd = -1;
	strcpy(p->shown, "?");
	if ((a->web_config && load_config(a->web_config, &p->wc) < 0) ||
	    (p->fd = open_listener(a->listen, p->shown, sizeof(p->shown))) < 0) {
		serve_pre_free(p);
		return 1;
	}
	*ret = p;
	return 0;
}

int serve_run(const struct cgtop2_args *a, struct cg_stats *s, struct serve_pre *p)
{
	struct server sv = { .a = a, .s = s, .fd = -1, .reuse_ns = SERVE_REUSE_NS };
	const char *reuse = getenv("CGKIT_SERVE_REUSE_MS");
	uint64_t ms;
	struct MHD_Daemon *d = NULL;
	char shown[INET6_ADDRSTRLEN + 16];
	sigset_t set;
	int sig, ret = 1, r;

	pthread_mutex_init(&sv.lock, NULL);
	if (reuse && cg_parse_u64(reuse, 60000, &ms) == 0)
		sv.reuse_ns = ms * NSEC_PER_MSEC;
	/* the prepared config and socket are the server's from here */
	sv.wc = p->wc;
	sv.fd = p->fd;
	memcpy(shown, p->shown, sizeof(shown));
	p->wc = NULL;
	p->fd = -1;
	serve_pre_free(p);
	/* the rates of the first scrape need a sample before it; none is taken between scrapes */
	r = fresh_sample(&sv);
	if (r < 0) {
		ret = report_errno(a, "sample", r);
		goto out;
	}
	/* the server thread inherits this mask: the signals come to sigwait below */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	d = start(&sv, sv.wc);
	if (!d) {
		tool_say("--listen %s: the HTTP server does not start%s", shown,
			 sv.wc && sv.wc->tls ? " (the certificate or key of --web-config?)" : "");
		goto out;
	}
	sv.fd = -1; /* the daemon's now */
	tool_say("serving %s://%s/metrics", sv.wc && sv.wc->tls ? "https" : "http", shown);
	for (;;) {
		if (sigwait(&set, &sig))
			continue;
		if (sig != SIGHUP)
			break;
		if (a->web_config)
			reload(&sv, &d);
	}
	ret = 0;
out:
	if (d)
		MHD_stop_daemon(d);
	if (sv.fd >= 0)
		close(sv.fd);
	webconfig_free(sv.wc);
	drop_bodies(&sv);
	free(sv.v.rows);
	pthread_mutex_destroy(&sv.lock);
	return ret;
}
