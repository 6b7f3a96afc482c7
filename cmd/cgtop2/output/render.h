/* SPDX-License-Identifier: MIT */
/*
 * Private to cgtop2: the rows to show (a view) and every format that writes them: the table,
 * JSON, CSV (render.c, render_data.c) and the expositions (metrics.c).
 */
#ifndef CGTOP2_RENDER_H
#define CGTOP2_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampler/stats.h"

#include "pipeline/args.h"
#include "out.h"

/* How each format writes a name; Q_WORD: the table's, and a space too (a field of a line). */
enum quoting { Q_TABLE, Q_JSON, Q_CSV, Q_WORD };

struct view {
	struct cg_stat_row **rows; /* sorted, filtered */
	size_t n;
	uint64_t time_ns; /* the sample's wall-clock time (source.h); 0: now */
	/* for the expositions' own metrics (make_view leaves them): NULL, 0 when unknown */
	const uint64_t *errors; /* the collectors' error counts, by enum cg_collector */
	uint64_t sample_ns; /* how long taking the sample took */
	/* --listen --psi-trigger: wake-ups by resource, some (0) and full (1); NULL: none asked */
	const uint64_t (*trigger_events)[2];
	/* --listen with basic auth: how many passwords each result had (the exporter's counts, by
	 * serve/serve_auth.h's enum auth_count) and the results' names; NULL: none */
	const uint64_t *password_checks;
	const char *const *password_results;
	size_t n_password_results;
	size_t dropped; /* --max-series: the rows left out (series.c) */
	unsigned collect; /* --listen's ?collect[]=: the collectors' families to write; 0: all */
	/* make_view's path order of the input rows, kept while their shape stays (view_free) */
	uint64_t shape;
	size_t n_ranked;
	uint32_t *rank; /* rank[i]: the place of input row i by path */
	size_t *by_path; /* the input rows' indices by path */
	struct view_sorted
		*sorted; /* the last key order, patched while the shape stays (view_sort.c) */
};

/* The filter every make_view applies from now on (NULL: none); it must outlive the views. */
void view_set_path_filter(const struct path_filter *pf);
/*
 * The rows whose path holds filter (NULL or "": all) and that the path filter keeps, sorted
 * by order, into v. shape is the source's (source.h): the same as the last call's, the rows
 * are taken to be the same in the same order; 0: unknown.
 */
int make_view(struct cg_stat_row *const *rows, size_t n, uint64_t shape, enum order order,
	      const char *filter, struct view *v);
void view_free(struct view *v);
void render_table(struct out *o, const struct render_opts *a, const struct view *v,
		  size_t path_width, size_t max_rows, const char *eol);
/* render_data.c: JSON lines and CSV */
void render_json(struct out *o, const struct render_opts *a, const struct view *v);
void render_csv(struct out *o, const struct render_opts *a, const struct view *v, bool header);
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
/* Whether a name is valid UTF-8 (a JSON string holds it as it is). */
bool name_utf8(const char *name);
/* A name as a JSON value, and ,"KEY_escaped":true after it where it is the table's text. */
void put_json_name(struct out *o, const char *key, const char *name);

/* metrics.c: the metric families, as OpenMetrics 1.0 and the Prometheus text format */

/* The table's columns (0 is the path), their titles and cells, for the screen. */
size_t table_columns(void);
const char *table_title(const struct render_opts *a, size_t c);
void table_cell(const struct render_opts *a, const struct cg_stat_row *r, size_t c, char *buf,
		size_t size);
/* A size as the table shows it: 1.5M */
void table_bytes(char *buf, size_t size, double v);
/*
 * One exposition: OpenMetrics 1.0, ending in "# EOF", or (prom) the Prometheus text format
 * 0.0.4 (promtool, node_exporter's textfile collector, a text/plain; version=0.0.4 scrape),
 * the same families and samples with HELP and TYPE naming a counter's _total sample, no UNIT,
 * no EOF. c (or NULL): the cgroups' lines kept from the last exposition made with it where
 * their values and labels are the same (metrics_cache.h), the server's scrapes and batch
 * output's refreshes, and cut into chunks for the server's gzip (metrics_cache_cuts).
 */
struct metrics_cache;
void render_metrics(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
		    struct metrics_cache *c);
/* A family's metadata lines (a counter's samples add _total), for metrics_own.c's families. */
void metrics_header(struct out *o, bool prom, const char *name, bool counter, const char *unit,
		    const char *help);
/* metrics_own.c: the exposition's own families, after the cgroups'. */
void metrics_own(struct out *o, bool prom, const struct render_opts *a, const struct view *v);
/* The series row r writes in a scrape of every collector (metrics.c). */
size_t metrics_row_series(const struct render_opts *a, const struct cg_stat_row *r);
/*
 * series.c, --max-series: at most a->max_series series in v, the deepest rows left out first
 * (the last by path among equals), the others in their order; sets v->dropped, and says so on
 * stderr the first time. 0 or -ENOMEM.
 */
int view_bound_series(const struct render_opts *a, struct view *v);
/* A name escaped for q, as the writers put it, in a string of its own (NULL without memory). */
char *escaped(const char *name, enum quoting q);
/* The byte offset of character k of escaped text s[0, len), or len. */
size_t char_offset(const char *s, size_t len, size_t k);

#endif
