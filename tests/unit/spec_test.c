// SPDX-License-Identifier: MIT
/* common/spec: specs -> targets on each layout, confinement, the errors users see. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "base/cleanup.h"
#include "layout.h"
#include "kernel/spec.h"
#include "base/strv.h"

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
	/* libcgroup 3: an empty prefix is the cgroup v2 hierarchy, never a cgroup named ":" */
	CHECK_INT(cg_spec_parse(l, ":/a", &t, &d), 0);
	CHECK_INT(t.n, 1);
	CHECK(t.t[0].hier == l->unified);
	CHECK_STR(t.t[0].path, "a");
	cg_targets_clear(&t);
	CHECK_INT(cg_spec_check(":/a"), 0);
	/* a list of nothing is still a missing controller */
	CHECK_INT(cg_spec_parse(l, ",:/a", &t, &d), -EINVAL);
	CHECK(strstr(d.why, "no controller named before ':'") != NULL);
	CHECK_INT(cg_spec_check("a:b/c"), 0); /* "a" names a controller: resolved later */
	cg_layout_free(l);
}

/* a hybrid tree of plain directories: twins are looked up on the hierarchies themselves */
static void test_twins(void)
{
	char tmpl[] = "/tmp/cgkit-spec.XXXXXX", text[2048], cmd[2200];
	const char *dirs[] = { "cpu/svc/web", "pids/svc", "memory", "unified/svc/web", "systemd" };
	struct cg_layout *l;
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };
	char *base = mkdtemp(tmpl);

	CHECK(base != NULL);
	if (!base)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s", base, dirs[i]);
		CHECK_INT(system(cmd), 0);
	}
	snprintf(text, sizeof(text),
		 "32 31 0:29 / %s/cpu rw - cgroup cgroup rw,cpu\n"
		 "33 31 0:30 / %s/pids rw - cgroup cgroup rw,pids\n"
		 "35 31 0:32 / %s/memory rw - cgroup cgroup rw,memory\n"
		 "40 31 0:37 / %s/systemd rw - cgroup cgroup rw,name=systemd\n"
		 "41 31 0:38 / %s/unified rw - cgroup2 cgroup2 rw\n",
		 base, base, base, base, base);
	l = fixture_layout(text, "");

	/* the unified member first, then each v1 hierarchy that has the cgroup */
	CHECK_INT(cg_spec_parse_flags(l, "/svc/web", CG_SPEC_TWINS, &t, &d), 0);
	CHECK_INT(t.n, 2);
	CHECK(t.t[0].hier == l->unified);
	CHECK_STR(t.t[1].hier->label, "cpu");
	CHECK_STR(t.t[1].path, "svc/web");
	cg_targets_clear(&t);
	/* nearest: pids has /svc only, whose limits then bind; memory has nothing below its root */
	CHECK_INT(cg_spec_parse_flags(l, "/svc/web", CG_SPEC_TWINS | CG_SPEC_NEAREST, &t, &d), 0);
	CHECK_INT(t.n, 3);
	CHECK_STR(t.t[2].hier->label, "pids");
	CHECK_STR(t.t[2].path, "svc");
	cg_targets_clear(&t);
	/* an explicit list keeps its exact meaning */
	CHECK_INT(cg_spec_parse_flags(l, "pids:/svc/web", CG_SPEC_TWINS | CG_SPEC_NEAREST, &t, &d),
		  0);
	CHECK_INT(t.n, 1);
	CHECK_STR(t.t[0].path, "svc/web");
	cg_targets_clear(&t);
	CHECK_INT(cg_spec_parse_flags(l, ":/svc/web", CG_SPEC_TWINS, &t, &d), 0);
	CHECK_INT(t.n, 1);
	CHECK(t.t[0].hier == l->unified);
	cg_targets_clear(&t);
	/* nowhere: the unified member alone, whose use says "No such cgroup" */
	CHECK_INT(cg_spec_parse_flags(l, "/none", CG_SPEC_TWINS | CG_SPEC_NEAREST, &t, &d), 0);
	CHECK_INT(t.n, 1);
	CHECK(t.t[0].hier == l->unified);
	cg_targets_clear(&t);
	/* without flags, as cgcreate2 names a cgroup to make: the unified one */
	CHECK_INT(cg_spec_parse(l, "/svc/web", &t, &d), 0);
	CHECK_INT(t.n, 1);
	cg_targets_clear(&t);
	cg_layout_free(l);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	CHECK_INT(system(cmd), 0);
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
	CHECK_INT(cg_spec_parse(l, ":svc", &t, &d), -ENOENT);
	CHECK(strstr(d.why, "names the cgroup v2 hierarchy, and none is mounted") != NULL);
	/* twins are a hybrid layout's: legacy keeps every v1 hierarchy */
	CHECK_INT(cg_spec_parse_flags(l, "svc", CG_SPEC_TWINS | CG_SPEC_NEAREST, &t, &d), 0);
	CHECK_INT(t.n, 2);
	cg_targets_clear(&t);
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

/* a -g list, as the tools hand it over: in order, merged, and taken whole or not at all */
static void test_list(void)
{
	struct cg_layout *l = fixture_layout(hybrid, "hugetlb");
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };
	char *list[] = { "cpu:/x", "memory,cpu:/x", "name=systemd:/y", "/z", NULL };
	char *bad[] = { "memory:/w", "cpu,nosuch:/v", "/u", NULL };
	char *dots[] = { "/ok", "cpu:/a/../../etc", NULL };
	char *none[] = { NULL };

	/* none given (NULL or an empty list): nothing added, no failure */
	CHECK_INT(cg_specs_parse(l, NULL, 0, &t, &d), 0);
	CHECK_INT(cg_specs_parse(l, none, 0, &t, &d), 0);
	CHECK_INT(t.n, 0);
	CHECK_INT(cg_specs_parse(l, list, 0, &t, &d), 0);
	CHECK_INT(t.n, 4);
	CHECK_STR(t.t[0].hier->label, "cpu");
	CHECK_STR(t.t[0].path, "x");
	/* cpu named twice: one target, its controller once */
	CHECK_INT(cg_strv_len(t.t[0].controllers), 1);
	CHECK_STR(t.t[1].hier->label, "memory");
	CHECK_STR(t.t[1].controllers[0], "memory");
	CHECK_STR(t.t[2].hier->label, "name=systemd");
	CHECK(t.t[2].controllers[0] == NULL);
	CHECK(t.t[3].hier == l->unified);
	CHECK_STR(t.t[3].path, "z");
	/* a refused spec in the middle: its reason, and nothing of the list's earlier specs */
	CHECK_INT(cg_specs_parse(l, bad, 0, &t, &d), -ENOENT);
	CHECK_INT(t.n, 4);
	CHECK_STR(d.where, "cpu,nosuch:/v");
	CHECK(strstr(d.why, "'nosuch' is not mounted") != NULL);
	CHECK_INT(cg_specs_parse(l, dots, 0, &t, &d), -EINVAL);
	CHECK(strstr(d.why, "'..'") != NULL);
	CHECK_INT(t.n, 4);
	cg_targets_clear(&t);
	/* the flags reach every spec: TWINS on a hybrid layout, the unified one as the only twin */
	CHECK_INT(cg_specs_parse(l, (char *[]){ "/p", "cpu:/q", NULL }, CG_SPEC_TWINS, &t, &d), 0);
	CHECK_INT(t.n, 2);
	CHECK(t.t[0].hier == l->unified);
	CHECK_STR(t.t[1].path, "q");
	cg_targets_clear(&t);
	cg_layout_free(l);
}

int main(void)
{
	test_normalize();
	test_twins();
	test_hybrid();
	test_legacy();
	test_unified();
	test_list();
	return CHECK_DONE();
}
