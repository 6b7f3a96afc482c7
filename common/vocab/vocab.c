// SPDX-License-Identifier: MIT
/* Memory, IO and pids in the v2 vocabulary, translated for v1 (pure but for cg_vocab_device). */
#include "vocab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "base/parse.h"

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

/* ---- read back -------------------------------------------------------------------------- */

int cg_vocab_size_format(uint64_t v, char *buf, size_t size)
{
	int n = v == UINT64_MAX ? snprintf(buf, size, "max") : snprintf(buf, size, "%" PRIu64, v);

	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}

uint64_t cg_vocab_swap_from_memsw(uint64_t limit, uint64_t memsw)
{
	if (memsw == UINT64_MAX)
		return UINT64_MAX;
	/* the kernel keeps memsw >= limit: a limited memsw under an unlimited limit cannot be */
	return memsw > limit ? memsw - limit : 0;
}

/* One "MAJ:MIN N" line of a v1 per-device file at *p: advances *p past its newline. */
static int device_line(const char **p, unsigned *maj, unsigned *min, uint64_t *v)
{
	const char *q = *p;
	uint64_t a, b;

	if (cg_parse_u64_prefix(&q, 4095, &a) < 0 || *q++ != ':' ||
	    cg_parse_u64_prefix(&q, 1048575, &b) < 0 || *q++ != ' ' ||
	    cg_parse_u64_prefix(&q, UINT64_MAX, v) < 0 || (*q && *q != '\n'))
		return -EINVAL;
	*maj = (unsigned)a;
	*min = (unsigned)b;
	*p = *q ? q + 1 : q;
	return 0;
}

struct io_limit {
	unsigned maj, min;
	uint64_t v[4];
};

static int io_limit_cmp(const void *a, const void *b)
{
	const struct io_limit *x = a, *y = b;

	if (x->maj != y->maj)
		return x->maj < y->maj ? -1 : 1;
	return x->min < y->min ? -1 : x->min > y->min;
}

/* out + *len, size: what fits; -ENOBUFS when it did not */
static int append(char *out, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int append(char *out, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return -ENOBUFS;
	va_start(ap, fmt);
	n = vsnprintf(out + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *len)
		return -ENOBUFS;
	*len += (size_t)n;
	return 0;
}

int cg_vocab_io_max_from_v1(const char *const text[4], char *out, size_t size)
{
	static const char *const keys[4] = { "rbps", "wbps", "riops", "wiops" };
	/* a device per line of four files: more than any machine has disks being throttled */
	struct io_limit dev[64];
	size_t n = 0, len = 0;

	if (!size)
		return -ENOBUFS;
	out[0] = '\0';
	for (int f = 0; f < 4; f++) {
		const char *p = text[f];

		while (p && *p) {
			unsigned maj, min;
			uint64_t v;
			size_t i;

			if (device_line(&p, &maj, &min, &v) < 0)
				return -EINVAL;
			for (i = 0; i < n; i++)
				if (dev[i].maj == maj && dev[i].min == min)
					break;
			if (i == n) {
				if (n == ARRAY_SIZE(dev))
					return -ENOBUFS;
				dev[n++] = (struct io_limit){ maj, min, { 0, 0, 0, 0 } };
			}
			/* 0 lifts a v1 throttle, as max does the v2 one */
			dev[i].v[f] = v;
		}
	}
	qsort(dev, n, sizeof(dev[0]), io_limit_cmp);
	for (size_t i = 0; i < n; i++) {
		if (append(out, size, &len, "%s%u:%u", i ? "\n" : "", dev[i].maj, dev[i].min) < 0)
			return -ENOBUFS;
		for (int f = 0; f < 4; f++) {
			int r = dev[i].v[f] ? append(out, size, &len, " %s=%" PRIu64, keys[f],
						     dev[i].v[f])
					    : append(out, size, &len, " %s=max", keys[f]);

			if (r < 0)
				return r;
		}
	}
	return 0;
}

int cg_vocab_io_weight_from_v1(const char *weight, const char *weight_device, char *out,
			       size_t size)
{
	const char *p = weight_device;
	uint64_t def = 0;
	size_t len = 0;

	if (weight) {
		const char *w = strncmp(weight, "default ", 8) ? weight : weight + 8;

		if (cg_parse_u64(w, 10000, &def) < 0 || !def)
			return -EINVAL;
	} else if (p && !strncmp(p, "default ", 8)) {
		p += 8;
		if (cg_parse_u64_prefix(&p, 10000, &def) < 0 || !def || (*p && *p != '\n'))
			return -EINVAL;
	}
	if (!def)
		return -ENOENT;
	if (append(out, size, &len, "default %" PRIu64, def) < 0)
		return -ENOBUFS;
	/* weight_device's own default line: the weight above says it */
	if (p && !strncmp(p, "default ", 8))
		p += strcspn(p, "\n");
	while (p && *p == '\n')
		p++;
	while (p && *p) {
		unsigned maj, min;
		uint64_t v;

		if (device_line(&p, &maj, &min, &v) < 0 || !v || v > 10000)
			return -EINVAL;
		if (append(out, size, &len, "\n%u:%u %" PRIu64, maj, min, v) < 0)
			return -ENOBUFS;
	}
	return 0;
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
