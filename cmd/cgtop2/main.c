// SPDX-License-Identifier: MIT
/* cgtop2: live cgroup statistics, interactive and batch, as text, JSON, CSV or OpenMetrics. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "names/machine.h"
#include "names/netdev.h"
#include "names/runtime.h"
#include "kernel/mount.h"
#include "sampler/stats.h"
#include "tool.h"

#include "pipeline/args.h"
#include "output/batch.h"
#include "output/fields.h"
#include "events/events.h"
#include "output/recorder.h"
#include "output/render.h"
#include "output/report.h"
#include "serve/serve.h"
#include "pipeline/source.h"
#include "events/triggers.h"
#include "screen/screen.h"
#include "kit/kit.h"
#include "options.h"
#include "output/pattern.h"

TOOL_ARGP_VERSION("cgtop2");

/* ---- main ------------------------------------------------------------------------------- */

/*
 * The sampler keeps a stat file open per cgroup and reads it with pread: its fds are its cache,
 * and it takes what RLIMIT_NOFILE allows. A process-wide knob, so the tool turns it, not the
 * library: the soft limit up to the hard one, which needs no privilege. Failing that, the
 * sampler makes do with the soft limit (it falls back to open-read-close).
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The sampler's collectors for a's output: what its format shows, or what --collectors chose. */
static void collectors(const struct cgtop2_args *a, struct cg_stats_opts *so)
{
	so->collectors = a->collectors_set		       ? a->collectors
			 : a->format == FMT_TABLE && !a->serve ? 0
							       : CG_COLL_DEFAULT;
	/* cgkit's exposition has no family of the limits collector's own (JSON and CSV do, and
	 * cAdvisor's CPU spec families) */
	if (!a->collectors_set && a->out.compat != COMPAT_CADVISOR &&
	    (a->serve || a->format == FMT_OPENMETRICS || a->format == FMT_PROMETHEUS))
		so->collectors &= ~(1u << CG_COLL_LIMITS);
	/* the screen's detail pane turns the collectors on: the v1 cpu and cpuset trees they read */
	if (!a->batch && a->format == FMT_TABLE && !a->serve && isatty(STDOUT_FILENO))
		so->may_collect = CG_COLL_DEFAULT | 1u << CG_COLL_IODEVICE;
	/* a recording keeps what any view of it may want: every collector (the journal too; its
	 * rows leave out the tasks, which a daemon would read from /proc every --delay) */
	if ((a->record_file || a->journal_dir) && !a->collectors_set)
		so->collectors = (1u << CG_COLL_N) - 1;
}

/* The live sampler's settings; fd_reserve: fds the exporter's connections need besides. */
static struct cg_stats_opts sampler_opts(const struct cgtop2_args *a, size_t fd_reserve)
{
	struct cg_stats_opts so = {
		.path = a->path,
		.depth = a->depth,
		.threads = a->out.threads,
		.count = a->out.count,
		.own_only = a->own_only,
		.fd_reserve = fd_reserve,
		/* benchmarks compare the cost of reading everything with the floor */
		.always_read = getenv("CGKIT_STATS_ALWAYS_READ") != NULL
	};

	collectors(a, &so);
	return so;
}

static struct batch_opts batch_opts(const struct cgtop2_args *a)
{
	return (struct batch_opts){ .path = a->path,
				    .format = a->format,
				    .iterations = a->iterations,
				    .delay_ns = a->delay_ns,
				    .order = a->order,
				    .order_field = a->order_field,
				    .top = a->top,
				    .at = a->at,
				    .at_ns = a->at_ns,
				    .window = a->window,
				    .replay_file = a->replay_file,
				    .out = a->out };
}

/*
 * The event watcher's settings of a's cgroup, for the kinds asked (its fds and tree mirror the
 * door's): --events's, or --psi-trigger's counter (kinds 1 << CG_EV_PRESSURE).
 */
static struct cg_watch_opts watch_opts(const struct cgtop2_args *a, unsigned kinds)
{
	return (struct cg_watch_opts){ .path = a->path,
				       .kinds = kinds,
				       .interval_ns = a->delay_ns,
				       .thresholds = a->thresholds,
				       .n_thresholds = a->n_thresholds,
				       .triggers = a->triggers,
				       .n_triggers = a->n_triggers };
}

/* Whether a source goes to the screen (on a terminal) rather than to batch output. */
static bool interactive(const struct cgtop2_args *a)
{
	return !a->batch && a->format == FMT_TABLE && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/*
 * A source goes to the recorder, the screen on a terminal, or else batch output; trig: the
 * screen's --psi-trigger counter, or NULL.
 */
static int drive(const struct cgtop2_args *a, struct source *src, struct trig_counter *trig)
{
	struct batch_opts bo = batch_opts(a);
	int ret;

	if (a->record_file || a->journal_dir) {
		struct record_opts ro = { .path = a->path,
					  .record_file = a->record_file,
					  .journal_dir = a->journal_dir,
					  .record_size = a->record_size,
					  .keep_days = a->keep_days,
					  .journal_cap = a->journal_cap,
					  .delay_ns = a->delay_ns,
					  .iterations = a->iterations,
					  .print = a->batch || a->format_set ? &bo : NULL };

		return record_run(&ro, src);
	}
	/* the screen has its own columns, order and rows */
	if (interactive(a) && (a->top || a->order_field)) {
		tool_say(
			"--top and --order=FIELD apply to batch output (-b, -F, a pipe or a file)");
		return TOOL_EXIT_USAGE;
	}
	if (interactive(a)) {
		struct screen_opts so = { .path = a->path,
					  .order = a->order,
					  .order_set = a->order_set,
					  .delay_set = a->delay_set,
					  .delay_ns = a->delay_ns,
					  .depth = a->depth,
					  .own_only = a->own_only,
					  .collectors_set = a->collectors_set,
					  .tree = a->tree,
					  .read_only = a->read_only,
					  .iterations = a->iterations,
					  .at = a->at,
					  .at_ns = a->at_ns,
					  .trig = trig,
					  .out = a->out };

		ret = tty_run(&so, src);
		/* a terminal ncurses cannot drive (TERM=dumb): batch output, as with -b */
		if (ret != TTY_FALLBACK)
			return ret;
	}
	return batch_run(&bo, src);
}

/* --replay: the recording's samples, as the recording counted them */
static int run_replay(const struct cgtop2_args *args)
{
	struct cgtop2_args a = *args;
	struct source *src = NULL;
	char *msg = NULL;
	struct stat st;
	bool journal = stat(a.replay_file, &st) == 0 && S_ISDIR(st.st_mode);
	int r, ret;

	/* a directory is a journal: the days --begin, --end or --at name, else the newest */
	if (journal)
		r = source_replay_journal(a.replay_file, a.window ? a.begin_ns : a.at_ns, a.end_ns,
					  a.window || a.at, &src, &msg);
	else
		r = source_replay_new(a.replay_file, &src, &msg);
	bool said = msg != NULL;

	if (msg)
		tool_say("%s", msg);
	free(msg);
	if (journal && r < 0 && r != -ENOMEM && !said) {
		tool_say("replay %s: %s", a.replay_file,
			 r == -ENOENT ? "no journal's day file (cgtop2-YYYY-MM-DD.rec.gz) there"
				      : strerror(-r));
		return 1;
	}
	if (r == 0 && a.window && (r = source_replay_window(src, a.begin_ns, a.end_ns)) < 0)
		source_free(src);
	if (r < 0) {
		if (r == -ENOMEM)
			tool_say("replay %s: %s", a.replay_file, strerror(ENOMEM));
		return 1;
	}
	/* the titles and keys of what the recording counted (its first session's) */
	a.out.count = source_info(src)->count;
	a.out.threads = source_info(src)->threads;
	ret = drive(&a, src, NULL);
	source_free(src);
	return ret;
}

static int run(const struct cgtop2_args *args)
{
	struct cg_layout *l = NULL;
	struct source *src = NULL;
	struct serve_pre *pre = NULL;
	struct cgtop2_args eff = *args, *a = &eff;
	struct serve_opts sv;
	struct cg_stats_opts so;
	_cleanup_free_ char *mpath = NULL;
	int r, ret;

	if (a->kit.mode)
		return kit_run(&a->kit);
	if (a->replay_file)
		return run_replay(a);
	/* the screen marks the cgroups whose trigger fired; batch output has no place for it */
	if (a->n_triggers && !a->events && !a->serve && !interactive(a)) {
		tool_say("--psi-trigger needs --events, --listen or the screen (a terminal)");
		return TOOL_EXIT_USAGE;
	}
	if (tool_layout_load(&l) < 0)
		return 1;
	if (!l->n) {
		cg_layout_free(l);
		tool_say("no cgroup filesystem is mounted");
		return 1;
	}
	if (a->machine) {
		struct cg_diag d = { 0 };

		r = cg_machine_cgroup(l, a->machine, &mpath, &d);
		if (r < 0) {
			tool_say("machine %s: %s", TOOL_SHOWN(a->machine), d.why);
			cg_layout_free(l);
			return 1;
		}
		a->path = mpath;
	}
	raise_fd_limit();
	/* a runtime's missing files are no failure (a host without containers), a root asked for is */
	if (!a->events && (r = cg_rt_init(a->runtime_root)) < 0 && a->runtime_root) {
		tool_say("--runtime-root %s: %s", TOOL_SHOWN(a->runtime_root), strerror(-r));
		cg_layout_free(l);
		return 1;
	}
	/* the network families' namespaces (no /proc: none, as on a host without containers) */
	if (!a->events)
		(void)cg_net_init(l);
	if (a->events) {
		struct events_opts eo = { .watch = watch_opts(a, a->event_kinds ? a->event_kinds
										: CG_EV_ALL),
					  .format = a->format,
					  .iterations = a->iterations,
					  .timeout_ns = a->timeout_ns,
					  .exec = a->exec,
					  .verbose = a->verbose };

		ret = events_run(&eo, l);
		cg_layout_free(l);
		return ret;
	}
	sv = (struct serve_opts){ .path = a->path,
				  .listen = a->listen,
				  .web_config = a->web_config,
				  .verbose = a->verbose,
				  .trig = watch_opts(a, 1u << CG_EV_PRESSURE),
				  .out = a->out };
	if (a->serve && serve_prepare(&sv, &pre) != 0) {
		cg_layout_free(l);
		return 1;
	}
	/* the exporter's connections take fds the sampler's cache must leave free */
	so = sampler_opts(a, serve_fds(pre));
	/* a replay's detail pane lists any cgroup's tasks: a recording keeps them all */
	r = source_live_new(&so, a->delay_ns, a->record_file != NULL, l, &src);
	if (r < 0) {
		serve_pre_free(pre);
		ret = report_open(a->path, l, r);
		cg_layout_free(l);
		return ret;
	}
	if (a->verbose)
		fprintf(stderr, "%s: %s layout; %s\n", program_invocation_short_name,
			cg_layout_kind_name(cg_layout_kind(l)), source_describe(src));
	if (a->serve) {
		ret = serve_run(&sv, l, src, pre);
	} else {
		struct cg_watch_opts to = watch_opts(a, 1u << CG_EV_PRESSURE);
		struct trig_counter *trig = NULL;

		/* the screen's mark: the triggers' watcher, started (or refused) before the screen */
		if (a->n_triggers &&
		    (ret = trig_counter_start(&to, l, true, 0, source_mirror(src), &trig)) != 0) {
			source_free(src);
			cg_layout_free(l);
			return ret;
		}
		ret = drive(a, src, trig);
		if (trig_counter_failed(trig))
			tool_say("%s", TRIG_FAILED);
		else if (trig_counter_unwatched(trig))
			tool_say(TRIG_UNWATCHED, trig_counter_unwatched(trig));
		trig_counter_stop(trig);
	}
	if (a->verbose && source_reopened(src))
		fprintf(stderr, "%s: %zu stat files read without a cached fd (fd limit)\n",
			program_invocation_short_name, source_reopened(src));
	source_free(src);
	cg_net_done();
	cg_layout_free(l);
	cg_rt_done();
	return ret;
}

/* The arguments read: a run with what main settles before it. */
static int run_main(struct cgtop2_args *a)
{
	/*
	 * Into a pipe or a file, one snapshot, as systemd-cgtop does (a script wants the numbers
	 * and an end, not a stream); -n asks for more. What streams by design keeps streaming.
	 */
	if (!a->iterations_set && !isatty(STDOUT_FILENO) && !a->record_file && !a->journal_dir &&
	    !a->replay_file && !a->serve && !a->events)
		a->iterations = 1;
	/* a closed pipe ends batch output quietly, as for head(1) */
	signal(SIGPIPE, SIG_IGN);
	view_set_path_filter(&a->paths);
	return run(a);
}

/* --collectors=, --events=, --fields=help: the names, a line each (shell completion reads them) */
static int list_names(enum list_what w)
{
	if (w == LIST_FIELDS) {
		struct out o = { .fd = STDOUT_FILENO };

		fields_list(&o);
		(void)out_flush(&o, STDOUT_FILENO);
		free(o.s);
	} else if (w == LIST_COLLECTORS) {
		puts("all\nnone");
		for (unsigned c = 0; c < CG_COLL_N; c++)
			puts(cg_collector_names[c]);
	} else {
		puts("all");
		for (unsigned k = 0; k < CG_EV_N; k++)
			puts(cg_watch_kind_name(k));
	}
	return TOOL_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cgtop2_args a = {
		.delay_ns = NSEC_PER_SEC,
		.record_size = 64 << 20,
		.keep_days = 7,
		.journal_cap = 1ull << 30,
		.depth = 3,
		.order = ORDER_CPU,
		.format = FMT_TABLE,
		.end_ns = UINT64_MAX,
	};
	int ret;

	tool_check_stdout(TOOL_EXIT_FAILED);
	ret = tool_parse(&cgtop2_argp, argc, argv, 0, &a, TOOL_EXIT_FAILED);
	if (!ret && a.list)
		ret = list_names(a.list);
	else if (!ret)
		ret = run_main(&a);
	path_filter_free(&a.paths);
	free(a.path);
	for (size_t i = 0; i < a.n_thresholds; i++)
		free((char *)a.thresholds[i].path);
	free(a.thresholds);
	free(a.triggers);
	free(a.out.fields);
	kit_args_free(&a.kit);
	return ret;
}
