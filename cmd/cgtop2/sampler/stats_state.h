/* SPDX-License-Identifier: MIT */
/*
 * Private to the sampler's files (stats*.c): its state (struct cg_stats), the cgroup tree it
 * samples (struct node), what a file it knows is (struct file_def: the table is stats_defs.h's).
 * Its own header, beneath every layer of the sampler (each layer's functions are in the header
 * of its .c), so that the layers under stats.c use it without reaching up to stats.c.
 */
#ifndef CGKIT_STATS_STATE_H
#define CGKIT_STATS_STATE_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hash.h"
#include "base/kfile.h"
#include "kernel/mount.h"
#include "stats_types.h"

/* The hierarchies a cgroup's numbers can come from. */
/*
 * R_SYSTEMD: v1 name=systemd, which has no controller but mirrors the unit tree, so that on a
 * legacy system a unit's cgroup is there even where no controller hierarchy has it: its tasks.
 */
/* R_CPU: v1 cpu (its cpu.stat has the throttling), most often co-mounted with cpuacct. */
/* R_CPUSET: v1 cpuset, for cpuset.cpus alone (the limits collector). */
enum role {
	R_UNIFIED,
	R_CPUACCT,
	R_MEMORY,
	R_BLKIO,
	R_PIDS,
	R_CPU,
	R_CPUSET,
	R_SYSTEMD,
	R_PROC,
	R_N
};

enum metric { M_CPU, M_MEMORY, M_IO, M_TASKS, M_PSI_CPU, M_PSI_MEMORY, M_PSI_IO, M_N };

enum kind {
	F_CPU_STAT,
	F_CPUACCT,
	F_MEM_CURRENT,
	F_MEM_V1,
	F_MEMINFO,
	F_IO_STAT,
	F_BLKIO_THROTTLE,
	F_BLKIO,
	F_BLKIO_BFQ,
	F_PIDS_V2,
	F_PIDS_V1,
	F_TASKS_PIDS,
	F_THREADS_V2,
	F_TASKS_CPUACCT,
	F_TASKS_MEMORY,
	F_TASKS_BLKIO,
	F_TASKS_SYSTEMD,
	F_PROCS_V2,
	F_PROCS_PIDS,
	F_PROCS_CPUACCT,
	F_PROCS_MEMORY,
	F_PROCS_BLKIO,
	F_PROCS_SYSTEMD,
	F_PSI_CPU,
	F_PSI_MEMORY,
	F_PSI_IO,
	F_PROC_PSI_CPU,
	F_PROC_PSI_MEMORY,
	F_PROC_PSI_IO,
	F_TYPE,
	F_EVENTS,
	/* the collectors' own files (cmd/cgtop2/sampler/stats_collect.c), none of a base metric (M_N) */
	F_X_CPUACCT_STAT,
	F_X_CPU_V1_STAT,
	F_X_CPUACCT_PERCPU,
	F_X_MEM_STAT,
	F_X_MEM_PEAK,
	F_X_MEM_MAX,
	F_X_MEM_HIGH,
	F_X_MEM_LOW,
	F_X_MEM_MIN,
	F_X_MEM_SWAP,
	F_X_MEM_SWAP_MAX,
	F_X_MEM_EVENTS,
	F_X_MEM_V1_STAT,
	F_X_MEM_V1_PEAK,
	F_X_MEM_V1_LIMIT,
	F_X_MEM_V1_FAILCNT,
	F_X_MEM_V1_MEMSW,
	F_X_MEM_V1_SOFT,
	F_X_MEM_V1_MEMSW_LIMIT,
	F_X_MEM_V1_KMEM,
	F_X_MEM_V1_OOM, /* the last of the memory collector's kinds */
	F_X_BLKIO_SERVICED,
	F_X_BFQ_SERVICED,
	F_X_PIDS_MAX,
	F_X_PIDS_EVENTS,
	F_X_PIDS_V1_MAX,
	F_X_PIDS_V1_EVENTS,
	/* the kernel's statistics' own files (stats_kstat.c), of the collector of their values */
	F_X_CGROUP_STAT,
	F_X_MEM_EVENTS_LOCAL,
	F_X_MEM_SWAP_EVENTS,
	F_X_MEM_ZSWAP,
	F_X_MEM_V1_MEMSW_PEAK,
	F_X_CPU_STAT_LOCAL,
	F_X_IRQ_PRESSURE,
	F_X_PIDS_PEAK,
	F_X_PIDS_V1_PEAK,
	F_X_PIDS_EVENTS_LOCAL,
	F_X_MISC_CURRENT,
	F_X_MISC_EVENTS,
	F_X_HUGETLB_2MB,
	F_X_HUGETLB_2MB_EVENTS,
	F_X_HUGETLB_1GB,
	F_X_HUGETLB_1GB_EVENTS,
	/* the limits collector's (cmd/cgtop2/sampler/stats_limits.c): opened, read and closed at a refresh */
	F_X_CPU_MAX,
	F_X_CPU_WEIGHT,
	F_X_CPUSET_CPUS,
	F_X_IO_MAX,
	F_X_IO_WEIGHT,
	F_X_CPU_V1_QUOTA,
	F_X_CPU_V1_PERIOD,
	F_X_CPU_V1_SHARES,
	F_X_CPUSET_V1_CPUS,
	F_X_BLKIO_V1_RBPS, /* the four throttles in io.max's order: rbps, wbps, riops, wiops */
	F_X_BLKIO_V1_WBPS,
	F_X_BLKIO_V1_RIOPS,
	F_X_BLKIO_V1_WIOPS,
	F_X_BFQ_WEIGHT,
	F_X_BFQ_WEIGHT_DEVICE,
	F_X_BLKIO_WEIGHT, /* CFQ's, kernels before 5.0 */
	F_N
};

/* A stat file of a cgroup (or of /proc, for the root). */
struct file_def {
	enum metric metric;
	enum role role;
	enum cg_kf file; /* its name: cg_kf_name() */
	bool root_only; /* a stand-in for the root cgroup, where the kernel has no cgroup file */
	bool count; /* tasks by counting lines, not a pids.current */
	bool procs; /* a cgroup.procs: the source of M_TASKS when processes are counted */
};

/* fd[] states besides a real fd */
#define FD_UNTRIED  (-1)
#define FD_ABSENT   (-2)
#define FD_UNCACHED (-3) /* exists; opened for each read because the fd budget is spent */

struct node {
	char *path; /* "" or "a/b" */
	int depth;
	struct node *parent, *child, *sibling;
	size_t index; /* in s->nodes */
	unsigned srcs; /* bit per role: the directory exists there */
	int dfd[R_N]; /* O_RDONLY|O_DIRECTORY, -1 when not cached */
	int wd[R_N];
	int fd[F_N];
	int tasks_kind;
	uint64_t own_tasks; /* counted (not pids.current): this cgroup's own */
	int kind_used[M_N]; /* the file each metric came from last time, -1 for none */
	bool has_prev;
	/*
	 * cgroup2: an unpopulated cgroup whose counters stopped and whose PSI is all zero cannot
	 * change until something joins it, which cgroup.events reports through inotify (IN_MODIFY
	 * on the directory). Until then its cgroup2 files are not read again, nor kept open.
	 */
	int populated; /* -1 unknown (read cgroup.events next sample), 0, 1 */
	bool quiet, psi_busy;
	/*
	 * A read of one of its files said ENODEV this sample: removed while we read, maybe. Looked
	 * at after the pass (st_collect_removed), so that no half row is shown.
	 */
	bool gone_seen;
	uint64_t prev_t, prev_cpu, prev_rd, prev_wr;
	unsigned prev_have;
	/* the limits collector's last read (0: none yet) and its numbers, CG_X_CPU_QUOTA on */
	uint64_t limits_t;
	uint64_t limits_x[4];
	unsigned limits_have;
	struct cg_stat_row row;
};

struct mirror_sub;

struct wd_slot {
	struct node *node;
	int role;
};

struct cg_stats {
	const struct cg_layout *layout;
	const struct cg_hier *hier[R_N]; /* NULL: not mounted */
	int canon[R_N]; /* a hierarchy serving two roles is listed and read under the first */
	int sample_dfd[R_N]; /* the directory of the node being sampled, when it has no dfd */
	char *root;
	int depth;
	bool threads, always_read;
	enum cg_count count;
	bool own_only;
	struct mirror_sub
		*msub; /* its inotify watches (mirror/mirror.h); NULL: none, every sample lists */
	struct wd_slot *wds;
	size_t n_wds;
	struct node **nodes;
	size_t n_nodes, cap_nodes;
	uint64_t shape; /* counts the nodes made and freed (cg_stats_shape) */
	struct cg_pathmap by_path; /* path (relative, as node->path) -> struct node */
	struct cg_stat_row **rows;
	size_t fds_held, fd_budget, reopened;
	/* out of fds with nothing left to give back: no directory fd of its own per open either */
	bool starved;
	int out_of_fds; /* -EMFILE or -ENFILE when an open failed for want of an fd this sample */
	bool rescan;
	char *buf;
	size_t buf_size;
	char sources[1024];
	long clk_tck;
	uint64_t now; /* the time of the sample being taken */
	unsigned collectors; /* bit per enum cg_collector */
	uint64_t coll_errors[CG_COLL_N];
	/* block device names by number (CG_COLL_IODEVICE), looked up once each */
	struct devname {
		unsigned major, minor;
		char name[32];
	} * devnames;
	size_t n_devnames;
	/* the devices of the node being sampled (IO collectors), until the row gets them */
	struct cg_io_dev *devs;
	size_t n_devs;
	bool devs_seen;
	/* cg_stats_set_members: the cgroup whose tasks each sample lists ("" or "a/b"), or NULL */
	char *members_path;
	struct cg_stat_member *members;
	size_t n_members;
	uint64_t members_t; /* when they were read, 0: not yet */
	/* cg_stats_set_members_all: every row's tasks, one array the rows point into */
	bool members_all;
	struct cg_stat_member *all_members;
	/* the last sample's ticks of every task listed, by st_task_key, for the CPU figures */
	struct st_ticks {
		uint64_t key, ticks;
	} * all_prev;
	size_t n_all_prev;
	uint64_t all_t; /* when they were read, 0: not yet */
};

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)

static inline bool fd_budget_left(const struct cg_stats *s)
{
	return s->fds_held < s->fd_budget;
}

static inline bool gone(int r)
{
	return r == -ENODEV || r == -ENOENT;
}

static inline bool out_of_fds(int r)
{
	return r == -EMFILE || r == -ENFILE;
}

#endif
