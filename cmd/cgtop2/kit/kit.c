// SPDX-License-Identifier: MIT
/* cgtop2's libcgroup kit (cmd/cgtop2/kit.h): the options, and which answer runs. */
#include "kit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/strv.h"
#include "tool.h"

#include "get.h"
#include "list.h"
#include "snapshot.h"

enum {
	OPT_GET = 0x200,
	OPT_BARE,
	OPT_VALUES,
	OPT_LIST_CGROUPS,
	OPT_LIST_CONTROLLERS,
	OPT_SNAPSHOT,
};

static const struct argp_option options[] = {
	{ "get", OPT_GET, "FILE[,FILE...]", OPTION_ARG_OPTIONAL,
	  "Print these interface files of each CGROUP as libcgroup's cgget does (PATH:, then FILE: VALUE); alone: every readable file (cgget -a)",
	  0 },
	{ "bare", OPT_BARE, 0, 0, "With --get: no PATH: lines (cgget -n)", 0 },
	{ "values", OPT_VALUES, 0, 0, "With --get: the values only (cgget -v)", 0 },
	{ "list-cgroups", OPT_LIST_CGROUPS, 0, 0,
	  "List the cgroups as lscgroup does, CONTROLLERS:PATH a line (below each CGROUP given, -g)",
	  0 },
	{ "list-controllers", OPT_LIST_CONTROLLERS, "all,mounts", OPTION_ARG_OPTIONAL,
	  "List the mounted controllers as lssubsys does; all: the unmounted too (-a), mounts: with their mount points (-m)",
	  0 },
	{ "snapshot", OPT_SNAPSHOT, 0, 0,
	  "Print the cgroups below each CGROUP (-g; default every one) with their limits in the cgconfig.conf language, for cgcreate2 --apply (libcgroup's cgsnapshot)",
	  0 },
	{ 0 }
};

static void set_mode(struct argp_state *state, struct kit_args *k, enum kit_mode m)
{
	if (k->mode && k->mode != m)
		argp_error(state,
			   "--get, --list-cgroups and --list-controllers exclude each other");
	k->mode = m;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct kit_args *k = state->input;

	switch (key) {
	case OPT_GET:
		set_mode(state, k, KIT_GET);
		cg_strv_free(k->files);
		k->files = NULL;
		if (arg && !(k->files = cg_strv_split(arg, ",")))
			return ENOMEM;
		if (arg && !k->files[0])
			argp_error(state, "--get takes FILE[,FILE...], not '%s'", TOOL_SHOWN(arg));
		break;
	case OPT_BARE:
		k->bare = true;
		break;
	case OPT_VALUES:
		k->values = true;
		break;
	case OPT_LIST_CGROUPS:
		set_mode(state, k, KIT_LIST_CGROUPS);
		break;
	case OPT_SNAPSHOT:
		set_mode(state, k, KIT_SNAPSHOT);
		break;
	case OPT_LIST_CONTROLLERS: {
		_cleanup_strv_free_ char **v = NULL;

		set_mode(state, k, KIT_LIST_CONTROLLERS);
		if (arg && !(v = cg_strv_split(arg, ",")))
			return ENOMEM;
		for (size_t i = 0; v && v[i]; i++) {
			if (!strcmp(v[i], "all"))
				k->all = true;
			else if (!strcmp(v[i], "mounts"))
				k->mounts = true;
			else
				argp_error(state,
					   "--list-controllers takes all, mounts or both, not '%s'",
					   TOOL_SHOWN(arg));
		}
		break;
	}
	case ARGP_KEY_END:
		if ((k->bare || k->values) && k->mode != KIT_GET)
			argp_error(state, "--bare and --values need --get");
		if (k->many && !k->mode)
			argp_error(state, "only one CGROUP may be given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp kit_argp = { options, parse_opt, NULL, NULL, NULL, NULL, NULL };

int kit_spec_push(struct kit_args *k, const char *arg, bool spec)
{
	/* a bare PATH is the cgroup on every hierarchy that has it, as cgget and lscgroup take it */
	_cleanup_free_ char *s = NULL;

	if (spec || arg[0] == ':')
		return cg_strv_push(&k->specs, arg);
	if (asprintf(&s, "*:%s", arg) < 0)
		return -ENOMEM;
	return cg_strv_push(&k->specs, s);
}

int kit_run(const struct kit_args *k)
{
	struct cg_layout *l = NULL;
	int ret;

	if (tool_layout_load(&l) < 0)
		return TOOL_EXIT_FAILED;
	switch (k->mode) {
	case KIT_GET:
		ret = get_run(k, l);
		break;
	case KIT_LIST_CGROUPS:
		ret = list_cgroups_run(k, l);
		break;
	case KIT_SNAPSHOT:
		ret = snapshot_run(k, l);
		break;
	default:
		ret = list_controllers_run(k, l);
		break;
	}
	cg_layout_free(l);
	return ret;
}

void kit_args_free(struct kit_args *k)
{
	cg_strv_free(k->files);
	cg_strv_free(k->specs);
}
