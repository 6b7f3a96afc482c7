// SPDX-License-Identifier: MIT
/* cgexec2: run a command in cgroups, placed before it runs, or in a transient cgroup with limits. */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroups/cgroup.h"
#include "base/cleanup.h"
#include "base/clock.h"
#include "base/error.h"
#include "base/kfile.h"
#include "kernel/file.h"
#include "cgroups/freeze.h"
#include "kernel/mount.h"
#include "cgroups/owner.h"
#include "ops/rules.h"
#include "ops/launch.h"
#include "base/parse.h"
#include "place.h"
#include "cgroups/scope.h"
#include "cgroups/setup.h"
#include "kernel/spec.h"
#include "base/strv.h"
#include "tool.h"
#include "usage.h"

TOOL_ARGP_VERSION("cgexec2");

/* env(1)'s convention, which DESIGN.md adopts: 125 is cgexec2's own failure (usage: 64) */
#define EXIT_CGEXEC 125

/* After the kill: how long COMMAND itself may take to be reaped before cgexec2 gives up. */
#define REAP_TIMEOUT_NS (1 * NSEC_PER_SEC)

enum {
	OPT_KEEP = 0x100,
	OPT_STICKY,
	OPT_NO_CLONE3,
	OPT_SLICE,
	OPT_USER,
	OPT_NO_SYSTEMD,
	OPT_NAME,
};

struct cgexec2_args {
	char **specs;
	struct cg_assignments set; /* -r FILE=VALUE */
	bool transient, stats, keep, sticky, verbose, no_clone3, user, no_systemd;
	char *name; /* --name=NAME, -tNAME, --transient=NAME */
	char *slice; /* --slice=SLICE */
	char **argv; /* COMMAND [ARG...], borrowed from main's argv */
};

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Where COMMAND runs:", 1 },
	{ "group", 'g', "CONTROLLERS:PATH", 0,
	  "Cgroup to run in; CONTROLLERS is a comma list, name=NAME or *; empty (:PATH) is the cgroup v2 hierarchy; a bare PATH is the unified hierarchy where one is mounted (on hybrid with its v1 twins, where the limits are); repeatable (one cgroup per hierarchy)",
	  1 },
	{ "transient", 't', "NAME", OPTION_ARG_OPTIONAL,
	  "Run in a new child cgroup (default name cgexec2-PID) of the -g cgroups, or of the root; wait for COMMAND, then kill what is left in it and remove it. A word after a bare -t is COMMAND, never a name: a NAME is attached (-tNAME, --transient=NAME) or given with --name",
	  1 },
	{ "name", OPT_NAME, "NAME", 0, "The transient cgroup's name, a plain name (implies -t)",
	  1 },
	{ "set", 'r', "FILE=VALUE", TOOL_OPTION_WHOLE,
	  "Write an interface file (FILE: its name, as pids.max) of the transient cgroup before COMMAND starts (implies -t); CPU names (cpu.weight, cpu.max, ...) are translated on v1; on v2 the controller is enabled on the way down; repeatable",
	  1 },
	{ "keep", OPT_KEEP, 0, 0, "Leave the transient cgroup and what runs in it", 1 },
	{ 0, 0, 0, 0, "Where systemd runs (-t without -g):", 3 },
	{ "slice", OPT_SLICE, "SLICE", 0,
	  "Start the transient scope in SLICE (\"a\" is a.slice), not the manager's default", 3 },
	{ "user", OPT_USER, 0, 0,
	  "Ask the calling user's systemd (the user bus), not the system's: no root needed", 3 },
	{ "no-systemd", OPT_NO_SYSTEMD, 0, 0,
	  "Make the transient cgroup directly in cgroupfs, as on hosts without systemd", 3 },
	{ "sticky", OPT_STICKY, 0, TOOL_OPTION_WHOLE,
	  "Tell a running cgrulesengd not to move COMMAND or its children (as libcgroup's cgexec)",
	  1 },
	{ 0, 0, 0, 0, "Output:", 2 },
	{ "stats", 's', 0, 0,
	  "After COMMAND exits, print a usage summary on stderr: wall time, CPU user/system, peak memory, IO bytes, peak tasks, OOM kills (each where the kernel exposes it)",
	  2 },
	{ "verbose", 'v', 0, 0,
	  "Say where COMMAND was placed, and how; after a wait, the OOM kills counted in its cgroup",
	  2 },
	{ "no-clone3", OPT_NO_CLONE3, 0, 0,
	  "Place a waited-for COMMAND by moving it, never by clone3(CLONE_INTO_CGROUP)", 2 },
	TOOL_OPTION_HELP,
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cgexec2_args *a = state->input;
	int r;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'g':
		if (cg_strv_push(&a->specs, arg) < 0)
			return ENOMEM;
		break;
	case 't':
	case OPT_NAME:
		a->transient = true;
		if (arg) {
			_cleanup_free_ char *norm = NULL;

			if (!cg_name_is_plain(arg) || cg_path_normalize(arg, &norm) < 0 ||
			    strcmp(norm, arg))
				argp_error(
					state,
					"%s takes a plain cgroup name (no '/', not '.' or '..', no control characters), not '%s'",
					key == 't' ? "--transient=NAME" : "--name",
					TOOL_SHOWN(arg));
			if (a->name && strcmp(a->name, arg))
				argp_error(state,
					   "two names for the transient cgroup: '%s' and '%s'",
					   TOOL_SHOWN(a->name), TOOL_SHOWN(arg));
			a->name = arg;
		}
		break;
	case 'r': {
		r = cg_assignments_add(&a->set, arg);
		if (r == -ENOMEM)
			return ENOMEM;
		if (r < 0)
			argp_error(state, TOOL_SET_USAGE, TOOL_SHOWN(arg));
		a->transient = true;
		break;
	}
	case 's':
		a->stats = true;
		break;
	case OPT_KEEP:
		a->keep = true;
		break;
	case OPT_STICKY:
		a->sticky = true;
		break;
	case 'v':
		a->verbose = true;
		break;
	case OPT_NO_CLONE3:
		a->no_clone3 = true;
		break;
	case OPT_SLICE:
		if (!*arg || strchr(arg, '/'))
			argp_error(state, "--slice takes a slice unit's name, not '%s'",
				   TOOL_SHOWN(arg));
		a->slice = arg;
		a->transient = true;
		break;
	case OPT_USER:
		a->user = true;
		a->transient = true;
		break;
	case OPT_NO_SYSTEMD:
		a->no_systemd = true;
		break;
	case ARGP_KEY_ARG:
		/* COMMAND: everything from here on is its own, options included */
		a->argv = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!a->argv)
			argp_error(state, "no COMMAND given");
		if (a->keep && !a->transient)
			argp_error(state,
				   "--keep is about the transient cgroup: use it with -t or -r");
		if ((a->slice || a->user) && (a->no_systemd || a->specs))
			argp_error(
				state,
				"--slice and --user ask systemd for a scope: not with --no-systemd or -g");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[--] COMMAND [ARG...]",
	.doc = "Run COMMAND in cgroups. It is placed before its first instruction: spawned straight into the unified cgroup with clone3(CLONE_INTO_CGROUP), or cgexec2 moves itself into every cgroup, checks /proc/self/cgroup and execs it (keeping its PID) when nothing has to be waited for. Without -g and -t the cgroups come from the rules in /etc/cgrules.conf, as for libcgroup's cgexec. Options end at COMMAND.\vExit status: COMMAND's; 128+N when it died of signal N (a line says so when the OOM killer killed it, or killed processes of its cgroup, in a run cgexec2 waits for); 64 usage error (a bad option, an unknown or unmounted controller in -g); 125 when cgexec2 failed (a cgroup it could not use); 126 COMMAND not executable; 127 COMMAND not found.\n\n"
	       "Examples:\n"
	       "  cgexec2 -g cpu,pids:batch make -j8\n"
	       "  cgexec2 -r pids.max=64 -r memory.max=1G -s ./build.sh\n"
	       "  cgexec2 -g services --name=web --keep /usr/sbin/httpd",
};

/* -v: one line per cgroup, with how COMMAND got there */
static void say_placed(const struct cg_targets *t, pid_t pid, bool exec, bool cloned_into)
{
	char where[PATH_MAX + 2];

	for (size_t i = 0; i < t->n; i++) {
		const struct cg_target *x = &t->t[i];
		const char *how = "moved there before it could exec";

		if (exec)
			how = "cgexec2 moved itself there, then exec'd COMMAND";
		else if (cloned_into && x->hier->version == 2)
			how = "spawned there by clone3(CLONE_INTO_CGROUP)";

		tool_say("pid %d in %s (%s): %s", (int)pid, cg_target_name(x, where, sizeof(where)),
			 x->hier->label, how);
	}
}

/*
 * cgexec2's own lines (-v, --stats, errors) into a pipe whose reader has gone must not end it
 * between the spawn and the cleanup: SIGPIPE's default action left COMMAND running, reparented,
 * and the transient cgroup behind (cgexec2 -t -v ... 2>&1 | true). It is ignored, so such a
 * write fails with EPIPE, which changes nothing (the same wait, the same cleanup, COMMAND's
 * status), and COMMAND gets back the disposition cgexec2 was started with.
 */
/*
 * Whether SIGPIPE was at its default when cgexec2 started. A flag, not a sigset kept for the
 * exec path: sigemptyset, sigaddset and sigismember were three more libc functions bound
 * lazily at every run (about 600 instructions each, issue 46); the set is built when a child is
 * spawned (cg_spawn_opts.child_default).
 */
static bool pipe_was_default;

static void sigpipe_ignore(void)
{
	pipe_was_default = signal(SIGPIPE, SIG_IGN) != SIG_IGN;
}

/* before an exec in place */
static void sigpipe_restore(void)
{
	if (pipe_was_default)
		signal(SIGPIPE, SIG_DFL);
}

static int sticky_hook(pid_t pid, void *userdata, struct cg_diag *d)
{
	return cg_rules_sticky(pid, true, d);
}

/* COMMAND outlived its SIGKILL: one line, with the frozen cgroup that explains it. */
static void gave_up(const struct cg_targets *t, pid_t pid, bool transient)
{
	struct cg_diag f;
	char hint[sizeof(f.where) + sizeof(f.hier) + 64] = "";

	if (cg_targets_frozen(t, &f) == 0) {
		tool_say("pid %d: wait: still there after SIGKILL; cgexec2 gives up", (int)pid);
		return;
	}
	if (transient)
		snprintf(hint, sizeof(hint),
			 " (then remove the cgroup: cgcreate2 -x -R -k -g %s:%s)", f.hier, f.where);
	tool_say(
		"cgroup %s (%s): wait for pid %d: %s; cgexec2 gives up, pid %d ends once it is thawed%s",
		f.where, f.hier, (int)pid, f.why, (int)pid, hint);
}

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * 1000ULL;
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_CGEXEC;
}

/*
 * The OOM killer in the cgroups of a waited-for COMMAND, said in one line as systemd-run does:
 * COMMAND killed by it (SIGKILL, and memory.events or v1 memory.oom_control count a kill), or
 * processes of its own killed; on v1 without an oom_kill count, memory.failcnt as a hint. -v
 * gives the count even when it is 0.
 */
static void say_oom(const struct cgexec2_args *a, const struct cg_targets *t,
		    const struct cg_usage *u, int status)
{
	const struct cg_target *x = &t->t[u->oom_at];
	bool sigkill = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	char where[PATH_MAX + 2], lim[32], limit[64] = "";
	const char *show = TOOL_SHOWN(a->argv[0]);

	if (!(u->have & (CG_USAGE_OOM_KILL | CG_USAGE_MEM_FAILCNT)))
		return;
	cg_target_name(x, where, sizeof(where));
	if (u->have & CG_USAGE_MEM_MAX)
		snprintf(limit, sizeof(limit), " (%s %s)",
			 cg_kf_name(cg_kv_src(CG_KV_MEM_MAX, x->hier->version)->file),
			 cg_usage_format_limit(u->mem_max, lim, sizeof(lim)));
	if (a->verbose)
		tool_say("cgroup %s (%s): %s=%" PRIu64 " (%s)", where, x->hier->label,
			 u->have & CG_USAGE_OOM_KILL ? "oom_kill" : "memory_failcnt",
			 u->have & CG_USAGE_OOM_KILL ? u->oom_kill : u->mem_failcnt,
			 u->have & CG_USAGE_OOM_KILL
				 ? cg_kf_name(
					   cg_kv_src(CG_KV_MEM_EV_OOM_KILL, x->hier->version)->file)
				 : "memory.failcnt: this kernel counts no OOM kills");
	if ((u->have & CG_USAGE_OOM_KILL) && u->oom_kill && sigkill)
		tool_say("cgroup %s (%s): run %s: the command was killed by the OOM killer%s",
			 where, x->hier->label, show, limit);
	else if ((u->have & CG_USAGE_OOM_KILL) && u->oom_kill)
		tool_say("cgroup %s (%s): run %s: the OOM killer killed %" PRIu64
			 " process%s in it%s",
			 where, x->hier->label, show, u->oom_kill, u->oom_kill == 1 ? "" : "es",
			 limit);
	else if ((u->have & CG_USAGE_MEM_FAILCNT) && u->mem_failcnt && sigkill)
		tool_say(
			"cgroup %s (%s): run %s: the command was killed by SIGKILL after the cgroup hit its memory limit %" PRIu64
			" time%s (memory.failcnt), likely by the OOM killer%s",
			where, x->hier->label, show, u->mem_failcnt, u->mem_failcnt == 1 ? "" : "s",
			limit);
}

static int run_waiting(struct cgexec2_args *a, struct cg_targets *t, bool cleanup,
		       struct cg_journal *j, const sigset_t *oldmask, const sigset_t *set)
{
	sigset_t pipe_default;
	struct cg_spawn_opts so = {
		.child_mask = oldmask,
		.child_default = &pipe_default,
		.no_clone3 = a->no_clone3,
		.before_exec = a->sticky ? sticky_hook : NULL,
	};
	struct cg_usage before = { 0 }, after = { 0 };
	struct cg_child c;
	struct cg_diag d = { 0 };
	struct rusage ru;
	const struct cg_forward_opts fo = {
		.set = set, .t = t, .own_cgroups = cleanup, .reap_timeout_ns = REAP_TIMEOUT_NS
	};
	sigset_t stop = *set;
	uint64_t t0, wall;
	int r, status;

	/* any forwarded signal ends the wait for the exec: cg_child_wait_forwarding() takes it */
	sigdelset(&stop, SIGCHLD);
	so.stop_signals = &stop;
	/* COMMAND gets back the SIGPIPE disposition cgexec2 was started with */
	sigemptyset(&pipe_default);
	if (pipe_was_default)
		sigaddset(&pipe_default, SIGPIPE);

	/* a transient cgroup counts from 0; an existing one, from what it had (OOM kills too) */
	if (!cleanup)
		(void)cg_usage_read(t, &before);
	t0 = cg_now_ns();
	r = cg_spawn(t, a->argv, &so, &c, &d);
	if (r < 0) {
		tool_report(&d, r);
		cg_journal_rollback(j);
		return EXIT_CGEXEC;
	}
	if (c.exec_errno) {
		tool_say("%s: %s", TOOL_SHOWN(a->argv[0]), strerror(c.exec_errno));
		/* it exits right after its report; bounded all the same (a freeze in between) */
		(void)cg_child_wait(&c, &status, NULL, CG_KILL_TIMEOUT_NS);
		cg_child_close(&c);
		/* COMMAND never ran: take back what this call made, --keep or not */
		cg_journal_rollback(j);
		return cg_exec_errno_status(c.exec_errno);
	}
	if (a->verbose)
		say_placed(t, c.pid, false, c.cloned_into);
	status = cg_child_wait_forwarding(&c, &fo, &ru);
	wall = cg_now_ns() - t0;
	cg_child_close(&c);
	if (status == -ETIMEDOUT) {
		gave_up(t, c.pid, cleanup);
		/* it may be gone by now; if not, the line above says how to clean up */
		if (cleanup)
			(void)cg_targets_remove(t, NULL, NULL);
		cg_journal_clear(j);
		return EXIT_CGEXEC;
	}
	/* leftovers first, so that the summary counts what they did too */
	if (cleanup)
		(void)cg_targets_kill(t, tool_report_fn, NULL);
	r = cg_usage_read(t, &after);
	if (r == 0)
		cg_usage_delta(&before, &after);
	if (a->stats) {
		char buf[512];

		if (r < 0) {
			tool_say("stats: cannot read the cgroups' usage: %s", strerror(-r));
		} else {
			/* no cgroup of ours counts CPU (hybrid, v1 without cpuacct): COMMAND's own */
			if (!(after.have & CG_USAGE_CPU)) {
				after.user_ns = timeval_ns(&ru.ru_utime);
				after.system_ns = timeval_ns(&ru.ru_stime);
				after.have |= CG_USAGE_CPU;
			}
			fprintf(stderr, "cgexec2: stats: %s\n",
				cg_usage_format(&after, wall, buf, sizeof(buf)));
		}
	}
	/* the last line: why COMMAND ended, when the OOM killer is the reason */
	if (r == 0)
		say_oom(a, t, &after, status);
	if (cleanup) {
		(void)cg_targets_remove(t, tool_report_fn, NULL);
		/* the controllers enabled on the way down stay: a sibling may rely on them now */
		cg_journal_clear(j);
	}
	return exit_status(status);
}

/*
 * --stats in a scope: COMMAND cannot take our place, as the summary is ours to print after it.
 * It runs as a child in the scope's cgroup (where we are now); the scope is systemd's, so
 * nothing is removed after it: the scope ends when the last of us does.
 */
static int run_scope_waiting(struct cgexec2_args *a, pid_t self, const char *unit,
			     const sigset_t *oldmask, const sigset_t *set)
{
	struct cg_layout *l = NULL;
	struct cg_targets t = { 0 };
	struct cg_journal j = { 0 };
	struct cg_diag d = { 0 };
	_cleanup_free_ char *cg = NULL, *spec = NULL;
	int r, ret = EXIT_CGEXEC;

	if (tool_layout_load(&l) < 0)
		goto out;
	r = l->unified ? cg_pid_cgroup(l->unified, self, 0, &cg) : -ENOENT;
	if (r < 0) {
		tool_say("--stats: scope %s: cannot find its cgroup: %s", unit, strerror(-r));
		goto out;
	}
	if (asprintf(&spec, "/%s", cg) < 0) {
		spec = NULL;
		tool_say("--stats: %s", strerror(ENOMEM));
		goto out;
	}
	r = cg_spec_parse(l, spec, &t, &d);
	if (r < 0) {
		tool_report(&d, r);
		goto out;
	}
	ret = run_waiting(a, &t, false, &j, oldmask, set);
out:
	cg_journal_clear(&j);
	cg_targets_clear(&t);
	cg_layout_free(l);
	return ret;
}

/*
 * -t on a systemd host: a scope with Delegate=yes that holds cgexec2 itself, started and waited
 * for over D-Bus, then COMMAND in place (its PID is cgexec2's): nothing left to wait for, the
 * scope ends when its last process does, as for systemd-run --scope.
 */
static int run_scope(struct cgexec2_args *a)
{
	char unit[300], slice[300], desc[256], pidname[64];
	pid_t self = getpid();
	struct cg_scope_opts o = {
		.unit = unit,
		.slice = a->slice ? slice : NULL,
		.description = desc,
		.user = a->user,
		.pids = &self,
		.n_pids = 1,
		.set = &a->set,
	};
	struct cg_diag d = { 0 };
	int r;

	sigset_t set, oldmask;

	/* every -r is checked before systemd is asked for anything */
	r = cg_scope_map_check(&a->set, &d);
	if (r < 0) {
		size_t n = strlen(d.why);

		snprintf(d.why + n, sizeof(d.why) - n, "; --no-systemd writes it directly");
		tool_report(&d, r);
		return EXIT_CGEXEC;
	}
	snprintf(pidname, sizeof(pidname), "cgexec2-%d", (int)self);
	cg_scope_unit_name(unit, sizeof(unit), a->name ? a->name : pidname, ".scope");
	if (a->slice)
		cg_scope_unit_name(slice, sizeof(slice), a->slice, ".slice");
	snprintf(desc, sizeof(desc), "cgexec2 %s", a->argv[0]);
	if (a->stats) {
		/* as run()'s wait: blocked before the scope holds us, so no SIGTERM is lost */
		cg_forward_set(&set);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_BLOCK, &set, &oldmask);
	}
	r = cg_scope_start(&o, &d);
	if (r < 0) {
		tool_report(&d, r);
		return EXIT_CGEXEC;
	}
	if (a->stats)
		return run_scope_waiting(a, self, unit, &oldmask, &set);
	if (a->verbose) {
		struct cg_layout *l = NULL;
		_cleanup_free_ char *cg = NULL;

		if (cg_layout_load(&l) == 0 && l->unified &&
		    cg_pid_cgroup(l->unified, self, 0, &cg) == 0)
			tool_say(
				"pid %d in /%s (unified): systemd%s started scope %s with it (Delegate=yes), then cgexec2 exec'd COMMAND",
				(int)self, cg, a->user ? " (user)" : "", unit);
		cg_layout_free(l);
	}
	fflush(NULL);
	sigpipe_restore();
	execvp(a->argv[0], a->argv);
	r = errno;
	sigpipe_ignore();
	tool_say("%s: %s", TOOL_SHOWN(a->argv[0]), strerror(r));
	return cg_exec_errno_status(r);
}

static int run(struct cgexec2_args *a)
{
	struct cg_layout *l = NULL;
	struct cg_targets t = { 0 };
	struct cg_journal j = { 0 };
	struct cg_diag d = { 0 };
	struct cg_place_opts po = { .transient = a->transient,
				    .set = &a->set,
				    .command = a->argv[0] };
	char name[64];
	bool wait, cleanup;
	sigset_t set, oldmask;
	int r, ret = EXIT_CGEXEC;

	if (a->transient && !a->specs && !a->no_systemd && (a->user || cg_systemd_running()))
		return run_scope(a);
	if (a->slice) {
		tool_say("--slice: no systemd runs here (/run/systemd/system is missing)");
		return EXIT_CGEXEC;
	}
	if (tool_layout_load(&l) < 0)
		return EXIT_CGEXEC;
	/* on hybrid, a bare PATH is the cgroup with its v1 twins: where its limits are */
	ret = tool_specs(l, a->specs, CG_SPEC_TWINS | CG_SPEC_NEAREST, &t, EXIT_CGEXEC);
	if (ret)
		goto out;
	ret = EXIT_CGEXEC;
	po.named = a->specs != NULL;
	r = cg_place_targets(l, &po, &t, &d);
	if (r < 0)
		goto fail_report;
	if (a->verbose && !a->specs && !a->transient && !t.n)
		fprintf(stderr,
			"cgexec2: an ignore rule in /etc/cgrules.conf keeps COMMAND where cgexec2 is\n");

	cleanup = a->transient && !a->keep;
	wait = cleanup || a->stats;
	if (wait) {
		/*
		 * Blocked from before the transient cgroup exists, so that a SIGTERM meanwhile is
		 * not lost: it reaches the child, and the cleanup still runs.
		 */
		cg_forward_set(&set);
		/* an inherited SIG_IGN for SIGCHLD would reap the child behind our back */
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_BLOCK, &set, &oldmask);
	}
	if (a->transient) {
		snprintf(name, sizeof(name), "cgexec2-%d", (int)getpid());
		r = cg_place_transient(l, &t, a->name ? a->name : name, &a->set, &j, &d);
		if (r < 0)
			goto fail_rollback;
	}
	if (wait) {
		ret = run_waiting(a, &t, cleanup, &j, &oldmask, &set);
		goto out;
	}

	/* nothing to wait for: become COMMAND, in place, with our PID */
	if (a->sticky && (r = cg_rules_sticky(getpid(), true, &d)) < 0)
		goto fail_rollback;
	r = cg_self_move(&t, &d);
	if (r < 0)
		goto fail_rollback;
	if (a->verbose)
		say_placed(&t, getpid(), true, false);
	/* no freeing first: exec discards the memory, and every fd we hold is close-on-exec */
	fflush(NULL);
	sigpipe_restore();
	execvp(a->argv[0], a->argv);
	r = errno;
	sigpipe_ignore();
	tool_say("%s: %s", TOOL_SHOWN(a->argv[0]), strerror(r));
	ret = cg_exec_errno_status(r);
	goto out;

fail_rollback:
	tool_report(&d, r);
	cg_journal_rollback(&j);
	goto out;
fail_report:
	tool_report(&d, r);
out:
	cg_journal_clear(&j);
	cg_targets_clear(&t);
	cg_layout_free(l);
	return ret;
}

/*
 * The common form, "-g SPEC COMMAND [ARG...]", read without argp: what argp_parse sets up (its
 * option tables converted, the help's state) is about 12,000 instructions and a few first-touched
 * pages of a run whose whole floor is 130,000 (bench/RESULTS-floors.md). It is what argp makes
 * of the same words (-g takes the next word whatever it is; a word not starting with '-' is
 * COMMAND, and options end there); every other form, and every error, goes through argp.
 */
static bool parse_common_form(int argc, char **argv, struct cgexec2_args *a)
{
	if (argc < 4 || strcmp(argv[1], "-g") || argv[3][0] == '-')
		return false;
	if (cg_strv_push(&a->specs, argv[2]) < 0)
		return false;
	a->argv = argv + 3;
	return true;
}

int main(int argc, char **argv)
{
	struct cgexec2_args a = { 0 };
	int ret;

	sigpipe_ignore();
	/*
	 * The common form -g SPEC COMMAND without argp's set-up (bench/RESULTS-floors.md), and
	 * without the check of stdout at exit: that form writes nothing to stdout (its lines, and
	 * COMMAND's failure, go to stderr), so there is nothing to check, and the check's isatty,
	 * setvbuf and atexit were a system call and three first-touched pages of libc (issue 46).
	 */
	if (parse_common_form(argc, argv, &a)) {
		ret = 0;
	} else {
		tool_check_stdout(EXIT_CGEXEC);
		ret = tool_parse(&argp, argc, argv, ARGP_IN_ORDER, &a, EXIT_CGEXEC);
	}
	if (!ret)
		ret = run(&a);
	cg_strv_free(a.specs);
	cg_assignments_clear(&a.set);
	return ret;
}
