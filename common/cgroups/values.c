// SPDX-License-Identifier: MIT
/* A cgroup's interface files read back by name (common/values.h): cgtop2 --get. */
#include "values.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "base/cleanup.h"
#include "vocab/cpu.h"
#include "base/error.h"
#include "kernel/file.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "base/strv.h"
#include "vocab/vocab.h"

#define disp cg_path_display

/* What v1 reads for "no limit" in its memory files: the page counter's maximum, page-aligned */
#define V1_UNLIMITED (INT64_MAX & ~4095LL)

/* FILE beneath the cgroup's fd, its last newline off: 0, -errno (-ENOENT: no such file) */
static int read_file(int dfd, const char *file, char **ret)
{
	char *text = NULL;
	size_t len;
	int r = cg_read_at(dfd, file, &text);

	if (r < 0)
		return r;
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = 0;
	*ret = text;
	return 0;
}

/* A translation: the file asked for on one side, the files it is read from on the other. */
struct back {
	const char *file; /* asked for */
	int version; /* the hierarchy the sources are on */
	const char *src[2];
};

static const struct back backs[] = {
	{ "cpu.weight", 1, { "cpu.shares" } },
	{ "cpu.max", 1, { "cpu.cfs_quota_us", "cpu.cfs_period_us" } },
	{ "memory.max", 1, { "memory.limit_in_bytes" } },
	{ "memory.low", 1, { "memory.soft_limit_in_bytes" } },
	{ "memory.swap.max", 1, { "memory.limit_in_bytes", "memory.memsw.limit_in_bytes" } },
	{ "cpu.shares", 2, { "cpu.weight" } },
	{ "cpu.cfs_quota_us", 2, { "cpu.max" } },
	{ "cpu.cfs_period_us", 2, { "cpu.max" } },
	{ "memory.limit_in_bytes", 2, { "memory.max" } },
	{ "memory.soft_limit_in_bytes", 2, { "memory.low" } },
};

/* A v1 memory size as its v2 file reads: bytes, or "max" */
static int v1_size(const char *text, uint64_t *ret)
{
	int64_t v;

	if (cg_parse_i64(text, -1, INT64_MAX, &v) < 0)
		return -EINVAL;
	*ret = v < 0 || v >= V1_UNLIMITED ? UINT64_MAX : (uint64_t)v;
	return 0;
}

/* The asked value from the sources' texts (src[1] NULL for one source): 0 or -EINVAL. */
static int translate(const char *file, char *const src[2], char *out, size_t size)
{
	uint64_t u, w;
	int64_t q;

	if (!strcmp(file, "cpu.weight")) {
		if (cg_parse_u64(src[0], UINT64_MAX, &u) < 0)
			return -EINVAL;
		snprintf(out, size, "%" PRIu64, cg_cpu_weight_from_shares(u));
	} else if (!strcmp(file, "cpu.max")) {
		if (cg_parse_i64(src[0], -1, INT64_MAX, &q) < 0 ||
		    cg_parse_u64(src[1], UINT64_MAX, &u) < 0)
			return -EINVAL;
		return cg_cpu_max_format(q, u, out, size);
	} else if (!strcmp(file, "memory.max") || !strcmp(file, "memory.low")) {
		if (v1_size(src[0], &u) < 0)
			return -EINVAL;
		return cg_vocab_size_format(u, out, size);
	} else if (!strcmp(file, "memory.swap.max")) {
		if (v1_size(src[0], &u) < 0 || v1_size(src[1], &w) < 0)
			return -EINVAL;
		return cg_vocab_size_format(cg_vocab_swap_from_memsw(u, w), out, size);
	} else if (!strcmp(file, "cpu.shares")) {
		struct cg_setting s[2];
		size_t n;

		/* the shares that cpu.weight is written as on v1: the inverse mapping */
		if (cg_cpu_translate(1, "cpu.weight", src[0], s, &n, NULL) < 0)
			return -EINVAL;
		snprintf(out, size, "%s", s[0].value);
	} else if (!strncmp(file, "cpu.cfs_", 8)) {
		if (cg_cpu_max_parse(src[0], &q, &u) < 0)
			return -EINVAL;
		if (!strcmp(file, "cpu.cfs_quota_us"))
			snprintf(out, size, "%" PRId64, q);
		else
			snprintf(out, size, "%" PRIu64, u);
	} else {
		/* memory.limit_in_bytes, memory.soft_limit_in_bytes: "max" is v1's -1 */
		if (cg_parse_size(src[0], CG_SIZE_MAX, &u) < 0)
			return -EINVAL;
		if (u == UINT64_MAX)
			snprintf(out, size, "-1");
		else
			snprintf(out, size, "%" PRIu64, u);
	}
	return 0;
}

/* FILE on h's cgroup translated from the other vocabulary: 0, 1 (none there), -errno */
static int get_translated(const struct cg_hier *h, int dfd, const char *file, struct cg_value *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(backs); i++) {
		const struct back *b = &backs[i];
		char *src[2] = { NULL, NULL }, out[256], from[512];
		int r = 0;

		if (strcmp(b->file, file) || b->version != h->version)
			continue;
		for (int k = 0; k < 2 && b->src[k] && r == 0; k++)
			r = read_file(dfd, b->src[k], &src[k]);
		if (r == 0)
			r = translate(file, src, out, sizeof(out));
		if (r == 0) {
			snprintf(from, sizeof(from), "%s: %s%s%s%s%s", b->src[0], src[0],
				 src[1] ? ", " : "", src[1] ? b->src[1] : "", src[1] ? ": " : "",
				 src[1] ? src[1] : "");
			ret->hier = h;
			ret->text = strdup(out);
			ret->from = strdup(from);
			if (!ret->text || !ret->from)
				r = -ENOMEM;
		}
		free(src[0]);
		free(src[1]);
		return r == -ENOENT ? 1 : r;
	}
	return 1;
}

/* Whether h serves the controller of file ("cpu.max": cpu; io.*: blkio on v1) */
static bool serves(const struct cg_hier *h, const char *file)
{
	_cleanup_free_ char *ctrl = cg_file_controller(file);

	return ctrl && cg_hier_has(h, h->version == 1 ? cg_vocab_v1_controller(ctrl) : ctrl);
}

int cg_value_get(struct cg_hier *const *hs, size_t n, const char *path, const char *file,
		 struct cg_value *ret, struct cg_diag *d)
{
	char where[4096];
	bool any = false;
	int r;

	disp(path, where, sizeof(where));
	if (!cg_name_is_plain(file))
		return cg_diag_say(d, EINVAL, where, "", "get",
				   "'%s' is not an interface file name", file);
	/* the hierarchies that serve the file's controller first, then the rest */
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < n; i++) {
			_cleanup_close_ int dfd = -1;
			struct cg_value v = { 0 };

			if (pass < 2 && serves(hs[i], file) != (pass == 0))
				continue;
			dfd = cg_open_dir(hs[i], path);
			if (dfd == -ENOENT)
				continue;
			if (dfd < 0)
				return cg_diag_fail(d, -dfd, CG_OP_OPEN, hs[i]->version, where,
						    hs[i]->label, "open");
			any = true;
			if (pass < 2) {
				r = read_file(dfd, file, &v.text);
				if (r == 0) {
					v.hier = hs[i];
					*ret = v;
					return 0;
				}
				if (r != -ENOENT)
					return cg_diag_fail(d, -r, CG_OP_READ, hs[i]->version,
							    where, hs[i]->label, "read %s", file);
				continue;
			}
			r = get_translated(hs[i], dfd, file, &v);
			if (r == 0) {
				*ret = v;
				return 0;
			}
			cg_value_clear(&v);
			if (r < 0)
				return cg_diag_fail(d, -r, CG_OP_READ, hs[i]->version, where,
						    hs[i]->label, "read %s", file);
		}
	if (!any)
		return cg_diag_say(d, ENOENT, where, "", "get",
				   "no such cgroup on the hierarchies asked for");
	return cg_diag_say(d, ENODATA, where, "", "get",
			   "no interface file %s there, nor a translation of it", file);
}

void cg_value_clear(struct cg_value *v)
{
	free(v->text);
	free(v->from);
	*v = (struct cg_value){ 0 };
}

/* name starts with "CTRL." for one of ctrls (NULL: any) */
static bool of_controllers(const char *name, char *const *ctrls)
{
	if (!ctrls)
		return true;
	for (; *ctrls; ctrls++) {
		size_t n = strlen(*ctrls);

		if (!strncmp(name, *ctrls, n) && name[n] == '.')
			return true;
	}
	return false;
}

int cg_value_files(const struct cg_hier *h, const char *path, char *const *ctrls, char ***ret)
{
	_cleanup_close_ int dfd = cg_open_dir(h, path);
	_cleanup_strv_free_ char **names = NULL;
	DIR *dir;
	struct dirent *e;
	int fd, r = 0;

	if (dfd < 0)
		return dfd;
	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		r = -errno;
		close(fd);
		return r;
	}
	names = calloc(1, sizeof(*names));
	while (names && (e = readdir(dir))) {
		struct stat st;

		if (e->d_name[0] == '.' || !of_controllers(e->d_name, ctrls))
			continue;
		/* the files a read can give: regular, readable by someone (cgget skips the rest) */
		if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		r = cg_strv_push(&names, e->d_name);
		if (r < 0)
			break;
	}
	closedir(dir);
	if (!names)
		return -ENOMEM;
	if (r < 0)
		return r;
	*ret = TAKE_PTR(names);
	return 0;
}

int cg_value_owners(const struct cg_hier *h, const char *path, struct cg_value_owners *ret)
{
	_cleanup_close_ int dfd = cg_open_dir(h, path);
	struct stat d, t;

	if (dfd < 0)
		return dfd;
	if (fstatat(dfd, "", &d, AT_EMPTY_PATH) < 0 ||
	    fstatat(dfd, cg_membership_file(h, false), &t, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	*ret = (struct cg_value_owners){ d.st_uid, d.st_gid, t.st_uid, t.st_gid };
	return 0;
}
