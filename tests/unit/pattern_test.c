// SPDX-License-Identifier: MIT
/*
 * cgtop2's check of a user's regex (cmd/cgtop2/output/pattern.c): back-references found where glibc's
 * REG_EXTENDED takes them, and only there (a bracket expression's backslash is a member, an
 * escaped backslash is one character), on literal patterns; glibc's own regcomp and regexec
 * confirm what the brackets mean.
 */
#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <string.h>

#include "output/pattern.h"
#include "check.h"

static const struct {
	const char *re;
	ssize_t at;
} cases[] = {
	/* the hang of issue 40 */
	{ "(.*)(.*)(.*)(.*)(.*)(.*)(.*)\\7\\6x", 28 },
	{ "(a)\\1", 3 },
	{ "\\9", 0 },
	{ "x(a)(b)\\2", 7 },
	/* not references */
	{ "", -1 },
	{ "plain/path", -1 },
	{ "\\0", -1 },
	{ "a\\.b", -1 },
	{ "a\\\\1", -1 }, /* an escaped backslash, then a 1 */
	{ "a\\\\\\1", 3 }, /* an escaped backslash, then \1 */
	{ "[\\1]", -1 }, /* a backslash and a 1 */
	{ "[\\1]\\1", 4 }, /* the bracket ends, the reference follows */
	{ "[]\\1]", -1 }, /* ']' first is a member */
	{ "[^]\\1]", -1 }, /* also after '^' */
	{ "[]]\\1", 3 }, /* "[]]" closes at its second ']' */
	{ "[[:alpha:]\\1]", -1 }, /* a class inside */
	{ "[[:alpha:]]\\1", 11 },
	{ "[[.].]\\1]", -1 }, /* a collating element ']' does not close */
	{ "[[=a=]\\2]x", -1 },
	{ "[a-z\\]\\1", 6 }, /* "[a-z\\]" is closed by its ']', the backslash a member */
	{ "[\\1", -1 }, /* unclosed: regcomp refuses it */
	{ "\\", -1 },
	{ "a\\", -1 },
	{ "\\[\\1]", 2 }, /* an escaped '[' opens no bracket */
};

static void test_cases(void)
{
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ssize_t at = pattern_backref(cases[i].re);

		if (at != cases[i].at)
			fprintf(stderr, "pattern %s: %zd, not %zd\n", cases[i].re, at, cases[i].at);
		CHECK(at == cases[i].at);
		CHECK_INT(pattern_check(cases[i].re, err, sizeof(err)), at < 0 ? 0 : -EINVAL);
	}
	CHECK_INT(pattern_check("(a)\\1", err, sizeof(err)), -EINVAL);
	CHECK_STR(
		err,
		"a back-reference (\\1 at byte 3) is refused: matching one takes time exponential in the name's length");
}

static bool matches(const char *re, const char *s)
{
	regex_t r;
	bool m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return false;
	m = !regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	return m;
}

/* What the cases take for granted, as glibc's ERE has it */
static void test_glibc_agrees(void)
{
	regex_t r;

	/* in a bracket a backslash is a member, not an escape */
	CHECK(matches("^[\\1]$", "\\"));
	CHECK(matches("^[\\1]$", "1"));
	CHECK(!matches("^[\\1]$", "\\1"));
	CHECK(matches("^[]\\1]$", "]"));
	CHECK(matches("^[[.].]a]$", "]"));
	/* outside, \N is a back-reference: without its group, regcomp says so */
	CHECK_INT(regcomp(&r, "\\1", REG_EXTENDED | REG_NOSUB), REG_ESUBREG);
	CHECK(matches("^(a)\\1$", "aa"));
	/* an escaped backslash: "\\1" is a backslash then 1 */
	CHECK(matches("^a\\\\1$", "a\\1"));
	/* every case without a reference compiles without one */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int e = regcomp(&r, cases[i].re, REG_EXTENDED | REG_NOSUB);

		if (cases[i].at < 0)
			CHECK(e != REG_ESUBREG);
		if (!e)
			regfree(&r);
	}
}

int main(void)
{
	test_cases();
	test_glibc_agrees();
	return CHECK_DONE();
}
