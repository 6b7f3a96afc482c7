// SPDX-License-Identifier: MIT
/* libFuzzer target for common/origin: any path, every field a C string within its array. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "names/origin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_origin o;
	char *s = strndup((const char *)data, size);

	if (!s)
		return 0;
	cg_origin_parse(s, &o);
	if (strnlen(o.unit, sizeof(o.unit)) == sizeof(o.unit) ||
	    strnlen(o.slice, sizeof(o.slice)) == sizeof(o.slice) ||
	    strnlen(o.machine, sizeof(o.machine)) == sizeof(o.machine) ||
	    strnlen(o.pod_uid, sizeof(o.pod_uid)) == sizeof(o.pod_uid) ||
	    strnlen(o.qos, sizeof(o.qos)) == sizeof(o.qos))
		abort();
	/* an ID is 64 hex digits or nothing; a field is never longer than the path */
	if ((o.container_id[0] && strspn(o.container_id, "0123456789abcdef") != 64) ||
	    strlen(o.unit) > strlen(s) || strlen(o.machine) > strlen(s))
		abort();
	for (int k = 0; k < CG_ORIGIN_N; k++)
		if (!cg_origin_field(&o, (enum cg_origin_key)k))
			abort();
	free(s);
	return 0;
}
