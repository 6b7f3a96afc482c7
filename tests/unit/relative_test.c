// SPDX-License-Identifier: MIT
/* common/relative: "memory.max=50%" and "cpu.max=150%" made absolute; the percent parser. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "base/error.h"
#include "base/kparse.h"
#include "base/parse.h"
#include "vocab/relative.h"

/* 16 GiB of memory and 2 GiB of swap, 4 KiB pages */
static const struct cg_relative_base base = { 16ull << 30, 2ull << 30, 4096 };
static char out[64];
static struct cg_diag d;

static int rel(const char *file, const char *value)
{
	out[0] = 0;
	d = (struct cg_diag){ 0 };
	return cg_relative_apply(file, value, &base, out, sizeof(out), &d);
}

static void percent(void)
{
	uint64_t bp = 0;

	CHECK_INT(cg_parse_percent("50%", 10000, &bp), 0);
	CHECK_INT(bp, 5000);
	CHECK_INT(cg_parse_percent("12.5%", 10000, &bp), 0);
	CHECK_INT(bp, 1250);
	CHECK_INT(cg_parse_percent("12.34%\n", 10000, &bp), 0);
	CHECK_INT(bp, 1234);
	CHECK_INT(cg_parse_percent("0%", 10000, &bp), 0);
	CHECK_INT(bp, 0);
	CHECK_INT(cg_parse_percent("100%", 10000, &bp), 0);
	CHECK_INT(bp, 10000);
	CHECK_INT(cg_parse_percent("100.01%", 10000, &bp), -ERANGE);
	CHECK_INT(cg_parse_percent("1.234%", 100000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("50", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("-5%", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent(" 5%", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("5.%", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("5%%", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("5% ", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("%", 10000, &bp), -EINVAL);
	CHECK_INT(cg_parse_percent("99999999999999999999%", UINT64_MAX, &bp), -ERANGE);
}

static void memory(void)
{
	/* half of 16 GiB */
	CHECK_INT(rel("memory.max", "50%"), 0);
	CHECK_STR(out, "8589934592");
	CHECK_INT(rel("memory.high", "80%"), 0);
	/* 16 GiB * 0.8 in whole pages: 3355443.2 pages -> 3355443 */
	CHECK_STR(out, "13743894528");
	CHECK_INT(rel("memory.low", "12.5%"), 0);
	CHECK_STR(out, "2147483648");
	CHECK_INT(rel("memory.min", "0%"), 0);
	CHECK_STR(out, "0");
	CHECK_INT(rel("memory.max", "100%"), 0);
	CHECK_STR(out, "17179869184");
	/* v1 names take the same share */
	CHECK_INT(rel("memory.limit_in_bytes", "50%"), 0);
	CHECK_STR(out, "8589934592");
	CHECK_INT(rel("memory.soft_limit_in_bytes", "25%"), 0);
	CHECK_STR(out, "4294967296");
	/* swap: of SwapTotal */
	CHECK_INT(rel("memory.swap.max", "50%"), 0);
	CHECK_STR(out, "1073741824");
	/* beyond the whole, junk */
	CHECK_INT(rel("memory.max", "150%"), -EINVAL);
	CHECK(strstr(d.why, "from 0% to 100%"));
	CHECK_INT(rel("memory.max", "half%"), -EINVAL);
	CHECK_INT(rel("memory.max", "50 %"), -EINVAL);
	/* absolute values pass as they are */
	CHECK_INT(rel("memory.max", "1G"), 1);
	CHECK_INT(rel("memory.max", "max"), 1);
	/* no swap on the machine: said */
	{
		const struct cg_relative_base noswap = { 1ull << 30, 0, 4096 };

		CHECK_INT(
			cg_relative_apply("memory.swap.max", "10%", &noswap, out, sizeof(out), &d),
			-ENOTSUP);
		CHECK(strstr(d.why, "no swap"));
	}
}

static void cpu(void)
{
	CHECK_INT(rel("cpu.max", "150%"), 0);
	CHECK_STR(out, "150000 100000");
	CHECK_INT(rel("cpu.max", "50%"), 0);
	CHECK_STR(out, "50000 100000");
	CHECK_INT(rel("cpu.max", "150% 50000"), 0);
	CHECK_STR(out, "75000 50000");
	CHECK_INT(rel("cpu.max", "12.5%"), 0);
	CHECK_STR(out, "12500 100000");
	CHECK_INT(rel("cpu.max", "400%\n"), 0);
	CHECK_STR(out, "400000 100000");
	CHECK_INT(rel("cpu.max", "0%"), -EINVAL);
	CHECK_INT(rel("cpu.max", "0.5%"), -EINVAL);
	CHECK(strstr(d.why, "below the kernel's least of 1000 us"));
	CHECK_INT(rel("cpu.max", "1%"), 0);
	CHECK_STR(out, "1000 100000");
	CHECK_INT(rel("cpu.max", "150% 0"), -EINVAL);
	CHECK_INT(rel("cpu.max", "150% 999"), -EINVAL);
	CHECK_INT(rel("cpu.max", "150% 2000000"), -EINVAL);
	CHECK_INT(rel("cpu.max", "150% x"), -EINVAL);
	CHECK_INT(rel("cpu.max", "150%x"), -EINVAL);
	CHECK(strstr(d.why, "\"150000 100000\""));
	CHECK_INT(rel("cpu.max", "max"), 1);
	CHECK_INT(rel("cpu.max", "50000 100000"), 1);
}

static void refused(void)
{
	CHECK_INT(rel("pids.max", "50%"), -ENOTSUP);
	CHECK(strstr(d.why, "number of tasks"));
	CHECK_INT(rel("cpu.cfs_quota_us", "150%"), -ENOTSUP);
	CHECK(strstr(d.why, "cpu.max=150%"));
	CHECK_INT(rel("memory.memsw.limit_in_bytes", "50%"), -ENOTSUP);
	CHECK_INT(rel("pids.max", "100"), 1);
	/* files outside the vocabulary keep their value, a '%' too */
	CHECK_INT(rel("cpu.weight", "50%"), 1);
	CHECK_INT(rel("foo.bar", "5%"), 1);
}

static void meminfo(void)
{
	uint64_t mem = 0, swap = 1;

	CHECK_INT(cg_kparse_meminfo_totals(
			  "MemTotal:       16384 kB\nMemFree: 1 kB\nSwapTotal:     2048 kB\n", &mem,
			  &swap),
		  0);
	CHECK_INT(mem, 16384 * 1024);
	CHECK_INT(swap, 2048 * 1024);
	CHECK_INT(cg_kparse_meminfo_totals("MemTotal: 4 kB\n", &mem, &swap), 0);
	CHECK_INT(swap, 0);
	CHECK_INT(cg_kparse_meminfo_totals("MemFree: 4 kB\n", &mem, &swap), -EINVAL);
	CHECK_INT(cg_kparse_meminfo_totals("XMemTotal: 4 kB\n", &mem, &swap), -EINVAL);
	CHECK_INT(cg_kparse_meminfo_totals("MemTotal: 4 kB\nSwapTotal: x kB\n", &mem, &swap),
		  -EINVAL);
}

int main(void)
{
	percent();
	memory();
	cpu();
	refused();
	meminfo();
	return CHECK_DONE();
}
