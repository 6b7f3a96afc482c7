// SPDX-License-Identifier: MIT
/* common/vocab: memory, IO and pids in v2 names, translated for v1; sizes; what v1 cannot say. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "error.h"
#include "vocab.h"

static struct cg_setting out[CG_SETTINGS_MAX];
static size_t n;
static struct cg_diag d;

static int tr(int version, const char *file, const char *value, uint64_t limit)
{
	const struct cg_vocab_ctx ctx = { .memory_limit = limit };

	n = 0;
	d = (struct cg_diag){ 0 };
	return cg_vocab_translate(version, file, value, &ctx, out, &n, &d);
}

int main(void)
{
	/* sizes (K, M, G, T, max): cg_parse_size, tests/unit/parse_test.c */

	/* v2 names on v2 are checked and pass as the user wrote them */
	CHECK_INT(tr(2, "memory.max", "512M", UINT64_MAX), 0);
	CHECK_STR(out[0].file, "memory.max");
	CHECK_STR(out[0].value, "512M");
	CHECK_INT(tr(2, "memory.high", "lots", UINT64_MAX), -EINVAL);
	CHECK(strstr(d.why, "memory.high takes a size") != NULL);
	CHECK_INT(tr(2, "memory.oom.group", "1", UINT64_MAX), 0);

	/* v1: the file that holds the same limit, in bytes, -1 for max */
	CHECK_INT(tr(1, "memory.max", "512M", UINT64_MAX), 0);
	CHECK_INT(n, 1);
	CHECK_STR(out[0].file, "memory.limit_in_bytes");
	CHECK_STR(out[0].value, "536870912");
	CHECK_INT(tr(1, "memory.max", "max", UINT64_MAX), 0);
	CHECK_STR(out[0].value, "-1");
	CHECK_INT(tr(1, "memory.low", "100M", UINT64_MAX), 0);
	CHECK_STR(out[0].file, "memory.soft_limit_in_bytes");
	/* memory plus swap: the limit as it is, plus the swap asked for */
	CHECK_INT(tr(1, "memory.swap.max", "256M", 1ull << 30), 0);
	CHECK_STR(out[0].file, "memory.memsw.limit_in_bytes");
	CHECK_STR(out[0].value, "1342177280");
	CHECK_INT(tr(1, "memory.swap.max", "max", UINT64_MAX), 0);
	CHECK_STR(out[0].value, "-1");
	CHECK_INT(tr(1, "memory.swap.max", "256M", UINT64_MAX), -ENOTSUP);
	CHECK(strstr(d.why, "memory plus swap") != NULL);
	/* what v1 has no knob for: refused, naming the nearest that exists */
	CHECK_INT(tr(1, "memory.high", "1G", UINT64_MAX), -ENOTSUP);
	CHECK(strstr(d.why, "memory.limit_in_bytes") != NULL);
	CHECK_INT(tr(1, "memory.min", "1G", UINT64_MAX), -ENOTSUP);
	CHECK(strstr(d.why, "memory.soft_limit_in_bytes") != NULL);
	CHECK_INT(tr(1, "memory.oom.group", "1", UINT64_MAX), -ENOTSUP);
	CHECK(strstr(d.why, "memory.oom_control") != NULL);

	/* io.max: one v1 throttle file per key, max lifts it (0 on v1) */
	CHECK_INT(tr(1, "io.max", "8:0 rbps=1M wiops=100 wbps=max", UINT64_MAX), 0);
	CHECK_INT(n, 3);
	CHECK_STR(out[0].file, "blkio.throttle.read_bps_device");
	CHECK_STR(out[0].value, "8:0 1048576");
	CHECK_STR(out[1].file, "blkio.throttle.write_iops_device");
	CHECK_STR(out[1].value, "8:0 100");
	CHECK_STR(out[2].file, "blkio.throttle.write_bps_device");
	CHECK_STR(out[2].value, "8:0 0");
	CHECK_INT(tr(2, "io.max", "8:0 rbps=1M", UINT64_MAX), 0);
	CHECK_INT(n, 1);
	/* the kernel reads plain numbers in io.max */
	CHECK_STR(out[0].value, "8:0 rbps=1048576");
	CHECK_INT(tr(1, "io.max", "8:0", UINT64_MAX), -EINVAL);
	CHECK_INT(tr(1, "io.max", "8:0 rbps=1M rbps=2M wbps=1 riops=1 wiops=1", UINT64_MAX),
		  -EINVAL);
	CHECK_INT(tr(1, "io.max", "8:0 riops=1K", UINT64_MAX), -EINVAL);
	CHECK_INT(tr(1, "io.max", "sda rbps=1", UINT64_MAX), -EINVAL);
	CHECK_INT(tr(1, "io.max", "8:0 speed=1", UINT64_MAX), -EINVAL);

	/* io.weight: bfq's weight on v1, whose range ends at 1000 */
	CHECK_INT(tr(1, "io.weight", "200", UINT64_MAX), 0);
	CHECK_STR(out[0].file, "blkio.bfq.weight");
	CHECK_STR(out[0].value, "200");
	CHECK_INT(tr(1, "io.weight", "default 300", UINT64_MAX), 0);
	CHECK_STR(out[0].value, "300");
	CHECK_INT(tr(1, "io.weight", "8:16 50", UINT64_MAX), 0);
	CHECK_STR(out[0].file, "blkio.bfq.weight_device");
	CHECK_STR(out[0].value, "8:16 50");
	CHECK_INT(tr(1, "io.weight", "5000", UINT64_MAX), -ENOTSUP);
	CHECK_INT(tr(2, "io.weight", "5000", UINT64_MAX), 0);
	CHECK_INT(tr(2, "io.weight", "0", UINT64_MAX), -EINVAL);

	/* pids.max: one name everywhere */
	CHECK_INT(tr(1, "pids.max", "64", UINT64_MAX), 0);
	CHECK_STR(out[0].file, "pids.max");
	CHECK_INT(tr(1, "pids.max", "max", UINT64_MAX), 0);
	CHECK_INT(tr(2, "pids.max", "-5", UINT64_MAX), -EINVAL);

	/* not this vocabulary: written as it is */
	CHECK_INT(tr(1, "memory.swappiness", "10", UINT64_MAX), 1);
	CHECK_STR(cg_vocab_v1_controller("io"), "blkio");
	CHECK_STR(cg_vocab_v1_controller("memory"), "memory");
	return CHECK_DONE();
}
