/* SPDX-License-Identifier: MIT */
/*
 * The sampler's read layer (stats_read.c), which the collectors and the sample read through:
 * a kind of file of a node by its kept fd, a task's /proc files.
 */
#ifndef CGKIT_STATS_READ_H
#define CGKIT_STATS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "stats_state.h"

/* Read a stat file of a node into s->buf (or *heap when it is bigger): 0 or -errno. */
int st_read_kind(struct cg_stats *s, struct node *n, int k, char **heap);
/* A read of kind k failed with r: forget the fd of a file that is gone. */
void st_read_failed(struct cg_stats *s, struct node *n, int k, int r);
/* The directories st_read_kind opened for the node it read (sample_dfd), closed. */
void st_sample_dirs_close(struct cg_stats *s);
/* A task's stat line (proc.h's cg_task_stat), cached fds given back for it: 0 or -errno. */
int st_task_stat(struct cg_stats *s, pid_t pid, pid_t tid, char *buf, size_t size);
/* Is the process a kernel thread? false when it cannot be told (gone since the listing). */
bool st_task_is_kthread(struct cg_stats *s, pid_t pid);

#endif
