// SPDX-License-Identifier: MIT
/*
 * The file vocabulary (kfile.h): the kernel files cgkit reads and, per version, the file and
 * key of each value that more than one reader takes.
 */
#include "kfile.h"

#include <stddef.h>

#define V1   CG_KV1
#define V2   CG_KV2
#define V12  (CG_KV1 | CG_KV2)
#define PROC 0u

const struct cg_kfile cg_kfiles[CG_KF_N] = {
	[CG_KF_CGROUP_EVENTS] = { "cgroup.events", V2 },
	[CG_KF_CGROUP_STAT] = { "cgroup.stat", V2 },
	[CG_KF_CGROUP_TYPE] = { "cgroup.type", V2 },
	[CG_KF_CGROUP_PROCS] = { "cgroup.procs", V12 },
	[CG_KF_CGROUP_THREADS] = { "cgroup.threads", V2 },
	[CG_KF_TASKS] = { "tasks", V1 },
	[CG_KF_FREEZER_STATE] = { "freezer.state", V1 },
	[CG_KF_CPU_STAT] = { "cpu.stat", V2 },
	[CG_KF_CPU_STAT_LOCAL] = { "cpu.stat.local", V2 },
	[CG_KF_CPU_PRESSURE] = { "cpu.pressure", V2 },
	[CG_KF_CPU_MAX] = { "cpu.max", V2 },
	[CG_KF_CPU_WEIGHT] = { "cpu.weight", V2 },
	[CG_KF_CPU_V1_STAT] = { "cpu.stat", V1 },
	[CG_KF_CPU_CFS_QUOTA] = { "cpu.cfs_quota_us", V1 },
	[CG_KF_CPU_CFS_PERIOD] = { "cpu.cfs_period_us", V1 },
	[CG_KF_CPU_SHARES] = { "cpu.shares", V1 },
	[CG_KF_CPUACCT_USAGE] = { "cpuacct.usage", V1 },
	[CG_KF_CPUACCT_USAGE_USER] = { "cpuacct.usage_user", V1 },
	[CG_KF_CPUACCT_USAGE_SYS] = { "cpuacct.usage_sys", V1 },
	[CG_KF_CPUACCT_STAT] = { "cpuacct.stat", V1 },
	[CG_KF_CPUSET_CPUS] = { "cpuset.cpus", V12 },
	[CG_KF_IRQ_PRESSURE] = { "irq.pressure", V2 },
	[CG_KF_MEMORY_CURRENT] = { "memory.current", V2 },
	[CG_KF_MEMORY_STAT] = { "memory.stat", V2 },
	[CG_KF_MEMORY_PEAK] = { "memory.peak", V2 },
	[CG_KF_MEMORY_MAX] = { "memory.max", V2 },
	[CG_KF_MEMORY_HIGH] = { "memory.high", V2 },
	[CG_KF_MEMORY_LOW] = { "memory.low", V2 },
	[CG_KF_MEMORY_MIN] = { "memory.min", V2 },
	[CG_KF_MEMORY_SWAP_CURRENT] = { "memory.swap.current", V2 },
	[CG_KF_MEMORY_SWAP_MAX] = { "memory.swap.max", V2 },
	[CG_KF_MEMORY_EVENTS] = { "memory.events", V2 },
	[CG_KF_MEMORY_EVENTS_LOCAL] = { "memory.events.local", V2 },
	[CG_KF_MEMORY_SWAP_EVENTS] = { "memory.swap.events", V2 },
	[CG_KF_MEMORY_ZSWAP_CURRENT] = { "memory.zswap.current", V2 },
	[CG_KF_MEMORY_PRESSURE] = { "memory.pressure", V2 },
	[CG_KF_MEMORY_V1_USAGE] = { "memory.usage_in_bytes", V1 },
	[CG_KF_MEMORY_V1_STAT] = { "memory.stat", V1 },
	[CG_KF_MEMORY_V1_MAX_USAGE] = { "memory.max_usage_in_bytes", V1 },
	[CG_KF_MEMORY_V1_LIMIT] = { "memory.limit_in_bytes", V1 },
	[CG_KF_MEMORY_V1_FAILCNT] = { "memory.failcnt", V1 },
	[CG_KF_MEMORY_V1_MEMSW_USAGE] = { "memory.memsw.usage_in_bytes", V1 },
	[CG_KF_MEMORY_V1_MEMSW_MAX_USAGE] = { "memory.memsw.max_usage_in_bytes", V1 },
	[CG_KF_MEMORY_V1_SOFT_LIMIT] = { "memory.soft_limit_in_bytes", V1 },
	[CG_KF_MEMORY_V1_MEMSW_LIMIT] = { "memory.memsw.limit_in_bytes", V1 },
	[CG_KF_MEMORY_V1_KMEM_USAGE] = { "memory.kmem.usage_in_bytes", V1 },
	[CG_KF_MEMORY_V1_OOM_CONTROL] = { "memory.oom_control", V1 },
	[CG_KF_IO_STAT] = { "io.stat", V2 },
	[CG_KF_IO_PRESSURE] = { "io.pressure", V2 },
	[CG_KF_IO_MAX] = { "io.max", V2 },
	[CG_KF_IO_WEIGHT] = { "io.weight", V2 },
	[CG_KF_BLKIO_THROTTLE_BYTES] = { "blkio.throttle.io_service_bytes", V1 },
	[CG_KF_BLKIO_THROTTLE_BYTES_RECURSIVE] = { "blkio.throttle.io_service_bytes_recursive",
						   V1 },
	[CG_KF_BLKIO_BYTES] = { "blkio.io_service_bytes", V1 },
	[CG_KF_BLKIO_BFQ_BYTES] = { "blkio.bfq.io_service_bytes", V1 },
	[CG_KF_BLKIO_THROTTLE_SERVICED] = { "blkio.throttle.io_serviced", V1 },
	[CG_KF_BLKIO_BFQ_SERVICED] = { "blkio.bfq.io_serviced", V1 },
	[CG_KF_BLKIO_THROTTLE_RBPS] = { "blkio.throttle.read_bps_device", V1 },
	[CG_KF_BLKIO_THROTTLE_WBPS] = { "blkio.throttle.write_bps_device", V1 },
	[CG_KF_BLKIO_THROTTLE_RIOPS] = { "blkio.throttle.read_iops_device", V1 },
	[CG_KF_BLKIO_THROTTLE_WIOPS] = { "blkio.throttle.write_iops_device", V1 },
	[CG_KF_BLKIO_BFQ_WEIGHT] = { "blkio.bfq.weight", V1 },
	[CG_KF_BLKIO_BFQ_WEIGHT_DEVICE] = { "blkio.bfq.weight_device", V1 },
	[CG_KF_BLKIO_WEIGHT] = { "blkio.weight", V1 },
	[CG_KF_PIDS_CURRENT] = { "pids.current", V12 },
	[CG_KF_PIDS_MAX] = { "pids.max", V12 },
	[CG_KF_PIDS_PEAK] = { "pids.peak", V12 },
	[CG_KF_PIDS_EVENTS] = { "pids.events", V12 },
	[CG_KF_PIDS_EVENTS_LOCAL] = { "pids.events.local", V2 },
	[CG_KF_MISC_CURRENT] = { "misc.current", V2 },
	[CG_KF_MISC_EVENTS] = { "misc.events", V2 },
	[CG_KF_HUGETLB_2MB_CURRENT] = { "hugetlb.2MB.current", V2 },
	[CG_KF_HUGETLB_2MB_EVENTS] = { "hugetlb.2MB.events", V2 },
	[CG_KF_HUGETLB_1GB_CURRENT] = { "hugetlb.1GB.current", V2 },
	[CG_KF_HUGETLB_1GB_EVENTS] = { "hugetlb.1GB.events", V2 },
	[CG_KF_PROC_MEMINFO] = { "/proc/meminfo", PROC },
	[CG_KF_PROC_PSI_CPU] = { "/proc/pressure/cpu", PROC },
	[CG_KF_PROC_PSI_MEMORY] = { "/proc/pressure/memory", PROC },
	[CG_KF_PROC_PSI_IO] = { "/proc/pressure/io", PROC },
};

#define NONE                                                                                       \
	{                                                                                          \
		CG_KF_N, NULL                                                                      \
	}

/* [0]: cgroup2's, [1]: v1's */
static const struct cg_ksrc kv[CG_KV_N][2] = {
	[CG_KV_POPULATED] = { { CG_KF_CGROUP_EVENTS, "populated" }, NONE },
	[CG_KV_FROZEN] = { { CG_KF_CGROUP_EVENTS, "frozen" }, { CG_KF_FREEZER_STATE, NULL } },
	[CG_KV_CPU_USAGE] = { { CG_KF_CPU_STAT, "usage_usec" }, { CG_KF_CPUACCT_USAGE, NULL } },
	[CG_KV_CPU_USER] = { { CG_KF_CPU_STAT, "user_usec" }, { CG_KF_CPUACCT_USAGE_USER, NULL } },
	[CG_KV_CPU_SYSTEM] = { { CG_KF_CPU_STAT, "system_usec" },
			       { CG_KF_CPUACCT_USAGE_SYS, NULL } },
	[CG_KV_CPU_THROTTLED] = { { CG_KF_CPU_STAT, "nr_throttled" },
				  { CG_KF_CPU_V1_STAT, "nr_throttled" } },
	[CG_KV_MEM_PEAK] = { { CG_KF_MEMORY_PEAK, NULL }, { CG_KF_MEMORY_V1_MAX_USAGE, NULL } },
	[CG_KV_MEM_MAX] = { { CG_KF_MEMORY_MAX, NULL }, { CG_KF_MEMORY_V1_LIMIT, NULL } },
	[CG_KV_MEM_FAILCNT] = { NONE, { CG_KF_MEMORY_V1_FAILCNT, NULL } },
	[CG_KV_MEM_EV_LOW] = { { CG_KF_MEMORY_EVENTS, "low" }, NONE },
	[CG_KV_MEM_EV_HIGH] = { { CG_KF_MEMORY_EVENTS, "high" }, NONE },
	[CG_KV_MEM_EV_MAX] = { { CG_KF_MEMORY_EVENTS, "max" }, NONE },
	[CG_KV_MEM_EV_OOM] = { { CG_KF_MEMORY_EVENTS, "oom" }, NONE },
	[CG_KV_MEM_EV_OOM_KILL] = { { CG_KF_MEMORY_EVENTS, "oom_kill" },
				    { CG_KF_MEMORY_V1_OOM_CONTROL, "oom_kill" } },
	[CG_KV_MEM_EV_OOM_GROUP_KILL] = { { CG_KF_MEMORY_EVENTS, "oom_group_kill" }, NONE },
	[CG_KV_PIDS_PEAK] = { { CG_KF_PIDS_PEAK, NULL }, { CG_KF_PIDS_PEAK, NULL } },
	[CG_KV_PIDS_EV_MAX] = { { CG_KF_PIDS_EVENTS, "max" }, { CG_KF_PIDS_EVENTS, "max" } },
};

const struct cg_ksrc *cg_kv_src(enum cg_kv v, int version)
{
	const struct cg_ksrc *s;

	if ((unsigned)v >= CG_KV_N || (version != 1 && version != 2))
		return NULL;
	s = &kv[v][version == 1];
	return s->file < CG_KF_N ? s : NULL;
}
