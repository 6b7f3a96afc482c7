// SPDX-License-Identifier: MIT
/*
 * cgtop2's history for the screen: per cgroup a ring of the last HIST_LEN refreshes of CPU,
 * memory, IO and pressure, found by path (common/base/hash.c's path map), dropped when the cgroup
 * vanishes, so that memory stays bounded by what is shown. And the sparklines and graphs drawn
 * from it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

#include "history.h"

struct ring {
	char *path; /* the map's key */
	float v[HIST_N][HIST_LEN];
	unsigned head, count; /* head: the next slot written */
	unsigned long seen; /* the refresh that last had this cgroup */
};

struct history {
	struct cg_pathmap rings; /* path -> struct ring (one space: the screen's paths) */
	unsigned long gen;
};

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
	const struct cg_pathmap_slot *e;
	size_t i = 0;

	while ((e = cg_pathmap_next(&h->rings, &i)))
		ring_free(e->value);
	cg_pathmap_clear(&h->rings);
}

void hist_free(struct history *h)
{
	if (!h)
		return;
	hist_clear(h);
	free(h);
}

size_t hist_size(const struct history *h)
{
	return h->rings.n;
}

/* Forget the rings this refresh did not have: 0, -ENOMEM (then they stay till the next). */
static int drop_unseen(struct history *h)
{
	const struct cg_pathmap_slot *e;
	struct ring **gone;
	size_t i = 0, n = 0;

	gone = malloc(h->rings.n * sizeof(*gone));
	if (!gone)
		return -ENOMEM;
	/* collected first: the map must not change while it is walked */
	while ((e = cg_pathmap_next(&h->rings, &i)))
		if (((struct ring *)e->value)->seen != h->gen)
			gone[n++] = e->value;
	for (i = 0; i < n; i++) {
		cg_pathmap_remove(&h->rings, NULL, gone[i]->path);
		ring_free(gone[i]);
	}
	free(gone);
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
	size_t seen = 0;

	h->gen++;
	for (size_t i = 0; i < n; i++) {
		struct ring *r = cg_pathmap_get(&h->rings, NULL, rows[i]->path);

		if (!r) {
			r = calloc(1, sizeof(*r));
			if (!r || !(r->path = strdup(rows[i]->path)) ||
			    cg_pathmap_put(&h->rings, NULL, r->path, r) < 0) {
				ring_free(r);
				return -ENOMEM;
			}
		}
		if (r->seen == h->gen)
			continue; /* the same path twice: once is enough */
		r->seen = h->gen;
		seen++;
		for (int m = 0; m < HIST_N; m++)
			r->v[m][r->head] = (float)hist_value(rows[i], (enum hist_metric)m);
		r->head = (r->head + 1) % HIST_LEN;
		if (r->count < HIST_LEN)
			r->count++;
	}
	/* vanished cgroups go at once */
	return h->rings.n > seen ? drop_unseen(h) : 0;
}

size_t hist_get(const struct history *h, const char *path, enum hist_metric m, double *out,
		size_t max)
{
	const struct ring *r;
	size_t k;

	if (!(r = cg_pathmap_get(&h->rings, NULL, path)))
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
