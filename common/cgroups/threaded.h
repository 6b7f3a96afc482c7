/* SPDX-License-Identifier: MIT */
/* Threaded subtrees (v2): cgroup.type, threaded domains, where a single thread may go. */
#ifndef CGKIT_THREADED_H
#define CGKIT_THREADED_H

#include <stdbool.h>
#include <sys/types.h>

#include "cgroup.h"
#include "base/error.h"
#include "kernel/mount.h"

/* v2: cgroup.type = threaded. */
int cg_make_threaded(const struct cg_hier *h, const char *path, struct cg_diag *d);

/*
 * Threaded subtrees (v2). A cgroup is "domain", "domain threaded" (the root of a threaded
 * subtree), "domain invalid" (a domain child left under threaded siblings) or "threaded".
 * Processes live in domains; single threads of one process may spread over the threaded
 * cgroups below its domain. Only threaded controllers work inside: cpu, cpuset, perf_event,
 * pids.
 */
enum cg_cgroup_type {
	CG_TYPE_DOMAIN,
	CG_TYPE_DOMAIN_THREADED,
	CG_TYPE_DOMAIN_INVALID,
	CG_TYPE_THREADED,
};
/* cgroup.type text -> type, -EINVAL when unknown (pure: unit tests) */
int cg_cgroup_type_parse(const char *text);
const char *cg_cgroup_type_name(enum cg_cgroup_type t);
/* The cgroup.type of path; v1 has no threaded mode: -ENOTSUP. */
int cg_cgroup_type(const struct cg_hier *h, const char *path);
bool cg_controller_is_threaded(const char *controller);
/* The threaded domain path belongs to: itself unless threaded, else its nearest non-threaded
 * ancestor ("" for the root). */
int cg_threaded_domain(const struct cg_hier *h, const char *path, char **ret);
/*
 * May thread tid of process tgid move to path? 0 on v1 (threads go anywhere) and when path is
 * in the threaded domain the thread lives in; else -EOPNOTSUPP with the rule and the fix
 * (cgcreate2 -T, or moving the whole process first) in d.
 */
int cg_thread_move_check(const struct cg_hier *h, const char *path, pid_t tgid, pid_t tid,
			 struct cg_diag *d);
/*
 * Make path (existing) threaded and enable ctrls for it top-down, including where threaded
 * controllers may be enabled inside the threaded subtree. A domain-only controller in ctrls is
 * refused with the threaded rule. Journaled (cg_enable). No-op on v1.
 */
int cg_threaded_setup(const struct cg_hier *h, const char *path, char *const *ctrls,
		      struct cg_journal *j, struct cg_diag *d);

#endif
