// SPDX-License-Identifier: MIT
/* cgcreate2: create (and remove) cgroups, enable controllers, threaded subtrees, values, owners. */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "ops/remove.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "base/error.h"
#include "ops/migrate.h"
#include "kernel/mount.h"
#include "mountfs.h"
#include "cgroups/owner.h"
#include "base/parse.h"
#include "ops/launch.h"
#include "cgroups/scope.h"
#include "cgroups/setup.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "apply.h"
#include "actions.h"
#include "tool.h"
#include "tool_owner.h"

TOOL_ARGP_VERSION("cgcreate2");

enum {
	OPT_GRACE = 0x100,
	OPT_FORCE,
	OPT_SCOPE,
	OPT_SLICE,
	OPT_USER,
	OPT_MIGRATE,
	OPT_TIMEOUT,
	OPT_APPLY,
};

struct cgcreate2_args {
	char **specs; /* -g and bare PATHs, in order: argv's strings, NULL-terminated */
	size_t n_specs;
	char **enable;
	struct cg_assignments set; /* -r FILE=VALUE */
	bool parents, threaded, remove, recursive, verbose, quiet;
	bool has_perm, has_delegate, mount, force, user;
	bool migrate; /* --migrate-to-parent */
	const char *apply; /* --apply=FILE (apply.c) */
	bool dry_run; /* -n: --apply's plan printed */
	const char *scope, *slice; /* --scope=NAME, --slice=SLICE */
	int kill_signal;
	uint64_t grace_ns;
	uint64_t kill_timeout_ns; /* --timeout; 0: CG_KILL_TIMEOUT_NS */
	enum cg_mount_mode mount_mode;
	struct cg_perm perm;
	uid_t d_uid;
	gid_t d_gid;
};

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Which cgroups:", 1 },
	{ "group", 'g', "CONTROLLERS:PATH", 0,
	  "Cgroup to create; CONTROLLERS is a comma list, name=NAME, * or empty (:PATH, the cgroup v2 hierarchy); repeatable",
	  1 },
	{ "parents", 'p', 0, 0, "Create missing ancestors; an existing cgroup is not an error", 1 },
	{ 0, 0, 0, 0, "What to set up (v2 where noted):", 2 },
	{ "enable", 'e', "CTRLS", 0,
	  "v2: enable these controllers top-down from the root so the cgroup has them", 2 },
	{ "threaded", 'T', 0, 0, "v2: make the new cgroup threaded (cgroup.type)", 2 },
	{ "set", 'r', "FILE=VALUE", TOOL_OPTION_WHOLE,
	  "Write an interface file (FILE: its name, as cpu.weight) after creation; CPU names (cpu.weight, cpu.max, ...) are translated on v1; repeatable",
	  2 },
	{ 0, 0, 0, 0, "Ownership and permissions (as libcgroup's cgcreate):", 3 },
	{ "admin", 'a', "UID:GID", 0, "Owner of the directory and its interface files", 3 },
	{ "tasks", 't', "UID:GID", 0,
	  "Owner of the membership files (tasks; v2 cgroup.procs, cgroup.threads)", 3 },
	{ "dperm", 'd', "MODE", 0, "Octal mode of the directory", 3 },
	{ "fperm", 'f', "MODE", 0, "Octal mode of the interface files", 3 },
	{ "tperm", 's', "MODE", 0, "Octal mode of the membership files", 3 },
	{ "delegate", 'D', "USER[:GROUP]", TOOL_OPTION_WHOLE,
	  "Delegate the cgroup to USER per the kernel's rules (directory, cgroup.procs, cgroup.threads, cgroup.subtree_control)",
	  3 },
	{ 0, 0, 0, 0, "Removal:", 4 },
	{ "remove", 'x', 0, TOOL_OPTION_WHOLE, "Remove the cgroups instead of creating them", 4 },
	{ "recursive", 'R', 0, TOOL_OPTION_WHOLE,
	  "With -x: remove child cgroups too, deepest first", 4 },
	{ "kill", 'k', "SIGNAL", OPTION_ARG_OPTIONAL | TOOL_OPTION_WHOLE,
	  "With -x: signal what runs inside (default TERM), wait --grace, then kill it", 4 },
	{ "migrate-to-parent", OPT_MIGRATE, 0, TOOL_OPTION_WHOLE,
	  "With -x: move what runs inside (with -R: in the whole subtree) into the parent of each cgroup removed, as libcgroup's cgdelete -r does, then remove",
	  4 },
	{ "grace", OPT_GRACE, "TIME", 0,
	  "With -k: how long to wait before killing, in seconds (default 5) or with a unit: 500ms, 2min",
	  4 },
	{ "timeout", OPT_TIMEOUT, "DURATION", 0,
	  "With -k: how long the kill may take, for the killed to exit after v2 cgroup.kill or for the v1 SIGKILL rounds (default 5s; 500ms, 2min)",
	  4 },
	{ 0, 0, 0, 0, "A systemd scope (where systemd runs):", 6 },
	{ "scope", OPT_SCOPE, "NAME", TOOL_OPTION_WHOLE,
	  "Ask systemd for a scope NAME.scope with Delegate=yes, held by a keeper process in its child cgroup \"keeper\", to work inside; -r become unit properties; cgcreate2 -x on its cgroup stops it",
	  6 },
	{ "slice", OPT_SLICE, "SLICE", 0, "With --scope: the slice (\"a\" is a.slice)", 6 },
	{ "user", OPT_USER, 0, 0, "With --scope: the calling user's systemd, not the system's", 6 },
	{ 0, 0, 0, 0, "Other:", 5 },
	{ "mount", 'M', "LAYOUT", OPTION_ARG_OPTIONAL | TOOL_OPTION_WHOLE,
	  "Mount the cgroup filesystems at /sys/fs/cgroup if none is: unified (default), hybrid or legacy",
	  5 },
	{ "force", OPT_FORCE, 0, TOOL_OPTION_WHOLE,
	  "Work inside a systemd unit's cgroup that is not delegated (refused otherwise: systemd owns it)",
	  5 },
	{ "apply", OPT_APPLY, "FILE", TOOL_OPTION_WHOLE,
	  "Make, set and own the groups of a cgconfig.conf FILE (libcgroup's cgconfigparser), as -p would: a second run changes nothing (man cgkit.conf)",
	  7 },
	{ "dry-run", 'n', 0, 0, "With --apply: print the plan, change nothing", 7 },
	{ "verbose", 'v', 0, 0,
	  "Print each action taken, and who owns each cgroup inside a systemd unit", 5 },
	{ "quiet", 'q', 0, 0,
	  "With -x: a cgroup that does not exist is not an error; with -M: no note when already mounted",
	  5 },
	TOOL_OPTION_HELP,
	{},
};

static int parse_signal(const char *s)
{
	int64_t n;

	if (cg_parse_i64(s, 1, SIGRTMAX, &n) == 0)
		return (int)n;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *name = sigabbrev_np(i);

		if (name && !strcasecmp(name, s))
			return i;
	}
	return -1;
}

/* "0", "0.0", "0ms", "00s": no grace at all, which cg_parse_seconds refuses as a time */
static bool is_zero_time(const char *s)
{
	size_t digits = strspn(s, "0"), n = digits;

	if (s[n] == '.') {
		size_t frac = strspn(s + n + 1, "0");

		digits += frac;
		n += 1 + frac;
	}
	return digits && (!s[n] || !strcmp(s + n, "us") || !strcmp(s + n, "ms") ||
			  !strcmp(s + n, "s") || !strcmp(s + n, "min"));
}

/* -x or --remove anywhere on the line, before or after the -r being read */
static bool removing(const struct argp_state *state)
{
	for (int i = 1; i < state->argc && strcmp(state->argv[i], "--"); i++) {
		const char *w = state->argv[i];

		if (!strcmp(w, "--remove") || (w[0] == '-' && w[1] != '-' && strchr(w, 'x') &&
					       strspn(w + 1, "pvqTkRx") == strlen(w + 1)))
			return true;
	}
	return false;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cgcreate2_args *a = state->input;
	int r;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'g':
	case ARGP_KEY_ARG:
		if (cg_spec_check(arg) < 0)
			argp_error(
				state,
				"cgroup '%s': not a cgroup spec ([CONTROLLERS]:PATH or PATH, with no '..', control characters, names over 255 bytes or paths over 4095)",
				TOOL_SHOWN(arg));
		/* no strv_push: a call with thousands of -g must not be quadratic in its arguments */
		if (!a->specs && !(a->specs = calloc((size_t)state->argc + 1, sizeof(*a->specs))))
			return ENOMEM;
		a->specs[a->n_specs++] = arg;
		break;
	case 'p':
		a->parents = true;
		break;
	case 'e': {
		_cleanup_strv_free_ char **v = cg_strv_split(arg, ", ");

		if (!v || !v[0])
			argp_error(state, "--enable needs a list of controllers");
		for (char **c = v; *c; c++)
			if (cg_strv_push(&a->enable, *c) < 0)
				return ENOMEM;
		break;
	}
	case 'T':
		a->threaded = true;
		break;
	case 'r': {
		r = cg_assignments_add(&a->set, arg);
		if (r == -ENOMEM)
			return ENOMEM;
		/* libcgroup's cgdelete -r is recursive removal, which is -R here */
		if (r < 0 && !strchr(arg, '=') && removing(state))
			argp_error(
				state,
				"-r is --set FILE=VALUE, not '%s'; to remove a subtree (cgdelete -r) use -x -R",
				TOOL_SHOWN(arg));
		if (r < 0)
			argp_error(state, TOOL_SET_USAGE, TOOL_SHOWN(arg));
		break;
	}
	case 'a':
	case 't': {
		uid_t u;
		gid_t g;

		r = cg_parse_owner(arg, &u, &g);
		if (r < 0)
			argp_error(state, "-%c takes UID:GID (names or numbers), not '%s'", key,
				   TOOL_SHOWN(arg));
		if (key == 'a') {
			a->perm.a_uid = u;
			a->perm.a_gid = g;
		} else {
			a->perm.t_uid = u;
			a->perm.t_gid = g;
		}
		a->has_perm = true;
		break;
	}
	case 'd':
	case 'f':
	case 's': {
		mode_t m;

		if (cg_parse_mode(arg, &m) < 0)
			argp_error(state, "-%c takes an octal mode, not '%s'", key,
				   TOOL_SHOWN(arg));
		if (key == 'd') {
			a->perm.dmode = m;
			a->perm.has_dmode = true;
		} else if (key == 'f') {
			a->perm.fmode = m;
			a->perm.has_fmode = true;
		} else {
			a->perm.tmode = m;
			a->perm.has_tmode = true;
		}
		a->has_perm = true;
		break;
	}
	case 'D':
		if (cg_parse_owner(arg, &a->d_uid, &a->d_gid) < 0 || a->d_uid == (uid_t)-1)
			argp_error(state, "--delegate takes USER[:GROUP], not '%s'",
				   TOOL_SHOWN(arg));
		a->has_delegate = true;
		break;
	case 'x':
		a->remove = true;
		break;
	case 'R':
		a->recursive = true;
		break;
	case 'k':
		a->kill_signal = arg ? parse_signal(arg) : SIGTERM;
		if (a->kill_signal < 0)
			argp_error(state, "--kill takes a signal name or number, not '%s'",
				   TOOL_SHOWN(arg));
		break;
	case OPT_MIGRATE:
		a->migrate = true;
		break;
	case OPT_GRACE:
		if (is_zero_time(arg))
			a->grace_ns = 0;
		else if (cg_parse_seconds(arg, &a->grace_ns) < 0)
			argp_error(
				state,
				"--grace takes seconds or a time with us, ms, s or min (0 to 86400s, fractions allowed), not '%s'",
				TOOL_SHOWN(arg));
		break;
	case OPT_TIMEOUT:
		if (cg_parse_seconds(arg, &a->kill_timeout_ns) < 0 || !a->kill_timeout_ns)
			argp_error(
				state,
				"--timeout: '%s' is not a duration above zero (2, 1.5s, 500ms, 2min)",
				TOOL_SHOWN(arg));
		break;
	case 'M':
		a->mount = true;
		if (!arg || !strcmp(arg, "unified"))
			a->mount_mode = CG_MOUNT_UNIFIED;
		else if (!strcmp(arg, "hybrid"))
			a->mount_mode = CG_MOUNT_HYBRID;
		else if (!strcmp(arg, "legacy"))
			a->mount_mode = CG_MOUNT_LEGACY;
		else
			argp_error(state, "--mount takes unified, hybrid or legacy, not '%s'",
				   TOOL_SHOWN(arg));
		break;
	case OPT_FORCE:
		a->force = true;
		break;
	case OPT_SCOPE:
	case OPT_SLICE:
		if (!*arg || strchr(arg, '/') || cg_spec_check(arg) < 0)
			argp_error(state, "--%s takes a unit's name, not '%s'",
				   key == OPT_SCOPE ? "scope" : "slice", TOOL_SHOWN(arg));
		*(key == OPT_SCOPE ? &a->scope : &a->slice) = arg;
		break;
	case OPT_USER:
		a->user = true;
		break;
	case 'v':
		a->verbose = true;
		break;
	case 'q':
		a->quiet = true;
		break;
	case OPT_APPLY:
		a->apply = arg;
		break;
	case 'n':
		a->dry_run = true;
		break;
	case ARGP_KEY_END:
		if (a->dry_run && !a->apply)
			argp_error(state, "-n goes with --apply");
		if (a->apply && (a->specs || a->remove || a->mount || a->scope || a->set.n ||
				 a->enable || a->threaded || a->has_perm || a->has_delegate))
			argp_error(
				state,
				"--apply takes the groups, settings and owners from its FILE: -n alone goes with it");
		if (a->apply)
			break;
		if ((a->slice || a->user) && !a->scope)
			argp_error(state, "--slice and --user go with --scope");
		if (a->scope && (a->specs || a->remove || a->mount || a->enable || a->threaded ||
				 a->has_perm || a->has_delegate))
			argp_error(
				state,
				"--scope makes its own cgroup: -r and -v only (work inside it with another cgcreate2)");
		if (!a->specs && !a->mount && !a->scope)
			argp_error(state, "no cgroup given (PATH or -g CONTROLLERS:PATH)");
		if (a->remove && (a->enable || a->set.n || a->threaded || a->has_perm ||
				  a->has_delegate || a->parents))
			argp_error(state, "--remove cannot be combined with options that create");
		if (!a->remove && (a->recursive || a->kill_signal))
			argp_error(state, "-R and -k go with --remove");
		if (a->kill_timeout_ns && !a->kill_signal)
			argp_error(state,
				   "--timeout goes with -k (the wait for the killed to exit)");
		if (a->migrate && (!a->remove || a->kill_signal))
			argp_error(
				state,
				"--migrate-to-parent goes with --remove, and not with -k (move what runs there, or stop it)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[PATH...]",
	.doc = "Create cgroups (or remove them with -x) on the unified, legacy or hybrid layout.\vA bare PATH names the unified hierarchy when one is mounted, else every v1 hierarchy. On failure nothing this call created is left behind.\n"
	       "Where systemd runs, a cgroup inside one of its units that is not delegated is refused (exit 64) unless --force.\n"
	       "Exit status: 0 done, 1 an operation failed, 64 usage error or a refused request.",
};

static void say_mount(const char *what)
{
	printf("%s\n", what);
}

static void say_made(const struct cg_setup_event *e, void *ctx)
{
	const char *where = TOOL_PATH(e->path), *label = e->hier->label;
	char written[1024];

	switch (e->what) {
	case CG_SETUP_CREATED:
		printf("created cgroup /%s (%s)\n", where, label);
		break;
	case CG_SETUP_ENABLED:
		printf("enabled +%s in cgroup /%s (%s)\n", TOOL_SHOWN(e->arg), where, label);
		break;
	case CG_SETUP_THREADED:
		printf("made cgroup /%s threaded\n", where);
		break;
	case CG_SETUP_SET:
		/* the value is the user's (a file's own syntax): escaped like any argument */
		printf("set %s=%s in cgroup /%s (%s)%s%s\n", e->arg, TOOL_SHOWN(e->value), where,
		       label, e->written && *e->written ? ": " : "",
		       e->written ? cg_quote(e->written, written, sizeof(written)) : "");
		break;
	case CG_SETUP_OWNED:
		printf("set owner of cgroup /%s (%s)\n", where, label);
		break;
	case CG_SETUP_DELEGATED:
		printf("delegated cgroup /%s (%s)\n", where, label);
		break;
	}
}

static int do_create(struct cgcreate2_args *a, struct cg_layout *l, struct cg_targets *ts)
{
	const struct cg_setup_opts o = {
		.parents = a->parents,
		.threaded = a->threaded,
		.lock = true,
		.enable = a->enable,
		.set = &a->set,
		.perm = a->has_perm ? &a->perm : NULL,
		.delegate = a->has_delegate,
		.d_uid = a->d_uid,
		.d_gid = a->d_gid,
		.on_step = a->verbose ? say_made : NULL,
	};
	struct cg_journal j = { 0 };
	struct cg_diag d = { 0 };
	int r = cg_setup_route_all(l, ts, &a->set, false, &d);

	if (r == 0)
		r = cg_setup_apply(l, ts, &o, &j, &d);
	/*
	 * libcgroup's habits: cgcreate exits 0 on a cgroup that is there, and cgset sets values
	 * on one; an init script translated line by line fails on its second run without -p.
	 */
	if (r == -EEXIST && !a->parents) {
		size_t n = strlen(d.why);

		snprintf(
			d.why + n, sizeof(d.why) - n, "%s",
			a->set.n
				? "; -p sets the values on an existing cgroup (as cgset -r)"
				: "; use -p to take an existing cgroup as made (as cgcreate does)");
	}
	if (r < 0)
		tool_report(&d, r);
	cg_journal_clear(&j);
	return r;
}

/*
 * "-g cpu:" or "-g cpu:/" asks to create a root, which always exists: without -p (where an
 * existing cgroup is no error, the root too) a request that can never succeed, so a usage
 * error that says so rather than mkdir's "File exists".
 */
static int root_named(const struct cg_targets *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		if (!ts->t[i].path[0]) {
			tool_say(
				"cgroup / (%s): create: the root cgroup always exists; name a cgroup below it (with -p an existing cgroup, the root too, is no error)",
				ts->t[i].hier->label);
			return TOOL_EXIT_USAGE;
		}
	return 0;
}

static void say_step(const struct cg_remove_event *e, void *ctx)
{
	const char *sig = sigabbrev_np(e->sig);
	const char *what = e->count == 1 ? "process" : "processes";

	switch (e->what) {
	case CG_REMOVE_SIGNAL:
		printf("sent SIG%s to %d %s in cgroup /%s (%s)\n", sig ? sig : "?", e->count, what,
		       TOOL_PATH(e->path), e->hier->label);
		break;
	case CG_REMOVE_KILL:
		printf("killed %d %s still in cgroup /%s (%s) after the grace\n", e->count, what,
		       TOOL_PATH(e->path), e->hier->label);
		break;
	case CG_REMOVE_RMDIR:
		printf("removed cgroup /%s (%s)\n", TOOL_PATH(e->path), e->hier->label);
		break;
	case CG_REMOVE_MOVE:
		printf("moved %d %s%s from cgroup /%s (%s)%s to its parent /%s\n", e->count,
		       e->thread ? "thread" : "process",
		       e->count == 1 ? ""
		       : e->thread   ? "s"
				     : "es",
		       TOOL_PATH(e->path), e->hier->label,
		       ((const struct cgcreate2_args *)ctx)->recursive ? " and its subtree" : "",
		       TOOL_PATH(e->to));
		break;
	case CG_REMOVE_WAIT:
		return;
	}
	/* a step of a long grace is news when it happens, into a pipe too */
	tool_flush_stdout();
}

/* On a terminal, each second of the grace: what it waits for, so that it does not look hung. */
static void say_wait(const struct cg_remove_event *e, void *ctx)
{
	uint64_t s = (e->left_ns + NSEC_PER_SEC - 1) / NSEC_PER_SEC;

	tool_say("%d %s left in cgroup /%s (%s), killed in %" PRIu64 " s", e->count,
		 tool_plural((size_t)e->count, "process", "processes"), TOOL_PATH(e->path),
		 e->hier->label, s);
}

/* 0 removed, 1 a removal failed, 64 the request itself was refused (a root, our own cgroup) */
static int do_remove(struct cgcreate2_args *a, struct cg_layout *l, struct cg_targets *ts)
{
	struct cg_remove_opts o = {
		.recursive = a->recursive,
		.signal = a->kill_signal,
		.migrate_to_parent = a->migrate,
		.grace_ns = a->grace_ns,
		.kill_timeout_ns = a->kill_timeout_ns,
		.layout = l,
		.on_step = a->verbose ? say_step : NULL,
		.on_wait = isatty(STDERR_FILENO) ? say_wait : NULL,
		.ctx = a,
	};
	struct cg_targets there = { 0 }, twins = { 0 };
	struct cg_diag d = { 0 };
	int ret, r;

	/* a cgroup that is not there is reported (or, with -q, fine) and the others go ahead */
	r = cg_remove_present(l, ts, a->quiet, &there, &twins, tool_report_fn, NULL);
	if (r < 0) {
		ret = 1;
		goto out;
	}
	ret = r > 0;
	r = cg_remove_targets(&there, &o, &d);
	if (r < 0) {
		tool_report(&d, r);
		ret = r == -EINVAL ? 64 : 1;
	}
out:
	free(there.t);
	cg_targets_clear(&twins);
	return ret;
}

/* what systemd offers instead of a cgroup made behind its back */
static const char *owner_hint(const struct cg_target *t, const struct cg_owner *o, void *ctx,
			      char *buf, size_t size)
{
	const char *leaf = strrchr(t->path, '/');

	leaf = leaf ? leaf + 1 : t->path;
	if (tool_owner_is_slice(o) && !strchr(o->below + (o->below[0] == '/'), '/'))
		snprintf(
			buf, size,
			"for a cgroup of your own there, run systemd-run%s --scope --slice=%s -p Delegate=yes --unit=%s sleep infinity and work inside /%s.scope",
			tool_owner_user_flag(o), o->unit, leaf, leaf);
	else if (tool_owner_is_slice(o))
		snprintf(
			buf, size,
			"make a delegated scope in the slice with systemd-run%s --scope --slice=%s -p Delegate=yes COMMAND and work inside it",
			tool_owner_user_flag(o), o->unit);
	else
		snprintf(buf, size,
			 "give %s Delegate=yes (systemctl%s edit %s) and work below its cgroup",
			 o->unit, tool_owner_user_flag(o), o->unit);
	return buf;
}

/*
 * -x on a delegated scope's own cgroup (cgcreate2 --scope's): stop the unit, which signals
 * what runs there and removes the cgroup; such targets leave ts. 0, or the exit code.
 */
static int stop_scopes(struct cgcreate2_args *a, struct cg_targets *ts)
{
	size_t keep = 0;
	int ret = 0;

	for (size_t i = 0; i < ts->n; i++) {
		struct cg_target *t = &ts->t[i];
		struct cg_owner o;
		struct cg_diag d = { 0 };
		int r;

		if (!cg_owner_scope_root(t, &o)) {
			ts->t[keep++] = *t;
			continue;
		}
		r = cg_scope_stop(o.unit, o.user_manager, 0, &d);
		if (r < 0) {
			tool_report(&d, r);
			ret = TOOL_EXIT_FAILED;
		} else if (a->verbose) {
			printf("stopped scope %s%s, cgroup /%s (unified)\n", TOOL_PATH(o.unit),
			       o.user_manager ? " (user)" : "", TOOL_PATH(t->path));
		}
		free(t->path);
		cg_strv_free(t->controllers);
	}
	ts->n = keep;
	return ret;
}

/* The keeper: holds the scope open, in its own session, until the scope is stopped. */
static pid_t start_keeper(void)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	setsid();
	prctl(PR_SET_NAME, "cgcreate2-keep");
	if (chdir("/") < 0)
		_exit(1);
	/* nothing of the caller's held open: not its terminal, not a pipe someone reads to EOF */
	closefrom(0);
	for (;;)
		pause();
}

/*
 * --scope: a scope with Delegate=yes holding a keeper, which then moves into the child
 * "keeper", so that the scope's own cgroup holds no process and may enable controllers for
 * the cgroups made in it (the no-internal-process rule).
 */
static int do_scope(struct cgcreate2_args *a)
{
	char unit[300], slice[300], desc[64], name[PATH_MAX + 2];
	struct cg_scope_opts o = { .unit = unit,
				   .slice = a->slice ? slice : NULL,
				   .description = desc,
				   .user = a->user,
				   .n_pids = 1,
				   .set = &a->set };
	struct cg_layout *l = NULL;
	struct cg_targets ts = { 0 };
	struct cg_journal j = { 0 };
	struct cg_diag d = { 0 };
	_cleanup_free_ char *cg = NULL;
	pid_t keeper;
	int r;

	r = cg_scope_map_check(&a->set, &d);
	if (r < 0) {
		tool_report(&d, r);
		return TOOL_EXIT_USAGE;
	}
	cg_scope_unit_name(unit, sizeof(unit), a->scope, ".scope");
	if (a->slice)
		cg_scope_unit_name(slice, sizeof(slice), a->slice, ".slice");
	snprintf(desc, sizeof(desc), "cgcreate2 --scope");
	keeper = start_keeper();
	if (keeper < 0) {
		tool_say("fork the keeper of scope %s: %s", unit, strerror(errno));
		return TOOL_EXIT_FAILED;
	}
	o.pids = &keeper;
	r = cg_scope_start(&o, &d);
	if (r < 0) {
		tool_report(&d, r);
		kill(keeper, SIGKILL);
		return TOOL_EXIT_FAILED;
	}
	if (tool_layout_load(&l) < 0)
		goto fail;
	r = cg_keeper_place(l, unit, keeper, &cg, &ts, &j, &d);
	if (r < 0) {
		tool_report(&d, r);
		goto fail;
	}
	if (a->verbose)
		printf("started scope %s (Delegate=yes) in cgroup /%s (unified), keeper pid %d in /%s\n",
		       TOOL_PATH(unit), TOOL_PATH(cg), (int)keeper,
		       TOOL_PATH(cg_target_name(&ts.t[0], name, sizeof(name)) + 1));
	else
		printf("/%s\n", TOOL_PATH(cg));
	cg_journal_clear(&j);
	cg_targets_clear(&ts);
	cg_layout_free(l);
	return TOOL_EXIT_OK;
fail:
	/* the scope goes with its keeper */
	kill(keeper, SIGKILL);
	cg_journal_clear(&j);
	cg_targets_clear(&ts);
	cg_layout_free(l);
	return TOOL_EXIT_FAILED;
}

static int run(struct cgcreate2_args *a)
{
	struct cg_layout *l = NULL;
	struct cg_targets ts = { 0 };
	struct cg_assignments acts = { 0 };
	int r;

	if (a->apply) {
		const struct apply_opts o = { a->dry_run, a->force, a->verbose, owner_hint };

		return apply_run(a->apply, &o);
	}
	if (a->mount) {
		r = cg_mount_setup(a->mount_mode, a->verbose ? say_mount : NULL);
		if (r < 0 && r != -EEXIST) {
			tool_say("mount cgroup filesystems at /sys/fs/cgroup: %s", strerror(-r));
			return 1;
		}
		if (r == -EEXIST && !a->quiet) {
			r = cg_layout_load(&l);
			if (r == 0) {
				printf("cgroup filesystems already mounted (%s layout), nothing changed:\n",
				       cg_layout_kind_name(cg_layout_kind(l)));
				for (size_t i = 0; i < l->n; i++)
					printf("  %s %s\n", TOOL_PATH(l->hier[i].mountpoint),
					       l->hier[i].label);
				cg_layout_free(l);
				l = NULL;
			}
		}
		if (!a->specs)
			return 0;
	}
	if (a->scope)
		return do_scope(a);
	if (tool_layout_load(&l) < 0)
		return TOOL_EXIT_FAILED;
	r = tool_specs(l, a->specs, 0, &ts, TOOL_EXIT_FAILED);
	if (r)
		goto out;
	if (!a->remove && !a->parents && (r = root_named(&ts)) != 0)
		goto out;
	r = tool_owner_check(&ts, a->force, a->verbose, owner_hint, NULL);
	if (r)
		goto out;
	if (a->remove && (r = stop_scopes(a, &ts)) != 0)
		goto out;
	if (a->remove)
		r = ts.n ? do_remove(a, l, &ts) : TOOL_EXIT_OK;
	else if (actions_split(&a->set, &acts) < 0)
		r = TOOL_EXIT_FAILED;
	else
		r = do_create(a, l, &ts) < 0 ? TOOL_EXIT_FAILED : TOOL_EXIT_OK;
	/* memory.reclaim, memory.peak: once the cgroup and its settings are there */
	if (!a->remove && r == TOOL_EXIT_OK && acts.n)
		r = actions_run(l, &ts, &acts, a->force, a->verbose);
out:
	cg_assignments_clear(&acts);
	cg_targets_clear(&ts);
	cg_layout_free(l);
	return r;
}

int main(int argc, char **argv)
{
	struct cgcreate2_args a = {
		.grace_ns = CG_KILL_TIMEOUT_NS,
		.perm = { .a_uid = (uid_t)-1,
			  .a_gid = (gid_t)-1,
			  .t_uid = (uid_t)-1,
			  .t_gid = (gid_t)-1 },
	};
	int ret;

	tool_check_stdout(TOOL_EXIT_FAILED);
	ret = tool_parse(&argp, argc, argv, 0, &a, TOOL_EXIT_FAILED);
	if (!ret)
		ret = run(&a);
	free(a.specs);
	cg_strv_free(a.enable);
	cg_assignments_clear(&a.set);
	return ret;
}
