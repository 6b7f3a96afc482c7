// SPDX-License-Identifier: MIT
/* common/scope: -r settings in the one vocabulary -> systemd unit properties. */
#include <errno.h>
#include <stdint.h>

#include "check.h"
#include "cgroups/scope.h"

static int map(const char *file, const char *value, struct cg_unit_prop *p)
{
	struct cg_diag d = { 0 };

	return cg_scope_map(file, value, p, &d);
}

int main(void)
{
	struct cg_unit_prop p[CG_UNIT_PROPS_MAX];
	struct cg_diag d = { 0 };

	CHECK_INT(map("memory.max", "512M", p), 1);
	CHECK_STR(p[0].name, "MemoryMax");
	CHECK(p[0].value == 512ULL << 20);
	CHECK_INT(map("memory.max", "max", p), 1);
	CHECK(p[0].value == UINT64_MAX);
	CHECK_INT(map("memory.high", "1073741824", p), 1);
	CHECK_STR(p[0].name, "MemoryHigh");
	CHECK(p[0].value == 1ULL << 30);
	CHECK_INT(map("memory.max", "1X", p), -EINVAL);
	CHECK_INT(map("memory.max", "", p), -EINVAL);
	CHECK_INT(map("memory.max", "99999999999999999999", p), -EINVAL);
	CHECK_INT(map("memory.max", "17179869184T", p), -EINVAL); /* 2^74 */
	CHECK_INT(map("pids.max", "64", p), 1);
	CHECK_STR(p[0].name, "TasksMax");
	CHECK(p[0].value == 64);

	CHECK_INT(map("cpu.weight", "50", p), 1);
	CHECK_STR(p[0].name, "CPUWeight");
	CHECK(p[0].value == 50);
	CHECK_INT(map("cpu.weight", "0", p), -EINVAL);
	CHECK_INT(map("cpu.weight", "10001", p), -EINVAL);

	/* 50 ms of every 100 ms: half a CPU, 500000 us per second */
	CHECK_INT(map("cpu.max", "50000 100000", p), 1);
	CHECK_STR(p[0].name, "CPUQuotaPerSecUSec");
	CHECK(p[0].value == 500000);
	CHECK_INT(map("cpu.max", "200000", p), 1); /* the kernel's default period */
	CHECK(p[0].value == 2000000);
	CHECK_INT(map("cpu.max", "max 100000", p), 1);
	CHECK(p[0].value == UINT64_MAX);
	CHECK_INT(map("cpu.max", "0 100000", p), -EINVAL);
	CHECK_INT(map("cpu.max", "1000 0", p), -EINVAL);
	CHECK_INT(map("cpu.max", "1000 100000 x", p), -EINVAL);

	CHECK_INT(map("io.max", "8:16 rbps=1048576 wiops=max", p), 2);
	CHECK_STR(p[0].name, "IOReadBandwidthMax");
	CHECK_STR(p[0].dev, "/dev/block/8:16");
	CHECK(p[0].device && p[0].value == 1048576);
	CHECK_STR(p[1].name, "IOWriteIOPSMax");
	CHECK(p[1].value == UINT64_MAX);
	CHECK_INT(map("io.max", "8:16 wbps=2M", p), 1);
	CHECK_STR(p[0].name, "IOWriteBandwidthMax");
	CHECK(p[0].value == 2ULL << 20);
	CHECK_INT(map("io.max", "8:16", p), -EINVAL);
	CHECK_INT(map("io.max", "8 rbps=1", p), -EINVAL);
	CHECK_INT(map("io.max", "8:16 xbps=1", p), -EINVAL);
	CHECK_INT(map("io.max", "8:16 rbps=1 wbps=1 riops=1 wiops=1 rbps=2", p), -EINVAL);

	/* no property: refused with the list of what has one */
	CHECK_INT(cg_scope_map("cpuset.cpus", "0", p, &d), -EOPNOTSUPP);
	CHECK_STR(
		d.why,
		"cpuset.cpus: no systemd unit property stands for it (memory.max, memory.high, cpu.weight, cpu.max, pids.max and io.max do)");
	CHECK_INT(map("memory.low", "1M", p), -EOPNOTSUPP);

	char unit[32];

	cg_scope_unit_name(unit, sizeof(unit), "web", ".scope");
	CHECK_STR(unit, "web.scope");
	cg_scope_unit_name(unit, sizeof(unit), "web.scope", ".scope");
	CHECK_STR(unit, "web.scope");
	cg_scope_unit_name(unit, sizeof(unit), ".slice", ".slice");
	CHECK_STR(unit, ".slice.slice");
	return CHECK_DONE();
}
