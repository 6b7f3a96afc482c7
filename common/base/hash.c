// SPDX-License-Identifier: MIT
/*
 * The one path-keyed hash table (the watcher's nodes, the sampler's tree, -g's targets, the
 * recorder's path ids, the screen's history): open addressing, deletion by backward shift so
 * that no tombstone slows a table that lives as long as a tree does and sees cgroups come and go.
 */
#include "hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t cg_path_hash(const void *space, const char *path)
{
	uint64_t x = 14695981039346656037ULL ^ (uint64_t)(uintptr_t)space;

	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		x = (x ^ *c) * 1099511628211ULL;
	return x;
}

/* Where (space, path) is, or the empty slot where it goes: the map has one free slot at least. */
static size_t slot_of(const struct cg_pathmap *m, const void *space, const char *path, uint64_t h)
{
	size_t mask = m->cap - 1;

	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		const struct cg_pathmap_slot *s = &m->slots[i];

		if (!s->key || (s->hash == h && s->space == space && !strcmp(s->key, path)))
			return i;
	}
}

void *cg_pathmap_get(const struct cg_pathmap *m, const void *space, const char *path)
{
	if (!m->n)
		return NULL;
	return m->slots[slot_of(m, space, path, cg_path_hash(space, path))].value;
}

static int grow(struct cg_pathmap *m)
{
	struct cg_pathmap old = *m;
	size_t cap = m->cap ? m->cap * 2 : 16;

	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			m->slots[slot_of(m, old.slots[i].space, old.slots[i].key,
					 old.slots[i].hash)] = old.slots[i];
	free(old.slots);
	return 0;
}

int cg_pathmap_put(struct cg_pathmap *m, const void *space, const char *path, void *value)
{
	uint64_t h = cg_path_hash(space, path);
	struct cg_pathmap_slot *s;

	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return -ENOMEM;
	s = &m->slots[slot_of(m, space, path, h)];
	if (!s->key)
		m->n++;
	*s = (struct cg_pathmap_slot){ .space = space, .key = path, .value = value, .hash = h };
	return 0;
}

void *cg_pathmap_remove(struct cg_pathmap *m, const void *space, const char *path)
{
	size_t mask = m->cap - 1, i, j;
	void *v;

	if (!m->n)
		return NULL;
	i = slot_of(m, space, path, cg_path_hash(space, path));
	if (!m->slots[i].key)
		return NULL;
	v = m->slots[i].value;
	/* the entries after it in its run move back where their probe would still find them */
	for (j = (i + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
		size_t home = (size_t)m->slots[j].hash & mask;

		/* home cyclically in (i, j]: it stays */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i] = (struct cg_pathmap_slot){ 0 };
	m->n--;
	return v;
}

const struct cg_pathmap_slot *cg_pathmap_next(const struct cg_pathmap *m, size_t *i)
{
	for (; *i < m->cap; (*i)++)
		if (m->slots[*i].key)
			return &m->slots[(*i)++];
	return NULL;
}

void cg_pathmap_clear(struct cg_pathmap *m)
{
	free(m->slots);
	*m = (struct cg_pathmap){ 0 };
}
