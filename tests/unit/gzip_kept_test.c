// SPDX-License-Identifier: MIT
/*
 * serve/serve_io.c serve_gzip_kept: a gzip body made of a kept deflated start and the rest
 * deflated now is the text, whole, for gunzip (zlib's inflate with the gzip wrapper, its CRC
 * and length checked): the start made afresh, then kept while gen and its length stay, then
 * made again when either changes; and the start is deflated again, not kept, after a change.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
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

static void body(int line, const char *text, size_t len, size_t head, unsigned gen,
		 struct gz_kept *k)
{
	unsigned char *z = NULL;
	size_t zlen = 0;

	CHECK_INT(serve_gzip_kept(text, len, head, gen, k, &z, &zlen), 0);
	round_trip(line, z, zlen, text, len);
	free(z);
}

int main(void)
{
	struct gz_kept k = { 0 };
	size_t n = 200000;
	char *a = malloc(n + 1), *b = malloc(n + 1);

	if (!a || !b)
		return 1;
	for (size_t i = 0; i < n; i++)
		a[i] = (char)("cgroup_cpu_usage_seconds_total{cgroup=\"/c0\"} 0.1\n"[i % 48] +
			      (i / 997) % 3);
	a[n] = '\0';
	memcpy(b, a, n + 1);
	b[n - 10] = 'X';
	body(__LINE__, a, n, 150000, 1, &k);
	/* kept: only the tail is deflated; the tail differs */
	body(__LINE__, b, n, 150000, 1, &k);
	CHECK_INT(k.len, 150000);
	/* the start changed (another gen): made again from this text */
	a[5] = 'Y';
	body(__LINE__, a, n, 150000, 2, &k);
	CHECK_INT(k.gen, 2);
	/* another length of the start */
	body(__LINE__, a, n, 1000, 2, &k);
	CHECK_INT(k.len, 1000);
	/* a start of the whole text, and of nothing */
	body(__LINE__, a, n, n, 3, &k);
	body(__LINE__, a, n, 0, 4, &k);
	body(__LINE__, "", 0, 0, 5, &k);
	gz_kept_free(&k);
	free(a);
	free(b);
	return CHECK_DONE();
}
