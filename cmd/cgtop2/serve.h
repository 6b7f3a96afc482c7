/* SPDX-License-Identifier: MIT */
/* cgtop2 --listen: the HTTP endpoint (serve.c), its request text (negotiate.c), --web-config. */
#ifndef CGTOP2_SERVE_H
#define CGTOP2_SERVE_H

#include <microhttpd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "render.h"
#include "report.h"

/*
 * The default port of --listen. The Prometheus default-port registry's exporter range
 * (9100-9999) is full and it allocates from 10000 up (10019 in 2024); 10306 is in no
 * allocation known to us, and keeps the 9306 of treydock's cgroup_exporter in mind without
 * colliding with it on the HPC hosts that run both (man page, PORT). Not registered.
 */
#define SERVE_DEFAULT_PORT 10306

/* Limits against slow and hostile clients (man page, LIMITS). */
#define SERVE_CONNECTIONS_MIN 16
#define SERVE_CONNECTIONS_MAX 4096 /* and half the fds over the sampler's margin */
#define SERVE_PER_IP	      8
#define SERVE_TIMEOUT_S	      15 /* idle */
#define SERVE_HEADER_NS	      (5 * NSEC_PER_SEC) /* TLS handshake, request line and headers */
#define SERVE_AUTH_THREADS    2 /* bcrypt checks at once, where 3 CPUs or more leave one free */
#define SERVE_AUTH_WAITING    64 /* bcrypt checks waiting for a thread: then 503 */

/* ---- negotiate.c: pure parsers of what a client or the command line sends -------------- */

enum expo { EXPO_TEXT, EXPO_OPENMETRICS };

/* The exposition format an Accept header asks for (NULL: no header): text 0.0.4 unless
 * OpenMetrics 1.0.0 is acceptable with at least text's quality. */
enum expo negotiate_format(const char *accept);
/* Whether an Accept-Encoding header (NULL: none) allows gzip. */
bool negotiate_gzip(const char *accept_encoding);
/*
 * --listen's [ADDR:]PORT: PORT, :PORT, ADDR:PORT or [IPV6]:PORT; NULL or "" is every address
 * on SERVE_DEFAULT_PORT. *ret_host: NULL for every address, else a new string. -EINVAL.
 */
int listen_parse(const char *arg, char **ret_host, unsigned *ret_port);
/*
 * An Authorization header's Basic credentials (RFC 7617, padded base64 as Go takes it): user
 * and password as new strings, the password's length in *ret_len. -EINVAL for another scheme,
 * bad base64, no ':', or a NUL byte in either part (never the configured one); -ENOMEM.
 */
int basic_auth_parse(const char *header, char **ret_user, char **ret_pass, size_t *ret_len);

/* ---- webconfig.c: --web-config, the Prometheus exporter-toolkit web configuration -------- */

enum client_auth {
	CA_NONE, /* NoClientCert */
	CA_REQUEST, /* RequestClientCert */
	CA_REQUIRE_ANY, /* RequireAnyClientCert */
	CA_VERIFY_IF_GIVEN, /* VerifyClientCertIfGiven */
	CA_REQUIRE_VERIFY, /* RequireAndVerifyClientCert */
};

struct wc_pair {
	char *name, *value;
};

#define WC_AUTH_CACHE  16
#define WC_DIGEST_SIZE 32
/*
 * The bcrypt costs a web config may use (man page, WEB CONFIGURATION): bcrypt's least, and
 * 14, about 1 s a check on a 2020s core (10 takes about 70 ms; each step doubles it), so that
 * the first scrape of a user stays within Prometheus's 10 s scrape timeout on slower ones.
 */
#define WC_BCRYPT_COST_MIN 4
#define WC_BCRYPT_COST_MAX 14

struct webconfig {
	bool tls;
	/* file names resolved against the web config's directory, or inline PEM (cert, key) */
	char *cert_file, *key_file, *client_ca_file;
	char *cert_pem, *key_pem, *ca_pem; /* the PEM text, read by webconfig_load */
	enum client_auth client_auth;
	int min_version, max_version; /* 10..13: TLS 1.0..1.3 */
	struct wc_pair *users; /* name, bcrypt hash */
	size_t n_users;
	struct wc_pair *headers;
	size_t n_headers;
	/* SHA-256 of user, hash and password of recent successes: bcrypt once, not per scrape */
	unsigned char cache[WC_AUTH_CACHE][WC_DIGEST_SIZE];
	size_t n_cache, next_cache;
};

/*
 * Parse a web config's text (name: how messages call it; dir: where relative file names are,
 * NULL to keep them). 0, or -EINVAL/-ENOMEM with one line in err ("line 3: unknown key ...").
 */
int webconfig_parse(const char *text, size_t len, const char *dir, struct webconfig **ret,
		    char *err, size_t errlen);
/* Read file, parse it and read the TLS files it names. As webconfig_parse. */
int webconfig_load(const char *file, struct webconfig **ret, char *err, size_t errlen);
void webconfig_free(struct webconfig *wc);
/*
 * A password is checked in two steps: webconfig_cached on the server thread (a SHA-256), then,
 * on a miss, webconfig_bcrypt on a worker against webconfig_hash_of, and webconfig_remember of
 * a success. The hash a user's password is checked against: the user's, or for an unknown
 * user (*known false) the first user's, so that the check costs as much; NULL without users.
 */
const char *webconfig_hash_of(const struct webconfig *wc, const char *user, bool *known);
/*
 * True when user and password (len bytes) passed since the config was read; key is set to
 * what webconfig_remember takes when the user is known. Never for a password with a NUL.
 */
bool webconfig_cached(const struct webconfig *wc, const char *user, const char *password,
		      size_t len, unsigned char key[WC_DIGEST_SIZE]);
void webconfig_remember(struct webconfig *wc, const unsigned char key[WC_DIGEST_SIZE]);
/*
 * bcrypt (libcrypt): whether password (len bytes) gives hash, compared in constant time.
 * False for a password with a NUL byte. Thread-safe: it reads no webconfig.
 */
bool webconfig_bcrypt(const char *password, size_t len, const char *hash);
/* GnuTLS's priority string for min_version..max_version. */
const char *webconfig_priorities(const struct webconfig *wc, char *buf, size_t size);

/* ---- serve_auth.c: passwords checked off the server thread -------------------------------- */

/* A password to check for a request suspended meanwhile; the request owns it. */
struct auth_job {
	struct auth_job *next;
	struct MHD_Connection *conn; /* resumed when the check is done */
	char *password; /* zeroed and freed by the worker */
	size_t len;
	char *hash; /* a copy: a reload may free the config meanwhile */
	bool done, ok, cancelled;
};

struct auth_pool;
int auth_pool_new(unsigned threads, size_t max_waiting, struct auth_pool **ret);
/* Queue a job (its connection suspended); false when closed or max_waiting are waiting. */
bool auth_pool_submit(struct auth_pool *p, struct auth_job *j);
/*
 * Take no more jobs, resume the waiting ones' connections as cancelled and wait for the
 * running checks: every connection runs again, as libmicrohttpd needs before its daemon stops.
 */
void auth_pool_close(struct auth_pool *p);
/* Take jobs again (a new daemon). */
void auth_pool_open(struct auth_pool *p);
void auth_pool_free(struct auth_pool *p);

/* ---- serve_guard.c: deadlines for the request line and headers, the connection limit ------ */

struct guard;
struct guard_conn;
int guard_new(struct guard **ret);
void guard_free(struct guard *g);
/* MHD_OPTION_NOTIFY_CONNECTION with the guard: lists each connection with its deadline. */
void guard_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			 enum MHD_ConnectionNotificationCode code);
struct guard_conn *guard_conn_of(struct MHD_Connection *c);
/* A request's headers are in (started: no deadline) or its answer is sent (the next one's). */
void guard_request(struct guard *g, struct guard_conn *gc, bool started);
/* The server thread enters or leaves the request handler: deadlines do not run meanwhile. */
void guard_busy(struct guard *g, bool busy);
/* Shut the connections past their deadline: how many; *ret_open: how many are listed. */
size_t guard_sweep(struct guard *g, size_t *ret_open);
/*
 * The listening socket of --listen's [ADDR:]PORT (arg), its address as shown in shown: fd, or
 * -errno after saying why.
 */
int guard_listen(const char *arg, char *shown, size_t size);
/* MHD_OPTION_CONNECTION_LIMIT from RLIMIT_NOFILE (as raised): half of it, within bounds. */
size_t guard_connection_limit(void);

/* ---- serve.c -------------------------------------------------------------------------------- */

/*
 * What --listen needs before the sampler scans the tree: --web-config read and the port bound,
 * so that a bad file or a busy port is said at once, not after a first scan that takes
 * seconds on a large tree. 0, or the exit status after saying why.
 */
struct serve_pre;
int serve_prepare(const struct cgtop2_args *a, struct serve_pre **ret);
void serve_pre_free(struct serve_pre *p);
/* The fds the server may hold (connections and its own): the sampler leaves them free. */
size_t serve_fds(const struct serve_pre *p);
/*
 * Serve /metrics on a->listen until SIGINT or SIGTERM (SIGHUP re-reads --web-config); takes p.
 * Each scrape pulls a sample from src, the live source. l: for --psi-trigger's watcher.
 */
struct source;
int serve_run(const struct cgtop2_args *a, const struct cg_layout *l, struct source *src,
	      struct serve_pre *p);

/* ---- triggers.c: --listen --psi-trigger's wake-up counts ------------------------------------ */

struct trig_counter;
/* Register a->triggers below a->path and count their wake-ups on a thread: 0, or the exit
 * status after saying why (the kernel's rule). */
int trig_counter_start(const struct cgtop2_args *a, const struct cg_layout *l,
		       struct trig_counter **ret);
/* The wake-ups so far, by enum cg_psi_res and some (0) or full (1). */
void trig_counter_read(struct trig_counter *t, uint64_t out[CG_PSIR_N][2]);
void trig_counter_stop(struct trig_counter *t);

/* ---- serve_io.c: what the server uses and knows no server ---------------------------------- */

/* text gzipped at level 1 into a buffer of the caller's: 0 or -errno */
int serve_gzip(const char *text, size_t len, unsigned char **ret, size_t *ret_len);
/* ?collect[]=NAME, repeatable: a bit per collector named; an unknown name is refused */
struct collect_arg {
	unsigned mask;
	bool bad;
};
/* MHD_get_connection_values' iterator filling a struct collect_arg */
enum MHD_Result serve_on_argument(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value);
/* libmicrohttpd's log, and the server's own lines about it: rate-limited, escaped */
void serve_on_log(void *cls, const char *fmt, va_list ap);
void __attribute__((format(printf, 1, 2))) serve_say_http(const char *fmt, ...);

#endif
