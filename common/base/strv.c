// SPDX-License-Identifier: MIT
/* NULL-terminated string vectors: controller lists, children, cgrules.conf fields. */
#include "strv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

char **cg_strv_split(const char *s, const char *sep)
{
	_cleanup_free_ char *copy = strdup(s ? s : "");
	char **v = calloc(1, sizeof(char *));
	char *save = NULL;

	if (!copy || !v) {
		free(v);
		return NULL;
	}
	for (char *t = strtok_r(copy, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
		if (cg_strv_push(&v, t) < 0) {
			cg_strv_free(v);
			return NULL;
		}
	}
	return v;
}

char *cg_strv_join(char *const *v, const char *sep)
{
	size_t len = 1, seplen = strlen(sep);
	char *s, *w;

	for (char *const *p = v; p && *p; p++)
		len += strlen(*p) + seplen;
	s = malloc(len);
	if (!s)
		return NULL;
	w = s;
	for (char *const *p = v; p && *p; p++) {
		size_t n = strlen(*p);

		if (p != v) {
			memcpy(w, sep, seplen);
			w += seplen;
		}
		memcpy(w, *p, n);
		w += n;
	}
	*w = '\0';
	return s;
}

void cg_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

size_t cg_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

bool cg_strv_contains(char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return true;
	return false;
}

int cg_strv_push(char ***v, const char *s)
{
	size_t n = cg_strv_len(*v);
	char **nv = realloc(*v, (n + 2) * sizeof(char *));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[n] = strdup(s);
	nv[n + 1] = NULL;
	return nv[n] ? 0 : -ENOMEM;
}
