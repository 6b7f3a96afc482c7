// SPDX-License-Identifier: MIT
/* libFuzzer target for the parsers of common/ that eat kernel or user text. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "error.h"
#include "file.h"
#include "mount.h"
#include "parse.h"
#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char hybrid[] =
	"32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 /sub /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	struct cg_layout *l = NULL;

	if (size < 1)
		return 0;
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		return 0;
	switch (data[0] % 8) {
	case 0:
		if (cg_layout_parse(s, &l) == 0) {
			for (size_t i = 0; i < l->n; i++)
				if (!l->hier[i].label || !l->hier[i].mountpoint)
					abort();
			cg_layout_free(l);
		}
		break;
	case 1:
		if (cg_layout_parse(hybrid, &l) == 0) {
			for (size_t i = 0; i < l->n; i++) {
				char *p = NULL;

				if (cg_proc_cgroup_parse(s, &l->hier[i], &p) == 0) {
					check_path(p);
					free(p);
				}
			}
			cg_layout_free(l);
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
		if (cg_parse_seconds(s, &u) == 0 && (u == 0 || u > 86400 * 1000000000ULL))
			abort();
		(void)cg_parse_mode(s, &m);
		break;
	}
	case 5: {
		struct cg_setting out[2];
		size_t n;
		char why[128];
		char *eq = strchr(s, '=');

		if (eq) {
			*eq = '\0';
			for (int v = 1; v <= 2; v++)
				if (cg_cpu_translate(v, s, eq + 1, out, &n, why, sizeof(why)) ==
					    0 &&
				    (n < 1 || n > 2))
					abort();
		}
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
		int r = cg_mountinfo_in_cgroup(s, id);

		if (r != 0 && r != 1 && r != -EINVAL && r != -ELOOP)
			abort();
		break;
	}
	}
	free(s);
	return 0;
}
