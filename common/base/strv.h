/* SPDX-License-Identifier: MIT */
/* NULL-terminated string vectors: controller lists, children, cgrules.conf fields. */
#ifndef CGKIT_STRV_H
#define CGKIT_STRV_H

#include <stdbool.h>
#include <stddef.h>

/* Split "a,b,c" at any byte of sep into a NULL-terminated vector; empty fields are dropped. */
char **cg_strv_split(const char *s, const char *sep);
/* "a" "b" "c" -> "a,b,c" with sep ","; "" for an empty (or NULL) vector; NULL on ENOMEM. */
char *cg_strv_join(char *const *v, const char *sep);
void cg_strv_free(char **v);
size_t cg_strv_len(char *const *v);
bool cg_strv_contains(char *const *v, const char *s);
/* Append a copy of s: 0 or -ENOMEM (*v stays a valid vector either way). */
int cg_strv_push(char ***v, const char *s);
static inline void cg_strv_freep(char ***v)
{
	cg_strv_free(*v);
}
#define _cleanup_strv_free_ __attribute__((cleanup(cg_strv_freep)))

#endif
