// SPDX-License-Identifier: MIT
/*
 * cgtop2 --snapshot (cmd/cgtop2/snapshot.h): libcgroup's cgsnapshot in cgkit's vocabulary. A
 * group block per cgroup (in walk order, a parent before its children), a block per hierarchy
 * that has it, named by its first controller, with the limits that cgcreate2 -r sets as the
 * kernel reads them, so that cgcreate2 --apply of the output makes the same tree again.
 */
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "tool.h"
#include "cgroups/values.h"

/* What a snapshot keeps, per controller and version, in the order to write them back */
static const struct {
	const char *ctrl;
	int version;
	const char *files[6];
} kept[] = {
	{ "cpu", 1, { "cpu.shares", "cpu.cfs_period_us", "cpu.cfs_quota_us" } },
	{ "cpuset", 1, { "cpuset.cpus", "cpuset.mems" } },
	{ "memory", 1, { "memory.limit_in_bytes", "memory.soft_limit_in_bytes" } },
	{ "pids", 1, { "pids.max" } },
	{ "cpu", 2, { "cpu.weight", "cpu.max" } },
	{ "cpuset", 2, { "cpuset.cpus", "cpuset.mems" } },
	{ "memory",
	  2,
	  { "memory.min", "memory.low", "memory.high", "memory.max", "memory.swap.max" } },
	{ "pids", 2, { "pids.max" } },
	{ "io", 2, { "io.weight" } },
};

/* the cgroups seen, in walk order, with the hierarchies that have each (a bit per index) */
struct seen {
	char **paths;
	unsigned long long *hiers;
	size_t n;
	const struct cg_layout *l;
};

static int note(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	struct seen *s = ctx;
	size_t i, hi = (size_t)(h - s->l->hier);
	unsigned long long *v;

	for (i = 0; i < s->n && strcmp(s->paths[i], path); i++)
		;
	if (i == s->n) {
		v = realloc(s->hiers, (s->n + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->hiers = v;
		s->hiers[s->n] = 0;
		if (cg_strv_push(&s->paths, path) < 0)
			return -ENOMEM;
		s->n++;
	}
	s->hiers[i] |= 1ull << hi;
	return 0;
}

/* a word the cgconfig.conf lexer reads back as it is, quoted; NULL for what it cannot hold */
static bool quotable(const char *s)
{
	return !strpbrk(s, "\"\n");
}

/* one hierarchy's block of a cgroup: its controllers' kept files that are there */
static void put_block(FILE *f, const struct cg_hier *h, const char *path)
{
	char *const *ctrls = cg_hier_controllers(h);
	bool opened = false;

	for (size_t c = 0; ctrls && ctrls[c]; c++)
		for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
			if (kept[i].version != h->version || strcmp(kept[i].ctrl, ctrls[c]))
				continue;
			/* the unified hierarchy: a block per controller that has files here */
			if (h->version == 2 && opened)
				fprintf(f, "\t}\n"), opened = false;
			for (size_t k = 0; k < ARRAY_SIZE(kept[i].files) && kept[i].files[k]; k++) {
				struct cg_hier *hs[1] = { (struct cg_hier *)h };
				struct cg_value v = { 0 };

				if (cg_value_get(hs, 1, path, kept[i].files[k], &v, NULL) < 0 ||
				    v.from || !v.text[0] || !quotable(v.text)) {
					cg_value_clear(&v);
					continue;
				}
				if (!opened)
					fprintf(f, "\t%s {\n",
						h->version == 1 ? ctrls[0] : ctrls[c]);
				opened = true;
				fprintf(f, "\t\t%s = \"%s\";\n", kept[i].files[k], v.text);
				cg_value_clear(&v);
			}
		}
	if (h->version == 1 && !opened)
		fprintf(f, "\t%s {\n", ctrls && ctrls[0] ? ctrls[0] : "");
	if (h->version == 1 || opened)
		fprintf(f, "\t}\n");
}

/*
 * The owners, where they are not root's: of the cgroup's directory (admin) and its
 * cgroup.procs (task) on the first hierarchy that has it (cgcreate2 -a and -t own them alike
 * on every hierarchy). Modes are left out: cgcreate2 -f sets every interface file's alike,
 * which the kernel's read-only files never were.
 */
static void put_perm(FILE *f, const struct seen *s, size_t i)
{
	struct cg_value_owners o;

	for (size_t h = 0; h < s->l->n; h++) {
		if (!(s->hiers[i] & (1ull << h)))
			continue;
		if (cg_value_owners(&s->l->hier[h], s->paths[i], &o) < 0 ||
		    !(o.a_uid | o.a_gid | o.t_uid | o.t_gid))
			return;
		fprintf(f,
			"\tperm {\n\t\ttask {\n\t\t\tuid = %u;\n\t\t\tgid = %u;\n\t\t}\n"
			"\t\tadmin {\n\t\t\tuid = %u;\n\t\t\tgid = %u;\n\t\t}\n\t}\n",
			o.t_uid, o.t_gid, o.a_uid, o.a_gid);
		return;
	}
}

static void put_group(FILE *f, const struct seen *s, size_t i)
{
	const char *name = s->paths[i];

	/* the root always exists, and its knobs are the machine's: never written back */
	if (!name[0])
		return;
	if (!quotable(name) || strchr(name, ' ')) {
		fprintf(f, "# %s: a name the cgconfig.conf language cannot hold\n",
			TOOL_PATH(name));
		return;
	}
	fprintf(f, "group %s {\n", TOOL_PATH(name));
	put_perm(f, s, i);
	for (size_t h = 0; h < s->l->n; h++)
		if (s->hiers[i] & (1ull << h))
			put_block(f, &s->l->hier[h], s->paths[i]);
	fprintf(f, "}\n\n");
}

int snapshot_run(const struct kit_args *k, const struct cg_layout *l)
{
	char *const root[] = { (char *)"*:/", NULL };
	struct seen s = { .l = l };
	struct cg_targets ts = { 0 };
	struct cg_diag d = { 0 };
	int r = cg_specs_parse(l, k->specs ? k->specs : root, 0, &ts, &d);

	if (r < 0) {
		tool_report(&d, r);
		return r == -ENOMEM ? TOOL_EXIT_FAILED : TOOL_EXIT_USAGE;
	}
	for (size_t i = 0; r >= 0 && i < ts.n; i++) {
		const struct cg_hier *h = ts.t[i].hier;

		/* named v1 hierarchies hold no limit; the kernel's cgroup2 without a controller neither */
		if (h->name || (size_t)(h - l->hier) >= 64 ||
		    (h->version == 2 && !cg_hier_controllers(h)[0]))
			continue;
		r = cg_walk(h, ts.t[i].path, 0, note, &s);
		if (r == -ENOENT)
			r = 0;
		else if (r < 0)
			cg_diag_fail(&d, -r, CG_OP_READ, h->version, ts.t[i].path, h->label,
				     "list the cgroups");
	}
	cg_targets_clear(&ts);
	if (r >= 0) {
		printf("# cgtop2 --snapshot: cgcreate2 --apply FILE makes this tree again\n\n");
		for (size_t i = 0; i < s.n; i++)
			put_group(stdout, &s, i);
	}
	cg_strv_free(s.paths);
	free(s.hiers);
	if (r < 0) {
		tool_report(&d, r);
		return TOOL_EXIT_FAILED;
	}
	return TOOL_EXIT_OK;
}
