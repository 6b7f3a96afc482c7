// SPDX-License-Identifier: MIT
/* One CPU vocabulary on every layout: v2 names, translated for v1 (pure: no cgroupfs). */
#include "cpu.h"

#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "base/parse.h"

/* kernel/sched/core.c sched_prio_to_weight[]: nice -20..19 -> load weight (nice 0 = 1024) */
static const int nice_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,	 1991,	1586,  1277,
	1024,  820,   655,   526,   423,   335,	  272,	 215,	172,   137,
	110,   87,    70,    56,    45,	   36,	  29,	 23,	18,    15,
};

const char *cg_v2_name_for_v1(const char *file)
{
	static const char *const map[][2] = {
		{ "cpu.shares", "cpu.weight" },
		{ "cpu.cfs_quota_us", "cpu.max" },
		{ "cpu.cfs_period_us", "cpu.max" },
		{ "memory.limit_in_bytes", "memory.max" },
		{ "memory.soft_limit_in_bytes", "memory.low" },
		{ "memory.memsw.limit_in_bytes", "memory.swap.max" },
		{ "blkio.weight", "io.weight" },
		{ "cpuacct.usage", "cpu.stat" },
		{ "freezer.state", "cgroup.freeze" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(file, map[i][0]))
			return map[i][1];
	return NULL;
}

static void put(struct cg_setting *s, const char *file, const char *value)
{
	snprintf(s->file, sizeof(s->file), "%s", file);
	snprintf(s->value, sizeof(s->value), "%s", value);
}

int cg_cpu_max_parse(const char *value, int64_t *quota, uint64_t *period)
{
	char q[32], p[32], extra[2];
	int n = sscanf(value, "%31s %31s %1s", q, p, extra);

	if (n < 1 || n > 2)
		return -EINVAL;
	*period = 0;
	if (!strcmp(q, "max"))
		*quota = -1;
	else {
		uint64_t v;
		/* the kernel's own bounds: 1 ms .. 1 s period, quota at least 1 ms */
		if (cg_parse_u64(q, INT64_MAX / 1000, &v) < 0 || v < 1000)
			return -EINVAL;
		*quota = (int64_t)v;
	}
	if (n == 2 && (cg_parse_u64(p, 1000000, period) < 0 || *period < 1000))
		return -EINVAL;
	return 0;
}

int cg_cpu_translate(int version, const char *file, const char *value, struct cg_setting out[2],
		     size_t *ret_n, struct cg_diag *d)
{
	char buf[64];
	int64_t i;
	uint64_t u;

	if (!strcmp(file, "cpu.weight")) {
		if (cg_parse_u64(value, 10000, &u) < 0 || u < 1) {
			return cg_diag_say(d, EINVAL, NULL, NULL, "set",
					   "cpu.weight takes 1..10000 (default 100), not '%s'",
					   value);
		}
		if (version == 2) {
			put(&out[0], file, value);
		} else {
			/*
			 * The kernel's own mapping (sched_weight_from_cgroup): rounded to the
			 * closest, weight 1 -> 10, 100 -> 1024, 10000 -> 102400, all inside
			 * cpu.shares' 2..262144.
			 */
			snprintf(buf, sizeof(buf), "%" PRIu64, (u * 1024 + 50) / 100);
			put(&out[0], "cpu.shares", buf);
		}
		*ret_n = 1;
		return 0;
	}
	if (!strcmp(file, "cpu.weight.nice")) {
		if (cg_parse_i64(value, -20, 19, &i) < 0) {
			return cg_diag_say(d, EINVAL, NULL, NULL, "set",
					   "cpu.weight.nice takes -20..19, not '%s'", value);
		}
		if (version == 2) {
			put(&out[0], file, value);
		} else {
			snprintf(buf, sizeof(buf), "%d", nice_to_weight[i + 20]);
			put(&out[0], "cpu.shares", buf);
		}
		*ret_n = 1;
		return 0;
	}
	if (!strcmp(file, "cpu.max")) {
		int64_t quota;
		uint64_t period;

		if (cg_cpu_max_parse(value, &quota, &period) < 0) {
			return cg_diag_say(
				d, EINVAL, NULL, NULL, "set",
				"cpu.max takes \"QUOTA PERIOD\" or \"max [PERIOD]\" in microseconds (quota >= 1000, period 1000..1000000), not '%s'",
				value);
		}
		if (version == 2) {
			put(&out[0], file, value);
			*ret_n = 1;
			return 0;
		}
		*ret_n = 0;
		if (period) {
			snprintf(buf, sizeof(buf), "%" PRIu64, period);
			put(&out[(*ret_n)++], "cpu.cfs_period_us", buf);
		}
		snprintf(buf, sizeof(buf), "%" PRId64, quota);
		put(&out[(*ret_n)++], "cpu.cfs_quota_us", buf);
		return 0;
	}
	if (!strcmp(file, "cpu.idle")) {
		if (cg_parse_u64(value, 1, &u) < 0) {
			return cg_diag_say(d, EINVAL, NULL, NULL, "set",
					   "cpu.idle takes 0 or 1, not '%s'", value);
		}
		put(&out[0], file, value);
		*ret_n = 1;
		return 0;
	}
	if (!strcmp(file, "cpuset.cpus")) {
		if (cg_cpulist_validate(value) < 0) {
			return cg_diag_say(
				d, EINVAL, NULL, NULL, "set",
				"cpuset.cpus takes a cpu list such as \"0-3,6\", not '%s'", value);
		}
		put(&out[0], file, value);
		*ret_n = 1;
		return 0;
	}
	if (version == 2) {
		const char *v2 = cg_v2_name_for_v1(file);

		if (v2) {
			return cg_diag_say(d, ENOTSUP, NULL, NULL, "set",
					   "%s is a cgroup v1 file; on v2 use %s", file, v2);
		}
	}
	return 1;
}

uint64_t cg_cpu_weight_from_shares(uint64_t shares)
{
	/* the rounding undoes the one of the translation: weight -> shares -> the same weight */
	uint64_t w = shares > 1024 * 10000 ? 10000 : (shares * 100 + 512) / 1024;

	return w < 1 ? 1 : w > 10000 ? 10000 : w;
}

int cg_cpu_max_format(int64_t quota, uint64_t period, char *buf, size_t size)
{
	int n = quota < 0 ? snprintf(buf, size, "max %" PRIu64, period)
			  : snprintf(buf, size, "%" PRId64 " %" PRIu64, quota, period);

	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}

/* one decimal cpu number; advances *p */
static int cpu_number(const char **p, unsigned *ret)
{
	uint64_t v;

	/* NR_CPUS is at most 8192 today; leave room, refuse nonsense */
	if (cg_parse_u64_prefix(p, 65535, &v) < 0)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

int cg_cpulist_validate(const char *s)
{
	const char *p = s;
	size_t len = strlen(s);

	/* the kernel takes an empty list (v2: inherit the parent's) and a trailing newline */
	if (len && s[len - 1] == '\n')
		len--;
	if (!len)
		return 0;
	for (;;) {
		unsigned a, b, used, group;

		if (cpu_number(&p, &a) < 0)
			return -EINVAL;
		if (*p == '-') {
			p++;
			if (cpu_number(&p, &b) < 0 || b < a)
				return -EINVAL;
			/* "0-15:2/4": in each group of 4 cpus use the first 2 (bitmap_parselist) */
			if (*p == ':') {
				p++;
				if (cpu_number(&p, &used) < 0 || *p++ != '/' ||
				    cpu_number(&p, &group) < 0 || !used || !group || used > group)
					return -EINVAL;
			}
		}
		if ((size_t)(p - s) == len)
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}
