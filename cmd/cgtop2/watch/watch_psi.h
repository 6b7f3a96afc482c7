/* SPDX-License-Identifier: MIT */
/* The PSI triggers (watch_psi.c), as watch.c calls them. */
#ifndef CGKIT_WATCH_PSI_H
#define CGKIT_WATCH_PSI_H

#include <stdbool.h>
#include <stdint.h>

#include "watch_core.h"

/* n's PSI triggers (cgroup2): each registered on its own fd; a refusal fills w->d */
int wp_arm(struct cg_watch *w, struct wnode *n);
void wp_free(struct cg_watch *w, struct wnode *n);
/* A trigger's fd polled with events (EPOLLPRI: a wake-up; EPOLLERR: the cgroup went) */
void wp_on_fd(struct cg_watch *w, struct efd_slot *s, uint32_t events);
/* The sampled triggers (sample), and the wake-ups whose window has passed */
void wp_tick(struct cg_watch *w, bool sample);

#endif
