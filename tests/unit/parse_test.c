// SPDX-License-Identifier: MIT
/* common/parse: the one number parser, on user and kernel text. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "base/parse.h"

/* One cg_parse_seconds case, named in the failure: a list of CHECKs would only say its line */
static void seconds(const char *s, int want_r, uint64_t want_ns)
{
	uint64_t ns = 0;
	int r = cg_parse_seconds(s, &ns);

	if (r != want_r || (r == 0 && ns != want_ns)) {
		fprintf(stderr,
			"cg_parse_seconds(\"%s\") == %d, %" PRIu64 " ns; expected %d, %" PRIu64
			"\n",
			s, r, ns, want_r, want_ns);
		check_failures++;
	}
}

/* One cg_parse_when case at now_ns, named in the failure */
static void when(const char *s, uint64_t now_ns, int want_r, uint64_t want_ns)
{
	uint64_t ns = 0;
	int r = cg_parse_when(s, now_ns, &ns);

	if (r != want_r || (r == 0 && ns != want_ns)) {
		fprintf(stderr,
			"cg_parse_when(\"%s\", %" PRIu64 ") == %d, %" PRIu64
			"; expected %d, %" PRIu64 "\n",
			s, now_ns, r, ns, want_r, want_ns);
		check_failures++;
	}
}

/*
 * --at, --begin, --end: in UTC (set below), now 2026-12-07 14:20:30 UTC, which is
 * 1796653230 seconds.
 */
static void whens(void)
{
	const uint64_t S = 1000000000ULL, now = 1796653230ULL * S + 5;

	when("@1796653230", now, 0, 1796653230ULL * S);
	when("@1.5", now, 0, S + S / 2);
	when("@1.123456789", now, 0, S + 123456789);
	when("@1.1234567890", now, -EINVAL, 0);
	when("@", now, -EINVAL, 0);
	when("@1.", now, -EINVAL, 0);
	when("@-1", now, -EINVAL, 0);
	when("@1x", now, -EINVAL, 0);
	when("now", now, 0, now);
	when("-10m", now, 0, now - 600 * S);
	when("-10min", now, 0, now - 600 * S);
	when("-1h30m", now, 0, now - 5400 * S);
	when("-1d2h3m4s", now, 0, now - (86400 + 7200 + 180 + 4) * S);
	when("-90s", now, 0, now - 90 * S);
	when("-0s", now, 0, now);
	when("-30m1h", now, -EINVAL, 0); /* largest first */
	when("-1m1m", now, -EINVAL, 0);
	when("-1min1m", now, -EINVAL, 0);
	when("-10", now, -EINVAL, 0); /* a unit, always */
	when("-", now, -EINVAL, 0);
	when("--1m", now, -EINVAL, 0);
	when("-1w", now, -EINVAL, 0);
	when("-1m ", now, -EINVAL, 0);
	when("-100000d", now, -EINVAL, 0); /* past ten years */
	when("-1h", 3599 * S, -EINVAL, 0); /* before the epoch */
	when("2026-12-07 14:20", now, 0, 1796653200ULL * S);
	when("2026-12-07 14:20:30", now, 0, 1796653230ULL * S);
	when("2026-12-07 14:20:62", now, -EINVAL, 0); /* strptime takes leap seconds, to 61 */
	when("2026-12-07 25:00", now, -EINVAL, 0);
	when("2026-12-07", now, -EINVAL, 0);
	when("2026-12-07 14:20 x", now, -EINVAL, 0);
	when("today 03:12", now, 0,
	     (1796653230ULL - 14 * 3600 - 20 * 60 - 30 + 3 * 3600 + 12 * 60) * S);
	when("today 00:00:00", now, 0, (1796653230ULL - 14 * 3600 - 20 * 60 - 30) * S);
	when("yesterday 03:00", now, 0,
	     (1796653230ULL - 14 * 3600 - 20 * 60 - 30 - 86400 + 3 * 3600) * S);
	/* on the first of a month, yesterday is the last of the one before: 2026-12-01 -> 11-30 */
	when("yesterday 23:59:59", 1796083200ULL * S, 0, (1796083200ULL - 1) * S);
	when("today", now, -EINVAL, 0);
	when("yesterday", now, -EINVAL, 0);
	when("today 3", now, -EINVAL, 0);
	when("tomorrow 03:00", now, -EINVAL, 0);
	when("", now, -EINVAL, 0);
	when(NULL, now, -EINVAL, 0);
}

/* One cg_parse_size case, named in the failure */
static void size(const char *s, unsigned flags, int want_r, uint64_t want)
{
	uint64_t v = 0;
	int r = cg_parse_size(s, flags, &v);

	if (r != want_r || (r == 0 && v != want)) {
		fprintf(stderr,
			"cg_parse_size(\"%s\", %u) == %d, %" PRIu64 "; expected %d, %" PRIu64 "\n",
			s, flags, r, v, want_r, want);
		check_failures++;
	}
}

static void sizes(void)
{
	const unsigned both = CG_SIZE_MAX | CG_SIZE_BYTES;

	/* powers of 1024, as the kernel's memparse and systemd read them */
	size("512M", 0, 0, 512ull << 20);
	size("1T", 0, 0, 1ull << 40);
	size("2K", 0, 0, 2048);
	size("3G", 0, 0, 3ull << 30);
	size("4096", 0, 0, 4096);
	size("0", 0, 0, 0);
	size("64M\n", 0, 0, 64ull << 20); /* a kernel file's newline, as cg_parse_u64 */
	size("64M\n\n", 0, -EINVAL, 0);
	/* max: only where a limit is meant (the -r vocabulary, systemd's properties) */
	size("max", CG_SIZE_MAX, 0, UINT64_MAX);
	size("max\n", CG_SIZE_MAX, 0, UINT64_MAX);
	size("max", CG_SIZE_BYTES, -EINVAL, 0);
	size("maxK", CG_SIZE_MAX, -EINVAL, 0);
	size("max1", CG_SIZE_MAX, -EINVAL, 0);
	size("18446744073709551615", CG_SIZE_MAX, 0, UINT64_MAX); /* what the kernel calls max */
	/* KiB and KB: a tool's own options (--record-size, --memory-threshold), never a -r value */
	size("64MiB", CG_SIZE_BYTES, 0, 64ull << 20);
	size("64MB", CG_SIZE_BYTES, 0, 64ull << 20);
	size("64MiB", CG_SIZE_MAX, -EINVAL, 0);
	size("64MB", 0, -EINVAL, 0);
	size("64B", both, -EINVAL, 0);
	size("64iB", both, -EINVAL, 0);
	size("64MiBB", both, -EINVAL, 0);
	size("64Mi", both, -EINVAL, 0);
	size("64KiB\n", both, 0, 64ull << 10);
	/* junk */
	size("1.5G", both, -EINVAL, 0);
	size("1Gi", 0, -EINVAL, 0);
	size("1Q", both, -EINVAL, 0);
	size("1k", both, -EINVAL, 0);
	size("-1", both, -EINVAL, 0);
	size("+1", both, -EINVAL, 0);
	size(" 1", both, -EINVAL, 0);
	size("1 ", both, -EINVAL, 0);
	size("", both, -EINVAL, 0);
	size("K", both, -EINVAL, 0);
	size("1KM", both, -EINVAL, 0);
	/* out of range: the scaled value, or the digits themselves */
	size("16777215T", 0, 0, 16777215ull << 40);
	size("16777216T", 0, -ERANGE, 0);
	size("17179869184G", 0, -ERANGE, 0);
	size("20000000T", CG_SIZE_MAX, -ERANGE, 0);
	size("18446744073709551616", both, -ERANGE, 0);
	size("18446744073709551616K", both, -ERANGE, 0);
	size("18446744073709551616x", both, -ERANGE, 0);
	size("1Kx", both, -EINVAL, 0);
	CHECK_INT(cg_parse_size(NULL, 0, &(uint64_t){ 0 }), -EINVAL);
}

/* PSI's percentages: the double strtod gives, and nothing strtod takes beyond digits */
static void decimals(void)
{
	static const char *const ok[] = { "0.00", "12.34",   "100.00",		"7",
					  "0.1",  "99.99\n", "3.14159265358979" };
	static const char *const bad[] = {
		"",	"-1.00", "+1",	" 1",	 "1.",	".5",	"1e2",
		"0x10", "nan",	 "inf", "1.2.3", "1,5", "1.5 ", "1.5\n\n"
	};
	double d;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		d = -1;
		CHECK_INT(cg_parse_decimal(ok[i], 1e6, &d), 0);
		CHECK(d == strtod(ok[i], NULL));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_INT(cg_parse_decimal(bad[i], 1e6, &d), -EINVAL);
	CHECK_INT(cg_parse_decimal("100.01", 100, &d), -ERANGE);
	CHECK_INT(cg_parse_decimal("100.00", 100, &d), 0);
	CHECK(d == 100.0);
	CHECK_INT(cg_parse_decimal("1.00000000000000000000", 100, &d), -ERANGE);
	CHECK_INT(cg_parse_decimal(NULL, 100, &d), -EINVAL);
}

/* cg_parse_pid_file on text: what it returns, the ids, the bad line */
static int pid_file(const char *text, size_t len, pid_t **v, size_t *n, struct cg_pid_file_bad *bad)
{
	FILE *f = fmemopen((void *)text, len, "r");
	size_t cap = 0;
	int r;

	if (!f) {
		check_failures++;
		return -errno;
	}
	*v = NULL;
	*n = 0;
	*bad = (struct cg_pid_file_bad){ 0 };
	r = cg_parse_pid_file(f, v, n, &cap, bad);
	fclose(f);
	return r;
}

static void pid_files(void)
{
	static const char nul[] = "12\n123\0junk\n";
	struct cg_pid_file_bad bad;
	pid_t *v = NULL, *w = NULL;
	size_t n = 0, m = 0, cap = 0;
	char big[8 * 4096];
	int k = 0;

	CHECK_INT(pid_file(" 12\n\n\t34 \r\n \n56", 15, &v, &n, &bad), 0);
	CHECK_INT(n, 3);
	CHECK(n == 3 && v[0] == 12 && v[1] == 34 && v[2] == 56);
	free(v);
	CHECK_INT(pid_file(" \n\n", 3, &v, &n, &bad), 0);
	CHECK_INT(n, 0);
	free(v);
	/* the first bad line, by number and trimmed text */
	CHECK_INT(pid_file("1\n2\n x3 \n0\n", 11, &v, &n, &bad), -EINVAL);
	CHECK_INT(bad.line, 3);
	CHECK(bad.text && bad.len == 2 && !strcmp(bad.text, "x3"));
	free(bad.text);
	free(v);
	CHECK_INT(pid_file("0\n", 2, &v, &n, &bad), -EINVAL);
	CHECK_INT(bad.line, 1);
	free(bad.text);
	free(v);
	CHECK_INT(pid_file("4194305\n", 8, &v, &n, &bad), -EINVAL);
	free(bad.text);
	free(v);
	CHECK_INT(pid_file("-5\n", 3, &v, &n, &bad), -EINVAL);
	free(bad.text);
	free(v);
	/* a NUL inside a line is garbage, not its end */
	CHECK_INT(pid_file(nul, sizeof(nul) - 1, &v, &n, &bad), -EINVAL);
	CHECK_INT(bad.line, 2);
	CHECK(bad.len == 8 && !memcmp(bad.text, "123\0junk", 8));
	free(bad.text);
	free(v);
	/* many ids: the vector grows; the appends go after what was there */
	for (int i = 1; i <= 3000; i++)
		k += snprintf(big + k, sizeof(big) - (size_t)k, "%d\n", i);
	CHECK_INT(pid_file(big, (size_t)k, &v, &n, &bad), 0);
	CHECK_INT(n, 3000);
	CHECK(n == 3000 && v[0] == 1 && v[2999] == 3000);
	free(v);
	CHECK_INT(cg_pids_push(&w, &m, &cap, 7), 0);
	CHECK(m == 1 && cap >= 1 && w[0] == 7);
	free(w);
}

/* cg_format_u64 against printf, at the edges of its buffer */
static void formats(void)
{
	static const uint64_t vals[] = { 0, 7, 10, 4194304, UINT64_MAX / 10, UINT64_MAX };
	char buf[CG_U64_LEN], want[32];

	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		char *p = cg_format_u64(buf, vals[k]);
		int n = snprintf(want, sizeof(want), "%" PRIu64, vals[k]);

		CHECK(buf + sizeof(buf) - p == n && !memcmp(p, want, (size_t)n));
	}
}

/*
 * -r FILE=VALUE: FILE is an interface file's name or the whole argument is refused. " cpu.weight"
 * was taken, and its controller " cpu" became the spec " cpu:/", a path: a cgroup " cpu:".
 */
static void assignments(void)
{
	static const char *const good[] = {
		"cpu.weight=100",
		"memory.limit_in_bytes=1G",
		"hugetlb.2MB.max=0",
		"io.max=8:0 rbps=1",
		"x=",
		"cpu.max=a=b",
		"cgroup.max.depth=3",
	};
	static const char *const bad[] = {
		" cpu.weight=100",
		"cpu.weight =100",
		"a b=1",
		"*.max=1",
		"cpu,memory.max=1",
		"../cpu.shares=1",
		"a/pids.max=1",
		".x=1",
		"1cpu.weight=1",
		"_x=1",
		"=1",
		"cpu.weight",
		"cpu-x.max=1",
		"cpu.weight\t=1",
		"memory.max\n=1",
		"caf\xc3\xa9.max=1",
		"",
	};
	struct cg_assignments a = { 0 };

	for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++)
		CHECK_INT(cg_assignments_add(&a, good[k]), 0);
	CHECK_INT(a.n, sizeof(good) / sizeof(good[0]));
	CHECK_STR(a.v[5].file, "cpu.max");
	CHECK_STR(a.v[5].value, "a=b");
	CHECK_STR(a.v[4].value, "");
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		CHECK_INT(cg_assignments_add(&a, bad[k]), -EINVAL);
	CHECK_INT(a.n, sizeof(good) / sizeof(good[0]));
	cg_assignments_clear(&a);
	/* the length is the caller's: a name may be cut out of a longer text */
	CHECK(cg_setting_name_valid("cpu.weight=1", 10));
	CHECK(!cg_setting_name_valid("cpu.weight=1", 11));
	CHECK(!cg_setting_name_valid("cpu", 0));
	CHECK(!cg_setting_name_valid("cpu\0x", 5));
}

/* A cgroup as messages name it: relative and absolute paths alike, the root as "/". */
static void display(void)
{
	char buf[16];

	CHECK_STR(cg_path_display("a/b", buf, sizeof(buf)), "/a/b");
	CHECK_STR(cg_path_display("/a/b", buf, sizeof(buf)), "/a/b");
	CHECK_STR(cg_path_display("", buf, sizeof(buf)), "/");
	CHECK_STR(cg_path_display("/", buf, sizeof(buf)), "/");
	CHECK_STR(cg_path_display("abcdefghijklmnopq", buf, sizeof(buf)), "/abcdefghijklmn");
	/* cut where snprintf("/%s") cuts, down to a buffer of one byte */
	CHECK_STR(cg_path_display("/abcdefghijklmn", buf, sizeof(buf)), "/abcdefghijklmn");
	CHECK_STR(cg_path_display("/ab", buf, 3), "/a");
	CHECK_STR(cg_path_display("/ab", buf, 2), "/");
	CHECK_STR(cg_path_display("/ab", buf, 1), "");
}

int main(void)
{
	uint64_t u = 0;
	int64_t i = 0;
	pid_t pid = 0;
	mode_t m = 0;
	uid_t uid;
	gid_t gid;

	/* local time is UTC here, whatever the machine's zone */
	setenv("TZ", "UTC", 1);
	tzset();
	whens();
	sizes();
	decimals();
	pid_files();
	formats();
	assignments();
	display();
	CHECK_INT(cg_parse_u64("42", 100, &u), 0);
	CHECK_INT(u, 42);
	CHECK_INT(cg_parse_u64("42\n", 100, &u), 0); /* kernel files end in a newline */
	CHECK_INT(cg_parse_u64("42\n\n", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("101", 100, &u), -ERANGE);
	CHECK_INT(cg_parse_u64("-1", UINT64_MAX, &u), -EINVAL);
	CHECK_INT(cg_parse_u64(" 1", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("1x", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("18446744073709551616", UINT64_MAX, &u), -ERANGE);
	CHECK_INT(cg_parse_u64("18446744073709551615", UINT64_MAX, &u), 0);
	CHECK(u == UINT64_MAX);
	CHECK_INT(cg_parse_i64("-20", -20, 19, &i), 0);
	CHECK_INT(i, -20);
	CHECK_INT(cg_parse_i64("-21", -20, 19, &i), -ERANGE);
	CHECK_INT(cg_parse_i64("--1", -20, 19, &i), -EINVAL);

	CHECK_INT(cg_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &i), 0);
	CHECK(i == INT64_MIN);
	CHECK_INT(cg_parse_i64("-9223372036854775809", INT64_MIN, INT64_MAX, &i), -ERANGE);
	CHECK_INT(cg_parse_i64("9223372036854775807\n", INT64_MIN, INT64_MAX, &i), 0);
	CHECK(i == INT64_MAX);
	CHECK_INT(cg_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &i), -ERANGE);
	CHECK_INT(cg_parse_i64("-0", -1, 1, &i), 0);
	CHECK_INT(i, 0);
	CHECK_INT(cg_parse_i64("-", -1, 1, &i), -EINVAL);
	CHECK_INT(cg_parse_i64("+1", -1, 1, &i), -EINVAL);
	CHECK_INT(cg_parse_i64(" -1", -1, 1, &i), -EINVAL);
	CHECK_INT(cg_parse_i64("- 1", -1, 1, &i), -EINVAL);
	CHECK_INT(cg_parse_i64("5x", 0, 3, &i), -EINVAL); /* junk before range, as strtoll */
	CHECK_INT(cg_parse_u64("5x", 3, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("99999999999999999999x", UINT64_MAX, &u), -ERANGE);
	CHECK_INT(cg_parse_u64(NULL, 1, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("0x10", UINT64_MAX, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("007", 7, &u), 0);
	CHECK_INT(u, 7);

	/* the core: digits at a cursor, what follows left to the caller */
	{
		const char *p = "12:34 rest", *q = "x1", *big = "18446744073709551616 ";

		CHECK_INT(cg_parse_u64_prefix(&p, UINT64_MAX, &u), 0);
		CHECK_INT(u, 12);
		CHECK_STR(p, ":34 rest");
		p++;
		CHECK_INT(cg_parse_u64_prefix(&p, 33, &u), -ERANGE);
		CHECK_STR(p, " rest"); /* every digit consumed, even out of range */
		CHECK_INT(cg_parse_u64_prefix(&q, UINT64_MAX, &u), -EINVAL);
		CHECK_STR(q, "x1");
		CHECK_INT(cg_parse_u64_prefix(&big, UINT64_MAX, &u), -ERANGE);
		CHECK_STR(big, " ");
	}

	CHECK_INT(cg_parse_pid("1", &pid), 0);
	CHECK_INT(pid, 1);
	CHECK_INT(cg_parse_pid("0", &pid), -ERANGE);
	CHECK_INT(cg_parse_pid("4194305", &pid), -ERANGE);

	seconds("1.5", 0, 1500000000);
	seconds(".25", 0, 250000000);
	seconds("2", 0, 2000000000);
	seconds("1.", 0, 1000000000);
	seconds("0.0000000019", 0, 1); /* finer than a nanosecond: truncated */
	seconds("0.0000000001", -ERANGE, 0);
	seconds("0", -ERANGE, 0);
	seconds("1.x", -EINVAL, 0);
	seconds(".", -EINVAL, 0);
	seconds("86401", -ERANGE, 0);

	/* one unit, as systemd-cgtop --delay takes them */
	seconds("200us", 0, 200000);
	seconds("500ms", 0, 500000000);
	seconds("1.5s", 0, 1500000000);
	seconds("2min", 0, 120000000000ULL);
	seconds("0.5us", 0, 500);
	seconds("1.5ms", 0, 1500000);
	seconds(".5ms", 0, 500000);
	seconds("0.5min", 0, 30000000000ULL);
	seconds("0.001us", 0, 1);
	seconds("007ms", 0, 7000000);
	/* 99e-12 min is 5.94 ns: digits past the ninth still count where the unit is large */
	seconds("0.000000000099min", 0, 5);
	seconds("0.016666666666666666666666666666min", 0, 999999999);

	/* a day, however it is written, and not a nanosecond more */
	seconds("86400", 0, 86400000000000ULL);
	seconds("86400s", 0, 86400000000000ULL);
	seconds("1440min", 0, 86400000000000ULL);
	seconds("86400000ms", 0, 86400000000000ULL);
	seconds("86400000000us", 0, 86400000000000ULL);
	seconds("86400.0000000001s", 0, 86400000000000ULL);
	seconds("86401s", -ERANGE, 0);
	seconds("86400.000000001s", -ERANGE, 0);
	seconds("1441min", -ERANGE, 0);
	seconds("1440.0000001min", -ERANGE, 0);
	seconds("86400000001us", -ERANGE, 0);
	seconds("99999999999999999999us", -ERANGE, 0);
	seconds("18446744073709551616ms", -ERANGE, 0);
	seconds("307445735min", -ERANGE, 0); /* times 60e9 wraps to 26.3 s in 64 bits */

	/* zero in any unit, or too little to make a nanosecond */
	seconds("0ms", -ERANGE, 0);
	seconds("0s", -ERANGE, 0);
	seconds("0min", -ERANGE, 0);
	seconds("0.0us", -ERANGE, 0);
	seconds(".0ms", -ERANGE, 0);
	seconds("0.0009us", -ERANGE, 0);

	/* one number, one unit, nothing around them */
	seconds("", -EINVAL, 0);
	seconds("ms", -EINVAL, 0);
	seconds(".ms", -EINVAL, 0);
	seconds("1 ms", -EINVAL, 0);
	seconds(" 1s", -EINVAL, 0);
	seconds("1s ", -EINVAL, 0);
	seconds("1\n", -EINVAL, 0);
	seconds("1mss", -EINVAL, 0);
	seconds("1m", -EINVAL, 0);
	seconds("1h", -EINVAL, 0);
	seconds("1MS", -EINVAL, 0);
	seconds("1sec", -EINVAL, 0);
	seconds("1.5.5s", -EINVAL, 0);
	seconds("1min30s", -EINVAL, 0);
	seconds("1s500ms", -EINVAL, 0);
	seconds("-1s", -EINVAL, 0);
	seconds("+1s", -EINVAL, 0);
	seconds("1e3ms", -EINVAL, 0);
	seconds("0x10", -EINVAL, 0);
	seconds("1.5 s", -EINVAL, 0);

	CHECK_INT(cg_parse_mode("0755", &m), 0);
	CHECK_INT(m, 0755);
	CHECK_INT(cg_parse_mode("8", &m), -EINVAL);
	CHECK_INT(cg_parse_mode("17777", &m), -ERANGE);
	CHECK_INT(cg_parse_mode("00000000000000000000007777", &m), 0);
	CHECK_INT(m, 07777);
	CHECK_INT(cg_parse_mode("0", &m), 0);
	CHECK_INT(m, 0);
	CHECK_INT(cg_parse_mode("", &m), -EINVAL);
	CHECK_INT(cg_parse_mode("-1", &m), -EINVAL);
	CHECK_INT(cg_parse_mode("0755\n", &m), -EINVAL);
	CHECK_INT(cg_parse_mode("777777777777777777777777", &m), -ERANGE);

	CHECK_INT(cg_parse_owner("1000:100", &uid, &gid), 0);
	CHECK_INT(uid, 1000);
	CHECK_INT(gid, 100);
	CHECK_INT(cg_parse_owner(":100", &uid, &gid), 0);
	CHECK(uid == (uid_t)-1);
	CHECK_INT(cg_parse_owner("root", &uid, &gid), 0);
	CHECK_INT(uid, 0);
	CHECK(gid == (gid_t)-1);
	CHECK_INT(cg_parse_owner("4294967294:4294967294", &uid, &gid), 0);
	CHECK(uid == 4294967294u && gid == 4294967294u);
	/* (uid_t)-1 means "unchanged" to chown(2): as a number it is no id, and no name either */
	CHECK_INT(cg_parse_owner("4294967295", &uid, &gid), -ENOENT);
	CHECK_INT(cg_parse_owner(":4294967295", &uid, &gid), -ENOENT);
	CHECK_INT(cg_parse_owner(":root", &uid, &gid), 0);
	CHECK(uid == (uid_t)-1);
	CHECK_INT(gid, 0);
	CHECK_INT(cg_parse_owner(":", &uid, &gid), -EINVAL);
	CHECK_INT(cg_parse_owner("no-such-user-cgkit", &uid, &gid), -ENOENT);
	return CHECK_DONE();
}
