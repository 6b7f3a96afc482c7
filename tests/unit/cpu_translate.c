// SPDX-License-Identifier: MIT
/* common/cpu: the v1<->v2 CPU vocabulary against the kernel's own mapping; cpu lists; cgroup.type. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "base/error.h"
#include "vocab/cpu.h"
#include "base/parse.h"
#include "cgroups/threaded.h"

static struct cg_setting out[2];
static size_t n;
static struct cg_diag d;

static int tr(int version, const char *file, const char *value)
{
	n = 0;
	d = (struct cg_diag){ 0 };
	return cg_cpu_translate(version, file, value, out, &n, &d);
}

/*
 * cpu.max written on v1 and read back: the files its translation writes (a period not given
 * leaves the one there, 100000 by default), as cpu.max reads from them, written again.
 */
static void cpu_max_round_trip(const char *value, const char *expect)
{
	char period[64] = "100000", quota[64] = "", back[64];
	int64_t q;
	uint64_t p;

	CHECK_INT(tr(1, "cpu.max", value), 0);
	for (size_t i = 0; i < n; i++)
		snprintf(!strcmp(out[i].file, "cpu.cfs_period_us") ? period : quota, 64, "%s",
			 out[i].value);
	/* the v1 files as the sampler reads them */
	CHECK_INT(cg_parse_i64(quota, -1, INT64_MAX, &q), 0);
	CHECK_INT(cg_parse_u64(period, 1000000, &p), 0);
	CHECK_INT(cg_cpu_max_format(q, p, back, sizeof(back)), 0);
	CHECK_STR(back, expect);
	CHECK_INT(tr(1, "cpu.max", back), 0);
	CHECK_INT(n, 2);
	CHECK_STR(out[0].value, period);
	CHECK_STR(out[1].value, quota);
}

int main(void)
{
	/* v2 names on v2 pass as they are */
	CHECK_INT(tr(2, "cpu.weight", "100"), 0);
	CHECK_INT(n, 1);
	CHECK_STR(out[0].file, "cpu.weight");
	CHECK_STR(out[0].value, "100");
	CHECK_INT(tr(2, "cpu.max", "max 100000"), 0);
	CHECK_STR(out[0].value, "max 100000");

	/*
	 * cpu.weight -> cpu.shares as the kernel maps them (sched_weight_from_cgroup:
	 * DIV_ROUND_CLOSEST(weight * 1024, 100)): the default, both ends, a rounding case.
	 */
	CHECK_INT(tr(1, "cpu.weight", "100"), 0);
	CHECK_STR(out[0].file, "cpu.shares");
	CHECK_STR(out[0].value, "1024");
	CHECK_INT(tr(1, "cpu.weight", "1"), 0);
	CHECK_STR(out[0].value, "10");
	CHECK_INT(tr(1, "cpu.weight", "10000"), 0);
	CHECK_STR(out[0].value, "102400");
	CHECK_INT(tr(1, "cpu.weight", "3"), 0); /* 30.72 rounds up */
	CHECK_STR(out[0].value, "31");
	CHECK_INT(tr(1, "cpu.weight", "50"), 0);
	CHECK_STR(out[0].value, "512");
	CHECK_INT(tr(1, "cpu.weight", "0"), -EINVAL);
	CHECK(strstr(d.why, "1..10000") != NULL);
	CHECK_INT(tr(1, "cpu.weight", "10001"), -EINVAL);

	/* cpu.weight.nice -> cpu.shares from sched_prio_to_weight[] */
	CHECK_INT(tr(1, "cpu.weight.nice", "0"), 0);
	CHECK_STR(out[0].value, "1024");
	CHECK_INT(tr(1, "cpu.weight.nice", "-20"), 0);
	CHECK_STR(out[0].value, "88761");
	CHECK_INT(tr(1, "cpu.weight.nice", "19"), 0);
	CHECK_STR(out[0].value, "15");
	CHECK_INT(tr(1, "cpu.weight.nice", "5"), 0);
	CHECK_STR(out[0].value, "335");
	CHECK_INT(tr(1, "cpu.weight.nice", "20"), -EINVAL);

	/* cpu.max -> period first (the quota is checked against it), then quota */
	CHECK_INT(tr(1, "cpu.max", "50000 200000"), 0);
	CHECK_INT(n, 2);
	CHECK_STR(out[0].file, "cpu.cfs_period_us");
	CHECK_STR(out[0].value, "200000");
	CHECK_STR(out[1].file, "cpu.cfs_quota_us");
	CHECK_STR(out[1].value, "50000");
	CHECK_INT(tr(1, "cpu.max", "max"), 0);
	CHECK_INT(n, 1);
	CHECK_STR(out[0].file, "cpu.cfs_quota_us");
	CHECK_STR(out[0].value, "-1");
	CHECK_INT(tr(1, "cpu.max", "25000"), 0);
	CHECK_INT(n, 1);
	CHECK_STR(out[0].value, "25000");
	CHECK_INT(tr(1, "cpu.max", "999 100000"), -EINVAL); /* quota below 1 ms */
	CHECK_INT(tr(1, "cpu.max", "50000 1000001"), -EINVAL); /* period above 1 s */
	CHECK_INT(tr(1, "cpu.max", "50000 999"), -EINVAL);
	CHECK_INT(tr(1, "cpu.max", "50000 100000 1"), -EINVAL);
	CHECK_INT(tr(1, "cpu.max", ""), -EINVAL);

	/* cpu.idle and cpuset.cpus keep their names; values are checked */
	CHECK_INT(tr(1, "cpu.idle", "1"), 0);
	CHECK_STR(out[0].file, "cpu.idle");
	CHECK_INT(tr(1, "cpu.idle", "2"), -EINVAL);
	CHECK_INT(tr(1, "cpuset.cpus", "0-1"), 0);
	CHECK_STR(out[0].file, "cpuset.cpus");
	CHECK_STR(out[0].value, "0-1");
	CHECK_INT(tr(2, "cpuset.cpus", "0,x"), -EINVAL);
	CHECK(strstr(d.why, "cpu list") != NULL);

	/* v1 names work on v1, and are refused on v2 with the v2 name */
	CHECK_INT(tr(1, "cpu.shares", "512"), 1);
	CHECK_INT(tr(1, "cpu.cfs_quota_us", "50000"), 1);
	CHECK_INT(tr(2, "cpu.shares", "512"), -ENOTSUP);
	CHECK_STR(d.why, "cpu.shares is a cgroup v1 file; on v2 use cpu.weight");
	CHECK_INT(tr(2, "cpu.cfs_period_us", "100000"), -ENOTSUP);
	CHECK_STR(d.why, "cpu.cfs_period_us is a cgroup v1 file; on v2 use cpu.max");
	/* not the CPU vocabulary: written as it is */
	CHECK_INT(tr(2, "pids.max", "10"), 1);
	CHECK_INT(tr(1, "memory.limit_in_bytes", "1M"), 1);

	/* cpu lists as bitmap_parselist() takes them */
	CHECK_INT(cg_cpulist_validate(""), 0);
	CHECK_INT(cg_cpulist_validate("\n"), 0);
	CHECK_INT(cg_cpulist_validate("0"), 0);
	CHECK_INT(cg_cpulist_validate("0-3,8,10-15\n"), 0);
	CHECK_INT(cg_cpulist_validate("0-15:2/4"), 0);
	CHECK_INT(cg_cpulist_validate("3-1"), -EINVAL);
	CHECK_INT(cg_cpulist_validate("1,"), -EINVAL);
	CHECK_INT(cg_cpulist_validate(",1"), -EINVAL);
	CHECK_INT(cg_cpulist_validate("1 2"), -EINVAL);
	CHECK_INT(cg_cpulist_validate("-1"), -EINVAL);
	CHECK_INT(cg_cpulist_validate("0-15:5/4"), -EINVAL);
	CHECK_INT(cg_cpulist_validate("0-15:0/4"), -EINVAL);

	/* read back: every weight written as shares reads as itself; the kernel's own mapping */
	for (unsigned w = 1; w <= 10000; w++) {
		char buf[16];
		uint64_t sh = 0;

		snprintf(buf, sizeof(buf), "%u", w);
		if (tr(1, "cpu.weight", buf) != 0 || cg_parse_u64(out[0].value, 262144, &sh) < 0)
			CHECK(!"cpu.weight translates");
		if (cg_cpu_weight_from_shares(sh) != w) {
			CHECK_INT(cg_cpu_weight_from_shares(sh), w);
			break;
		}
	}
	CHECK_INT(cg_cpu_weight_from_shares(1024), 100);
	CHECK_INT(cg_cpu_weight_from_shares(2), 1);
	CHECK_INT(cg_cpu_weight_from_shares(262144), 10000);
	CHECK_INT(cg_cpu_weight_from_shares(UINT64_MAX), 10000);
	/* shares a user wrote (not from a weight) read as the nearest weight */
	CHECK_INT(cg_cpu_weight_from_shares(512), 50);
	CHECK_INT(cg_cpu_weight_from_shares(1000), 98);

	/* cpu.max: "max PERIOD" when unlimited, as cgroup2's file */
	cpu_max_round_trip("50000 100000", "50000 100000");
	cpu_max_round_trip("max", "max 100000");
	cpu_max_round_trip("max 250000", "max 250000");
	cpu_max_round_trip("2000 1000", "2000 1000");
	cpu_max_round_trip("150000", "150000 100000");
	{
		char buf[16];
		int64_t q;
		uint64_t p;

		CHECK_INT(cg_cpu_max_format(-1, 100000, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "max 100000");
		CHECK_INT(cg_cpu_max_format(INT64_MAX, 1000000, buf, sizeof(buf)), -ENOBUFS);
		CHECK_INT(cg_cpu_max_parse("max 100000\n", &q, &p), 0);
		CHECK_INT(q, -1);
		CHECK_INT(p, 100000);
		CHECK_INT(cg_cpu_max_parse("50000 100000\n", &q, &p), 0);
		CHECK_INT(q, 50000);
		CHECK_INT(cg_cpu_max_parse("50000 100000 1", &q, &p), -EINVAL);
		CHECK_INT(cg_cpu_max_parse("", &q, &p), -EINVAL);
	}

	/* cgroup.type as the kernel writes it */
	CHECK_INT(cg_cgroup_type_parse("domain\n"), CG_TYPE_DOMAIN);
	CHECK_INT(cg_cgroup_type_parse("domain threaded\n"), CG_TYPE_DOMAIN_THREADED);
	CHECK_INT(cg_cgroup_type_parse("domain invalid\n"), CG_TYPE_DOMAIN_INVALID);
	CHECK_INT(cg_cgroup_type_parse("threaded\n"), CG_TYPE_THREADED);
	CHECK_INT(cg_cgroup_type_parse("threaded"), CG_TYPE_THREADED);
	CHECK_INT(cg_cgroup_type_parse("domain threadedx\n"), -EINVAL);
	CHECK_INT(cg_cgroup_type_parse("threaded\nx"), -EINVAL);
	CHECK_STR(cg_cgroup_type_name(CG_TYPE_DOMAIN_THREADED), "domain threaded");
	CHECK(cg_controller_is_threaded("cpu"));
	CHECK(cg_controller_is_threaded("pids"));
	CHECK(!cg_controller_is_threaded("memory"));
	CHECK(!cg_controller_is_threaded("io"));
	return CHECK_DONE();
}
