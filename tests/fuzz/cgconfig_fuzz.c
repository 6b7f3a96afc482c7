// SPDX-License-Identifier: MIT
/* libFuzzer target for the cgconfig.conf language's parser (common/cgconfig.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cgconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_conf c = { 0 };
	unsigned line = 0;
	char err[256], *s = strndup((const char *)data, size);
	size_t lines = 1;

	if (!s)
		return 0;
	for (size_t i = 0; s[i]; i++)
		lines += s[i] == '\n';
	if (cg_conf_parse(s, &c, &line, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < c.n; i++) {
			if (!c.g[i].name || !c.g[i].line || c.g[i].line > lines)
				abort();
			for (size_t k = 0; k < c.g[i].n_ctrl; k++)
				for (size_t j = 0; j < c.g[i].ctrl[k].n; j++)
					if (!c.g[i].ctrl[k].set[j].file ||
					    !c.g[i].ctrl[k].set[j].value)
						abort();
		}
		cg_conf_free(&c);
	} else if (!err[0] || !line || line > lines) {
		/* a refusal names its line, one of the text's */
		abort();
	}
	free(s);
	return 0;
}
