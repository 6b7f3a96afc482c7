/* SPDX-License-Identifier: MIT */
/* Containers and VMs that systemd-machined registers: the cgroup of a machine's scope. */
#ifndef CGKIT_MACHINE_H
#define CGKIT_MACHINE_H

#include <sys/types.h>

#include "base/error.h"
#include "kernel/mount.h"

/* systemd-machined's state of each machine: where systemd-cgtop -M looks up the scope too */
#define CG_MACHINES_DIR "/run/systemd/machines"

/*
 * The cgroup (path relative to the unified hierarchy, else name=systemd) of machine NAME's
 * scope. machined's state file ($CGKIT_MACHINES_DIR/NAME, for tests) names the scope (SCOPE=,
 * which systemd-cgtop reads; UNIT= is taken too) and the leader (LEADER=, which systemd's own
 * container_get_leader() reads). systemd-cgtop then asks the manager over D-Bus for the
 * scope's ControlGroup; without D-Bus that is the leader's cgroup up to the scope's own
 * component. -errno with the reason in d->why: -ENOENT no such machine, -EINVAL no scope or
 * leader, -ESRCH a leader outside its scope.
 */
/*
 * The scope (the unit name, unescaped: its cgroup directory's name) and the leader of machined's
 * state file TEXT. -EINVAL if either is missing, the leader is no PID, or the scope is no single
 * path component (empty, '/', ".", "..", a NUL escaped in it).
 */
int cg_machine_state_parse(const char *text, char **ret_scope, pid_t *ret_leader);

int cg_machine_cgroup(const struct cg_layout *l, const char *name, char **ret, struct cg_diag *d);

#endif
