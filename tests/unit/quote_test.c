// SPDX-License-Identifier: MIT
/* common/error: cg_quote and the diagnostics built on it never carry a raw control byte. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/error.h"

/* What every quoted text must be: no byte below 0x20, no DEL, no C1 control, no ESC. */
static int is_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
			return 0;
	}
	return 1;
}

static const char *q(const char *s, size_t size)
{
	static char buf[4096];

	return cg_quote(s, buf, size);
}

int main(void)
{
	struct cg_diag d;
	char line[2048], *big;

	/* printable ASCII and UTF-8 pass; a backslash stays, so quoting twice changes nothing */
	CHECK_STR(q("memory.max=1G", 64), "memory.max=1G");
	CHECK_STR(q("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", 64),
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7");
	CHECK_STR(q("dev-disk-by\\x2duuid", 64), "dev-disk-by\\x2duuid");
	CHECK_STR(q(NULL, 64), "");
	/* controls */
	CHECK_STR(q("a\x1b[7mX", 64), "a\\x1b[7mX");
	CHECK_STR(q("a\nb\tc\rd\x7f", 64), "a\\nb\\tc\\x0dd\\x7f");
	/* invalid UTF-8: stray continuation, overlong, surrogate, past U+10FFFF, truncated */
	CHECK_STR(q("\x80x", 64), "\\x80x");
	CHECK_STR(q("\xc0\xaf", 64), "\\xc0\\xaf");
	CHECK_STR(q("\xe0\x80\xaf", 64), "\\xe0\\x80\\xaf");
	CHECK_STR(q("\xed\xa0\x80", 64), "\\xed\\xa0\\x80");
	CHECK_STR(q("\xf4\x90\x80\x80", 64), "\\xf4\\x90\\x80\\x80");
	CHECK_STR(q("\xe2\x82", 64), "\\xe2\\x82");
	CHECK_STR(q("\xff", 64), "\\xff");
	/* C1 CSI, line separator, right-to-left override: printable-looking but not */
	CHECK_STR(q("\xc2\x9b"
		    "31m",
		    64),
		  "\\xc2\\x9b31m");
	CHECK_STR(q("a\xe2\x80\xa8"
		    "b",
		    64),
		  "a\\xe2\\x80\\xa8b");
	CHECK_STR(q("\xe2\x80\xaetxt", 64), "\\xe2\\x80\\xaetxt");
	CHECK_STR(q("\xc2\xa0", 64), "\xc2\xa0");

	/* the bound: "..." at the end, never inside an escape or a character */
	CHECK_STR(q("abcdefgh", 9), "abcdefgh");
	CHECK_STR(q("abcdefghi", 9), "abcde...");
	CHECK_STR(q("ab\x1b"
		    "cdefgh",
		    9),
		  "ab...");
	CHECK_STR(q("ab\xe2\x82\xac"
		    "cdefgh",
		    9),
		  "ab\xe2\x82\xac...");
	CHECK_STR(q("abc\xe2\x82\xac"
		    "defgh",
		    9),
		  "abc...");
	CHECK_STR(q("abcdef", 3), "..");
	CHECK_STR(q("abcdef", 1), "");
	CHECK_STR(q("", 1), "");

	/* a 1 MB bad line comes back bounded, safe, and marked as cut */
	big = malloc(1 << 20);
	CHECK(big != NULL);
	if (big) {
		memset(big, '\n', (1 << 20) - 1);
		big[(1 << 20) - 1] = '\0';
		q(big, 4096);
		CHECK_INT(strlen(q(big, 4096)), 4095);
		CHECK(!strcmp(q(big, 4096) + 4092, "..."));
		CHECK(is_safe(q(big, 4096)));

		/* the diagnostics: every field quoted and bounded, whatever came in */
		memset(big, 'v', (1 << 20) - 1);
		big[100] = '\x1b';
		big[200] = '\n';
		cg_diag_fail(&d, EINVAL, CG_OP_WRITE, 2, "a\x1b[7mX\nb", "unified", "set %s=%s",
			     "memory.max", big);
		CHECK(is_safe(d.where) && is_safe(d.what) && is_safe(d.why));
		CHECK_STR(d.where, "a\\x1b[7mX\\nb");
		CHECK(strlen(d.what) < sizeof(d.what));
		CHECK(!strcmp(d.what + strlen(d.what) - 3, "..."));
		cg_diag_format(&d, line, sizeof(line));
		CHECK(is_safe(line));
		CHECK(!strncmp(line, "cgroup a\\x1b[7mX\\nb (unified): set memory.max=vvv", 48));
		CHECK(strstr(line, "Invalid argument") != NULL);
		free(big);
	}
	cg_diag_say(&d, ENOENT, "x\ty", "", "pidfile", "bad line '%s'", "12\x1b]0;pwn\x07");
	CHECK_STR(cg_diag_format(&d, line, sizeof(line)),
		  "x\\ty: pidfile: bad line '12\\x1b]0;pwn\\x07'");
	/* a field a tool filled by hand is quoted by the format too */
	memset(&d, 0, sizeof(d));
	strcpy(d.what, "raw\x1b[2J");
	strcpy(d.why, "why\n");
	CHECK_STR(cg_diag_format(&d, line, sizeof(line)), "raw\\x1b[2J: why\\n");
	/* and the format's own bound ends in "..." too */
	CHECK_STR(cg_diag_format(&d, line, 12), "raw\\x1b[...");
	return CHECK_DONE();
}
