// SPDX-License-Identifier: MIT
/* cgmigrate: move processes or single threads into cgroups, or drain a cgroup, and verify. */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "cgroups/freeze.h"
#include "ops/drain.h"
#include "ops/migrate.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "ops/rules.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "tool.h"
#include "tool_owner.h"

TOOL_ARGP_VERSION("cgmigrate");

enum {
	OPT_THREADS_OF = 0x100,
	OPT_MATCH,
	OPT_ROUNDS,
	OPT_STICKY,
	OPT_CANCEL_STICKY,
	OPT_NO_VERIFY,
	OPT_TIMEOUT,
	OPT_FORCE,
};

struct cgmigrate_args {
	char **specs;
	char **pidfiles; /* "-" is stdin */
	pid_t *ids;
	size_t n_ids, cap_ids;
	bool thread, recursive, freeze, verbose, no_verify, force;
	pid_t threads_of;
	const char *match;
	const char *from;
	unsigned rounds;
	uint64_t timeout_ns;
	int sticky; /* 1 --sticky, -1 --cancel-sticky */
};

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Where to:", 1 },
	{ "group", 'g', "CONTROLLERS:PATH", 0,
	  "Target cgroup; CONTROLLERS is a comma list, name=NAME or *; empty (:PATH) is the cgroup v2 hierarchy; a bare PATH is the unified hierarchy where one is mounted (on hybrid with its v1 twins, where the limits are); repeatable (one cgroup per hierarchy). Without -g, /etc/cgrules.conf decides for each process (as libcgroup's cgclassify)",
	  1 },
	{ 0, 0, 0, 0, "What moves:", 2 },
	{ "pidfile", 'p', "FILE", 0, "Read ids from FILE, one a line ('-' is stdin); repeatable",
	  2 },
	{ "thread", 'T', 0, 0,
	  "The ids are thread ids: move only those threads (v2 cgroup.threads: the target must be in the threaded subtree of the thread's process; v1 tasks)",
	  2 },
	{ "threads-of", OPT_THREADS_OF, "PID", 0, "Move the threads of process PID (implies -T)",
	  2 },
	{ "match", OPT_MATCH, "GLOB", 0,
	  "With --threads-of: only the threads whose name (/proc/PID/task/TID/comm) matches the shell pattern GLOB",
	  2 },
	{ "no-verify", OPT_NO_VERIFY, 0, 0,
	  "Trust the kernel's answer to each move: no listing or /proc check after (an id the kernel does not find counts as gone, a zombie as moved)",
	  2 },
	{ 0, 0, 0, 0, "Drain a cgroup:", 3 },
	{ "from", 'F', "CONTROLLERS:PATH", TOOL_OPTION_WHOLE,
	  "Move every process of this cgroup into the target, listing it again until it is empty (children forked meanwhile are caught too)",
	  3 },
	{ "recursive", 'R', 0, TOOL_OPTION_WHOLE, "With --from: the source's whole subtree", 3 },
	{ "freeze", 'z', 0, TOOL_OPTION_WHOLE,
	  "With --from: freeze the source first (v2 cgroup.freeze, v1 freezer.state of the same path in the freezer hierarchy), and the target while the processes move, so nothing forks; thawed at the end, also on error, SIGINT and SIGTERM",
	  3 },
	{ "rounds", OPT_ROUNDS, "N", 0, "With --from: give up after N rounds (default 100)", 3 },
	{ "timeout", OPT_TIMEOUT, "DURATION", 0,
	  "With --from: give up after DURATION (seconds, or with a unit: 500ms, 2min; default 30s). Against a forking workload use --freeze",
	  3 },
	{ 0, 0, 0, 0, "cgrulesengd:", 4 },
	{ "sticky", OPT_STICKY, 0, TOOL_OPTION_WHOLE,
	  "Tell a running cgrulesengd to leave the processes (and their children) where they are",
	  4 },
	{ "cancel-sticky", OPT_CANCEL_STICKY, 0, TOOL_OPTION_WHOLE,
	  "Let cgrulesengd move them again", 4 },
	{ 0, 0, 0, 0, "Output and safety:", 5 },
	{ "verbose", 'v', 0, 0,
	  "Print a summary: moved N processes (M threads), K gone, F failed; first who owns each cgroup inside a systemd unit",
	  5 },
	{ "force", OPT_FORCE, 0, TOOL_OPTION_WHOLE,
	  "Move into or out of a systemd unit's cgroup that is not delegated (refused otherwise: systemd owns it)",
	  5 },
	TOOL_OPTION_HELP,
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cgmigrate_args *a = state->input;
	uint64_t u;
	pid_t pid;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'g':
		if (cg_strv_push(&a->specs, arg) < 0)
			argp_failure(state, TOOL_EXIT_USAGE, ENOMEM, "-g");
		break;
	case 'p':
		if (cg_strv_push(&a->pidfiles, arg) < 0)
			argp_failure(state, TOOL_EXIT_USAGE, ENOMEM, "-p");
		break;
	case 'T':
		a->thread = true;
		break;
	case OPT_THREADS_OF:
		if (cg_parse_pid(arg, &a->threads_of) < 0) {
			argp_error(state, "--threads-of: '%s' is not a process id",
				   TOOL_SHOWN(arg));
		}
		a->thread = true;
		break;
	case OPT_MATCH:
		a->match = arg;
		break;
	case 'F':
		a->from = arg;
		break;
	case 'R':
		a->recursive = true;
		break;
	case 'z':
		a->freeze = true;
		break;
	case OPT_ROUNDS:
		if (cg_parse_u64(arg, 1000000, &u) < 0 || u < 1)
			argp_error(state, "--rounds: '%s' is not a number of rounds (1..1000000)",
				   TOOL_SHOWN(arg));
		a->rounds = (unsigned)u;
		break;
	case OPT_TIMEOUT:
		if (cg_parse_seconds(arg, &a->timeout_ns) < 0 || !a->timeout_ns)
			argp_error(
				state,
				"--timeout: '%s' is not a duration above zero (2, 1.5s, 500ms, 2min)",
				TOOL_SHOWN(arg));
		break;
	case OPT_STICKY:
	case OPT_CANCEL_STICKY:
		if (a->sticky)
			argp_error(state, "--sticky and --cancel-sticky exclude each other");
		a->sticky = key == OPT_STICKY ? 1 : -1;
		break;
	case 'v':
		a->verbose = true;
		break;
	case OPT_FORCE:
		a->force = true;
		break;
	case OPT_NO_VERIFY:
		a->no_verify = true;
		break;
	case ARGP_KEY_ARG:
		if (!strcmp(arg, "-")) {
			if (cg_strv_push(&a->pidfiles, "-") < 0)
				argp_failure(state, TOOL_EXIT_USAGE, ENOMEM, "-");
			break;
		}
		if (cg_parse_pid(arg, &pid) < 0) {
			argp_error(state, "'%s' is not a process id", TOOL_SHOWN(arg));
		}
		if (cg_pids_push(&a->ids, &a->n_ids, &a->cap_ids, pid) < 0)
			argp_failure(state, TOOL_EXIT_USAGE, ENOMEM, "%s", arg);
		break;
	case ARGP_KEY_END:
		if (a->match && !a->threads_of)
			argp_error(state, "--match needs --threads-of");
		if (a->from) {
			if (a->n_ids || a->pidfiles || a->thread)
				argp_error(state,
					   "--from drains a cgroup: no ids, -p or -T with it");
			if (!a->specs)
				argp_error(state, "--from needs a target (-g)");
		} else {
			if (a->recursive || a->freeze || a->rounds || a->timeout_ns)
				argp_error(state, "-R, -z, --rounds and --timeout go with --from");
			if (!a->n_ids && !a->pidfiles && !a->threads_of)
				argp_error(state, "no process ids given");
			if (a->threads_of && (a->n_ids || a->pidfiles))
				argp_error(state, "--threads-of takes no other ids");
			if (a->thread && !a->specs)
				argp_error(
					state,
					"--thread needs a target (-g): cgrules.conf classifies whole processes");
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char doc[] =
	"Move processes (every thread) or single threads into cgroups, or drain a cgroup, and verify through /proc what really arrived.\vWhole processes go through cgroup.procs in every target hierarchy (one write per process, never a loop over threads); single threads through cgroup.threads (v2) or tasks (v1). A task that exits during the move counts as gone, not as a failure; an id that never existed is a failure.\n\n"
	"Where systemd runs, a target or --from source inside one of its units that is not delegated is refused (exit 64) unless --force.\n\n"
	"Exit status: 0 every task arrived or was gone; 1 some failed (each failure printed with the kernel rule behind it); 64 usage error or a refused request.";

static struct argp argp = { options, parse_opt, "[PID...]", doc, 0, 0, 0 };

/* Ids from a file or stdin (cg_parse_pid_file): the file's failures are usage errors. */
static int read_ids(struct cgmigrate_args *a, const char *name)
{
	_cleanup_fclose_ FILE *own = NULL;
	struct cg_pid_file_bad bad = { 0 };
	FILE *f = stdin;
	const char *shown = strcmp(name, "-") ? TOOL_SHOWN(name) : "stdin";
	int r;

	if (strcmp(name, "-")) {
		f = own = fopen(name, "re");
		if (!f) {
			tool_say("%s: %s", shown, strerror(errno));
			return TOOL_EXIT_USAGE;
		}
	}
	r = cg_parse_pid_file(f, &a->ids, &a->n_ids, &a->cap_ids, &bad);
	if (r == -EINVAL && bad.text) {
		tool_say("%s:%zu: '%s' is not a process id", shown, bad.line,
			 TOOL_SHOWN_N(bad.text, bad.len));
		free(bad.text);
		return TOOL_EXIT_USAGE;
	}
	if (r == -ENOMEM)
		return 1;
	if (r < 0) {
		tool_say("%s: %s", shown, strerror(-r));
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

/* -v: every hierarchy the ids go to (a bare PATH on hybrid is the cgroup and its twins) */
static void say_targets(const struct cg_targets *t)
{
	char where[PATH_MAX + 2];

	for (size_t i = 0; i < t->n; i++) {
		cg_target_name(&t->t[i], where, sizeof(where));
		printf("%s %s (%s)", i ? "," : "into", TOOL_PATH(where), t->t[i].hier->label);
	}
	if (t->n)
		putchar('\n');
}

/* what systemd offers instead of a move behind its back: its own move, or a new scope */
static const char *owner_hint(const struct cg_target *t, const struct cg_owner *o, void *ctx,
			      char *buf, size_t size)
{
	const struct cgmigrate_args *a = ctx;
	size_t n = 0;
	int k;

	if (tool_owner_is_slice(o) || !a->n_ids) {
		snprintf(
			buf, size,
			"start the work in a scope of its own instead: cgexec2%s -t --slice=%s COMMAND, or systemd-run%s --scope --slice=%s COMMAND",
			tool_owner_user_flag(o), tool_owner_is_slice(o) ? o->unit : "SLICE",
			tool_owner_user_flag(o), tool_owner_is_slice(o) ? o->unit : "SLICE");
		return buf;
	}
	k = snprintf(
		buf, size,
		"ask systemd to move them: busctl%s call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager AttachProcessesToUnit ssau %s '%s' %zu",
		tool_owner_user_flag(o), o->unit, o->below, a->n_ids);
	for (; k > 0 && (size_t)k < size && n < a->n_ids && n < 8; n++)
		k += snprintf(buf + k, size - k, " %d", (int)a->ids[n]);
	if (k > 0 && (size_t)k < size && n < a->n_ids)
		snprintf(buf + k, size - k, " ...");
	return buf;
}

static int drain(const struct cg_layout *l, const struct cgmigrate_args *a,
		 const struct cg_targets *dst)
{
	struct cg_targets src = { 0 };
	struct cg_drain_opts o = { .recursive = a->recursive,
				   .freeze = a->freeze,
				   .max_rounds = a->rounds,
				   .timeout_ns = a->timeout_ns };
	struct cg_move_opts mo = { 0 };
	struct cg_diag d = { 0 };
	sigset_t held, oldmask;
	int rc = 0, r;

	cg_freezer_signals(&held);
	if (a->freeze)
		o.stop = &held;
	/* every member of the source, never an ancestor: a drain empties what the path names */
	r = cg_spec_parse_flags(l, a->from, CG_SPEC_TWINS, &src, &d);
	if (r < 0) {
		tool_report(&d, r);
		return TOOL_EXIT_USAGE;
	}
	r = cg_drain_check(&src, dst, a->recursive, &d);
	if (r < 0) {
		tool_report(&d, r);
		cg_targets_clear(&src);
		return TOOL_EXIT_USAGE;
	}
	/* emptying a unit behind systemd's back is as bad as filling one */
	rc = tool_owner_check(&src, a->force, a->verbose, owner_hint, (void *)a);
	if (rc) {
		cg_targets_clear(&src);
		return rc;
	}
	for (size_t i = 0; i < src.n; i++) {
		struct cg_drain_result res = { 0 };
		char name[4096];

		/*
		 * -z: SIGINT, SIGTERM, SIGHUP and SIGQUIT wait while the source is frozen; the drain
		 * stops for one, thaws, and the mask restored right after delivers it, before
		 * anything is printed, as if it had come unheld.
		 */
		if (a->freeze)
			sigprocmask(SIG_BLOCK, &held, &oldmask);
		r = cg_drain(l, &src.t[i], dst, &o, &res, &d);
		if (a->freeze)
			sigprocmask(SIG_SETMASK, &oldmask, NULL);
		if (cg_moves_report(dst, &mo, res.failures, res.nfailures, tool_report_fn, NULL))
			rc = 1;
		free(res.failures);
		if (r < 0) {
			if (r == -ENOMEM)
				tool_say("%s", strerror(-r));
			else
				tool_report(&d, r);
			rc = 1;
		}
		/* every drain that listed its source says what it did, nothing done included */
		if (a->verbose && res.started)
			printf("moved %zu %s, %zu gone, %zu failed; %s (%s) %s after %u round%s\n",
			       res.moved, tool_plural(res.moved, "process", "processes"), res.gone,
			       res.failed, TOOL_PATH(cg_target_name(&src.t[i], name, sizeof(name))),
			       src.t[i].hier->label, r < 0 || res.left ? "not empty" : "empty",
			       res.rounds, res.rounds == 1 ? "" : "s");
	}
	cg_targets_clear(&src);
	return rc;
}

static int run(struct cgmigrate_args *a)
{
	struct cg_layout *l = NULL;
	struct cg_targets t = { 0 };
	struct cg_move_opts o = { .thread = a->thread,
				  .count_threads = a->verbose,
				  .no_verify = a->no_verify };
	struct cg_move_summary sum = { 0 };
	struct cg_move *m = NULL;
	struct cg_diag d = { 0 };
	int rc = 0, r;

	if (tool_layout_load(&l) < 0)
		return TOOL_EXIT_FAILED;
	/* on hybrid, a bare PATH is the cgroup with its v1 twins: where its limits are */
	rc = tool_specs(l, a->specs, CG_SPEC_TWINS | CG_SPEC_NEAREST, &t, TOOL_EXIT_FAILED);
	if (rc)
		goto out;
	if (a->verbose)
		say_targets(&t);
	if (a->from) {
		rc = tool_owner_check(&t, a->force, a->verbose, owner_hint, a);
		if (!rc)
			rc = drain(l, a, &t);
		goto out;
	}
	for (char **f = a->pidfiles; f && *f; f++) {
		rc = read_ids(a, *f);
		if (rc)
			goto out;
	}
	if (a->threads_of) {
		pid_t *tids = NULL;
		size_t n = 0;

		r = cg_threads_of(a->threads_of, a->match, &tids, &n);
		if (r < 0) {
			tool_say("threads of process %d: %s", (int)a->threads_of, strerror(-r));
			rc = 1;
			goto out;
		}
		if (!n) {
			tool_say("process %d has no thread named like '%s'", (int)a->threads_of,
				 a->match ? a->match : "*");
			free(tids);
			rc = 1;
			goto out;
		}
		free(a->ids);
		a->ids = tids;
		a->n_ids = a->cap_ids = n;
		/* a thread that ends between the listing and its move is gone, not a failure */
		o.listed = true;
	}
	if (!a->n_ids) {
		tool_say("no process ids given");
		rc = TOOL_EXIT_USAGE;
		goto out;
	}
	rc = tool_owner_check(&t, a->force, a->verbose, owner_hint, a);
	if (rc)
		goto out;
	m = calloc(a->n_ids, sizeof(*m));
	if (!m) {
		rc = 1;
		goto out;
	}
	for (size_t k = 0; k < a->n_ids; k++)
		m[k].id = a->ids[k];
	/* as cgclassify: tell the daemon first, so it does not undo the move it is about to see */
	for (size_t k = 0; a->sticky && k < a->n_ids; k++) {
		r = cg_rules_sticky(a->ids[k], a->sticky > 0, &d);
		if (r < 0) {
			tool_report(&d, r);
			rc = 1;
		}
	}
	if (a->sticky && a->verbose && !cg_rules_daemon_running())
		printf("no cgrulesengd is running: --%s had nobody to tell\n",
		       a->sticky > 0 ? "sticky" : "cancel-sticky");
	if (!a->specs) {
		/* without -g: each process where cgrules.conf sends it */
		if (cg_rules_move(l, &o, m, a->n_ids, &sum, tool_report_fn, NULL))
			rc = 1;
	} else {
		r = cg_move_many(&t, &o, m, a->n_ids, &sum, &d);
		if (r < 0) {
			tool_report(&d, r);
			rc = 1;
			goto out;
		}
		if (cg_moves_report(&t, &o, m, a->n_ids, tool_report_fn, NULL))
			rc = 1;
	}
	if (a->verbose) {
		if (a->thread)
			printf("moved %zu %s (of %zu %s), %zu gone, %zu failed\n", sum.threads,
			       tool_plural(sum.threads, "thread", "threads"), sum.processes,
			       tool_plural(sum.processes, "process", "processes"), sum.gone,
			       sum.failed);
		else
			printf("moved %zu %s (%zu %s), %zu gone, %zu failed\n", sum.processes,
			       tool_plural(sum.processes, "process", "processes"), sum.threads,
			       tool_plural(sum.threads, "thread", "threads"), sum.gone, sum.failed);
	}
out:
	cg_moves_free(m, m ? a->n_ids : 0);
	cg_targets_clear(&t);
	cg_layout_free(l);
	return rc;
}

int main(int argc, char **argv)
{
	struct cgmigrate_args a = { 0 };
	int rc;

	tool_check_stdout(TOOL_EXIT_FAILED);
	rc = tool_parse(&argp, argc, argv, 0, &a, TOOL_EXIT_FAILED);
	if (!rc)
		rc = run(&a);
	cg_strv_free(a.specs);
	cg_strv_free(a.pidfiles);
	free(a.ids);
	return rc;
}
