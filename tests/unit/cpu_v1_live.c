// SPDX-License-Identifier: MIT
/*
 * common/cpu on the live kernel: the CPU vocabulary written through cg_set into a v1 cpu (and
 * cpuset) cgroup, checked by reading the v1 files back. Sandbox cgkit-test.<pid> at the top
 * of the hierarchy, removed at the end. Skips (77) without root or a v1 cpu hierarchy.
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
#include "vocab/cpu.h"
#include "kernel/file.h"
#include "kernel/mount.h"

static char sandbox[64];

static const char *readback(const struct cg_hier *h, const char *file)
{
	static char buf[128];
	char path[192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", h->mountpoint, sandbox, file);
	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return "(unreadable)";
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void set(const struct cg_hier *h, const char *file, const char *value)
{
	struct cg_diag d = { 0 };
	char msg[2048];

	if (cg_set(h, sandbox, file, value, &d) < 0) {
		fprintf(stderr, "cg_set %s=%s: %s\n", file, value,
			cg_diag_format(&d, msg, sizeof(msg)));
		check_failures++;
	}
}

/* mkdir the sandbox; v1 cpuset needs cpus and mems before it is any use */
static int make_sandbox(const struct cg_hier *h)
{
	if (mkdirat(cg_hier_fd(h), sandbox, 0755) < 0)
		return -errno;
	if (cg_hier_has(h, "cpuset")) {
		char v[256];
		FILE *f;

		snprintf(v, sizeof(v), "%s/cpuset.mems", h->mountpoint);
		f = fopen(v, "re");
		if (f && fgets(v, sizeof(v), f)) {
			v[strcspn(v, "\n")] = '\0';
			set(h, "cpuset.mems", v);
		}
		if (f)
			fclose(f);
	}
	return 0;
}

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_hier *cpu, *cpuset;
	struct cg_diag d = { 0 };

	if (geteuid() != 0) {
		puts("needs root");
		return 77;
	}
	if (cg_layout_load(&l) < 0) {
		puts("cannot read the cgroup mounts");
		return 77;
	}
	cpu = cg_layout_find(l, "cpu");
	if (!cpu || cpu->version != 1) {
		puts("no v1 cpu hierarchy here");
		cg_layout_free(l);
		return 77;
	}
	snprintf(sandbox, sizeof(sandbox), "cgkit-test.%d", (int)getpid());
	if (make_sandbox(cpu) < 0) {
		perror("mkdir sandbox");
		cg_layout_free(l);
		return 1;
	}
	set(cpu, "cpu.weight", "50");
	CHECK_STR(readback(cpu, "cpu.shares"), "512");
	set(cpu, "cpu.weight", "3");
	CHECK_STR(readback(cpu, "cpu.shares"), "31");
	set(cpu, "cpu.weight.nice", "5");
	CHECK_STR(readback(cpu, "cpu.shares"), "335");
	set(cpu, "cpu.max", "50000 200000");
	CHECK_STR(readback(cpu, "cpu.cfs_period_us"), "200000");
	CHECK_STR(readback(cpu, "cpu.cfs_quota_us"), "50000");
	set(cpu, "cpu.max", "max");
	CHECK_STR(readback(cpu, "cpu.cfs_quota_us"), "-1");
	CHECK_STR(readback(cpu, "cpu.cfs_period_us"), "200000");
	/* v1 names keep working on v1 */
	set(cpu, "cpu.shares", "2048");
	CHECK_STR(readback(cpu, "cpu.shares"), "2048");
	/* a bad value never reaches the kernel */
	CHECK_INT(cg_set(cpu, sandbox, "cpu.weight", "0", &d), -EINVAL);
	CHECK_STR(readback(cpu, "cpu.shares"), "2048");
	/* last: an idle group reports the idle weight as its shares (kernel 5.15 and later) */
	if (faccessat(cg_hier_fd(cpu), "cpu.idle", F_OK, 0) == 0) {
		set(cpu, "cpu.idle", "1");
		CHECK_STR(readback(cpu, "cpu.idle"), "1");
	}
	if (unlinkat(cg_hier_fd(cpu), sandbox, AT_REMOVEDIR) < 0) {
		perror("rmdir sandbox");
		check_failures++;
	}

	cpuset = cg_layout_find(l, "cpuset");
	if (cpuset && cpuset->version == 1 && make_sandbox(cpuset) == 0) {
		set(cpuset, "cpuset.cpus", "0");
		CHECK_STR(readback(cpuset, "cpuset.cpus"), "0");
		CHECK_INT(cg_set(cpuset, sandbox, "cpuset.cpus", "0-x", &d), -EINVAL);
		if (unlinkat(cg_hier_fd(cpuset), sandbox, AT_REMOVEDIR) < 0) {
			perror("rmdir cpuset sandbox");
			check_failures++;
		}
	}
	cg_layout_free(l);
	return CHECK_DONE();
}
