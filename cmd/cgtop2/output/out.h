/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: a growable output buffer (out.c), what every writer writes into. */
#ifndef CGTOP2_OUT_H
#define CGTOP2_OUT_H

#include <stdbool.h>
#include <stddef.h>

struct out {
	char *s;
	size_t len, cap;
	bool failed;
	/* batch: write out every OUT_CHUNK, so that thousands of rows need no big buffer */
	int fd; /* -1: keep everything for one write (the interactive screen) */
	int err;
};

void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_put(struct out *o, const char *p, size_t len);
/* n spaces */
void out_pad(struct out *o, size_t n);
/* Write it all to fd and empty it: 0, -errno, or -ENOMEM when something was lost. */
int out_flush(struct out *o, int fd);
/* Batch: flush once OUT_CHUNK is buffered; a failed write is kept for out_flush to return. */
void out_maybe_flush(struct out *o);
/*
 * Say why out_flush(o, STDOUT_FILENO) failed, as the output's failure (ENOSPC is no cgroup's
 * here): 1, or 0 for EPIPE, a reader that went away (head -1), which ends output quietly.
 */
int out_stdout_failed(int r);

#endif
