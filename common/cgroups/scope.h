/* SPDX-License-Identifier: MIT */
/* Transient systemd scopes over D-Bus (sd-bus), and -r settings as their unit properties. */
#ifndef CGKIT_SCOPE_H
#define CGKIT_SCOPE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "base/parse.h"

/* One unit property a -r setting becomes: a number ("t"), or a device's bandwidth ("a(st)"). */
struct cg_unit_prop {
	const char *name; /* "MemoryMax", "IOReadBandwidthMax", ... */
	bool device; /* a(st): dev, value */
	char dev[32]; /* "/dev/block/8:0" */
	uint64_t value; /* UINT64_MAX: "max", no limit */
};

#define CG_UNIT_PROPS_MAX 4 /* the most one setting makes: io.max's rbps, wbps, riops, wiops */

/*
 * FILE=VALUE in the one vocabulary (v2 names) -> unit properties: memory.max MemoryMax,
 * memory.high MemoryHigh, cpu.weight CPUWeight, cpu.max CPUQuotaPerSecUSec, pids.max
 * TasksMax, io.max IOReadBandwidthMax/IOWriteBandwidthMax/IOReadIOPSMax/IOWriteIOPSMax.
 * Pure. Returns the number of properties, -EOPNOTSUPP for a file with no property, -EINVAL
 * for a value systemd could not take, with the reason in d.
 */
int cg_scope_map(const char *file, const char *value, struct cg_unit_prop out[CG_UNIT_PROPS_MAX],
		 struct cg_diag *d);

/* Every -r of set mapped (cg_scope_map) before systemd is asked for anything: 0 or the first -errno, d filled. */
int cg_scope_map_check(const struct cg_assignments *set, struct cg_diag *d);

struct cg_scope_opts {
	const char *unit; /* "NAME.scope" */
	const char *slice; /* NULL: the manager's default */
	const char *description;
	bool user; /* the calling user's manager (user bus), not the system's */
	const pid_t *pids; /* the processes the scope starts with */
	size_t n_pids;
	const struct cg_assignments *set; /* -r, mapped by cg_scope_map */
	uint64_t timeout_ns; /* for the call and the job; 0: 60 s */
};

/*
 * Ask the service manager for a scope holding o->pids with Delegate=yes, and wait until its
 * start job has finished (JobRemoved). Returns 0 once the scope runs, -errno with d filled
 * (which unit, which manager, systemd's error).
 */
int cg_scope_start(const struct cg_scope_opts *o, struct cg_diag *d);

/* A unit's whole name: "a" -> "a.scope" with suffix ".scope"; "b.scope" stays. Into buf. */
void cg_scope_unit_name(char *buf, size_t size, const char *name, const char *suffix);

/*
 * Does user uid's systemd give its unit Delegate=yes: 1, 0, or -errno when that manager cannot
 * be asked. systemd 252's user manager marks its delegated units with no xattr (only the
 * system's marks, user@UID.service included), so the unit's property is the one word on them.
 */
int cg_scope_user_unit_delegated(const char *unit, uid_t uid);

/* Stop a unit (StopUnit, mode "fail") and wait for the job. */
int cg_scope_stop(const char *unit, bool user, uint64_t timeout_ns, struct cg_diag *d);

#endif
