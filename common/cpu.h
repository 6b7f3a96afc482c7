/* SPDX-License-Identifier: MIT */
/* One CPU vocabulary on every layout: v2 names, translated for v1; threaded subtrees. */
#ifndef CGKIT_CPU_H
#define CGKIT_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgroup.h"
#include "error.h"
#include "mount.h"

struct cg_setting {
	char file[64];
	char value[64];
};

/*
 * Translate FILE=VALUE for a hierarchy of the given version.
 * Returns 1 when FILE is not part of the CPU vocabulary (write it as it is), 0 with 1..2
 * settings in out[] (in the order to write them), or -EINVAL (bad value) / -ENOTSUP
 * (a v1 name on v2, or a v2 name v1 cannot express) with a sentence in why.
 *   v2: cpu.weight 1..10000, cpu.weight.nice -20..19, cpu.max "QUOTA|max [PERIOD]",
 *       cpu.idle 0|1, cpuset.cpus: validated, written as they are.
 *   v1: cpu.weight -> cpu.shares (weight * 1024 / 100), cpu.weight.nice -> cpu.shares by the
 *       scheduler's nice table, cpu.max -> cpu.cfs_period_us then cpu.cfs_quota_us,
 *       cpu.idle and cpuset.cpus as they are. v1 names pass through on v1.
 */
int cg_cpu_translate(int version, const char *file, const char *value, struct cg_setting out[2],
		     size_t *ret_n, char *why, size_t whylen);

/* v2 interface files whose v1 ancestors people still type: the v2 name, or NULL. */
const char *cg_v2_name_for_v1(const char *file);

/* A cpu list as cpuset.cpus takes it ("0-3,8,10-15:2/4", or empty): 0 or -EINVAL. */
int cg_cpulist_validate(const char *s);

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
