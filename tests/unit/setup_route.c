// SPDX-License-Identifier: MIT
/*
 * common/setup: where a -r FILE goes, on every layout, for cgcreate2 and cgexec2 alike. Before
 * the plan was shared, cgcreate2 sent a core file on a legacy host to its first target and
 * cgexec2 to every target; both now ask cg_setup_applies.
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "layout.h"
#include "cgroups/setup.h"
#include "base/strv.h"

static const char hybrid[] =
	"32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	"34 31 0:31 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
static const char legacy[] =
	"29 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	"30 25 0:27 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n";
static const char unified[] = "26 22 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";

static void targets(const struct cg_layout *l, struct cg_targets *t, const char *a, const char *b)
{
	struct cg_diag d = { 0 };

	CHECK_INT(cg_spec_parse(l, a, t, &d), 0);
	if (b)
		CHECK_INT(cg_spec_parse(l, b, t, &d), 0);
}

static void test_core_file(void)
{
	struct cg_layout *lg = fixture_layout(legacy, ""), *hy = fixture_layout(hybrid, "");
	struct cg_targets t = { 0 }, u = { 0 };
	struct cg_diag d = { 0 };

	/* legacy: a core file has a copy in every hierarchy; each target gets it */
	targets(lg, &t, "cpu:/a", "pids:/a");
	CHECK_INT(cg_setup_route(lg, &t, "cgroup.max.depth", false, &d), 0);
	CHECK(cg_setup_applies(&t, 0, "cgroup.max.depth"));
	CHECK(cg_setup_applies(&t, 1, "cgroup.max.depth"));
	/* hybrid: only the unified target, where v2's core files live */
	targets(hy, &u, "pids:/a", "/a");
	CHECK(!cg_setup_applies(&u, 0, "cgroup.max.depth"));
	CHECK(cg_setup_applies(&u, 1, "cgroup.max.depth"));
	cg_targets_clear(&t);
	cg_targets_clear(&u);
	cg_layout_free(lg);
	cg_layout_free(hy);
}

static void test_controller_file(void)
{
	struct cg_layout *hy = fixture_layout(hybrid, ""),
			 *un = fixture_layout(unified, "cpu memory pids");
	struct cg_targets t = { 0 }, u = { 0 }, v = { 0 };
	struct cg_diag d = { 0 };

	/* hybrid: pids is v1; a call with only a v1 cgroup elsewhere cannot take pids.max ... */
	targets(hy, &v, "cpu:/a", NULL);
	CHECK_INT(cg_setup_route(hy, &v, "pids.max", false, &d), -ENOENT);
	CHECK_STR(
		d.why,
		"no cgroup of this call is in the hierarchy of pids (pids at /sys/fs/cgroup/pids): add -g pids:PATH");
	CHECK_INT(v.n, 1);
	/* ... but a unified cgroup gets its twin there: one vocabulary on every layout */
	targets(hy, &t, "/a", NULL);
	CHECK_INT(cg_setup_route(hy, &t, "pids.max", false, &d), 0);
	CHECK_INT(t.n, 2);
	CHECK(!cg_setup_applies(&t, 0, "pids.max"));
	CHECK(cg_setup_applies(&t, 1, "pids.max"));
	CHECK_STR(t.t[1].hier->label, "pids");
	CHECK_STR(t.t[1].path, "a");
	cg_targets_clear(&t);
	/* ... and one that may grow (cgexec2 -t without -g) is joined by the pids root */
	targets(hy, &t, "/a", NULL);
	CHECK_INT(cg_setup_route(hy, &t, "pids.max", true, &d), 0);
	CHECK_INT(t.n, 2);
	CHECK(!cg_setup_applies(&t, 0, "pids.max"));
	CHECK(cg_setup_applies(&t, 1, "pids.max"));
	CHECK_STR(t.t[1].hier->label, "pids");
	/* cpu.weight goes to the co-mounted cpu,cpuacct hierarchy, by its controller */
	CHECK_INT(cg_setup_route(hy, &t, "cpu.weight", true, &d), 0);
	CHECK_INT(t.n, 3);
	CHECK(cg_setup_applies(&t, 2, "cpu.weight"));
	CHECK(!cg_setup_applies(&t, 1, "cpu.weight"));

	/* unified: the controller is recorded, to be enabled top-down, once */
	targets(un, &u, "/a", NULL);
	CHECK_INT(cg_setup_route(un, &u, "memory.max", false, &d), 0);
	CHECK_INT(cg_setup_route(un, &u, "memory.high", false, &d), 0);
	CHECK_INT(cg_strv_len(u.t[0].controllers), 1);
	CHECK_STR(u.t[0].controllers[0], "memory");
	CHECK(cg_setup_applies(&u, 0, "memory.max"));
	cg_targets_clear(&t);
	cg_targets_clear(&u);
	cg_targets_clear(&v);
	cg_layout_free(hy);
	cg_layout_free(un);
}

static void test_refused(void)
{
	static const char *const files[] = {
		"cgroup.procs",	 "cgroup.threads", "tasks",	  "cgroup.freeze",
		"freezer.state", "cgroup.kill",	   "cgroup.type", "cgroup.subtree_control",
		"release_agent", "../cpu.shares",  "a/pids.max",  " cpu.weight",
		"*.max",	 "cpu,pids.max",   "name=x.y",
	};
	struct cg_layout *un = fixture_layout(unified, "pids");
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };

	targets(un, &t, "/a", NULL);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		d.why[0] = 0;
		CHECK_INT(cg_setup_route(un, &t, files[i], true, &d), -EINVAL);
		CHECK(d.why[0]);
	}
	CHECK_INT(t.n, 1);
	cg_targets_clear(&t);
	cg_layout_free(un);
}

/*
 * A file whose controller part is no controller's name never becomes a spec: " cpu.weight" on
 * a hybrid layout made the spec " cpu:/", which is a path, and cgcreate2 -p made a cgroup
 * " cpu:" at the unified root; "*.max" would have made every hierarchy's root a target.
 */
static void test_never_a_spec(void)
{
	static const char *const files[] = { " cpu.weight", "*.max", "cpu,pids.max", " x.y" };
	struct cg_layout *hy = fixture_layout(hybrid, "");
	struct cg_targets t = { 0 };
	struct cg_diag d = { 0 };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		CHECK_INT(cg_setup_route(hy, &t, files[i], true, &d), -EINVAL);
		CHECK_INT(t.n, 0);
	}
	CHECK_STR(
		d.why,
		"not an interface file's name (a letter, then letters, digits, '_' or '.', as cpu.weight)");
	cg_targets_clear(&t);
	cg_layout_free(hy);
}

int main(void)
{
	test_core_file();
	test_controller_file();
	test_refused();
	test_never_a_spec();
	return CHECK_DONE();
}
