/* SPDX-License-Identifier: MIT */
/* One CPU vocabulary on every layout: v2 names, translated for v1 (pure: no cgroupfs). */
#ifndef CGKIT_CPU_H
#define CGKIT_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cg_diag;

struct cg_setting {
	char file[64];
	char value[64];
};

/*
 * Translate FILE=VALUE for a hierarchy of the given version.
 * Returns 1 when FILE is not part of the CPU vocabulary (write it as it is), 0 with 1..2
 * settings in out[] (in the order to write them), or -EINVAL (bad value) / -ENOTSUP
 * (a v1 name on v2, or a v2 name v1 cannot express) with d's what ("set") and why (the rule,
 * the value) filled; where and hier stay empty, for the caller who knows the cgroup
 * (cg_diag_place). d may be NULL.
 *   v2: cpu.weight 1..10000, cpu.weight.nice -20..19, cpu.max "QUOTA|max [PERIOD]",
 *       cpu.idle 0|1, cpuset.cpus: validated, written as they are.
 *   v1: cpu.weight -> cpu.shares (weight * 1024 / 100), cpu.weight.nice -> cpu.shares by the
 *       scheduler's nice table, cpu.max -> cpu.cfs_period_us then cpu.cfs_quota_us,
 *       cpu.idle and cpuset.cpus as they are. v1 names pass through on v1.
 */
int cg_cpu_translate(int version, const char *file, const char *value, struct cg_setting out[2],
		     size_t *ret_n, struct cg_diag *d);

/*
 * Read back, the inverse of cg_cpu_translate's v1 side (pure):
 * cpu.shares -> cpu.weight as the kernel maps them (sched_weight_to_cgroup: rounded to the
 * closest, clamped to 1..10000), so that every weight written as shares reads back as itself.
 */
uint64_t cg_cpu_weight_from_shares(uint64_t shares);
/*
 * cpu.max as the v2 file reads: "QUOTA PERIOD", or "max PERIOD" for a quota < 0 (v1
 * cpu.cfs_quota_us -1). Its translation writes the same period and quota back. 0, or -ENOBUFS.
 */
int cg_cpu_max_format(int64_t quota, uint64_t period, char *buf, size_t size);
/* "QUOTA|max [PERIOD]" (a trailing newline allowed): quota -1 for max, period 0 when not given. */
int cg_cpu_max_parse(const char *value, int64_t *ret_quota, uint64_t *ret_period);

/* v2 interface files whose v1 ancestors people still type: the v2 name, or NULL. */
const char *cg_v2_name_for_v1(const char *file);

/* A cpu list as cpuset.cpus takes it ("0-3,8,10-15:2/4", or empty): 0 or -EINVAL. */
int cg_cpulist_validate(const char *s);

#endif
