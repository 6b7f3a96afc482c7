/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: --web-config, the exporter-toolkit web configuration (webconfig.c). */
#ifndef CGTOP2_WEBCONFIG_H
#define CGTOP2_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "negotiate.h"

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
#define WC_WRONG_CACHE 64
#define WC_DIGEST_SIZE 32
/*
 * The bcrypt costs a web config may use (man page, WEB CONFIGURATION): bcrypt's least, and
 * 14, about 1 s a check on a 2020s core (10 takes about 70 ms; each step doubles it), so that
 * the first scrape of a user stays within Prometheus's 10 s scrape timeout on slower ones.
 */
#define WC_BCRYPT_COST_MIN 4
#define WC_BCRYPT_COST_MAX 14

/*
 * A success as the cache holds it: SHA-256 of user, hash and password (key), and of user and
 * hash (id: which user of which config it is for, so that a reload keeps it while they stay).
 */
struct wc_key {
	unsigned char key[WC_DIGEST_SIZE], id[WC_DIGEST_SIZE];
};

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
	/* recent successes: bcrypt once, not per scrape */
	struct wc_key cache[WC_AUTH_CACHE];
	size_t n_cache, next_cache;
	/*
	 * recent failures of a configured user: a client that repeats a wrong password (a scrape
	 * job with an old one) is refused without bcrypt, and spends no budget of its address
	 */
	struct wc_key wrong[WC_WRONG_CACHE];
	size_t n_wrong, next_wrong;
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
		      size_t len, struct wc_key *key);
void webconfig_remember(struct webconfig *wc, const struct wc_key *key);
/* The same for a password bcrypt refused: whether key is one, and remember one. */
bool webconfig_known_wrong(const struct webconfig *wc, const struct wc_key *key);
void webconfig_remember_wrong(struct webconfig *wc, const struct wc_key *key);
/*
 * A reload: the successes of old whose user has the same hash in wc are wc's too, so that a
 * SIGHUP costs no scraper a bcrypt check unless its entry changed.
 */
void webconfig_carry_cache(struct webconfig *wc, const struct webconfig *old);
/*
 * bcrypt (libcrypt): whether password (len bytes) gives hash, compared in constant time.
 * False for a password with a NUL byte. Thread-safe: it reads no webconfig.
 */
bool webconfig_bcrypt(const char *password, size_t len, const char *hash);
/* GnuTLS's priority string for min_version..max_version. */
const char *webconfig_priorities(const struct webconfig *wc, char *buf, size_t size);

#endif
