// SPDX-License-Identifier: MIT
/*
 * cgtop2's options: argp's table, parse_opt (each option's value read, then the combinations
 * checked once at the end) and the libcgroup kit's options as an argp child. main.c runs them.
 */
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
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "base/error.h"
#include "kernel/file.h"
#include "names/machine.h"
#include "names/runtime.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "kernel/spec.h"
#include "sampler/stats.h"
#include "tool.h"
#include "options.h"

#include "pipeline/args.h"
#include "output/batch.h"
#include "output/fields.h"
#include "events/events.h"
#include "output/recorder.h"
#include "output/pattern.h"
#include "output/render.h"
#include "output/report.h"
#include "serve/negotiate.h"
#include "serve/serve.h"
#include "pipeline/journal.h"
#include "pipeline/source.h"
#include "events/triggers.h"
#include "kit/kit.h"

enum {
	OPT_DEPTH = 0x100,
	OPT_CPU,
	OPT_RECURSIVE,
	OPT_TREE,
	OPT_READ_ONLY,
	OPT_RECORD,
	OPT_RECORD_SIZE,
	OPT_REPLAY,
	OPT_AT,
	OPT_LISTEN,
	OPT_WEB_CONFIG,
	OPT_EVENTS,
	OPT_EXEC,
	OPT_THRESHOLD,
	OPT_PSI_TRIGGER,
	OPT_TIMEOUT,
	OPT_COLLECTORS,
	OPT_COMPAT,
	OPT_INCLUDE,
	OPT_EXCLUDE,
	OPT_BEGIN,
	OPT_END,
	OPT_FIELDS,
	OPT_TOP,
	OPT_MAX_SERIES,
	OPT_RUNTIME_ROOT,
	OPT_JOURNAL,
	OPT_KEEP,
	OPT_CAP,
};

static const char *const format_names[] = { "table", "json", "csv", "openmetrics", "prometheus" };

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Mode:", 1 },
	{ "batch", 'b', 0, 0, "Batch mode: plain text snapshots, no escape codes, no input", 1 },
	{ "iterations", 'n', "N", 0,
	  "Stop after N refreshes (0: until interrupted, the default on a terminal; into a pipe or a file: 1)",
	  1 },
	{ 0, '1', 0, 0, "Shortcut for --iterations=1", 1 },
	{ "delay", 'd', "TIME", 0,
	  "Time between refreshes in seconds (default 1; fractions allowed) or with a unit: 200us, 500ms, 1.5s, 2min",
	  1 },
	{ "format", 'F', "FORMAT", 0,
	  "table (default), json (one line per refresh), csv, openmetrics or prometheus (the text format 0.0.4); all but table imply --batch",
	  1 },
	{ "listen", OPT_LISTEN, "[ADDR:]PORT", OPTION_ARG_OPTIONAL | TOOL_OPTION_WHOLE,
	  "Serve /metrics for Prometheus on ADDR:PORT (default every address, port 10306: anyone who can reach it sees the cgroup names); -b, -n and -d do not apply, -F is refused",
	  1 },
	{ "web-config", OPT_WEB_CONFIG, "FILE", 0,
	  "With --listen: TLS and basic auth from FILE, in Prometheus's exporter-toolkit web config format (SIGHUP re-reads it)",
	  1 },
	{ "max-series", OPT_MAX_SERIES, "N", 0,
	  "With --listen: at most N series a scrape; past it the deepest cgroups are left out (cgtop2_series_dropped_cgroups counts them)",
	  1 },
	{ "runtime-root", OPT_RUNTIME_ROOT, "DIR", 0,
	  "Read the container runtimes' state files (containerd, CRI-O, Docker: container, pod, namespace and image names) beneath DIR instead of /",
	  2 },
	{ "compat", OPT_COMPAT, "cadvisor", 0,
	  "With -F openmetrics, -F prometheus or --listen: cAdvisor's metric names, units and labels (id, name) instead of cgkit's",
	  1 },
	{ 0, 0, 0, 0, "What to show:", 2 },
	{ "depth", OPT_DEPTH, "N", 0,
	  "Show cgroups down to N levels below CGROUP (default 3; with --listen every cgroup)", 2 },
	{ "order", 'o', "KEY", 0,
	  "Sort by path, tasks, cpu (default), memory, io or pressure; in batch output also by a field of --fields=help, largest first",
	  2 },
	{ 0, 'p', 0, 0, "Sort by path", 2 },
	{ 0, 't', 0, 0, "Sort by tasks", 2 },
	{ 0, 'c', 0, 0, "Sort by CPU load", 2 },
	{ 0, 'm', 0, 0, "Sort by memory", 2 },
	{ 0, 'i', 0, 0, "Sort by IO (read + write per second)", 2 },
	{ "raw", 'r', 0, 0, "Raw numbers: bytes, bytes per second, nanoseconds", 2 },
	{ "cpu", OPT_CPU, "percentage|time", 0,
	  "CPU column as percent of one CPU (default) or as CPU time used", 2 },
	{ 0, 'P', 0, 0,
	  "Count processes instead of tasks, without kernel threads (a process counts once)", 2 },
	{ 0, 'k', 0, 0, "Count processes and kernel threads instead of tasks", 2 },
	{ "recursive", OPT_RECURSIVE, "BOOL", 0,
	  "With -P or -k: include the processes of child cgroups (default yes)", 2 },
	{ "group", 'g', "SPEC", 0, "CGROUP as the other tools take -g: [CONTROLLERS]:PATH", 2 },
	{ "machine", 'M', "NAME", 0,
	  "Show the cgroup of container NAME (from systemd-machined), instead of CGROUP", 2 },
	{ "threads", 'H', 0, 0, "In threaded cgroups, list the threads (TID, comm, %CPU)", 2 },
	{ "verbose", 'v', 0, 0, "Say on stderr which hierarchy serves each column", 2 },
	{ "tree", OPT_TREE, 0, 0, "Start the screen in its tree view (key T)", 2 },
	{ "read-only", OPT_READ_ONLY, 0, 0,
	  "The screen offers no action (freeze, signal, kill, limits, moves)", 2 },
	{ "cgroup-include", OPT_INCLUDE, "REGEX", 0,
	  "Show only the cgroups whose whole path (/a/b) matches REGEX, a POSIX extended regular expression (no back-references); may be repeated",
	  2 },
	{ "cgroup-exclude", OPT_EXCLUDE, "REGEX", 0,
	  "Leave out the cgroups whose whole path matches REGEX (after --cgroup-include)", 2 },
	{ "collectors", OPT_COLLECTORS, "LIST", 0,
	  "What to read beyond the columns: cpu, memory, io, iodevice, pids, psi, limits, all or none, comma-separated; +NAME and -NAME change the default set (all but iodevice in json and csv, nor limits in openmetrics and prometheus; none in the table); help lists the names",
	  2 },
	{ "fields", OPT_FIELDS, "LIST", 0,
	  "With -F json or csv: the path, the time and these statistics only, in this order, comma-separated, by their JSON key (cpu_usage_seconds, memory_bytes, pressure_io, memory.max, ...) or kernel name (cpu.usage, memory.current); help lists them",
	  2 },
	{ "top", OPT_TOP, "N", 0,
	  "In batch output: each sample's first N cgroups in --order's order (0: all, the default)",
	  2 },
	{ 0, 0, 0, 0, "Record and replay:", 3 },
	{ "record", OPT_RECORD, "FILE", TOOL_OPTION_WHOLE,
	  "Append a sample to FILE every --delay (-n of them, or until interrupted), nothing on stdout",
	  3 },
	{ "record-size", OPT_RECORD_SIZE, "SIZE", 0,
	  "Rotate FILE to FILE.1 (replacing it) before it grows beyond SIZE bytes (K, M, G: powers of 1024; default 64M; 0: never)",
	  3 },
	{ "journal", OPT_JOURNAL, "DIR", TOOL_OPTION_WHOLE,
	  "Record every --delay into DIR's day files, cgtop2-YYYY-MM-DD.rec.gz (gzip), a new one at local midnight (cgkit-record.service: /var/log/cgkit)",
	  3 },
	{ "keep", OPT_KEEP, "DAYS", 0,
	  "With --journal: remove the day files whose day ended more than DAYS ago (7d, the default, or 7; 0: none)",
	  3 },
	{ "cap", OPT_CAP, "SIZE", 0,
	  "With --journal: remove the oldest day files while all weigh more than SIZE (K, M, G, T: powers of 1024; default 1G; 0: no cap)",
	  3 },
	{ "replay", OPT_REPLAY, "FILE", OPTION_ARG_OPTIONAL,
	  "Show the samples recorded in FILE.1 (if any) and FILE instead of live ones, with their recorded times; FILE a directory, or none: the journal there (default /var/log/cgkit): the newest day's file, or with --begin, --end or --at the days they span",
	  3 },
	{ "at", OPT_AT, "TIME", 0,
	  "With --replay: start at the first sample taken at or after TIME, as --begin takes it",
	  3 },
	{ "begin", OPT_BEGIN, "TIME", 0,
	  "With --replay: only the samples taken at or after TIME: local 'YYYY-MM-DD HH:MM[:SS]', 'today HH:MM[:SS]', 'yesterday HH:MM[:SS]', @EPOCH, now, or before now: -10m, -1h30m (d, h, m, s)",
	  3 },
	{ "end", OPT_END, "TIME", 0,
	  "With --replay: only the samples taken at or before TIME (as --begin)", 3 },
	{ 0, 0, 0, 0, "Events (instead of statistics; see EVENTS in cgtop2(1)):", 4 },
	{ "events", OPT_EVENTS, "LIST", OPTION_ARG_OPTIONAL,
	  "Print what happens below CGROUP, one event a line (-F json: JSON lines), until interrupted, -n N events or --timeout. LIST: all (default) or some of created, removed, populated, empty, frozen, thawed, oom, oom_kill, memory_high, memory_max, pids_max, threshold, throttled, pressure (help lists them). -d: how often what the kernel does not notify is sampled",
	  4 },
	{ "exec", OPT_EXEC, "COMMAND", TOOL_OPTION_WHOLE,
	  "With --events: run COMMAND with /bin/sh -c for each event, the event in its environment (CGROUP, CGROUP_EVENT, CGROUP_HIERARCHY, CGROUP_DIR, CGROUP_COUNT, ...), one at a time per cgroup",
	  4 },
	{ "memory-threshold", OPT_THRESHOLD, "CGROUP:SIZE", 0,
	  "With --events: a threshold event when CGROUP's memory use crosses SIZE (bytes, or with K, M, G, T); may be repeated",
	  4 },
	{ "psi-trigger", OPT_PSI_TRIGGER, "RES:some|full:STALL:WINDOW", TOOL_OPTION_WHOLE,
	  "With --events (all or pressure): a pressure event when tasks of a cgroup stalled STALL within WINDOW on RES (cpu, memory, io, irq), from a kernel PSI trigger on each cgroup2 cgroup, e.g. memory:some:150ms:2s; :sample after it reads avg10 every -d instead; with --listen: cgroup_pressure_trigger_events_total counts the wake-ups; on the screen: a cgroup whose trigger fired less than a window ago is marked !RES after its name; may be repeated",
	  4 },
	{ "timeout", OPT_TIMEOUT, "TIME", 0, "With --events: stop after TIME (as -d)", 4 },
	TOOL_OPTION_HELP,
	{},
};

/* systemd's booleans, as systemd-cgtop --recursive takes them */
static int parse_bool(const char *s)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

/* s as the index of one of names, or the usage error "TAKES, not 's'" */
static int choose(struct argp_state *state, const char *const *names, size_t n, const char *s,
		  const char *takes)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	argp_error(state, "%s, not '%s'", takes, TOOL_SHOWN(s));
	return -1;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cgtop2_args *a = state->input;
	uint64_t v;
	int i;

	switch (key) {
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case 'b':
		a->batch = true;
		break;
	case 'n':
		if (cg_parse_u64(arg, UINT32_MAX, &v) < 0)
			argp_error(state,
				   "--iterations takes a number (0: until interrupted), not '%s'",
				   TOOL_SHOWN(arg));
		a->iterations = (unsigned long)v;
		a->iterations_set = true;
		break;
	case '1':
		a->iterations = 1;
		a->iterations_set = true;
		break;
	case 'd':
		if (cg_parse_seconds(arg, &a->delay_ns) < 0)
			argp_error(
				state,
				"--delay takes seconds or a time with us, ms, s or min (more than 0, at most 86400s, fractions allowed), not '%s'",
				TOOL_SHOWN(arg));
		a->delay_set = true;
		break;
	case 'F':
		i = choose(state, format_names, ARRAY_SIZE(format_names), arg,
			   "--format takes table, json, csv, openmetrics or prometheus");
		a->format = (enum format)i;
		a->format_set = true;
		break;
	case OPT_DEPTH:
		if (cg_parse_u64(arg, CGTOP2_DEPTH_MAX, &v) < 0)
			argp_error(state, "--depth takes a number from 0 to %d, not '%s'",
				   CGTOP2_DEPTH_MAX, TOOL_SHOWN(arg));
		a->depth = (int)v;
		a->depth_set = true;
		break;
	case 'o':
		a->order_set = true;
		a->order_field = 0;
		i = field_lookup(arg);
		/* a field of --fields' that is not one of --order's own keys: batch output's */
		if (field_numeric(i)) {
			for (size_t k = 0; k < ARRAY_SIZE(order_names); k++)
				if (!strcmp(order_names[k], arg))
					i = -1;
		}
		if (field_numeric(i)) {
			a->order = ORDER_PATH;
			a->order_field = i + 1;
			break;
		}
		i = choose(
			state, order_names, ARRAY_SIZE(order_names), arg,
			"--order takes path, tasks, cpu, memory, io, pressure or a number field of --fields=help");
		a->order = (enum order)i;
		break;
	case 'p':
	case 't':
	case 'c':
	case 'm':
	case 'i':
		/* --order's first letters; -p is path, the first of them, not pressure */
		for (i = 0; order_names[i][0] != key; i++)
			;
		a->order = (enum order)i;
		a->order_set = true;
		a->order_field = 0;
		break;
	case 'r':
		a->out.raw = true;
		break;
	case OPT_CPU:
		if (!strcmp(arg, "percentage"))
			a->out.cpu_time = false;
		else if (!strcmp(arg, "time"))
			a->out.cpu_time = true;
		else
			argp_error(state, "--cpu takes percentage or time, not '%s'",
				   TOOL_SHOWN(arg));
		break;
	case 'P':
	case 'k':
		if (a->out.count != CG_COUNT_TASKS &&
		    a->out.count != (key == 'P' ? CG_COUNT_USER_PROCESSES : CG_COUNT_PROCESSES))
			argp_error(state, "-P and -k exclude each other");
		a->out.count = key == 'P' ? CG_COUNT_USER_PROCESSES : CG_COUNT_PROCESSES;
		break;
	case OPT_RECURSIVE:
		i = parse_bool(arg);
		if (i < 0)
			argp_error(state, "--recursive takes yes or no, not '%s'", TOOL_SHOWN(arg));
		a->own_only = !i;
		break;
	case 'M':
		if (!*arg || strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..") ||
		    strlen(arg) > 255)
			argp_error(state, "--machine takes a machine name, not '%s'",
				   TOOL_SHOWN(arg));
		a->machine = arg;
		break;
	case 'H':
		a->out.threads = true;
		break;
	case 'v':
		a->verbose = true;
		break;
	case OPT_TREE:
		a->tree = true;
		break;
	case OPT_READ_ONLY:
		a->read_only = true;
		break;
	case OPT_REPLAY:
		/*
		 * --replay FILE, as the option always took it: the next word, when it is no option.
		 * Alone (or --replay=DIR) it reads a journal; main.c tells a directory from a file.
		 */
		if (!arg && state->next < state->argc && state->argv[state->next][0] != '-')
			arg = state->argv[state->next++];
		if (!arg) {
			a->replay_file = JOURNAL_DIR_DEFAULT;
			break;
		}
		/* fall through */
	case OPT_RECORD:
		if (!*arg)
			argp_error(state, "--%s takes a file name",
				   key == OPT_RECORD ? "record" : "replay");
		*(key == OPT_RECORD ? &a->record_file : &a->replay_file) = arg;
		break;
	case OPT_RECORD_SIZE:
		if (cg_parse_size(arg, CG_SIZE_BYTES, &a->record_size) < 0)
			argp_error(
				state,
				"--record-size takes bytes with K, M, G or T (powers of 1024), not '%s'",
				TOOL_SHOWN(arg));
		break;
	case OPT_JOURNAL:
		if (!*arg)
			argp_error(state, "--journal takes a directory");
		a->journal_dir = arg;
		break;
	case OPT_KEEP: {
		const char *p = arg;

		if (cg_parse_u64_prefix(&p, 36500, &a->keep_days) < 0 || (*p && strcmp(p, "d")))
			argp_error(state, "--keep takes days: 7d or 7 (0: keep all), not '%s'",
				   TOOL_SHOWN(arg));
		a->keep_set = true;
		break;
	}
	case OPT_CAP:
		if (cg_parse_size(arg, CG_SIZE_BYTES, &a->journal_cap) < 0)
			argp_error(state,
				   "--cap takes bytes with K, M, G or T (powers of 1024), not '%s'",
				   TOOL_SHOWN(arg));
		a->keep_set = true;
		break;
	case OPT_AT:
	case OPT_BEGIN:
	case OPT_END: {
		uint64_t *t = key == OPT_AT	 ? &a->at_ns
			      : key == OPT_BEGIN ? &a->begin_ns
						 : &a->end_ns;

		if (cg_parse_when(arg, source_wall_ns(), t) < 0)
			argp_error(
				state,
				"--%s takes a local time 'YYYY-MM-DD HH:MM[:SS]', 'today HH:MM[:SS]', 'yesterday HH:MM[:SS]', @SECONDS, now or -DURATION (-10m, -1h30m), not '%s'",
				key == OPT_AT	   ? "at"
				: key == OPT_BEGIN ? "begin"
						   : "end",
				TOOL_SHOWN(arg));
		if (key == OPT_AT)
			a->at = true;
		else
			a->window = true;
		break;
	}
	case OPT_FIELDS: {
		_cleanup_free_ char *copy = strdup(arg);
		char *save = NULL;

		if (!strcmp(arg, "help")) {
			a->list = LIST_FIELDS;
			break;
		}
		if (!copy)
			return ENOMEM;
		free(a->out.fields);
		a->out.fields = NULL;
		a->out.n_fields = 0;
		for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
			unsigned *nf = realloc(a->out.fields, (a->out.n_fields + 1) * sizeof(*nf));

			if (!nf)
				return ENOMEM;
			a->out.fields = nf;
			i = field_lookup(f);
			if (i < 0)
				argp_error(state,
					   "--fields: no field '%s' (--fields=help lists them)",
					   TOOL_SHOWN(f));
			a->out.fields[a->out.n_fields++] = (unsigned)i;
		}
		if (!a->out.n_fields)
			argp_error(state, "--fields takes a comma-separated list of fields");
		break;
	}
	case OPT_TOP:
		if (cg_parse_u64(arg, UINT32_MAX, &v) < 0)
			argp_error(state, "--top takes a number of cgroups (0: all), not '%s'",
				   TOOL_SHOWN(arg));
		a->top = (unsigned long)v;
		break;
	case OPT_LISTEN: {
		_cleanup_free_ char *host = NULL;
		unsigned port;

		if (listen_parse(arg, &host, &port) < 0)
			argp_error(
				state,
				"--listen takes [ADDR:]PORT (PORT, :PORT, ADDR:PORT, [IPV6]:PORT), not '%s'",
				TOOL_SHOWN(arg));
		a->serve = true;
		a->listen = arg;
		break;
	}
	case OPT_WEB_CONFIG:
		a->web_config = arg;
		break;
	case OPT_MAX_SERIES:
		if (cg_parse_u64(arg, UINT32_MAX, &v) < 0 || !v)
			argp_error(state, "--max-series takes a number from 1 to %u, not '%s'",
				   UINT32_MAX, TOOL_SHOWN(arg));
		a->out.max_series = (size_t)v;
		break;
	case OPT_RUNTIME_ROOT:
		a->runtime_root = arg;
		break;
	case OPT_COMPAT:
		if (strcmp(arg, "cadvisor"))
			argp_error(state, "--compat takes cadvisor, not '%s'", TOOL_SHOWN(arg));
		a->out.compat = COMPAT_CADVISOR;
		break;
	case OPT_INCLUDE:
	case OPT_EXCLUDE: {
		char err[256];

		i = path_filter_add(&a->paths, key == OPT_EXCLUDE, arg, err, sizeof(err));
		if (i == -ENOMEM)
			return ENOMEM;
		if (i < 0)
			argp_error(state, "--cgroup-%s takes a POSIX extended regex; '%s': %s",
				   key == OPT_EXCLUDE ? "exclude" : "include", TOOL_SHOWN(arg),
				   err);
		break;
	}
	case OPT_COLLECTORS: {
		const char *bad = arg;

		if (!strcmp(arg, "help")) {
			a->list = LIST_COLLECTORS;
			break;
		}

		if (cg_collectors_parse(arg, &a->collectors, &bad) < 0)
			argp_error(
				state,
				"--collectors takes cpu, memory, io, iodevice, pids, psi, limits, all or none (comma-separated, each maybe with + or -), not '%s'",
				TOOL_SHOWN(bad));
		a->collectors_set = true;
		break;
	}
	case OPT_EVENTS:
		if (arg && !strcmp(arg, "help")) {
			a->list = LIST_EVENTS;
			break;
		}
		a->events = true;
		if (arg && cg_watch_kinds_parse(arg, &a->event_kinds, NULL) < 0)
			argp_error(
				state,
				"--events takes all or a list of created, removed, populated, empty, frozen, thawed, oom, oom_kill, memory_high, memory_max, pids_max, threshold, throttled, pressure, not '%s'",
				TOOL_SHOWN(arg));
		break;
	case OPT_EXEC:
		if (!*arg)
			argp_error(state, "--exec takes a command");
		a->exec = arg;
		break;
	case OPT_THRESHOLD: {
		struct cg_watch_threshold *t =
			realloc(a->thresholds, (a->n_thresholds + 1) * sizeof(*t));

		if (!t)
			return ENOMEM;
		a->thresholds = t;
		t += a->n_thresholds;
		if (cg_watch_threshold_parse(arg, (char **)&t->path, &t->bytes) < 0)
			argp_error(
				state,
				"--memory-threshold takes CGROUP:SIZE (bytes, or with K, M, G or T), not '%s'",
				TOOL_SHOWN(arg));
		a->n_thresholds++;
		break;
	}
	case OPT_PSI_TRIGGER: {
		struct cg_psi_trigger *t = realloc(a->triggers, (a->n_triggers + 1) * sizeof(*t));
		const char *why = NULL;

		if (!t)
			return ENOMEM;
		a->triggers = t;
		if (cg_psi_trigger_parse(arg, &t[a->n_triggers], &why) < 0)
			argp_error(state, "--psi-trigger '%s': %s", TOOL_SHOWN(arg),
				   why ? why : "RESOURCE:some|full:STALL:WINDOW[:sample]");
		a->n_triggers++;
		break;
	}
	case OPT_TIMEOUT:
		if (cg_parse_seconds(arg, &a->timeout_ns) < 0)
			argp_error(state, "--timeout takes a time as -d does, not '%s'",
				   TOOL_SHOWN(arg));
		break;
	case 'g':
	case ARGP_KEY_ARG: {
		/*
		 * a row is a path with the figures of every hierarchy that has it, so a spec's
		 * controllers select nothing more: libcgroup's -g and ":PATH" name that path
		 */
		const char *p = key == 'g' || arg[0] == ':' ? cg_spec_path(arg) : arg;

		if (kit_spec_push(&a->kit, arg, key == 'g') < 0)
			return ENOMEM;
		/* the kit's modes take several (kit.c's ARGP_KEY_END refuses them otherwise) */
		if (a->path) {
			a->kit.many = true;
			break;
		}
		/* /proc/PID/cgroup's name for a cgroup beyond the cgroup namespace: one line */
		if (cg_path_beyond_root(p))
			argp_failure(state, TOOL_EXIT_USAGE, 0, "%s: path: %s", TOOL_SHOWN(p),
				     CG_NS_RULE);
		if (cg_path_normalize(p, &a->path) < 0)
			argp_error(
				state,
				"cgroup '%s': '..', control characters, names over 255 bytes and paths over 4095 are not allowed in a cgroup path",
				TOOL_SHOWN(p));
		break;
	}
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->kit;
		break;
	case ARGP_KEY_END:
		if (a->kit.mode &&
		    (a->serve || a->events || a->record_file || a->replay_file || a->machine))
			argp_error(
				state,
				"--get, --list-cgroups, --list-controllers and --snapshot exclude --listen, --events, --record, --replay and -M");
		if (a->machine && a->path)
			argp_error(state, "-M and CGROUP exclude each other");
		if (a->record_file && a->replay_file)
			argp_error(state, "--record and --replay exclude each other");
		if (a->journal_dir && (a->record_file || a->replay_file || a->serve || a->events ||
				       a->kit.mode || a->paths.n))
			argp_error(
				state,
				"--journal excludes --record, --replay, --listen, --events, the kit's modes, --cgroup-include and --cgroup-exclude");
		if (a->keep_set && !a->journal_dir)
			argp_error(state, "--keep and --cap need --journal");
		if (a->at && !a->replay_file)
			argp_error(state, "--at needs --replay");
		if (a->window && !a->replay_file)
			argp_error(state, "--begin and --end need --replay");
		if (a->begin_ns > a->end_ns)
			argp_error(state, "--begin is after --end");
		if (a->out.n_fields && a->format != FMT_JSON && a->format != FMT_CSV)
			argp_error(state, "--fields needs -F json or -F csv");
		if ((a->out.n_fields || a->top || a->order_field) && (a->serve || a->events))
			argp_error(
				state,
				"--fields, --top and --order=FIELD apply to batch output, not --listen or --events");
		if (a->web_config && !a->serve)
			argp_error(state, "--web-config needs --listen");
		if (a->out.max_series && !a->serve)
			argp_error(state, "--max-series needs --listen");
		/* a Prometheus exporter exports every cgroup, as cAdvisor does: a kubelet's container
		 * is five levels down; the screen and batch table keep a depth a human reads */
		if ((a->serve || a->journal_dir) && !a->depth_set)
			a->depth = CGTOP2_DEPTH_MAX;
		if (a->out.compat && !a->serve && a->format != FMT_OPENMETRICS &&
		    a->format != FMT_PROMETHEUS)
			argp_error(state,
				   "--compat needs -F openmetrics, -F prometheus or --listen");
		if (a->paths.n && (a->events || a->record_file))
			argp_error(
				state,
				"--cgroup-include and --cgroup-exclude do not apply to --events and --record");
		if (a->serve && (a->record_file || a->replay_file))
			argp_error(state, "--listen excludes --record and --replay");
		if (a->serve && a->format_set)
			argp_error(
				state,
				"--listen excludes -F: each scrape gets the format its Accept header asks for (OpenMetrics 1.0.0 or the text format 0.0.4)");
		if (!a->events && (a->exec || a->n_thresholds || a->timeout_ns))
			argp_error(state, "--exec, --memory-threshold and --timeout need --events");
		if (a->n_triggers && !a->events && !a->serve &&
		    (a->batch || a->format != FMT_TABLE || a->record_file || a->replay_file))
			argp_error(
				state,
				"--psi-trigger needs --events, --listen or the screen (not -b, -F, --record or --replay)");
		if (a->n_triggers && a->event_kinds && !(a->event_kinds & (1u << CG_EV_PRESSURE)))
			argp_error(state, "--psi-trigger needs --events=pressure (or all)");
		if (!a->n_triggers && a->event_kinds & (1u << CG_EV_PRESSURE) &&
		    a->event_kinds != CG_EV_ALL)
			argp_error(state, "--events=pressure needs a --psi-trigger");
		if (a->events && a->format != FMT_TABLE && a->format != FMT_JSON)
			argp_error(state, "--events prints lines (table) or JSON lines (-F json)");
		if (a->events && (a->serve || a->record_file || a->replay_file))
			argp_error(state, "--events excludes --listen, --record and --replay");
		if (!a->path && !(a->path = strdup("")))
			return ENOMEM;
		/* the exposition names the triggers whose wake-ups it counts */
		a->out.triggers = a->triggers;
		a->out.n_triggers = a->n_triggers;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child children[] = {
	{ &kit_argp, 0,
	  "libcgroup's kit (cgget, lscgroup, lssubsys, cgsnapshot): CGROUP may be given more than once",
	  5 },
	{ 0 }
};

const struct argp cgtop2_argp = {
	options,
	parse_opt,
	"[CGROUP...]",
	"Show the cgroups below CGROUP (default the root) with their tasks, CPU, memory, IO and pressure, refreshed every --delay. On a terminal it runs full-screen (keys: q quit, p t c m i s sort, P k r count processes, + - depth, % CPU percent or time, R raw, space refresh, z pause, T tree, Left Right fold, arrows PgUp PgDn Home End move, Enter details, / filter, H threads, h help); otherwise, or with -b, it prints plain snapshots: into a pipe or a file only one, as systemd-cgtop, unless -n (-n 0: until interrupted).\vStatistics come from every hierarchy that has the cgroup, joined by path: cgroup2 cpu.stat, memory.current, io.stat, pids.current and PSI; v1 cpuacct, memory, blkio and pids. Unknown values are shown as '-' (null in JSON). --events: cgroup.events, memory.events and pids.events through inotify, v1 memory through cgroup.event_control; see EVENTS in cgtop2(1). Exit status: 0 done (also interrupted, --timeout, -n events seen, the cgroup removed), 1 failed, 64 usage error (--get: 96 when a value cannot be read, as cgget).",
	children,
	NULL,
	NULL,
};
