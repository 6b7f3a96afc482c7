/* SPDX-License-Identifier: MIT */
/* cgtop2 --listen: the HTTP endpoint (serve.c), its request text (negotiate.c), --web-config. */
#ifndef CGTOP2_SERVE_H
#define CGTOP2_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgtop2.h"

/*
 * The default port of --listen. The Prometheus default-port registry's exporter range
 * (9100-9999) is full and it allocates from 10000 up (10019 in 2024); 10306 is in no
 * allocation known to us, and keeps the 9306 of treydock's cgroup_exporter in mind without
 * colliding with it on the HPC hosts that run both (man page, PORT). Not registered.
 */
#define SERVE_DEFAULT_PORT 10306

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

#define WC_AUTH_CACHE 16

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
	unsigned char cache[WC_AUTH_CACHE][32];
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
/* True when user and password match a basic_auth_users entry (constant time, bcrypt). */
bool webconfig_check_user(struct webconfig *wc, const char *user, const char *password);
/* GnuTLS's priority string for min_version..max_version. */
const char *webconfig_priorities(const struct webconfig *wc, char *buf, size_t size);

/* ---- serve.c -------------------------------------------------------------------------------- */

/*
 * What --listen needs before the sampler scans the tree: --web-config read and the port bound,
 * so that a bad file or a busy port is said at once, not after a first scan that takes
 * seconds on a large tree. 0, or the exit status after saying why.
 */
struct serve_pre;
int serve_prepare(const struct cgtop2_args *a, struct serve_pre **ret);
void serve_pre_free(struct serve_pre *p);
/*
 * Serve /metrics on a->listen until SIGINT or SIGTERM (SIGHUP re-reads --web-config); takes p.
 * l: for --psi-trigger's watcher.
 */
int serve_run(const struct cgtop2_args *a, const struct cg_layout *l, struct cg_stats *s,
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

#endif
