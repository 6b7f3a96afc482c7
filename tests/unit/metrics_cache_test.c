// SPDX-License-Identifier: MIT
/*
 * output/metrics_cache.c: an exposition made with the cgroups' lines kept from the last one is
 * byte for byte the exposition made afresh from the same sample, scrape after scrape, while
 * values change, cgroups come and go, a device or a thread appears, a collector's value
 * becomes known, a name needs escaping; in both formats, cgkit's names and cAdvisor's, with
 * -P's count and -H's threads. And it says when nothing changed.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/metrics_cache.h"
#include "output/render.h"
#include "pipeline/args.h"
#include "tool.h"

/* out.c's failure line (cmd/tool.c is the tools', not the libraries'): never said here */
void tool_say(const char *fmt, ...)
{
	(void)fmt;
	check_failures++;
}

#define N_ROWS 6

static struct cg_stat_row rows[N_ROWS];
static struct cg_stat_iodev dev = { .io = { .major = 8, .minor = 0 }, .name = "sda" };
static struct cg_stat_thread thr = { .tid = 4242, .comm = "worker\"1", .ticks = 250 };

static const char *const paths[N_ROWS] = {
	"/", "/system.slice", "/system.slice/nginx.service", "/we\tird", "/a/b", "/a/c\\d",
};

static void rows_init(void)
{
	for (size_t i = 0; i < N_ROWS; i++) {
		struct cg_stat_row *r = &rows[i];

		*r = (struct cg_stat_row){ .path = (char *)paths[i], .depth = i ? 1 : 0 };
		r->have = CG_STAT_TASKS | CG_STAT_CPU | CG_STAT_MEMORY | CG_STAT_PSI_CPU;
		r->tasks = i;
		r->cpu_ns = 1000000007ull * (i + 1);
		r->memory = 4096 * i;
		r->psi[0] = 0.25 * (double)i;
		r->x_have = 1ull << CG_X_PIDS_MAX;
		r->x[CG_X_PIDS_MAX] = i % 2 ? CG_UNLIMITED : 100 + i;
	}
}

/* The exposition of rows (those of keep[] set) with c and without: the same bytes. */
static void same(int line, const struct cgtop2_args *a, bool prom, struct metrics_cache *c,
		 const bool *keep)
{
	struct cg_stat_row *in[N_ROWS];
	struct out fresh = { .fd = -1 }, kept = { .fd = -1 };
	struct view v = { .rows = in, .time_ns = 1765000000ull * 1000000000ull };

	for (size_t i = 0; i < N_ROWS; i++)
		if (keep[i])
			in[v.n++] = &rows[i];
	render_metrics(&fresh, prom, a, &v, NULL);
	render_metrics(&kept, prom, a, &v, c);
	if (fresh.failed || kept.failed || fresh.len != kept.len ||
	    memcmp(fresh.s, kept.s, fresh.len)) {
		fprintf(stderr,
			"line %d: compat %d count %d threads %d prom %d: the kept exposition "
			"differs:\n--- afresh\n%s\n--- kept\n%s\n",
			line, (int)a->compat, (int)a->count, (int)a->threads, (int)prom,
			fresh.s ? fresh.s : "", kept.s ? kept.s : "");
		check_failures++;
	}
	free(fresh.s);
	free(kept.s);
}

#define SAME() same(__LINE__, a, prom, c, keep)

static void scrapes(const struct cgtop2_args *a, bool prom)
{
	struct metrics_cache *c = metrics_cache_new();
	bool keep[N_ROWS] = { true, true, true, true, true, false };

	CHECK(c != NULL);
	rows_init();
	SAME();
	/* nothing changed: the same lines, and the cache says so */
	SAME();
	CHECK(metrics_cache_unchanged(c));
	/* a counter of one cgroup moves */
	rows[2].cpu_ns += 1;
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	SAME();
	CHECK(metrics_cache_unchanged(c));
	/* a cgroup goes, another comes */
	keep[1] = false;
	keep[5] = true;
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	/* and the first comes back, with another value than it had */
	keep[1] = true;
	rows[1].memory += 1;
	SAME();
	/* a device, a thread (threaded), a collector's value known, a PSI share */
	rows[3].iodevs = &dev;
	rows[3].n_iodevs = 1;
	dev.io.have = 1u << CG_IO_RBYTES;
	dev.io.v[CG_IO_RBYTES] = 512;
	rows[4].have |= CG_STAT_THREADED;
	rows[4].threads = &thr;
	rows[4].n_threads = 1;
	rows[0].x_have |= 1ull << CG_X_MEM_MAX;
	rows[0].x[CG_X_MEM_MAX] = 1 << 20;
	rows[2].psi[0] = 1.5;
	SAME();
	/* a value the row's key holds but the previous scrape's did not */
	dev.io.v[CG_IO_RBYTES] = 1024;
	thr.ticks++;
	SAME();
	/* an unknown value's slot changes: no line says it, the lines are the same */
	rows[2].x[CG_X_MEM_MAX] = 7;
	SAME();
	/* a path changes in place (another cgroup at the same row) */
	rows[0].path = "/renamed";
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	metrics_cache_free(c);
	rows[3].iodevs = NULL;
	rows[3].n_iodevs = 0;
	rows[4].threads = NULL;
	rows[4].n_threads = 0;
}

int main(void)
{
	struct cgtop2_args a = { .compat = COMPAT_NONE };

	for (int compat = 0; compat < 2; compat++)
		for (int count = 0; count < 2; count++)
			for (int threads = 0; threads < 2; threads++)
				for (int prom = 0; prom < 2; prom++) {
					a.compat = compat ? COMPAT_CADVISOR : COMPAT_NONE;
					a.count = count ? CG_COUNT_PROCESSES : CG_COUNT_TASKS;
					a.threads = threads;
					scrapes(&a, prom);
				}
	/* one cache across formats and settings: what it kept under another is not used */
	{
		struct metrics_cache *c = metrics_cache_new();
		bool keep[N_ROWS] = { true, true, true, true, true, true };

		rows_init();
		a = (struct cgtop2_args){ .compat = COMPAT_NONE };
		same(__LINE__, &a, true, c, keep);
		same(__LINE__, &a, false, c, keep);
		a.compat = COMPAT_CADVISOR;
		same(__LINE__, &a, false, c, keep);
		a.count = CG_COUNT_USER_PROCESSES;
		same(__LINE__, &a, true, c, keep);
		metrics_cache_free(c);
	}
	return CHECK_DONE();
}
