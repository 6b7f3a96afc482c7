// SPDX-License-Identifier: MIT
/* Memory, IO and pids in the v2 vocabulary, translated for v1 (pure but for cg_vocab_device). */
#include "vocab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cleanup.h"
#include "error.h"
#include "parse.h"

static void put(struct cg_setting *s, const char *file, const char *value)
{
	snprintf(s->file, sizeof(s->file), "%s", file);
	snprintf(s->value, sizeof(s->value), "%s", value);
}

const char *cg_vocab_v1_controller(const char *ctrl)
{
	return ctrl && !strcmp(ctrl, "io") ? "blkio" : ctrl;
}

/* A size for v1 files: bytes, or -1 for max. */
static void v1_size(uint64_t v, char *buf, size_t size)
{
	if (v == UINT64_MAX)
		snprintf(buf, size, "-1");
	else
		snprintf(buf, size, "%" PRIu64, v);
}

/* "MAJ:MIN" at the start of s: its length, or 0. */
static size_t device_len(const char *s)
{
	const char *p = s;
	uint64_t v;

	if (cg_parse_u64_prefix(&p, 4095, &v) < 0 || *p++ != ':' ||
	    cg_parse_u64_prefix(&p, 1048575, &v) < 0)
		return 0;
	return (size_t)(p - s);
}

/* io.max "MAJ:MIN rbps=N wbps=N riops=N wiops=N" (any of them, "max" lifts one) for v1. */
static int io_max(int version, const char *value, struct cg_setting *out, size_t *ret_n,
		  struct cg_diag *d)
{
	static const char *const keys[][2] = {
		{ "rbps", "blkio.throttle.read_bps_device" },
		{ "wbps", "blkio.throttle.write_bps_device" },
		{ "riops", "blkio.throttle.read_iops_device" },
		{ "wiops", "blkio.throttle.write_iops_device" },
	};
	size_t dl = device_len(value), n = 0, v2len;
	const char *p = value + dl;
	char dev[32], buf[64], v2[sizeof(out[0].value)];

	if (!dl || *p != ' ')
		goto bad;
	snprintf(dev, sizeof(dev), "%.*s", (int)dl, value);
	/* the kernel reads plain numbers here (kstrtoull): sizes are given to it in bytes */
	v2len = (size_t)snprintf(v2, sizeof(v2), "%s", dev);
	while (*p == ' ')
		p++;
	while (*p) {
		size_t k, klen = strcspn(p, "="), vlen;
		char v[32];
		uint64_t u;

		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (strlen(keys[k][0]) == klen && !strncmp(p, keys[k][0], klen))
				break;
		if (k == ARRAY_SIZE(keys) || p[klen] != '=')
			goto bad;
		p += klen + 1;
		vlen = strcspn(p, " \n");
		if (!vlen || vlen >= sizeof(v))
			goto bad;
		snprintf(v, sizeof(v), "%.*s", (int)vlen, p);
		if (cg_parse_size(v, CG_SIZE_MAX, &u) < 0 ||
		    (k >= 2 && u != UINT64_MAX && strpbrk(v, "KMGT")))
			goto bad;
		/* v1 lifts a throttle with 0 */
		snprintf(buf, sizeof(buf), "%s %" PRIu64, dev, u == UINT64_MAX ? 0 : u);
		if (version == 1 && n < CG_SETTINGS_MAX)
			put(&out[n], keys[k][1], buf);
		if (u == UINT64_MAX)
			v2len += (size_t)snprintf(v2 + v2len,
						  v2len < sizeof(v2) ? sizeof(v2) - v2len : 0,
						  " %s=max", keys[k][0]);
		else
			v2len += (size_t)snprintf(v2 + v2len,
						  v2len < sizeof(v2) ? sizeof(v2) - v2len : 0,
						  " %s=%" PRIu64, keys[k][0], u);
		n++;
		p += vlen;
		while (*p == ' ' || *p == '\n')
			p++;
	}
	if (!n || n > CG_SETTINGS_MAX || v2len >= sizeof(v2))
		goto bad;
	if (version == 2) {
		put(&out[0], "io.max", v2);
		n = 1;
	}
	*ret_n = n;
	return 0;
bad:
	return cg_diag_say(
		d, EINVAL, NULL, NULL, "set",
		"io.max takes \"MAJ:MIN\" (or a /dev path) and any of rbps=, wbps= (bytes, K/M/G/T), riops=, wiops= (operations), each a number or max, not '%s'",
		value);
}

/* io.weight "N", "default N" or "MAJ:MIN N" (1..10000; v1 bfq: 1..1000) */
static int io_weight(int version, const char *value, struct cg_setting *out, size_t *ret_n,
		     struct cg_diag *d)
{
	size_t dl = device_len(value);
	const char *num = value;
	char buf[64];
	uint64_t w;

	if (dl && value[dl] == ' ')
		num = value + dl + 1;
	else if (!strncmp(value, "default ", 8))
		num = value + 8;
	if (cg_parse_u64(num, 10000, &w) < 0 || !w) {
		return cg_diag_say(
			d, EINVAL, NULL, NULL, "set",
			"io.weight takes 1..10000, as \"N\", \"default N\" or \"MAJ:MIN N\", not '%s'",
			value);
	}
	*ret_n = 1;
	if (version == 2) {
		put(&out[0], "io.weight", value);
		return 0;
	}
	if (w > 1000) {
		return cg_diag_say(
			d, ENOTSUP, NULL, NULL, "set",
			"io.weight=%s: v1 (blkio.bfq.weight) takes 1..1000; the default is 100 on both",
			value);
	}
	if (dl && num != value) {
		snprintf(buf, sizeof(buf), "%.*s %" PRIu64, (int)dl, value, w);
		put(&out[0], "blkio.bfq.weight_device", buf);
	} else {
		snprintf(buf, sizeof(buf), "%" PRIu64, w);
		put(&out[0], "blkio.bfq.weight", buf);
	}
	return 0;
}

static int memory(int version, const char *file, const char *value, const struct cg_vocab_ctx *ctx,
		  struct cg_setting *out, struct cg_diag *d)
{
	char buf[64];
	uint64_t v;

	if (!strcmp(file, "memory.oom.group")) {
		if (cg_parse_u64(value, 1, &v) < 0) {
			return cg_diag_say(d, EINVAL, NULL, NULL, "set",
					   "memory.oom.group takes 0 or 1, not '%s'", value);
		}
		if (version == 1) {
			return cg_diag_say(
				d, ENOTSUP, NULL, NULL, "set",
				"memory.oom.group: v1 has no group OOM kill (the nearest, memory.oom_control, only turns the OOM killer off)");
		}
		put(out, file, value);
		return 0;
	}
	if (cg_parse_size(value, CG_SIZE_MAX, &v) < 0) {
		return cg_diag_say(
			d, EINVAL, NULL, NULL, "set",
			"%s takes a size in bytes (K, M, G, T: powers of 1024) or max, not '%s'",
			file, value);
	}
	if (version == 2) {
		put(out, file, value);
		return 0;
	}
	v1_size(v, buf, sizeof(buf));
	if (!strcmp(file, "memory.max")) {
		put(out, "memory.limit_in_bytes", buf);
		return 0;
	}
	if (!strcmp(file, "memory.low")) {
		put(out, "memory.soft_limit_in_bytes", buf);
		return 0;
	}
	if (!strcmp(file, "memory.swap.max")) {
		uint64_t limit = ctx ? ctx->memory_limit : UINT64_MAX;

		/* no cgroup to read the limit of yet: the file is the one, its value comes later */
		if (v == UINT64_MAX || !ctx) {
			put(out, "memory.memsw.limit_in_bytes", "-1");
			return 0;
		}
		if (limit == UINT64_MAX) {
			return cg_diag_say(
				d, ENOTSUP, NULL, NULL, "set",
				"memory.swap.max=%s: v1 limits memory plus swap together (memory.memsw.limit_in_bytes), so it needs a memory limit: give -r memory.max=SIZE before it",
				value);
		}
		if (v > UINT64_MAX - limit) {
			return cg_diag_say(d, EINVAL, NULL, NULL, "set",
					   "memory.swap.max=%s is too large", value);
		}
		v1_size(limit + v, buf, sizeof(buf));
		put(out, "memory.memsw.limit_in_bytes", buf);
		return 0;
	}
	return cg_diag_say(
		d, ENOTSUP, NULL, NULL, "set",
		"%s: v1 has no %s; the nearest are memory.max (memory.limit_in_bytes, a hard limit) and memory.low (memory.soft_limit_in_bytes, reclaimed last)",
		file, !strcmp(file, "memory.high") ? "throttling limit" : "memory guarantee");
}

int cg_vocab_translate(int version, const char *file, const char *value,
		       const struct cg_vocab_ctx *ctx, struct cg_setting out[CG_SETTINGS_MAX],
		       size_t *ret_n, struct cg_diag *d)
{
	static const char *const mem[] = { "memory.max", "memory.high",	    "memory.low",
					   "memory.min", "memory.swap.max", "memory.oom.group" };
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(mem); i++)
		if (!strcmp(file, mem[i])) {
			*ret_n = 1;
			return memory(version, file, value, ctx, out, d);
		}
	if (!strcmp(file, "io.max"))
		return io_max(version, value, out, ret_n, d);
	if (!strcmp(file, "io.weight"))
		return io_weight(version, value, out, ret_n, d);
	if (!strcmp(file, "pids.max")) {
		if (strcmp(value, "max") && cg_parse_u64(value, INT32_MAX, &v) < 0) {
			return cg_diag_say(d, EINVAL, NULL, NULL, "set",
					   "pids.max takes a number of tasks or max, not '%s'",
					   value);
		}
		put(&out[0], file, value);
		*ret_n = 1;
		return 0;
	}
	return 1;
}

int cg_vocab_device(const char *value, char *out, size_t size)
{
	size_t len = strcspn(value, " ");
	char path[4096];
	struct stat st;

	if (value[0] != '/') {
		size_t dl = device_len(value);

		if (strlen(value) >= size)
			return -ENAMETOOLONG;
		/*
		 * The kernel's answer to a device it does not have is ENODEV at the write, which
		 * reads as a cgroup removed meanwhile: ask sysfs first, where it is mounted.
		 */
		if (dl) {
			snprintf(path, sizeof(path), "/sys/dev/block/%.*s", (int)dl, value);
			if (access(path, F_OK) < 0 && errno == ENOENT &&
			    access("/sys/dev/block", F_OK) == 0)
				return -ENODEV;
		}
		snprintf(out, size, "%s", value);
		return 0;
	}
	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	snprintf(path, sizeof(path), "%.*s", (int)len, value);
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -EINVAL;
	if ((size_t)snprintf(out, size, "%u:%u%s", major(st.st_rdev), minor(st.st_rdev),
			     value + len) >= size)
		return -ENAMETOOLONG;
	return 0;
}
