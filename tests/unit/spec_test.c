// SPDX-License-Identifier: MIT
/* common/spec: specs -> targets on each layout, confinement, the errors users see. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "layout.h"
#include "spec.h"
#include "strv.h"

static const char hybrid[] =
	"32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
static const char legacy[] =
	"29 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	"31 25 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
static const char unified[] = "26 22 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";

static void test_normalize(void)
{
	char *p = NULL;

	CHECK_INT(cg_path_normalize("/a//b/./c/", &p), 0);
	CHECK_STR(p, "a/b/c");
	free(p);
	CHECK_INT(cg_path_normalize("/", &p), 0);
	CHECK_STR(p, "");
	free(p);
	CHECK_INT(cg_path_normalize("a/../../etc", &p), -EINVAL);
	CHECK_INT(cg_path_normalize("..", &p), -EINVAL);
	CHECK_INT(cg_path_normalize("a/b\nc", &p), -EINVAL);
	CHECK_INT(cg_path_normalize("a/\x7f", &p), -EINVAL);
	/* dots inside names are names */
	CHECK_INT(cg_path_normalize("a/..b/c..", &p), 0);
	CHECK_STR(p, "a/..b/c..");
	free(p);
}

static void test_hybrid(void)
{
	struct cg_layout *l = fixture_layout(hybrid, "hugetlb");
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };

	/* bare path: the unified hierarchy */
	CHECK_INT(cg_spec_parse(l, "/a/b", &t, &d), 0);
	CHECK_INT(t.n, 1);
	CHECK(t.t[0].hier == l->unified);
	CHECK_STR(t.t[0].path, "a/b");
	cg_targets_clear(&t);

	/* split cpu and cpuacct: two targets, each with its controller */
	CHECK_INT(cg_spec_parse(l, "cpu,cpuacct:/x", &t, &d), 0);
	CHECK_INT(t.n, 2);
	CHECK_STR(t.t[0].controllers[0], "cpu");
	CHECK_STR(t.t[1].controllers[0], "cpuacct");
	/* a second spec adds, repeating one merges */
	CHECK_INT(cg_spec_parse(l, "cpu:/x", &t, &d), 0);
	CHECK_INT(t.n, 2);
	CHECK_INT(cg_spec_parse(l, "name=systemd:y", &t, &d), 0);
	CHECK_INT(t.n, 3);
	CHECK(t.t[2].controllers[0] == NULL);
	/* a failing spec leaves what was accumulated alone */
	CHECK_INT(cg_spec_parse(l, "cpu,nosuch:/z", &t, &d), -ENOENT);
	CHECK_INT(t.n, 3);
	CHECK(strstr(d.why, "'nosuch' is not mounted") != NULL);
	CHECK(strstr(d.why, "unified at /sys/fs/cgroup/unified offers: hugetlb") != NULL);
	/* a file system path where the path inside the hierarchy was meant: refused, saying it */
	CHECK_INT(cg_spec_parse(l, "cpu:/sys/fs/cgroup/cpu/a", &t, &d), -EINVAL);
	CHECK(strstr(d.why,
		     "/sys/fs/cgroup/cpu is where cgroups are mounted, not a cgroup: give the path inside the hierarchy: /a") !=
	      NULL);
	CHECK_INT(cg_spec_parse(l, "/sys/fs/cgroup/unified", &t, &d), -EINVAL);
	CHECK(strstr(d.why, "give the path inside the hierarchy: /") != NULL);
	/* the tmpfs above the hierarchies, no mount of its own */
	CHECK_INT(cg_spec_parse(l, "sys/fs/cgroup/b/c", &t, &d), -EINVAL);
	CHECK(strstr(d.why,
		     "/sys/fs/cgroup is where cgroups are mounted, not a cgroup: give the path inside the hierarchy: /b/c") !=
	      NULL);
	CHECK_INT(t.n, 3);
	/* a cgroup merely called sys is not one */
	{
		struct cg_targets sys = { 0 };

		CHECK_INT(cg_spec_parse(l, "cpu:/sys/x", &sys, &d), 0);
		CHECK_STR(sys.t[0].path, "sys/x");
		cg_targets_clear(&sys);
	}
	cg_targets_clear(&t);

	/* a v2-only controller offered by the unified hierarchy */
	CHECK_INT(cg_spec_parse(l, "hugetlb:/h", &t, &d), 0);
	CHECK(t.t[0].hier == l->unified);
	CHECK_STR(t.t[0].controllers[0], "hugetlb");
	cg_targets_clear(&t);

	CHECK_INT(cg_spec_parse(l, "*:/all", &t, &d), 0);
	CHECK_INT(t.n, 5);
	cg_targets_clear(&t);

	CHECK_INT(cg_spec_parse(l, "cpu:/a/../../x", &t, &d), -EINVAL);
	CHECK(strstr(d.why, "'..'") != NULL);
	CHECK_INT(t.n, 0);
	/* an empty prefix is a missing controller list, never a cgroup named ":" */
	CHECK_INT(cg_spec_parse(l, ":/a", &t, &d), -EINVAL);
	CHECK(strstr(d.why, "no controller named before ':'") != NULL);
	CHECK_INT(cg_spec_check(":/a"), -EINVAL);
	CHECK_INT(cg_spec_check("a:b/c"), 0); /* "a" names a controller: resolved later */
	cg_layout_free(l);
}

static void test_legacy(void)
{
	struct cg_layout *l = fixture_layout(legacy, "");
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };

	/* bare path: every v1 hierarchy */
	CHECK_INT(cg_spec_parse(l, "svc", &t, &d), 0);
	CHECK_INT(t.n, 2);
	cg_targets_clear(&t);
	/* co-mounted: one target carrying both controllers */
	CHECK_INT(cg_spec_parse(l, "cpu,cpuacct:svc", &t, &d), 0);
	CHECK_INT(t.n, 1);
	CHECK_INT(cg_strv_len(t.t[0].controllers), 2);
	cg_targets_clear(&t);
	CHECK_INT(cg_spec_parse(l, "io:svc", &t, &d), -ENOENT);
	CHECK(strstr(d.why, "cpu,cpuacct at /sys/fs/cgroup/cpu,cpuacct") != NULL);
	cg_layout_free(l);
}

static void test_unified(void)
{
	struct cg_layout *l = fixture_layout(unified, "cpuset cpu io memory pids");
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };

	CHECK_INT(cg_spec_parse(l, "cpu,memory:/svc", &t, &d), 0);
	CHECK_INT(t.n, 1);
	CHECK_INT(cg_strv_len(t.t[0].controllers), 2);
	cg_targets_clear(&t);
	/* v1 names get the v2 hint */
	CHECK_INT(cg_spec_parse(l, "blkio:/svc", &t, &d), -ENOENT);
	CHECK(strstr(d.why, "called io") != NULL);
	CHECK_INT(cg_spec_parse(l, "cpuacct:/svc", &t, &d), -ENOENT);
	CHECK(strstr(d.why, "cpu.stat") != NULL);
	cg_layout_free(l);

	CHECK_INT(cg_layout_parse("", &l), 0);
	CHECK_INT(cg_spec_parse(l, "/x", &t, &d), -ENOENT);
	CHECK(strstr(d.why, "no cgroup filesystem is mounted") != NULL);
	cg_layout_free(l);
}

int main(void)
{
	test_normalize();
	test_hybrid();
	test_legacy();
	test_unified();
	return CHECK_DONE();
}
