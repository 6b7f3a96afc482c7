/* SPDX-License-Identifier: MIT */
/*
 * The events files (watch_files.c), as watch.c calls them: what a change of one means, the v1
 * memory eventfds, what is sampled.
 */
#ifndef CGKIT_WATCH_FILES_H
#define CGKIT_WATCH_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "watch_core.h"

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

#endif
