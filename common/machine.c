// SPDX-License-Identifier: MIT
/* Containers and VMs that systemd-machined registers: the cgroup of a machine's scope. */
#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "file.h"
#include "kparse.h"
#include "parse.h"
#include "proc.h"

int cg_machine_cgroup(const struct cg_layout *l, const char *name, char **ret, struct cg_diag *d)
{
	const char *dir = getenv("CGKIT_MACHINES_DIR");
	_cleanup_free_ char *text = NULL, *scope = NULL, *leader = NULL, *path = NULL;
	const struct cg_hier *h = l->unified ? l->unified : cg_layout_find(l, "name=systemd");
	char file[PATH_MAX];
	pid_t pid;
	int fd, r;

	snprintf(file, sizeof(file), "%s/%s", dir && *dir ? dir : CG_MACHINES_DIR, name);
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		r = -errno;
		if (r == -ENOENT)
			return cg_diag_say(d, ENOENT, name, "", "machine",
					   "no such machine (no %s; is systemd-machined running?)",
					   file);
		return cg_diag_say(d, -r, name, "", "machine", "cannot read %s: %s", file,
				   strerror(-r));
	}
	r = cg_read_fd(fd, &text, NULL);
	close(fd);
	if (r < 0)
		return cg_diag_say(d, -r, name, "", "machine", "cannot read %s", file);
	scope = cg_kparse_env_value(text, "SCOPE");
	if (!scope)
		scope = cg_kparse_env_value(text, "UNIT");
	leader = cg_kparse_env_value(text, "LEADER");
	if (!scope || !*scope || !leader || cg_parse_pid(leader, &pid) < 0)
		return cg_diag_say(d, EINVAL, name, "", "machine",
				   "%s names no scope (SCOPE=) or no leader (LEADER=)", file);
	if (!h)
		return cg_diag_say(d, ENOENT, name, "", "machine",
				   "neither a unified nor a name=systemd hierarchy is mounted");
	r = cg_pid_cgroup(h, pid, 0, &path);
	if (r < 0)
		return cg_diag_say(d, -r, name, "", "machine",
				   "the leader, PID %d, is gone or outside %s", (int)pid, h->label);
	for (char *c = path, *e; *c; c = *e ? e + 1 : e) {
		e = strchrnul(c, '/');
		if ((size_t)(e - c) == strlen(scope) && !strncmp(c, scope, (size_t)(e - c))) {
			*e = '\0';
			*ret = TAKE_PTR(path);
			return 0;
		}
	}
	return cg_diag_say(d, ESRCH, name, "", "machine",
			   "the leader, PID %d, is in /%s, not in %s", (int)pid, path, scope);
}
