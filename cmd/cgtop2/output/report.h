/* SPDX-License-Identifier: MIT */
/*
 * Private to cgtop2: how a failure of the sampled cgroup is said on stderr, one line naming the
 * cgroup (report.c). Every part of cgtop2 says its failures through here; none calls up into
 * main.c.
 */
#ifndef CGTOP2_REPORT_H
#define CGTOP2_REPORT_H

struct cg_layout;

/* Say on stderr what failed (errno r) of the cgroup at path (normalized); the exit status, 1. */
int report_errno(const char *path, const char *what, int r);
/* The sampler of path's cgroup on l does not start (errno r, -ENOENT: no such cgroup): 1. */
int report_open(const char *path, const struct cg_layout *l, int r);

#endif
