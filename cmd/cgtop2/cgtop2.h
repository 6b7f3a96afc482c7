/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: its options, output buffer, writers (render.c) and screen (tty.c). */
#ifndef CGTOP2_H
#define CGTOP2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "stats.h"
#include "watch.h"

enum order { ORDER_PATH, ORDER_TASKS, ORDER_CPU, ORDER_MEMORY, ORDER_IO, ORDER_PRESSURE };
enum format { FMT_TABLE, FMT_JSON, FMT_CSV, FMT_OPENMETRICS };

struct cgtop2_args {
	char *path; /* normalized, "" for the root */
	bool batch, raw, threads, verbose, cpu_time;
	unsigned long iterations; /* 0: until interrupted */
	uint64_t delay_ns;
	int depth;
	enum order order;
	enum format format;
	enum cg_count count;
	bool own_only; /* --recursive=no */
	const char *machine; /* -M: resolved to path in run() */
	/* --events (events.c) */
	bool events;
	unsigned event_kinds; /* 0: all */
	uint64_t timeout_ns; /* 0: none */
	const char *exec;
	struct cg_watch_threshold *thresholds;
	size_t n_thresholds;
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

/* ---- render.c: the rows to show and every format ------------------------------------------- */

/* How each format writes a name. */
enum quoting { Q_TABLE, Q_JSON, Q_CSV, Q_OPENMETRICS };

struct view {
	struct cg_stat_row **rows; /* sorted, filtered */
	size_t n;
};

/* The rows whose path holds filter (NULL or "": all), sorted by order, into v. */
int make_view(struct cg_stat_row *const *rows, size_t n, enum order order, const char *filter,
	      struct view *v);
void render_table(struct out *o, const struct cgtop2_args *a, const struct view *v,
		  size_t path_width, size_t max_rows, const char *eol);
void render_json(struct out *o, const struct cgtop2_args *a, const struct view *v);
void render_csv(struct out *o, const struct cgtop2_args *a, const struct view *v, bool header);
void render_openmetrics(struct out *o, const struct cgtop2_args *a, const struct view *v);
/* A name escaped for q, as the writers put it, in a string of its own (NULL without memory). */
char *escaped(const char *name, enum quoting q);
/* The byte offset of character k of escaped text s[0, len), or len. */
size_t char_offset(const char *s, size_t len, size_t k);

/* ---- main.c --------------------------------------------------------------------------------- */

/* Say on stderr what failed (errno r) of the cgroup a shows; the exit status, 1. */
int report_errno(const struct cgtop2_args *a, const char *what, int r);

/* ---- events.c: --events ----------------------------------------------------------------- */

struct cg_layout;
/* Stream the events of a->path's subtree until -n, --timeout or a signal: the exit status. */
int events_run(const struct cgtop2_args *a, const struct cg_layout *l);

/* ---- tty.c: the interactive screen ---------------------------------------------------------- */

/* Run full-screen on the terminal until q, a signal or a->iterations: the exit status. */
int tty_run(const struct cgtop2_args *a, struct cg_stats *s);

#endif
