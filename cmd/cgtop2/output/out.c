// SPDX-License-Identifier: MIT
/* cgtop2's output buffer: every screen and every batch snapshot is one write. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"
#include "tool.h"

#define OUT_CHUNK 65536

/* Room for len more bytes and a NUL; false (and the output marked failed) without memory. */
static bool out_reserve(struct out *o, size_t len)
{
	size_t cap = (o->cap + len + 1) * 2;
	char *ns = realloc(o->s, cap);

	if (!ns) {
		o->failed = true;
		return false;
	}
	o->s = ns;
	o->cap = cap;
	return true;
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->s ? o->s + o->len : NULL, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = true;
			return;
		}
		if ((size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		if (!out_reserve(o, (size_t)n))
			return;
	}
}

void out_put(struct out *o, const char *p, size_t len)
{
	if (o->cap - o->len <= len && !out_reserve(o, len))
		return;
	memcpy(o->s + o->len, p, len);
	o->len += len;
	o->s[o->len] = '\0';
}

void out_pad(struct out *o, size_t n)
{
	static const char spaces[] = "                                ";

	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		out_put(o, spaces, k);
		n -= k;
	}
}

int out_flush(struct out *o, int fd)
{
	size_t off = 0;

	if (o->err)
		return o->err;
	while (off < o->len) {
		ssize_t n = write(fd, o->s + off, o->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += (size_t)n;
	}
	o->len = 0;
	return o->failed ? -ENOMEM : 0;
}

void out_maybe_flush(struct out *o)
{
	int r;

	if (o->fd < 0 || o->len < OUT_CHUNK || o->err)
		return;
	r = out_flush(o, o->fd);
	if (r < 0)
		o->err = r;
}

int out_stdout_failed(int r)
{
	if (r == -EPIPE)
		return 0;
	if (r == -ENOMEM)
		tool_say("output: %s", strerror(ENOMEM));
	else
		tool_say("write error on standard output: %s", strerror(-r));
	return 1;
}
