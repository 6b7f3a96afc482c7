// SPDX-License-Identifier: MIT
/*
 * common/hash: the path-keyed table against a plain array as the reference, through growth and
 * removals in every order (the backward shift keeps each remaining entry findable), the same
 * path in two spaces, replacement, iteration, a cleared map.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/hash.h"

#define N 3000

static char keys[N][48]; /* room for any int: -Wformat-truncation under SAN */
static int vals[N];
static bool in[N];

/* every key looked up: present exactly where the reference has it */
static void check_all(const struct cg_pathmap *m, const void *space)
{
	size_t want = 0;

	for (int i = 0; i < N; i++) {
		void *v = cg_pathmap_get(m, space, keys[i]);

		want += in[i];
		if (in[i] ? v != &vals[i] : v != NULL) {
			fprintf(stderr, "key %s: %p, expected %p\n", keys[i], v,
				in[i] ? (void *)&vals[i] : NULL);
			check_failures++;
			return;
		}
	}
	CHECK_INT(m->n, want);
}

static void test_reference(void)
{
	struct cg_pathmap m = { 0 };
	unsigned seed = 1;
	size_t it = 0, seen = 0;

	for (int i = 0; i < N; i++)
		snprintf(keys[i], sizeof(keys[i]), "system.slice/u%d.service", i);
	CHECK(cg_pathmap_get(&m, NULL, "a") == NULL);
	CHECK(cg_pathmap_remove(&m, NULL, "a") == NULL);
	for (int i = 0; i < N; i++) {
		CHECK_INT(cg_pathmap_put(&m, NULL, keys[i], &vals[i]), 0);
		in[i] = true;
	}
	check_all(&m, NULL);
	CHECK((m.cap & (m.cap - 1)) == 0 && m.n * 2 <= m.cap);
	for (const struct cg_pathmap_slot *s; (s = cg_pathmap_next(&m, &it));)
		seen += s->value == &vals[(s->key - keys[0]) / sizeof(keys[0])];
	CHECK_INT(seen, N);
	/* removals in a pseudo-random order, checked as they go */
	for (int round = 0; round < 2 * N; round++) {
		int i;

		seed = seed * 1103515245 + 12345;
		i = (int)((seed >> 8) % N);
		CHECK(cg_pathmap_remove(&m, NULL, keys[i]) == (in[i] ? &vals[i] : NULL));
		in[i] = false;
		if (round % 500 == 0)
			check_all(&m, NULL);
	}
	check_all(&m, NULL);
	/* and back in */
	for (int i = 0; i < N; i += 3) {
		CHECK_INT(cg_pathmap_put(&m, NULL, keys[i], &vals[i]), 0);
		in[i] = true;
	}
	check_all(&m, NULL);
	cg_pathmap_clear(&m);
	CHECK(m.n == 0 && m.slots == NULL);
	CHECK(cg_pathmap_get(&m, NULL, keys[0]) == NULL);
}

static void test_spaces(void)
{
	struct cg_pathmap m = { 0 };
	int a, b, c, s1, s2;

	CHECK_INT(cg_pathmap_put(&m, &s1, "x/y", &a), 0);
	CHECK_INT(cg_pathmap_put(&m, &s2, "x/y", &b), 0);
	CHECK_INT(cg_pathmap_put(&m, &s1, "", &c), 0);
	CHECK(cg_pathmap_get(&m, &s1, "x/y") == &a);
	CHECK(cg_pathmap_get(&m, &s2, "x/y") == &b);
	CHECK(cg_pathmap_get(&m, NULL, "x/y") == NULL);
	CHECK(cg_pathmap_get(&m, &s1, "") == &c);
	CHECK(cg_pathmap_get(&m, &s2, "") == NULL);
	/* a put of a key there replaces its value */
	CHECK_INT(cg_pathmap_put(&m, &s1, "x/y", &b), 0);
	CHECK_INT(m.n, 3);
	CHECK(cg_pathmap_get(&m, &s1, "x/y") == &b);
	CHECK(cg_pathmap_remove(&m, &s2, "x/y") == &b);
	CHECK(cg_pathmap_get(&m, &s1, "x/y") == &b);
	CHECK_INT(m.n, 2);
	/* the same bytes as another string: looked up by content */
	CHECK(cg_pathmap_get(&m, &s1, (char[]){ 'x', '/', 'y', 0 }) == &b);
	/* FNV-1a's offset basis and prime, as every copy before it had them */
	CHECK(cg_path_hash(NULL, "") == 14695981039346656037ULL);
	CHECK(cg_path_hash(NULL, "a") == 0xaf63dc4c8601ec8cULL);
	cg_pathmap_clear(&m);
}

int main(void)
{
	test_reference();
	test_spaces();
	return CHECK_DONE();
}
