// SPDX-License-Identifier: MIT
/*
 * serve/serve_io.c gz_chunks_gzip: a gzip body made of chunks, each deflated alone, those of
 * the last body copied where their text is the same, is the text, whole, for gunzip (zlib's
 * inflate with the gzip wrapper, its CRC and length checked), body after body: a line that
 * changes, lines that come and go, a run of chunks (a family) that appears and goes; and only
 * the chunks whose text changed are deflated again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "output/metrics_cache.h"
#include "serve/serve_io.h"
#include "tool.h"

void tool_say(const char *fmt, ...)
{
	(void)fmt;
}

/* gunzip(z) == text */
static void round_trip(int line, const unsigned char *z, size_t zlen, const char *text, size_t len)
{
	z_stream s = { 0 };
	unsigned char *out = malloc(len + 16);
	int r;

	if (!out || inflateInit2(&s, 16 + 15) != Z_OK) {
		check_failures++;
		free(out);
		return;
	}
	s.next_in = (Bytef *)z;
	s.avail_in = (uInt)zlen;
	s.next_out = out;
	s.avail_out = (uInt)len + 16;
	r = inflate(&s, Z_FINISH);
	if (r != Z_STREAM_END || s.total_out != len || memcmp(out, text, len) || s.avail_in) {
		fprintf(stderr, "line %d: inflate %d, %lu bytes of %zu, %u left over\n", line, r,
			s.total_out, len, s.avail_in);
		check_failures++;
	}
	inflateEnd(&s);
	free(out);
}

/*
 * A body of families f (bit f of fams: family f is there) with rows of n_rows (bit i of rows:
 * cgroup i is there), value[i] its value; a cut after every cgroup in 4, keyed by cgroup and
 * family, as metrics_cache.c cuts.
 */
#define N_ROWS 200
#define N_FAMS 5
static unsigned value[N_ROWS];
static char text[1 << 20];
static struct metrics_cut cuts[N_ROWS * N_FAMS];
static size_t len, n_cuts;

static void make(unsigned fams, const bool *rows)
{
	len = n_cuts = 0;
	for (int f = 0; f < N_FAMS; f++) {
		if (!(fams & (1u << f)))
			continue;
		len += (size_t)sprintf(text + len,
				       "# HELP fam%d_total A family.\n# TYPE fam%d_total counter\n",
				       f, f);
		for (size_t i = 0; i < N_ROWS; i++) {
			if (!rows[i])
				continue;
			len += (size_t)sprintf(text + len, "fam%d_total{cgroup=\"/c%05zu\"} %u\n",
					       f, i, value[i] * (unsigned)(f + 1));
			if (i % 4 == 3)
				cuts[n_cuts++] = (struct metrics_cut){ .end = len,
								       .key = i * 131 + (size_t)f };
		}
	}
	len += (size_t)sprintf(text + len, "cgtop2_scrape_duration_seconds 0.%06u\n", value[0]);
}

static void body(int line, struct gz_chunks *k, const struct metrics_cut *c, size_t n)
{
	unsigned char *z = NULL;
	size_t zlen = 0;

	CHECK_INT(gz_chunks_gzip(k, text, len, c, n, &z, &zlen), 0);
	round_trip(line, z, zlen, text, len);
	free(z);
}

#define BODY() body(__LINE__, &k, cuts, n_cuts)

int main(void)
{
	struct gz_chunks k = { 0 };
	bool rows[N_ROWS];
	size_t chunks;

	for (size_t i = 0; i < N_ROWS; i++) {
		rows[i] = true;
		value[i] = (unsigned)i * 1000;
	}
	make(0x1f, rows);
	BODY();
	chunks = k.deflated;
	CHECK_INT(k.reused, 0);
	CHECK(chunks > N_FAMS * N_ROWS / 4);
	/* the same text: every chunk copied, but the last (nothing ends it: it is one) */
	BODY();
	CHECK_INT(k.deflated, 0);
	CHECK_INT(k.reused, chunks);
	/* one cgroup's values change (the time too): its chunk in each family, and the last */
	value[77]++;
	value[0]++;
	make(0x1f, rows);
	BODY();
	CHECK_INT(k.deflated, 2 * N_FAMS + 1);
	CHECK_INT(k.reused + k.deflated, chunks);
	/* a value gains a digit: the same */
	value[150] = 99999999;
	make(0x1f, rows);
	BODY();
	CHECK_INT(k.deflated, N_FAMS);
	/* a cgroup goes: its chunk in each family is another one, the others are kept */
	rows[41] = false;
	make(0x1f, rows);
	BODY();
	CHECK_INT(k.deflated, N_FAMS);
	/* and comes back, with another one */
	rows[41] = true;
	rows[42] = false;
	make(0x1f, rows);
	BODY();
	CHECK_INT(k.deflated, N_FAMS);
	/* a family goes: nothing to deflate */
	make(0x1f & ~(1u << 2), rows);
	BODY();
	CHECK_INT(k.deflated, 0);
	/* and comes back: its chunks alone (what follows it is found by key) */
	make(0x1f, rows);
	BODY();
	CHECK(k.deflated >= N_ROWS / 4 - 1 && k.deflated <= N_ROWS / 4 + 1);
	/* cut nowhere, everywhere, past the end, twice at the same place */
	body(__LINE__, &k, NULL, 0);
	CHECK_INT(k.deflated, 1);
	{
		struct metrics_cut odd[4] = {
			{ .end = 0 }, { .end = 10 }, { .end = 10 }, { .end = len + 100 }
		};

		body(__LINE__, &k, odd, 4);
		CHECK_INT(k.deflated + k.reused, 2);
	}
	/* an empty body */
	len = 0;
	body(__LINE__, &k, NULL, 0);
	CHECK_INT(k.deflated + k.reused, 0);
	make(0x1f, rows);
	BODY();
	gz_chunks_free(&k);
	return CHECK_DONE();
}
