// SPDX-License-Identifier: MIT
/*
 * The sampler's collectors (cg_stats_opts.collectors): CPU user/system and throttling, memory
 * detail, limits and events, IO operations and devices, pids limit and events, PSI totals and
 * averages.
 * Each value comes from the first source that has it, cgroup2 before v1; the files a collector
 * alone reads are opened only while it is on, on the node's kept fds like the base files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/kparse.h"
#include "stats_collect.h"
#include "stats.h"
#include "stats_defs.h"
#include "stats_kstat.h"
#include "stats_limits.h"
#include "stats_read.h"
#include "stats_state.h"
#include "stats_tree.h"

const char *const cg_collector_names[CG_COLL_N] = {
	[CG_COLL_CPU] = "cpu",		 [CG_COLL_MEMORY] = "memory", [CG_COLL_IO] = "io",
	[CG_COLL_IODEVICE] = "iodevice", [CG_COLL_PIDS] = "pids",     [CG_COLL_PSI] = "psi",
	[CG_COLL_LIMITS] = "limits",
};

/* The collector of one of the collectors' own kinds (-1: none). */
static int st_kind_collector(int k)
{
	switch (k) {
	case F_X_CPUACCT_STAT:
	case F_X_CPU_V1_STAT:
	case F_X_CPUACCT_PERCPU:
		return CG_COLL_CPU;
	case F_X_BLKIO_SERVICED:
	case F_X_BFQ_SERVICED:
		return CG_COLL_IO;
	case F_X_PIDS_MAX:
	case F_X_PIDS_EVENTS:
	case F_X_PIDS_V1_MAX:
	case F_X_PIDS_V1_EVENTS:
	case F_X_CGROUP_STAT:
	case F_X_PIDS_PEAK:
	case F_X_PIDS_V1_PEAK:
	case F_X_PIDS_EVENTS_LOCAL:
	case F_X_MISC_CURRENT:
	case F_X_MISC_EVENTS:
		return CG_COLL_PIDS;
	case F_X_MEM_EVENTS_LOCAL:
	case F_X_MEM_SWAP_EVENTS:
	case F_X_MEM_ZSWAP:
	case F_X_MEM_V1_MEMSW_PEAK:
	case F_X_HUGETLB_2MB:
	case F_X_HUGETLB_2MB_EVENTS:
	case F_X_HUGETLB_1GB:
	case F_X_HUGETLB_1GB_EVENTS:
		return CG_COLL_MEMORY;
	case F_X_CPU_STAT_LOCAL:
		return CG_COLL_CPU;
	case F_X_IRQ_PRESSURE:
		return CG_COLL_PSI;
	default:
		if (k >= F_X_CPU_MAX && k < F_N)
			return CG_COLL_LIMITS;
		return k >= F_X_MEM_STAT && k <= F_X_MEM_V1_OOM ? CG_COLL_MEMORY : -1;
	}
}

static bool on(const struct cg_stats *s, int c)
{
	return s->collectors & (1u << c);
}

/* The memory and pids limits: their collectors' files, which the limits collector reads too. */
static const struct {
	int kind, idx;
	bool v1;
} limit_files[] = {
	{ F_X_MEM_MAX, CG_X_MEM_MAX, false },
	{ F_X_MEM_HIGH, CG_X_MEM_HIGH, false },
	{ F_X_MEM_LOW, CG_X_MEM_LOW, false },
	{ F_X_MEM_MIN, CG_X_MEM_MIN, false },
	{ F_X_MEM_SWAP_MAX, CG_X_MEM_SWAP_MAX, false },
	{ F_X_MEM_V1_LIMIT, CG_X_MEM_MAX, true },
	{ F_X_MEM_V1_SOFT, CG_X_MEM_SOFT_LIMIT, true },
	{ F_X_MEM_V1_MEMSW_LIMIT, CG_X_MEM_MEMSW_MAX, true },
	{ F_X_PIDS_MAX, CG_X_PIDS_MAX, false },
	{ F_X_PIDS_V1_MAX, CG_X_PIDS_MAX, false },
};

/* A kind is read while its collector is on, a limit's also while the limits collector is. */
static bool kind_on(const struct cg_stats *s, int k)
{
	if (on(s, st_kind_collector(k)))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(limit_files) && on(s, CG_COLL_LIMITS); i++)
		if (limit_files[i].kind == k)
			return true;
	return false;
}

static bool known(const struct cg_stat_row *r, int i)
{
	return cg_stat_x_known(r, i);
}

/* without memory for it, the value stays unknown: so it is shown */
static void set_x(struct cg_stat_row *r, int i, uint64_t v)
{
	(void)cg_stat_x_set(r, i, v);
}

void st_collect_reset(struct cg_stat_row *row)
{
	row->x_have = 0;
	memset(row->k_have, 0, sizeof(row->k_have));
	row->n_iodevs = 0;
	row->n_percpu = 0;
}

/* The limits of a collector turned off are unknown from now on. */
static void limits_forget(struct cg_stats *s, struct node *n)
{
	if (on(s, CG_COLL_LIMITS))
		return;
	st_row_limits_free(&n->row);
	n->limits_t = 0;
	n->limits_have = 0;
}

/*
 * keys[i] of text into x[idx[i]], times mult[i] (0 counts as 1); a value that would wrap is an
 * error, as is text that does not parse.
 */
static void take_keys(struct cg_stats *s, struct cg_stat_row *r, int coll, const char *text,
		      const char *const *keys, const int *idx, const uint64_t *mult, size_t n)
{
	uint64_t v[16], found;

	if (cg_kparse_keys(text, keys, n, v, &found) < 0) {
		s->coll_errors[coll]++;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t m = mult && mult[i] ? mult[i] : 1;

		if (!(found & (1ull << i)) || known(r, idx[i]))
			continue;
		if (v[i] > UINT64_MAX / m) {
			s->coll_errors[coll]++;
			continue;
		}
		set_x(r, idx[i], v[i] * m);
	}
}

/* cgroup2 cpu.stat: the base read it for usage_usec */
static void cpu_stat_v2(struct cg_stats *s, struct cg_stat_row *r, const char *text)
{
	static const char *const keys[] = { "user_usec", "system_usec", "nr_periods",
					    "nr_throttled", "throttled_usec" };
	static const int idx[] = { CG_X_CPU_USER_NS, CG_X_CPU_SYSTEM_NS, CG_X_CPU_PERIODS,
				   CG_X_CPU_THROTTLED, CG_X_CPU_THROTTLED_NS };
	static const uint64_t mult[] = { 1000, 1000, 1, 1, 1000 };

	take_keys(s, r, CG_COLL_CPU, text, keys, idx, mult, ARRAY_SIZE(keys));
}

/* A PSI average of resource p, a double in x. */
static void set_avg(struct cg_stat_row *r, enum cg_psi_avg a, int p, double v)
{
	(void)cg_stat_xd_set(r, CG_X_PSI_AVG + (int)a * CG_PSI_N + p, v);
}

static void psi_totals(struct cg_stats *s, struct cg_stat_row *r, int p, const char *text)
{
	struct cg_psi psi;

	if (cg_kparse_psi(text, &psi) < 0) {
		s->coll_errors[CG_COLL_PSI]++;
		return;
	}
	set_x(r, CG_X_PSI_SOME_US + p, psi.some_total_us);
	set_avg(r, CG_PSI_SOME60, p, psi.some_avg60);
	set_avg(r, CG_PSI_SOME300, p, psi.some_avg300);
	if (psi.has_full) {
		set_x(r, CG_X_PSI_FULL_US + p, psi.full_total_us);
		(void)cg_stat_xd_set(r, CG_X_PSI_FULL_AVG10 + p, psi.full_avg10);
		set_avg(r, CG_PSI_FULL60, p, psi.full_avg60);
		set_avg(r, CG_PSI_FULL300, p, psi.full_avg300);
	}
}

void st_collect_from(struct cg_stats *s, struct node *n, int k, const char *text)
{
	bool io = on(s, CG_COLL_IO) || on(s, CG_COLL_IODEVICE);
	int r = 0;

	switch (k) {
	case F_CPU_STAT:
		if (on(s, CG_COLL_CPU))
			cpu_stat_v2(s, &n->row, text);
		break;
	case F_IO_STAT:
		if (io) {
			r = cg_kparse_io_devs(text, &s->devs, &s->n_devs);
			s->devs_seen = true;
		}
		if (on(s, CG_COLL_IO) && st_kstat_from(s, n, k, text) < 0)
			s->coll_errors[CG_COLL_IO]++;
		break;
	case F_BLKIO_THROTTLE:
	case F_BLKIO:
	case F_BLKIO_BFQ:
		if (io) {
			r = cg_kparse_blkio_devs(text, false, &s->devs, &s->n_devs);
			s->devs_seen = true;
		}
		break;
	case F_PSI_CPU:
	case F_PSI_MEMORY:
	case F_PSI_IO:
		if (on(s, CG_COLL_PSI))
			psi_totals(s, &n->row, k - F_PSI_CPU, text);
		break;
	case F_PROC_PSI_CPU:
	case F_PROC_PSI_MEMORY:
	case F_PROC_PSI_IO:
		if (on(s, CG_COLL_PSI))
			psi_totals(s, &n->row, k - F_PROC_PSI_CPU, text);
		break;
	default:
		break;
	}
	if (r < 0)
		s->coll_errors[on(s, CG_COLL_IO) ? CG_COLL_IO : CG_COLL_IODEVICE]++;
}

/*
 * Read one of the collectors' files of the node: its text, or NULL when the node is not in
 * that hierarchy, its cgroup2 files rest (quiet), or the read failed (a gone file silently).
 */
static const char *read_x(struct cg_stats *s, struct node *n, int k, char **heap)
{
	const struct file_def *d = &st_defs[k];
	int role = s->canon[d->role], r;

	*heap = NULL;
	if (!s->hier[d->role] || !(n->srcs & (1u << role)) || (role == R_UNIFIED && n->quiet))
		return NULL;
	r = st_read_kind(s, n, k, heap);
	if (r < 0) {
		st_read_failed(s, n, k, r);
		if (!gone(r) && r != -EOPNOTSUPP)
			s->coll_errors[st_kind_collector(k)]++;
		return NULL;
	}
	return *heap ? *heap : s->buf;
}

/* A limit or a single number file into x[i], unless it is known already */
static void take_limit(struct cg_stats *s, struct node *n, int k, int i)
{
	_cleanup_free_ char *heap = NULL;
	const char *text;
	uint64_t v;

	if (known(&n->row, i) || !(text = read_x(s, n, k, &heap)))
		return;
	if (cg_kparse_limit(text, &v) < 0) {
		s->coll_errors[st_kind_collector(k)]++;
		return;
	}
	set_x(&n->row, i, v);
}

static void take_file_keys(struct cg_stats *s, struct node *n, int k, const char *const *keys,
			   const int *idx, const uint64_t *mult, size_t cnt)
{
	_cleanup_free_ char *heap = NULL;
	const char *text;
	bool missing = false;

	for (size_t i = 0; i < cnt; i++)
		missing |= !known(&n->row, idx[i]);
	if (!missing || !(text = read_x(s, n, k, &heap)))
		return;
	take_keys(s, &n->row, st_kind_collector(k), text, keys, idx, mult, cnt);
	if (st_kstat_from(s, n, k, text) < 0)
		s->coll_errors[st_kind_collector(k)]++;
}

/* The files that only the kernel's statistics (cg_kstats) read, of the collectors that are on. */
static void collect_kstats(struct cg_stats *s, struct node *n)
{
	for (int k = F_X_CGROUP_STAT; k <= F_X_HUGETLB_1GB_EVENTS; k++) {
		_cleanup_free_ char *heap = NULL;
		const char *text;

		if (!on(s, st_kind_collector(k)) || !(text = read_x(s, n, k, &heap)))
			continue;
		if (st_kstat_from(s, n, k, text) < 0)
			s->coll_errors[st_kind_collector(k)]++;
	}
}

static void collect_cpu(struct cg_stats *s, struct node *n)
{
	static const char *const v1keys[] = { "nr_periods", "nr_throttled", "throttled_time" };
	static const int v1idx[] = { CG_X_CPU_PERIODS, CG_X_CPU_THROTTLED, CG_X_CPU_THROTTLED_NS };
	struct cg_stat_row *r = &n->row;

	if (!known(r, CG_X_CPU_USER_NS)) {
		_cleanup_free_ char *heap = NULL;
		const char *text = read_x(s, n, F_X_CPUACCT_STAT, &heap);
		uint64_t u, sy;

		if (text && cg_kparse_cpuacct_stat(text, s->clk_tck, &u, &sy) == 0) {
			set_x(r, CG_X_CPU_USER_NS, u);
			set_x(r, CG_X_CPU_SYSTEM_NS, sy);
		} else if (text) {
			s->coll_errors[CG_COLL_CPU]++;
		}
	}
	take_file_keys(s, n, F_X_CPU_V1_STAT, v1keys, v1idx, NULL, ARRAY_SIZE(v1keys));
	if (!r->n_percpu) {
		_cleanup_free_ char *heap = NULL;
		const char *text = read_x(s, n, F_X_CPUACCT_PERCPU, &heap);

		if (text &&
		    cg_kparse_u64_list(text, &r->percpu_ns, &r->cap_percpu, &r->n_percpu) < 0) {
			r->n_percpu = 0;
			s->coll_errors[CG_COLL_CPU]++;
		}
	}
}

/*
 * v1 has no "max": an unlimited page counter reads PAGE_COUNTER_MAX pages (LONG_MAX rounded
 * down to a page), and a larger value written is cut to that. Anything from there up means no
 * limit.
 */
static bool v1_unlimited(uint64_t v)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0)
		page = 4096;
	return v >= (uint64_t)(LONG_MAX / page) * (uint64_t)page;
}

/* A v1 limit file into x[i] (CG_UNLIMITED for its no-limit value), unless it is known */
static void take_limit_v1(struct cg_stats *s, struct node *n, int k, int i)
{
	if (known(&n->row, i))
		return;
	take_limit(s, n, k, i);
	if (known(&n->row, i) && v1_unlimited(cg_stat_x(&n->row, i)))
		set_x(&n->row, i, CG_UNLIMITED);
}

/*
 * v1 swap: memory.memsw.usage_in_bytes (memory plus swap, present where the kernel accounts
 * swap) minus memory.usage_in_bytes, as cAdvisor has it. Both page counters are read here, one
 * right after the other: the figure of the base read is older by the rest of the cgroup's
 * files, and memory moving meanwhile made swap appear on a host without any. What still moves
 * between the two reads is off by that much; never below 0.
 */
static void v1_swap(struct cg_stats *s, struct node *n)
{
	_cleanup_free_ char *heap = NULL, *heap2 = NULL;
	struct cg_stat_row *r = &n->row;
	const char *text;
	uint64_t memsw, usage;
	int ret;

	if (known(r, CG_X_MEM_SWAP) || n->kind_used[M_MEMORY] != F_MEM_V1)
		return;
	text = read_x(s, n, F_X_MEM_V1_MEMSW, &heap);
	if (!text)
		return;
	if (cg_kparse_limit(text, &memsw) < 0 || st_kstat_from(s, n, F_X_MEM_V1_MEMSW, text) < 0) {
		s->coll_errors[CG_COLL_MEMORY]++;
		return;
	}
	ret = st_read_kind(s, n, F_MEM_V1, &heap2);
	if (ret < 0) {
		st_read_failed(s, n, F_MEM_V1, ret);
		if (!gone(ret))
			s->coll_errors[CG_COLL_MEMORY]++;
		return;
	}
	if (cg_kparse_limit(heap2 ? heap2 : s->buf, &usage) < 0) {
		s->coll_errors[CG_COLL_MEMORY]++;
		return;
	}
	set_x(r, CG_X_MEM_SWAP, memsw > usage ? memsw - usage : 0);
}

static void collect_memory(struct cg_stats *s, struct node *n)
{
	static const char *const stat_keys[] = { "anon", "file", "kernel",	  "shmem",
						 "slab", "sock", "inactive_file", "file_mapped" };
	static const int stat_idx[] = { CG_X_MEM_ANON,		CG_X_MEM_FILE,
					CG_X_MEM_KERNEL,	CG_X_MEM_SHMEM,
					CG_X_MEM_SLAB,		CG_X_MEM_SOCK,
					CG_X_MEM_INACTIVE_FILE, CG_X_MEM_MAPPED_FILE };
	static const char *const ev_keys[] = { "low", "high",	  "max",
					       "oom", "oom_kill", "oom_group_kill" };
	static const int ev_idx[] = { CG_X_MEM_EV_LOW,	    CG_X_MEM_EV_HIGH,
				      CG_X_MEM_EV_MAX,	    CG_X_MEM_EV_OOM,
				      CG_X_MEM_EV_OOM_KILL, CG_X_MEM_EV_OOM_GROUP_KILL };
	/*
	 * hierarchical, as memory.stat of cgroup2 is, and the same kernel counters: rss is
	 * NR_ANON_MAPPED (anon), cache NR_FILE_PAGES (file), shmem NR_SHMEM
	 */
	static const char *const v1_keys[] = { "total_rss", "total_cache", "total_shmem",
					       "total_inactive_file", "total_mapped_file" };
	static const int v1_idx[] = { CG_X_MEM_ANON, CG_X_MEM_FILE, CG_X_MEM_SHMEM,
				      CG_X_MEM_INACTIVE_FILE, CG_X_MEM_MAPPED_FILE };
	static const char *const oom_keys[] = { "under_oom", "oom_kill" };
	static const int oom_idx[] = { CG_X_MEM_UNDER_OOM, CG_X_MEM_EV_OOM_KILL };
	static const struct {
		int kind, idx;
	} figures[] = {
		{ F_X_MEM_PEAK, CG_X_MEM_PEAK },      { F_X_MEM_SWAP, CG_X_MEM_SWAP },
		{ F_X_MEM_V1_PEAK, CG_X_MEM_PEAK },   { F_X_MEM_V1_FAILCNT, CG_X_MEM_EV_MAX },
		{ F_X_MEM_V1_KMEM, CG_X_MEM_KERNEL },
	};
	struct cg_stat_row *r = &n->row;

	take_file_keys(s, n, F_X_MEM_STAT, stat_keys, stat_idx, NULL, ARRAY_SIZE(stat_keys));
	take_file_keys(s, n, F_X_MEM_EVENTS, ev_keys, ev_idx, NULL, ARRAY_SIZE(ev_keys));
	take_file_keys(s, n, F_X_MEM_V1_STAT, v1_keys, v1_idx, NULL, ARRAY_SIZE(v1_keys));
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++)
		take_limit(s, n, figures[i].kind, figures[i].idx);
	v1_swap(s, n);
	take_file_keys(s, n, F_X_MEM_V1_OOM, oom_keys, oom_idx, NULL, ARRAY_SIZE(oom_keys));
	if ((r->have & CG_STAT_MEMORY) && known(r, CG_X_MEM_INACTIVE_FILE))
		set_x(r, CG_X_MEM_WORKING_SET,
		      r->memory > cg_stat_x(r, CG_X_MEM_INACTIVE_FILE)
			      ? r->memory - cg_stat_x(r, CG_X_MEM_INACTIVE_FILE)
			      : 0);
}

/* The memory and pids limits of the collectors that are on (or all, with the limits collector). */
static void collect_limits(struct cg_stats *s, struct node *n)
{
	for (size_t i = 0; i < ARRAY_SIZE(limit_files); i++) {
		if (!kind_on(s, limit_files[i].kind))
			continue;
		if (limit_files[i].v1)
			take_limit_v1(s, n, limit_files[i].kind, limit_files[i].idx);
		else
			take_limit(s, n, limit_files[i].kind, limit_files[i].idx);
	}
}

static void collect_pids(struct cg_stats *s, struct node *n)
{
	static const char *const keys[] = { "max" };
	static const int idx[] = { CG_X_PIDS_EV_MAX };

	take_file_keys(s, n, F_X_PIDS_EVENTS, keys, idx, NULL, 1);
	take_file_keys(s, n, F_X_PIDS_V1_EVENTS, keys, idx, NULL, 1);
}

/* v1: the operations per device, throttle's or else bfq's */
static void collect_blkio_ops(struct cg_stats *s, struct node *n)
{
	_cleanup_free_ char *heap = NULL;
	const char *text;

	if (n->kind_used[M_IO] == F_BLKIO_THROTTLE)
		text = read_x(s, n, F_X_BLKIO_SERVICED, &heap);
	else if (n->kind_used[M_IO] == F_BLKIO_BFQ)
		text = read_x(s, n, F_X_BFQ_SERVICED, &heap);
	else
		return;
	if (text && cg_kparse_blkio_devs(text, true, &s->devs, &s->n_devs) < 0)
		s->coll_errors[CG_COLL_IO]++;
}

/* The name of block device maj:min from /sys/dev/block/MAJ:MIN/uevent, cached ("" unknown). */
static const char *devname(struct cg_stats *s, unsigned maj, unsigned min)
{
	struct devname *g, *e;
	char path[64], buf[512];
	_cleanup_free_ char *name = NULL;
	ssize_t len;
	int fd;

	for (size_t i = 0; i < s->n_devnames; i++)
		if (s->devnames[i].major == maj && s->devnames[i].minor == min)
			return s->devnames[i].name;
	g = realloc(s->devnames, (s->n_devnames + 1) * sizeof(*g));
	if (!g)
		return "";
	s->devnames = g;
	e = &g[s->n_devnames++];
	memset(e, 0, sizeof(*e));
	e->major = maj;
	e->minor = min;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", maj, min);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return e->name;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return e->name;
	buf[len] = '\0';
	name = cg_kparse_env_value(buf, "DEVNAME");
	if (name)
		snprintf(e->name, sizeof(e->name), "%s", name);
	return e->name;
}

/* The devices parsed this sample: summed into x, and with iodevice the row's per device list. */
static void finish_io(struct cg_stats *s, struct node *n)
{
	static const int sums[][2] = { { CG_IO_RIOS, CG_X_IO_RIOS },
				       { CG_IO_WIOS, CG_X_IO_WIOS },
				       { CG_IO_DBYTES, CG_X_IO_DBYTES },
				       { CG_IO_DIOS, CG_X_IO_DIOS } };
	struct cg_stat_row *r = &n->row;
	struct cg_io_dev *devs = s->devs;
	size_t n_devs = s->n_devs;

	if (on(s, CG_COLL_IO)) {
		for (size_t i = 0; i < ARRAY_SIZE(sums); i++) {
			uint64_t sum = 0;
			bool any = false;

			for (size_t d = 0; d < n_devs; d++) {
				if (!(devs[d].have & (1u << sums[i][0])))
					continue;
				any = true;
				sum += devs[d].v[sums[i][0]];
			}
			/* a cgroup with no IO has no device lines: zero, as the base's bytes */
			if (any || !n_devs)
				set_x(r, sums[i][1], sum);
		}
	}
	if (on(s, CG_COLL_IODEVICE)) {
		struct cg_stat_iodev *g = n_devs ? realloc(r->iodevs, n_devs * sizeof(*g)) : NULL;

		if (n_devs && !g) {
			s->coll_errors[CG_COLL_IODEVICE]++;
			return;
		}
		if (!n_devs)
			free(r->iodevs);
		r->iodevs = g;
		r->n_iodevs = n_devs;
		for (size_t d = 0; d < n_devs; d++) {
			g[d].io = devs[d];
			snprintf(g[d].name, sizeof(g[d].name), "%s",
				 devname(s, devs[d].major, devs[d].minor));
		}
	}
}

void st_collect(struct cg_stats *s, struct node *n)
{
	if (on(s, CG_COLL_CPU))
		collect_cpu(s, n);
	if (on(s, CG_COLL_MEMORY))
		collect_memory(s, n);
	if (on(s, CG_COLL_PIDS))
		collect_pids(s, n);
	collect_kstats(s, n);
	collect_limits(s, n);
	if (on(s, CG_COLL_LIMITS))
		st_limits_collect(s, n);
	if ((on(s, CG_COLL_IO) || on(s, CG_COLL_IODEVICE)) && s->devs_seen) {
		collect_blkio_ops(s, n);
		finish_io(s, n);
	}
	if (!on(s, CG_COLL_IODEVICE) && n->row.iodevs) {
		free(n->row.iodevs);
		n->row.iodevs = NULL;
		n->row.n_iodevs = 0;
	}
	free(s->devs);
	s->devs = NULL;
	s->n_devs = 0;
	s->devs_seen = false;
}

void st_collect_free(struct cg_stats *s)
{
	free(s->devnames);
	s->devnames = NULL;
	s->n_devnames = 0;
}

void cg_stats_set_collectors(struct cg_stats *s, unsigned collectors)
{
	s->collectors = collectors;
	/* the files of a collector turned off: their fds are better spent elsewhere */
	for (size_t i = 0; i < s->n_nodes; i++) {
		struct node *n = s->nodes[i];

		for (int k = F_X_CPUACCT_STAT; k < F_N; k++) {
			if (n->fd[k] < 0 || kind_on(s, k))
				continue;
			st_close_fd(s, &n->fd[k]);
			n->fd[k] = FD_UNTRIED;
		}
		limits_forget(s, n);
		/* a quiet cgroup keeps its row: read it whole once more */
		n->quiet = false;
	}
}

void cg_stats_errors(const struct cg_stats *s, uint64_t ret[CG_COLL_N])
{
	memcpy(ret, s->coll_errors, sizeof(s->coll_errors));
}

/* name[0, len) as collector bits: one, or all; 0 when it is none of them */
static unsigned collector_bits(const char *name, size_t len)
{
	if (len == 3 && !strncmp(name, "all", 3))
		return (1u << CG_COLL_N) - 1;
	for (int c = 0; c < CG_COLL_N; c++)
		if (strlen(cg_collector_names[c]) == len &&
		    !strncmp(name, cg_collector_names[c], len))
			return 1u << c;
	return 0;
}

int cg_collectors_parse(const char *text, unsigned *ret, const char **ret_bad)
{
	/* "+x" and "-x" change the default set; bare names make a set of their own */
	unsigned set = (*text == '+' || *text == '-') ? CG_COLL_DEFAULT : 0, bits;
	const char *p = text;

	do {
		size_t len = strcspn(p, ",");
		char sign = (*p == '+' || *p == '-') ? *p : 0;
		const char *name = sign ? p + 1 : p;
		size_t nl = len - (sign ? 1 : 0);

		if (!sign && nl == 4 && !strncmp(name, "none", 4)) {
			set = 0;
		} else if ((bits = collector_bits(name, nl))) {
			set = sign == '-' ? set & ~bits : set | bits;
		} else {
			*ret_bad = p;
			return -EINVAL;
		}
		p += len;
	} while (*p++ == ',');
	*ret = set;
	return 0;
}
