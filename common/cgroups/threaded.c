// SPDX-License-Identifier: MIT
/* Threaded subtrees (v2): cgroup.type, threaded domains, where a single thread may go. */
#include "threaded.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "kernel/file.h"
#include "base/parse.h"
#include "kernel/proc.h"
#include "kernel/spec.h"

#define disp cg_path_display

int cg_make_threaded(const struct cg_hier *h, const char *path, struct cg_diag *d)
{
	_cleanup_close_ int fd = cg_open_dir(h, path);
	char buf[PATH_MAX + 2];
	int r;

	disp(path, buf, sizeof(buf));
	if (h->version != 2)
		return cg_diag_say(
			d, ENOTSUP, buf, h->label, "make threaded",
			"threaded subtrees exist only in the unified (v2) hierarchy; v1 places threads freely");
	if (fd < 0)
		return cg_diag_fail(d, -fd, CG_OP_TYPE, 2, buf, h->label, "open");
	r = cg_write_at(fd, "cgroup.type", "threaded");
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_TYPE, 2, buf, h->label,
				    "write cgroup.type \"threaded\"");
	return 0;
}

int cg_cgroup_type_parse(const char *text)
{
	static const char *const names[] = {
		[CG_TYPE_DOMAIN] = "domain",
		[CG_TYPE_DOMAIN_THREADED] = "domain threaded",
		[CG_TYPE_DOMAIN_INVALID] = "domain invalid",
		[CG_TYPE_THREADED] = "threaded",
	};
	size_t len = strcspn(text, "\n");

	if (text[len] == '\n' && text[len + 1])
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == len && !strncmp(text, names[i], len))
			return (int)i;
	return -EINVAL;
}

const char *cg_cgroup_type_name(enum cg_cgroup_type t)
{
	switch (t) {
	case CG_TYPE_DOMAIN:
		return "domain";
	case CG_TYPE_DOMAIN_THREADED:
		return "domain threaded";
	case CG_TYPE_DOMAIN_INVALID:
		return "domain invalid";
	case CG_TYPE_THREADED:
		return "threaded";
	}
	return "?";
}

int cg_cgroup_type(const struct cg_hier *h, const char *path)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *text = NULL;
	int r;

	if (h->version != 2)
		return -ENOTSUP;
	/* the root has no cgroup.type: it is the domain of everything */
	if (!*path)
		return CG_TYPE_DOMAIN;
	fd = cg_open_dir(h, path);
	if (fd < 0)
		return fd;
	r = cg_read_at(fd, "cgroup.type", &text);
	if (r < 0)
		return r;
	return cg_cgroup_type_parse(text);
}

bool cg_controller_is_threaded(const char *controller)
{
	static const char *const threaded[] = { "cpu", "cpuset", "perf_event", "pids" };

	for (size_t i = 0; i < ARRAY_SIZE(threaded); i++)
		if (!strcmp(controller, threaded[i]))
			return true;
	return false;
}

static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path)) : strdup("");
}

int cg_threaded_domain(const struct cg_hier *h, const char *path, char **ret)
{
	_cleanup_free_ char *p = strdup(path);

	if (!p)
		return -ENOMEM;
	for (;;) {
		int t = cg_cgroup_type(h, p);
		char *up;

		if (t < 0)
			return t;
		if (t != CG_TYPE_THREADED)
			break;
		up = parent_of(p);
		if (!up)
			return -ENOMEM;
		free(p);
		p = up;
	}
	*ret = TAKE_PTR(p);
	return 0;
}

int cg_thread_move_check(const struct cg_hier *h, const char *path, pid_t tgid, pid_t tid,
			 struct cg_diag *d)
{
	_cleanup_free_ char *cur = NULL, *dom_cur = NULL, *dom_dst = NULL;
	char where[PATH_MAX + 2];
	int type, r;

	if (h->version != 2)
		return 0;
	cg_path_display(path, where, sizeof(where));
	type = cg_cgroup_type(h, path);
	if (type < 0)
		return cg_diag_fail(d, -type, CG_OP_ATTACH_THREAD, 2, where, h->label,
				    "read cgroup.type");
	r = cg_pid_cgroup(h, tgid, tid, &cur);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_ATTACH_THREAD, 2, where, h->label,
				    "find thread %d", (int)tid);
	if (type == CG_TYPE_DOMAIN_INVALID)
		return cg_diag_say(
			d, EOPNOTSUPP, where, h->label, "move thread",
			"threaded rule: the cgroup is \"domain invalid\" (a domain child of a threaded subtree's root whose siblings are threaded): make it threaded with cgcreate2 -T");
	r = cg_threaded_domain(h, cur, &dom_cur);
	if (r == 0)
		r = cg_threaded_domain(h, path, &dom_dst);
	if (r < 0)
		return cg_diag_fail(d, -r, CG_OP_ATTACH_THREAD, 2, where, h->label,
				    "read cgroup.type");
	if (!strcmp(dom_cur, dom_dst))
		return 0;
	if (type != CG_TYPE_THREADED)
		return cg_diag_say(
			d, EOPNOTSUPP, where, h->label, "move thread",
			"threaded rule: the cgroup is not threaded (cgroup.type: %s) and thread %d of process %d lives in /%s: a single thread moves only within the threaded subtree of its process; make the target a threaded child of /%s with cgcreate2 -T",
			cg_cgroup_type_name((enum cg_cgroup_type)type), (int)tid, (int)tgid, cur,
			dom_cur);
	return cg_diag_say(
		d, EOPNOTSUPP, where, h->label, "move thread",
		"threaded rule: the cgroup belongs to the threaded subtree of /%s, but process %d lives in /%s: move the whole process there first (cgmigrate -g /%s %d)",
		dom_dst, (int)tgid, dom_cur, dom_dst, (int)tgid);
}

int cg_threaded_setup(const struct cg_hier *h, const char *path, char *const *ctrls,
		      struct cg_journal *j, struct cg_diag *d)
{
	char where[PATH_MAX + 2];
	int type, r;

	if (h->version != 2)
		return 0;
	cg_path_display(path, where, sizeof(where));
	for (char *const *c = ctrls; c && *c; c++)
		if (!cg_controller_is_threaded(*c))
			return cg_diag_say(
				d, EOPNOTSUPP, where, h->label, "enable",
				"threaded rule: %s is a domain controller; a threaded subtree can only enable cpu, cpuset, perf_event and pids",
				*c);
	type = cg_cgroup_type(h, path);
	if (type < 0)
		return cg_diag_fail(d, -type, CG_OP_TYPE, 2, where, h->label, "read cgroup.type");
	if (type != CG_TYPE_THREADED) {
		r = cg_make_threaded(h, path, d);
		if (r < 0)
			return r;
	}
	/*
	 * Threaded controllers are enabled as anywhere else, top-down through the
	 * subtree_control of every ancestor, the threaded ones included.
	 */
	if (ctrls && *ctrls)
		return cg_enable(h, path, ctrls, j, d);
	return 0;
}
