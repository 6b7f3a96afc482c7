// SPDX-License-Identifier: MIT
/* cgtop2 --listen: what clients and the command line send, parsed: Accept, Accept-Encoding, ADDR:PORT. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "base/cleanup.h"
#include "base/parse.h"
#include "negotiate.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* [s, e) without surrounding blanks */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
}

static bool token_is(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) == n && !strncasecmp(s, word, n);
}

/* An RFC 9110 qvalue ("0", "0.5", "1.000") in thousandths; -1 when malformed. */
static int qvalue(const char *s, const char *e)
{
	int q, scale = 100;

	if (s < e && *s == '"' && e - s >= 2 && e[-1] == '"')
		s++, e--;
	if (s == e || (*s != '0' && *s != '1'))
		return -1;
	q = (*s++ - '0') * 1000;
	if (s == e)
		return q;
	if (*s++ != '.')
		return -1;
	for (int i = 0; s < e; i++, s++) {
		if (i == 3 || *s < '0' || *s > '9')
			return -1;
		q += (*s - '0') * scale;
		scale /= 10;
	}
	return q > 1000 ? -1 : q;
}

/*
 * One element of a comma-separated header, "value;name=v;q=0.5": its value in [*vs, *ve), its
 * quality (1000 without q, -1 when malformed) and whether param `want` (if given) equals
 * `want_value` or is absent (*want_ok).
 */
static int element(const char *s, const char *e, const char **vs, const char **ve, const char *want,
		   const char *want_value, bool *want_ok)
{
	const char *semi = memchr(s, ';', (size_t)(e - s));
	int q = 1000;

	*vs = s;
	*ve = semi ? semi : e;
	trim(vs, ve);
	if (want_ok)
		*want_ok = true;
	while (semi) {
		const char *ps = semi + 1, *pe, *eq;

		semi = memchr(ps, ';', (size_t)(e - ps));
		pe = semi ? semi : e;
		eq = memchr(ps, '=', (size_t)(pe - ps));
		if (!eq)
			continue;
		{
			const char *ns = ps, *ne = eq, *xs = eq + 1, *xe = pe;

			trim(&ns, &ne);
			trim(&xs, &xe);
			if (token_is(ns, ne, "q")) {
				q = qvalue(xs, xe);
			} else if (want && want_ok && token_is(ns, ne, want)) {
				if (xe - xs >= 2 && *xs == '"' && xe[-1] == '"')
					xs++, xe--;
				*want_ok = token_is(xs, xe, want_value);
			}
		}
	}
	return q;
}

enum expo negotiate_format(const char *accept)
{
	int q_om = -1, q_text = -1;

	if (!accept)
		return EXPO_TEXT;
	for (const char *s = accept; *s;) {
		const char *e = strchr(s, ','), *vs, *ve;
		bool ok;
		int q;

		if (!e)
			e = s + strlen(s);
		q = element(s, e, &vs, &ve, "version", NULL, NULL);
		if (token_is(vs, ve, "application/openmetrics-text")) {
			element(s, e, &vs, &ve, "version", "1.0.0", &ok);
			if (ok && q > q_om)
				q_om = q;
		} else if (token_is(vs, ve, "text/plain")) {
			element(s, e, &vs, &ve, "version", "0.0.4", &ok);
			if (ok && q > q_text)
				q_text = q;
		} else if (token_is(vs, ve, "*/*") || token_is(vs, ve, "text/*")) {
			if (q > q_text)
				q_text = q;
		}
		s = *e ? e + 1 : e;
	}
	return q_om > 0 && q_om >= q_text ? EXPO_OPENMETRICS : EXPO_TEXT;
}

bool negotiate_gzip(const char *accept_encoding)
{
	int q_gzip = -1, q_any = -1;

	if (!accept_encoding)
		return false;
	for (const char *s = accept_encoding; *s;) {
		const char *e = strchr(s, ','), *vs, *ve;
		int q;

		if (!e)
			e = s + strlen(s);
		q = element(s, e, &vs, &ve, NULL, NULL, NULL);
		if (token_is(vs, ve, "gzip") || token_is(vs, ve, "x-gzip")) {
			if (q > q_gzip)
				q_gzip = q;
		} else if (token_is(vs, ve, "*")) {
			if (q > q_any)
				q_any = q;
		}
		s = *e ? e + 1 : e;
	}
	/* "gzip;q=0" refuses it even when "*" would allow it */
	return q_gzip >= 0 ? q_gzip > 0 : q_any > 0;
}

int listen_parse(const char *arg, char **ret_host, unsigned *ret_port)
{
	const char *colon, *host = NULL, *port;
	size_t hlen = 0;
	uint64_t v;
	char *h = NULL;

	if (!arg || !*arg) {
		*ret_host = NULL;
		*ret_port = SERVE_DEFAULT_PORT;
		return 0;
	}
	if (*arg == '[') {
		const char *end = strchr(arg, ']');

		if (!end || end == arg + 1 || end[1] != ':')
			return -EINVAL;
		host = arg + 1;
		hlen = (size_t)(end - host);
		port = end + 2;
	} else {
		colon = strrchr(arg, ':');
		if (colon && memchr(arg, ':', (size_t)(colon - arg)))
			return -EINVAL; /* a bare IPv6 address: brackets say where the port starts */
		if (colon) {
			host = arg;
			hlen = (size_t)(colon - arg);
			port = colon + 1;
		} else {
			port = arg;
		}
	}
	if (cg_parse_u64(port, 65535, &v) < 0 || strspn(port, "0123456789") != strlen(port))
		return -EINVAL;
	if (hlen > 253 || (host && memchr(host, '\0', hlen)))
		return -EINVAL;
	if (hlen) {
		h = strndup(host, hlen);
		if (!h)
			return -ENOMEM;
	}
	*ret_host = h;
	*ret_port = (unsigned)v;
	return 0;
}

/* A base64 digit's value (RFC 4648's standard alphabet), -1 for anything else. */
static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Padded base64 as Go's StdEncoding takes it, into out (room for len / 4 * 3): bytes, or -1. */
static ssize_t b64_decode(const char *s, size_t len, unsigned char *out)
{
	size_t n = 0, pad = 0;

	if (len % 4)
		return -1;
	while (pad < 2 && pad < len && s[len - 1 - pad] == '=')
		pad++;
	for (size_t i = 0; i < len; i += 4) {
		uint32_t v = 0;

		for (size_t j = 0; j < 4; j++) {
			int d = i + j >= len - pad ? 0 : b64_value(s[i + j]);

			if (d < 0)
				return -1;
			v = v << 6 | (uint32_t)d;
		}
		out[n++] = (unsigned char)(v >> 16);
		out[n++] = (unsigned char)(v >> 8);
		out[n++] = (unsigned char)v;
	}
	return (ssize_t)(n - pad);
}

int basic_auth_parse(const char *header, char **ret_user, char **ret_pass, size_t *ret_len)
{
	const char *s = header, *e;
	_cleanup_free_ unsigned char *buf = NULL;
	unsigned char *colon;
	ssize_t n;
	int r = -EINVAL;

	*ret_user = *ret_pass = NULL;
	*ret_len = 0;
	if (!header || strncasecmp(s, "Basic", 5) || !is_space(s[5]))
		return -EINVAL;
	s += 5;
	e = s + strlen(s);
	trim(&s, &e);
	buf = malloc((size_t)(e - s) / 4 * 3 + 1);
	if (!buf)
		return -ENOMEM;
	n = b64_decode(s, (size_t)(e - s), buf);
	/* a NUL byte anywhere: C strings would cut the name or the password short */
	if (n >= 0 && !memchr(buf, '\0', (size_t)n) && (colon = memchr(buf, ':', (size_t)n))) {
		*ret_user = strndup((const char *)buf, (size_t)(colon - buf));
		*ret_len = (size_t)(buf + n - colon - 1);
		*ret_pass = strndup((const char *)colon + 1, *ret_len);
		r = *ret_user && *ret_pass ? 0 : -ENOMEM;
		if (r < 0) {
			free(*ret_user);
			free(*ret_pass);
			*ret_user = *ret_pass = NULL;
		}
	}
	explicit_bzero(buf, (size_t)(e - s) / 4 * 3 + 1);
	return r;
}
