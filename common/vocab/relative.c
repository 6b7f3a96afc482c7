// SPDX-License-Identifier: MIT
/* Relative values in -r made absolute (common/relative.h): pure but for the base's read. */
#include "relative.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "base/kparse.h"
#include "base/parse.h"
#include "kernel/proc.h"

/* cpu.max's period when none is given, the kernel's default (and systemd's) */
#define CPU_PERIOD_US 100000
/* the kernel's bounds of a period (kernel/sched/core.c: 1 ms .. 1 s) */
#define CPU_PERIOD_MIN_US 1000
#define CPU_PERIOD_MAX_US 1000000

/* a value with a '%' anywhere is meant as a share: a malformed one is refused, not passed on */
static bool is_relative(const char *value)
{
	return strchr(value, '%');
}

/* bytes * bp / 10000, rounded down to a page: systemd's physical_memory_scale */
static uint64_t share_of(uint64_t bytes, uint64_t bp, uint64_t page)
{
	uint64_t pages = bytes / page;

	return (uint64_t)((unsigned __int128)pages * bp / 10000) * page;
}

static int memory_share(const char *file, const char *value, uint64_t total, const char *of,
			uint64_t page, char *out, size_t size, struct cg_diag *d)
{
	uint64_t bp;
	int r = cg_parse_percent(value, 10000, &bp);

	if (r < 0)
		return cg_diag_say(
			d, EINVAL, NULL, NULL, "set",
			"%s takes a share of %s from 0%% to 100%% (\"50%%\", \"12.5%%\"), not '%s'",
			file, of, value);
	if (!total)
		return cg_diag_say(d, ENOTSUP, NULL, NULL, "set", "%s=%s: this machine has no %s",
				   file, value, of);
	snprintf(out, size, "%" PRIu64, share_of(total, bp, page ? page : 4096));
	return 0;
}

/* "P% [PERIOD]" of one CPU: "QUOTA PERIOD" in microseconds */
static int cpu_share(const char *value, char *out, size_t size, struct cg_diag *d)
{
	size_t n = strcspn(value, " \n");
	char pct[32];
	const char *p = value + n;
	uint64_t bp, period = CPU_PERIOD_US, quota;

	snprintf(pct, sizeof(pct), "%.*s", (int)(n < sizeof(pct) ? n : sizeof(pct) - 1), value);
	if (n >= sizeof(pct) || cg_parse_percent(pct, UINT32_MAX, &bp) < 0 || !bp)
		goto bad;
	if (*p == ' ' &&
	    (cg_parse_u64(p + 1, CPU_PERIOD_MAX_US, &period) < 0 || period < CPU_PERIOD_MIN_US))
		goto bad;
	else if (*p && *p != ' ' && strcmp(p, "\n"))
		goto bad;
	quota = (uint64_t)((unsigned __int128)period * bp / 10000);
	if (quota < CPU_PERIOD_MIN_US)
		return cg_diag_say(
			d, EINVAL, NULL, NULL, "set",
			"cpu.max=%s is a quota of %" PRIu64
			" us a period, below the kernel's least of 1000 us: a larger share, or a longer period",
			value, quota);
	snprintf(out, size, "%" PRIu64 " %" PRIu64, quota, period);
	return 0;
bad:
	return cg_diag_say(
		d, EINVAL, NULL, NULL, "set",
		"cpu.max takes a share of one CPU per period, \"P%% [PERIOD]\" (\"150%%\" is one and a half CPUs: \"150000 100000\"), not '%s'",
		value);
}

int cg_relative_apply(const char *file, const char *value, const struct cg_relative_base *base,
		      char *out, size_t size, struct cg_diag *d)
{
	static const char *const mem[] = {
		"memory.max", "memory.high",	       "memory.low",
		"memory.min", "memory.limit_in_bytes", "memory.soft_limit_in_bytes"
	};

	if (!is_relative(value))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(mem); i++)
		if (!strcmp(file, mem[i]))
			return memory_share(file, value, base->mem_total, "memory (MemTotal)",
					    base->page_size, out, size, d);
	if (!strcmp(file, "memory.swap.max"))
		return memory_share(file, value, base->swap_total, "swap (SwapTotal)",
				    base->page_size, out, size, d);
	if (!strcmp(file, "cpu.max"))
		return cpu_share(value, out, size, d);
	if (!strcmp(file, "pids.max"))
		return cg_diag_say(
			d, ENOTSUP, NULL, NULL, "set",
			"pids.max=%s: pids.max takes a number of tasks or max; a share has nothing to be of (kernel.pid_max is the whole machine's and no budget)",
			value);
	if (!strcmp(file, "cpu.cfs_quota_us"))
		return cg_diag_say(
			d, ENOTSUP, NULL, NULL, "set",
			"cpu.cfs_quota_us=%s: a share is of a period, which is another file: give cpu.max=%s [PERIOD], which writes both",
			value, value);
	if (!strcmp(file, "memory.memsw.limit_in_bytes"))
		return cg_diag_say(
			d, ENOTSUP, NULL, NULL, "set",
			"memory.memsw.limit_in_bytes=%s: give memory.max=P%% (of memory) and memory.swap.max=P%% (of swap), which write it",
			value);
	return 1;
}

int cg_relative_base_read(struct cg_relative_base *ret)
{
	_cleanup_free_ char *text = NULL;
	struct cg_relative_base b = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	int r = cg_proc_read_all("/proc/meminfo", &text);

	if (r < 0)
		return r;
	r = cg_kparse_meminfo_totals(text, &b.mem_total, &b.swap_total);
	if (r < 0)
		return r;
	b.page_size = page > 0 ? (uint64_t)page : 4096;
	*ret = b;
	return 0;
}

int cg_relative_resolve(const char *file, const char *value, char *out, size_t size,
			struct cg_diag *d)
{
	struct cg_relative_base b;
	int r;

	if (!is_relative(value))
		return 1;
	r = cg_relative_base_read(&b);
	if (r < 0)
		return cg_diag_say(d, -r, NULL, NULL, "set",
				   "%s=%s: read /proc/meminfo for the share: %s", file, value,
				   strerror(-r));
	return cg_relative_apply(file, value, &b, out, size, d);
}
