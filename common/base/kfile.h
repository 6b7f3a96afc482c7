/* SPDX-License-Identifier: MIT */
/*
 * The file vocabulary: every kernel file cgkit reads, by id (its name and which hierarchy
 * version has it), and the values read from them by key, per version. One table, so that the
 * sampler, the event watcher, cgexec2's usage line and the library's readers (populated, frozen)
 * choose a file the same way. Pure data, beneath every layer.
 */
#ifndef CGKIT_KFILE_H
#define CGKIT_KFILE_H

#include <stdbool.h>

/* Which hierarchy versions have a file: bits of a cg_kfile's versions (0: a /proc file). */
#define CG_KV1 (1u << 1)
#define CG_KV2 (1u << 2)

enum cg_kf {
	/* the core's */
	CG_KF_CGROUP_EVENTS,
	CG_KF_CGROUP_STAT,
	CG_KF_CGROUP_TYPE,
	CG_KF_CGROUP_PROCS,
	CG_KF_CGROUP_THREADS,
	CG_KF_TASKS,
	CG_KF_FREEZER_STATE,
	/* cpu, cpuacct, cpuset */
	CG_KF_CPU_STAT,
	CG_KF_CPU_STAT_LOCAL,
	CG_KF_CPU_PRESSURE,
	CG_KF_CPU_MAX,
	CG_KF_CPU_WEIGHT,
	CG_KF_CPU_V1_STAT,
	CG_KF_CPU_CFS_QUOTA,
	CG_KF_CPU_CFS_PERIOD,
	CG_KF_CPU_SHARES,
	CG_KF_CPUACCT_USAGE,
	CG_KF_CPUACCT_USAGE_USER,
	CG_KF_CPUACCT_USAGE_SYS,
	CG_KF_CPUACCT_STAT,
	CG_KF_CPUACCT_USAGE_PERCPU,
	CG_KF_CPUSET_CPUS,
	CG_KF_IRQ_PRESSURE,
	/* memory */
	CG_KF_MEMORY_CURRENT,
	CG_KF_MEMORY_STAT,
	CG_KF_MEMORY_PEAK,
	CG_KF_MEMORY_MAX,
	CG_KF_MEMORY_HIGH,
	CG_KF_MEMORY_LOW,
	CG_KF_MEMORY_MIN,
	CG_KF_MEMORY_SWAP_CURRENT,
	CG_KF_MEMORY_SWAP_MAX,
	CG_KF_MEMORY_EVENTS,
	CG_KF_MEMORY_EVENTS_LOCAL,
	CG_KF_MEMORY_SWAP_EVENTS,
	CG_KF_MEMORY_ZSWAP_CURRENT,
	CG_KF_MEMORY_PRESSURE,
	CG_KF_MEMORY_V1_USAGE,
	CG_KF_MEMORY_V1_STAT,
	CG_KF_MEMORY_V1_MAX_USAGE,
	CG_KF_MEMORY_V1_LIMIT,
	CG_KF_MEMORY_V1_FAILCNT,
	CG_KF_MEMORY_V1_MEMSW_USAGE,
	CG_KF_MEMORY_V1_MEMSW_MAX_USAGE,
	CG_KF_MEMORY_V1_SOFT_LIMIT,
	CG_KF_MEMORY_V1_MEMSW_LIMIT,
	CG_KF_MEMORY_V1_KMEM_USAGE,
	CG_KF_MEMORY_V1_OOM_CONTROL,
	/* io, blkio */
	CG_KF_IO_STAT,
	CG_KF_IO_PRESSURE,
	CG_KF_IO_MAX,
	CG_KF_IO_WEIGHT,
	CG_KF_BLKIO_THROTTLE_BYTES,
	CG_KF_BLKIO_THROTTLE_BYTES_RECURSIVE,
	CG_KF_BLKIO_BYTES,
	CG_KF_BLKIO_BFQ_BYTES,
	CG_KF_BLKIO_THROTTLE_SERVICED,
	CG_KF_BLKIO_BFQ_SERVICED,
	CG_KF_BLKIO_THROTTLE_RBPS,
	CG_KF_BLKIO_THROTTLE_WBPS,
	CG_KF_BLKIO_THROTTLE_RIOPS,
	CG_KF_BLKIO_THROTTLE_WIOPS,
	CG_KF_BLKIO_BFQ_WEIGHT,
	CG_KF_BLKIO_BFQ_WEIGHT_DEVICE,
	CG_KF_BLKIO_WEIGHT,
	/* pids */
	CG_KF_PIDS_CURRENT,
	CG_KF_PIDS_MAX,
	CG_KF_PIDS_PEAK,
	CG_KF_PIDS_EVENTS,
	CG_KF_PIDS_EVENTS_LOCAL,
	/* misc, hugetlb (the sizes x86-64 and arm64 have by default) */
	CG_KF_MISC_CURRENT,
	CG_KF_MISC_EVENTS,
	CG_KF_HUGETLB_2MB_CURRENT,
	CG_KF_HUGETLB_2MB_EVENTS,
	CG_KF_HUGETLB_1GB_CURRENT,
	CG_KF_HUGETLB_1GB_EVENTS,
	/* /proc: the root cgroup's stand-ins */
	CG_KF_PROC_MEMINFO,
	CG_KF_PROC_PSI_CPU,
	CG_KF_PROC_PSI_MEMORY,
	CG_KF_PROC_PSI_IO,
	CG_KF_N
};

struct cg_kfile {
	const char *name; /* beneath the cgroup's directory; an absolute path for /proc */
	unsigned versions; /* CG_KV1, CG_KV2 */
};
extern const struct cg_kfile cg_kfiles[CG_KF_N];

static inline const char *cg_kf_name(enum cg_kf f)
{
	return cg_kfiles[f].name;
}

/*
 * A value read from the files by key: where cgroup2 has it and where v1 has it (which may be
 * another file, or none). The readers that choose between versions ask here.
 */
enum cg_kv {
	CG_KV_POPULATED, /* cgroup.events populated (v1 has none) */
	CG_KV_FROZEN, /* cgroup.events frozen; v1 freezer.state */
	CG_KV_CPU_USAGE, /* cpu.stat usage_usec; v1 cpuacct.usage (ns) */
	CG_KV_CPU_USER, /* cpu.stat user_usec; v1 cpuacct.usage_user (ns) */
	CG_KV_CPU_SYSTEM, /* cpu.stat system_usec; v1 cpuacct.usage_sys (ns) */
	CG_KV_CPU_THROTTLED, /* cpu.stat nr_throttled; v1 cpu.stat's */
	CG_KV_MEM_PEAK, /* memory.peak; v1 memory.max_usage_in_bytes */
	CG_KV_MEM_MAX, /* memory.max; v1 memory.limit_in_bytes */
	CG_KV_MEM_FAILCNT, /* v1 memory.failcnt (limit hits) */
	CG_KV_MEM_EV_LOW,
	CG_KV_MEM_EV_HIGH,
	CG_KV_MEM_EV_MAX,
	CG_KV_MEM_EV_OOM,
	CG_KV_MEM_EV_OOM_KILL, /* memory.events oom_kill; v1 memory.oom_control oom_kill */
	CG_KV_MEM_EV_OOM_GROUP_KILL,
	CG_KV_PIDS_PEAK, /* pids.peak, both versions */
	CG_KV_PIDS_EV_MAX, /* pids.events max, both versions */
	/*
	 * The statistics cgtop2 samples beyond its collectors' own (issue 45), in the order of
	 * cgtop2's table of their names (cmd/cgtop2/sampler/stats_kstat.c): memory.stat's keys
	 * (v1: the hierarchical total_* of the same kernel counter, where there is one; not anon,
	 * file, kernel, shmem, slab, sock and file_mapped, which the memory collector reads under
	 * its own keys, nor zswap, memory.zswap.current's counter: one key for one value) ...
	 */
	CG_KV_STAT0,
	CG_KV_MS_KERNEL_STACK = CG_KV_STAT0,
	CG_KV_MS_PAGETABLES,
	CG_KV_MS_SEC_PAGETABLES,
	CG_KV_MS_PERCPU,
	CG_KV_MS_VMALLOC,
	CG_KV_MS_ZSWAPPED,
	CG_KV_MS_FILE_DIRTY,
	CG_KV_MS_FILE_WRITEBACK,
	CG_KV_MS_SWAPCACHED,
	CG_KV_MS_ANON_THP,
	CG_KV_MS_FILE_THP,
	CG_KV_MS_SHMEM_THP,
	CG_KV_MS_INACTIVE_ANON,
	CG_KV_MS_ACTIVE_ANON,
	CG_KV_MS_INACTIVE_FILE,
	CG_KV_MS_ACTIVE_FILE,
	CG_KV_MS_UNEVICTABLE,
	CG_KV_MS_SLAB_RECLAIMABLE,
	CG_KV_MS_SLAB_UNRECLAIMABLE,
	CG_KV_MS_WS_REFAULT_ANON,
	CG_KV_MS_WS_REFAULT_FILE,
	CG_KV_MS_WS_ACTIVATE_ANON,
	CG_KV_MS_WS_ACTIVATE_FILE,
	CG_KV_MS_WS_RESTORE_ANON,
	CG_KV_MS_WS_RESTORE_FILE,
	CG_KV_MS_WS_NODERECLAIM,
	CG_KV_MS_PGFAULT,
	CG_KV_MS_PGMAJFAULT,
	CG_KV_MS_PGREFILL,
	CG_KV_MS_PGSCAN,
	CG_KV_MS_PGSTEAL,
	CG_KV_MS_PGSCAN_KSWAPD,
	CG_KV_MS_PGSCAN_DIRECT,
	CG_KV_MS_PGSTEAL_KSWAPD,
	CG_KV_MS_PGSTEAL_DIRECT,
	CG_KV_MS_PGACTIVATE,
	CG_KV_MS_PGDEACTIVATE,
	CG_KV_MS_PGLAZYFREE,
	CG_KV_MS_PGLAZYFREED,
	CG_KV_MS_ZSWPIN,
	CG_KV_MS_ZSWPOUT,
	CG_KV_MS_ZSWPWB,
	CG_KV_MS_THP_FAULT_ALLOC,
	CG_KV_MS_THP_COLLAPSE_ALLOC,
	CG_KV_MS_THP_SWPOUT,
	CG_KV_MS_THP_SWPOUT_FALLBACK,
	CG_KV_MS_PGPGIN, /* v1 only: total_pgpgin */
	CG_KV_MS_PGPGOUT, /* v1 only: total_pgpgout */
	/* ... memory.events.local, memory.swap.events, zswap, v1's memory+swap figures ... */
	CG_KV_MEL_LOW,
	CG_KV_MEL_HIGH,
	CG_KV_MEL_MAX,
	CG_KV_MEL_OOM,
	CG_KV_MEL_OOM_KILL,
	CG_KV_MEL_OOM_GROUP_KILL,
	CG_KV_MSE_HIGH,
	CG_KV_MSE_MAX,
	CG_KV_MSE_FAIL,
	CG_KV_MEM_ZSWAP_CURRENT,
	CG_KV_MEM_MEMSW_USAGE, /* v1 only */
	CG_KV_MEM_MEMSW_PEAK, /* v1 only */
	/* ... the core's, cpu's, io's, irq's, pids', misc's, hugetlb's */
	CG_KV_NR_DESCENDANTS,
	CG_KV_NR_DYING_DESCENDANTS,
	CG_KV_CPU_LOCAL_THROTTLED_USEC,
	CG_KV_IO_COST_USAGE, /* io.stat cost.* (the iocost controller), summed over devices */
	CG_KV_IO_COST_WAIT,
	CG_KV_IO_COST_INDEBT,
	CG_KV_IO_COST_INDELAY,
	CG_KV_IRQ_FULL_USEC,
	CG_KV_PIDS_PEAK_STAT,
	CG_KV_PIDS_EVL_MAX,
	CG_KV_MISC_SEV,
	CG_KV_MISC_SEV_ES,
	CG_KV_MISC_TDX,
	CG_KV_MISC_SEV_EV_MAX,
	CG_KV_MISC_SEV_ES_EV_MAX,
	CG_KV_MISC_TDX_EV_MAX,
	CG_KV_HUGETLB_2MB,
	CG_KV_HUGETLB_2MB_EV_MAX,
	CG_KV_HUGETLB_1GB,
	CG_KV_HUGETLB_1GB_EV_MAX,
	CG_KV_N
};

/* How a value stands in its file. */
enum cg_kfmt {
	CG_KFMT_KEYED, /* a "key value" line (cg_kparse_keys); the key NULL: the file is one value */
	CG_KFMT_FIELD_SUM, /* " key=value" fields summed over the lines (cg_kparse_field_sum) */
};

/* A file, and a key in it (NULL: the file holds one value), and how the value stands there. */
struct cg_ksrc {
	enum cg_kf file;
	const char *key;
	enum cg_kfmt fmt;
};

/* cgroup2's source of v, or v1's (version 1); NULL where that version has none. */
const struct cg_ksrc *cg_kv_src(enum cg_kv v, int version);

#endif
