/* SPDX-License-Identifier: MIT */
/* The one path-keyed hash table: a cgroup path (within a space: a hierarchy) -> a value. */
#ifndef CGKIT_HASH_H
#define CGKIT_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Open addressing with linear probing, at most half full, grown by doubling. A key is
 * (space, path): space tells apart the same path in two hierarchies (a struct cg_hier, or NULL
 * where there is one). The path is borrowed, not copied: it must live while its entry does
 * (the value's own copy, usually). Values are not NULL. A zeroed map is an empty one.
 */
struct cg_pathmap_slot {
	const void *space;
	const char *key; /* NULL: empty */
	void *value;
	uint64_t hash;
};

struct cg_pathmap {
	struct cg_pathmap_slot *slots;
	size_t cap, n;
};

/* FNV-1a (64 bits) of path, seeded by space */
uint64_t cg_path_hash(const void *space, const char *path);
/* The value of (space, path), or NULL */
void *cg_pathmap_get(const struct cg_pathmap *m, const void *space, const char *path);
/* (space, path) -> value, replacing a value it had: 0, -ENOMEM (the map as it was) */
int cg_pathmap_put(struct cg_pathmap *m, const void *space, const char *path, void *value);
/* Forget (space, path): the value it had, or NULL */
void *cg_pathmap_remove(struct cg_pathmap *m, const void *space, const char *path);
/* The next entry from *i on (start at 0), or NULL at the end; the map must not change between */
const struct cg_pathmap_slot *cg_pathmap_next(const struct cg_pathmap *m, size_t *i);
/* Empty, its memory freed (not the keys' or values') */
void cg_pathmap_clear(struct cg_pathmap *m);

#endif
