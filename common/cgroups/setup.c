// SPDX-License-Identifier: MIT
/* One plan for making cgroups: route -r, create, enable, threaded, set, own; journaled. */
#include "setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "vocab/cpu.h"
#include "vocab/vocab.h"
#include "threaded.h"
#include "kernel/file.h"
#include "base/strv.h"

static void tell_written(const struct cg_setup_opts *o, enum cg_setup_step what,
			 const struct cg_hier *h, const char *path, const char *arg,
			 const char *value, const char *written)
{
	const struct cg_setup_event e = { .what = what,
					  .hier = h,
					  .path = path,
					  .arg = arg,
					  .value = value,
					  .written = written };

	if (o->on_step)
		o->on_step(&e, o->ctx);
}

static void tell(const struct cg_setup_opts *o, enum cg_setup_step what, const struct cg_hier *h,
		 const char *path, const char *arg, const char *value)
{
	tell_written(o, what, h, path, arg, value, "");
}

static bool has_unified(const struct cg_targets *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].hier->version == 2)
			return true;
	return false;
}

int cg_setup_route(const struct cg_layout *l, struct cg_targets *ts, const char *file, bool grow,
		   struct cg_diag *d)
{
	_cleanup_free_ char *ctrl = NULL, *spec = NULL;
	const char *why;
	struct cg_hier *h;

	/* ctrl below becomes a spec: a name of other characters could make it a path or a list */
	if (!cg_setting_name_valid(file, strlen(file)))
		return cg_diag_say(d, EINVAL, file, "", "-r", "not an interface file's name (%s)",
				   CG_SETTING_NAME_RULE);
	why = cg_setting_refused(file);
	if (why)
		return cg_diag_say(d, EINVAL, file, "", "-r", "%s is not a setting: %s", file, why);
	ctrl = cg_file_controller(file);
	if (!ctrl)
		return 0; /* a core file: cg_setup_applies says where */
	h = cg_layout_find(l, ctrl);
	if (!h || (h->version == 1 && strcmp(cg_vocab_v1_controller(ctrl), ctrl)))
		/* io.* lives in v1's blkio hierarchy where no unified one offers io */
		h = cg_layout_find(l, cg_vocab_v1_controller(ctrl)) ?: h;
	if (!h || (grow && !ts->n)) {
		/* the spec parser names where the controller is, or says it is not mounted */
		if (asprintf(&spec, "%s:/", h ? h->label : ctrl) < 0)
			return -ENOMEM;
		return cg_spec_parse(l, spec, ts, d);
	}
	for (size_t i = 0; i < ts->n; i++) {
		struct cg_target *t = &ts->t[i];

		if (t->hier != h)
			continue;
		if (h->version == 2 && !cg_strv_contains(t->controllers, ctrl))
			return cg_strv_push(&t->controllers, ctrl);
		return 0;
	}
	if (grow) {
		if (asprintf(&spec, "%s:/", h->label) < 0)
			return -ENOMEM;
		return cg_spec_parse(l, spec, ts, d);
	}
	/*
	 * One vocabulary: on a hybrid layout "-r memory.max=1G /a" means /a's memory limit, and
	 * memory is in its v1 hierarchy: the unified cgroups of the call get their twin there.
	 */
	if (h->version == 1 && has_unified(ts)) {
		size_t n = ts->n;

		for (size_t i = 0; i < n; i++) {
			_cleanup_free_ char *twin = NULL;
			int r;

			if (ts->t[i].hier->version != 2)
				continue;
			if (asprintf(&twin, "%s:/%s", h->label, ts->t[i].path) < 0)
				return -ENOMEM;
			r = cg_spec_parse(l, twin, ts, d);
			if (r < 0)
				return r;
		}
		return 0;
	}
	return cg_diag_say(
		d, ENOENT, file, "", "-r",
		"no cgroup of this call is in the hierarchy of %s (%s at %s): add -g %s:PATH", ctrl,
		h->label, h->mountpoint, h->label);
}

bool cg_setup_applies(const struct cg_targets *ts, size_t i, const char *file)
{
	_cleanup_free_ char *ctrl = cg_file_controller(file);
	const struct cg_hier *h = ts->t[i].hier;

	if (ctrl)
		return cg_hier_has(h, ctrl) ||
		       (h->version == 1 && cg_hier_has(h, cg_vocab_v1_controller(ctrl)));
	/* a core file lives in the unified hierarchy when the call has it, else in each v1 one */
	return has_unified(ts) ? h->version == 2 : true;
}

/* One lock per hierarchy of the call, in layout order: two calls never wait on each other. */
int cg_setup_route_all(const struct cg_layout *l, struct cg_targets *ts,
		       const struct cg_assignments *set, bool grow, struct cg_diag *d)
{
	for (size_t k = 0; set && k < set->n; k++) {
		int r = cg_setup_route(l, ts, set->v[k].file, grow, d);

		if (r < 0)
			return r;
	}
	return 0;
}

static int lock_all(const struct cg_layout *l, const struct cg_targets *ts, int *locks, size_t *n,
		    struct cg_diag *d)
{
	for (size_t h = 0; h < l->n; h++)
		for (size_t i = 0; i < ts->n; i++) {
			int r;

			if (ts->t[i].hier != &l->hier[h])
				continue;
			r = cg_hier_lock(ts->t[i].hier);
			if (r < 0)
				return cg_diag_fail(d, -r, CG_OP_OPEN, ts->t[i].hier->version, "/",
						    ts->t[i].hier->label, "lock the hierarchy");
			locks[(*n)++] = r;
			break;
		}
	return 0;
}

static int make(const struct cg_layout *l, struct cg_targets *ts, const struct cg_setup_opts *o,
		struct cg_journal *j, struct cg_diag *d)
{
	_cleanup_(cg_parent_cache_clear) struct cg_parent_cache pc = CG_PARENT_CACHE_INIT;
	const struct cg_assignments *set = o->set;
	int r;

	if (o->threaded && !has_unified(ts))
		return cg_diag_say(
			d, ENOTSUP, "", "", "--threaded",
			"needs a cgroup in the unified (v2) hierarchy; this system is %s",
			cg_layout_kind_name(cg_layout_kind(l)));
	if (o->enable && !has_unified(ts))
		return cg_diag_say(
			d, ENOTSUP, "", "", "--enable",
			"needs a cgroup in the unified (v2) hierarchy; this system is %s",
			cg_layout_kind_name(cg_layout_kind(l)));
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].hier->version == 2)
			for (char *const *c = o->enable; c && *c; c++)
				if (!cg_strv_contains(ts->t[i].controllers, *c) &&
				    (r = cg_strv_push(&ts->t[i].controllers, *c)) < 0)
					return r;
	/* values are checked before anything is made; their files, once it is */
	for (size_t k = 0; set && k < set->n; k++)
		for (size_t i = 0; i < ts->n; i++)
			if (cg_setup_applies(ts, i, set->v[k].file) &&
			    (r = cg_set_check(ts->t[i].hier, ts->t[i].path, set->v[k].file,
					      set->v[k].value, false, d)) < 0)
				return r;

	for (size_t i = 0; i < ts->n; i++) {
		struct cg_target *t = &ts->t[i];
		size_t before = j->n;

		r = cg_create(t->hier, t->path, o->parents, &pc, j, d);
		if (r < 0)
			return r;
		for (size_t u = before; u < j->n; u++)
			tell(o, CG_SETUP_CREATED, t->hier, j->u[u].path, NULL, NULL);
	}
	for (size_t i = 0; i < ts->n; i++) {
		struct cg_target *t = &ts->t[i];
		size_t before = j->n;

		if (o->threaded && t->hier->version == 2)
			r = cg_threaded_setup(t->hier, t->path, t->controllers, j, d);
		else
			r = cg_enable(t->hier, t->path, t->controllers, j, d);
		if (r < 0)
			return r;
		for (size_t u = before; u < j->n; u++)
			tell(o, CG_SETUP_ENABLED, t->hier, j->u[u].path, j->u[u].controller, NULL);
		if (o->threaded && t->hier->version == 2)
			tell(o, CG_SETUP_THREADED, t->hier, t->path, NULL, NULL);
	}
	/* every file is checked before any is written: a bad one leaves the others as they were */
	for (size_t k = 0; set && k < set->n; k++)
		for (size_t i = 0; i < ts->n; i++)
			if (cg_setup_applies(ts, i, set->v[k].file) &&
			    (r = cg_set_check(ts->t[i].hier, ts->t[i].path, set->v[k].file,
					      set->v[k].value, true, d)) < 0)
				return r;
	for (size_t k = 0; set && k < set->n; k++)
		for (size_t i = 0; i < ts->n; i++) {
			struct cg_target *t = &ts->t[i];
			char written[512];

			if (!cg_setup_applies(ts, i, set->v[k].file))
				continue;
			r = cg_set_undoable(t->hier, t->path, set->v[k].file, set->v[k].value, j,
					    written, sizeof(written), d);
			if (r < 0)
				return r;
			tell_written(o, CG_SETUP_SET, t->hier, t->path, set->v[k].file,
				     set->v[k].value, written);
		}
	for (size_t i = 0; i < ts->n; i++) {
		struct cg_target *t = &ts->t[i];

		if (o->perm) {
			r = cg_apply_perm(t->hier, t->path, o->perm, d);
			if (r < 0)
				return r;
			tell(o, CG_SETUP_OWNED, t->hier, t->path, NULL, NULL);
		}
		if (o->delegate) {
			r = cg_delegate(t->hier, t->path, o->d_uid, o->d_gid, d);
			if (r < 0)
				return r;
			tell(o, CG_SETUP_DELEGATED, t->hier, t->path, NULL, NULL);
		}
	}
	return 0;
}

int cg_setup_apply(const struct cg_layout *l, struct cg_targets *ts, const struct cg_setup_opts *o,
		   struct cg_journal *j, struct cg_diag *d)
{
	_cleanup_free_ int *locks = calloc(ts->n + 1, sizeof(*locks));
	size_t nlocks = 0;
	int r;

	if (!locks)
		return -ENOMEM;
	r = o->lock ? lock_all(l, ts, locks, &nlocks, d) : 0;
	if (r == 0)
		r = make(l, ts, o, j, d);
	/* undone while still locked: a concurrent call must not see what is about to go */
	if (r < 0 && cg_journal_rollback(j) < 0) {
		static const char more[] = "; not every change of this call could be undone";
		size_t n = strnlen(d->why, sizeof(d->why) - 1);

		/* the cause stays first; the note is cut, never the other way round */
		snprintf(d->why + n, sizeof(d->why) - n, "%s", more);
	}
	while (nlocks)
		close(locks[--nlocks]);
	return r;
}
