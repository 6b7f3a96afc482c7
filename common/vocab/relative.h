/* SPDX-License-Identifier: MIT */
/*
 * Relative values in -r, as systemd takes MemoryMax=50% and CPUQuota=150%: a share of the
 * machine's memory or swap, or of one CPU per period, made absolute before any translation.
 */
#ifndef CGKIT_RELATIVE_H
#define CGKIT_RELATIVE_H

#include <stddef.h>
#include <stdint.h>

struct cg_diag;

/* What a share is of: /proc/meminfo's totals and the page size, in bytes. */
struct cg_relative_base {
	uint64_t mem_total, swap_total, page_size;
};

/*
 * FILE=VALUE with VALUE relative (it ends in '%'), made absolute into out (pure):
 *   memory.max, memory.high, memory.low, memory.min (v1: memory.limit_in_bytes,
 *   memory.soft_limit_in_bytes): up to 100% of MemTotal, rounded down to a page (systemd's
 *   MemoryMax=50%); memory.swap.max: of SwapTotal;
 *   cpu.max "P% [PERIOD]": P% of one CPU per period (default 100000 us), "QUOTA PERIOD"
 *   (150% -> "150000 100000", systemd's CPUQuota=150%).
 * Returns 1 when VALUE is not relative or FILE is outside the vocabulary (as it is), 0 with
 * out filled, or -EINVAL (a bad share) / -ENOTSUP (a file that takes no share: pids.max,
 * cpu.cfs_quota_us, memory.memsw.limit_in_bytes) with d's what and why filled.
 */
int cg_relative_apply(const char *file, const char *value, const struct cg_relative_base *base,
		      char *out, size_t size, struct cg_diag *d);

/* This machine's totals (/proc/meminfo) and page size: 0 or -errno. */
int cg_relative_base_read(struct cg_relative_base *ret);

/*
 * cg_relative_apply with this machine's base, read only when VALUE is relative: 1 (as it
 * is), 0 (out filled), or -errno with d filled.
 */
int cg_relative_resolve(const char *file, const char *value, char *out, size_t size,
			struct cg_diag *d);

#endif
