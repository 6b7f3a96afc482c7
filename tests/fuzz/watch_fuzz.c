// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for common/watch's parsers (make fuzz): an events file's change
 * (cg_watch_diff: cgroup.events, memory.events, pids.events), --events lists,
 * --memory-threshold's CGROUP:SIZE and --psi-trigger's spec. The first byte picks one; for a
 * diff, the rest is the old and the new text split at the first NUL.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "watch/watch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = { "cgroup.events", "memory.events", "pids.events" };
	struct cg_watch_event ev[8];
	char *text, *path = NULL;
	const char *bad = NULL;
	uint64_t bytes;
	unsigned kinds;
	int n;

	if (size < 1)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	text[size] = '\0';
	switch (data[0] % 6) {
	case 0:
	case 1:
	case 2: {
		const char *new = text + strlen(text) + 1;

		if (new > text + size - 1)
			new = "";
		n = cg_watch_diff(files[data[0] % 3], text, new, ev, 8);
		/* at most one event a key, and counters that say they rose */
		if (n > 4)
			abort();
		for (int i = 0; i < n; i++)
			if (ev[i].kind >= CG_EV_N || !ev[i].count || !ev[i].file)
				abort();
		break;
	}
	case 3:
		if (cg_watch_kinds_parse(text, &kinds, &bad) == 0 && (!kinds || kinds & ~CG_EV_ALL))
			abort();
		if (bad && (bad < text || bad > text + strlen(text)))
			abort();
		break;
	case 4:
		/* no ".." component ever gets through */
		if (cg_watch_threshold_parse(text, &path, &bytes) == 0) {
			size_t len = strlen(path);

			if (!strcmp(path, "..") || !strncmp(path, "../", 3) ||
			    strstr(path, "/../") || (len >= 3 && !strcmp(path + len - 3, "/..")))
				abort();
		}
		free(path);
		break;
	case 5: {
		/* what is accepted is what the kernel's rules allow; a refusal says which rule */
		struct cg_psi_trigger t;
		const char *why = NULL;

		if (cg_psi_trigger_parse(text, &t, &why) == 0) {
			if (t.res >= CG_PSIR_N || !t.stall_us || t.stall_us > t.window_us ||
			    t.window_us < 500000 || t.window_us > 10000000 ||
			    (t.res == CG_PSIR_IRQ && !t.full))
				abort();
		} else if (!why) {
			abort();
		}
		break;
	}
	}
	free(text);
	return 0;
}
