// SPDX-License-Identifier: MIT
/* libFuzzer target for the parsers of common/ that eat kernel or user text. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "vocab/cpu.h"
#include "vocab/vocab.h"
#include "base/error.h"
#include "kernel/file.h"
#include "base/kparse.h"
#include "ops/migrate.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "cgroups/setup.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The four v1 throttle files after writes w (a "0" lifts a device), read back as io.max. */
static void io_files_back(const struct cg_setting *w, size_t n, char *back, size_t size)
{
	static const char *const files[4] = { "blkio.throttle.read_bps_device",
					      "blkio.throttle.write_bps_device",
					      "blkio.throttle.read_iops_device",
					      "blkio.throttle.write_iops_device" };
	char text[4][80] = { "", "", "", "" };
	const char *t[4];

	/* one device a translation: the last write to a file is what it holds */
	for (size_t i = 0; i < n; i++)
		for (int f = 0; f < 4; f++)
			if (!strcmp(w[i].file, files[f]) && strcmp(strchr(w[i].value, ' '), " 0"))
				snprintf(text[f], sizeof(text[f]), "%s\n", w[i].value);
	for (int f = 0; f < 4; f++)
		t[f] = text[f];
	if (cg_vocab_io_max_from_v1(t, back, size) < 0)
		abort();
}

/*
 * A v1 write that a value translated to, read back as v2 and written again: the same files get
 * the same values (cgtop2's limits are the exact inverse of cgcreate2 -r).
 */
static void read_back(const char *file, const struct cg_setting *w, size_t n,
		      const struct cg_vocab_ctx *ctx)
{
	struct cg_setting again[CG_SETTINGS_MAX];
	struct cg_diag d;
	char back[512];
	size_t m = 0;
	uint64_t u, limit = ctx ? ctx->memory_limit : UINT64_MAX;
	int64_t q;

	if (!strcmp(file, "cpu.weight")) {
		if (cg_parse_u64(w[0].value, 262144, &u) < 0)
			abort();
		snprintf(back, sizeof(back), "%" PRIu64, cg_cpu_weight_from_shares(u));
	} else if (!strcmp(file, "cpu.max")) {
		/* the period written, else the one there (the kernel's default) */
		uint64_t period = 100000;

		if (n == 2 && cg_parse_u64(w[0].value, 1000000, &period) < 0)
			abort();
		if (cg_parse_i64(w[n - 1].value, -1, INT64_MAX, &q) < 0 ||
		    cg_cpu_max_format(q, period, back, sizeof(back)) < 0)
			abort();
	} else if (!strcmp(file, "memory.swap.max") && ctx) {
		if (cg_parse_i64(w[0].value, -1, INT64_MAX, &q) < 0)
			abort();
		if (cg_vocab_size_format(q < 0 ? UINT64_MAX
					       : cg_vocab_swap_from_memsw(limit, (uint64_t)q),
					 back, sizeof(back)) < 0)
			abort();
	} else if (!strcmp(file, "io.max")) {
		char again_back[512];

		/*
		 * The kernel prints devices as it numbers them ("08:0" reads "8:0"): the files
		 * read back, written again and read once more say the same.
		 */
		io_files_back(w, n, back, sizeof(back));
		if (!*back)
			return;
		if (cg_vocab_translate(1, file, back, ctx, again, &m, &d) < 0)
			abort();
		io_files_back(again, m, again_back, sizeof(again_back));
		if (strcmp(back, again_back))
			abort();
		return;
	} else {
		return;
	}
	if (cg_cpu_translate(1, file, back, again, &m, &d) != 0 &&
	    cg_vocab_translate(1, file, back, ctx, again, &m, &d) != 0)
		abort();
	/* a period not given keeps the one there: compare what both wrote */
	if (!strcmp(file, "cpu.max") && n == 1 && m == 2)
		again[0] = again[1], m = 1;
	if (m != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (strcmp(again[i].file, w[i].file) || strcmp(again[i].value, w[i].value))
			abort();
}

static const char hybrid[] =
	"32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 /sub /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";

/* mounts from before a cgroup namespace: roots printed relative to its root */
static const char from_outside[] =
	"32 31 0:29 /.. /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	"33 31 0:30 /../side /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
	"41 31 0:38 /../.. /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";

static void check_path(const char *p)
{
	/* whatever came in, a normalized path never climbs or carries control characters */
	if (!strcmp(p, "..") || !strncmp(p, "../", 3) || strstr(p, "/../") ||
	    (strlen(p) >= 3 && !strcmp(p + strlen(p) - 3, "/..")) || p[0] == '/')
		abort();
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20)
			abort();
}

/*
 * The strtoull/strtoll/strtoul(8) parsers common/base/parse.c had before its own digit loop: what
 * the family returns must not have changed. Kept here only, as the oracle.
 */
static int old_check_start(const char *s)
{
	if (!s || !*s)
		return -EINVAL;
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '-' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	return 0;
}

static int old_check_end(const char *end)
{
	if (end[0] == '\n')
		end++;
	return end[0] ? -EINVAL : 0;
}

static int old_parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (old_check_start(s) < 0 || s[0] == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (old_check_end(end) < 0)
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

static int old_parse_i64(const char *s, int64_t min, int64_t max, int64_t *ret)
{
	char *end;
	long long v;

	if (old_check_start(s) < 0)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (old_check_end(end) < 0)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

static int old_parse_mode(const char *s, mode_t *ret)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '7')
			return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || *end || v > 07777)
		return -ERANGE;
	*ret = (mode_t)v;
	return 0;
}

/*
 * A size is the number it spells, scaled by the power of 1024 its one unit letter names,
 * under every flag: "max" only with CG_SIZE_MAX, a "B" or "iB" only with CG_SIZE_BYTES.
 */
static void sizes(const char *s)
{
	for (unsigned flags = 0; flags <= (CG_SIZE_MAX | CG_SIZE_BYTES); flags++) {
		const char *p = s, *unit = "KMGT";
		uint64_t u, digits;
		unsigned shift = 0;

		if (cg_parse_size(s, flags, &u) < 0)
			continue;
		if (!strncmp(s, "max", 3)) {
			if (!(flags & CG_SIZE_MAX) || u != UINT64_MAX)
				abort();
			continue;
		}
		if (cg_parse_u64_prefix(&p, UINT64_MAX, &digits) < 0)
			abort();
		if (*p && *p != '\n') {
			const char *k = strchr(unit, *p);

			if (!k || !*k)
				abort();
			shift = 10 * (unsigned)(k - unit + 1);
			p++;
			if ((*p == 'B' || *p == 'i') && !(flags & CG_SIZE_BYTES))
				abort();
		}
		if (shift && digits > UINT64_MAX >> shift)
			abort();
		if (u != digits << shift)
			abort();
	}
}

/*
 * -r FILE=VALUE: FILE taken only as an interface file's name, and routed from an empty call
 * (cgexec2 -t without -g) only to hierarchy roots: " cpu.weight" once made the path " cpu:".
 */
static void setting_names(const char *s)
{
	struct cg_assignments a = { 0 };
	struct cg_layout *l = NULL;
	struct cg_targets t = { 0 };
	struct cg_diag d;
	int r = cg_assignments_add(&a, s);

	if (r == 0) {
		if (!isalpha((unsigned char)a.v[0].file[0]))
			abort();
		for (const char *c = a.v[0].file; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != '.')
				abort();
	} else if (r != -EINVAL && r != -ENOMEM) {
		abort();
	}
	if (cg_layout_parse(hybrid, &l) == 0) {
		if (cg_setup_route(l, &t, r == 0 ? a.v[0].file : s, true, &d) == 0)
			for (size_t i = 0; i < t.n; i++)
				if (t.t[i].path[0])
					abort();
		cg_targets_clear(&t);
		cg_layout_free(l);
	}
	cg_assignments_clear(&a);
}

/* PSI's percentages: what strtod made of them before, for the digits the kernel prints */
static void decimal(const char *s)
{
	double d;
	size_t digits = strspn(s, "0123456789");

	if (cg_parse_decimal(s, 1e300, &d) < 0)
		return;
	if (s[digits] == '.')
		digits += strspn(s + digits + 1, "0123456789");
	if (digits <= 15 && d != strtod(s, NULL))
		abort();
}

/* A pid file (NULs and all): ids in range, or the first bad line named */
static void pid_file(const uint8_t *data, size_t size)
{
	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;
	struct cg_pid_file_bad bad = { 0 };
	pid_t *v = NULL;
	size_t n = 0, cap = 0;
	int r;

	if (!f)
		return;
	r = cg_parse_pid_file(f, &v, &n, &cap, &bad);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		if (v[i] < 1 || (uint64_t)v[i] > CG_PID_MAX)
			abort();
	if (r == -EINVAL && (!bad.text || !bad.line || bad.len > size))
		abort();
	free(bad.text);
	free(v);
}

/* The numbers: each parser against its old self, with bounds taken from the input. */
static void numbers(const char *s, const uint8_t *data, size_t size)
{
	uint64_t max = size > 2
			       ? (data[1] % 4 == 0 ? UINT64_MAX : (uint64_t)data[2] << data[1] % 60)
			       : UINT64_MAX;
	int64_t lo = size > 2 ? -(int64_t)(data[2] % 4 ? data[2] : 0) * 1000 : INT64_MIN;
	uint64_t u = 0, ou = 0;
	int64_t i = 0, oi = 0;
	mode_t m = 0, om = 0;
	const char *p = s, *q;
	int r;

	r = cg_parse_u64(s, max, &u);
	if (r != old_parse_u64(s, max, &ou) || (r == 0 && u != ou))
		abort();
	r = cg_parse_i64(s, INT64_MIN, INT64_MAX, &i);
	if (r != old_parse_i64(s, INT64_MIN, INT64_MAX, &oi) || (r == 0 && i != oi))
		abort();
	r = cg_parse_i64(s, lo, (int64_t)(max >> 1), &i);
	if (r != old_parse_i64(s, lo, (int64_t)(max >> 1), &oi) || (r == 0 && i != oi))
		abort();
	r = cg_parse_mode(s, &m);
	if (r != old_parse_mode(s, &om) || (r == 0 && m != om))
		abort();
	/* the core: digits only, every one consumed, the value as the whole-string parse's */
	r = cg_parse_u64_prefix(&p, max, &u);
	for (q = s; *q >= '0' && *q <= '9'; q++)
		;
	if (p != q || (r == -EINVAL) != (q == s))
		abort();
	if (q > s) {
		char *digits = strndup(s, (size_t)(q - s));

		if (digits && (cg_parse_u64(digits, max, &ou) != r || (r == 0 && u != ou)))
			abort();
		free(digits);
	}
}

/*
 * The UTF-8 decoder against one written the other way round: take the bytes a lead promises,
 * then refuse by the code point (overlong for its length, a surrogate, past U+10FFFF). Every
 * position of the input, with what is left there as the length.
 */
static size_t utf8_oracle(const unsigned char *s, size_t left, uint32_t *ret)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] < 0x80		   ? 1
		   : (s[0] & 0xe0) == 0xc0 ? 2
		   : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4
					   : 0;
	uint32_t c;

	if (!n || n > left)
		return 0;
	c = n == 1 ? s[0] : s[0] & (0xffu >> (n + 1));
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < least[n] || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*ret = c;
	return n;
}

static void utf8_against_oracle(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		uint32_t c = 0, want = 0;
		size_t n = cg_utf8_decode(data + i, size - i, &c);

		if (n != utf8_oracle(data + i, size - i, &want) || (n && c != want))
			abort();
	}
	if (size == 0 && cg_utf8_decode(data, 0, NULL) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	struct cg_layout *l = NULL;

	/* any bytes are text to decode: every input, whatever case it chooses */
	utf8_against_oracle(data, size);
	if (size < 1)
		return 0;
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		return 0;
	/* new cases take new numbers: the corpus's first bytes keep choosing what they did */
	switch (data[0] % 12) {
	case 0:
		if (cg_layout_parse(s, &l) == 0) {
			for (size_t i = 0; i < l->n; i++)
				if (!l->hier[i].label || !l->hier[i].mountpoint)
					abort();
			cg_layout_free(l);
		}
		break;
	case 1:
		for (int k = 0; k < 2; k++) {
			if (cg_layout_parse(k ? from_outside : hybrid, &l) < 0)
				continue;
			for (size_t i = 0; i < l->n; i++) {
				char *p = NULL;
				int r = cg_kparse_proc_cgroup(s, &l->hier[i], &p);

				if (r == 0) {
					check_path(p);
					free(p);
				} else if (r != -ENOENT && r != -EREMOTE && r != -ENOMEM) {
					abort();
				}
			}
			cg_layout_free(l);
		}
		/* as a mountinfo root: levels up only from a root made of "/.." alone */
		{
			int up = cg_kparse_root_levels_up(s);

			if ((up < 0 && up != -EREMOTE) || (up > 0 && strncmp(s, "/..", 3)) ||
			    up > (int)size)
				abort();
		}
		break;
	case 2:
		if (cg_layout_parse(hybrid, &l) == 0) {
			struct cg_targets t = { 0 };
			struct cg_diag d;

			if (cg_spec_parse(l, s, &t, &d) == 0)
				for (size_t i = 0; i < t.n; i++)
					check_path(t.t[i].path);
			cg_targets_clear(&t);
			cg_layout_free(l);
		}
		break;
	case 3: {
		char *p = NULL;

		if (cg_path_normalize(s, &p) == 0) {
			check_path(p);
			free(p);
		}
		break;
	}
	case 4: {
		uint64_t u;
		int64_t i;
		mode_t m;

		(void)cg_parse_u64(s, UINT64_MAX, &u);
		(void)cg_parse_i64(s, INT64_MIN, INT64_MAX, &i);
		if (cg_parse_seconds(s, &u) == 0 && (u == 0 || u > 86400 * NSEC_PER_SEC))
			abort();
		(void)cg_parse_mode(s, &m);
		numbers(s, data, size);
		decimal(s);
		pid_file(data + 1, size - 1);
		break;
	}
	case 5: {
		struct cg_setting out[CG_SETTINGS_MAX];
		const struct cg_vocab_ctx ctx = { .memory_limit = (uint64_t)size << 20 };
		size_t n;
		struct cg_diag d;
		char *eq = strchr(s, '=');

		setting_names(s);
		if (eq) {
			*eq = '\0';
			for (int v = 1; v <= 2; v++) {
				if (cg_cpu_translate(v, s, eq + 1, out, &n, &d) == 0) {
					if (n < 1 || n > 2)
						abort();
					if (v == 1)
						read_back(s, out, n, NULL);
				}
				/* every translation writes 1..4 plain files, each value one line */
				if (cg_vocab_translate(v, s, eq + 1, (size & 1) ? &ctx : NULL, out,
						       &n, &d) == 0) {
					if (n < 1 || n > CG_SETTINGS_MAX)
						abort();
					for (size_t i = 0; i < n; i++)
						if (!out[i].file[0] || strchr(out[i].file, '/') ||
						    (v == 1 && strchr(out[i].value, '\n')))
							abort();
					if (v == 1)
						read_back(s, out, n, (size & 1) ? &ctx : NULL);
				}
			}
		}
		sizes(s);
		break;
	}
	case 6: {
		/* cg_quote: bounded, no control byte, no C1, idempotent on its own output */
		char a[64], b[64], big[4096];

		for (size_t size = 1; size <= sizeof(a); size += 21) {
			cg_quote(s, a, size);
			if (strlen(a) >= size)
				abort();
			for (const unsigned char *c = (const unsigned char *)a; *c; c++)
				if (*c < 0x20 || *c == 0x7f ||
				    (c[0] == 0xc2 && c[1] >= 0x80 && c[1] < 0xa0))
					abort();
		}
		cg_quote(s, big, sizeof(big));
		cg_quote(big, b, sizeof(b));
		cg_quote(b, a, sizeof(a));
		if (strcmp(a, b))
			abort();
		break;
	}
	case 7: {
		uint64_t id = size > 1 ? data[1] % 64 : 0;
		int r = cg_kparse_mountinfo_in_cgroup(s, id);

		if (r != 0 && r != 1 && r != -EINVAL && r != -ELOOP)
			abort();
		break;
	}
	case 8: {
		/* a membership listing: sorted, unique, every id a pid */
		pid_t *v = NULL;
		size_t n = 0;

		pid_t *lv = NULL;
		size_t ln = 0;
		int strict = cg_kparse_members(s, false, &v, &n);

		if (strict == 0)
			for (size_t k = 0; k < n; k++)
				if (v[k] <= 0 || (uint32_t)v[k] > CG_PID_MAX ||
				    (k && v[k - 1] >= v[k]))
					abort();
		/* lax never refuses, and where strict takes the text it finds the same ids */
		if (cg_kparse_members(s, true, &lv, &ln) == 0) {
			for (size_t k = 0; k < ln; k++)
				if (lv[k] <= 0 || (uint32_t)lv[k] > CG_PID_MAX ||
				    (k && lv[k - 1] >= lv[k]))
					abort();
			if (strict == 0 && (ln != n || (n && memcmp(v, lv, n * sizeof(*v)))))
				abort();
		} else {
			abort();
		}
		free(lv);
		free(v);
		(void)cg_cpulist_validate(s);
		/* v1 per-device files as kernel text: read back as v2 or refused, never overrun */
		{
			const char *t[4] = { s, NULL, s, NULL };
			char back[256];
			struct cg_setting w[CG_SETTINGS_MAX];
			struct cg_diag d;
			size_t m;

			if (cg_vocab_io_max_from_v1(t, back, sizeof(back)) == 0 && *back &&
			    strlen(back) < sizeof(w[0].value) && !strchr(back, '\n') &&
			    cg_vocab_translate(1, "io.max", back, NULL, w, &m, &d) < 0)
				abort();
			if (cg_vocab_io_weight_from_v1(size & 1 ? s : NULL, s, back,
						       sizeof(back)) == 0 &&
			    strncmp(back, "default ", 8))
				abort();
		}
		break;
	}
	case 9: {
		/* split then join gives the fields back with one separator between them */
		char **v = cg_strv_split(s, ",");
		char *j = v ? cg_strv_join(v, ",") : NULL;
		char **w = j ? cg_strv_split(j, ",") : NULL;

		if (w && cg_strv_len(w) != cg_strv_len(v))
			abort();
		for (size_t k = 0; w && w[k]; k++)
			if (strcmp(v[k], w[k]))
				abort();
		cg_strv_free(v);
		cg_strv_free(w);
		free(j);
		break;
	}
	case 10:
		/* a -g list, one spec a line: as the specs one by one, or acc as it was */
		if (cg_layout_parse(hybrid, &l) == 0) {
			char **v = cg_strv_split(s, "\n");
			struct cg_targets all = { 0 }, each = { 0 };
			struct cg_diag d;
			int r = 0;

			if (v && cg_spec_parse(l, "cpu:/kept", &all, &d) == 0) {
				for (char **e = v; r == 0 && *e; e++)
					r = cg_spec_parse(l, *e, &each, &d);
				if (cg_specs_parse(l, v, 0, &all, &d) != r && r != -ENOMEM)
					abort();
				if (r == 0 && (all.n < each.n || all.n > each.n + 1))
					abort();
				if (r < 0 && r != -ENOMEM && all.n != 1)
					abort();
				for (size_t i = 0; i < all.n; i++)
					check_path(all.t[i].path);
			}
			cg_targets_clear(&all);
			cg_targets_clear(&each);
			cg_strv_free(v);
			cg_layout_free(l);
		}
		break;
	case 11: {
		/* --at, --begin, --end: a time at or before now when relative, never before the epoch */
		const uint64_t now = 1796653230ULL * NSEC_PER_SEC;
		uint64_t t = 0;

		if (cg_parse_when(s, now, &t) == 0 && s[0] == '-' && t > now)
			abort();
		break;
	}
	}
	free(s);
	return 0;
}
