// SPDX-License-Identifier: MIT
/*
 * common/owner: who is in charge of a cgroup, on a plain directory tree standing for a
 * hierarchy (the delegation marks set as extended attributes) and a fake /run/systemd/system.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "check.h"
#include "cgroups/owner.h"

static char top[] = "/tmp/cgkit-owner.XXXXXX";
static char mnt[256], run[256];

static void mkdirs(const char *rel)
{
	char p[512], *s;

	snprintf(p, sizeof(p), "%s/%s", mnt, rel);
	for (s = p + strlen(mnt) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

/* 0, or -errno when this filesystem or caller cannot have the attribute (a skip) */
static int mark(const char *rel, const char *name, const char *value)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", mnt, rel);
	return setxattr(p, name, value, strlen(value), 0) < 0 ? -errno : 0;
}

static struct cg_owner owner_of(const char *root, const char *path)
{
	struct cg_hier h = { .version = 2, .mountpoint = mnt, .root = (char *)root };
	struct cg_target t = { .hier = &h, .path = (char *)path };
	struct cg_owner o;

	memset(&o, 0x55, sizeof(o));
	CHECK_INT(cg_owner_get(&t, &o), 0);
	return o;
}

static void test_names(void)
{
	CHECK(cg_owner_is_unit_name("a.service", 9));
	CHECK(cg_owner_is_unit_name("system.slice", 12));
	CHECK(cg_owner_is_unit_name("run-u1.scope", 12));
	CHECK(!cg_owner_is_unit_name(".scope", 6));
	CHECK(!cg_owner_is_unit_name("a.service.d", 11));
	CHECK(!cg_owner_is_unit_name("cgkit-test.12", 13));
	/* only the first len bytes count: a component inside a longer path */
	CHECK(cg_owner_is_unit_name("a.slice/b", 7));
}

static void test_no_systemd(void)
{
	struct cg_owner o;
	char buf[128];

	setenv("CGKIT_SYSTEMD_RUNTIME", "/nonexistent/cgkit", 1);
	CHECK(!cg_systemd_running());
	o = owner_of("/", "system.slice/a.service");
	CHECK_INT(o.kind, CG_OWNER_NONE);
	CHECK_STR(o.unit, "");
	CHECK_STR(cg_owner_describe(&o, buf, sizeof(buf)), "no systemd runs here");
	setenv("CGKIT_SYSTEMD_RUNTIME", run, 1);
	CHECK(cg_systemd_running());
}

static void test_paths(bool trusted)
{
	struct cg_owner o;
	char buf[256];

	o = owner_of("/", "");
	CHECK_INT(o.kind, CG_OWNER_OUTSIDE);
	o = owner_of("/", "cgkit-test.1/a");
	CHECK_INT(o.kind, CG_OWNER_OUTSIDE);
	CHECK_STR(cg_owner_describe(&o, buf, sizeof(buf)), "outside systemd's units");

	/* a slice, and a cgroup that does not exist yet inside it */
	o = owner_of("/", "system.slice/new");
	CHECK_INT(o.kind, CG_OWNER_SYSTEMD);
	CHECK_STR(o.unit, "system.slice");
	CHECK_STR(o.unit_cgroup, "/system.slice");
	CHECK_STR(o.below, "/new");
	CHECK(!o.user_manager);
	CHECK_STR(cg_owner_describe(&o, buf, sizeof(buf)),
		  "systemd's (unit system.slice, not delegated)");
	o = owner_of("/", "system.slice/plain.service");
	CHECK_INT(o.kind, CG_OWNER_SYSTEMD);
	CHECK_STR(o.unit, "plain.service");
	CHECK_STR(o.below, "");

	if (!trusted)
		return;
	/* a delegated service: itself and all below it, whatever the names there */
	o = owner_of("/", "system.slice/deleg.service");
	CHECK_INT(o.kind, CG_OWNER_DELEGATED);
	CHECK_STR(o.mark, "trusted.delegate");
	CHECK_STR(cg_owner_describe(&o, buf, sizeof(buf)),
		  "delegated by systemd (unit deleg.service, trusted.delegate)");
	o = owner_of("/", "system.slice/deleg.service/inner/x.scope/y");
	CHECK_INT(o.kind, CG_OWNER_DELEGATED);
	CHECK_STR(o.unit, "deleg.service");
	CHECK_STR(o.unit_cgroup, "/system.slice/deleg.service");
	CHECK_STR(o.below, "/inner/x.scope/y");
	/* "0" is no delegation */
	o = owner_of("/", "system.slice/zero.service/a");
	CHECK_INT(o.kind, CG_OWNER_SYSTEMD);

	/* a user manager: its units are its own again; one it delegated is the user's */
	o = owner_of("/", "user.slice/user-1000.slice/user@1000.service/app.slice/a.service");
	CHECK_INT(o.kind, CG_OWNER_SYSTEMD);
	CHECK(o.user_manager);
	CHECK_STR(o.unit, "a.service");
	CHECK_STR(cg_owner_describe(&o, buf, sizeof(buf)),
		  "a user's systemd's (unit a.service, not delegated)");
	o = owner_of("/", "user.slice/user-1000.slice/user@1000.service/app.slice/d.scope/w");
	CHECK_INT(o.kind, CG_OWNER_DELEGATED);
	CHECK_STR(o.mark, "user.delegate");
	CHECK(o.user_manager);
	o = owner_of("/", "user.slice/user-1000.slice/user@1000.service/x");
	CHECK_INT(o.kind, CG_OWNER_DELEGATED);
	CHECK_STR(o.unit, "user@1000.service");

	/* a mount whose root is a delegated unit's cgroup (a container's view) */
	o = owner_of("/system.slice/deleg.service", "");
	CHECK_INT(o.kind, CG_OWNER_SYSTEMD); /* the mountpoint is the tree's top, unmarked */
	CHECK_STR(o.unit_cgroup, "/system.slice/deleg.service");
	/* above the mount's root nothing can be read: not delegated as far as we can tell */
	o = owner_of("/system.slice", "x");
	CHECK_INT(o.kind, CG_OWNER_SYSTEMD);
	CHECK_STR(o.unit, "system.slice");
}

int main(void)
{
	bool trusted;
	int r;

	if (!mkdtemp(top))
		return 77;
	snprintf(mnt, sizeof(mnt), "%s/cg", top);
	snprintf(run, sizeof(run), "%s/run-systemd-system", top);
	mkdir(mnt, 0755);
	mkdir(run, 0755);
	mkdirs("system.slice/plain.service");
	mkdirs("system.slice/zero.service");
	mkdirs("system.slice/deleg.service/inner/x.scope/y");
	mkdirs("user.slice/user-1000.slice/user@1000.service/app.slice/a.service");
	mkdirs("user.slice/user-1000.slice/user@1000.service/app.slice/d.scope/w");

	test_names();
	test_no_systemd();
	/* trusted.* needs CAP_SYS_ADMIN; user.* a filesystem that has it (tmpfs since 6.6) */
	r = mark("system.slice/deleg.service", "trusted.delegate", "1");
	trusted = r == 0;
	if (trusted) {
		CHECK_INT(mark("system.slice/zero.service", "trusted.delegate", "0"), 0);
		CHECK_INT(mark("user.slice/user-1000.slice/user@1000.service", "trusted.delegate",
			       "1"),
			  0);
		r = mark("user.slice/user-1000.slice/user@1000.service/app.slice/d.scope",
			 "user.delegate", "1");
		if (r < 0) {
			fprintf(stderr, "SKIP part: no user.* xattrs here: %s\n", strerror(-r));
			trusted = false;
		}
	} else {
		fprintf(stderr, "SKIP part: cannot set trusted.* xattrs (%s): not root?\n",
			strerror(-r));
	}
	test_paths(trusted);

	if (fork() == 0)
		execlp("rm", "rm", "-rf", top, (char *)NULL), _exit(1);
	while (wait(NULL) > 0)
		;
	return CHECK_DONE();
}
