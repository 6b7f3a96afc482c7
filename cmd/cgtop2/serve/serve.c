// SPDX-License-Identifier: MIT
/* cgtop2 --listen: /metrics for Prometheus on libmicrohttpd, with TLS and basic auth from --web-config. */
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "base/parse.h"
#include "pipeline/args.h"
#include "negotiate.h"
#include "output/render.h"
#include "output/report.h"
#include "serve.h"
#include "serve_auth.h"
#include "serve_guard.h"
#include "serve_io.h"
#include "serve_sink.h"
#include "events/triggers.h"
#include "webconfig.h"
#include "pipeline/source.h"
#include "tool.h"

/*
 * Scrapes that arrive within this long of a sample share it: Prometheus servers of an HA pair,
 * or a scrape queued behind another in the one server thread, read the same instant.
 * $CGKIT_SERVE_REUSE_MS changes it (benchmarks: 0, every scrape samples).
 */
#define SERVE_REUSE_NS (250 * NSEC_PER_MSEC)

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
	size_t len, n_cuts;
	struct metrics_cut *cuts; /* where its chunks end (serve_keep_cuts), for gzip */
};

struct server {
	const struct serve_opts *a;
	struct source *src; /* live */
	/* the sampler is not thread-safe and a reload may run two daemons for a moment */
	pthread_mutex_t lock;
	struct webconfig *wc; /* under lock */
	unsigned gen; /* under lock: one more at each reload */
	struct auth_pool *auth;
	struct auth_budget *budget; /* under lock */
	struct guard *guard;
	size_t conn_limit;
	int fd;
	bool sampled;
	uint64_t sampled_ns, reuse_ns;
	struct view v;
	struct body body[2]; /* by enum expo */
	struct serve_keep keep; /* the cgroups' lines and the gzipped chunks of the last scrape */
	size_t last_len[2]; /* the previous body's length, by enum expo */
	struct trig_counter *tc; /* --psi-trigger */
	uint64_t trig[CG_PSIR_N][2];
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
		free(sv->body[i].cuts);
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
	struct source_sample smp;
	uint64_t now = cg_now_ns();
	int r;

	if (sv->sampled && now - sv->sampled_ns < sv->reuse_ns)
		return 0;
	sv->sampled = false;
	r = source_next(sv->src, &smp);
	if (r < 0)
		return r;
	/* a stable order: a series is found at the same place in every scrape */
	r = make_view(smp.rows, smp.n, smp.shape, ORDER_PATH, NULL, &sv->v);
	if (r < 0 || (r = view_bound_series(&sv->a->out, &sv->v)) < 0)
		return r;
	/* the exposition's own families (man: cgtop2_scrape_duration_seconds, the errors) */
	sv->v.errors = smp.errors;
	sv->v.sample_ns = cg_now_ns() - now;
	if (sv->tc) {
		trig_counter_read(sv->tc, sv->trig);
		sv->v.trigger_events = sv->trig;
	}
	drop_bodies(sv);
	sv->sampled = true;
	sv->sampled_ns = now;
	return 1;
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
	/* the shared body has them as they were when it was made */
	sv->v.password_checks = sv->wc && sv->wc->n_users ? auth_budget_counts(sv->budget) : NULL;
	sv->v.password_results = auth_count_names;
	sv->v.n_password_results = AC_N;
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

		render_metrics(&o, e == EXPO_TEXT, &sv->a->out, &sv->v, sv->keep.cache);
		if (o.failed || !o.s) {
			free(o.s);
			return -ENOMEM;
		}
		b->cuts = serve_keep_cuts(&sv->keep, &b->n_cuts);
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

		r = serve_keep_gzip(&sv->keep, e, b->text, b->len, b->cuts, b->n_cuts, &z, &zlen);
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
	v.password_checks = sv->wc && sv->wc->n_users ? auth_budget_counts(sv->budget) : NULL;
	v.password_results = auth_count_names;
	v.n_password_results = AC_N;
	render_metrics(&o, e == EXPO_TEXT, &sv->a->out, &v, NULL);
	if (o.failed || !o.s) {
		free(o.s);
		return -ENOMEM;
	}
	if (!gz) {
		*ret = metrics_response(sv, o.s, o.len, e, false);
		return *ret ? 0 : -ENOMEM;
	}
	r = serve_gzip(o.s, o.len, &z, &zlen);
	free(o.s);
	if (r < 0)
		return r;
	*ret = metrics_response(sv, z, zlen, e, true);
	return *ret ? 0 : -ENOMEM;
}

/* ---- requests -------------------------------------------------------------------------- */

/* A request, from its headers to its answer (libmicrohttpd's request context). */
struct req {
	struct guard_conn *gc;
	bool begun; /* its headers are in */
	unsigned refused; /* the status of a query beyond the bounds (serve_query_refused) */
	enum { REQ_NEW, REQ_CHECKING } state;
	unsigned gen; /* the config its password is being checked under */
	bool known; /* a configured user */
	bool keyed; /* and a password without NUL: key is its */
	unsigned retry; /* AUTH_THROTTLED: Retry-After */
	struct wc_key key;
	struct auth_job job;
};

enum auth { AUTH_OK, AUTH_REFUSED, AUTH_WAIT, AUTH_BUSY, AUTH_THROTTLED };

static void drop_job(struct auth_job *j)
{
	if (j->password) {
		explicit_bzero(j->password, j->len);
		free(j->password);
	}
	free(j->hash);
	*j = (struct auth_job){ 0 };
}

/*
 * Basic auth. A user and password that passed before are known by their digest at once;
 * any other is checked by bcrypt on a worker thread while the connection is suspended, when
 * the budget of checks that may fail has room (else 429), and this is called again when it is
 * done.
 */
static enum auth authorize(struct server *sv, struct MHD_Connection *c, struct req *rq)
{
	const union MHD_ConnectionInfo *ci;
	const char *hash;
	char *user = NULL, *pass = NULL;
	struct auth_addr addr;
	size_t len;
	bool cached;

	if (!sv->wc || !sv->wc->n_users)
		return AUTH_OK;
	if (rq->state == REQ_CHECKING) {
		bool ok = rq->job.ok, cancelled = rq->job.cancelled;

		rq->state = REQ_NEW;
		auth_budget_settle(sv->budget, &rq->job.charge, !cancelled, ok && rq->known);
		drop_job(&rq->job);
		if (cancelled)
			return AUTH_BUSY;
		/* checked against a config a SIGHUP replaced meanwhile: again, under this one */
		if (rq->gen == sv->gen) {
			if (!ok && rq->keyed)
				webconfig_remember_wrong(sv->wc, &rq->key);
			if (!ok || !rq->known)
				return AUTH_REFUSED;
			webconfig_remember(sv->wc, &rq->key);
			return AUTH_OK;
		}
	}
	if (basic_auth_parse(
		    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION),
		    &user, &pass, &len) < 0)
		return AUTH_REFUSED;
	cached = webconfig_cached(sv->wc, user, pass, len, &rq->key);
	hash = webconfig_hash_of(sv->wc, user, &rq->known);
	free(user);
	rq->keyed = rq->known && !memchr(pass, '\0', len);
	rq->job = (struct auth_job){ .conn = c, .password = pass, .len = len };
	/* known to pass, or known to fail: no bcrypt, no budget */
	if (cached || (rq->keyed && webconfig_known_wrong(sv->wc, &rq->key))) {
		auth_budget_counts(sv->budget)[cached ? AC_CACHED : AC_CACHED_WRONG]++;
		drop_job(&rq->job);
		return cached ? AUTH_OK : AUTH_REFUSED;
	}
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	auth_addr_of(ci ? ci->client_addr : NULL, &addr);
	rq->retry = auth_budget_take(sv->budget, &addr, cg_now_ns(), &rq->job.charge);
	rq->job.hash = rq->retry ? NULL : strdup(hash);
	if (!rq->job.hash) {
		auth_budget_settle(sv->budget, &rq->job.charge, false, false);
		drop_job(&rq->job);
		return rq->retry ? AUTH_THROTTLED : AUTH_BUSY;
	}
	rq->gen = sv->gen;
	rq->state = REQ_CHECKING;
	MHD_suspend_connection(c);
	if (!auth_pool_submit(sv->auth, &rq->job)) {
		/* too many waiting: answered (503) when the connection runs again */
		rq->job.cancelled = true;
		MHD_resume_connection(c);
	}
	return AUTH_WAIT;
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cgtop2</title></head>\n"
	"<body><h1>cgtop2</h1>\n<p>Statistics of this machine's cgroups for Prometheus: "
	"<a href=\"metrics\">metrics</a>.</p>\n<p>cgtop2 (cgkit) " CGKIT_VERSION "</p>\n"
	"</body></html>\n";

static enum MHD_Result handle(struct server *sv, struct MHD_Connection *c, struct req *rq,
			      const char *url, const char *method)
{
	const char *why, *accept, *enc;
	struct MHD_Response *resp;
	struct collect_arg ca = { 0 };
	enum MHD_Result ret;
	enum expo e;
	bool gz;
	int r;

	if (rq->refused == MHD_HTTP_URI_TOO_LONG)
		return serve_text(sv->wc, c, rq->refused,
				  "URI Too Long: the query exceeds 4096 bytes\n");
	if (rq->refused)
		return serve_text(sv->wc, c, rq->refused,
				  "Bad Request: more than 64 query parameters\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return serve_text(sv->wc, c, MHD_HTTP_METHOD_NOT_ALLOWED, "Method Not Allowed\n");
	why = sv->wc ? serve_cert_refused(sv->wc, c) : NULL;
	if (why)
		return serve_text(sv->wc, c, MHD_HTTP_FORBIDDEN, why);
	switch (authorize(sv, c, rq)) {
	case AUTH_OK:
		break;
	case AUTH_WAIT:
		return MHD_YES;
	case AUTH_REFUSED:
		return serve_reply(sv->wc, c, MHD_HTTP_UNAUTHORIZED, "Unauthorized\n", 13,
				   "text/plain; charset=utf-8", true);
	case AUTH_BUSY:
		return serve_retry(sv->wc, c, MHD_HTTP_SERVICE_UNAVAILABLE, 1,
				   "Service Unavailable: too many password checks waiting\n");
	case AUTH_THROTTLED:
		return serve_retry(sv->wc, c, MHD_HTTP_TOO_MANY_REQUESTS, rq->retry,
				   "Too Many Requests: too many failed password checks\n");
	}
	if (!strcmp(url, "/"))
		return serve_reply(sv->wc, c, MHD_HTTP_OK, index_page, sizeof(index_page) - 1,
				   "text/html; charset=utf-8", false);
	if (strcmp(url, "/metrics"))
		return serve_text(sv->wc, c, MHD_HTTP_NOT_FOUND, "Not Found\n");

	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enc = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	e = negotiate_format(accept);
	gz = negotiate_gzip(enc);
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, serve_on_argument, &ca);
	if (ca.bad)
		return serve_text(
			sv->wc, c, MHD_HTTP_BAD_REQUEST,
			"Bad Request: collect[] takes cpu, memory, io, iodevice, pids or psi\n");
	r = ca.mask ? scrape_collect(sv, e, gz, ca.mask, &resp) : scrape(sv, e, gz, &resp);
	if (r < 0) {
		tool_say("scrape: %s", strerror(-r));
		return serve_text(sv->wc, c, MHD_HTTP_INTERNAL_SERVER_ERROR,
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

/*
 * libmicrohttpd's URI callback, before it parses the query: the request's context, and a query
 * past the bounds cut off after its '?' (uri is the connection's own buffer, which libmicrohttpd
 * parses the query from next) so that none of it is filed; the handler answers 414 or 400.
 */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct req *rq = calloc(1, sizeof(*rq));
	char *q = strchr((char *)uri, '?');
	unsigned refused = serve_query_refused(q ? q + 1 : NULL);

	if (refused)
		q[1] = '\0';
	/* none: on_request closes the connection */
	if (rq)
		rq->refused = refused;
	return rq;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct server *sv = cls;
	struct req *rq = *con_cls;
	enum MHD_Result ret;

	/*
	 * The first call has the headers. A request without a body is answered on the second,
	 * once it is complete, so that the connection can stay open for the next scrape; one with
	 * a body (never needed here) at once, and the connection is closed unread.
	 */
	if (!rq)
		return MHD_NO;
	if (!rq->begun) {
		rq->begun = true;
		rq->gc = guard_conn_of(c);
		guard_request(sv->guard, rq->gc, true);
		if (!has_body(c))
			return MHD_YES;
		/* the config's headers go into the answer: under the lock a reload takes */
		pthread_mutex_lock(&sv->lock);
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			ret = serve_text(sv->wc, c, MHD_HTTP_METHOD_NOT_ALLOWED,
					 "Method Not Allowed\n");
		else
			ret = serve_text(sv->wc, c, MHD_HTTP_BAD_REQUEST,
					 "Bad Request: GET and HEAD take no body\n");
		pthread_mutex_unlock(&sv->lock);
		return ret;
	}
	guard_busy(sv->guard, true);
	pthread_mutex_lock(&sv->lock);
	ret = handle(sv, c, rq, url, method);
	pthread_mutex_unlock(&sv->lock);
	guard_busy(sv->guard, false);
	return ret;
}

/* The request is answered (or its connection gone): the next one has its deadline again. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode code)
{
	struct server *sv = cls;
	struct req *rq = *con_cls;

	if (!rq)
		return;
	guard_request(sv->guard, rq->gc, false);
	/* a check whose answer never ran (the daemon stopped): not made */
	if (rq->job.charge.taken) {
		pthread_mutex_lock(&sv->lock);
		auth_budget_settle(sv->budget, &rq->job.charge, false, false);
		pthread_mutex_unlock(&sv->lock);
	}
	drop_job(&rq->job);
	free(rq);
	*con_cls = NULL;
}

/* ---- the daemon ------------------------------------------------------------------------ */

static struct MHD_Daemon *start(struct server *sv, struct webconfig *wc)
{
	/*
	 * epoll: thousands of connections cost no more a turn than the few that are ready; the
	 * server thread suspends a request while a worker checks its password.
	 */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			 MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
	char prio[128];
	struct MHD_OptionItem o[16];
	size_t n = 0;

	/* first: libmicrohttpd logs the options after it with its own logger */
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)serve_on_log, sv };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, sv->fd, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)sv->conn_limit,
					  NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, SERVE_PER_IP, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, SERVE_TIMEOUT_S, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT,
					  SERVE_CONNECTION_MEMORY, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION,
					  (intptr_t)guard_on_connection, sv->guard };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, sv };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)on_uri, sv };
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

/* A suspended connection must be resumed before its daemon stops: the checks end first. */
static void stop(struct server *sv, struct MHD_Daemon *d)
{
	auth_pool_close(sv->auth);
	MHD_stop_daemon(d);
	auth_pool_open(sv->auth);
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
		webconfig_carry_cache(wc, old);
		sv->wc = wc;
		sv->gen++;
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
		stop(sv, *d);
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
	webconfig_carry_cache(wc, old);
	sv->wc = wc;
	sv->gen++;
	pthread_mutex_unlock(&sv->lock);
	webconfig_free(old);
	tool_say("--web-config %s: re-read", sv->a->web_config);
}

struct reload_arg {
	struct server *sv;
	struct MHD_Daemon **d;
};

static void on_hup(void *arg)
{
	struct reload_arg *ra = arg;

	if (ra->sv->a->web_config)
		reload(ra->sv, ra->d);
}

struct serve_pre {
	struct webconfig *wc;
	size_t conn_limit;
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

int serve_prepare(const struct serve_opts *a, struct serve_pre **ret)
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
	    (p->fd = guard_listen(a->listen, p->shown, sizeof(p->shown))) < 0) {
		serve_pre_free(p);
		return 1;
	}
	p->conn_limit = guard_connection_limit();
	*ret = p;
	return 0;
}

size_t serve_fds(const struct serve_pre *p)
{
	/* a connection's socket, and the listener, epoll and the wake-up pipe of a daemon or two */
	return p ? p->conn_limit + 8 : 0;
}

int serve_run(const struct serve_opts *a, const struct cg_layout *l, struct source *src,
	      struct serve_pre *p)
{
	struct server sv = { .a = a, .src = src, .fd = -1, .reuse_ns = SERVE_REUSE_NS };
	const char *reuse = getenv("CGKIT_SERVE_REUSE_MS");
	uint64_t ms;
	struct MHD_Daemon *d = NULL;
	char shown[INET6_ADDRSTRLEN + 16];
	struct reload_arg ra = { .sv = &sv, .d = &d };
	sigset_t set;
	int ret = 1, r;

	pthread_mutex_init(&sv.lock, NULL);
	serve_keep_init(&sv.keep);
	if (reuse && cg_parse_u64(reuse, 60000, &ms) == 0)
		sv.reuse_ns = ms * NSEC_PER_MSEC;
	/* the prepared config and socket are the server's from here */
	sv.wc = p->wc;
	sv.fd = p->fd;
	sv.conn_limit = p->conn_limit;
	memcpy(shown, p->shown, sizeof(shown));
	p->wc = NULL;
	p->fd = -1;
	serve_pre_free(p);
	/* the rates of the first scrape need a sample before it; none is taken between scrapes */
	r = fresh_sample(&sv);
	if (r < 0) {
		ret = report_errno(a->path, "sample", r);
		goto out;
	}
	/* the server thread and the workers inherit this mask: the signals come to the sink's wait */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	r = guard_new(&sv.guard);
	if (r == 0)
		r = auth_pool_new(auth_threads(), SERVE_AUTH_WAITING, &sv.auth);
	if (r == 0)
		r = auth_budget_new(&sv.budget);
	if (r < 0) {
		ret = report_errno(a->path, "start the password checks", r);
		goto out;
	}
	if (a->trig.n_triggers && (ret = trig_counter_start(&a->trig, l, false, sv.conn_limit + 8,
							    source_mirror(src), &sv.tc)) != 0)
		goto out;
	/* the first sample was taken before the counter: its scrapes say 0 wake-ups so far */
	if (sv.tc)
		sv.v.trigger_events = sv.trig;
	ret = 1;
	d = start(&sv, sv.wc);
	if (!d) {
		tool_say("--listen %s: the HTTP server does not start%s", shown,
			 sv.wc && sv.wc->tls ? " (the certificate or key of --web-config?)" : "");
		goto out;
	}
	sv.fd = -1; /* the daemon's now */
	if (a->verbose)
		tool_say(
			"--listen %s: at most %zu connections (from the fd limit), %d from one address",
			shown, sv.conn_limit, SERVE_PER_IP);
	tool_say("serving %s://%s/metrics", sv.wc && sv.wc->tls ? "https" : "http", shown);
	/* the main thread: the scheduler's, as the exporter's sink (serve_sink.c) */
	ret = serve_sink_run(&(struct serve_sink_opts){
		.guard = sv.guard, .tc = sv.tc, .signals = &set, .reload = on_hup, .arg = &ra });
out:
	if (d)
		stop(&sv, d);
	auth_pool_free(sv.auth);
	auth_budget_free(sv.budget);
	guard_free(sv.guard);
	if (sv.fd >= 0)
		close(sv.fd);
	trig_counter_stop(sv.tc);
	webconfig_free(sv.wc);
	drop_bodies(&sv);
	serve_keep_free(&sv.keep);
	view_free(&sv.v);
	pthread_mutex_destroy(&sv.lock);
	return ret;
}
