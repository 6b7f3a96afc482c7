/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: --psi-trigger's wake-up counts (triggers.c). */
#ifndef CGTOP2_TRIGGERS_H
#define CGTOP2_TRIGGERS_H

#include <stdint.h>

#include "watch.h"

struct cg_layout;
struct cgtop2_args;
struct trig_counter;
/* Register a->triggers below a->path and count their wake-ups on a thread: 0, or the exit
 * status after saying why (the kernel's rule). */
int trig_counter_start(const struct cgtop2_args *a, const struct cg_layout *l,
		       struct trig_counter **ret);
/* The wake-ups so far, by enum cg_psi_res and some (0) or full (1). */
void trig_counter_read(struct trig_counter *t, uint64_t out[CG_PSIR_N][2]);
void trig_counter_stop(struct trig_counter *t);
/*
 * The resources ("cpu,memory") of path's triggers that fired less than their window ago into
 * buf; its length, 0: none (or t NULL).
 */
size_t trig_counter_fired(struct trig_counter *t, const char *path, char *buf, size_t size);

#endif
