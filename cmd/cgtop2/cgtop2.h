/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: its options, output buffer, writers (render.c) and screen (screen*.c). */
#ifndef CGTOP2_H
#define CGTOP2_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "stats.h"
#include "watch.h"

enum order { ORDER_PATH, ORDER_TASKS, ORDER_CPU, ORDER_MEMORY, ORDER_IO, ORDER_PRESSURE };
enum format { FMT_TABLE, FMT_JSON, FMT_CSV, FMT_OPENMETRICS, FMT_PROMETHEUS };
/* --cgroup-include, --cgroup-exclude: POSIX extended regexes, anchored, on a row's path */
struct path_filter {
	regex_t *re; /* the includes, then the excludes */
	bool *exclude;
	size_t n;
	bool any_include;
};

/* --compat: whose metric names and labels the expositions use */
enum compat { COMPAT_NONE, COMPAT_CADVISOR };

struct cgtop2_args {
	char *path; /* normalized, "" for the root */
	bool batch, raw, threads, verbose, cpu_time;
	bool tree; /* --tree: the screen starts in its tree view */
	bool read_only; /* --read-only: the screen offers no action */
	bool order_set, delay_set; /* -o (-p, -t, ...), -d given: the settings file's yield */
	unsigned long iterations; /* 0: until interrupted */
	bool iterations_set; /* -n or -1 given: else 1 when stdout is no terminal */
	uint64_t delay_ns;
	int depth;
	enum order order;
	enum format format;
	bool format_set; /* -F given: refused with --listen */
	enum cg_count count;
	bool own_only; /* --recursive=no */
	const char *machine; /* -M: resolved to path in run() */
	const char *record_file, *replay_file; /* --record, --replay (record.c) */
	uint64_t record_size; /* --record-size: rotate beyond it; 0: never */
	uint64_t at_ns; /* --at: a replay starts at the first sample at or after it */
	bool at;
	bool serve; /* --listen: serve.c */
	const char *listen, *web_config; /* [ADDR:]PORT (NULL: the default), --web-config */
	unsigned collectors; /* --collectors: a bit per enum cg_collector */
	enum compat compat; /* --compat */
	struct path_filter paths; /* --cgroup-include, --cgroup-exclude */
	bool collectors_set; /* else: the default set in machine formats, none in the table */
	/* --events (events.c) */
	bool events;
	unsigned event_kinds; /* 0: all */
	uint64_t timeout_ns; /* 0: none */
	const char *exec;
	struct cg_watch_threshold *thresholds;
	size_t n_thresholds;
	struct cg_psi_trigger *triggers; /* --psi-trigger */
	size_t n_triggers;
};

/* --order's names, indexed by enum order (main.c) */
extern const char *const order_names[];

/* ---- out.c: a growable output buffer -------------------------------------------------------- */

struct out {
	char *s;
	size_t len, cap;
	bool failed;
	/* batch: write out every OUT_CHUNK, so that thousands of rows need no big buffer */
	int fd; /* -1: keep everything for one write (the interactive screen) */
	int err;
};

void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_put(struct out *o, const char *p, size_t len);
/* n spaces */
void out_pad(struct out *o, size_t n);
/* Write it all to fd and empty it: 0, -errno, or -ENOMEM when something was lost. */
int out_flush(struct out *o, int fd);
/* Batch: flush once OUT_CHUNK is buffered; a failed write is kept for out_flush to return. */
void out_maybe_flush(struct out *o);
/*
 * Say why out_flush(o, STDOUT_FILENO) failed, as the output's failure (ENOSPC is no cgroup's
 * here): 1, or 0 for EPIPE, a reader that went away (head -1), which ends output quietly.
 */
int out_stdout_failed(int r);

/* ---- render.c: the rows to show and every format ------------------------------------------- */

/* How each format writes a name; Q_WORD: the table's, and a space too (a field of a line). */
enum quoting { Q_TABLE, Q_JSON, Q_CSV, Q_WORD };

struct view {
	struct cg_stat_row **rows; /* sorted, filtered */
	size_t n;
	uint64_t time_ns; /* the sample's wall-clock time (source.h); 0: now */
	/* for the expositions' own metrics (make_view leaves them): NULL, 0 when unknown */
	const struct cg_stats *stats; /* the collectors' error counts */
	uint64_t sample_ns; /* how long cg_stats_sample took */
	/* --listen --psi-trigger: wake-ups by resource, some (0) and full (1); NULL: none asked */
	const uint64_t (*trigger_events)[2];
	unsigned collect; /* --listen's ?collect[]=: the collectors' families to write; 0: all */
};

/*
 * Add an --cgroup-include (exclude: --cgroup-exclude) regex, anchored at both ends: 0, or
 * -EINVAL with regcomp's message in err, -ENOMEM.
 */
int path_filter_add(struct path_filter *pf, bool exclude, const char *regex, char *err,
		    size_t errlen);
/* A path is kept when it matches an include (or none is given) and no exclude. */
bool path_filter_keeps(const struct path_filter *pf, const char *path);
void path_filter_free(struct path_filter *pf);
/* The filter every make_view applies from now on (NULL: none); it must outlive the views. */
void view_set_path_filter(const struct path_filter *pf);
/*
 * The rows whose path holds filter (NULL or "": all) and that the path filter keeps, sorted
 * by order, into v.
 */
int make_view(struct cg_stat_row *const *rows, size_t n, enum order order, const char *filter,
	      struct view *v);
void render_table(struct out *o, const struct cgtop2_args *a, const struct view *v,
		  size_t path_width, size_t max_rows, const char *eol);
/* render_data.c: JSON lines and CSV */
void render_json(struct out *o, const struct cgtop2_args *a, const struct view *v);
void render_csv(struct out *o, const struct cgtop2_args *a, const struct view *v, bool header);
/*
 * Every JSON object's time, ns of the epoch, as its two keys: "time_unix":SECONDS.mmm and
 * "time_iso":"YYYY-MM-DDTHH:MM:SS.mmmZ" (UTC), comma-separated, no braces; the ISO string alone
 * into iso too, unless NULL.
 */
void json_times(char *buf, size_t size, uint64_t ns, char *iso, size_t iso_size);
/* The sample's time (a replay's is the recorded one), else now: nanoseconds of the epoch. */
uint64_t view_wall_ns(const struct view *v);
/* The key of the tasks column in each counting mode (render.c), for every writer. */
extern const char *const count_keys[];
/* A name escaped for q as every writer puts it (render.c). */
void put_name(struct out *o, const char *name, enum quoting q);

/* ---- metrics.c: the metric families, as OpenMetrics 1.0 and the Prometheus text format ------- */

/* One OpenMetrics 1.0 exposition, ending in "# EOF". */
void render_openmetrics(struct out *o, const struct cgtop2_args *a, const struct view *v);
/* The table's columns (0 is the path), their titles and cells, for the screen. */
size_t table_columns(void);
const char *table_title(const struct cgtop2_args *a, size_t c);
void table_cell(const struct cgtop2_args *a, const struct cg_stat_row *r, size_t c, char *buf,
		size_t size);
/* A size as the table shows it: 1.5M */
void table_bytes(char *buf, size_t size, double v);
/*
 * One exposition in the Prometheus text format 0.0.4 (promtool, node_exporter's textfile
 * collector, a text/plain; version=0.0.4 scrape): the same families and samples as
 * render_openmetrics, with HELP and TYPE naming a counter's _total sample, no UNIT, no EOF.
 */
void render_prometheus(struct out *o, const struct cgtop2_args *a, const struct view *v);
/* A name escaped for q, as the writers put it, in a string of its own (NULL without memory). */
char *escaped(const char *name, enum quoting q);
/* The byte offset of character k of escaped text s[0, len), or len. */
size_t char_offset(const char *s, size_t len, size_t k);

/* ---- text.c: what a terminal may be given, and its width ---------------------------------- */

/* Columns of the UTF-8 character s[0, len) (len from a valid sequence): 1 or 2, < 1 if it
 * takes none or is not printable (control characters, format characters, combining marks). */
int text_char_width(const unsigned char *s, size_t len);
/* Columns of escaped text s[0, len). */
size_t text_cols(const char *s, size_t len);
/* The byte offset where escaped text s[0, len) is cut to fit cols columns, or len. */
size_t text_cut(const char *s, size_t len, size_t cols);

/* ---- main.c --------------------------------------------------------------------------------- */

/* Say on stderr what failed (errno r) of the cgroup a shows; the exit status, 1. */
int report_errno(const struct cgtop2_args *a, const char *what, int r);

/* ---- events.c: --events ----------------------------------------------------------------- */

struct cg_layout;
/* Stream the events of a->path's subtree until -n, --timeout or a signal: the exit status. */
int events_run(const struct cgtop2_args *a, const struct cg_layout *l);

/* ---- screen.c: the interactive screen (ncursesw) ------------------------------------------- */

struct source;
/* tty_run's answer when ncurses cannot drive the terminal: print batch output instead. */
#define TTY_FALLBACK (-1)
/* Run full-screen on src until q, a signal or a->iterations: the exit status, or TTY_FALLBACK. */
int tty_run(const struct cgtop2_args *a, struct source *src);

#endif
