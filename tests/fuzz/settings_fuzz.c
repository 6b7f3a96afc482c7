// SPDX-License-Identifier: MIT
/* libFuzzer target for cgtop2's settings file parser (cmd/cgtop2/screen/settings.c, linked). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "pipeline/args.h"
#include "screen/settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

const char *const order_names[] = { "path", "tasks", "cpu", "memory", "io", "pressure" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct settings s, back;
	char why[256], buf[1024];

	if (settings_parse((const char *)data, size, &s, why, sizeof(why)) < 0) {
		/* a refusal says where */
		if (strncmp(why, "line ", 5))
			abort();
		return 0;
	}
	if (s.order > ORDER_PRESSURE || ((s.have & SET_DELAY) && !s.delay_ns))
		abort();
	/* what was read is written and read back the same (the screen always has a delay) */
	if (!(s.have & SET_DELAY))
		s.delay_ns = NSEC_PER_SEC;
	if (settings_format(&s, buf, sizeof(buf)) < 0 ||
	    settings_parse(buf, strlen(buf), &back, why, sizeof(why)) < 0)
		abort();
	if (back.order != s.order || back.tree != s.tree ||
	    ((s.have & SET_COLUMNS) && back.hidden != s.hidden) ||
	    ((s.have & SET_DELAY) && back.delay_ns != s.delay_ns))
		abort();
	return 0;
}
