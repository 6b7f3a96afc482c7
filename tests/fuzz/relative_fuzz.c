// SPDX-License-Identifier: MIT
/* libFuzzer target for relative values in -r (common/relative.c) and the percent parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vocab/cpu.h"
#include "base/error.h"
#include "base/kparse.h"
#include "base/parse.h"
#include "vocab/relative.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = { "memory.max", "memory.high",      "memory.low",
				     "memory.min", "memory.swap.max",  "cpu.max",
				     "pids.max",   "cpu.cfs_quota_us", "memory.limit_in_bytes",
				     "cpu.weight" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct cg_relative_base base = { 8ull << 30, 1ull << 30, 4096 };
	const char *file;
	struct cg_diag d;
	char out[64], *s;
	uint64_t v, total;
	int64_t quota;
	int r;

	if (size < 1)
		return 0;
	file = files[data[0] % (sizeof(files) / sizeof(files[0]))];
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		return 0;
	if (cg_parse_percent(s, 10000, &v) == 0 && v > 10000)
		abort();
	if (cg_kparse_meminfo_totals(s, &v, &total) == 0 && (v % 1024 || total % 1024))
		abort();
	r = cg_relative_apply(file, s, &base, out, sizeof(out), &d);
	if (r == 1 && strchr(s, '%') && strcmp(file, "cpu.weight"))
		abort(); /* a share in the vocabulary is made absolute or refused */
	if (r < 0 && !d.why[0])
		abort();
	if (r == 0 && !strcmp(file, "cpu.max")) {
		/* what cpu.max takes: a quota and a period of the kernel's range */
		if (cg_cpu_max_parse(out, &quota, &v) < 0 || quota < 1 || !v || v > 1000000)
			abort();
	} else if (r == 0) {
		total = !strcmp(file, "memory.swap.max") ? base.swap_total : base.mem_total;
		if (cg_parse_u64(out, total, &v) < 0 || v % base.page_size)
			abort();
	}
	free(s);
	return 0;
}
