/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: --record, the recorder (record.c), a sink of the pipeline. */
#ifndef CGTOP2_RECORDING_H
#define CGTOP2_RECORDING_H

struct record_opts;
struct source;

/* --record: sample src every a->delay_ns and append to a->record_file until done: exit status */
int record_run(const struct record_opts *a, struct source *src);

#endif
