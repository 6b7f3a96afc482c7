// SPDX-License-Identifier: MIT
/*
 * cgtop2's history for the screen: per cgroup a ring of the last HIST_LEN refreshes of CPU,
 * memory, IO and pressure, found by path (open addressing), dropped when the cgroup vanishes,
 * so that memory stays bounded by what is shown. And the sparklines and graphs drawn from it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

struct ring {
	char *path;
	float v[HIST_N][HIST_LEN];
	unsigned head, count; /* head: the next slot written */
	unsigned long seen; /* the refresh that last had this cgroup */
};

struct history {
	struct ring **slots; /* open addressing, power-of-two size, NULL empty */
	size_t size, used;
	unsigned long gen;
};

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct history *hist_new(void)
{
	return calloc(1, sizeof(struct history));
}

static void ring_free(struct ring *r)
{
	if (r) {
		free(r->path);
		free(r);
	}
}

void hist_clear(struct history *h)
{
	for (size_t i = 0; i < h->size; i++) {
		ring_free(h->slots[i]);
		h->slots[i] = NULL;
	}
	h->used = 0;
}

void hist_free(struct history *h)
{
	if (!h)
		return;
	hist_clear(h);
	free(h->slots);
	free(h);
}

size_t hist_size(const struct history *h)
{
	return h->used;
}

static struct ring **find(const struct history *h, const char *path)
{
	size_t mask = h->size - 1, i;

	for (i = hash(path) & mask; h->slots[i]; i = (i + 1) & mask)
		if (!strcmp(h->slots[i]->path, path))
			return &h->slots[i];
	return &h->slots[i];
}

/* Rebuild with room for want rings, keeping only those seen in this refresh. */
static int rehash(struct history *h, size_t want)
{
	struct ring **old = h->slots;
	size_t old_size = h->size, size = 16;

	while (size < want * 2)
		size *= 2;
	h->slots = calloc(size, sizeof(*h->slots));
	if (!h->slots) {
		h->slots = old;
		return -ENOMEM;
	}
	h->size = size;
	h->used = 0;
	for (size_t i = 0; i < old_size; i++) {
		if (!old[i])
			continue;
		if (old[i]->seen != h->gen) {
			ring_free(old[i]);
			continue;
		}
		*find(h, old[i]->path) = old[i];
		h->used++;
	}
	free(old);
	return 0;
}

double hist_value(const struct cg_stat_row *r, enum hist_metric m)
{
	double v = NAN;

	switch (m) {
	case HIST_CPU:
		if (r->have & CG_STAT_CPU_RATE)
			v = r->cpu_percent;
		break;
	case HIST_MEM:
		if (r->have & CG_STAT_MEMORY)
			v = (double)r->memory;
		break;
	case HIST_IO:
		if (r->have & CG_STAT_IO_RATE)
			v = r->io_read_bps + r->io_write_bps;
		break;
	default:
		for (int p = 0; p < CG_PSI_N; p++)
			if ((r->have & (CG_STAT_PSI_CPU << p)) && !(r->psi[p] <= v))
				v = r->psi[p];
		break;
	}
	return v;
}

int hist_add(struct history *h, struct cg_stat_row *const *rows, size_t n)
{
	size_t dropped;

	h->gen++;
	if ((h->used + n) * 2 > h->size) {
		h->gen--; /* keep everything: nothing of this refresh is marked yet */
		if (rehash(h, h->used + n) < 0)
			return -ENOMEM;
		h->gen++;
	}
	for (size_t i = 0; i < n; i++) {
		struct ring **slot = find(h, rows[i]->path), *r = *slot;

		if (!r) {
			r = calloc(1, sizeof(*r));
			if (!r || !(r->path = strdup(rows[i]->path))) {
				free(r);
				return -ENOMEM;
			}
			*slot = r;
			h->used++;
		}
		if (r->seen == h->gen)
			continue; /* the same path twice: once is enough */
		r->seen = h->gen;
		for (int m = 0; m < HIST_N; m++)
			r->v[m][r->head] = (float)hist_value(rows[i], (enum hist_metric)m);
		r->head = (r->head + 1) % HIST_LEN;
		if (r->count < HIST_LEN)
			r->count++;
	}
	dropped = h->used > n ? h->used - n : 0;
	/* vanished cgroups go at once: a rebuild of the table (n may hold duplicates) */
	if (dropped)
		return rehash(h, n);
	return 0;
}

size_t hist_get(const struct history *h, const char *path, enum hist_metric m, double *out,
		size_t max)
{
	const struct ring *r;
	size_t k;

	if (!h->size || !(r = *find(h, path)))
		return 0;
	k = r->count < max ? r->count : max;
	for (size_t i = 0; i < k; i++)
		out[i] = r->v[m][(r->head + HIST_LEN - k + i) % HIST_LEN];
	return k;
}

static const char *const blocks[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
static const char ascii[] = " .:-=+*#%";

static double scale_of(const double *vals, size_t n, double floor)
{
	double top = floor;

	for (size_t i = 0; i < n; i++)
		if (vals[i] > top)
			top = vals[i];
	return top;
}

/* eighths 0..8*height of v against top; -1 unknown */
static int level(double v, double top, int height)
{
	double want;
	int e;

	if (isnan(v))
		return -1;
	/* rounded up, without libm */
	want = v / top * 8 * height;
	e = (int)want;
	if (e < want)
		e++;
	if (e < 1)
		e = 1; /* zero shows as the lowest bar, not as nothing */
	return e > 8 * height ? 8 * height : e;
}

static size_t glyph(char *buf, size_t size, int fill, bool utf8)
{
	const char *g = utf8 ? blocks[fill] : (char[]){ ascii[fill], 0 };
	size_t len = strlen(g);

	if (len >= size)
		return 0;
	memcpy(buf, g, len + 1);
	return len;
}

size_t graph_row(char *buf, size_t size, const double *vals, size_t n, size_t width, double floor,
		 int height, int r, bool utf8)
{
	size_t used = 0, skip = n > width ? n - width : 0;
	double top = scale_of(vals + skip, n - skip, floor);

	buf[0] = '\0';
	/* the newest value at the right edge */
	for (size_t i = n - skip; i < width; i++)
		used += glyph(buf + used, size - used, 0, utf8);
	for (size_t i = skip; i < n; i++) {
		int e = level(vals[i], top, height), base = 8 * (height - 1 - r), fill;

		fill = e < 0 ? 0 : e - base < 0 ? 0 : e - base > 8 ? 8 : e - base;
		if (e >= 0 && fill == 0 && r == height - 1)
			fill = 1;
		used += glyph(buf + used, size - used, fill, utf8);
	}
	return used;
}

size_t spark(char *buf, size_t size, const double *vals, size_t n, size_t width, double floor,
	     bool utf8)
{
	return graph_row(buf, size, vals, n, width, floor, 1, 0, utf8);
}
