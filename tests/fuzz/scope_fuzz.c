// SPDX-License-Identifier: MIT
/* libFuzzer target for common/scope's -r FILE=VALUE -> systemd unit property mapping. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups/scope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = { "memory.max", "memory.high", "cpu.weight", "cpu.max",
					     "pids.max",   "io.max",	  "cpuset.cpus" };
	struct cg_unit_prop p[CG_UNIT_PROPS_MAX];
	struct cg_diag d = { 0 };
	char *s;
	int n;

	if (size < 1)
		return 0;
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		return 0;
	n = cg_scope_map(files[data[0] % (sizeof(files) / sizeof(files[0]))], s, p, &d);
	/* a count within the array, every property named; a failure says why */
	if (n > CG_UNIT_PROPS_MAX || (n < 0 && !d.why[0]))
		abort();
	for (int i = 0; i < n; i++)
		if (!p[i].name || (p[i].device && strncmp(p[i].dev, "/dev/block/", 11)))
			abort();
	free(s);
	return 0;
}
