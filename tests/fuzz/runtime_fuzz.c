// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for names/runtime.c's extraction: any bytes as any runtime's state file;
 * every field a C string within its array, a result only with a field, and no field longer
 * than the input (a name comes from the text, nowhere else).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "names/runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_rt_info rt;
	bool any = false;
	int r;

	if (!size)
		return 0;
	/* the first byte picks the runtime, the rest is the file */
	r = cg_rt_extract((enum cg_rt_kind)(data[0] % 3), (const char *)data + 1, size - 1, &rt);
	if (r != 0 && r != -EINVAL && r != -ENOMEM)
		abort();
	for (int k = 0; k < CG_RT_N; k++) {
		size_t n = strnlen(rt.v[k], sizeof(rt.v[k]));

		if (n == sizeof(rt.v[k]) || n > size)
			abort();
		any |= n > 0;
	}
	if ((r == 0) != any)
		abort();
	return 0;
}
