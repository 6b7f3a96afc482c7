// SPDX-License-Identifier: MIT
/* libFuzzer target for cgtop2 --listen's parsers: the web config (YAML), Accept, Accept-Encoding, --listen, Authorization. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/negotiate.h"
#include "serve/webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_config(const struct webconfig *wc)
{
	/* what a parsed config promises the server */
	if (wc->tls && ((!wc->cert_file && !wc->cert_pem) || (!wc->key_file && !wc->key_pem)))
		abort();
	if (wc->tls &&
	    (wc->min_version < 10 || wc->max_version > 13 || wc->min_version > wc->max_version))
		abort();
	for (size_t i = 0; i < wc->n_users; i++) {
		const char *h = wc->users[i].value;

		if (strlen(h) != 60 || !*wc->users[i].name || strchr(wc->users[i].name, ':'))
			abort();
		/* bcrypt's cost within what webconfig.c takes */
		if (h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9' ||
		    (h[4] - '0') * 10 + h[5] - '0' < WC_BCRYPT_COST_MIN ||
		    (h[4] - '0') * 10 + h[5] - '0' > WC_BCRYPT_COST_MAX)
			abort();
	}
	for (size_t i = 0; i < wc->n_headers; i++)
		if (strpbrk(wc->headers[i].value, "\r\n"))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct webconfig *wc = NULL;
	char err[512], *s, *host = NULL, prio[128], *user, *pass;
	unsigned port;
	size_t len;

	if (size < 1)
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 5) {
	case 0:
		/* the text as it is, NULs included: libyaml is given a length */
		if (webconfig_parse((const char *)data + 1, size - 1, "/etc/cgtop2", &wc, err,
				    sizeof(err)) == 0) {
			check_config(wc);
			if (wc->tls)
				webconfig_priorities(wc, prio, sizeof(prio));
			webconfig_free(wc);
		} else if (!err[0] || strchr(err, '\n')) {
			abort(); /* an error is one line */
		}
		break;
	case 1:
		if (negotiate_format(s) > EXPO_OPENMETRICS)
			abort();
		break;
	case 2:
		negotiate_gzip(s);
		break;
	case 3:
		if (listen_parse(s, &host, &port) == 0 && (port > 65535 || (host && !*host)))
			abort();
		free(host);
		break;
	case 4:
		/* a credential: no NUL in either part, the user up to the first ':' */
		if (basic_auth_parse(s, &user, &pass, &len) == 0) {
			if (strchr(user, ':') || strlen(pass) != len)
				abort();
			free(user);
			free(pass);
		}
		break;
	}
	free(s);
	return 0;
}
