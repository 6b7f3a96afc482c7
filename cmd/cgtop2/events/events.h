/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: --events, a program of its own on the watcher (cmd/cgtop2/watch/watch.h). */
#ifndef CGTOP2_EVENTS_H
#define CGTOP2_EVENTS_H

struct cg_layout;
struct events_opts;

/* Stream the events of a->path's subtree until -n, --timeout or a signal: the exit status. */
int events_run(const struct events_opts *a, const struct cg_layout *l);

#endif
