/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: batch output (-b, -F, into a pipe or a file), a sink of the pipeline. */
#ifndef CGTOP2_BATCH_H
#define CGTOP2_BATCH_H

struct batch_opts;
struct sink;
struct source;

/* Print src's samples in a->format until -n, the recording's end or a signal: exit status. */
int batch_run(const struct batch_opts *a, struct source *src);

/*
 * Batch output as a part of another sink (--record with -b or -F): a sink whose put prints
 * each sample (NULL without memory), and its end, which frees it: the exit status of what it
 * printed (a stdout that failed: 1).
 */
struct sink *batch_new(const struct batch_opts *a, struct source *src);
int batch_end(struct sink *k);

#endif
