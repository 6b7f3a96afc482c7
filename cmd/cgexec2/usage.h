/* SPDX-License-Identifier: MIT */
/* One-shot usage summary of a cgroup: CPU, peak memory, IO bytes, peak tasks, where exposed. */
#ifndef CGKIT_USAGE_H
#define CGKIT_USAGE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/spec.h"

enum {
	CG_USAGE_CPU = 1 << 0, /* user_ns, system_ns */
	CG_USAGE_MEM_PEAK = 1 << 1, /* mem_peak (bytes) */
	CG_USAGE_IO = 1 << 2, /* io_read, io_write (bytes) */
	CG_USAGE_PIDS_PEAK = 1 << 3, /* pids_peak */
	CG_USAGE_OOM_KILL = 1 << 4, /* oom_kill */
	CG_USAGE_MEM_FAILCNT = 1 << 5, /* mem_failcnt (v1 without oom_kill: a hint only) */
	CG_USAGE_MEM_MAX = 1 << 6, /* mem_max (bytes, CG_UNLIMITED for none) */
};

struct cg_usage {
	unsigned have; /* CG_USAGE_* of the fields the layout provided */
	uint64_t user_ns, system_ns;
	uint64_t mem_peak;
	uint64_t io_read, io_write;
	uint64_t pids_peak;
	uint64_t oom_kill, mem_failcnt, mem_max;
	size_t oom_at; /* the target (index) oom_kill / mem_failcnt and mem_max come from */
};

/*
 * Read what the targets' hierarchies expose, each field from the first target that has it:
 * CPU from v2 cpu.stat, else v1 cpuacct.usage_user/usage_sys (or cpuacct.stat ticks); peak
 * memory from memory.peak or v1 memory.max_usage_in_bytes; IO from io.stat or v1
 * blkio.throttle.io_service_bytes(_recursive); tasks from pids.peak; OOM kills from memory.events
 * oom_kill (the subtree's) or v1 memory.oom_control oom_kill (4.13+), else v1 memory.failcnt;
 * the memory limit from memory.max or v1 memory.limit_in_bytes. Missing files are not
 * errors: the field is left out of ret->have.
 */
int cg_usage_read(const struct cg_targets *t, struct cg_usage *ret);

/* after - before for the counters (CPU, IO, OOM kills, failcnt); peaks and the limit are after's. */
void cg_usage_delta(const struct cg_usage *before, struct cg_usage *after);

/*
 * "wall=1.234s user=0.010s system=0.002s memory_peak=1527808B io_read=0B io_write=4096B
 * pids_peak=3 oom_kill=0" (memory_failcnt=N where v1 has no oom_kill), each field only where
 * have says so (exact bytes: this is also read by scripts). Returns buf.
 */
const char *cg_usage_format(const struct cg_usage *u, uint64_t wall_ns, char *buf, size_t size);

/*
 * A memory limit as the user would write it: "64M", "1536K", "1000B" (the largest binary suffix
 * that divides it), or "max" for CG_UNLIMITED and v1's page-counter maximum. Returns buf.
 */
const char *cg_usage_format_limit(uint64_t bytes, char *buf, size_t size);

#endif
