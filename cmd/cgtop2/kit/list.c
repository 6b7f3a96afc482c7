// SPDX-License-Identifier: MIT
/*
 * cgtop2 --list-cgroups and --list-controllers (cmd/cgtop2/list.h): lscgroup's and lssubsys's
 * lines. A hierarchy is named as lscgroup names it: its controllers comma-joined, name=NAME
 * for a named v1 one, and on cgroup2 the controllers its root offers (none: ":/PATH", the
 * spec every cgkit tool takes for the v2 hierarchy).
 */
#include "list.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "kernel/proc.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "tool.h"

/* The hierarchy's name in a line: "cpu,cpuacct", "name=systemd", "" or "cpu,memory" on v2 */
static char *hier_name(const struct cg_hier *h)
{
	if (h->version == 1)
		return strdup(h->label);
	return cg_strv_join(cg_hier_controllers(h), ",");
}

/* a v1 hierarchy has its controllers (or a name); a cgroup2 one those its root offers */
static bool hier_offers(const struct cg_hier *h)
{
	char *const *c = h->version == 2 ? cg_hier_controllers(h) : NULL;

	return h->version == 1 || (c && c[0]);
}

/* the cgroup given is printed with a trailing '/', as lscgroup prints it; its subtree without */
static int put_cgroup(const struct cg_hier *h, const char *path, int depth, void *ctx)
{
	const char *name = ctx;

	printf("%s:/%s%s\n", TOOL_PATH(name), TOOL_PATH(path), !depth && path[0] ? "/" : "");
	return 0;
}

int list_cgroups_run(const struct kit_args *k, const struct cg_layout *l)
{
	char *const root[] = { (char *)"*:/", NULL };
	struct cg_targets ts = { 0 };
	struct cg_diag d = { 0 };
	size_t found = 0;
	int r = cg_specs_parse(l, k->specs ? k->specs : root, 0, &ts, &d);

	if (r < 0) {
		tool_report(&d, r);
		return r == -ENOMEM ? TOOL_EXIT_FAILED : TOOL_EXIT_USAGE;
	}
	for (size_t i = 0; i < ts.n; i++) {
		_cleanup_free_ char *name = NULL;

		/*
		 * lscgroup lists the controllers' hierarchies: a named one, and a cgroup2 one whose
		 * root offers no controller (hybrid, every controller in v1), when -g names it
		 */
		if (!k->specs && (ts.t[i].hier->name || !hier_offers(ts.t[i].hier)))
			continue;
		name = hier_name(ts.t[i].hier);

		if (!name) {
			r = -ENOMEM;
			break;
		}
		r = cg_walk(ts.t[i].hier, ts.t[i].path, 0, put_cgroup, name);
		/* a bare PATH names it on every hierarchy: those without it are skipped */
		if (r == -ENOENT) {
			r = 0;
			continue;
		}
		if (r < 0) {
			cg_diag_fail(&d, -r, CG_OP_READ, ts.t[i].hier->version, ts.t[i].path,
				     ts.t[i].hier->label, "list the cgroups");
			break;
		}
		found++;
	}
	if (r == 0 && !found && ts.n)
		r = cg_diag_say(&d, ENOENT, ts.t[0].path, "", "list",
				"no such cgroup on the hierarchies asked for");
	cg_targets_clear(&ts);
	if (r < 0) {
		tool_report(&d, r);
		return TOOL_EXIT_FAILED;
	}
	return TOOL_EXIT_OK;
}

/* /proc/cgroups' controllers that no hierarchy of l has mounted, a line each (lssubsys -a) */
static int put_unmounted(const struct cg_layout *l)
{
	_cleanup_free_ char *text = NULL;
	int r = cg_proc_read_all("/proc/cgroups", &text);

	if (r < 0)
		return r;
	for (char *line = text, *next; *line; line = next) {
		size_t n = strcspn(line, "\t \n");

		next = line + strcspn(line, "\n");
		next += *next == '\n';
		if (!n || line[0] == '#')
			continue;
		line[n] = 0;
		if (!cg_layout_find(l, line))
			printf("%s\n", TOOL_PATH(line));
	}
	return 0;
}

int list_controllers_run(const struct kit_args *k, const struct cg_layout *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct cg_hier *h = &l->hier[i];
		_cleanup_free_ char *name = NULL;

		/* lssubsys lists controllers: a named v1 hierarchy has none */
		if (h->name)
			continue;
		name = hier_name(h);
		if (!name)
			return TOOL_EXIT_FAILED;
		if (!name[0])
			continue;
		if (k->mounts)
			printf("%s %s\n", TOOL_PATH(name), TOOL_PATH(h->mountpoint));
		else
			printf("%s\n", TOOL_PATH(name));
	}
	if (k->all) {
		int r = put_unmounted(l);

		if (r < 0) {
			tool_say("read /proc/cgroups: %s", strerror(-r));
			return TOOL_EXIT_FAILED;
		}
	}
	return TOOL_EXIT_OK;
}
