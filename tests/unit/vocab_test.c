// SPDX-License-Identifier: MIT
/* common/vocab: memory, IO and pids in v2 names, translated for v1; sizes; what v1 cannot say. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "base/error.h"
#include "base/parse.h"
#include "vocab/vocab.h"

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

/*
 * io.max written on v1 and read back: the four throttle files after its translation (a "0"
 * lifts the device's throttle: the file then lists nothing), as io.max reads from them, and
 * that written again is the same writes.
 */
static void io_max_round_trip(const char *value, const char *expect)
{
	static const char *const files[4] = { "blkio.throttle.read_bps_device",
					      "blkio.throttle.write_bps_device",
					      "blkio.throttle.read_iops_device",
					      "blkio.throttle.write_iops_device" };
	char text[4][64] = { "", "", "", "" }, back[256];
	const char *t[4];
	struct cg_setting first[CG_SETTINGS_MAX];
	size_t n_first;

	CHECK_INT(tr(1, "io.max", value, UINT64_MAX), 0);
	memcpy(first, out, sizeof(out));
	n_first = n;
	for (size_t i = 0; i < n; i++)
		for (int f = 0; f < 4; f++)
			if (!strcmp(out[i].file, files[f]) &&
			    strcmp(strchr(out[i].value, ' '), " 0"))
				snprintf(text[f], sizeof(text[f]), "%s\n", out[i].value);
	for (int f = 0; f < 4; f++)
		t[f] = text[f];
	CHECK_INT(cg_vocab_io_max_from_v1(t, back, sizeof(back)), 0);
	CHECK_STR(back, expect);
	/* no limit left: every write lifted one */
	if (!*back) {
		for (size_t i = 0; i < n_first; i++)
			CHECK_STR(strchr(first[i].value, ' '), " 0");
		return;
	}
	/* the same limits again: each file given its value, the others lifted (0) */
	CHECK_INT(tr(1, "io.max", back, UINT64_MAX), 0);
	for (size_t i = 0; i < n_first; i++) {
		bool same = false;

		for (size_t j = 0; j < n; j++)
			same |= !strcmp(out[j].file, first[i].file) &&
				!strcmp(out[j].value, first[i].value);
		CHECK(same);
	}
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

	/* read back: v1's files as the v2 file of the same limit reads */
	{
		char buf[256];
		const char *none[4] = { NULL, NULL, NULL, NULL };
		const char *two[4] = { "8:16 1048576\n8:0 2097152\n", NULL, NULL, "8:0 100\n" };
		const char *bad[4] = { "8:0\n", NULL, NULL, NULL };
		uint64_t sizes[] = { 0, 1, 4096, 536870912, 1ull << 40, UINT64_MAX - 1 };

		CHECK_INT(cg_vocab_size_format(UINT64_MAX, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "max");
		CHECK_INT(cg_vocab_size_format(536870912, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "536870912");
		CHECK_INT(cg_vocab_size_format(536870912, buf, 4), -ENOBUFS);

		/* memory.swap.max: every swap written as memsw = limit + swap reads as itself */
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint64_t limit = 1ull << 30, memsw;
			char v[32];

			snprintf(v, sizeof(v), "%llu", (unsigned long long)sizes[i]);
			if (tr(1, "memory.swap.max", v, limit) != 0) {
				CHECK_INT(sizes[i] > UINT64_MAX - limit, 1);
				continue;
			}
			CHECK_INT(cg_parse_u64(out[0].value, UINT64_MAX, &memsw), 0);
			CHECK(cg_vocab_swap_from_memsw(limit, memsw) == sizes[i]);
		}
		CHECK(cg_vocab_swap_from_memsw(1ull << 30, UINT64_MAX) == UINT64_MAX);
		CHECK(cg_vocab_swap_from_memsw(UINT64_MAX, UINT64_MAX) == UINT64_MAX);
		CHECK_INT(cg_vocab_swap_from_memsw(1ull << 30, 1ull << 30), 0);

		/* io.max: a line per device, by number, max where a file has none */
		CHECK_INT(cg_vocab_io_max_from_v1(none, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "");
		CHECK_INT(cg_vocab_io_max_from_v1(two, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "8:0 rbps=2097152 wbps=max riops=max wiops=100\n"
			       "8:16 rbps=1048576 wbps=max riops=max wiops=max");
		CHECK_INT(cg_vocab_io_max_from_v1(two, buf, 20), -ENOBUFS);
		CHECK_INT(cg_vocab_io_max_from_v1(bad, buf, sizeof(buf)), -EINVAL);
		io_max_round_trip("8:0 wbps=1M", "8:0 rbps=max wbps=1048576 riops=max wiops=max");
		io_max_round_trip("8:0 rbps=1 wbps=2 riops=3 wiops=4",
				  "8:0 rbps=1 wbps=2 riops=3 wiops=4");
		io_max_round_trip("259:0 riops=500 wbps=max",
				  "259:0 rbps=max wbps=max riops=500 wiops=max");
		io_max_round_trip("8:0 rbps=max", "");

		/* io.weight: bfq's default and per device lines, as cgroup2's io.weight */
		CHECK_INT(cg_vocab_io_weight_from_v1("100\n", NULL, buf, sizeof(buf)), 0);
		CHECK_STR(buf, "default 100");
		CHECK_INT(cg_vocab_io_weight_from_v1("200\n", "default 200\n8:16 50\n", buf,
						     sizeof(buf)),
			  0);
		CHECK_STR(buf, "default 200\n8:16 50");
		CHECK_INT(cg_vocab_io_weight_from_v1(NULL, "default 300\n", buf, sizeof(buf)), 0);
		CHECK_STR(buf, "default 300");
		CHECK_INT(
			cg_vocab_io_weight_from_v1("300\n", "8:0 10\n8:16 20\n", buf, sizeof(buf)),
			0);
		CHECK_STR(buf, "default 300\n8:0 10\n8:16 20");
		CHECK_INT(cg_vocab_io_weight_from_v1(NULL, NULL, buf, sizeof(buf)), -ENOENT);
		CHECK_INT(cg_vocab_io_weight_from_v1("0\n", NULL, buf, sizeof(buf)), -EINVAL);
		CHECK_INT(cg_vocab_io_weight_from_v1("100\n", "8:0 x\n", buf, sizeof(buf)),
			  -EINVAL);
		/* each line written back is what was read */
		CHECK_INT(tr(1, "io.weight", "default 200", UINT64_MAX), 0);
		CHECK_STR(out[0].file, "blkio.bfq.weight");
		CHECK_STR(out[0].value, "200");
		CHECK_INT(tr(1, "io.weight", "8:16 50", UINT64_MAX), 0);
		CHECK_STR(out[0].value, "8:16 50");
	}

	/* not this vocabulary: written as it is */
	CHECK_INT(tr(1, "memory.swappiness", "10", UINT64_MAX), 1);
	CHECK_STR(cg_vocab_v1_controller("io"), "blkio");
	CHECK_STR(cg_vocab_v1_controller("memory"), "memory");
	return CHECK_DONE();
}
