// SPDX-License-Identifier: MIT
/*
 * cgtop2 --get (cmd/cgtop2/get.h): cgget's output. Per CGROUP "PATH:", then "FILE: VALUE" a
 * line, a value of several lines with its later lines indented by a tab, then a blank line;
 * --bare drops the PATH: line and the blank one, --values the "FILE: ". A value translated
 * from the other vocabulary says so, with the kernel's own text beside it.
 */
#include "get.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "tool.h"
#include "cgroups/values.h"

/* text, its lines escaped one by one, the later ones after "\n\t" as cgget indents them */
static void put_value(FILE *f, const char *text)
{
	char buf[TOOL_PATH_SIZE];

	for (const char *l = text;;) {
		size_t n = strcspn(l, "\n");

		fputs(cg_quote_n(l, n, buf, sizeof(buf)), f);
		if (!l[n] || !l[n + 1])
			break;
		fputs("\n\t", f);
		l += n + 1;
	}
}

static void put_line(FILE *f, const struct kit_args *k, const char *file, const struct cg_value *v)
{
	if (!k->values)
		fprintf(f, "%s: ", TOOL_PATH(file));
	put_value(f, v->text);
	if (v->from) {
		fputs(" (translated from ", f);
		put_value(f, v->from);
		fputc(')', f);
	}
	fputc('\n', f);
}

/* The hierarchies of a spec's targets, all on one path (one spec, one path). */
struct cgroup {
	struct cg_hier **hs;
	size_t n;
	const char *path;
};

/* Every readable file of the cgroup, hierarchy by hierarchy (cgget -a, -g CTRL:PATH alone) */
static int get_all(FILE *f, const struct kit_args *k, const struct cgroup *c,
		   const struct cg_targets *ts, struct cg_diag *d)
{
	for (size_t i = 0; i < c->n; i++) {
		_cleanup_strv_free_ char **files = NULL;
		char *const *ctrls = ts->t[i].controllers && ts->t[i].controllers[0]
					     ? ts->t[i].controllers
					     : cg_hier_controllers(c->hs[i]);
		int r;

		if (!ctrls || !ctrls[0])
			continue;
		r = cg_value_files(c->hs[i], c->path, ctrls, &files);
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return cg_diag_fail(d, -r, CG_OP_READ, c->hs[i]->version, c->path,
					    c->hs[i]->label, "list the files");
		for (size_t j = 0; files[j]; j++) {
			struct cg_value v = { 0 };

			r = cg_value_get(&c->hs[i], 1, c->path, files[j], &v, d);
			/* a file that cannot be read (write-only by its mode for root too) */
			if (r == -EINVAL || r == -EACCES || r == -EPERM) {
				*d = (struct cg_diag){ 0 };
				continue;
			}
			if (r < 0)
				return r;
			put_line(f, k, files[j], &v);
			cg_value_clear(&v);
		}
	}
	return 0;
}

/* One CGROUP's lines into f: 0, or -errno with d filled */
static int get_one(FILE *f, const struct kit_args *k, const char *spec, const struct cg_targets *ts,
		   struct cg_diag *d)
{
	struct cgroup c = { .path = ts->t[0].path };
	_cleanup_free_ struct cg_hier **hs = calloc(ts->n, sizeof(*hs));
	int r = 0;

	if (!hs)
		return -ENOMEM;
	for (size_t i = 0; i < ts->n; i++)
		hs[i] = ts->t[i].hier;
	c.hs = hs;
	c.n = ts->n;
	if (!k->bare)
		fprintf(f, "%s:\n", TOOL_PATH(cg_spec_path(spec)));
	if (!k->files)
		r = get_all(f, k, &c, ts, d);
	for (size_t i = 0; r == 0 && k->files && k->files[i]; i++) {
		struct cg_value v = { 0 };

		r = cg_value_get(c.hs, c.n, c.path, k->files[i], &v, d);
		if (r == 0)
			put_line(f, k, k->files[i], &v);
		cg_value_clear(&v);
	}
	if (r == 0 && !k->bare)
		fputc('\n', f);
	return r;
}

int get_run(const struct kit_args *k, const struct cg_layout *l)
{
	char *const root[] = { (char *)"*:/", NULL };
	char *const *specs = k->specs ? k->specs : root;

	/* as cgget: a CGROUP's lines are printed whole or not at all, and a failure ends it */
	for (size_t i = 0; specs[i]; i++) {
		struct cg_targets ts = { 0 };
		struct cg_diag d = { 0 };
		_cleanup_free_ char *buf = NULL;
		size_t len = 0;
		FILE *f;
		int r = cg_spec_parse(l, specs[i], &ts, &d);

		if (r < 0) {
			tool_report(&d, r);
			return r == -ENOMEM ? GET_EXIT_FAILED : TOOL_EXIT_USAGE;
		}
		f = open_memstream(&buf, &len);
		r = f ? get_one(f, k, specs[i], &ts, &d) : -ENOMEM;
		cg_targets_clear(&ts);
		if (f && fclose(f) != 0 && r == 0)
			r = -ENOMEM;
		if (r < 0) {
			tool_report(&d, r);
			return GET_EXIT_FAILED;
		}
		fwrite(buf, 1, len, stdout);
	}
	return TOOL_EXIT_OK;
}
