// SPDX-License-Identifier: MIT
/*
 * output/metrics_cache.c: an exposition made with the cgroups' lines kept from the last one is
 * byte for byte the exposition made afresh from the same sample, scrape after scrape, while
 * values change, cgroups come and go, a device or a thread appears, a collector's value
 * becomes known, a name needs escaping, a kernel statistic or a network counter moves, a
 * network namespace changes hands; in both formats, cgkit's names and cAdvisor's, with -P's
 * count and -H's threads. And it says when nothing changed. Gzipped in the chunks it cuts, with
 * the chunks of the last body kept (serve_io.c gz_chunks_gzip, one keep a format as the
 * server has), it is the same bytes after gunzip, scrape after scrape.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "names/netdev.h"
#include "output/metrics_cache.h"
#include "output/render.h"
#include "pipeline/args.h"
#include "serve/serve_io.h"
#include "tool.h"

/* out.c's failure line (cmd/tool.c is the tools', not the libraries'): never said here */
void tool_say(const char *fmt, ...)
{
	(void)fmt;
	check_failures++;
}

#define N_ROWS 6
/* kernel statistics: a counter in microseconds, the last (past the first word of k_have), one
 * with cAdvisor's own name */
#define KUSEC (CG_KV_CPU_LOCAL_THROTTLED_USEC - CG_KV_STAT0)
#define KHIGH (CG_K_N - 1)
#define KCADV (CG_KV_MS_INACTIVE_FILE - CG_KV_STAT0)

static void k_set(struct cg_stat_row *r, int i, uint64_t v)
{
	CHECK(cg_kstat_set(r, i, v) == 0);
	CHECK(cg_kstat_known(r, i) && cg_kstat_get(r, i) == v);
}

/* statistic i of r unknown from now on, the others as they were */
static void k_drop(struct cg_stat_row *r, int i)
{
	struct cg_stat_row was = *r;
	uint64_t v[CG_K_N];

	for (int j = 0; j < CG_K_N; j++)
		v[j] = cg_kstat_get(&was, j);
	memset(r->k_have, 0, sizeof(r->k_have));
	for (int j = 0; j < CG_K_N; j++)
		if (j != i && cg_kstat_known(&was, j))
			k_set(r, j, v[j]);
}

/*
 * names/netdev.c stood in for: row i's cgroup has a member in namespace net_ns[i] (0: the
 * host's) that started at net_start[i]; namespace 7 has eth0 and lo, 9 has veth1 and eth1.
 */
static uint64_t net_ns[N_ROWS], net_start[N_ROWS];
static struct cg_net_if ifs7[2] = { { .name = "eth0" }, { .name = "lo" } },
			ifs9[2] = { { .name = "veth1" }, { .name = "eth1" } };
static const struct cg_net_ns ns7 = { .ns = 7, .ifs = ifs7, .n = 2 },
			      ns9 = { .ns = 9, .ifs = ifs9, .n = 2 };
static const char *const paths[N_ROWS];

void cg_net_refresh(void);
int cg_net_member(const char *path, struct cg_net_member *ret);
const struct cg_net_ns *cg_net_counters(const struct cg_net_member *m);

void cg_net_refresh(void)
{
}

int cg_net_member(const char *path, struct cg_net_member *ret)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (!strcmp(path, paths[i]) && net_ns[i]) {
			*ret = (struct cg_net_member){ .ns = net_ns[i],
						       .start = net_start[i],
						       .pid = (pid_t)(100 + i) };
			return 0;
		}
	return -ENOENT;
}

const struct cg_net_ns *cg_net_counters(const struct cg_net_member *m)
{
	return m->ns == 7 ? &ns7 : m->ns == 9 ? &ns9 : NULL;
}

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

		free(r->k);
		free(r->x);
		*r = (struct cg_stat_row){ .path = (char *)paths[i], .depth = i ? 1 : 0 };
		r->have = CG_STAT_TASKS | CG_STAT_CPU | CG_STAT_MEMORY | CG_STAT_PSI_CPU;
		r->tasks = i;
		r->cpu_ns = 1000000007ull * (i + 1);
		r->memory = 4096 * i;
		r->psi[0] = 0.25 * (double)i;
		CHECK(cg_stat_x_set(r, CG_X_PIDS_MAX, i % 2 ? CG_UNLIMITED : 100 + i) == 0);
		memset(r->k_have, 0, sizeof(r->k_have));
		k_set(r, CG_KV_MS_KERNEL_STACK - CG_KV_STAT0, 8192 * i);
		k_set(r, KCADV, 4096 * i);
		if (i % 2)
			k_set(r, KUSEC, 1234567 * i);
		k_set(r, KHIGH, 3 + i);
		net_ns[i] = i == 2 || i == 4 ? 7 : i == 3 ? 9 : 0;
		net_start[i] = 1000 - i;
		ifs7[0].v[CG_NET_RX_BYTES] = ifs9[1].v[CG_NET_TX_BYTES] = 5000;
	}
}

/* The last kept exposition; the gzipped chunks kept, by format */
static struct out last;
static struct gz_chunks gz[2];

/* the exposition in o gzipped in c's chunks, gunzipped: o's bytes */
static void gzip_same(int line, const struct out *o, struct metrics_cache *c, bool prom)
{
	const struct metrics_cut *cuts;
	unsigned char *z = NULL, *back = malloc(o->len + 1);
	size_t n, zlen = 0;
	uLongf back_len = (uLongf)o->len + 1;
	z_stream s = { 0 };

	cuts = metrics_cache_cuts(c, &n);
	if (!back || gz_chunks_gzip(&gz[prom], o->s, o->len, cuts, n, &z, &zlen) ||
	    inflateInit2(&s, 16 + 15) != Z_OK) {
		check_failures++;
		free(back);
		free(z);
		return;
	}
	s.next_in = z;
	s.avail_in = (uInt)zlen;
	s.next_out = back;
	s.avail_out = (uInt)back_len;
	if (inflate(&s, Z_FINISH) != Z_STREAM_END || s.total_out != o->len ||
	    memcmp(back, o->s, o->len)) {
		fprintf(stderr, "line %d: gunzipped, %lu bytes of %zu, not the exposition\n", line,
			s.total_out, o->len);
		check_failures++;
	}
	inflateEnd(&s);
	free(back);
	free(z);
}

/* The exposition of rows (those of keep[] set) with c and without: the same bytes. */
static void same(int line, const struct render_opts *a, bool prom, struct metrics_cache *c,
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
	if (kept.s)
		gzip_same(line, &kept, c, prom);
	free(last.s);
	last = kept;
	kept.s = NULL;
	if (fresh.failed || last.failed || fresh.len != last.len ||
	    memcmp(fresh.s, last.s, fresh.len)) {
		fprintf(stderr,
			"line %d: compat %d count %d threads %d prom %d: the kept exposition "
			"differs:\n--- afresh\n%s\n--- kept\n%s\n",
			line, (int)a->compat, (int)a->count, (int)a->threads, (int)prom,
			fresh.s ? fresh.s : "", last.s ? last.s : "");
		check_failures++;
	}
	free(fresh.s);
}

#define SAME() same(__LINE__, a, prom, c, keep)

static void scrapes(const struct render_opts *a, bool prom)
{
	struct metrics_cache *c = metrics_cache_new();
	bool keep[N_ROWS] = { true, true, true, true, true, false };

	CHECK(c != NULL);
	rows_init();
	SAME();
	/* the families this test is about are there to be kept */
	CHECK(last.s && strstr(last.s, "network_receive_bytes_total{"));
	CHECK(last.s && strstr(last.s, "_cpu_local_throttled_seconds_total{"));
	CHECK(last.s && strstr(last.s, a->compat == COMPAT_CADVISOR
					       ? "container_memory_total_inactive_file_bytes{"
					       : "cgroup_memory_stat_inactive_file_bytes{"));
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
	CHECK(cg_stat_x_set(&rows[0], CG_X_MEM_MAX, 1 << 20) == 0);
	rows[2].psi[0] = 1.5;
	SAME();
	/* a value the row's key holds but the previous scrape's did not */
	dev.io.v[CG_IO_RBYTES] = 1024;
	thr.ticks++;
	SAME();
	/* a known value moves alone; then one no family writes (a PSI avg300, which decays for
	 * minutes after a stall): the same lines, no change */
	CHECK(cg_stat_x_set(&rows[0], CG_X_MEM_MAX, 2 << 20) == 0);
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	CHECK(cg_stat_xd_set(&rows[0], CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N, 0) == 0);
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	CHECK(cg_stat_xd_set(&rows[0], CG_X_PSI_AVG + CG_PSI_SOME300 * CG_PSI_N, 42) == 0);
	SAME();
	CHECK(metrics_cache_unchanged(c));
	/* a kernel statistic moves, alone: its lines are kept too, so that is a change */
	k_set(&rows[2], CG_KV_MS_KERNEL_STACK - CG_KV_STAT0,
	      cg_kstat_get(&rows[2], CG_KV_MS_KERNEL_STACK - CG_KV_STAT0) + 4096);
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	SAME();
	CHECK(metrics_cache_unchanged(c));
	k_set(&rows[3], KHIGH, cg_kstat_get(&rows[3], KHIGH) + 1);
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	/* a statistic becomes known in one row; another's goes */
	k_set(&rows[0], KUSEC, 999);
	k_drop(&rows[1], KUSEC);
	SAME();
	/* a network counter moves, alone */
	ifs7[0].v[CG_NET_RX_BYTES] += 1500;
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	SAME();
	CHECK(metrics_cache_unchanged(c));
	ifs9[1].v[CG_NET_TX_BYTES]++;
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	/* namespace 7 changes hands: row 2's member started first now (row 4's before) */
	net_start[2] = 1;
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	/* a row leaves namespace 9, a cAdvisor-ignored interface alone is left */
	net_ns[3] = 0;
	SAME();
	/* a device of no name, for cAdvisor's fs families */
	dev.name[0] = '\0';
	SAME();
	CHECK(a->compat != COMPAT_CADVISOR || strstr(last.s, "container_fs_reads_bytes_total{"));
	CHECK(!metrics_cache_unchanged(c));
	/* a path changes in place (another cgroup at the same row) */
	rows[0].path = "/renamed";
	SAME();
	CHECK(!metrics_cache_unchanged(c));
	metrics_cache_free(c);
	free(last.s);
	last = (struct out){ .fd = -1 };
	snprintf(dev.name, sizeof(dev.name), "sda");
	rows[3].iodevs = NULL;
	rows[3].n_iodevs = 0;
	rows[4].threads = NULL;
	rows[4].n_threads = 0;
}

int main(void)
{
	struct render_opts a = { .compat = COMPAT_NONE };

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
		a = (struct render_opts){ .compat = COMPAT_NONE };
		same(__LINE__, &a, true, c, keep);
		same(__LINE__, &a, false, c, keep);
		a.compat = COMPAT_CADVISOR;
		same(__LINE__, &a, false, c, keep);
		a.count = CG_COUNT_USER_PROCESSES;
		same(__LINE__, &a, true, c, keep);
		metrics_cache_free(c);
		free(last.s);
	}
	for (size_t i = 0; i < N_ROWS; i++) {
		free(rows[i].k);
		free(rows[i].x);
	}
	gz_chunks_free(&gz[0]);
	gz_chunks_free(&gz[1]);
	return CHECK_DONE();
}
