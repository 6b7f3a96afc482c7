// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for common/machine's state file parser: any text, and a scope is one path
 * component no longer than the text, without NUL or '/', or nothing at all.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "names/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = strndup((const char *)data, size), *scope = NULL;
	pid_t leader = 0;
	int r;

	if (!text)
		return 0;
	r = cg_machine_state_parse(text, &scope, &leader);
	if (r == 0 && (!scope || !*scope || strchr(scope, '/') || strlen(scope) > strlen(text) ||
		       !strcmp(scope, ".") || !strcmp(scope, "..") || leader < 1))
		abort();
	if (r != 0 && (r != -EINVAL || scope))
		abort();
	free(scope);
	free(text);
	return 0;
}
