// SPDX-License-Identifier: MIT
/*
 * Unit tests of the collectors' parsers in common/base/kparse.c (keys, limits, PSI both lines, io.stat
 * and blkio per device) and of cg_collectors_parse, on literal kernel text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/kparse.h"
#include "sampler/stats.h"

static void test_keys(void)
{
	/* memory.events of 6.x, memory.stat's keys are prefixes of one another */
	static const char *const ev[] = {
		"low", "high", "max", "oom", "oom_kill", "oom_group_kill"
	};
	static const char *const st[] = { "file", "inactive_file", "kernel" };
	uint64_t v[6] = { 0 }, found = 0;

	CHECK(cg_kparse_keys("low 0\nhigh 12\nmax 5\noom 2\noom_kill 1\noom_group_kill 0\n", ev, 6,
			     v, &found) == 0);
	CHECK(found == 0x3f && v[1] == 12 && v[2] == 5 && v[3] == 2 && v[4] == 1 && v[5] == 0);
	/* a kernel without oom_group_kill (before 5.17): the others, that one unknown */
	memset(v, 0, sizeof(v));
	CHECK(cg_kparse_keys("low 1\nhigh 2\nmax 3\noom 4\noom_kill 5\n", ev, 6, v, &found) == 0);
	CHECK(found == 0x1f && v[4] == 5);
	CHECK(cg_kparse_keys("anon 1\nfile 20\nkernel_stack 7\nkernel 9\nactive_file 3\n"
			     "inactive_file 17\n",
			     st, 3, v, &found) == 0);
	CHECK(found == 7 && v[0] == 20 && v[1] == 17 && v[2] == 9);
	/* a wanted key with no number is an error, an unwanted one is not looked at */
	CHECK(cg_kparse_keys("file x\n", st, 3, v, &found) == -EINVAL);
	CHECK(cg_kparse_keys("anon x\nfile 1\n", st, 3, v, &found) == 0 && found == 1);
	CHECK(cg_kparse_keys("file 99999999999999999999999\n", st, 3, v, &found) == -EINVAL);
	CHECK(cg_kparse_keys("", st, 3, v, &found) == 0 && found == 0);
	CHECK(cg_kparse_keys("file 5", st, 3, v, &found) == 0 && found == 1 && v[0] == 5);
	/* v1 memory.oom_control */
	{
		static const char *const oom[] = { "under_oom", "oom_kill" };

		CHECK(cg_kparse_keys("oom_kill_disable 0\nunder_oom 1\noom_kill 3\n", oom, 2, v,
				     &found) == 0 &&
		      found == 3 && v[0] == 1 && v[1] == 3);
	}
}

static void test_limit(void)
{
	uint64_t v = 0;

	CHECK(cg_kparse_limit("max\n", &v) == 0 && v == CG_UNLIMITED);
	CHECK(cg_kparse_limit("1073741824\n", &v) == 0 && v == 1073741824ull);
	CHECK(cg_kparse_limit("0\n", &v) == 0 && v == 0);
	CHECK(cg_kparse_limit("maximum\n", &v) < 0);
	CHECK(cg_kparse_limit("", &v) < 0);
	CHECK(cg_kparse_limit("-1\n", &v) < 0);
}

static void test_psi(void)
{
	struct cg_psi p;

	CHECK(cg_kparse_psi("some avg10=12.34 avg60=1.00 avg300=0.00 total=2500000\n"
			    "full avg10=2.50 avg60=0.00 avg300=0.00 total=1250000\n",
			    &p) == 0);
	CHECK(p.some_avg10 == 12.34 && p.full_avg10 == 2.5 && p.some_total_us == 2500000 &&
	      p.full_total_us == 1250000 && p.has_full);
	CHECK(p.some_avg60 == 1.0 && p.some_avg300 == 0 && p.full_avg60 == 0 && p.full_avg300 == 0);
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=4.50 avg300=100.00 total=1\n"
			    "full avg10=0.00 avg60=0.25 avg300=7.00 total=1\n",
			    &p) == 0);
	CHECK(p.some_avg60 == 4.5 && p.some_avg300 == 100 && p.full_avg60 == 0.25 &&
	      p.full_avg300 == 7);
	/* every average is there, each a percentage */
	CHECK(cg_kparse_psi("some avg10=0.00 avg300=0.00 total=1\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=0.00 avg300=101.00 total=1\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=-1 avg300=0.00 total=1\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n"
			    "full avg10=0.00 avg60=0.00 avg300=nan total=1\n",
			    &p) == -EINVAL);
	/* the cpu file before 5.13 has no full line */
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n", &p) == 0);
	CHECK(!p.has_full && p.some_total_us == 7);
	CHECK(cg_kparse_psi("full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=0.00 avg300=0.00\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("some avg10=0.00 avg60=0.00 avg300=0.00 total=x\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("some avg10=0.00 total=1\nfull avg10=200.0 total=1\n", &p) == -EINVAL);
	CHECK(cg_kparse_psi("", &p) == -EINVAL);
}

static void test_io_devs(void)
{
	struct cg_io_dev *d = NULL;
	size_t n = 0;

	CHECK(cg_kparse_io_devs("8:0 rbytes=1000 wbytes=2000 rios=10 wios=20 dbytes=4096 dios=1\n"
				"259:0 rbytes=500 wbytes=48 rios=5 wios=2 dbytes=0 dios=0\n",
				&d, &n) == 0);
	CHECK(n == 2 && d[0].major == 8 && d[0].minor == 0 && d[1].major == 259);
	CHECK(d[0].have == (1u << CG_IO_N) - 1 && d[0].v[CG_IO_DBYTES] == 4096 &&
	      d[1].v[CG_IO_RIOS] == 5 && d[1].v[CG_IO_WBYTES] == 48);
	/* a device line with only some keys (an old kernel, no discards) */
	CHECK(cg_kparse_io_devs("253:3 rbytes=1 wbytes=2 rios=3 wios=4\n", &d, &n) == 0);
	CHECK(n == 3 && d[2].have == 0xf && !(d[2].have & (1u << CG_IO_DBYTES)));
	/* the same device again: figures replaced, no new entry */
	CHECK(cg_kparse_io_devs("8:0 rbytes=7\n", &d, &n) == 0 && n == 3 && d[0].v[0] == 7);
	CHECK(cg_kparse_io_devs("8:0 rbytes=x\n", &d, &n) == -EINVAL);
	CHECK(cg_kparse_io_devs("rbytes=1\n", &d, &n) == -EINVAL);
	CHECK(cg_kparse_io_devs("8:x rbytes=1\n", &d, &n) == -EINVAL);
	CHECK(cg_kparse_io_devs("8:0 rbytes=99999999999999999999999\n", &d, &n) == -ERANGE);
	free(d);
	d = NULL;
	n = 0;
	/* many devices: the array grows */
	for (int i = 0; i < 40; i++) {
		char line[64];

		snprintf(line, sizeof(line), "8:%d rbytes=%d\n", i, i);
		CHECK(cg_kparse_io_devs(line, &d, &n) == 0);
	}
	CHECK(n == 40 && d[39].minor == 39 && d[39].v[CG_IO_RBYTES] == 39 && d[0].minor == 0);
	free(d);
}

static void test_blkio_devs(void)
{
	struct cg_io_dev *d = NULL;
	size_t n = 0;

	CHECK(cg_kparse_blkio_devs("8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 0\n8:0 Async 12288\n"
				   "8:0 Discard 512\n8:0 Total 12288\n8:16 Read 1\nTotal 12289\n",
				   false, &d, &n) == 0);
	CHECK(n == 2 && d[0].v[CG_IO_RBYTES] == 4096 && d[0].v[CG_IO_WBYTES] == 8192 &&
	      d[0].v[CG_IO_DBYTES] == 512 && d[1].have == 1u << CG_IO_RBYTES);
	CHECK(cg_kparse_blkio_devs("8:0 Read 3\n8:0 Write 4\n8:0 Discard 1\nTotal 7\n", true, &d,
				   &n) == 0);
	CHECK(n == 2 && d[0].v[CG_IO_RIOS] == 3 && d[0].v[CG_IO_WIOS] == 4 &&
	      d[0].v[CG_IO_DIOS] == 1 && d[0].v[CG_IO_RBYTES] == 4096);
	CHECK(cg_kparse_blkio_devs("Total 0\n", true, &d, &n) == 0 && n == 2);
	CHECK(cg_kparse_blkio_devs("8:0 Read\n", true, &d, &n) == -EINVAL);
	CHECK(cg_kparse_blkio_devs("8:0 Read x\n", true, &d, &n) == -EINVAL);
	CHECK(cg_kparse_blkio_devs("garbage\n", true, &d, &n) == -EINVAL);
	free(d);
}

static void test_collectors(void)
{
	const char *bad = NULL;
	unsigned c = 0;

	CHECK(cg_collectors_parse("cpu,memory", &c, &bad) == 0 &&
	      c == ((1u << CG_COLL_CPU) | (1u << CG_COLL_MEMORY)));
	CHECK(cg_collectors_parse("+iodevice", &c, &bad) == 0 &&
	      c == (CG_COLL_DEFAULT | (1u << CG_COLL_IODEVICE)));
	CHECK(cg_collectors_parse("-psi,-memory", &c, &bad) == 0 &&
	      c == (CG_COLL_DEFAULT & ~((1u << CG_COLL_PSI) | (1u << CG_COLL_MEMORY))));
	CHECK(cg_collectors_parse("all", &c, &bad) == 0 && c == (1u << CG_COLL_N) - 1);
	CHECK(cg_collectors_parse("none", &c, &bad) == 0 && c == 0);
	CHECK(cg_collectors_parse("all,-iodevice", &c, &bad) == 0 && c == CG_COLL_DEFAULT);
	CHECK(cg_collectors_parse("cpu,disk", &c, &bad) == -EINVAL && !strcmp(bad, "disk"));
	CHECK(cg_collectors_parse("", &c, &bad) == -EINVAL);
	CHECK(cg_collectors_parse("cpu,", &c, &bad) == -EINVAL);
	CHECK(cg_collectors_parse(",cpu", &c, &bad) == -EINVAL);
	CHECK(cg_collectors_parse("+", &c, &bad) == -EINVAL);
	CHECK(cg_collectors_parse("cpus", &c, &bad) == -EINVAL);
}

int main(void)
{
	test_keys();
	test_limit();
	test_psi();
	test_io_devs();
	test_blkio_devs();
	test_collectors();
	return check_failures ? 1 : 0;
}
