// SPDX-License-Identifier: MIT
/* Containers and VMs that systemd-machined registers: the cgroup of a machine's scope. */
#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "kernel/file.h"
#include "base/kparse.h"
#include "base/parse.h"
#include "kernel/proc.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * machined writes a unit name through C escapes (cescape(), older systemd) or shell quoting
 * (env_file_fputs_assignment(), newer): either way each backslash of the name comes doubled. A
 * machine name's '-' is already an escape in its unit (unit_name_escape()): machine "a-b" has the
 * cgroup directory machine-a\x2db.scope, and the file says SCOPE=machine-a\\x2db.scope. A NUL
 * is refused: no directory has one.
 */
static char *unescape_value(const char *v)
{
	char *out = malloc(strlen(v) + 1), *o = out;
	static const char ctl[] = "a\ab\bf\fn\nr\rt\tv\v";
	const char *c;
	int hi, lo;

	if (!out)
		return NULL;
	for (; *v; v++) {
		if (*v != '\\' || !v[1]) {
			*o++ = *v;
			continue;
		}
		v++;
		if (*v == 'x' && (hi = hex_digit(v[1])) >= 0 && (lo = hex_digit(v[2])) >= 0) {
			if (!hi && !lo) {
				free(out);
				return NULL;
			}
			*o++ = (char)(hi << 4 | lo);
			v += 2;
		} else if ((c = strchr(ctl, *v)) && (c - ctl) % 2 == 0) {
			*o++ = c[1];
		} else {
			/* \\ \" \' \$ \` and anything else: the character itself */
			*o++ = *v;
		}
	}
	*o = '\0';
	return out;
}

int cg_machine_state_parse(const char *text, char **ret_scope, pid_t *ret_leader)
{
	_cleanup_free_ char *raw = NULL, *scope = NULL, *leader = NULL;

	raw = cg_kparse_env_value(text, "SCOPE");
	if (!raw)
		raw = cg_kparse_env_value(text, "UNIT");
	leader = cg_kparse_env_value(text, "LEADER");
	if (!raw || !leader || cg_parse_pid(leader, ret_leader) < 0)
		return -EINVAL;
	scope = unescape_value(raw);
	/* one path component: what the leader's cgroup is cut after */
	if (!scope || !*scope || strchr(scope, '/') || !strcmp(scope, ".") || !strcmp(scope, ".."))
		return -EINVAL;
	*ret_scope = TAKE_PTR(scope);
	return 0;
}

int cg_machine_cgroup(const struct cg_layout *l, const char *name, char **ret, struct cg_diag *d)
{
	const char *dir = getenv("CGKIT_MACHINES_DIR");
	_cleanup_free_ char *text = NULL, *scope = NULL, *path = NULL;
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
	if (cg_machine_state_parse(text, &scope, &pid) < 0)
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
