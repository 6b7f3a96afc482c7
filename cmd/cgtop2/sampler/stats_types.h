/* SPDX-License-Identifier: MIT */
/*
 * What the live sampler (stats.h) hands out and is asked for: a row and its bits, the
 * collectors, the limits, a task, the options. Its own header, beneath the sampler's files: the
 * layers under stats.c (stats_state.h's) use these types, and stats.c calls them, so that the
 * calls of the sampler's files go one way.
 */
#ifndef CGKIT_STATS_TYPES_H
#define CGKIT_STATS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "base/kfile.h"
#include "base/kparse.h"

/* What a row carries: unknown values have no bit. */
enum {
	CG_STAT_TASKS = 1u << 0,
	CG_STAT_CPU = 1u << 1, /* cumulative cpu_ns */
	CG_STAT_CPU_RATE = 1u << 2, /* cpu_percent (needs a previous sample) */
	CG_STAT_MEMORY = 1u << 3,
	CG_STAT_IO = 1u << 4, /* cumulative io_read/io_write */
	CG_STAT_IO_RATE = 1u << 5, /* io_read_bps/io_write_bps */
	CG_STAT_PSI_CPU = 1u << 6,
	CG_STAT_PSI_MEMORY = 1u << 7,
	CG_STAT_PSI_IO = 1u << 8,
	CG_STAT_THREADED = 1u << 9, /* v2 cgroup.type is "threaded" */
};

enum { CG_PSI_CPU, CG_PSI_MEMORY, CG_PSI_IO, CG_PSI_N };

/*
 * Collectors: what a sample reads beyond the base row (tasks, cpu_ns, memory, io_read/io_write,
 * PSI some avg10, always read). A file that only an off collector needs is never opened; what
 * a collector takes from a base file (cpu.stat, io.stat, the PSI files) costs a parse.
 */
enum cg_collector {
	CG_COLL_CPU, /* user, system, throttling: cpu.stat; v1 cpuacct.stat and cpu.stat */
	CG_COLL_MEMORY, /* memory.stat, peak, limits, swap, events; v1 memory.stat, limit, failcnt */
	CG_COLL_IO, /* IO operations and discards: io.stat; v1 blkio throttle (or bfq) io_serviced */
	CG_COLL_IODEVICE, /* the IO figures per device (row.iodevs), named from /sys/dev/block */
	CG_COLL_PIDS, /* pids.max, pids.events (v1 the pids hierarchy) */
	CG_COLL_PSI, /* PSI full avg10, avg60 and avg300 of some and full, and the stall totals
		      * (the files are base) */
	/*
	 * every limit in the v2 vocabulary, v1's translated back (cg_stat_limit): cpu.max,
	 * cpu.weight, cpuset.cpus, io.max, io.weight read at most every CG_LIMITS_REFRESH_NS; the
	 * memory and pids limits as their collectors read them (read for it when those are off)
	 */
	CG_COLL_LIMITS,
	CG_COLL_N
};
/* The default set: every collector but iodevice (a series per device and cgroup). */
#define CG_COLL_DEFAULT                                                                            \
	((1u << CG_COLL_CPU) | (1u << CG_COLL_MEMORY) | (1u << CG_COLL_IO) |                       \
	 (1u << CG_COLL_PIDS) | (1u << CG_COLL_PSI) | (1u << CG_COLL_LIMITS))
/*
 * Limits change when someone writes them, not as a workload runs: a cgroup's own limit files
 * are read when it is first seen, then at most this often.
 */
#define CG_LIMITS_REFRESH_NS (10 * 1000000000ull)
/* "cpu", "memory", "io", "iodevice", "pids", "psi", "limits": indexed by enum cg_collector */
extern const char *const cg_collector_names[CG_COLL_N];

/*
 * A row's collected values: value i (cg_stat_x) is known when bit i of x_have is set (unknown
 * stays unknown, never 0). Counters are cumulative as the kernel counts them; limits are CG_UNLIMITED for
 * "max". Each value comes from the first source that has it: cgroup2, then v1.
 */
enum cg_stat_x {
	/* CG_COLL_CPU (nanoseconds, counts): cpu.stat user_usec, system_usec, nr_periods,
	 * nr_throttled, throttled_usec; v1 cpuacct.stat user/system, cpu.stat nr_periods,
	 * nr_throttled, throttled_time */
	CG_X_CPU_USER_NS,
	CG_X_CPU_SYSTEM_NS,
	CG_X_CPU_PERIODS,
	CG_X_CPU_THROTTLED,
	CG_X_CPU_THROTTLED_NS,
	/* CG_COLL_MEMORY, bytes: memory.peak (v1 max_usage_in_bytes); memory.stat anon, file,
	 * kernel, shmem, slab, sock, inactive_file (v1 memory.stat total_rss, total_cache,
	 * total_shmem, total_inactive_file; kernel from memory.kmem.usage_in_bytes; no slab or
	 * sock); working set = memory - inactive_file (as cAdvisor); swap.current (v1
	 * memory.memsw.usage_in_bytes minus the memory figure, as cAdvisor, where swap is
	 * accounted); file_mapped (v1 total_mapped_file) */
	CG_X_MEM_PEAK,
	CG_X_MEM_ANON,
	CG_X_MEM_FILE,
	CG_X_MEM_KERNEL,
	CG_X_MEM_SHMEM,
	CG_X_MEM_SLAB,
	CG_X_MEM_SOCK,
	CG_X_MEM_INACTIVE_FILE,
	CG_X_MEM_WORKING_SET,
	CG_X_MEM_SWAP,
	CG_X_MEM_MAPPED_FILE,
	/* limits, bytes or CG_UNLIMITED: memory.max (v1 limit_in_bytes), high, low, min, swap.max
	 * (v1 has no swap-only limit: CG_X_MEM_MEMSW_MAX) */
	CG_X_MEM_MAX,
	CG_X_MEM_HIGH,
	CG_X_MEM_LOW,
	CG_X_MEM_MIN,
	CG_X_MEM_SWAP_MAX,
	/* counters of memory.events (hierarchical): low, high, max (v1 failcnt), oom, oom_kill
	 * (v1 memory.oom_control oom_kill), oom_group_kill */
	CG_X_MEM_EV_LOW,
	CG_X_MEM_EV_HIGH,
	CG_X_MEM_EV_MAX,
	CG_X_MEM_EV_OOM,
	CG_X_MEM_EV_OOM_KILL,
	CG_X_MEM_EV_OOM_GROUP_KILL,
	CG_X_MEM_UNDER_OOM, /* v1 memory.oom_control under_oom: 0 or 1 */
	/* v1 limits that cgroup2 has no file for, bytes or CG_UNLIMITED: memory.soft_limit_in_bytes,
	 * memory.memsw.limit_in_bytes (memory plus swap) */
	CG_X_MEM_SOFT_LIMIT,
	CG_X_MEM_MEMSW_MAX,
	/* CG_COLL_IO: summed over devices: read and write operations, discarded bytes and ops */
	CG_X_IO_RIOS,
	CG_X_IO_WIOS,
	CG_X_IO_DBYTES,
	CG_X_IO_DIOS,
	/* CG_COLL_PIDS: pids.max (CG_UNLIMITED), pids.events max (forks refused by the limit) */
	CG_X_PIDS_MAX,
	CG_X_PIDS_EV_MAX,
	/* CG_COLL_LIMITS: cpu.max's quota (CG_UNLIMITED for max) and period in microseconds (v1
	 * cpu.cfs_quota_us, cpu.cfs_period_us), cpu.weight (v1 cpu.shares as the kernel maps it);
	 * v1 only: cpu.shares as it reads (the weight does not give it back: cAdvisor's figure) */
	CG_X_CPU_QUOTA,
	CG_X_CPU_PERIOD,
	CG_X_CPU_WEIGHT,
	CG_X_CPU_SHARES,
	/* CG_COLL_PSI: stall time in microseconds, some and full, [CG_PSI_CPU, MEMORY, IO] each;
	 * the full avg10 figures and the other averages, percent, are doubles (cg_stat_xd) at
	 * CG_X_PSI_FULL_AVG10 + resource and CG_X_PSI_AVG + enum cg_psi_avg * CG_PSI_N + resource */
	CG_X_PSI_SOME_US,
	CG_X_PSI_FULL_US = CG_X_PSI_SOME_US + CG_PSI_N,
	CG_X_PSI_FULL_AVG10 = CG_X_PSI_FULL_US + CG_PSI_N,
	CG_X_PSI_AVG = CG_X_PSI_FULL_AVG10 + CG_PSI_N,
	CG_X_N = CG_X_PSI_AVG + 4 * CG_PSI_N
};

/*
 * The kernel's statistics beyond the collectors' values (issue 45): statistic i (cg_kstat_get)
 * is known when bit i of k_have is set, and is the file vocabulary's value CG_KV_STAT0 + i (base/kfile.h says which
 * file and key on each version), read only where its file exists, cgroup2 first, then v1, as
 * the kernel counts it (bytes, events, pages, microseconds). Read while the collector of
 * cg_kstats[i] is on; cg_kstats[i] names it in every output (cmd/cgtop2/sampler/stats_kstat.c).
 */
#define CG_K_N	   (CG_KV_N - CG_KV_STAT0)
#define CG_K_WORDS ((CG_K_N + 63) / 64)
struct cg_kstat {
	const char *key; /* JSON, CSV, --fields, the recording; the exposition's cgroup_KEY */
	const char *help;
	const char *cadvisor; /* --compat=cadvisor's family; NULL: cgkit_KEY */
	unsigned char coll; /* enum cg_collector */
	bool counter; /* a counter (_total), else a gauge */
	bool usec; /* microseconds as the kernel counts them: seconds in every output */
};
extern const struct cg_kstat cg_kstats[CG_K_N];

/* The PSI averages of CG_COLL_PSI besides the avg10s (some: the base row's psi[]). */
enum cg_psi_avg { CG_PSI_SOME60, CG_PSI_SOME300, CG_PSI_FULL60, CG_PSI_FULL300, CG_PSI_AVG_N };

/* With CG_COLL_LIMITS: the limits that are text, in cg_stat_row.limit_text. */
enum cg_limit_text { CG_LT_CPUSET_CPUS, CG_LT_IO_MAX, CG_LT_IO_WEIGHT, CG_LT_N };

/* Every limit of the v2 vocabulary, in the order cgtop2 writes them (cg_limit_names). */
enum cg_limit {
	CG_LIMIT_MEMORY_MAX,
	CG_LIMIT_MEMORY_HIGH,
	CG_LIMIT_MEMORY_LOW,
	CG_LIMIT_MEMORY_MIN,
	CG_LIMIT_MEMORY_SWAP_MAX,
	CG_LIMIT_CPU_MAX,
	CG_LIMIT_CPU_WEIGHT,
	CG_LIMIT_CPUSET_CPUS,
	CG_LIMIT_PIDS_MAX,
	CG_LIMIT_IO_MAX,
	CG_LIMIT_IO_WEIGHT,
	CG_LIMIT_N
};
/* "memory.max", ..., "io.weight": the cgroup2 file of each */
extern const char *const cg_limit_names[CG_LIMIT_N];

/* With CG_COLL_IODEVICE: a block device's figures (v[CG_IO_*], have) and its name. */
struct cg_stat_iodev {
	struct cg_io_dev io;
	char name[32]; /* DEVNAME of /sys/dev/block/MAJ:MIN/uevent, "" when unknown */
};

struct cg_stat_thread {
	pid_t tid;
	char comm[32];
	uint64_t ticks;
	double cpu_percent; /* < 0: no previous sample yet */
};

/* A task of the cgroup cg_stats_set_members names: a process, or a thread. */
struct cg_stat_member {
	pid_t id; /* the process id, or the thread id when thread is set */
	bool thread;
	char state; /* as /proc/PID/stat says: 'R'unning, 'S'leeping, 'D', 'Z'ombie, ... */
	char comm[64]; /* as the kernel has it: escape it to show it */
	uint64_t ticks; /* utime + stime, clock ticks (a process: all its threads, gone ones too) */
	uint64_t start; /* start time, clock ticks after boot: which process the id names */
	double cpu_percent; /* of one CPU since the previous sample; < 0: no previous sample */
	/*
	 * cg_stats_set_members' cgroup only (not the rows of cg_stats_set_members_all, nor a
	 * recording): what a process view shows beside it, its process's for a thread.
	 */
	bool have_proc; /* rss, uid and cmdline were read */
	uid_t uid; /* the owner of /proc/PID: its effective uid */
	uint64_t rss; /* bytes resident (statm) */
	char cmdline[256]; /* arguments joined by spaces, cut; "" for a kernel thread */
};

struct cg_stat_row {
	char *path; /* "/" or "/a/b", relative to the hierarchy roots */
	int depth; /* 0 for the cgroup the sampler was started on */
	unsigned have;
	uint64_t tasks;
	uint64_t cpu_ns;
	double cpu_percent;
	uint64_t memory;
	uint64_t io_read, io_write;
	double io_read_bps, io_write_bps;
	double psi[CG_PSI_N];
	/*
	 * the collectors' values (enum cg_stat_x), known by their bit: x holds the known alone, in
	 * index order (cg_stat_x), as k does; the PSI averages, percent, as a double's bits
	 * (cg_stat_xd: CG_X_PSI_FULL_AVG10 + resource, CG_X_PSI_AVG + avg * CG_PSI_N + resource)
	 */
	uint64_t x_have;
	uint64_t *x;
	size_t x_cap;
	/* with CG_COLL_IODEVICE: one per device the cgroup did IO on, in the kernel's order */
	struct cg_stat_iodev *iodevs;
	size_t n_iodevs;
	/*
	 * with CG_COLL_CPU, v1's cpuacct.usage_percpu: nanoseconds by CPU number, every possible
	 * CPU (n_percpu 0: no such file). A list, as the devices: not one key a value.
	 */
	uint64_t *percpu_ns;
	size_t n_percpu, cap_percpu;
	/* with threads enabled, in a threaded cgroup */
	struct cg_stat_thread *threads;
	size_t n_threads;
	/* with cg_stats_set_members_all: the cgroup's own tasks, as cg_stats_members lists them */
	struct cg_stat_member *members;
	size_t n_members;
	/* with CG_COLL_LIMITS: as cgroup2's file reads (v1's translated back), NULL: unknown */
	char *limit_text[CG_LT_N];
	/*
	 * the kernel's statistics (cg_kstats), known by their bit: k holds the known values alone,
	 * in index order (cg_kstat_get), as most of the CG_K_N are unknown in most cgroups; k_cap
	 * is what its allocation holds (0: k is none of the row's, such as a replay's, kept in
	 * one block per sample)
	 */
	uint64_t k_have[CG_K_WORDS];
	uint64_t *k;
	size_t k_cap;
};

static inline bool cg_stat_x_known(const struct cg_stat_row *r, int i)
{
	return (r->x_have >> i) & 1;
}

/* Value i of r (enum cg_stat_x), 0 when unknown. */
static inline uint64_t cg_stat_x(const struct cg_stat_row *r, int i)
{
	return cg_stat_x_known(r, i) ? r->x[__builtin_popcountll(r->x_have & ((1ull << i) - 1))]
				     : 0;
}

/* A PSI average of r (CG_X_PSI_FULL_AVG10 + resource, CG_X_PSI_AVG + ...), 0 when unknown. */
static inline double cg_stat_xd(const struct cg_stat_row *r, int i)
{
	uint64_t u = cg_stat_x(r, i);
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/*
 * Value i of r known as v from now on: 0, or -ENOMEM (and i as it was). As cg_kstat_set: r->x
 * grows into x_cap, freed by free(r->x); a replay's rows (x_cap 0) are not set.
 */
int cg_stat_x_set(struct cg_stat_row *r, int i, uint64_t v);

static inline int cg_stat_xd_set(struct cg_stat_row *r, int i, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return cg_stat_x_set(r, i, u);
}

static inline bool cg_kstat_known(const struct cg_stat_row *r, int i)
{
	return (r->k_have[i / 64] >> (i % 64)) & 1;
}

/* Where statistic i is (or would be) in r->k: the known ones below it. */
static inline size_t cg_kstat_slot(const struct cg_stat_row *r, int i)
{
	size_t n = 0;

	for (int w = 0; w < i / 64; w++)
		n += (size_t)__builtin_popcountll(r->k_have[w]);
	return n + (size_t)__builtin_popcountll(r->k_have[i / 64] & ((1ull << (i % 64)) - 1));
}

/* How many statistics r knows: the values in r->k. */
static inline size_t cg_kstat_count(const struct cg_stat_row *r)
{
	return cg_kstat_slot(r, CG_K_N - 1) + cg_kstat_known(r, CG_K_N - 1);
}

/*
 * Statistic i of r known as v from now on: 0, or -ENOMEM (and i as it was). r->k grows into a
 * free place (k_cap); a row that holds some is freed by free(r->k).
 */
int cg_kstat_set(struct cg_stat_row *r, int i, uint64_t v);

/* Statistic i of r, 0 when unknown (ask cg_kstat_known first). */
static inline uint64_t cg_kstat_get(const struct cg_stat_row *r, int i)
{
	return cg_kstat_known(r, i) ? r->k[cg_kstat_slot(r, i)] : 0;
}

/* What the tasks column counts, as systemd-cgtop's default, -k and -P. */
enum cg_count {
	CG_COUNT_TASKS, /* every thread, kernel ones too; always recursive */
	CG_COUNT_PROCESSES, /* processes (a process counts once) and kernel threads */
	CG_COUNT_USER_PROCESSES, /* processes only, no kernel threads */
};

struct mirror;

struct cg_stats_opts {
	const char *path; /* normalized ("" is the root) */
	int depth; /* rows down to this many levels below path */
	bool threads; /* collect per-thread rows in threaded cgroups */
	enum cg_count count;
	bool own_only; /* processes counted: the cgroup's own, not its descendants' too */
	/*
	 * Read every file every time, even of an unpopulated cgroup2 cgroup whose counters have
	 * stopped (normally skipped until cgroup.events says something joined): for benchmarks.
	 */
	bool always_read;
	unsigned collectors; /* bit per enum cg_collector; 0: the base row only */
	size_t fd_reserve; /* fds the tool holds besides (cgtop2 --listen: its connections) */
	/*
	 * Collectors cg_stats_set_collectors may turn on later (the screen's detail pane): the v1
	 * hierarchies that only they read (cpu, cpuset) are walked from the start.
	 */
	unsigned may_collect;
	/* the tree mirror (mirror/mirror.h) to subscribe to; NULL: one of its own */
	struct mirror *mirror;
};

#endif
