// SPDX-License-Identifier: MIT
/*
 * common/guard: which rules each verb obeys, the subtree test, and the refusals' lines on a
 * plain directory tree standing for a hierarchy, with a fake /run/systemd/system (owner.c's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ops/guard.h"

static char top[] = "/tmp/cgkit-guard.XXXXXX";
static char mnt[256], run[256];

static int guard(const char *path, enum cg_guard_verb v, unsigned skip, struct cg_diag *d)
{
	struct cg_hier h = { .version = 2, .mountpoint = mnt, .root = "/", .label = "unified" };
	struct cg_target t = { .hier = &h, .path = (char *)path };

	memset(d, 0, sizeof(*d));
	return cg_guard(&t, v, skip, d);
}

static int has_v2_line(void)
{
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/self/cgroup", "re");

	while (f && fgets(line, sizeof(line), f))
		found |= !strncmp(line, "0::", 3);
	if (f)
		fclose(f);
	return found;
}

static void test_rules(void)
{
	const unsigned all = CG_RULE_ROOT | CG_RULE_SELF | CG_RULE_OWNER;

	CHECK_INT(cg_guard_rules(CG_GUARD_FREEZE), all);
	CHECK_INT(cg_guard_rules(CG_GUARD_SIGNAL), all);
	CHECK_INT(cg_guard_rules(CG_GUARD_KILL), all);
	CHECK_INT(cg_guard_rules(CG_GUARD_REMOVE), all);
	CHECK_INT(cg_guard_rules(CG_GUARD_REMOVE_KILL), all);
	/* a limit where one runs is one's own to set; a process may go anywhere, the root too */
	CHECK_INT(cg_guard_rules(CG_GUARD_SET), CG_RULE_ROOT | CG_RULE_OWNER);
	CHECK_INT(cg_guard_rules(CG_GUARD_MOVE), CG_RULE_OWNER);
	CHECK_INT(cg_guard_rules(CG_GUARD_N), 0);
}

static void test_below(void)
{
	CHECK(cg_guard_below("a/b", "a/b"));
	CHECK(cg_guard_below("a/b/c", "a/b"));
	CHECK(cg_guard_below("a/b", ""));
	CHECK(cg_guard_below("", ""));
	CHECK(!cg_guard_below("a/bc", "a/b"));
	CHECK(!cg_guard_below("a", "a/b"));
	CHECK(!cg_guard_below("", "a"));
}

static void test_refusals(void)
{
	struct cg_diag d;

	/* no systemd: the root alone is refused, and not for a move */
	setenv("CGKIT_SYSTEMD_RUNTIME", "/nonexistent-cgkit-guard", 1);
	CHECK_INT(guard("", CG_GUARD_KILL, 0, &d), -EINVAL);
	CHECK_STR(d.where, "/");
	CHECK_STR(d.what, "kill");
	CHECK_STR(d.why,
		  "the root of the hierarchy or cgroup namespace: never acted on as a whole");
	CHECK_INT(guard("", CG_GUARD_SET, 0, &d), -EINVAL);
	CHECK_STR(d.what, "set a limit");
	CHECK_INT(guard("", CG_GUARD_REMOVE_KILL, 0, &d), -EINVAL);
	CHECK_STR(d.why,
		  "the hierarchy root cannot be removed, and what runs in it is never signalled");
	CHECK_INT(guard("", CG_GUARD_REMOVE, 0, &d), -EINVAL);
	CHECK_STR(d.why, "the hierarchy root cannot be removed");
	CHECK_INT(guard("", CG_GUARD_MOVE, 0, &d), 0);
	/* past the root rule, the root holds this process as every cgroup of it does; on a
	 * legacy machine the kernel shows no unified line ("0::") until cgroup2 is mounted, and
	 * a process in no v2 cgroup is in none of this fake v2 tree's */
	if (has_v2_line()) {
		CHECK_INT(guard("", CG_GUARD_KILL, CG_RULE_ROOT, &d), -EINVAL);
		CHECK(!strncmp(d.why, "the subtree holds guard_test itself (it runs in /", 49));
		CHECK(strstr(d.why, "): it would be killed too") != NULL);
	} else {
		CHECK_INT(guard("", CG_GUARD_KILL, CG_RULE_ROOT, &d), 0);
	}
	CHECK_INT(guard("", CG_GUARD_KILL, CG_RULE_ROOT | CG_RULE_SELF, &d), 0);
	CHECK_INT(guard("u.service/x", CG_GUARD_SET, 0, &d), 0);

	/* systemd runs: inside a unit that is not delegated, every verb is refused */
	setenv("CGKIT_SYSTEMD_RUNTIME", run, 1);
	for (int v = 0; v < CG_GUARD_N; v++) {
		CHECK_INT(guard("u.service/x", (enum cg_guard_verb)v, 0, &d), -EPERM);
		CHECK_STR(d.where, "/u.service/x");
		CHECK_STR(
			d.why,
			"inside systemd's unit u.service, which is not delegated: that manager is the single writer of its cgroups and may undo this");
		/* a tool that checked it itself (-v, --force) */
		CHECK_INT(guard("u.service/x", (enum cg_guard_verb)v, CG_RULE_OWNER, &d), 0);
	}
	CHECK_INT(guard("u.service/x", CG_GUARD_MOVE, 0, &d), -EPERM);
	CHECK_STR(d.what, "move a process");
	CHECK_INT(guard("plain/x", CG_GUARD_KILL, 0, &d), 0);
}

int main(void)
{
	char p[512];

	if (!mkdtemp(top))
		return 77;
	snprintf(mnt, sizeof(mnt), "%s/cg", top);
	snprintf(run, sizeof(run), "%s/run-systemd-system", top);
	mkdir(mnt, 0755);
	mkdir(run, 0755);
	snprintf(p, sizeof(p), "%s/u.service", mnt);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/u.service/x", mnt);
	mkdir(p, 0755);

	test_rules();
	test_below();
	test_refusals();

	/* deepest first: the tree is the four directories made above */
	snprintf(p, sizeof(p), "%s/u.service/x", mnt);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/u.service", mnt);
	rmdir(p);
	rmdir(mnt);
	rmdir(run);
	rmdir(top);
	return CHECK_DONE();
}
