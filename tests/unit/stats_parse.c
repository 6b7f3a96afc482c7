// SPDX-License-Identifier: MIT
/* Unit tests of the stat file parsers in common/base/kparse.c, on literal kernel text. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kparse.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static void test_keyed(void)
{
	/* cpu.stat of a cgroup2 without the cpu controller (6.x): usage_usec is still there */
	const char *cpu = "usage_usec 203881529\nuser_usec 104422964\nsystem_usec 99458565\n"
			  "nice_usec 0\n";
	const char *mem = "cache 1234\nrss 5678\ntotal_rss 99\ntotal_inactive_file 7\n";
	uint64_t v = 1;

	CHECK(cg_kparse_keyed(cpu, "usage_usec", &v) == 0 && v == 203881529);
	CHECK(cg_kparse_keyed(cpu, "nice_usec", &v) == 0 && v == 0);
	CHECK(cg_kparse_keyed(cpu, "usage", &v) == -ENOENT);
	CHECK(cg_kparse_keyed(cpu, "throttled_usec", &v) == -ENOENT);
	CHECK(cg_kparse_keyed(mem, "rss", &v) == 0 && v == 5678);
	CHECK(cg_kparse_keyed(mem, "total_rss", &v) == 0 && v == 99);
	CHECK(cg_kparse_keyed("usage_usec 12x\n", "usage_usec", &v) == -EINVAL);
	CHECK(cg_kparse_keyed("usage_usec -1\n", "usage_usec", &v) == -EINVAL);
	CHECK(cg_kparse_keyed("usage_usec 99999999999999999999999\n", "usage_usec", &v) == -ERANGE);
	CHECK(cg_kparse_keyed("", "usage_usec", &v) == -ENOENT);
	/* no newline at the end */
	CHECK(cg_kparse_keyed("a 1\nusage_usec 5", "usage_usec", &v) == 0 && v == 5);
}

static void test_io_stat(void)
{
	uint64_t r = 1, w = 1;

	CHECK(cg_kparse_io_stat(
		      "8:16 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0 dios=0\n8:0 rbytes=90430464 wbytes=299008000 rios=8950 wios=1252 dbytes=50331648 dios=3021\n",
		      &r, &w) == 0);
	CHECK(r == 1459200ull + 90430464ull && w == 314773504ull + 299008000ull);
	CHECK(cg_kparse_io_stat("", &r, &w) == 0 && r == 0 && w == 0);
	/* a device line without the byte keys (only ios) counts as zero bytes */
	CHECK(cg_kparse_io_stat("253:0 rios=1 wios=2\n", &r, &w) == 0 && r == 0 && w == 0);
	CHECK(cg_kparse_io_stat("rbytes=1 wbytes=2\n", &r, &w) == -EINVAL);
	CHECK(cg_kparse_io_stat("8:0 rbytes=x\n", &r, &w) == -EINVAL);
	CHECK(cg_kparse_io_stat("8:0 rbytes\n", &r, &w) == -EINVAL);
	CHECK(cg_kparse_io_stat("8:0 rbytes=18446744073709551615\n8:1 rbytes=1\n", &r, &w) ==
	      -ERANGE);
}

static void test_blkio(void)
{
	uint64_t r = 1, w = 1;
	const char *t = "8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 8192\n8:0 Async 4096\n"
			"8:0 Discard 0\n8:0 Total 12288\n8:16 Read 100\n8:16 Write 1\n"
			"8:16 Total 101\nTotal 12389\n";

	CHECK(cg_kparse_blkio(t, &r, &w) == 0 && r == 4196 && w == 8193);
	/* the root of an idle host: only the grand total */
	CHECK(cg_kparse_blkio("Total 0\n", &r, &w) == 0 && r == 0 && w == 0);
	CHECK(cg_kparse_blkio("", &r, &w) == 0 && r == 0 && w == 0);
	CHECK(cg_kparse_blkio("8:0 Read\n", &r, &w) == -EINVAL);
	CHECK(cg_kparse_blkio("Read 5\n", &r, &w) == -EINVAL);
	CHECK(cg_kparse_blkio("Total x\n", &r, &w) == -EINVAL);
}

static void test_psi(void)
{
	double v = -1;

	CHECK(cg_kparse_psi_avg10("some avg10=3.05 avg60=1.92 avg300=0.72 total=19095579\n"
				  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
				  &v) == 0 &&
	      fabs(v - 3.05) < 1e-9);
	/* the system-wide cpu file before 5.13 has no full line */
	CHECK(cg_kparse_psi_avg10("some avg10=100.00 avg60=1 avg300=0 total=1\n", &v) == 0 &&
	      v == 100.0);
	/* "full" first is legal too: find "some" wherever it is */
	CHECK(cg_kparse_psi_avg10(
		      "full avg10=9.00 avg60=0 avg300=0 total=0\nsome avg10=0.50 avg60=0 avg300=0 total=0\n",
		      &v) == 0 &&
	      v == 0.5);
	CHECK(cg_kparse_psi_avg10("full avg10=9.00 avg60=0 avg300=0 total=0\n", &v) == -EINVAL);
	CHECK(cg_kparse_psi_avg10("some avg60=1.00\n", &v) == -EINVAL);
	CHECK(cg_kparse_psi_avg10("some avg10=abc avg60=0\n", &v) == -EINVAL);
	CHECK(cg_kparse_psi_avg10("some avg10=-1 avg60=0\n", &v) == -EINVAL);
	CHECK(cg_kparse_psi_avg10("some avg10=nan avg60=0\n", &v) == -EINVAL);
	CHECK(cg_kparse_psi_avg10("", &v) == -EINVAL);
	/* idle: every average zero, whatever the totals say */
	CHECK(cg_kparse_psi_idle("some avg10=0.00 avg60=0.00 avg300=0.00 total=19095579\n"
				 "full avg10=0.00 avg60=0.00 avg300=0.00 total=12\n"));
	CHECK(!cg_kparse_psi_idle("some avg10=0.00 avg60=0.00 avg300=0.01 total=1\n"));
	CHECK(!cg_kparse_psi_idle("some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n"
				  "full avg10=2.50 avg60=0.00 avg300=0.00 total=1\n"));
	CHECK(cg_kparse_psi_idle(""));
	CHECK(!cg_kparse_psi_idle("some avg10"));
}

static void test_numbers(void)
{
	uint64_t v = 0;

	CHECK(cg_kparse_number("203881529000\n", &v) == 0 && v == 203881529000ull);
	CHECK(cg_kparse_number("358490112\n", &v) == 0 && v == 358490112);
	CHECK(cg_kparse_number("max\n", &v) == -EINVAL);
	CHECK(cg_kparse_number("", &v) == -EINVAL);
	CHECK(cg_kparse_count_lines("") == 0);
	CHECK(cg_kparse_count_lines("1\n2\n3\n") == 3);
	CHECK(cg_kparse_count_lines("1\n2") == 2);
}

static void test_meminfo_events(void)
{
	uint64_t v = 7;

	CHECK(cg_kparse_meminfo("MemTotal:       16303940 kB\nMemFree:         1040020 kB\n"
				"MemAvailable:    9863476 kB\n",
				&v) == 0 &&
	      v == (16303940ull - 9863476ull) * 1024);
	/* no MemAvailable (before 3.14), or more available than there is: no figure */
	v = 7;
	CHECK(cg_kparse_meminfo("MemTotal: 100 kB\nMemFree: 50 kB\n", &v) == -EINVAL && v == 7);
	CHECK(cg_kparse_meminfo("MemTotal: 100 kB\nMemAvailable: 101 kB\n", &v) == -EINVAL);
	CHECK(cg_kparse_meminfo("MemFree: 100 kB\nMemTotal: 100 kB\n", &v) == -EINVAL);
	CHECK(cg_kparse_meminfo("", &v) == -EINVAL);
	CHECK(cg_kparse_populated("populated 0\nfrozen 0\n") == 0);
	CHECK(cg_kparse_populated("populated 1\nfrozen 0\n") == 1);
	/* a cgroup.events that does not say is taken as populated: read it all */
	CHECK(cg_kparse_populated("frozen 0\n") == 1);
}

static void test_proc_stat(void)
{
	char comm[32];
	uint64_t ticks = 0;
	/* a comm with spaces and a ')' : only the last ')' ends it */
	const char *t =
		"4242 (we (ird) x) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 17 0 0 20 0 3 0 12345 1000 100 18446744073709551615\n";

	CHECK(cg_kparse_proc_stat(t, comm, sizeof(comm), &ticks) == 0);
	CHECK(!strcmp(comm, "we (ird) x") && ticks == 267);
	CHECK(cg_kparse_proc_stat("1 (init) S 0 1 1 0 -1 4 5 6 7 8 9 10\n", comm, sizeof(comm),
				  &ticks) == 0 &&
	      ticks == 19);
	CHECK(cg_kparse_proc_stat("1 (init) S 0 1\n", comm, sizeof(comm), &ticks) == -EINVAL);
	CHECK(cg_kparse_proc_stat("no parens", comm, sizeof(comm), &ticks) == -EINVAL);
	/* found by tests/fuzz/stats_fuzz.c: nothing after ")" read past the string */
	CHECK(cg_kparse_proc_stat("a()", comm, sizeof(comm), &ticks) == -EINVAL);
	CHECK(cg_kparse_proc_stat("1 (x) ", comm, sizeof(comm), &ticks) == -EINVAL);
	/* comm is cut to the buffer, not overrun */
	CHECK(cg_kparse_proc_stat(t, comm, 4, &ticks) == 0 && !strcmp(comm, "we "));
}

static void test_env_value(void)
{
	static const char state[] = "# This is private data. Do not parse.\n"
				    "NAME=t\nSCOPE=\"machine-t.scope\"\nUNIT=x\nLEADER=42\nLEAD=1\n"
				    "EMPTY=\nSCOPES=no";
	char *v;

	v = cg_kparse_env_value(state, "SCOPE");
	CHECK(v && !strcmp(v, "machine-t.scope"));
	free(v);
	v = cg_kparse_env_value(state, "LEADER");
	CHECK(v && !strcmp(v, "42"));
	free(v);
	/* a key is whole: LEAD is not LEADER's prefix match, nor SCOPES SCOPE's */
	v = cg_kparse_env_value(state, "LEAD");
	CHECK(v && !strcmp(v, "1"));
	free(v);
	CHECK(!cg_kparse_env_value(state, "NOPE"));
	CHECK(!cg_kparse_env_value("SCOPE", "SCOPE"));
}

static void test_statm(void)
{
	uint64_t pages = 7;

	CHECK(cg_kparse_statm("2345 678 123 45 0 890 0\n", &pages) == 0 && pages == 678);
	CHECK(cg_kparse_statm("0 0 0 0 0 0 0", &pages) == 0 && pages == 0);
	CHECK(cg_kparse_statm("12 34", &pages) == 0 && pages == 34);
	CHECK(cg_kparse_statm("12 34\n", &pages) == 0 && pages == 34);
	pages = 7;
	CHECK(cg_kparse_statm("12", &pages) == -EINVAL && pages == 7);
	CHECK(cg_kparse_statm("12  34", &pages) == -EINVAL);
	CHECK(cg_kparse_statm("12 x4 5", &pages) == -EINVAL);
	CHECK(cg_kparse_statm("12 34x 5", &pages) == -EINVAL);
	CHECK(cg_kparse_statm("-1 34 5", &pages) == -EINVAL);
	CHECK(cg_kparse_statm("12 99999999999999999999 5", &pages) == -EINVAL ||
	      cg_kparse_statm("12 99999999999999999999 5", &pages) == -ERANGE);
	CHECK(cg_kparse_statm("", &pages) == -EINVAL && pages == 7);
}

static void test_proc_flags(void)
{
	uint64_t flags = 0;

	/* kthreadd: PF_KTHREAD (0x00200000) among others */
	CHECK(cg_kparse_proc_flags("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0\n", &flags) ==
		      0 &&
	      flags == 2129984 && (flags & CG_PF_KTHREAD));
	CHECK(cg_kparse_proc_flags("77 (a) S 1 2 3 4 -1 4194560 1 2\n", &flags) == 0 &&
	      flags == 4194560 && !(flags & CG_PF_KTHREAD));
	/* flags last, without a newline */
	CHECK(cg_kparse_proc_flags("9 (x) R 1 1 1 0 -1 64", &flags) == 0 && flags == 64);
	/* a comm with ") S" in it: only the last ')' ends it */
	CHECK(cg_kparse_proc_flags("5 (a) S b) R 1 1 1 0 -1 64 0\n", &flags) == 0 && flags == 64);
	CHECK(cg_kparse_proc_flags("9 (x) R 1 1 1 0 -1", &flags) == -EINVAL);
	CHECK(cg_kparse_proc_flags("9 (x) R 1 1 1 0 -1 ", &flags) == -EINVAL);
	CHECK(cg_kparse_proc_flags("9 (x) R 1 1 1 0 -1 -5 0", &flags) == -EINVAL);
	CHECK(cg_kparse_proc_flags("no parens 1 2 3 4 5 6 7 8", &flags) == -EINVAL);
	CHECK(cg_kparse_proc_flags("a()", &flags) == -EINVAL);
}

static void test_proc_state(void)
{
	char st = 0;

	CHECK(cg_kparse_proc_state("9 (x) R 1 1 1 0 -1 64\n", &st) == 0 && st == 'R');
	/* tracing stop is lower case; a comm with ") S" and a blank in it */
	CHECK(cg_kparse_proc_state("5 (a) S b) t 1 1\n", &st) == 0 && st == 't');
	CHECK(cg_kparse_proc_state("9 (x) Z", &st) == 0 && st == 'Z');
	CHECK(cg_kparse_proc_state("9 (x) ", &st) == -EINVAL);
	CHECK(cg_kparse_proc_state("9 (x)  R 1", &st) == -EINVAL);
	CHECK(cg_kparse_proc_state("9 (x) RS 1", &st) == -EINVAL);
	CHECK(cg_kparse_proc_state("9 (x)R 1", &st) == -EINVAL);
	CHECK(cg_kparse_proc_state("no parens R", &st) == -EINVAL);
}

/* io.stat's cost.* (iocost) summed over devices, irq.pressure's full total (issue 45) */
static void test_field_sum(void)
{
	uint64_t v = 0;

	CHECK(cg_kparse_field_sum("8:0 rbytes=1 wbytes=2 cost.usage=250 cost.wait=10\n"
				  "8:16 rbytes=1 cost.usage=750 cost.wait=20\n",
				  "cost.usage", &v) == 0 &&
	      v == 1000);
	CHECK(cg_kparse_field_sum("full avg10=0.00 avg60=0.00 avg300=0.00 total=2500000\n", "total",
				  &v) == 0 &&
	      v == 2500000);
	/* a key that ends another's name is not it; no line with it is -ENOENT */
	CHECK(cg_kparse_field_sum("8:0 xcost.usage=5\n", "cost.usage", &v) == -ENOENT);
	CHECK(cg_kparse_field_sum("", "total", &v) == -ENOENT);
	CHECK(cg_kparse_field_sum("8:0 cost.usage=1.5\n", "cost.usage", &v) == -EINVAL);
	/* found by stats_fuzz: a number past 2^64 is no number, not a missing field */
	CHECK(cg_kparse_field_sum("x total=666666666666666666666666\n", "total", &v) == -EINVAL);
	CHECK(cg_kparse_field_sum("8:0 cost.usage=18446744073709551615\n8:1 cost.usage=1\n",
				  "cost.usage", &v) == -EINVAL);
}

/* v1's cpuacct.usage_percpu: a number a CPU, the kernel's trailing space kept */
static void test_u64_list(void)
{
	uint64_t *v = NULL;
	size_t cap = 0, n = 9;

	CHECK(cg_kparse_u64_list("30643968756461 30739408731960 \n", &v, &cap, &n) == 0 && n == 2 &&
	      v[0] == 30643968756461ull && v[1] == 30739408731960ull);
	/* more than the first room, and read again into the same list */
	CHECK(cg_kparse_u64_list("1 2 3 4 5 6 7 8 9 10 11 12", &v, &cap, &n) == 0 && n == 12 &&
	      v[11] == 12 && cap >= 12);
	CHECK(cg_kparse_u64_list("", &v, &cap, &n) == 0 && n == 0);
	CHECK(cg_kparse_u64_list("1 x 3", &v, &cap, &n) == -EINVAL);
	CHECK(cg_kparse_u64_list("1 -2", &v, &cap, &n) == -EINVAL);
	free(v);
}

int main(void)
{
	test_u64_list();
	test_field_sum();
	test_keyed();
	test_io_stat();
	test_blkio();
	test_psi();
	test_numbers();
	test_meminfo_events();
	test_proc_stat();
	test_proc_flags();
	test_statm();
	test_proc_state();
	test_env_value();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
