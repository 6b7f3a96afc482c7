// SPDX-License-Identifier: MIT
/*
 * cgtop2's metric families and their two text expositions: OpenMetrics 1.0 and the Prometheus
 * text format 0.0.4. One table says each family's name, type, unit and where its value comes
 * from; the two writers differ only in the metadata lines.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render.h"
#include "text.h"
#include "base/cleanup.h"
#include "labels.h"
#include "kfamilies.h"
#include "metrics_cache.h"
#include "metrics_container.h"
#include "base/parse.h"

/* T_BARE_COUNTER: cAdvisor's container_memory_failcnt, a counter whose samples have no _total */
enum ftype { T_COUNTER, T_GAUGE, T_BARE_COUNTER };

/* by enum ftype; OpenMetrics has no counter without _total: that one is "unknown" there */
static const char *const type_names[] = { "counter", "gauge", "counter" };
static const char *const om_type_names[] = { "counter", "gauge", "unknown" };

/* Where a family's value comes from. */
enum vsrc {
	V_CPU_S, /* the base row's numbers */
	V_MEM,
	V_TASKS,
	V_IOR,
	V_IOW,
	V_PSI_SOME, /* psi[], a sample per resource */
	V_X, /* x[idx] */
	V_PSI_X, /* x value idx + resource (a double for the avg10), a sample per resource */
	V_DEV, /* iodevs[].io.v[idx], a sample per device */
	V_BLKIO, /* cAdvisor's: iodevs[] read and write bytes, a sample per device and operation */
	V_SEEN, /* the sample's wall-clock time */
};

/*
 * How a number is written. N_LIMIT0: a limit, 0 without one (cAdvisor's spec families);
 * N_SET: a limit, no sample without one (cAdvisor's container_spec_cpu_quota); N_SHARES: v1
 * cpu.shares as it is, or from x[alt], cpu.weight, cAdvisor's shares for it.
 */
enum vfmt { N_INT, N_NS, N_US, N_LIMIT, N_RATIO, N_LIMIT0, N_SET, N_SHARES };

struct family {
	const char *name; /* without a counter's _total */
	enum ftype type;
	const char *unit; /* OpenMetrics UNIT, or NULL */
	const char *help;
	enum vsrc src;
	int idx;
	enum vfmt fmt;
	const char *extra; /* labels every sample has before the cgroup's: "cpu=\"total\"," */
	int alt; /* V_X: x[alt] where x[idx] is unknown (v1's file for it); 0: none */
};

#define BASE(name, type, unit, help, src)                                                          \
	{                                                                                          \
		name, type, unit, help, src, 0, N_INT, NULL, 0                                     \
	}
#define X(name, type, unit, help, idx, fmt)                                                        \
	{                                                                                          \
		name, type, unit, help, V_X, idx, fmt, NULL, 0                                     \
	}
#define PSI(name, type, unit, help, idx, fmt)                                                      \
	{                                                                                          \
		name, type, unit, help, V_PSI_X, idx, fmt, NULL, 0                                 \
	}
#define DEV(name, unit, help, idx)                                                                 \
	{                                                                                          \
		name, T_COUNTER, unit, help, V_DEV, idx, N_INT, NULL, 0                            \
	}

/*
 * The base families come first and are always written (their metadata even without a
 * sample); the collectors' only when a row has a value for them. Names: cgroup_<area>_<what>
 * with the unit last, a counter's samples with _total.
 */
static const struct family families[] = {
	BASE("cgroup_cpu_usage_seconds", T_COUNTER, "seconds",
	     "CPU time used by the cgroup and its descendants", V_CPU_S),
	BASE("cgroup_memory_bytes", T_GAUGE, "bytes", "Memory charged to the cgroup", V_MEM),
	BASE("cgroup_tasks", T_GAUGE, NULL, "Tasks (threads) in the cgroup and its descendants",
	     V_TASKS),
	BASE("cgroup_io_read_bytes", T_COUNTER, "bytes", "Bytes read from block devices", V_IOR),
	BASE("cgroup_io_write_bytes", T_COUNTER, "bytes", "Bytes written to block devices", V_IOW),
	{ "cgroup_pressure_some_avg10_ratio", T_GAUGE, NULL,
	  "Share of the last 10 s in which some tasks stalled on the resource (PSI some avg10)",
	  V_PSI_SOME, 0, N_RATIO, NULL, 0 },
	/* cpu */
	X("cgroup_cpu_user_seconds", T_COUNTER, "seconds", "CPU time used in user mode",
	  CG_X_CPU_USER_NS, N_NS),
	X("cgroup_cpu_system_seconds", T_COUNTER, "seconds", "CPU time used in kernel mode",
	  CG_X_CPU_SYSTEM_NS, N_NS),
	X("cgroup_cpu_periods", T_COUNTER, NULL, "Enforcement periods of the CPU limit elapsed",
	  CG_X_CPU_PERIODS, N_INT),
	X("cgroup_cpu_throttled_periods", T_COUNTER, NULL,
	  "Enforcement periods in which the cgroup was throttled", CG_X_CPU_THROTTLED, N_INT),
	X("cgroup_cpu_throttled_seconds", T_COUNTER, "seconds",
	  "Time the tasks of the cgroup were throttled", CG_X_CPU_THROTTLED_NS, N_NS),
	/* memory */
	X("cgroup_memory_peak_bytes", T_GAUGE, "bytes", "Highest memory use recorded",
	  CG_X_MEM_PEAK, N_INT),
	X("cgroup_memory_anon_bytes", T_GAUGE, "bytes", "Anonymous memory (v1: total_rss)",
	  CG_X_MEM_ANON, N_INT),
	X("cgroup_memory_file_bytes", T_GAUGE, "bytes", "Page cache (v1: total_cache)",
	  CG_X_MEM_FILE, N_INT),
	X("cgroup_memory_kernel_bytes", T_GAUGE, "bytes",
	  "Kernel memory (v1: memory.kmem.usage_in_bytes)", CG_X_MEM_KERNEL, N_INT),
	X("cgroup_memory_shmem_bytes", T_GAUGE, "bytes",
	  "Shared memory and tmpfs (v1: total_shmem)", CG_X_MEM_SHMEM, N_INT),
	X("cgroup_memory_slab_bytes", T_GAUGE, "bytes", "Kernel slab memory", CG_X_MEM_SLAB, N_INT),
	X("cgroup_memory_sock_bytes", T_GAUGE, "bytes", "Network socket buffers", CG_X_MEM_SOCK,
	  N_INT),
	X("cgroup_memory_working_set_bytes", T_GAUGE, "bytes",
	  "Memory in use minus inactive page cache, as cAdvisor counts it", CG_X_MEM_WORKING_SET,
	  N_INT),
	X("cgroup_memory_swap_bytes", T_GAUGE, "bytes",
	  "Swap used (v1: memory.memsw.usage_in_bytes minus usage_in_bytes)", CG_X_MEM_SWAP, N_INT),
	X("cgroup_memory_max_bytes", T_GAUGE, "bytes",
	  "Memory limit, memory.max (v1: limit_in_bytes); +Inf without one", CG_X_MEM_MAX, N_LIMIT),
	X("cgroup_memory_high_bytes", T_GAUGE, "bytes", "Memory throttling limit, memory.high",
	  CG_X_MEM_HIGH, N_LIMIT),
	X("cgroup_memory_low_bytes", T_GAUGE, "bytes", "Best-effort memory protection, memory.low",
	  CG_X_MEM_LOW, N_LIMIT),
	X("cgroup_memory_min_bytes", T_GAUGE, "bytes", "Hard memory protection, memory.min",
	  CG_X_MEM_MIN, N_LIMIT),
	X("cgroup_memory_swap_max_bytes", T_GAUGE, "bytes", "Swap limit; +Inf without one",
	  CG_X_MEM_SWAP_MAX, N_LIMIT),
	X("cgroup_memory_soft_limit_bytes", T_GAUGE, "bytes",
	  "Memory soft limit, v1 memory.soft_limit_in_bytes; +Inf without one", CG_X_MEM_SOFT_LIMIT,
	  N_LIMIT),
	X("cgroup_memory_memsw_max_bytes", T_GAUGE, "bytes",
	  "Memory plus swap limit, v1 memory.memsw.limit_in_bytes; +Inf without one",
	  CG_X_MEM_MEMSW_MAX, N_LIMIT),
	X("cgroup_memory_low_events", T_COUNTER, NULL,
	  "Times memory was reclaimed below memory.low under pressure", CG_X_MEM_EV_LOW, N_INT),
	X("cgroup_memory_high_events", T_COUNTER, NULL,
	  "Times the cgroup was throttled and reclaimed above memory.high", CG_X_MEM_EV_HIGH,
	  N_INT),
	X("cgroup_memory_max_events", T_COUNTER, NULL,
	  "Times memory use was about to go over the limit (v1: failcnt)", CG_X_MEM_EV_MAX, N_INT),
	X("cgroup_memory_oom_events", T_COUNTER, NULL,
	  "Times the memory use of the cgroup reached the limit and allocations failed",
	  CG_X_MEM_EV_OOM, N_INT),
	X("cgroup_memory_oom_kill_events", T_COUNTER, NULL,
	  "Processes of the cgroup killed by the OOM killer", CG_X_MEM_EV_OOM_KILL, N_INT),
	X("cgroup_memory_oom_group_kill_events", T_COUNTER, NULL,
	  "Times the whole cgroup was killed by the OOM killer", CG_X_MEM_EV_OOM_GROUP_KILL, N_INT),
	X("cgroup_memory_under_oom", T_GAUGE, NULL,
	  "1 while the cgroup is under OOM (v1 memory.oom_control)", CG_X_MEM_UNDER_OOM, N_INT),
	/* io */
	X("cgroup_io_read_ops", T_COUNTER, NULL, "Read operations on block devices", CG_X_IO_RIOS,
	  N_INT),
	X("cgroup_io_write_ops", T_COUNTER, NULL, "Write operations on block devices", CG_X_IO_WIOS,
	  N_INT),
	X("cgroup_io_discard_bytes", T_COUNTER, "bytes", "Bytes discarded on block devices",
	  CG_X_IO_DBYTES, N_INT),
	X("cgroup_io_discard_ops", T_COUNTER, NULL, "Discard operations on block devices",
	  CG_X_IO_DIOS, N_INT),
	/* iodevice */
	DEV("cgroup_io_device_read_bytes", "bytes", "Bytes read from the device", CG_IO_RBYTES),
	DEV("cgroup_io_device_write_bytes", "bytes", "Bytes written to the device", CG_IO_WBYTES),
	DEV("cgroup_io_device_read_ops", NULL, "Read operations on the device", CG_IO_RIOS),
	DEV("cgroup_io_device_write_ops", NULL, "Write operations on the device", CG_IO_WIOS),
	DEV("cgroup_io_device_discard_bytes", "bytes", "Bytes discarded on the device",
	    CG_IO_DBYTES),
	DEV("cgroup_io_device_discard_ops", NULL, "Discard operations on the device", CG_IO_DIOS),
	/* pids */
	X("cgroup_pids_max", T_GAUGE, NULL, "Limit of tasks, pids.max; +Inf without one",
	  CG_X_PIDS_MAX, N_LIMIT),
	X("cgroup_pids_max_events", T_COUNTER, NULL, "Forks refused by pids.max", CG_X_PIDS_EV_MAX,
	  N_INT),
	/* psi */
	PSI("cgroup_pressure_full_avg10_ratio", T_GAUGE, NULL,
	    "Share of the last 10 s in which all non-idle tasks stalled on the resource (PSI full avg10)",
	    CG_X_PSI_FULL_AVG10, N_RATIO),
	PSI("cgroup_pressure_some_seconds", T_COUNTER, "seconds",
	    "Time in which some tasks stalled on the resource (PSI some total)", CG_X_PSI_SOME_US,
	    N_US),
	PSI("cgroup_pressure_full_seconds", T_COUNTER, "seconds",
	    "Time in which all non-idle tasks stalled on the resource (PSI full total)",
	    CG_X_PSI_FULL_US, N_US),
};

/* -P and -k count processes: another gauge, so that a series never changes its meaning */
static const struct family processes[] = {
	[CG_COUNT_PROCESSES] =
		BASE("cgroup_processes", T_GAUGE, NULL,
		     "Processes (each counts once) and kernel threads in the cgroup", V_TASKS),
	[CG_COUNT_USER_PROCESSES] =
		BASE("cgroup_user_processes", T_GAUGE, NULL,
		     "Processes (each counts once, no kernel threads) in the cgroup", V_TASKS),
};

/*
 * Numbers are the bulk of an exposition (16,000 lines at 1,000 cgroups): written by hand, not
 * through vsnprintf, which took a third of a scrape's CPU. The text is printf's, digit for digit.
 */
static void put_u64(struct out *o, uint64_t v)
{
	char buf[CG_U64_LEN], *p = cg_format_u64(buf, v);

	out_put(o, p, (size_t)(buf + sizeof(buf) - p));
}

/* v, which is below 10^digits, as a '.' and exactly that many digits */
static void put_frac(struct out *o, uint64_t v, int digits)
{
	char buf[16];

	buf[0] = '.';
	for (int i = digits; i > 0; i--) {
		buf[i] = (char)('0' + v % 10);
		v /= 10;
	}
	out_put(o, buf, (size_t)digits + 1);
}

static void put_num(struct out *o, enum vfmt fmt, uint64_t v)
{
	switch (fmt) {
	case N_NS:
		put_u64(o, v / NSEC_PER_SEC);
		put_frac(o, v % NSEC_PER_SEC, 9);
		break;
	case N_US:
		put_u64(o, v / 1000000);
		put_frac(o, v % 1000000, 6);
		break;
	case N_LIMIT:
		if (v == CG_UNLIMITED) {
			out_put(o, "+Inf", 4);
			break;
		}
		put_u64(o, v);
		break;
	case N_LIMIT0:
		put_u64(o, v == CG_UNLIMITED ? 0 : v);
		break;
	default:
		put_u64(o, v);
		break;
	}
}

/* A PSI share as "%.4f"; an idle cgroup's 0, most of them, without printf. */
static void put_ratio(struct out *o, double pct)
{
	if (pct == 0 && !signbit(pct))
		out_put(o, "0.0000", 6);
	else
		out_printf(o, "%.4f", pct / 100.0);
}

/*
 * --compat=cadvisor: cAdvisor's families (its metrics/prometheus.go) for what cgkit reads,
 * with its names, types, units and help. Its spec families say 0 for no limit; its label of a
 * cgroup is id. What cgkit cannot know (image, container_label_*, the kubelet's pod and
 * namespace names) is not made up: man cgtop2, CADVISOR COMPATIBILITY.
 */
/* cAdvisor's PSI families: a pair a resource, some ("waiting") and full ("stalled") */
#define CADVISOR_PSI(res, what, r)                                                                 \
	X("container_pressure_" res "_waiting_seconds", T_COUNTER, "seconds",                      \
	  "Total time duration tasks in the container have waited due to " what " congestion",     \
	  CG_X_PSI_SOME_US + (r), N_US),                                                           \
		X("container_pressure_" res "_stalled_seconds", T_COUNTER, "seconds",              \
		  "Total time duration no tasks in the container could make progress due to " what \
		  " congestion",                                                                   \
		  CG_X_PSI_FULL_US + (r), N_US)

static const struct family cadvisor[] = {
	{ "container_cpu_usage_seconds", T_COUNTER, "seconds",
	  "Cumulative cpu time consumed in seconds", V_CPU_S, 0, N_NS, "cpu=\"total\",", 0 },
	X("container_cpu_user_seconds", T_COUNTER, "seconds",
	  "Cumulative user cpu time consumed in seconds", CG_X_CPU_USER_NS, N_NS),
	X("container_cpu_system_seconds", T_COUNTER, "seconds",
	  "Cumulative system cpu time consumed in seconds", CG_X_CPU_SYSTEM_NS, N_NS),
	X("container_cpu_cfs_periods", T_COUNTER, NULL,
	  "Number of elapsed enforcement period intervals", CG_X_CPU_PERIODS, N_INT),
	X("container_cpu_cfs_throttled_periods", T_COUNTER, NULL,
	  "Number of throttled period intervals", CG_X_CPU_THROTTLED, N_INT),
	X("container_cpu_cfs_throttled_seconds", T_COUNTER, "seconds",
	  "Total time duration the container has been throttled", CG_X_CPU_THROTTLED_NS, N_NS),
	BASE("container_memory_usage_bytes", T_GAUGE, "bytes",
	     "Current memory usage in bytes, including all memory regardless of when it was accessed",
	     V_MEM),
	X("container_memory_working_set_bytes", T_GAUGE, "bytes", "Current working set in bytes",
	  CG_X_MEM_WORKING_SET, N_INT),
	X("container_memory_rss", T_GAUGE, NULL, "Size of RSS in bytes", CG_X_MEM_ANON, N_INT),
	X("container_memory_cache", T_GAUGE, NULL, "Number of bytes of page cache memory",
	  CG_X_MEM_FILE, N_INT),
	X("container_memory_swap", T_GAUGE, NULL, "Container swap usage in bytes", CG_X_MEM_SWAP,
	  N_INT),
	X("container_memory_mapped_file", T_GAUGE, NULL, "Size of memory mapped files in bytes",
	  CG_X_MEM_MAPPED_FILE, N_INT),
	X("container_memory_kernel_usage", T_GAUGE, NULL,
	  "Size of kernel memory allocated in bytes", CG_X_MEM_KERNEL, N_INT),
	X("container_memory_max_usage_bytes", T_GAUGE, "bytes",
	  "Maximum memory usage recorded in bytes", CG_X_MEM_PEAK, N_INT),
	X("container_memory_failcnt", T_BARE_COUNTER, NULL, "Number of memory usage hits limits",
	  CG_X_MEM_EV_MAX, N_INT),
	X("container_oom_events", T_COUNTER, NULL,
	  "Count of out of memory events observed for the container", CG_X_MEM_EV_OOM_KILL, N_INT),
	X("container_spec_memory_limit_bytes", T_GAUGE, "bytes", "Memory limit for the container",
	  CG_X_MEM_MAX, N_LIMIT0),
	{ "container_spec_memory_swap_limit_bytes", T_GAUGE, "bytes",
	  "Memory swap limit for the container", V_X, CG_X_MEM_SWAP_MAX, N_LIMIT0, NULL,
	  CG_X_MEM_MEMSW_MAX },
	{ "container_spec_memory_reservation_limit_bytes", T_GAUGE, "bytes",
	  "Memory reservation limit for the container", V_X, CG_X_MEM_MIN, N_LIMIT0, NULL,
	  CG_X_MEM_SOFT_LIMIT },
	X("container_spec_cpu_period", T_GAUGE, NULL, "CPU period of the container",
	  CG_X_CPU_PERIOD, N_INT),
	X("container_spec_cpu_quota", T_GAUGE, NULL, "CPU quota of the container", CG_X_CPU_QUOTA,
	  N_SET),
	{ "container_spec_cpu_shares", T_GAUGE, NULL, "CPU share of the container", V_X,
	  CG_X_CPU_SHARES, N_SHARES, NULL, CG_X_CPU_WEIGHT },
	BASE("container_threads", T_GAUGE, NULL, "Number of threads running inside the container",
	     V_TASKS),
	X("container_threads_max", T_GAUGE, NULL,
	  "Maximum number of threads allowed inside the container, infinity if value is zero",
	  CG_X_PIDS_MAX, N_LIMIT0),
	{ "container_blkio_device_usage", T_COUNTER, NULL, "Blkio Device bytes usage", V_BLKIO, 0,
	  N_INT, NULL, 0 },
	CADVISOR_PSI("cpu", "CPU", CG_PSI_CPU),
	CADVISOR_PSI("memory", "memory", CG_PSI_MEMORY),
	CADVISOR_PSI("io", "IO", CG_PSI_IO),
	BASE("container_last_seen", T_GAUGE, NULL, "Last time a container was seen by the exporter",
	     V_SEEN),
};

/* cAdvisor counts processes in another family than threads (-P and -k) */
static const struct family cadvisor_processes =
	BASE("container_processes", T_GAUGE, NULL,
	     "Number of processes running inside the container", V_TASKS);

/* V_BLKIO's label set j: device j / 2, cAdvisor's operation j % 2 */
static const char *const blkio_ops[] = { "Read", "Write" };
static const int blkio_idx[] = { CG_IO_RBYTES, CG_IO_WBYTES };

/* The x[] index V_X reads in row r: idx, or alt where idx is unknown. */
static int x_index(const struct family *f, const struct cg_stat_row *r)
{
	if (f->alt && !(r->x_have & (1ull << f->idx)))
		return f->alt;
	return f->idx;
}

/* Whether row r has family f's value for label set j (a resource, a device), and writes it. */
static bool has_value(const struct family *f, const struct cg_stat_row *r, size_t j)
{
	switch (f->src) {
	case V_CPU_S:
		return r->have & CG_STAT_CPU;
	case V_MEM:
		return r->have & CG_STAT_MEMORY;
	case V_TASKS:
		return r->have & CG_STAT_TASKS;
	case V_IOR:
	case V_IOW:
		return r->have & CG_STAT_IO;
	case V_PSI_SOME:
		return r->have & (CG_STAT_PSI_CPU << j);
	case V_X:
		return (r->x_have & (1ull << x_index(f, r))) &&
		       !(f->fmt == N_SET && cg_stat_x(r, f->idx) == CG_UNLIMITED);
	case V_PSI_X:
		return r->x_have & (1ull << (f->idx + (int)j));
	case V_DEV:
		return j < r->n_iodevs && (r->iodevs[j].io.have & (1u << f->idx));
	case V_BLKIO:
		return j / 2 < r->n_iodevs && (r->iodevs[j / 2].io.have & (1u << blkio_idx[j % 2]));
	case V_SEEN:
		return true;
	}
	return false;
}

/*
 * cAdvisor's shares for a cgroup2 cpu.weight: 1..10000 onto 2..262144 in a straight line
 * (its GetSpec), not the kernel's inverse of its own mapping, so that the figure is cAdvisor's.
 */
static uint64_t cadvisor_shares(uint64_t weight)
{
	if (weight < 1 || weight > 10000)
		return 0;
	return 2 + (weight - 1) * 262142 / 9999;
}

static void put_value(struct out *o, const struct family *f, const struct cg_stat_row *r, size_t j,
		      const struct view *v)
{
	switch (f->src) {
	case V_CPU_S:
		put_num(o, N_NS, r->cpu_ns);
		break;
	case V_MEM:
		put_num(o, N_INT, r->memory);
		break;
	case V_TASKS:
		put_num(o, N_INT, r->tasks);
		break;
	case V_IOR:
		put_num(o, N_INT, r->io_read);
		break;
	case V_IOW:
		put_num(o, N_INT, r->io_write);
		break;
	case V_PSI_SOME:
		put_ratio(o, r->psi[j]);
		break;
	case V_X:
		if (f->fmt == N_SHARES && x_index(f, r) == f->alt)
			put_u64(o, cadvisor_shares(cg_stat_x(r, f->alt)));
		else
			put_num(o, f->fmt, cg_stat_x(r, x_index(f, r)));
		break;
	case V_PSI_X:
		if (f->fmt == N_RATIO)
			put_ratio(o, cg_stat_xd(r, CG_X_PSI_FULL_AVG10 + j));
		else
			put_num(o, f->fmt, cg_stat_x(r, f->idx + (int)j));
		break;
	case V_DEV:
		put_num(o, N_INT, r->iodevs[j].io.v[f->idx]);
		break;
	case V_BLKIO:
		put_num(o, N_INT, r->iodevs[j / 2].io.v[blkio_idx[j % 2]]);
		break;
	case V_SEEN:
		/* cAdvisor's whole seconds */
		put_u64(o, view_wall_ns(v) / NSEC_PER_SEC);
		break;
	}
}

/* Label sets of family f in row r: one, a resource each, a device each, or two a device. */
static size_t label_sets(const struct family *f, const struct cg_stat_row *r)
{
	if (f->src == V_PSI_SOME || f->src == V_PSI_X)
		return CG_PSI_N;
	if (f->src == V_BLKIO)
		return 2 * r->n_iodevs;
	return f->src == V_DEV ? r->n_iodevs : 1;
}

/* The collector family f belongs to, for ?collect[]=: -1 for those always written. */
static int family_collector(const struct family *f)
{
	switch (f->src) {
	case V_CPU_S:
		return CG_COLL_CPU;
	case V_MEM:
		return CG_COLL_MEMORY;
	case V_IOR:
	case V_IOW:
		return CG_COLL_IO;
	case V_PSI_SOME:
	case V_PSI_X:
		return CG_COLL_PSI;
	case V_DEV:
	case V_BLKIO:
		return CG_COLL_IODEVICE;
	case V_TASKS:
	case V_SEEN:
		return -1;
	case V_X:
		break;
	}
	if (f->idx <= CG_X_CPU_THROTTLED_NS)
		return CG_COLL_CPU;
	if (f->idx <= CG_X_MEM_MEMSW_MAX)
		return CG_COLL_MEMORY;
	if (f->idx <= CG_X_IO_DIOS)
		return CG_COLL_IO;
	if (f->idx <= CG_X_PIDS_EV_MAX)
		return CG_COLL_PIDS;
	/* cAdvisor's CPU spec families, of the limits collector, are the CPU area's for collect[] */
	if (f->idx <= CG_X_CPU_SHARES)
		return CG_COLL_CPU;
	return CG_COLL_PSI;
}

/*
 * The metadata of a family. OpenMetrics names the family (a counter's samples add _total) and
 * gives its unit; the Prometheus text format names the sample itself and has no UNIT line.
 */
static void header(struct out *o, bool prom, const struct family *f)
{
	const char *total = f->type == T_COUNTER ? "_total" : "";

	if (prom) {
		out_printf(o, "# HELP %s%s %s.\n", f->name, total, f->help);
		out_printf(o, "# TYPE %s%s %s\n", f->name, total, type_names[f->type]);
		return;
	}
	out_printf(o, "# TYPE %s %s\n", f->name, om_type_names[f->type]);
	if (f->unit)
		out_printf(o, "# UNIT %s %s\n", f->name, f->unit);
	out_printf(o, "# HELP %s %s.\n", f->name, f->help);
}

void metrics_header(struct out *o, bool prom, const char *name, bool counter, const char *unit,
		    const char *help)
{
	const struct family f = {
		name, counter ? T_COUNTER : T_GAUGE, unit, help, V_TASKS, 0, N_INT, NULL, 0
	};

	header(o, prom, &f);
}

/* Whether any row has a value of collector family f (has_value's bits, over all rows). */
static bool family_present(const struct family *f, const struct labels *l)
{
	if (f->src == V_DEV)
		return l->dev_have & (1u << f->idx);
	if (f->src == V_BLKIO)
		return l->dev_have & ((1u << CG_IO_RBYTES) | (1u << CG_IO_WBYTES));
	if (f->src == V_SEEN)
		return true;
	if (f->src == V_PSI_X) {
		for (int j = 0; j < CG_PSI_N; j++)
			if (l->x_have & (1ull << (f->idx + j)))
				return true;
		return false;
	}
	return (l->x_have & (1ull << f->idx)) || (f->alt && (l->x_have & (1ull << f->alt)));
}

/* A family's sample name and the start of its cgroup label, as written before each value. */
struct prefix {
	char s[160];
	size_t len;
};

static void prefix_make(struct prefix *p, const struct family *f, bool cadv)
{
	int n = snprintf(p->s, sizeof(p->s), "%s%s{%s%s=\"", f->name,
			 f->type == T_COUNTER ? "_total" : "", f->extra ? f->extra : "",
			 cadv ? "id" : "cgroup");

	p->len = n > 0 && (size_t)n < sizeof(p->s) ? (size_t)n : 0;
}

/*
 * The sample's name and labels up to the cgroup's, row i of v; own: a name among the sample's
 * own labels (a device's, a thread's), or NULL. Returns whether the values are the table's text.
 */
static bool sample_start(struct out *o, const struct prefix *p, const struct labels *l,
			 const struct view *v, size_t i, const char *own)
{
	bool esc;

	out_put(o, p->s, p->len);
	esc = labels_put(o, l, v, i, own);
	out_put(o, "\"", 1);
	return esc;
}

/* A device's labels: cgkit's device and devname, or cAdvisor's device, major, minor, operation. */
static void device_labels(struct out *o, const struct family *f, const struct cg_stat_iodev *d,
			  size_t j, bool esc)
{
	if (f->src == V_BLKIO) {
		out_printf(o, ",device=\"%s", d->name[0] ? "/dev/" : "");
		put_label_value(o, d->name, esc);
		out_printf(o, "\",major=\"%u\",minor=\"%u\",operation=\"%s\"", d->io.major,
			   d->io.minor, blkio_ops[j % 2]);
	} else {
		out_printf(o, ",device=\"%u:%u\",devname=\"", d->io.major, d->io.minor);
		put_label_value(o, d->name, esc);
		out_put(o, "\"", 1);
	}
	labels_end(o, esc);
}

/* Row i's lines of family f (of its resource p for a PSI family). */
static void row_lines(struct out *o, const struct family *f, const struct view *v,
		      const struct labels *l, size_t i, size_t p, const struct prefix *pre)
{
	static const char *const psi_labels[CG_PSI_N] = {
		",resource=\"cpu\"",
		",resource=\"memory\"",
		",resource=\"io\"",
	};
	bool psi = f->src == V_PSI_SOME || f->src == V_PSI_X;
	const struct cg_stat_row *r = v->rows[i];

	for (size_t j = psi ? p : 0; j < (psi ? p + 1 : label_sets(f, r)); j++) {
		const struct cg_stat_iodev *d = NULL;
		bool esc;

		if (!has_value(f, r, j))
			continue;
		if (f->src == V_DEV || f->src == V_BLKIO)
			d = &r->iodevs[f->src == V_DEV ? j : j / 2];
		esc = sample_start(o, pre, l, v, i, d ? d->name : NULL);
		if (d) {
			device_labels(o, f, d, j, esc);
		} else {
			if (psi)
				out_put(o, psi_labels[j], strlen(psi_labels[j]));
			labels_end(o, esc);
		}
		put_value(o, f, r, j, v);
		out_put(o, "\n", 1);
		out_maybe_flush(o);
	}
}

static size_t passes(const struct family *f)
{
	return f->src == V_PSI_SOME || f->src == V_PSI_X ? CG_PSI_N : 1;
}

/* With c, the rows' kept lines from segment k on (V_SEEN's, the time, are written each time). */
static void family(struct out *o, bool prom, const struct family *f, const struct view *v,
		   const struct labels *l, struct metrics_cache *c, size_t k)
{
	int coll = family_collector(f);
	struct prefix pre;

	/* a collector's family without a single value (the collector is off) is left out */
	if (f->src >= V_X && !family_present(f, l))
		return;
	/* ?collect[]= names the collectors to write */
	if (v->collect && coll >= 0 && !(v->collect & (1u << coll)))
		return;
	header(o, prom, f);
	prefix_make(&pre, f, l->cadv);
	/* the resources one after the other, as the base family always wrote them */
	for (size_t p = 0; p < passes(f); p++)
		for (size_t i = 0; i < v->n; i++)
			if (c && f->src != V_SEEN)
				metrics_cache_put(o, c, i, k + p);
			else
				row_lines(o, f, v, l, i, p, &pre);
}

/*
 * The series row r writes in a scrape without ?collect[]= (family()'s and threads()'s lines),
 * for --max-series (series.c).
 */
size_t metrics_row_series(const struct render_opts *a, const struct cg_stat_row *r)
{
	bool cadv = a->compat == COMPAT_CADVISOR;
	const struct family *table = cadv ? cadvisor : families;
	size_t n = cadv ? ARRAY_SIZE(cadvisor) : ARRAY_SIZE(families), k = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < label_sets(&table[i], r); j++)
			k += has_value(&table[i], r, j);
	if (a->threads && (r->have & CG_STAT_THREADED))
		k += r->n_threads;
	return k + metrics_kstats_series(r) + metrics_container_series(a, r);
}

/* With -H: a counter per thread of a threaded cgroup, labelled with its tid and comm. */
static const struct family thread_family =
	BASE("cgroup_thread_cpu_usage_seconds", T_COUNTER, "seconds",
	     "CPU time used by a thread of a threaded cgroup", V_CPU_S);

static void thread_lines(struct out *o, const struct view *v, const struct labels *l, size_t i,
			 const struct prefix *pre)
{
	const struct cg_stat_row *r = v->rows[i];
	double hz = (double)sysconf(_SC_CLK_TCK);

	for (size_t t = 0; (r->have & CG_STAT_THREADED) && t < r->n_threads; t++) {
		bool esc = sample_start(o, pre, l, v, i, r->threads[t].comm);

		out_printf(o, ",tid=\"%d\",comm=\"", (int)r->threads[t].tid);
		put_label_value(o, r->threads[t].comm, esc);
		out_put(o, "\"", 1);
		labels_end(o, esc);
		out_printf(o, "%.2f\n", (double)r->threads[t].ticks / (hz > 0 ? hz : 100));
		out_maybe_flush(o);
	}
}

static void threads(struct out *o, bool prom, const struct view *v, const struct labels *l,
		    struct metrics_cache *c, size_t k)
{
	struct prefix pre;

	header(o, prom, &thread_family);
	prefix_make(&pre, &thread_family, l->cadv);
	for (size_t i = 0; i < v->n; i++)
		if (c)
			metrics_cache_put(o, c, i, k);
		else
			thread_lines(o, v, l, i, &pre);
}

/* The family of table entry f, as -P and -k have it. */
static const struct family *family_of(const struct render_opts *a, const struct family *f)
{
	if (f->src == V_TASKS && a->count != CG_COUNT_TASKS)
		return a->compat == COMPAT_CADVISOR ? &cadvisor_processes : &processes[a->count];
	return f;
}

/*
 * The lines of the rows c holds no text of, in c: a segment a family and resource, then with
 * -H the threads', then the kernel's statistics' and the network and fs families' of the row.
 */
static void cache_rows(struct metrics_cache *c, const struct render_opts *a, const struct view *v,
		       const struct labels *l, const struct cg_net_ns *const *ns,
		       const struct family *table, size_t n)
{
	struct prefix pre[ARRAY_SIZE(cadvisor) > ARRAY_SIZE(families) ? ARRAY_SIZE(cadvisor)
								      : ARRAY_SIZE(families)],
		tpre;

	for (size_t fi = 0; fi < n; fi++)
		prefix_make(&pre[fi], family_of(a, &table[fi]), l->cadv);
	prefix_make(&tpre, &thread_family, l->cadv);
	for (size_t i = 0; i < v->n; i++) {
		struct out *t = metrics_cache_stale(c, i);

		if (!t)
			continue;
		for (size_t fi = 0; fi < n; fi++) {
			const struct family *f = family_of(a, &table[fi]);

			for (size_t p = 0; p < passes(f); p++) {
				if (f->src != V_SEEN)
					row_lines(t, f, v, l, i, p, &pre[fi]);
				metrics_cache_cut(c, i);
			}
		}
		if (a->threads) {
			thread_lines(t, v, l, i, &tpre);
			metrics_cache_cut(c, i);
		}
		metrics_kstats_row(t, c, v, l, i);
		metrics_container_row(t, c, a, v, l, ns, i);
		metrics_cache_keep(c, i);
	}
}

/* The x[] values table's families write (x_index's idx and alt, a PSI family's resources). */
static uint64_t x_written(const struct family *table, size_t n)
{
	uint64_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (table[i].src == V_X)
			m |= 1ull << table[i].idx | (table[i].alt ? 1ull << table[i].alt : 0);
		else if (table[i].src == V_PSI_X)
			for (int j = 0; j < CG_PSI_N; j++)
				m |= 1ull << (table[i].idx + j);
	}
	return m;
}

void metrics_cgroups(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
		     struct metrics_cache *c)
{
	bool cadv = a->compat == COMPAT_CADVISOR;
	const struct family *table = cadv ? cadvisor : families;
	size_t n = cadv ? ARRAY_SIZE(cadvisor) : ARRAY_SIZE(families), k = 0;
	_cleanup_free_ const struct cg_net_ns **ns = metrics_net_owners(v);
	struct labels l;

	labels_make(&l, v, cadv);
	if (c && !metrics_cache_begin(c, v, &l, x_written(table, n), ns,
				      (unsigned)cadv | (unsigned)a->count << 1 |
					      (unsigned)a->threads << 3))
		c = NULL;
	if (c)
		cache_rows(c, a, v, &l, ns, table, n);
	for (size_t i = 0; i < n; i++) {
		const struct family *f = family_of(a, &table[i]);

		family(o, prom, f, v, &l, c, k);
		k += passes(f);
	}
	/* the kept segments: the threads' (-H), then each row's statistics' and network's */
	metrics_kstats(o, prom, v, &l, c, k + a->threads);
	metrics_container(o, prom, a, v, &l, ns, c, k + a->threads);
	if (a->threads)
		threads(o, prom, v, &l, c, k);
	labels_free(&l);
}
