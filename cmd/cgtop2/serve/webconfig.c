// SPDX-License-Identifier: MIT
/* cgtop2 --web-config: the Prometheus exporter-toolkit web configuration (YAML), TLS and basic auth. */
#include <crypt.h>
#include <errno.h>
#include <fcntl.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "webconfig.h"
#include "tool.h"

/* A web config, a certificate or a key file larger than this is refused, not read. */
#define WC_FILE_MAX (1 << 20)

struct ctx {
	yaml_document_t *doc;
	const char *dir;
	struct webconfig *wc;
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4)))
fail(struct ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n)
		snprintf(c->err, c->errlen, "line %zu: %s", n->start_mark.line + 1, msg);
	else
		snprintf(c->err, c->errlen, "%s", msg);
	return -EINVAL;
}

/* A key or value echoed in a message: escaped and cut */
#define SHOWN(n) TOOL_SHOWN_N((const char *)(n)->data.scalar.value, (n)->data.scalar.length)

static bool is_null(const yaml_node_t *n)
{
	const char *v;

	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	v = (const char *)n->data.scalar.value;
	return (!strcmp(v, "") || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
		!strcmp(v, "NULL"));
}

/* A scalar as a new C string: NUL bytes inside refused. */
static int scalar(struct ctx *c, const yaml_node_t *key, const yaml_node_t *n, char **ret)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n, "%s takes a string", SHOWN(key));
	if (memchr(n->data.scalar.value, '\0', n->data.scalar.length))
		return fail(c, n, "%s: a NUL byte in the value", SHOWN(key));
	free(*ret);
	*ret = strndup((const char *)n->data.scalar.value, n->data.scalar.length);
	return *ret ? 0 : -ENOMEM;
}

static int boolean(struct ctx *c, const yaml_node_t *key, const yaml_node_t *n, bool *ret)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "on" };
	static const char *const no[] = { "false", "False", "FALSE", "no", "off" };

	if (n->type == YAML_SCALAR_NODE)
		for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
			if (!strcmp((const char *)n->data.scalar.value, yes[i]))
				return *ret = true, 0;
			if (!strcmp((const char *)n->data.scalar.value, no[i]))
				return *ret = false, 0;
		}
	return fail(c, n, "%s takes true or false", SHOWN(key));
}

/* A file name relative to the web config's directory, as exporter-toolkit resolves it. */
static int path_value(struct ctx *c, const yaml_node_t *key, const yaml_node_t *n, char **ret)
{
	_cleanup_free_ char *v = NULL;
	int r = scalar(c, key, n, &v);

	if (r < 0)
		return r;
	if (!*v)
		return fail(c, n, "%s is empty", SHOWN(key));
	free(*ret);
	if (v[0] == '/' || !c->dir) {
		*ret = TAKE_PTR(v);
		return 0;
	}
	return asprintf(ret, "%s/%s", c->dir, v) < 0 ? (*ret = NULL, -ENOMEM) : 0;
}

typedef int (*mapping_fn)(struct ctx *c, const yaml_node_t *key, const yaml_node_t *value,
			  const char *section);

/* Call fn on every pair of mapping n (null: none); a key twice is an error. */
static int each_pair(struct ctx *c, const yaml_node_t *n, const char *section, mapping_fn fn)
{
	yaml_node_pair_t *p, *q;
	int r;

	if (is_null(n))
		return 0;
	if (n->type != YAML_MAPPING_NODE)
		return fail(c, n, "%s must be a mapping", section);
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		const yaml_node_t *v = yaml_document_get_node(c->doc, p->value);

		if (!k || !v)
			return fail(c, n, "%s: a broken pair", section);
		if (k->type != YAML_SCALAR_NODE)
			return fail(c, k, "%s: keys must be strings", section);
		for (q = n->data.mapping.pairs.start; q < p; q++) {
			const yaml_node_t *k2 = yaml_document_get_node(c->doc, q->key);

			if (k2 && k2->type == YAML_SCALAR_NODE &&
			    k2->data.scalar.length == k->data.scalar.length &&
			    !memcmp(k2->data.scalar.value, k->data.scalar.value,
				    k->data.scalar.length))
				return fail(c, k, "%s: key '%s' given twice", section, SHOWN(k));
		}
		r = fn(c, k, v, section);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool key_is(const yaml_node_t *k, const char *name)
{
	return k->data.scalar.length == strlen(name) &&
	       !memcmp(k->data.scalar.value, name, k->data.scalar.length);
}

static int tls_version(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, int *ret)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };

	if (v->type == YAML_SCALAR_NODE)
		for (int i = 0; i < 4; i++)
			if (!strcmp((const char *)v->data.scalar.value, names[i]))
				return *ret = 10 + i, 0;
	return fail(c, v, "%s takes TLS10, TLS11, TLS12 or TLS13", SHOWN(k));
}

static int tls_pair(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, const char *section)
{
	static const char *const auth[] = { "NoClientCert", "RequestClientCert",
					    "RequireAnyClientCert", "VerifyClientCertIfGiven",
					    "RequireAndVerifyClientCert" };
	struct webconfig *wc = c->wc;
	bool ignored;

	if (key_is(k, "cert_file"))
		return path_value(c, k, v, &wc->cert_file);
	if (key_is(k, "key_file"))
		return path_value(c, k, v, &wc->key_file);
	if (key_is(k, "client_ca_file"))
		return path_value(c, k, v, &wc->client_ca_file);
	if (key_is(k, "cert"))
		return scalar(c, k, v, &wc->cert_pem);
	if (key_is(k, "key"))
		return scalar(c, k, v, &wc->key_pem);
	if (key_is(k, "min_version"))
		return tls_version(c, k, v, &wc->min_version);
	if (key_is(k, "max_version"))
		return tls_version(c, k, v, &wc->max_version);
	if (key_is(k, "client_auth_type")) {
		if (v->type == YAML_SCALAR_NODE)
			for (size_t i = 0; i < ARRAY_SIZE(auth); i++)
				if (!strcmp((const char *)v->data.scalar.value, auth[i]))
					return wc->client_auth = (enum client_auth)i, 0;
		return fail(
			c, v,
			"client_auth_type takes NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert");
	}
	/* Go's cipher preference: GnuTLS's server always picks by its own priority */
	if (key_is(k, "prefer_server_cipher_suites"))
		return boolean(c, k, v, &ignored);
	if (key_is(k, "cipher_suites") || key_is(k, "curve_preferences") ||
	    key_is(k, "client_allowed_sans"))
		return fail(
			c, k,
			"%s: key '%s' is not supported by cgtop2 (GnuTLS's defaults apply; remove it)",
			section, SHOWN(k));
	return fail(
		c, k,
		"%s: unknown key '%s' (known: cert_file, key_file, cert, key, client_auth_type, client_ca_file, min_version, max_version)",
		section, SHOWN(k));
}

/* The response headers exporter-toolkit lets a web config set. */
static const char *const settable_headers[] = { "Strict-Transport-Security",
						"X-Content-Type-Options", "X-Frame-Options",
						"X-XSS-Protection", "Content-Security-Policy" };

static int header_pair(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v,
		       const char *section)
{
	struct webconfig *wc = c->wc;
	struct wc_pair *n;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(settable_headers); i++)
		if (key_is(k, settable_headers[i]))
			break;
	if (i == ARRAY_SIZE(settable_headers))
		return fail(
			c, k,
			"headers: '%s' cannot be set (only Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection, Content-Security-Policy)",
			SHOWN(k));
	n = reallocarray(wc->headers, wc->n_headers + 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	wc->headers = n;
	n = &wc->headers[wc->n_headers];
	*n = (struct wc_pair){ 0 };
	r = scalar(c, k, v, &n->value);
	if (r < 0)
		return r;
	wc->n_headers++;
	/* no CR or LF may reach a response: they would end the header early */
	if (strpbrk(n->value, "\r\n"))
		return fail(c, v, "headers: '%s': a line break in the value", SHOWN(k));
	n->name = strdup(settable_headers[i]);
	return n->name ? 0 : -ENOMEM;
}

static int http_pair(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, const char *section)
{
	bool http2;

	/* HTTP/2 is allowed by default there; cgtop2 speaks HTTP/1.1 whatever it says */
	if (key_is(k, "http2"))
		return boolean(c, k, v, &http2);
	if (key_is(k, "headers"))
		return each_pair(c, v, "headers", header_pair);
	return fail(c, k, "%s: unknown key '%s' (known: headers, http2)", section, SHOWN(k));
}

/*
 * bcrypt, the only scheme exporter-toolkit accepts: $2a$, $2b$ or $2y$, a two-digit cost, 53
 * characters. Its cost, or -1 when the text is no such hash.
 */
static int bcrypt_cost(const char *h)
{
	const char *p = h + 4;
	uint64_t cost;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[4] < '0' || h[4] > '9' || cg_parse_u64_prefix(&p, 99, &cost) < 0 || p != h + 6 ||
	    *p != '$')
		return -1;
	return (int)cost;
}

static int user_pair(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, const char *section)
{
	struct webconfig *wc = c->wc;
	struct wc_pair *n;
	int r, cost;

	n = reallocarray(wc->users, wc->n_users + 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	wc->users = n;
	n = &wc->users[wc->n_users];
	*n = (struct wc_pair){ 0 };
	wc->n_users++;
	r = scalar(c, k, k, &n->name);
	if (r >= 0)
		r = scalar(c, k, v, &n->value);
	if (r < 0)
		return r;
	if (!*n->name || strchr(n->name, ':'))
		return fail(c, k,
			    "basic_auth_users: '%s': a user name must be non-empty, without ':'",
			    SHOWN(k));
	cost = bcrypt_cost(n->value);
	/* libxcrypt takes costs below bcrypt's least, then fails every check: said here, once */
	if (cost >= 0 && cost < WC_BCRYPT_COST_MIN)
		return fail(
			c, v,
			"basic_auth_users: '%s': bcrypt cost %d is below %d, bcrypt's least (every login would fail); make the hash again, e.g. htpasswd -nBC 10",
			SHOWN(k), cost, WC_BCRYPT_COST_MIN);
	/* each step doubles a check: 31 would hold a core for days per wrong password */
	if (cost > WC_BCRYPT_COST_MAX)
		return fail(
			c, v,
			"basic_auth_users: '%s': bcrypt cost %d is above %d, the most cgtop2 takes (a check at %d takes 2^%d times one at 10, about 70 ms); make the hash again, e.g. htpasswd -nBC 10",
			SHOWN(k), cost, WC_BCRYPT_COST_MAX, cost, cost - 10);
	if (cost < 0 || crypt_checksalt(n->value) != CRYPT_SALT_OK)
		return fail(
			c, v,
			"basic_auth_users: '%s': not a bcrypt hash ($2y$10$ and 53 characters, e.g. from htpasswd -nBC 10)",
			SHOWN(k));
	return 0;
}

static int top_pair(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, const char *section)
{
	if (key_is(k, "tls_server_config")) {
		c->wc->tls = !is_null(v);
		return each_pair(c, v, "tls_server_config", tls_pair);
	}
	if (key_is(k, "http_server_config"))
		return each_pair(c, v, "http_server_config", http_pair);
	if (key_is(k, "basic_auth_users"))
		return each_pair(c, v, "basic_auth_users", user_pair);
	return fail(
		c, k,
		"unknown key '%s' (known: tls_server_config, http_server_config, basic_auth_users)",
		SHOWN(k));
}

/* What exporter-toolkit checks once the file is read. */
static int check(struct ctx *c)
{
	struct webconfig *wc = c->wc;

	if (!wc->tls) {
		if (wc->cert_file || wc->key_file || wc->client_ca_file)
			return fail(c, NULL, "tls_server_config is empty");
		return 0;
	}
	if (wc->cert_file && wc->cert_pem)
		return fail(c, NULL, "tls_server_config: cert and cert_file exclude each other");
	if (wc->key_file && wc->key_pem)
		return fail(c, NULL, "tls_server_config: key and key_file exclude each other");
	if (!wc->cert_file && !wc->cert_pem)
		return fail(c, NULL, "tls_server_config: cert_file (or cert) is missing");
	if (!wc->key_file && !wc->key_pem)
		return fail(c, NULL, "tls_server_config: key_file (or key) is missing");
	if (!wc->min_version)
		wc->min_version = 12;
	if (!wc->max_version)
		wc->max_version = 13;
	if (wc->min_version > wc->max_version)
		return fail(c, NULL, "tls_server_config: min_version is above max_version");
	if (wc->client_auth != CA_NONE && !wc->client_ca_file)
		return fail(
			c, NULL,
			"tls_server_config: client_auth_type other than NoClientCert needs client_ca_file");
	if (wc->client_auth == CA_NONE && wc->client_ca_file)
		return fail(
			c, NULL,
			"tls_server_config: client_ca_file needs a client_auth_type (e.g. RequireAndVerifyClientCert)");
	return 0;
}

void webconfig_free(struct webconfig *wc)
{
	if (!wc)
		return;
	free(wc->cert_file);
	free(wc->key_file);
	free(wc->client_ca_file);
	free(wc->cert_pem);
	if (wc->key_pem)
		explicit_bzero(wc->key_pem, strlen(wc->key_pem));
	free(wc->key_pem);
	free(wc->ca_pem);
	for (size_t i = 0; i < wc->n_users; i++) {
		free(wc->users[i].name);
		free(wc->users[i].value);
	}
	free(wc->users);
	for (size_t i = 0; i < wc->n_headers; i++) {
		free(wc->headers[i].name);
		free(wc->headers[i].value);
	}
	free(wc->headers);
	explicit_bzero(wc->cache, sizeof(wc->cache));
	explicit_bzero(wc->wrong, sizeof(wc->wrong));
	free(wc);
}

int webconfig_parse(const char *text, size_t len, const char *dir, struct webconfig **ret,
		    char *err, size_t errlen)
{
	struct ctx c = { .dir = dir, .err = err, .errlen = errlen };
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	int r;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "line %zu: %s", parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		return -EINVAL;
	}
	c.doc = &doc;
	c.wc = calloc(1, sizeof(*c.wc));
	if (!c.wc) {
		r = -ENOMEM;
		goto out;
	}
	root = yaml_document_get_root_node(&doc);
	r = root ? each_pair(&c, root, "the web config", top_pair) : 0;
	if (r >= 0)
		r = check(&c);
	if (r == -ENOMEM)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
out:
	if (r < 0) {
		webconfig_free(c.wc);
	} else {
		*ret = c.wc;
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return r;
}

/* A whole regular file of at most WC_FILE_MAX bytes, NUL-terminated. */
static int read_all(const char *path, char **ret, size_t *ret_len)
{
	/* O_NONBLOCK: open() of a FIFO would wait for a writer, at start or on SIGHUP, forever */
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size > WC_FILE_MAX)
		return -EFBIG;
	return cg_read_fd(fd, ret, ret_len);
}

static int read_pem(const char *what, const char *path, char **ret, char *err, size_t errlen)
{
	int r;

	if (!path || *ret)
		return 0;
	r = read_all(path, ret, NULL);
	if (r < 0)
		snprintf(err, errlen, "%s %s: %s", what, TOOL_SHOWN(path),
			 r == -EINVAL ? "not a regular file" : strerror(-r));
	return r;
}

int webconfig_load(const char *file, struct webconfig **ret, char *err, size_t errlen)
{
	_cleanup_free_ char *text = NULL, *dir = NULL;
	struct webconfig *wc;
	char *slash;
	size_t len;
	int r;

	r = read_all(file, &text, &len);
	if (r < 0) {
		snprintf(err, errlen, "%s", r == -EINVAL ? "not a regular file" : strerror(-r));
		return r;
	}
	dir = strdup(file);
	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	else
		strcpy(dir, ".");
	r = webconfig_parse(text, len, dir, &wc, err, errlen);
	if (r < 0)
		return r;
	r = read_pem("cert_file", wc->cert_file, &wc->cert_pem, err, errlen);
	if (r >= 0)
		r = read_pem("key_file", wc->key_file, &wc->key_pem, err, errlen);
	if (r >= 0)
		r = read_pem("client_ca_file", wc->client_ca_file, &wc->ca_pem, err, errlen);
	if (r < 0) {
		webconfig_free(wc);
		return r;
	}
	*ret = wc;
	return 0;
}

const char *webconfig_priorities(const struct webconfig *wc, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "NORMAL:-VERS-ALL");

	for (int v = wc->min_version; v <= wc->max_version && n < size; v++)
		n += (size_t)snprintf(buf + n, size - n, ":+VERS-TLS1.%d", v - 10);
	return buf;
}

static bool same(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

/* SHA-256 of the user, its hash and the password: the cache's key. */
static bool digest(const char *user, const char *hash, const char *password, size_t len,
		   unsigned char *out)
{
	gnutls_hash_hd_t h;
	bool ok;

	if (gnutls_hash_init(&h, GNUTLS_DIG_SHA256) < 0)
		return false;
	ok = gnutls_hash(h, user, strlen(user) + 1) >= 0 &&
	     gnutls_hash(h, hash, strlen(hash) + 1) >= 0 && gnutls_hash(h, password, len) >= 0;
	gnutls_hash_deinit(h, out);
	return ok;
}

static const struct wc_pair *find_user(const struct webconfig *wc, const char *user)
{
	const struct wc_pair *u = NULL;

	/* every entry compared: the time does not say where a name is */
	for (size_t i = 0; i < wc->n_users; i++)
		if (!strcmp(wc->users[i].name, user))
			u = &wc->users[i];
	return u;
}

const char *webconfig_hash_of(const struct webconfig *wc, const char *user, bool *known)
{
	const struct wc_pair *u = find_user(wc, user);

	*known = u != NULL;
	if (u)
		return u->value;
	return wc->n_users ? wc->users[0].value : NULL;
}

/* every entry compared, each in constant time: the time does not say which one matched */
static bool ring_has(const struct wc_key *ring, size_t n, const struct wc_key *key)
{
	bool hit = false;

	for (size_t i = 0; i < n; i++)
		hit |= same(key->key, ring[i].key, WC_DIGEST_SIZE);
	return hit;
}

/* the oldest entry replaced when the ring (size entries) is full */
static void ring_put(struct wc_key *ring, size_t size, size_t *n, size_t *next,
		     const struct wc_key *key)
{
	ring[*next] = *key;
	*next = (*next + 1) % size;
	if (*n < size)
		(*n)++;
}

bool webconfig_cached(const struct webconfig *wc, const char *user, const char *password,
		      size_t len, struct wc_key *key)
{
	const struct wc_pair *u = find_user(wc, user);

	if (!u || memchr(password, '\0', len) ||
	    !digest(u->name, u->value, password, len, key->key) ||
	    !digest(u->name, u->value, "", 0, key->id))
		return false;
	return ring_has(wc->cache, wc->n_cache, key);
}

void webconfig_remember(struct webconfig *wc, const struct wc_key *key)
{
	ring_put(wc->cache, WC_AUTH_CACHE, &wc->n_cache, &wc->next_cache, key);
}

bool webconfig_known_wrong(const struct webconfig *wc, const struct wc_key *key)
{
	return ring_has(wc->wrong, wc->n_wrong, key);
}

void webconfig_remember_wrong(struct webconfig *wc, const struct wc_key *key)
{
	ring_put(wc->wrong, WC_WRONG_CACHE, &wc->n_wrong, &wc->next_wrong, key);
}

void webconfig_carry_cache(struct webconfig *wc, const struct webconfig *old)
{
	unsigned char id[WC_DIGEST_SIZE];

	/* oldest first, so that the ring keeps its order */
	for (size_t k = 0; old && k < old->n_cache; k++) {
		size_t i = (old->next_cache + WC_AUTH_CACHE - old->n_cache + k) % WC_AUTH_CACHE;
		bool kept = false;

		for (size_t u = 0; u < wc->n_users; u++)
			kept |= digest(wc->users[u].name, wc->users[u].value, "", 0, id) &&
				same(id, old->cache[i].id, WC_DIGEST_SIZE);
		if (kept)
			webconfig_remember(wc, &old->cache[i]);
	}
	explicit_bzero(id, sizeof(id));
}

bool webconfig_bcrypt(const char *password, size_t len, const char *hash)
{
	void *data = NULL;
	int size = 0;
	const char *out;
	bool ok;

	/* crypt() would stop at the NUL: "secret\0zz" must not pass for "secret" */
	if (memchr(password, '\0', len) || strlen(password) != len)
		return false;
	out = crypt_ra(password, hash, &data, &size);
	ok = out && out[0] != '*' && strlen(out) == strlen(hash) &&
	     same((const unsigned char *)out, (const unsigned char *)hash, strlen(out));
	if (data) {
		explicit_bzero(data, (size_t)size);
		free(data);
	}
	return ok;
}
