// SPDX-License-Identifier: MIT
/* cgcreate2 --mount: the cgroup filesystems mounted at /sys/fs/cgroup in early boot. */
#include "mountfs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "kernel/proc.h"
#include "base/strv.h"

#define CG_MOUNT_BASE "/sys/fs/cgroup"

static int do_mount(const char *fstype, const char *dir, const char *opts,
		    void (*cb)(const char *what))
{
	char what[512];

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mount(fstype, dir, fstype, MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		return -errno;
	if (cb) {
		snprintf(what, sizeof(what), "mounted %s%s%s at %s", fstype, opts ? " -o " : "",
			 opts ? opts : "", dir);
		cb(what);
	}
	return 0;
}

/* Distributions co-mount these pairs and keep each name as a symlink. */
static const char *const comounts[][2] = { { "cpu", "cpuacct" }, { "net_cls", "net_prio" } };

static int mount_legacy(void (*cb)(const char *what))
{
	_cleanup_free_ char *text = NULL;
	char **avail = calloc(1, sizeof(char *));
	char *save = NULL;
	int r;

	if (!avail)
		return -ENOMEM;
	r = cg_proc_read_all("/proc/cgroups", &text);
	if (r < 0)
		goto out;
	/* "#subsys_name hierarchy num_cgroups enabled" */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *fsave = NULL;
		uint64_t hier, num, enabled;
		int n = 0;

		if (line[0] == '#')
			continue;
		for (char *t = strtok_r(line, " \t", &fsave); t && n < 4;
		     t = strtok_r(NULL, " \t", &fsave))
			f[n++] = t;
		if (n < 4 || strlen(f[0]) > 63 || cg_parse_u64(f[1], UINT_MAX, &hier) < 0 ||
		    cg_parse_u64(f[2], UINT_MAX, &num) < 0 ||
		    cg_parse_u64(f[3], UINT_MAX, &enabled) < 0)
			continue;
		if (enabled && hier == 0 && (r = cg_strv_push(&avail, f[0])) < 0)
			goto out;
	}
	if ((r = do_mount("tmpfs", CG_MOUNT_BASE, "mode=755", cb)) < 0)
		goto out;
	for (char **c = avail; *c; c++) {
		const char *pair = NULL;
		char dir[256];

		for (size_t i = 0; i < ARRAY_SIZE(comounts); i++) {
			if (!strcmp(*c, comounts[i][1]) && cg_strv_contains(avail, comounts[i][0]))
				goto next; /* mounted with its partner */
			if (!strcmp(*c, comounts[i][0]) && cg_strv_contains(avail, comounts[i][1]))
				pair = comounts[i][1];
		}
		if (pair) {
			char opts[160], link[256];

			snprintf(opts, sizeof(opts), "%s,%s", *c, pair);
			snprintf(dir, sizeof(dir), CG_MOUNT_BASE "/%s", opts);
			if ((r = do_mount("cgroup", dir, opts, cb)) < 0)
				goto out;
			snprintf(link, sizeof(link), CG_MOUNT_BASE "/%s", *c);
			if (symlink(opts, link) < 0 && errno != EEXIST)
				goto fail_errno;
			snprintf(link, sizeof(link), CG_MOUNT_BASE "/%s", pair);
			if (symlink(opts, link) < 0 && errno != EEXIST)
				goto fail_errno;
		} else {
			snprintf(dir, sizeof(dir), CG_MOUNT_BASE "/%s", *c);
			if ((r = do_mount("cgroup", dir, *c, cb)) < 0)
				goto out;
		}
	next:;
	}
	goto out;
fail_errno:
	r = -errno;
out:
	cg_strv_free(avail);
	return r;
}

int cg_mount_setup(enum cg_mount_mode mode, void (*cb)(const char *what))
{
	struct cg_layout *l;
	struct stat st;
	int r;

	r = cg_layout_load(&l);
	if (r < 0)
		return r;
	r = l->n ? -EEXIST : 0;
	cg_layout_free(l);
	if (r < 0)
		return r;
	/* without sysfs there is no /sys/fs/cgroup to mount on; say so instead of creating it */
	if (stat(CG_MOUNT_BASE, &st) < 0)
		return -errno;
	if (mode == CG_MOUNT_UNIFIED)
		return do_mount("cgroup2", CG_MOUNT_BASE, NULL, cb);
	r = mount_legacy(cb);
	if (r < 0 || mode == CG_MOUNT_LEGACY)
		return r;
	return do_mount("cgroup2", CG_MOUNT_BASE "/unified", NULL, cb);
}
