// SPDX-License-Identifier: MIT
/* One-shot usage summary of a cgroup: CPU, peak memory, IO bytes, peak tasks, where exposed. */
#include "usage.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "base/kfile.h"
#include "base/kparse.h"

static int read_u64_at(int dfd, const char *file, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	int r = cg_read_at(dfd, file, &text);

	if (r < 0)
		return r;
	/* v1 files of a hierarchy without the feature say "max" or nothing */
	return cg_parse_u64(text, UINT64_MAX, ret);
}

static void read_cpu(int dfd, int version, struct cg_usage *u)
{
	_cleanup_free_ char *text = NULL;

	if (version == 2) {
		if (cg_read_at(dfd, cg_kf_name(CG_KF_CPU_STAT), &text) == 0 &&
		    cg_kparse_cpu_stat(text, &u->user_ns, &u->system_ns) == 0)
			u->have |= CG_USAGE_CPU;
		return;
	}
	/* nanoseconds where the kernel has them (4.7+), else USER_HZ ticks */
	if (read_u64_at(dfd, cg_kf_name(cg_kv_src(CG_KV_CPU_USER, 1)->file), &u->user_ns) == 0 &&
	    read_u64_at(dfd, cg_kf_name(cg_kv_src(CG_KV_CPU_SYSTEM, 1)->file), &u->system_ns) ==
		    0) {
		u->have |= CG_USAGE_CPU;
		return;
	}
	if (cg_read_at(dfd, cg_kf_name(CG_KF_CPUACCT_STAT), &text) == 0 &&
	    cg_kparse_cpuacct_stat(text, sysconf(_SC_CLK_TCK), &u->user_ns, &u->system_ns) == 0)
		u->have |= CG_USAGE_CPU;
}

static void read_io(int dfd, int version, struct cg_usage *u)
{
	static const enum cg_kf v1_files[] = { CG_KF_BLKIO_THROTTLE_BYTES_RECURSIVE,
					       CG_KF_BLKIO_THROTTLE_BYTES };
	_cleanup_free_ char *text = NULL;

	if (version == 2) {
		if (cg_read_at(dfd, cg_kf_name(CG_KF_IO_STAT), &text) == 0 &&
		    cg_kparse_io_stat(text, &u->io_read, &u->io_write) == 0)
			u->have |= CG_USAGE_IO;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(v1_files); i++) {
		if (cg_read_at(dfd, cg_kf_name(v1_files[i]), &text) < 0)
			continue;
		if (cg_kparse_blkio(text, &u->io_read, &u->io_write) == 0)
			u->have |= CG_USAGE_IO;
		return;
	}
}

/*
 * OOM kills: v2 memory.events (hierarchical: the subtree's), v1 memory.oom_control's oom_kill
 * (4.13+); where v1 has none, memory.failcnt (limit hits, which precede an OOM kill) as a hint.
 */
static void read_oom(int dfd, int version, struct cg_usage *u)
{
	const struct cg_ksrc *oom = cg_kv_src(CG_KV_MEM_EV_OOM_KILL, version);
	const struct cg_ksrc *fail = cg_kv_src(CG_KV_MEM_FAILCNT, version);
	const struct cg_ksrc *max = cg_kv_src(CG_KV_MEM_MAX, version);
	_cleanup_free_ char *text = NULL;
	uint64_t found = 0, v;

	if (oom && cg_read_at(dfd, cg_kf_name(oom->file), &text) == 0 &&
	    cg_kparse_keys(text, &oom->key, 1, &v, &found) == 0 && found) {
		u->oom_kill = v;
		u->have |= CG_USAGE_OOM_KILL;
	} else if (fail && read_u64_at(dfd, cg_kf_name(fail->file), &u->mem_failcnt) == 0) {
		u->have |= CG_USAGE_MEM_FAILCNT;
	}
	free(text);
	text = NULL;
	if (max && cg_read_at(dfd, cg_kf_name(max->file), &text) == 0 &&
	    cg_kparse_limit(text, &u->mem_max) == 0)
		u->have |= CG_USAGE_MEM_MAX;
}

int cg_usage_read(const struct cg_targets *t, struct cg_usage *ret)
{
	struct cg_usage u = { 0 };

	/* the unified target first: its cpu.stat is exact and always there */
	for (int pass = 2; pass >= 1; pass--) {
		for (size_t i = 0; i < t->n; i++) {
			const struct cg_hier *h = t->t[i].hier;
			_cleanup_close_ int dfd = -1;

			if (h->version != pass)
				continue;
			dfd = cg_open_dir(h, t->t[i].path);
			if (dfd < 0)
				return dfd;
			if (!(u.have & CG_USAGE_CPU))
				read_cpu(dfd, h->version, &u);
			if (!(u.have & CG_USAGE_MEM_PEAK) &&
			    read_u64_at(dfd,
					cg_kf_name(cg_kv_src(CG_KV_MEM_PEAK, h->version)->file),
					&u.mem_peak) == 0)
				u.have |= CG_USAGE_MEM_PEAK;
			if (!(u.have & CG_USAGE_IO))
				read_io(dfd, h->version, &u);
			if (!(u.have & CG_USAGE_PIDS_PEAK) &&
			    read_u64_at(dfd,
					cg_kf_name(cg_kv_src(CG_KV_PIDS_PEAK, h->version)->file),
					&u.pids_peak) == 0)
				u.have |= CG_USAGE_PIDS_PEAK;
			if (!(u.have & (CG_USAGE_OOM_KILL | CG_USAGE_MEM_FAILCNT))) {
				read_oom(dfd, h->version, &u);
				u.oom_at = i;
			}
		}
	}
	*ret = u;
	return 0;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void cg_usage_delta(const struct cg_usage *before, struct cg_usage *after)
{
	if (before->have & after->have & CG_USAGE_CPU) {
		after->user_ns = sub0(after->user_ns, before->user_ns);
		after->system_ns = sub0(after->system_ns, before->system_ns);
	}
	if (before->have & after->have & CG_USAGE_IO) {
		after->io_read = sub0(after->io_read, before->io_read);
		after->io_write = sub0(after->io_write, before->io_write);
	}
	if (before->have & after->have & CG_USAGE_OOM_KILL)
		after->oom_kill = sub0(after->oom_kill, before->oom_kill);
	if (before->have & after->have & CG_USAGE_MEM_FAILCNT)
		after->mem_failcnt = sub0(after->mem_failcnt, before->mem_failcnt);
}

const char *cg_usage_format(const struct cg_usage *u, uint64_t wall_ns, char *buf, size_t size)
{
	size_t off = 0;

#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (off < size)                                                                    \
			off += (size_t)snprintf(buf + off, size - off, __VA_ARGS__);               \
	} while (0)

/* ns as the two numbers of "%" PRIu64 ".%03" PRIu64: seconds, milliseconds */
#define SEC_MSEC(ns) (uint64_t)((ns) / NSEC_PER_SEC), (uint64_t)((ns) / NSEC_PER_MSEC % 1000)

	if (size)
		buf[0] = '\0';
	ADD("wall=%" PRIu64 ".%03" PRIu64 "s", SEC_MSEC(wall_ns));
	if (u->have & CG_USAGE_CPU)
		ADD(" user=%" PRIu64 ".%03" PRIu64 "s system=%" PRIu64 ".%03" PRIu64 "s",
		    SEC_MSEC(u->user_ns), SEC_MSEC(u->system_ns));
	if (u->have & CG_USAGE_MEM_PEAK)
		ADD(" memory_peak=%" PRIu64 "B", u->mem_peak);
	if (u->have & CG_USAGE_IO)
		ADD(" io_read=%" PRIu64 "B io_write=%" PRIu64 "B", u->io_read, u->io_write);
	if (u->have & CG_USAGE_PIDS_PEAK)
		ADD(" pids_peak=%" PRIu64, u->pids_peak);
	if (u->have & CG_USAGE_OOM_KILL)
		ADD(" oom_kill=%" PRIu64, u->oom_kill);
	else if (u->have & CG_USAGE_MEM_FAILCNT)
		ADD(" memory_failcnt=%" PRIu64, u->mem_failcnt);
#undef SEC_MSEC
#undef ADD
	return buf;
}

const char *cg_usage_format_limit(uint64_t bytes, char *buf, size_t size)
{
	static const char suffix[] = "KMGTPE";
	int k = -1;

	/* v1 says "no limit" with the page counter's maximum, rounded down to a page */
	if (bytes == CG_UNLIMITED || bytes >= (UINT64_C(1) << 62)) {
		snprintf(buf, size, "max");
		return buf;
	}
	while (bytes && !(bytes % 1024) && suffix[k + 1]) {
		bytes /= 1024;
		k++;
	}
	if (k < 0)
		snprintf(buf, size, "%" PRIu64 "B", bytes);
	else
		snprintf(buf, size, "%" PRIu64 "%c", bytes, suffix[k]);
	return buf;
}
