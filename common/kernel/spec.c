// SPDX-License-Identifier: MIT
/* "CONTROLLERS:PATH" and bare "PATH" specs -> one target per hierarchy, confined to its mount. */
#include "spec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/parse.h"
#include "base/strv.h"

const char *cg_target_name(const struct cg_target *t, char *buf, size_t size)
{
	return cg_path_display(t->path, buf, size);
}

void cg_targets_clear(struct cg_targets *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->t[i].path);
		cg_strv_free(t->t[i].controllers);
	}
	free(t->t);
	cg_pathmap_clear(&t->index);
	*t = (struct cg_targets){ 0 };
}

/* v1 names people still type on v2, and what v2 calls the same thing */
static const char *v2_hint(const char *c)
{
	static const char *const hints[][2] = {
		{ "cpuacct",
		  "CPU accounting is cpu.stat in every v2 cgroup; name cpu or no controller" },
		{ "blkio", "the v2 controller is called io" },
		{ "freezer", "v2 has cgroup.freeze in every cgroup; name no controller" },
		{ "devices", "v2 controls devices with BPF programs, not a controller" },
		{ "net_cls", "v2 has no net_cls; use the cgroup path in BPF or nftables" },
		{ "net_prio", "v2 has no net_prio" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(hints); i++)
		if (!strcmp(c, hints[i][0]))
			return hints[i][1];
	return NULL;
}

static int not_mounted(const struct cg_layout *l, const char *ctrl, const char *spec,
		       struct cg_diag *d)
{
	char where[400] = "";
	size_t off = 0;
	const char *hint = l->unified ? v2_hint(ctrl) : NULL;

	for (size_t i = 0; i < l->n && off < sizeof(where) - 1; i++) {
		const struct cg_hier *h = &l->hier[i];

		if (h->version == 1)
			off += (size_t)snprintf(where + off, sizeof(where) - off, "%s%s at %s",
						off ? "; " : "", h->label, h->mountpoint);
	}
	if (l->unified && off < sizeof(where) - 1) {
		_cleanup_free_ char *offers = cg_strv_join(cg_hier_controllers(l->unified), " ");

		snprintf(where + off, sizeof(where) - off, "%sunified at %s offers: %s",
			 off ? "; " : "", l->unified->mountpoint,
			 offers && *offers ? offers : "no controllers");
	}
	if (hint)
		return cg_diag_say(d, ENOENT, spec, "", "",
				   "controller '%s' is not mounted (%s); mounted here: %s", ctrl,
				   hint, *where ? where : "nothing");
	return cg_diag_say(d, ENOENT, spec, "", "",
			   "controller '%s' is not mounted on any hierarchy; mounted here: %s",
			   ctrl, *where ? where : "nothing");
}

/*
 * "/sys/fs/cgroup/pids/x": the path in the file system where the path inside the hierarchy
 * ("/x") was meant. Taken as it is, it would name a cgroup "sys" at the root: refused, saying
 * what was meant. The longest mount point that prefixes path, else the usual parent of the
 * mounts (/sys/fs/cgroup is a tmpfs in the hybrid and legacy layouts, no hierarchy).
 */
static int fs_path(const struct cg_layout *l, const char *path, const char *spec, struct cg_diag *d)
{
	static const char parent[] = "sys/fs/cgroup";
	const char *m = NULL, *inside;
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++) {
		const char *mp = l->hier[i].mountpoint + strspn(l->hier[i].mountpoint, "/");
		size_t k = strlen(mp);

		if (k > n && !strncmp(path, mp, k) && (path[k] == '/' || !path[k])) {
			m = mp;
			n = k;
		}
	}
	if (!m && !strncmp(path, parent, sizeof(parent) - 1) &&
	    (path[sizeof(parent) - 1] == '/' || !path[sizeof(parent) - 1])) {
		m = parent;
		n = sizeof(parent) - 1;
	}
	if (!m)
		return 0;
	inside = path[n] ? path + n + 1 : "";
	return cg_diag_say(
		d, EINVAL, spec, "", "",
		"/%.*s is where cgroups are mounted, not a cgroup: give the path inside the hierarchy: /%s",
		(int)n, m, inside);
}

/*
 * Thousands of -g in one call are a normal use (a batch of cgroups made at once): the lookup
 * is a hash, not a scan, so that a call stays linear in its cgroups.
 */
static int add_target(struct cg_targets *acc, struct cg_hier *h, const char *path, const char *ctrl)
{
	/* 1 + its position in acc->t: a value is never NULL */
	uintptr_t at = (uintptr_t)cg_pathmap_get(&acc->index, h, path);
	struct cg_target *t, *nt;

	if (at) {
		t = &acc->t[at - 1];
	} else {
		nt = realloc(acc->t, (acc->n + 1) * sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		acc->t = nt;
		t = &acc->t[acc->n];
		*t = (struct cg_target){ .hier = h };
		t->path = strdup(path);
		t->controllers = calloc(1, sizeof(char *));
		if (!t->path || !t->controllers ||
		    cg_pathmap_put(&acc->index, h, t->path, (void *)(uintptr_t)(acc->n + 1)) < 0) {
			free(t->path);
			free(t->controllers);
			return -ENOMEM;
		}
		acc->n++;
	}
	if (ctrl && !cg_strv_contains(t->controllers, ctrl))
		return cg_strv_push(&t->controllers, ctrl);
	return 0;
}

/*
 * Is the cgroup at path in h? 1, 0, or -errno when that cannot be told (a mount gone, EACCES).
 * One stat by name, not an open beneath the root: a hybrid host has a dozen hierarchies and
 * cgexec2 opens only those it uses; the operation that follows opens them confined.
 */
static int twin_exists(const struct cg_hier *h, const char *path)
{
	_cleanup_free_ char *full = NULL;
	struct stat st;

	if (asprintf(&full, "%s/%s", cg_hier_dir(h), path) < 0)
		return -ENOMEM;
	if (fstatat(AT_FDCWD, full, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return S_ISDIR(st.st_mode);
	if (errno == ENOENT || errno == ENOTDIR)
		return 0;
	/* a path past PATH_MAX (a deep delegated tree): the open beneath the root walks it */
	if (errno == ENAMETOOLONG) {
		int fd = cg_hier_open(h, path, O_PATH | O_DIRECTORY);

		if (fd >= 0)
			close(fd);
		return fd >= 0 ? 1 : fd == -ENOENT || fd == -ENOTDIR ? 0 : fd;
	}
	return -errno;
}

/*
 * A bare PATH on a hybrid layout: the cgroup is one cgroup with a member in each hierarchy
 * that has it, the unified one and the v1 twins that cgcreate2 -r (or anyone) made, because the
 * limits live in the twins and a process in the unified member alone escapes them all. With
 * CG_SPEC_NEAREST, a hierarchy that lacks the cgroup but has one of its ancestors (other than
 * the root) gets the nearest such ancestor, as systemd places a unit's process where its
 * cgroup is not realised: the ancestor's limits bind the process, none set above it is
 * escaped. A hierarchy whose answer is not "absent" (a permission, a mount gone) is kept, so
 * that the operation reports the kernel's reason. No member anywhere: the unified one alone,
 * whose use then says "No such cgroup".
 */
static int add_twins(struct cg_targets *tmp, const struct cg_layout *l, const char *path,
		     unsigned flags)
{
	_cleanup_free_ int *have = calloc(l->n, sizeof(*have));
	size_t u = (size_t)(l->unified - l->hier);
	bool any = false;
	int r;

	if (!have)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		have[i] = twin_exists(&l->hier[i], path) != 0;
		any |= have[i];
	}
	if (!any)
		return add_target(tmp, l->unified, path, NULL);
	/* the unified member first, then the twins in mount order */
	for (size_t k = 0; k < l->n; k++) {
		size_t i = k == 0 ? u : k <= u ? k - 1 : k;
		_cleanup_free_ char *up = NULL;
		char *slash = NULL;

		if (have[i]) {
			r = add_target(tmp, &l->hier[i], path, NULL);
			if (r < 0)
				return r;
			continue;
		}
		if (!(flags & CG_SPEC_NEAREST))
			continue;
		up = strdup(path);
		if (!up)
			return -ENOMEM;
		while ((slash = strrchr(up, '/'))) {
			*slash = '\0';
			if (twin_exists(&l->hier[i], up) == 1)
				break;
		}
		if (slash) {
			r = add_target(tmp, &l->hier[i], up, NULL);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* A "CONTROLLERS:" prefix is made of controller-name characters only; else it is a path. */
static bool looks_like_controllers(const char *s, size_t n)
{
	/* an empty prefix (":/a") is a spec missing its controllers, not a cgroup named ":" */
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,=*.-",
			    s[i]))
			return false;
	return true;
}

const char *cg_spec_path(const char *spec)
{
	const char *colon = strchr(spec, ':');

	if (colon && looks_like_controllers(spec, (size_t)(colon - spec)))
		return colon + 1;
	return spec;
}

bool cg_path_beyond_root(const char *path)
{
	path += strspn(path, "/");
	return path[0] == '.' && path[1] == '.' && (path[2] == '/' || !path[2]);
}

int cg_spec_check(const char *spec)
{
	_cleanup_free_ char *path = NULL;
	const char *p = cg_spec_path(spec);

	/* cg_spec_parse says why, in the one line of a refused spec */
	if (cg_path_beyond_root(p))
		return 0;
	return cg_path_normalize(p, &path);
}

int cg_spec_parse(const struct cg_layout *l, const char *spec, struct cg_targets *acc,
		  struct cg_diag *d)
{
	return cg_spec_parse_flags(l, spec, 0, acc, d);
}

/*
 * src's targets added to acc, merged as cg_spec_parse merges them. Into an empty acc src is
 * moved, not copied (the same targets in the same order): cgexec2's one spec was copied twice,
 * a strdup, a calloc and a map entry each time (issue 46).
 */
static int merge_targets(struct cg_targets *acc, struct cg_targets *src)
{
	int r = 0;

	if (!acc->n) {
		cg_targets_clear(acc);
		*acc = *src;
		*src = (struct cg_targets){ 0 };
		return 0;
	}
	for (size_t i = 0; r == 0 && i < src->n; i++) {
		r = add_target(acc, src->t[i].hier, src->t[i].path, NULL);
		for (char **c = src->t[i].controllers; r == 0 && *c; c++)
			r = add_target(acc, src->t[i].hier, src->t[i].path, *c);
	}
	return r;
}

int cg_spec_parse_flags(const struct cg_layout *l, const char *spec, unsigned flags,
			struct cg_targets *acc, struct cg_diag *d)
{
	struct cg_targets tmp = { 0 };
	_cleanup_free_ char *path = NULL;
	_cleanup_strv_free_ char **ctrls = NULL;
	const char *rawpath = cg_spec_path(spec);
	int r;

	if (rawpath != spec) {
		_cleanup_free_ char *list = strndup(spec, (size_t)(rawpath - 1 - spec));

		if (!list)
			return -ENOMEM;
		ctrls = cg_strv_split(list, ",");
		if (!ctrls)
			return -ENOMEM;
	}
	/* how /proc/PID/cgroup shows a cgroup beyond this process's cgroup namespace's root */
	if (cg_path_beyond_root(rawpath))
		return cg_diag_say(d, EREMOTE, rawpath, "", "path", "%s", CG_NS_RULE);
	r = cg_path_normalize(rawpath, &path);
	if (r == -ENAMETOOLONG)
		return cg_diag_say(d, EINVAL, rawpath, "", "path", "name too long");
	if (r < 0)
		return cg_diag_say(
			d, -r, rawpath, "", "path",
			"'..' and control characters are not allowed in a cgroup path (paths are relative to the hierarchy root)");
	if (l->n == 0)
		return cg_diag_say(d, ENOENT, spec, "", "spec",
				   "no cgroup filesystem is mounted (see cgcreate2 --mount)");
	r = fs_path(l, path, spec, d);
	if (r < 0)
		return r;

	if (!ctrls) {
		if ((flags & CG_SPEC_TWINS) && cg_layout_kind(l) == CG_LAYOUT_HYBRID) {
			r = add_twins(&tmp, l, path, flags);
		} else if (l->unified) {
			r = add_target(&tmp, l->unified, path, NULL);
		} else {
			for (size_t i = 0; r == 0 && i < l->n; i++)
				r = add_target(&tmp, &l->hier[i], path, NULL);
		}
		if (r < 0)
			goto fail;
	} else if (!ctrls[0] && rawpath != spec + 1) {
		r = cg_diag_say(d, EINVAL, spec, "", "spec", "no controller named before ':'");
		goto fail;
	} else if (!ctrls[0]) {
		/* libcgroup 3: an empty list names the cgroup v2 hierarchy, no controller */
		if (!l->unified) {
			r = cg_diag_say(
				d, ENOENT, spec, "", "spec",
				"':PATH' names the cgroup v2 hierarchy, and none is mounted");
			goto fail;
		}
		r = add_target(&tmp, l->unified, path, NULL);
		if (r < 0)
			goto fail;
	} else {
		for (char **c = ctrls; *c; c++) {
			struct cg_hier *h;

			if (!strcmp(*c, "*")) {
				for (size_t i = 0; r == 0 && i < l->n; i++)
					r = add_target(&tmp, &l->hier[i], path, NULL);
				if (r < 0)
					goto fail;
				continue;
			}
			h = cg_layout_find(l, *c);
			if (!h) {
				r = not_mounted(l, *c, spec, d);
				goto fail;
			}
			/* a named hierarchy is not a controller to enable */
			r = add_target(&tmp, h, path, strncmp(*c, "name=", 5) ? *c : NULL);
			if (r < 0)
				goto fail;
		}
	}
	/*
	 * Into acc only once every piece resolved, so that a bad spec leaves it untouched (only
	 * running out of memory half-way can leave acc with part of this spec).
	 */
	r = merge_targets(acc, &tmp);
fail:
	cg_targets_clear(&tmp);
	return r;
}

int cg_specs_parse(const struct cg_layout *l, char *const *specs, unsigned flags,
		   struct cg_targets *acc, struct cg_diag *d)
{
	struct cg_targets tmp = { 0 };
	int r = 0;

	for (char *const *s = specs; r == 0 && s && *s; s++)
		r = cg_spec_parse_flags(l, *s, flags, &tmp, d);
	if (r == 0)
		r = merge_targets(acc, &tmp);
	cg_targets_clear(&tmp);
	return r;
}
