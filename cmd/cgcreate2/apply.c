// SPDX-License-Identifier: MIT
/*
 * cgcreate2 --apply FILE (cmd/cgcreate2/apply.h): libcgroup's cgconfigparser, idempotent. A
 * group is made as cgcreate2 -p makes one (an existing cgroup is no error, a value written
 * again is the same value), so a second run changes nothing; a failing group is undone by the
 * setup's plan and ends the run, its file and line named.
 */
#include "apply.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cgconfig.h"
#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "kernel/file.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "cgroups/setup.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "tool.h"

/* a configuration larger than this is no cgconfig.conf */
#define APPLY_MAX_SIZE (16u << 20)

static int read_conf(const char *file, char **ret)
{
	_cleanup_close_ int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r;

	if (fd < 0)
		return -errno;
	r = cg_read_fd(fd, &text, &len);
	if (r < 0)
		return r;
	if (len > APPLY_MAX_SIZE || strlen(text) != len)
		return -EINVAL;
	*ret = TAKE_PTR(text);
	return 0;
}

/* a group's owners and modes (its own perm block, else the default's) as cgcreate2 -a -t -d -f -s */
static int perm_of(const struct cg_conf_perm *p, struct cg_perm *ret, const char **bad)
{
	struct cg_perm q = { (uid_t)-1, (gid_t)-1, (uid_t)-1, (gid_t)-1, 0,
			     0,		0,	   false,     false,	 false };
	struct {
		const char *uid, *gid;
		uid_t *u;
		gid_t *g;
	} owners[] = { { p->a_uid, p->a_gid, &q.a_uid, &q.a_gid },
		       { p->t_uid, p->t_gid, &q.t_uid, &q.t_gid } };
	struct {
		const char *s;
		mode_t *m;
		bool *has;
	} modes[] = { { p->a_dperm, &q.dmode, &q.has_dmode },
		      { p->a_fperm, &q.fmode, &q.has_fmode },
		      { p->t_fperm, &q.tmode, &q.has_tmode } };

	for (size_t i = 0; i < ARRAY_SIZE(owners); i++) {
		_cleanup_free_ char *s = NULL;
		uid_t u;
		gid_t g;

		if (!owners[i].uid && !owners[i].gid)
			continue;
		if (asprintf(&s, "%s:%s", owners[i].uid ? owners[i].uid : "",
			     owners[i].gid ? owners[i].gid : "") < 0)
			return -ENOMEM;
		if (cg_parse_owner(s, &u, &g) < 0) {
			*bad = owners[i].uid ? owners[i].uid : owners[i].gid;
			return -EINVAL;
		}
		*owners[i].u = u;
		*owners[i].g = g;
	}
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if (!modes[i].s)
			continue;
		/* cgconfig.conf writes modes as 775 as well as 0775 */
		if (cg_parse_mode(modes[i].s, modes[i].m) < 0) {
			*bad = modes[i].s;
			return -EINVAL;
		}
		*modes[i].has = true;
	}
	*ret = q;
	return 0;
}

/* The -g specs and -r list of a group: "CTRL:/NAME" per controller block, its settings */
static int group_request(const struct cg_conf_group *g, const char *path, char ***specs,
			 struct cg_assignments *set, const struct cg_conf_setting **bad)
{
	for (size_t i = 0; i < g->n_ctrl; i++) {
		_cleanup_free_ char *spec = NULL;

		if (asprintf(&spec, "%s:/%s", g->ctrl[i].name, path) < 0 ||
		    cg_strv_push(specs, spec) < 0)
			return -ENOMEM;
		for (size_t j = 0; j < g->ctrl[i].n; j++) {
			_cleanup_free_ char *kv = NULL;
			int r;

			if (asprintf(&kv, "%s=%s", g->ctrl[i].set[j].file,
				     g->ctrl[i].set[j].value) < 0)
				return -ENOMEM;
			r = cg_assignments_add(set, kv);
			if (r < 0) {
				*bad = &g->ctrl[i].set[j];
				return r;
			}
		}
	}
	return 0;
}

static void print_plan(const struct cg_conf_group *g, char *const *specs,
		       const struct cg_assignments *set, const struct cg_perm *p, bool has_perm)
{
	for (size_t i = 0; specs[i]; i++)
		printf("create %s (kept if it exists)\n", TOOL_PATH(specs[i]));
	for (size_t i = 0; i < set->n; i++)
		printf("set %s=%s\n", TOOL_PATH(set->v[i].file), TOOL_PATH(set->v[i].value));
	if (has_perm)
		printf("own admin %d:%d dperm %o fperm %o, tasks %d:%d tperm %o\n", (int)p->a_uid,
		       (int)p->a_gid, p->has_dmode ? p->dmode : 0, p->has_fmode ? p->fmode : 0,
		       (int)p->t_uid, (int)p->t_gid, p->has_tmode ? p->tmode : 0);
}

enum apply_pass {
	APPLY_CHECK, /* parsed and its cgroups' owners checked, nothing touched */
	APPLY_PLAN, /* -n: the plan printed */
	APPLY_MAKE,
};

/* One group checked, planned or made: 0, 1 (refused), or -errno, said as FILE:LINE: ... */
static int apply_group(const char *file, const struct cg_conf *c, const struct cg_conf_group *g,
		       const struct cg_layout *l, const struct apply_opts *o, enum apply_pass pass)
{
	const struct cg_conf_perm *cp = g->perm.given ? &g->perm : &c->dflt;
	_cleanup_strv_free_ char **specs = NULL;
	_cleanup_free_ char *path = NULL;
	struct cg_assignments set = { 0 };
	struct cg_targets ts = { 0 };
	struct cg_journal j = { 0 };
	struct cg_diag d = { 0 };
	struct cg_perm perm;
	const struct cg_conf_setting *bad_set = NULL;
	const char *bad = NULL;
	char msg[1024];
	int r;

	if (!g->n_ctrl) {
		tool_say("%s:%u: group %s names no controller (a block per controller, as cpu { })",
			 file, g->line, g->name);
		return -EINVAL;
	}
	if (cg_path_normalize(strcmp(g->name, ".") ? g->name : "", &path) < 0) {
		tool_say("%s:%u: group '%s': not a cgroup path", file, g->line, g->name);
		return -EINVAL;
	}
	r = perm_of(cp, &perm, &bad);
	if (r == -EINVAL)
		tool_say("%s:%u: group %s: perm: '%s' is no user, group or octal mode", file,
			 g->line, g->name, bad);
	if (r == 0 && (r = group_request(g, path, &specs, &set, &bad_set)) == -EINVAL)
		tool_say("%s:%u: group %s: '%s' is no interface file's name (%s)", file,
			 bad_set->line, g->name, bad_set->file, CG_SETTING_NAME_RULE);
	if (r == 0)
		r = cg_specs_parse(l, specs, 0, &ts, &d);
	if (r == 0 && pass == APPLY_CHECK) {
		char where[PATH_MAX + 32];

		snprintf(where, sizeof(where), "%s:%u: group %s", file, g->line, g->name);
		if (tool_owner_check_at(&ts, o->force, o->verbose, o->hint, NULL, where))
			r = 1;
	} else if (r == 0 && pass == APPLY_PLAN) {
		printf("group %s (%s:%u):\n", TOOL_PATH(g->name), TOOL_PATH(file), g->line);
		print_plan(g, specs, &set, &perm, cp->given);
	} else if (r == 0) {
		const struct cg_setup_opts so = {
			.parents = true,
			.lock = true,
			.set = &set,
			.perm = cp->given ? &perm : NULL,
		};

		r = cg_setup_route_all(l, &ts, &set, false, &d);
		if (r == 0)
			r = cg_setup_apply(l, &ts, &so, &j, &d);
	}
	if (r < 0 && (d.what[0] || d.why[0]))
		tool_say("%s:%u: group %s: %s", file, g->line, g->name,
			 cg_diag_format(&d, msg, sizeof(msg)));
	cg_journal_clear(&j);
	cg_targets_clear(&ts);
	cg_assignments_clear(&set);
	return r;
}

int apply_run(const char *file, const struct apply_opts *o)
{
	_cleanup_free_ char *text = NULL;
	struct cg_layout *l = NULL;
	struct cg_conf c = { 0 };
	unsigned line = 0;
	char err[512];
	int r = read_conf(file, &text);

	if (r < 0) {
		tool_say("%s: %s", file,
			 r == -EINVAL ? "not a text file, or over 16 MiB" : strerror(-r));
		return TOOL_EXIT_FAILED;
	}
	r = cg_conf_parse(text, &c, &line, err, sizeof(err));
	if (r < 0) {
		tool_say("%s:%u: %s", file, line, err);
		return TOOL_EXIT_FAILED;
	}
	if (c.mount_line)
		tool_say(
			"%s:%u: the mount block is ignored: cgkit takes the hierarchies mounted (cgcreate2 --mount mounts them at /sys/fs/cgroup)",
			file, c.mount_line);
	if (tool_layout_load(&l) < 0) {
		cg_conf_free(&c);
		return TOOL_EXIT_FAILED;
	}
	r = 0;
	for (size_t i = 0; r == 0 && i < c.n; i++)
		r = apply_group(file, &c, &c.g[i], l, o, APPLY_CHECK);
	for (size_t i = 0; r == 0 && i < c.n; i++)
		r = apply_group(file, &c, &c.g[i], l, o, o->dry_run ? APPLY_PLAN : APPLY_MAKE);
	cg_layout_free(l);
	cg_conf_free(&c);
	return r > 0 ? TOOL_EXIT_USAGE : r < 0 ? TOOL_EXIT_FAILED : TOOL_EXIT_OK;
}
