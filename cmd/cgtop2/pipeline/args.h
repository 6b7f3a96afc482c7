/* SPDX-License-Identifier: MIT */
/*
 * Private to cgtop2: its options as options.c parses them (struct cgtop2_args, main.c's), and
 * the part of them each door is passed (struct render_opts, batch_opts, ...).
 */
#ifndef CGTOP2_ARGS_H
#define CGTOP2_ARGS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "sampler/stats.h"
#include "watch/watch.h"
#include "kit_args.h"

enum order { ORDER_PATH, ORDER_TASKS, ORDER_CPU, ORDER_MEMORY, ORDER_IO, ORDER_PRESSURE };
enum format { FMT_TABLE, FMT_JSON, FMT_CSV, FMT_OPENMETRICS, FMT_PROMETHEUS };
/* --cgroup-include, --cgroup-exclude: POSIX extended regexes, anchored, on a row's path */
struct path_filter {
	regex_t *re; /* the includes, then the excludes */
	bool *exclude;
	size_t n;
	bool any_include;
};

/* --depth's largest: every cgroup, as deep as cgroup2 lets them nest in practice */
#define CGTOP2_DEPTH_MAX 1000

/* --compat: whose metric names and labels the expositions use */
enum compat { COMPAT_NONE, COMPAT_CADVISOR };
/* What --collectors=help or --events=help asks to be listed instead of a run */
enum list_what { LIST_NONE, LIST_COLLECTORS, LIST_EVENTS, LIST_FIELDS };

struct trig_counter;

/*
 * What the writers of a view are told (output/render.h: the table, JSON, CSV, the expositions,
 * the cells of the screen): their part of the options, the only part they see.
 */
struct render_opts {
	enum cg_count count; /* what the tasks column counts */
	bool raw; /* numbers unscaled */
	bool cpu_time; /* the CPU column says time, not percent */
	bool threads; /* per-thread rows */
	enum compat compat; /* --compat */
	size_t max_series; /* --max-series: 0, none */
	unsigned *fields; /* --fields: output/fields.c's numbers, in the order asked */
	size_t n_fields;
	/* --psi-trigger's, whose wake-ups the exposition counts (the parser's array) */
	const struct cg_psi_trigger *triggers;
	size_t n_triggers;
};

/*
 * What each of cgtop2's doors is passed, main.c building it from the parsed options: its own
 * part, so that no door reads another's settings (the parser's struct stays with options.c and
 * main.c). path is the cgroup shown, normalized, for a failure's line.
 */
struct batch_opts {
	const char *path;
	enum format format;
	unsigned long iterations; /* 0: until interrupted */
	uint64_t delay_ns;
	enum order order;
	int order_field; /* --order=FIELD: 1 + its number in output/fields.c; 0: order's */
	unsigned long top; /* --top: the first N rows of each sample; 0: all */
	bool at; /* --at: a replay starts at at_ns */
	uint64_t at_ns;
	bool window; /* --begin or --end: what the replay says when it has nothing */
	const char *replay_file;
	struct render_opts out;
};

struct record_opts {
	const char *path;
	const char *record_file; /* --record; NULL with --journal */
	const char *journal_dir; /* --journal: day files kept keep_days days and cap bytes */
	uint64_t record_size, keep_days, journal_cap;
	uint64_t delay_ns;
	unsigned long iterations;
	const struct batch_opts *print; /* -b or -F: the batch output as well; NULL: none */
};

/* --events: the watcher's settings (watch/watch_types.h; its fds the door's), and the printing's */
struct events_opts {
	struct cg_watch_opts watch;
	enum format format; /* lines (table) or JSON lines */
	unsigned long iterations; /* -n: events before it ends; 0: none */
	uint64_t timeout_ns;
	const char *exec;
	bool verbose;
};

struct serve_opts {
	const char *path;
	const char *listen, *web_config; /* [ADDR:]PORT (NULL: the default), --web-config */
	bool verbose;
	struct cg_watch_opts
		trig; /* --psi-trigger's counter (events/triggers.c); n_triggers 0: none */
	struct render_opts out;
};

/* The screen's: what it starts with, and changes as keys ask (its settings file too). */
struct screen_opts {
	const char *path;
	enum order order;
	bool order_set, delay_set; /* -o, -d given: the settings file's yield */
	uint64_t delay_ns;
	int depth;
	bool own_only;
	bool collectors_set; /* the collectors are the user's: the pane turns none on */
	bool tree; /* --tree: starts in its tree view */
	bool read_only; /* --read-only: offers no action */
	unsigned long iterations;
	bool at; /* a replay starts at at_ns */
	uint64_t at_ns;
	struct trig_counter *trig; /* --psi-trigger's counter, or NULL */
	struct render_opts out;
};

struct cgtop2_args {
	char *path; /* normalized, "" for the root */
	bool batch, verbose;
	bool tree; /* --tree: the screen starts in its tree view */
	bool read_only; /* --read-only: the screen offers no action */
	bool order_set, delay_set; /* -o (-p, -t, ...), -d given: the settings file's yield */
	unsigned long iterations; /* 0: until interrupted */
	bool iterations_set; /* -n or -1 given: else 1 when stdout is no terminal */
	uint64_t delay_ns;
	int depth;
	bool depth_set; /* --depth given: else 3, with --listen CGTOP2_DEPTH_MAX */
	const char *runtime_root; /* --runtime-root: the runtimes' state files beneath it */
	enum order order;
	enum format format;
	bool format_set; /* -F given: refused with --listen */
	bool own_only; /* --recursive=no */
	const char *machine; /* -M: resolved to path in run() */
	const char *record_file, *replay_file; /* --record, --replay (record.c) */
	uint64_t record_size; /* --record-size: rotate beyond it; 0: never */
	/* --journal=DIR: day files (pipeline/journal.h) kept --keep days and --cap bytes; 0: no bound */
	const char *journal_dir;
	uint64_t keep_days, journal_cap;
	bool keep_set; /* --keep or --cap given: refused without --journal */
	bool replay_journal; /* --replay without FILE, or FILE a directory: its day files */
	uint64_t at_ns; /* --at: a replay starts at the first sample at or after it */
	bool at;
	/* --begin, --end: a replay's window (source_replay_window); 0 and UINT64_MAX: open */
	uint64_t begin_ns, end_ns;
	bool window;
	int order_field; /* --order=FIELD: 1 + its number in output/fields.c; 0: --order's keys */
	unsigned long top; /* --top: the first N rows of each sample; 0: all */
	bool serve; /* --listen: serve.c */
	const char *listen, *web_config; /* [ADDR:]PORT (NULL: the default), --web-config */
	unsigned collectors; /* --collectors: a bit per enum cg_collector */
	struct path_filter paths; /* --cgroup-include, --cgroup-exclude */
	bool collectors_set; /* else: the default set in machine formats, none in the table */
	enum list_what list; /* --collectors=, --events=, --fields=help: print the names and end */
	/* --events (events.c) */
	bool events;
	unsigned event_kinds; /* 0: all */
	uint64_t timeout_ns; /* 0: none */
	const char *exec;
	struct cg_watch_threshold *thresholds;
	size_t n_thresholds;
	struct cg_psi_trigger *triggers; /* --psi-trigger */
	size_t n_triggers;
	struct kit_args kit; /* --get, --list-cgroups, --list-controllers (kit.c) */
	struct render_opts out; /* the writers' settings: -r, --cpu=time, --fields, ... */
};

/* --order's names, indexed by enum order (render.c) */
extern const char *const order_names[ORDER_PRESSURE + 1];

#endif
