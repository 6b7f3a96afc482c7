/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: batch output (-b, -F, into a pipe or a file), a sink of the pipeline. */
#ifndef CGTOP2_BATCH_H
#define CGTOP2_BATCH_H

struct cgtop2_args;
struct source;

/* Print src's samples in a->format until -n, the recording's end or a signal: exit status. */
int batch_run(const struct cgtop2_args *a, struct source *src);

#endif
