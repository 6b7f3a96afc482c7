// SPDX-License-Identifier: MIT
/* common/mount: layouts from literal mountinfo text, /proc/PID/cgroup lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "base/kparse.h"
#include "kernel/mount.h"
#include "base/strv.h"

/* this development host: v1 controllers split, name=systemd, cgroup2 at unified */
static const char hybrid[] =
	"22 1 253:0 / / rw,relatime - ext4 /dev/vda rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

/* a systemd distribution in legacy mode: co-mounted pairs, optional fields, xattr */
static const char legacy[] =
	"25 18 0:22 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
	"26 25 0:23 / /sys/fs/cgroup/systemd rw,nosuid shared:10 - cgroup cgroup rw,xattr,release_agent=/lib/systemd/systemd-cgroups-agent,name=systemd\n"
	"29 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:13 - cgroup cgroup rw,cpu,cpuacct\n"
	"30 25 0:27 / /sys/fs/cgroup/net_cls,net_prio rw shared:14 - cgroup cgroup rw,net_cls,net_prio\n"
	"31 25 0:28 / /sys/fs/cgroup/memory rw shared:15 master:3 - cgroup cgroup rw,memory\n";

static const char unified[] =
	"26 22 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

/* odd places: spaces escaped, the same hierarchy twice, a bind of a subtree, an overmount */
static const char odd[] = "40 31 0:40 / /mnt/my\\040cgroups rw - cgroup cgroup rw,pids\n"
			  "41 31 0:40 /sub /srv/pids-sub rw - cgroup cgroup rw,pids\n"
			  "42 31 0:41 /app /srv/app rw - cgroup2 cgroup2 rw\n"
			  "43 31 0:42 / /srv/app rw - cgroup2 cgroup2 rw\n"
			  "garbage line without separator\n"
			  "44 31 0:43 / /srv/short - cgroup\n";

static void test_hybrid(void)
{
	struct cg_layout *l;
	char *p = NULL;

	CHECK_INT(cg_layout_parse(hybrid, &l), 0);
	CHECK_INT(l->n, 6);
	CHECK_INT(cg_layout_kind(l), CG_LAYOUT_HYBRID);
	CHECK(l->unified != NULL);
	CHECK_STR(l->unified->mountpoint, "/sys/fs/cgroup/unified");
	CHECK_STR(cg_layout_find(l, "cpu")->mountpoint, "/sys/fs/cgroup/cpu");
	CHECK_STR(cg_layout_find(l, "cpuacct")->mountpoint, "/sys/fs/cgroup/cpuacct");
	CHECK_STR(cg_layout_find(l, "name=systemd")->label, "name=systemd");
	CHECK(cg_layout_find(l, "io") == NULL);
	CHECK(cg_layout_find(l, "name=other") == NULL);

	CHECK_INT(cg_kparse_proc_cgroup("4:memory:/process_api/x\n2:cpuacct:/\n0::/a/b\n",
					cg_layout_find(l, "memory"), &p),
		  0);
	CHECK_STR(p, "process_api/x");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("9:name=systemd:/user.slice\n0::/a/b\n",
					cg_layout_find(l, "name=systemd"), &p),
		  0);
	CHECK_STR(p, "user.slice");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("1:cpu:/\n0::/a/b\n", l->unified, &p), 0);
	CHECK_STR(p, "a/b");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("1:cpu:/\n", l->unified, &p), -ENOENT);
	/* a process outside our cgroup namespace */
	CHECK_INT(cg_kparse_proc_cgroup("0::/../../sibling\n", l->unified, &p), -EREMOTE);
	cg_layout_free(l);
}

static void test_legacy(void)
{
	struct cg_layout *l;
	struct cg_hier *h;

	CHECK_INT(cg_layout_parse(legacy, &l), 0);
	CHECK_INT(l->n, 4);
	CHECK_INT(cg_layout_kind(l), CG_LAYOUT_LEGACY);
	CHECK(l->unified == NULL);
	h = cg_layout_find(l, "cpuacct");
	CHECK(h && h == cg_layout_find(l, "cpu"));
	CHECK_STR(h->label, "cpu,cpuacct");
	CHECK_STR(h->mountpoint, "/sys/fs/cgroup/cpu,cpuacct");
	h = cg_layout_find(l, "name=systemd");
	CHECK(h && h->controllers[0] == NULL);
	CHECK_STR(h->name, "systemd");
	CHECK_STR(cg_layout_find(l, "net_prio")->label, "net_cls,net_prio");
	cg_layout_free(l);
}

static void test_unified(void)
{
	struct cg_layout *l;

	CHECK_INT(cg_layout_parse(unified, &l), 0);
	CHECK_INT(l->n, 1);
	CHECK_INT(cg_layout_kind(l), CG_LAYOUT_UNIFIED);
	CHECK_STR(l->unified->mountpoint, "/sys/fs/cgroup");
	CHECK_STR(l->unified->label, "unified");
	/* controllers of v2 come from cgroup.controllers, not from the mount options */
	CHECK(cg_layout_find(l, "memory") == NULL);
	cg_layout_free(l);
	CHECK_INT(cg_layout_parse("", &l), 0);
	CHECK_INT(cg_layout_kind(l), CG_LAYOUT_NONE);
	cg_layout_free(l);
}

static void test_odd(void)
{
	struct cg_layout *l;
	struct cg_hier *h;
	char *p = NULL;

	CHECK_INT(cg_layout_parse(odd, &l), 0);
	CHECK_INT(l->n, 2);
	h = cg_layout_find(l, "pids");
	CHECK_STR(h->mountpoint, "/mnt/my cgroups");
	CHECK_STR(h->root, "/");
	/* the overmount hides the bind of /app */
	CHECK_STR(l->unified->mountpoint, "/srv/app");
	CHECK_STR(l->unified->root, "/");
	cg_layout_free(l);

	/* a mount of a subtree only sees paths below its root */
	CHECK_INT(cg_layout_parse("42 31 0:41 /app /srv/app rw - cgroup2 cgroup2 rw\n", &l), 0);
	CHECK_INT(cg_kparse_proc_cgroup("0::/app/x/y\n", l->unified, &p), 0);
	CHECK_STR(p, "x/y");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("0::/app\n", l->unified, &p), 0);
	CHECK_STR(p, "");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("0::/apple\n", l->unified, &p), -ENOENT);
	CHECK_INT(cg_kparse_proc_cgroup("0::/../outside\n", l->unified, &p), -EREMOTE);
	cg_layout_free(l);

	/* a line longer than the parse's stack copy (512 bytes) is parsed alike, from the heap */
	{
		char line[1200], mp[1000];

		memset(mp, 'm', sizeof(mp) - 1);
		mp[0] = '/';
		mp[sizeof(mp) - 1] = '\0';
		snprintf(line, sizeof(line), "43 31 0:42 / %s rw - cgroup cgroup rw,pids,name=x\n",
			 mp);
		CHECK_INT(cg_layout_parse(line, &l), 0);
		CHECK_INT(l->n, 1);
		CHECK_STR(l->hier[0].mountpoint, mp);
		CHECK_STR(l->hier[0].label, "pids,name=x");
		cg_layout_free(l);
	}
}

/*
 * This host's mounts seen from `unshare -C` in /cgkit-test.1 of unified, cpu and pids (memory
 * left in /process_api/x): mountinfo prints each root relative to the namespace's root.
 */
static const char from_outside[] =
	"32 31 0:29 /.. /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"35 31 0:32 /../.. /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"39 31 0:36 /.. /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
	"41 31 0:38 /.. /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	/* the same hierarchy mounted again inside the namespace: that one is used */
	"50 31 0:36 / /srv/pids rw - cgroup cgroup rw,pids\n"
	"51 31 0:36 /../.. /srv/pids-up rw - cgroup cgroup rw,pids\n";

static void test_ns_roots(void)
{
	struct cg_layout *l;
	char *p = NULL;

	CHECK_INT(cg_kparse_root_levels_up("/"), 0);
	CHECK_INT(cg_kparse_root_levels_up("/x/y"), 0);
	CHECK_INT(cg_kparse_root_levels_up("/.."), 1);
	CHECK_INT(cg_kparse_root_levels_up("/../../.."), 3);
	CHECK_INT(cg_kparse_root_levels_up("/../"), 1);
	CHECK_INT(cg_kparse_root_levels_up("/../x"), -EREMOTE);
	CHECK_INT(cg_kparse_root_levels_up("/..x"), 0);
	CHECK_INT(cg_kparse_root_levels_up("/../..x"), -EREMOTE);
	CHECK_INT(cg_kparse_root_levels_up(""), 0);

	CHECK_INT(cg_layout_parse(from_outside, &l), 0);
	CHECK_INT(l->n, 5);
	CHECK_STR(cg_layout_find(l, "cpu")->root, "/..");
	CHECK_STR(cg_layout_find(l, "memory")->root, "/../..");
	CHECK_STR(cg_layout_find(l, "pids")->mountpoint, "/srv/pids");
	/* parsing alone searches nothing: the view is the mount's until cg_layout_load */
	CHECK(l->unified->dir == NULL && l->unified->nsbase == NULL && !l->unified->ns_error);
	/* /proc/self/cgroup is relative to the namespace's root, and so is the view */
	CHECK_INT(cg_kparse_proc_cgroup("1:cpu:/\n0::/\n", l->unified, &p), 0);
	CHECK_STR(p, "");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("0::/inner/x\n", l->unified, &p), 0);
	CHECK_STR(p, "inner/x");
	free(p);
	CHECK_INT(cg_kparse_proc_cgroup("1:cpu:/a\n", cg_layout_find(l, "cpu"), &p), 0);
	CHECK_STR(p, "a");
	free(p);
	/* beyond the namespace's root, though inside the mount */
	CHECK_INT(cg_kparse_proc_cgroup("0::/../other\n", l->unified, &p), -EREMOTE);
	CHECK_INT(cg_kparse_proc_cgroup("4:memory:/..\n", cg_layout_find(l, "memory"), &p),
		  -EREMOTE);
	cg_layout_free(l);

	/* a mount of a branch beside the namespace's root shows nothing inside it */
	CHECK_INT(cg_layout_parse("41 31 0:38 /../side /srv/side rw - cgroup2 cgroup2 rw\n", &l),
		  0);
	CHECK_INT(cg_kparse_proc_cgroup("0::/x\n", l->unified, &p), -ENOENT);
	CHECK_INT(cg_kparse_proc_cgroup("0::/../side/x\n", l->unified, &p), -EREMOTE);
	cg_layout_free(l);
}

/*
 * cg_layout_load finds the namespace's root below a "/.." mount: the directory that many levels
 * down below which this process is where its /proc/self/cgroup says. A fixture tree as the
 * mount (CGKIT_MOUNTINFO), this process's real cgroup2 path inside it.
 */
static void test_ns_locate(void)
{
	char dir[] = "/tmp/cgkit-ns-test.XXXXXX", text[1024], pid[32], cmd[4200];
	char *self = NULL, *line;
	FILE *f;
	struct cg_layout *l;

	f = fopen("/proc/self/cgroup", "r");
	CHECK(f != NULL);
	while (f && fgets(text, sizeof(text), f))
		if (!strncmp(text, "0::/", 4) && strncmp(text, "0::/..", 6)) {
			text[strcspn(text, "\n")] = '\0';
			self = strdup(text + 4);
		}
	if (f)
		fclose(f);
	if (!self)
		return; /* no cgroup2 line, or outside our own namespace's root */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	/* a: populated, not ours; b/c: ours, two levels down */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/a' '%s/b/c/%s' '%s/b/d'", dir, dir, self, dir);
	CHECK_INT(system(cmd), 0);
	check_put(dir, "a/cgroup.procs", "1\n");
	check_put(dir, "b/d/cgroup.events", "populated 0\nfrozen 0\n");
	snprintf(text, sizeof(text), "b/c/%s%scgroup.procs", self, *self ? "/" : "");
	check_put(dir, text, pid);
	snprintf(text, sizeof(text), "%s/mountinfo", dir);
	line = text + strlen(text) + 1;
	snprintf(line, sizeof(text) - strlen(text) - 1,
		 "41 31 0:38 /../.. %s rw - cgroup2 cgroup2 rw\n"
		 "42 31 0:39 /.. %s/a rw - cgroup cgroup rw,pids\n",
		 dir, dir);
	check_put(dir, "mountinfo", line);
	setenv("CGKIT_MOUNTINFO", text, 1);

	CHECK_INT(cg_layout_load(&l), 0);
	/* each is searched on first use (the unified controllers too are read only when asked) */
	CHECK(cg_layout_find(l, "pids") && cg_layout_find(l, "pids")->ns_pending);
	CHECK(cg_layout_find(l, "pids")->nsbase == NULL);
	CHECK(l->unified->ns_pending && l->unified->nsbase == NULL);
	(void)cg_hier_dir(cg_layout_find(l, "pids"));
	CHECK(!cg_layout_find(l, "pids")->ns_pending);
	CHECK_STR(cg_hier_nsbase(l->unified), "b/c");
	CHECK_STR(l->unified->nsbase, "b/c");
	snprintf(cmd, sizeof(cmd), "%s/b/c", dir);
	CHECK_STR(l->unified->dir, cmd);
	CHECK_STR(cg_hier_dir(l->unified), cmd);
	CHECK_INT(l->unified->ns_error, 0);
	CHECK(cg_hier_fd(l->unified) >= 0);
	cg_layout_free(l);

	/* one level up: b, and a, hold no such cgroup; nothing found is an error at use */
	snprintf(line, sizeof(text) - strlen(text) - 1,
		 "41 31 0:38 /.. %s rw - cgroup2 cgroup2 rw\n", dir);
	check_put(dir, "mountinfo", line);
	snprintf(cmd, sizeof(cmd), "rm -f '%s/b/c/%s/cgroup.procs'", dir, self);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(cg_layout_load(&l), 0);
	CHECK(l->unified->nsbase == NULL);
	CHECK_INT(cg_hier_fd(l->unified), -EREMOTE);
	CHECK_INT(cg_hier_open(l->unified, "x", O_RDONLY), -EREMOTE);
	cg_layout_free(l);

	unsetenv("CGKIT_MOUNTINFO");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK_INT(system(cmd), 0);
	free(self);
}

/* roots open on first use, once; a mountpoint that is gone is an error then, not at load */
static void test_hier_fd(void)
{
	char dir[] = "/tmp/cgkit-mount-test.XXXXXX", text[512];
	struct cg_layout *l;
	struct stat st;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(text, sizeof(text),
		 "50 31 0:44 / %s rw - cgroup cgroup rw,pids\n"
		 "51 31 123:4567 / %s/gone rw - cgroup cgroup rw,freezer\n"
		 "52 31 0:x / /srv/baddev rw - cgroup cgroup rw,devices\n"
		 "53 31 0:46 / /srv/other rw - ext4 /dev/vdb rw\n",
		 dir, dir);
	CHECK_INT(cg_layout_parse(text, &l), 0);
	CHECK_INT(l->n, 2);
	CHECK_INT(l->hier[0].fd, -1);
	CHECK_INT(l->hier[1].dev, makedev(123, 4567));
	fd = cg_hier_fd(&l->hier[0]);
	CHECK(fd >= 0);
	CHECK_INT(cg_hier_fd(&l->hier[0]), fd);
	CHECK(fstat(fd, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	/* the mount is gone, not a cgroup: no "no such cgroup" from the callers */
	CHECK_INT(cg_hier_fd(&l->hier[1]), -ESTALE);
	CHECK_INT(cg_hier_open(&l->hier[1], "x", O_RDONLY), -ESTALE);
	CHECK_INT(l->hier[1].fd, -1);
	cg_layout_free(l);
	CHECK(rmdir(dir) == 0);
}

static void test_strv(void)
{
	char **v = cg_strv_split("cpu,,memory,", ",");

	CHECK_INT(cg_strv_len(v), 2);
	CHECK(cg_strv_contains(v, "memory"));
	CHECK(!cg_strv_contains(v, ""));
	cg_strv_free(v);
}

int main(void)
{
	test_hybrid();
	test_legacy();
	test_unified();
	test_odd();
	test_hier_fd();
	test_ns_roots();
	test_ns_locate();
	test_strv();
	return CHECK_DONE();
}
