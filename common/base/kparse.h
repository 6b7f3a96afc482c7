/* SPDX-License-Identifier: MIT */
/* Pure kernel-text parsers: the unit-test and fuzz surface (no I/O; tests/unit, tests/fuzz). */
#ifndef CGKIT_KPARSE_H
#define CGKIT_KPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * PF_KTHREAD of include/linux/sched.h: the flag in /proc/PID/stat field 9 that marks a kernel
 * thread (ABI: ps and systemd test it too).
 */
#define CG_PF_KTHREAD 0x00200000u
/*
 * PF_EXITING: the task has begun to exit. The kernel's migration skips it without an error
 * (cgroup_migrate_add_task), and a v1 /proc/PID/cgroup names "/" for it.
 */
#define CG_PF_EXITING 0x00000004u

/* Each parser returns 0 or -EINVAL/-ERANGE, and writes its ret_* only on success. */

/* "key value" lines (cpu.stat, memory.stat): the value of key; -ENOENT when it is absent. */
int cg_kparse_keyed(const char *text, const char *key, uint64_t *ret);
/* io.stat: rbytes and wbytes summed over every device line. Empty text is 0/0. */
int cg_kparse_io_stat(const char *text, uint64_t *ret_read, uint64_t *ret_write);
/*
 * v1 blkio.throttle.io_service_bytes (and blkio.io_service_bytes): "MAJ:MIN Read N" and
 * "MAJ:MIN Write N" summed over devices; the per-device and grand "Total" lines are ignored.
 */
int cg_kparse_blkio(const char *text, uint64_t *ret_read, uint64_t *ret_write);
/* PSI ("some avg10=0.12 avg60=... total=N"): the "some" line's avg10 in percent. */
int cg_kparse_psi_avg10(const char *text, double *ret_some_avg10);
/* PSI text with every average zero: nothing stalled in the last five minutes. */
bool cg_kparse_psi_idle(const char *text);
/* A single number file (cpuacct.usage, memory.current, pids.current, memory.usage_in_bytes). */
int cg_kparse_number(const char *text, uint64_t *ret);
/* /proc/meminfo: what the whole machine uses (MemTotal - MemAvailable), in bytes. */
int cg_kparse_meminfo(const char *text, uint64_t *ret_used);
/* /proc/meminfo: MemTotal and SwapTotal, in bytes (a SwapTotal line absent: 0). */
int cg_kparse_meminfo_totals(const char *text, uint64_t *ret_mem, uint64_t *ret_swap);
/* cgroup2 cgroup.events: 0 when "populated 0", else 1 (a file that does not say counts as 1). */
int cg_kparse_populated(const char *text);
/*
 * A membership listing ("12\n34\n": cgroup.procs, cgroup.threads, tasks) as a sorted vector
 * without repeats. Strict: -EINVAL for a line that is no id (0, beyond CG_PID_MAX, a blank or a
 * sign); lax skips such a line. Empty lines are none. -ENOMEM.
 */
int cg_kparse_members(const char *text, bool lax, pid_t **ret, size_t *ret_n);
/* Lines of a membership file (cgroup.procs, cgroup.threads, tasks). */
uint64_t cg_kparse_count_lines(const char *text);
/* /proc/PID/task/TID/stat: comm (up to size-1 bytes) and utime+stime in clock ticks. */
int cg_kparse_proc_stat(const char *text, char *comm, size_t size, uint64_t *ret_ticks);
/* /proc/PID/stat: the state field (R, S, D, Z, ...). */
int cg_kparse_proc_state(const char *text, char *ret_state);
/* /proc/PID/statm: the resident set, in pages (its second field). */
int cg_kparse_statm(const char *text, uint64_t *ret_resident_pages);
/* /proc/PID/stat: the flags field (PF_*; CG_PF_KTHREAD marks a kernel thread). */
int cg_kparse_proc_flags(const char *text, uint64_t *ret_flags);
/* /proc/PID/stat: the start time, in clock ticks after boot (field 22): who a pid names. */
int cg_kparse_proc_starttime(const char *text, uint64_t *ret_ticks);

/*
 * CPU time of a cgroup for a usage summary, user and system apart, in nanoseconds; -ENOENT when
 * a key is absent, -ERANGE when the nanoseconds do not fit. cgroup2 cpu.stat: user_usec and
 * system_usec. v1 cpuacct.stat: user and system in USER_HZ ticks of ticks_per_sec (sysconf
 * _SC_CLK_TCK), the kernel's fallback where cpuacct.usage_user/usage_sys are missing.
 */
int cg_kparse_cpu_stat(const char *text, uint64_t *ret_user_ns, uint64_t *ret_system_ns);
int cg_kparse_cpuacct_stat(const char *text, long ticks_per_sec, uint64_t *ret_user_ns,
			   uint64_t *ret_system_ns);

/*
 * The value of KEY= in text of KEY=VALUE lines (systemd's state and env files), without the
 * double quotes around it; a new string, NULL when the key is absent (or out of memory).
 */
char *cg_kparse_env_value(const char *text, const char *key);

/* ---- the collectors' parsers (cmd/cgtop2/sampler/stats_collect.c) ---------------------------------------- */

/* A limit file's "max": no limit. */
#define CG_UNLIMITED UINT64_MAX

/*
 * "key value" lines (memory.stat, memory.events, cpu.stat, pids.events, memory.oom_control):
 * the value of each of keys[0, n) (n <= 64) into vals[i], bit i of *ret_found set for each key
 * present. -EINVAL when a wanted key's value is no number; a key absent is no error.
 */
int cg_kparse_keys(const char *text, const char *const *keys, size_t n, uint64_t *vals,
		   uint64_t *ret_found);
/* memory.max, memory.high, pids.max, ...: a number, or "max" as CG_UNLIMITED. */
int cg_kparse_limit(const char *text, uint64_t *ret);

/*
 * " key=value" fields (io.stat's cost.usage per device, a PSI line's total) summed over the
 * lines that have one: -ENOENT when none has, -EINVAL for a value that is no number or a sum
 * that would wrap.
 */
int cg_kparse_field_sum(const char *text, const char *key, uint64_t *ret);

/*
 * Numbers apart by spaces on one line (v1's cpuacct.usage_percpu: a CPU's nanoseconds each, by
 * the CPU's number) into *vals (realloc'ed, *cap its room) and *n. -EINVAL for a word that is
 * no number, -ENOMEM; *vals stays valid.
 */
int cg_kparse_u64_list(const char *text, uint64_t **vals, size_t *cap, size_t *n);

/* One PSI file: both lines (cpu has "full" since 5.13; absent, has_full is false). */
struct cg_psi {
	double some_avg10, some_avg60, some_avg300; /* percent */
	double full_avg10, full_avg60, full_avg300;
	uint64_t some_total_us, full_total_us; /* stall time, microseconds */
	bool has_full;
};
int cg_kparse_psi(const char *text, struct cg_psi *ret);

/* The IO figures of a device (io.stat keys; v1 blkio Read/Write/Discard lines). */
enum { CG_IO_RBYTES, CG_IO_WBYTES, CG_IO_RIOS, CG_IO_WIOS, CG_IO_DBYTES, CG_IO_DIOS, CG_IO_N };
struct cg_io_dev {
	unsigned major, minor;
	unsigned have; /* bit per CG_IO_* */
	uint64_t v[CG_IO_N];
};
/*
 * Add the devices of io.stat ("MAJ:MIN rbytes=N wbytes=N rios=N ... dios=N") to *devs (a
 * malloc'ed array of *n made by these parsers, or NULL and 0; a device already there gets the
 * figures). Unknown
 * keys are ignored. -EINVAL on a malformed line, -ERANGE, -ENOMEM; *devs stays valid.
 */
int cg_kparse_io_devs(const char *text, struct cg_io_dev **devs, size_t *n);
/*
 * The same for v1 blkio files ("MAJ:MIN Read N", Write, Discard; Sync, Async, Total and the
 * grand "Total N" are ignored): bytes files (io_service_bytes) fill CG_IO_RBYTES, WBYTES and
 * DBYTES, ops files (io_serviced) CG_IO_RIOS, WIOS and DIOS.
 */
int cg_kparse_blkio_devs(const char *text, bool ops, struct cg_io_dev **devs, size_t *n);

struct cg_hier;

/*
 * Whether mount MNT_ID (statx STATX_MNT_ID) of mountinfo TEXT is a cgroup or cgroup2 mount or
 * mounted somewhere inside one: 1, 0, -EINVAL for a malformed line on the way, -ELOOP.
 */
int cg_kparse_mountinfo_in_cgroup(const char *text, uint64_t mnt_id);
/*
 * How many levels above this process's cgroup namespace root a mountinfo root is: "/.." is 1,
 * "/../.." 2; 0 for "/" or a root below the namespace's ("/x", a bind of a subtree); -EREMOTE
 * for a root in another branch ("/../x"), from which the namespace's root cannot be reached.
 */
int cg_kparse_root_levels_up(const char *root);
/*
 * "/proc/PID/cgroup" text -> this hierarchy's cgroup path relative to h->dir ("" for its
 * root): the mount's root, or the cgroup namespace's when the mount reaches above it (the
 * kernel prints both relative to the reader's namespace root). -ENOENT when the line is
 * missing or outside the mount, -EREMOTE when the cgroup is outside the namespace's root
 * ("/../x": CG_NS_RULE says why it cannot be used).
 */
int cg_kparse_proc_cgroup(const char *text, const struct cg_hier *h, char **ret);

/* A network interface's counters in /proc/PID/net/dev (kparse_net.c), by enum cg_net_key. */
enum cg_net_key {
	CG_NET_RX_BYTES,
	CG_NET_RX_PACKETS,
	CG_NET_RX_ERRORS,
	CG_NET_RX_DROPPED,
	CG_NET_TX_BYTES,
	CG_NET_TX_PACKETS,
	CG_NET_TX_ERRORS,
	CG_NET_TX_DROPPED,
	CG_NET_N
};
struct cg_net_if {
	char name[16]; /* IFNAMSIZ: the kernel's names are shorter */
	uint64_t v[CG_NET_N];
};
/*
 * /proc/PID/net/dev text (two header lines, then "NAME: 16 numbers" a line) -> its interfaces
 * in the kernel's order; -EINVAL for a line of another shape (no count of it is trusted, as
 * cAdvisor's reader), -ENOMEM.
 */
int cg_kparse_net_dev(const char *text, struct cg_net_if **ret, size_t *ret_n);

#endif
