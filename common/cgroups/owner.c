// SPDX-License-Identifier: MIT
/* Who is in charge of a cgroup: a running systemd's units, a subtree they delegated, or nobody. */
#include "owner.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "base/parse.h"
#include "scope.h"

bool cg_systemd_running(void)
{
	const char *dir = getenv("CGKIT_SYSTEMD_RUNTIME");
	struct stat st;

	/* lstat, as sd_booted: a symlink planted there is not a running systemd */
	return lstat(dir && *dir ? dir : "/run/systemd/system", &st) == 0 && S_ISDIR(st.st_mode);
}

bool cg_owner_is_unit_name(const char *name, size_t len)
{
	static const char *const suffix[] = { ".slice", ".service", ".scope" };

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		size_t n = strlen(suffix[i]);

		if (len > n && !memcmp(name + len - n, suffix[i], n))
			return true;
	}
	return false;
}

/*
 * The delegation mark on a cgroup directory: systemd writes "1" into trusted.delegate (and,
 * for a user manager, which cannot write trusted.*, user.delegate). Without CAP_SYS_ADMIN the
 * trusted namespace reads as absent, so user.delegate is the one an unprivileged caller sees.
 */
static const char *delegate_mark(const char *dir)
{
	static const char *const names[] = { "trusted.delegate", "user.delegate" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char v[8];
		ssize_t n = lgetxattr(dir, names[i], v, sizeof(v) - 1);

		if (n <= 0)
			continue;
		v[n] = 0;
		if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true"))
			return names[i];
	}
	return NULL;
}

/* "1000" of user@1000.service */
static bool user_uid(const char *s, size_t len, uint64_t *ret)
{
	char buf[16];
	const char *p = buf;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	return cg_parse_u64_prefix(&p, UINT32_MAX - 1, ret) == 0 && !*p;
}

int cg_owner_get(const struct cg_target *t, struct cg_owner *ret)
{
	struct cg_owner o = { .kind = CG_OWNER_NONE };
	const char *root = t->hier->root ? t->hier->root : "/";
	char full[PATH_MAX], dir[PATH_MAX];
	size_t rootlen, mplen;
	/* the last unit was delegated; it was a user@UID.service; one such is above */
	bool delegated = false, user_delegated = false, under_user = false;
	/* the user whose manager owns the units below user@UID.service */
	uint64_t uid = 0;
	int n;

	if (!cg_systemd_running()) {
		*ret = o;
		return 0;
	}
	o.kind = CG_OWNER_OUTSIDE;
	/*
	 * The path in the hierarchy as "/a/b/c": the mount's root, then the target's path. A mount
	 * that reaches above the cgroup namespace's root (mountinfo root "/..") is the hierarchy's
	 * own root as far as anything inside can tell: its units are named from there, through the
	 * namespace's root below it (nsbase), and nothing is stripped to find their directories.
	 */
	if (cg_hier_nsbase(t->hier))
		root = cg_hier_nsbase(t->hier);
	while (*root == '/')
		root++;
	n = snprintf(full, sizeof(full), "/%s%s%s", root, *root && *t->path ? "/" : "", t->path);
	if (n < 0 || (size_t)n >= sizeof(full))
		return -ENAMETOOLONG;
	rootlen = strlen(root) && !cg_hier_nsbase(t->hier) ? strlen(root) + 1 : 0;
	mplen = strlen(cg_hier_dir(t->hier));
	if (mplen >= sizeof(dir))
		return -ENAMETOOLONG;

	for (const char *c = full + 1; *c;) {
		size_t len = strcspn(c, "/"), end = (size_t)(c - full) + len;

		/*
		 * Below a delegated cgroup the delegatee names its cgroups as it likes (a container
		 * may make "x.scope"): they are units again only under a user manager's
		 * user@UID.service, whose units are that manager's.
		 */
		if (cg_owner_is_unit_name(c, len) && (!delegated || user_delegated)) {
			const char *mark = NULL;

			/* under a delegated user@UID.service, that user's manager owns the units */
			o.user_manager = under_user;
			snprintf(o.unit, sizeof(o.unit), "%.*s", (int)len, c);
			snprintf(o.unit_cgroup, sizeof(o.unit_cgroup), "%.*s", (int)end, full);
			/* only a cgroup at or below the mount's root has a directory here */
			if (end >= rootlen) {
				memcpy(dir, cg_hier_dir(t->hier), mplen);
				snprintf(dir + mplen, sizeof(dir) - mplen, "%.*s",
					 (int)(end - rootlen), full + rootlen);
				mark = delegate_mark(dir);
			}
			/*
			 * systemd 252's user manager writes no mark on a unit it delegates: ask it.
			 * Fixture trees ($CGKIT_SYSTEMD_RUNTIME) have no manager to ask.
			 */
			if (!mark && under_user && !getenv("CGKIT_SYSTEMD_RUNTIME") &&
			    cg_scope_user_unit_delegated(o.unit, (uid_t)uid) > 0)
				mark = "Delegate=yes";
			o.kind = mark ? CG_OWNER_DELEGATED : CG_OWNER_SYSTEMD;
			delegated = mark != NULL;
			snprintf(o.mark, sizeof(o.mark), "%s", mark ? mark : "");
			user_delegated = mark && !strncmp(c, "user@", 5) && len > 13 &&
					 !memcmp(c + len - 8, ".service", 8) &&
					 user_uid(c + 5, len - 13, &uid);
			under_user = under_user || user_delegated;
		}
		c += len;
		while (*c == '/')
			c++;
	}
	if (o.unit_cgroup[0])
		snprintf(o.below, sizeof(o.below), "%s", full + strlen(o.unit_cgroup));
	*ret = o;
	return 0;
}

bool cg_owner_scope_root(const struct cg_target *t, struct cg_owner *ret)
{
	size_t n;

	if (t->hier->version != 2 || cg_owner_get(t, ret) < 0)
		return false;
	n = strlen(ret->unit);
	return ret->kind == CG_OWNER_DELEGATED && !ret->below[0] && n >= 7 &&
	       !strcmp(ret->unit + n - 6, ".scope");
}

const char *cg_owner_describe(const struct cg_owner *o, char *buf, size_t size)
{
	const char *mgr = o->user_manager ? "a user's systemd" : "systemd";

	switch (o->kind) {
	case CG_OWNER_NONE:
		snprintf(buf, size, "no systemd runs here");
		break;
	case CG_OWNER_OUTSIDE:
		snprintf(buf, size, "outside systemd's units");
		break;
	case CG_OWNER_SYSTEMD:
		snprintf(buf, size, "%s's (unit %s, not delegated)", mgr, o->unit);
		break;
	case CG_OWNER_DELEGATED:
		snprintf(buf, size, "delegated by %s (unit %s, %s)", mgr, o->unit, o->mark);
		break;
	}
	return buf;
}
