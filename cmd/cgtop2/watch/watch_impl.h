/* SPDX-License-Identifier: MIT */
/* Private to common/watch*.c: what watch.c calls of watch_files.c and watch_psi.c. */
#ifndef CGKIT_WATCH_IMPL_H
#define CGKIT_WATCH_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "watch_core.h"

/* ---- watch_files.c ------------------------------------------------------------------------ */

int wf_efile_parse(enum efile f, const char *text, uint64_t v[EF_KEYS]);
/* Re-read an events file and report what changed since the values known. */
void wf_efile_update(struct cg_watch *w, struct wnode *n, enum efile f, enum cg_watch_source src);
void wf_threshold_check(struct cg_watch *w, struct wnode *n, uint64_t usage, uint64_t count,
			enum cg_watch_source src);
/* Everything of n's files but its directory watch: see watch_files.c */
int wf_arm(struct cg_watch *w, struct wnode *n, bool fresh, enum cg_watch_source src);
void wf_efd_free(struct efd_slot *s);
/* A v1 eventfd fired */
void wf_on_eventfd(struct cg_watch *w, struct efd_slot *s);
/* v1 membership as it is now: news unless quiet (the baseline) */
bool wf_sample_populated(struct cg_watch *w, struct wnode *n, bool quiet);
/* Read what is sampled of the files, everywhere */
void wf_sample(struct cg_watch *w);

/* ---- watch_psi.c ------------------------------------------------------------------------- */

/* n's PSI triggers (cgroup2): each registered on its own fd; a refusal fills w->d */
int wp_arm(struct cg_watch *w, struct wnode *n);
void wp_free(struct cg_watch *w, struct wnode *n);
/* A trigger's fd polled with events (EPOLLPRI: a wake-up; EPOLLERR: the cgroup went) */
void wp_on_fd(struct cg_watch *w, struct efd_slot *s, uint32_t events);
/* The sampled triggers (sample), and the wake-ups whose window has passed */
void wp_tick(struct cg_watch *w, bool sample);

#endif
