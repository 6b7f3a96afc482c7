// SPDX-License-Identifier: MIT
/* One-shot usage summary of a cgroup: CPU, peak memory, IO bytes, peak tasks, where exposed. */
#include "usage.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "cleanup.h"
#include "file.h"
#include "parse.h"
#include "kparse.h"

/* The number after "KEY " on a line of its own in flat-keyed kernel text. */
static int flat_key(const char *text, const char *key, uint64_t *ret)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line;) {
		const char *nl = strchrnul(line, '\n');

		if ((size_t)(nl - line) > klen && !strncmp(line, key, klen) && line[klen] == ' ') {
			char num[32];
			size_t n = (size_t)(nl - line) - klen - 1;

			if (n == 0 || n >= sizeof(num))
				return -EINVAL;
			memcpy(num, line + klen + 1, n);
			num[n] = '\0';
			return cg_parse_u64(num, UINT64_MAX, ret);
		}
		line = *nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int cg_usage_parse_cpu_stat(const char *text, uint64_t *ret_user_ns, uint64_t *ret_system_ns)
{
	uint64_t u, s;
	int r;

	if ((r = flat_key(text, "user_usec", &u)) < 0 ||
	    (r = flat_key(text, "system_usec", &s)) < 0)
		return r;
	if (u > UINT64_MAX / 1000 || s > UINT64_MAX / 1000)
		return -ERANGE;
	*ret_user_ns = u * 1000;
	*ret_system_ns = s * 1000;
	return 0;
}

int cg_usage_parse_cpuacct_stat(const char *text, long ticks_per_sec, uint64_t *ret_user_ns,
				uint64_t *ret_system_ns)
{
	uint64_t u, s;
	int r;

	if (ticks_per_sec <= 0)
		return -EINVAL;
	if ((r = flat_key(text, "user", &u)) < 0 || (r = flat_key(text, "system", &s)) < 0)
		return r;
	*ret_user_ns = u * (1000000000ULL / (uint64_t)ticks_per_sec);
	*ret_system_ns = s * (1000000000ULL / (uint64_t)ticks_per_sec);
	return 0;
}

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
		if (cg_read_at(dfd, "cpu.stat", &text) == 0 &&
		    cg_usage_parse_cpu_stat(text, &u->user_ns, &u->system_ns) == 0)
			u->have |= CG_USAGE_CPU;
		return;
	}
	/* nanoseconds where the kernel has them (4.7+), else USER_HZ ticks */
	if (read_u64_at(dfd, "cpuacct.usage_user", &u->user_ns) == 0 &&
	    read_u64_at(dfd, "cpuacct.usage_sys", &u->system_ns) == 0) {
		u->have |= CG_USAGE_CPU;
		return;
	}
	if (cg_read_at(dfd, "cpuacct.stat", &text) == 0 &&
	    cg_usage_parse_cpuacct_stat(text, sysconf(_SC_CLK_TCK), &u->user_ns, &u->system_ns) ==
		    0)
		u->have |= CG_USAGE_CPU;
}

static void read_io(int dfd, int version, struct cg_usage *u)
{
	static const char *const v1_files[] = { "blkio.throttle.io_service_bytes_recursive",
						"blkio.throttle.io_service_bytes" };
	_cleanup_free_ char *text = NULL;

	if (version == 2) {
		if (cg_read_at(dfd, "io.stat", &text) == 0 &&
		    cg_stats_parse_io_stat(text, &u->io_read, &u->io_write) == 0)
			u->have |= CG_USAGE_IO;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(v1_files); i++) {
		if (cg_read_at(dfd, v1_files[i], &text) < 0)
			continue;
		if (cg_stats_parse_blkio(text, &u->io_read, &u->io_write) == 0)
			u->have |= CG_USAGE_IO;
		return;
	}
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
					h->version == 2 ? "memory.peak"
							: "memory.max_usage_in_bytes",
					&u.mem_peak) == 0)
				u.have |= CG_USAGE_MEM_PEAK;
			if (!(u.have & CG_USAGE_IO))
				read_io(dfd, h->version, &u);
			if (!(u.have & CG_USAGE_PIDS_PEAK) &&
			    read_u64_at(dfd, "pids.peak", &u.pids_peak) == 0)
				u.have |= CG_USAGE_PIDS_PEAK;
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
}

const char *cg_usage_format(const struct cg_usage *u, uint64_t wall_ns, char *buf, size_t size)
{
	size_t off = 0;

#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (off < size)                                                                    \
			off += (size_t)snprintf(buf + off, size - off, __VA_ARGS__);               \
	} while (0)

	if (size)
		buf[0] = '\0';
	ADD("wall=%" PRIu64 ".%03" PRIu64 "s", wall_ns / 1000000000, wall_ns / 1000000 % 1000);
	if (u->have & CG_USAGE_CPU)
		ADD(" user=%" PRIu64 ".%03" PRIu64 "s system=%" PRIu64 ".%03" PRIu64 "s",
		    u->user_ns / 1000000000, u->user_ns / 1000000 % 1000, u->system_ns / 1000000000,
		    u->system_ns / 1000000 % 1000);
	if (u->have & CG_USAGE_MEM_PEAK)
		ADD(" memory_peak=%" PRIu64 "B", u->mem_peak);
	if (u->have & CG_USAGE_IO)
		ADD(" io_read=%" PRIu64 "B io_write=%" PRIu64 "B", u->io_read, u->io_write);
	if (u->have & CG_USAGE_PIDS_PEAK)
		ADD(" pids_peak=%" PRIu64, u->pids_peak);
#undef ADD
	return buf;
}
