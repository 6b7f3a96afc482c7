// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen's request and config parsers on literal text (cmd/cgtop2/serve/negotiate.c,
 * webconfig.c): Basic credentials with NUL bytes and bad base64, bcrypt's cost bounds, and
 * the password check in its two steps, and its cache carried over a reload.
 */
#include <stdlib.h>

#include "serve/negotiate.h"
#include "serve/webconfig.h"
#include "check.h"

/* basic_auth_parse of header: the status, and user "\n" password when it passed */
static const char *creds(const char *header)
{
	static char buf[256];
	char *u, *p;
	size_t len;
	int r = basic_auth_parse(header, &u, &p, &len);

	if (r < 0) {
		snprintf(buf, sizeof(buf), "error %d", r);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s\n%s %zu", u, p, len);
	free(u);
	free(p);
	return buf;
}

/* The parse of a web config with one user of hash h: "" or the error line. */
static const char *user_with(const char *h)
{
	static char err[512];
	struct webconfig *wc = NULL;
	char text[256];

	snprintf(text, sizeof(text), "basic_auth_users:\n  prom: '%s'\n", h);
	err[0] = '\0';
	if (webconfig_parse(text, strlen(text), NULL, &wc, err, sizeof(err)) == 0)
		webconfig_free(wc);
	return err;
}

/* bcrypt of "right" at cost 5 */
#define RIGHT "$2y$05$pthxvn2t8b9rF9gF1FhvruO1ZNPbAWHPltj2iR4szY6OTDS46ptMy"

/* the same with another salt */
#define OTHER "$2y$05$MhYsxHGBI8M9nvOVtqbhpuUMP125O07kgcCt8oANcPTVeQWi/jbRS"

int main(void)
{
	struct webconfig *wc = NULL;
	struct webconfig *wc2 = NULL;
	struct wc_key key, key2;
	char h[64], err[512], text[256];
	bool known;

	/* RFC 7617: user up to the first ':', the password may hold ':' */
	CHECK_STR(creds("Basic cHJvbTpzZWNyZXQ="), "prom\nsecret 6");
	CHECK_STR(creds("basic   cHJvbTpzZTpjcmV0  "), "prom\nse:cret 7");
	CHECK_STR(creds("Basic OnNlY3JldA=="), "\nsecret 6");
	CHECK_STR(creds("Basic cHJvbTo="), "prom\n 0");
	/* "prom:secret\0zz": crypt() would stop at the NUL */
	CHECK_STR(creds("Basic cHJvbTpzZWNyZXQAeno="), "error -22");
	/* "pr\0om:secret" */
	CHECK_STR(creds("Basic cHIAb206c2VjcmV0"), "error -22");
	/* no ':', bad base64, unpadded, another scheme, nothing */
	CHECK_STR(creds("Basic cHJvbXNlY3JldA=="), "error -22");
	CHECK_STR(creds("Basic cHJvbTpz*WNyZXQ="), "error -22");
	CHECK_STR(creds("Basic cHJvbTpzZWNyZXQ"), "error -22");
	CHECK_STR(creds("Basic cHJv=TpzZWNyZXQ="), "error -22");
	CHECK_STR(creds("Basic ===="), "error -22");
	CHECK_STR(creds("Bearer cHJvbTpzZWNyZXQ="), "error -22");
	CHECK_STR(creds("BasiccHJvbTpzZWNyZXQ="), "error -22");
	CHECK_STR(creds("Basic "), "error -22");
	CHECK_STR(creds(NULL), "error -22");

	/* bcrypt's cost: 4 (its least) to 14 */
	CHECK_STR(user_with(RIGHT), "");
	memcpy(h, RIGHT, sizeof(RIGHT));
	memcpy(h + 4, "04", 2);
	CHECK_STR(user_with(h), "");
	memcpy(h + 4, "14", 2);
	CHECK_STR(user_with(h), "");
	memcpy(h + 4, "03", 2);
	CHECK_STR(
		user_with(h),
		"line 2: basic_auth_users: 'prom': bcrypt cost 3 is below 4, bcrypt's least (every login would fail); make the hash again, e.g. htpasswd -nBC 10");
	memcpy(h + 4, "15", 2);
	CHECK_STR(
		user_with(h),
		"line 2: basic_auth_users: 'prom': bcrypt cost 15 is above 14, the most cgtop2 takes (a check at 15 takes 2^5 times one at 10, about 70 ms); make the hash again, e.g. htpasswd -nBC 10");
	memcpy(h + 4, "31", 2);
	CHECK(strstr(user_with(h), "bcrypt cost 31 is above 14") != NULL);
	memcpy(h + 4, "1x", 2);
	CHECK(strstr(user_with(h), "not a bcrypt hash") != NULL);
	memcpy(h + 4, "-1", 2);
	CHECK(strstr(user_with(h), "not a bcrypt hash") != NULL);
	CHECK(strstr(user_with("$1$abc$xyz"), "not a bcrypt hash") != NULL);

	/* the check: cache, then bcrypt, then remember */
	snprintf(text, sizeof(text), "basic_auth_users:\n  prom: '%s'\n  other: '%s'\n", RIGHT,
		 RIGHT);
	CHECK_INT(webconfig_parse(text, strlen(text), NULL, &wc, err, sizeof(err)), 0);
	if (!wc)
		return 1;
	CHECK_STR(webconfig_hash_of(wc, "prom", &known), RIGHT);
	CHECK(known);
	/* an unknown user: a hash of the same cost all the same */
	CHECK_STR(webconfig_hash_of(wc, "nobody", &known), RIGHT);
	CHECK(!known);
	CHECK(!webconfig_cached(wc, "prom", "right", 5, &key));
	CHECK(webconfig_bcrypt("right", 5, RIGHT));
	CHECK(!webconfig_bcrypt("wrong", 5, RIGHT));
	CHECK(!webconfig_bcrypt("right\0zz", 8, RIGHT));
	CHECK(!webconfig_bcrypt("righ", 4, RIGHT));
	webconfig_remember(wc, &key);
	CHECK(webconfig_cached(wc, "prom", "right", 5, &key2));
	CHECK(!memcmp(&key, &key2, sizeof(key)));
	/* the digest covers the user, the length and every byte */
	CHECK(!webconfig_cached(wc, "other", "right", 5, &key2));
	CHECK(!webconfig_cached(wc, "prom", "right\0zz", 8, &key2));
	CHECK(!webconfig_cached(wc, "prom", "righ", 4, &key2));
	CHECK(!webconfig_cached(wc, "nobody", "right", 5, &key2));
	/* a reload keeps a success while the user's hash is the same (the other user's changed) */
	snprintf(text, sizeof(text), "basic_auth_users:\n  other: '%s'\n  prom: '%s'\n", OTHER,
		 RIGHT);
	CHECK_INT(webconfig_parse(text, strlen(text), NULL, &wc2, err, sizeof(err)), 0);
	if (!wc2)
		return 1;
	CHECK(!webconfig_cached(wc, "other", "right", 5, &key));
	webconfig_remember(wc, &key);
	webconfig_carry_cache(wc2, wc);
	CHECK(webconfig_cached(wc2, "prom", "right", 5, &key2));
	CHECK(!webconfig_cached(wc2, "other", "right", 5, &key2));
	CHECK(wc2->n_cache == 1);
	webconfig_free(wc2);
	/* a hash changed: nothing carried */
	snprintf(text, sizeof(text), "basic_auth_users:\n  prom: '%s'\n", OTHER);
	CHECK_INT(webconfig_parse(text, strlen(text), NULL, &wc2, err, sizeof(err)), 0);
	if (!wc2)
		return 1;
	webconfig_carry_cache(wc2, wc);
	CHECK(wc2->n_cache == 0);
	webconfig_free(wc2);
	webconfig_free(wc);
	return CHECK_DONE();
}
