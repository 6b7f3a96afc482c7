// SPDX-License-Identifier: MIT
/*
 * common/cpu threaded subtrees on the live unified hierarchy: cg_threaded_setup makes a child
 * threaded (its parent becomes the threaded domain root, a sibling domain invalid), refuses
 * a domain controller, and enables cpu inside the subtree where the unified root offers it.
 * Sandbox cgkit-test.<pid> (live.h), removed at the end and on a signal. Skips (77) without
 * root or a unified mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "check.h"
#include "live.h"
#include "vocab/cpu.h"
#include "cgroups/threaded.h"
#include "kernel/mount.h"
#include "base/strv.h"

static int ufd = -1;
static char sb[64];

static void on_signal(int sig)
{
	if (ufd >= 0 && sb[0])
		live_remove(ufd, sb);
	_exit(128 + sig);
}

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_hier *u;
	struct cg_journal j = { 0 };
	struct cg_diag d = { 0 };
	char dom[96], t[128], inv[128], msg[2048];
	char *memory[] = { "memory", NULL }, *cpu[] = { "cpu", NULL };
	char *dm = NULL;
	int r;

	r = live_sandbox(&l, &u, &ufd, sb, sizeof(sb), on_signal);
	if (r)
		return r;
	snprintf(dom, sizeof(dom), "%s/dom", sb);
	snprintf(t, sizeof(t), "%s/dom/t", sb);
	snprintf(inv, sizeof(inv), "%s/dom/inv", sb);
	if (mkdirat(ufd, dom, 0755) < 0 || mkdirat(ufd, t, 0755) < 0 ||
	    mkdirat(ufd, inv, 0755) < 0) {
		perror("mkdir sandbox");
		live_remove(ufd, sb);
		cg_layout_free(l);
		return 1;
	}
	CHECK_INT(cg_cgroup_type(u, t), CG_TYPE_DOMAIN);
	CHECK_INT(cg_threaded_setup(u, t, memory, &j, &d), -EOPNOTSUPP);
	CHECK(strstr(d.why, "memory is a domain controller") != NULL);
	CHECK_INT(cg_cgroup_type(u, t), CG_TYPE_DOMAIN);
	if (cg_threaded_setup(u, t, NULL, &j, &d) < 0) {
		fprintf(stderr, "threaded setup: %s\n", cg_diag_format(&d, msg, sizeof(msg)));
		check_failures++;
	}
	CHECK_INT(cg_cgroup_type(u, t), CG_TYPE_THREADED);
	CHECK_INT(cg_cgroup_type(u, dom), CG_TYPE_DOMAIN_THREADED);
	CHECK_INT(cg_cgroup_type(u, inv), CG_TYPE_DOMAIN_INVALID);
	CHECK_INT(cg_cgroup_type(u, ""), CG_TYPE_DOMAIN);
	CHECK_INT(cg_threaded_domain(u, t, &dm), 0);
	CHECK_STR(dm, dom);
	free(dm);
	dm = NULL;
	CHECK_INT(cg_threaded_domain(u, inv, &dm), 0);
	CHECK_STR(dm, inv);
	free(dm);
	/* again: already threaded is fine */
	CHECK_INT(cg_threaded_setup(u, t, NULL, &j, &d), 0);
	if (cg_hier_has(u, "cpu")) {
		char path[256];

		if (cg_threaded_setup(u, t, cpu, &j, &d) < 0) {
			fprintf(stderr, "threaded cpu: %s\n", cg_diag_format(&d, msg, sizeof(msg)));
			check_failures++;
		}
		snprintf(path, sizeof(path), "%s/cpu.weight", t);
		CHECK(faccessat(ufd, path, F_OK, 0) == 0);
		CHECK_INT(cg_set(u, t, "cpu.weight", "200", &d), 0);
	} else {
		/* this host: no cpu in the unified hierarchy; refused before any write */
		CHECK_INT(cg_threaded_setup(u, t, cpu, &j, &d), -ENOENT);
	}
	CHECK_INT(cg_journal_rollback(&j), 0);
	live_remove(ufd, sb);
	CHECK(faccessat(ufd, sb, F_OK, 0) < 0);
	cg_layout_free(l);
	return CHECK_DONE();
}
