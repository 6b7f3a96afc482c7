// SPDX-License-Identifier: MIT
/*
 * The limits collector: every limit of the v2 vocabulary on every layout, v1's files read back
 * through the inverse of common/vocab/cpu.c's and common/vocab/vocab.c's translations (what cgcreate2 -r
 * wrote reads as what it was given). Limits change when someone writes them, not as a workload
 * runs: a cgroup's are read when it is first sampled and then at most every
 * CG_LIMITS_REFRESH_NS, each file opened, read and closed, so that they hold no fd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "vocab/cpu.h"
#include "base/parse.h"
#include "stats_limits.h"
#include "stats.h"
#include "stats_defs.h"
#include "stats_read.h"
#include "stats_state.h"
#include "stats_tree.h"
#include "vocab/vocab.h"

const char *const cg_limit_names[CG_LIMIT_N] = {
	[CG_LIMIT_MEMORY_MAX] = "memory.max",
	[CG_LIMIT_MEMORY_HIGH] = "memory.high",
	[CG_LIMIT_MEMORY_LOW] = "memory.low",
	[CG_LIMIT_MEMORY_MIN] = "memory.min",
	[CG_LIMIT_MEMORY_SWAP_MAX] = "memory.swap.max",
	[CG_LIMIT_CPU_MAX] = "cpu.max",
	[CG_LIMIT_CPU_WEIGHT] = "cpu.weight",
	[CG_LIMIT_CPUSET_CPUS] = "cpuset.cpus",
	[CG_LIMIT_PIDS_MAX] = "pids.max",
	[CG_LIMIT_IO_MAX] = "io.max",
	[CG_LIMIT_IO_WEIGHT] = "io.weight",
};

/*
 * One limit file's text without its last newline, its fd not kept; NULL when the cgroup is not
 * in that hierarchy, the file is absent or the read failed.
 */
static char *read_limit(struct cg_stats *s, struct node *n, int k)
{
	const struct file_def *d = &st_defs[k];
	_cleanup_free_ char *heap = NULL;
	char *text;
	size_t len;
	int r;

	if (!s->hier[d->role] || !(n->srcs & (1u << s->canon[d->role])))
		return NULL;
	if (d->role == R_UNIFIED) {
		char ctrl[16];

		/* hybrid: a unified hierarchy without the controller has none of its files */
		snprintf(ctrl, sizeof(ctrl), "%.*s", (int)strcspn(cg_kf_name(d->file), "."),
			 cg_kf_name(d->file));
		if (!cg_hier_has(s->hier[R_UNIFIED], ctrl))
			return NULL;
		/* the controller enabled in the parent since the last refresh makes the file */
		if (n->fd[k] == FD_ABSENT)
			n->fd[k] = FD_UNTRIED;
	}
	r = st_read_kind(s, n, k, &heap);
	if (r < 0) {
		st_read_failed(s, n, k, r);
		if (!gone(r) && r != -EOPNOTSUPP)
			s->coll_errors[CG_COLL_LIMITS]++;
		return NULL;
	}
	st_close_fd(s, &n->fd[k]);
	n->fd[k] = FD_UNTRIED;
	text = heap ? TAKE_PTR(heap) : strdup(s->buf);
	if (!text) {
		s->coll_errors[CG_COLL_LIMITS]++;
		return NULL;
	}
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

static void keep(struct node *n, int x, uint64_t v)
{
	n->limits_x[x - CG_X_CPU_QUOTA] = v;
	n->limits_have |= 1u << (x - CG_X_CPU_QUOTA);
}

static void set_text(struct cg_stat_row *r, enum cg_limit_text i, char *text)
{
	free(r->limit_text[i]);
	r->limit_text[i] = text;
}

static void read_cpu(struct cg_stats *s, struct node *n)
{
	_cleanup_free_ char *max = read_limit(s, n, F_X_CPU_MAX);
	_cleanup_free_ char *weight = read_limit(s, n, F_X_CPU_WEIGHT);
	int64_t quota;
	uint64_t period, v;

	if (max) {
		if (cg_cpu_max_parse(max, &quota, &period) < 0 || !period) {
			s->coll_errors[CG_COLL_LIMITS]++;
		} else {
			keep(n, CG_X_CPU_QUOTA, quota < 0 ? CG_UNLIMITED : (uint64_t)quota);
			keep(n, CG_X_CPU_PERIOD, period);
		}
	} else {
		_cleanup_free_ char *q = read_limit(s, n, F_X_CPU_V1_QUOTA);
		_cleanup_free_ char *p = read_limit(s, n, F_X_CPU_V1_PERIOD);

		if (q && p) {
			/* cfs_quota_us: -1 is no limit */
			if (cg_parse_i64(q, -1, INT64_MAX, &quota) < 0 ||
			    cg_parse_u64(p, UINT64_MAX, &period) < 0) {
				s->coll_errors[CG_COLL_LIMITS]++;
			} else {
				keep(n, CG_X_CPU_QUOTA, quota < 0 ? CG_UNLIMITED : (uint64_t)quota);
				keep(n, CG_X_CPU_PERIOD, period);
			}
		}
	}
	if (weight) {
		if (cg_parse_u64(weight, 10000, &v) < 0)
			s->coll_errors[CG_COLL_LIMITS]++;
		else
			keep(n, CG_X_CPU_WEIGHT, v);
	} else {
		_cleanup_free_ char *shares = read_limit(s, n, F_X_CPU_V1_SHARES);

		if (shares && cg_parse_u64(shares, UINT64_MAX, &v) < 0) {
			s->coll_errors[CG_COLL_LIMITS]++;
		} else if (shares) {
			keep(n, CG_X_CPU_WEIGHT, cg_cpu_weight_from_shares(v));
			keep(n, CG_X_CPU_SHARES, v);
		}
	}
}

/* v1's io.max and io.weight: translated back from blkio's files, NULL when it has none */
static char *io_v1(struct cg_stats *s, struct node *n, bool weight)
{
	char buf[4096], *t[4] = { NULL };
	int r = -ENOENT;

	if (weight) {
		t[0] = read_limit(s, n, F_X_BFQ_WEIGHT);
		t[1] = read_limit(s, n, F_X_BFQ_WEIGHT_DEVICE);
		if (!t[0] && !t[1])
			t[0] = read_limit(s, n, F_X_BLKIO_WEIGHT);
		if (t[0] || t[1])
			r = cg_vocab_io_weight_from_v1(t[0], t[1], buf, sizeof(buf));
	} else {
		for (int f = 0; f < 4; f++)
			t[f] = read_limit(s, n, F_X_BLKIO_V1_RBPS + f);
		if (t[0] || t[1] || t[2] || t[3])
			r = cg_vocab_io_max_from_v1((const char *const *)t, buf, sizeof(buf));
	}
	for (int f = 0; f < 4; f++)
		free(t[f]);
	if (r < 0 && r != -ENOENT)
		s->coll_errors[CG_COLL_LIMITS]++;
	return r < 0 ? NULL : strdup(buf);
}

static void read_texts(struct cg_stats *s, struct node *n)
{
	struct cg_stat_row *r = &n->row;
	char *t;

	t = read_limit(s, n, F_X_CPUSET_CPUS);
	if (!t)
		t = read_limit(s, n, F_X_CPUSET_V1_CPUS);
	if (t && cg_cpulist_validate(t) < 0) {
		s->coll_errors[CG_COLL_LIMITS]++;
		free(t);
		t = NULL;
	}
	set_text(r, CG_LT_CPUSET_CPUS, t);
	t = read_limit(s, n, F_X_IO_MAX);
	set_text(r, CG_LT_IO_MAX, t ? t : io_v1(s, n, false));
	t = read_limit(s, n, F_X_IO_WEIGHT);
	set_text(r, CG_LT_IO_WEIGHT, t ? t : io_v1(s, n, true));
}

void st_limits_collect(struct cg_stats *s, struct node *n)
{
	/* always_read (benchmarks): every file every time, these too */
	if (!n->limits_t || s->always_read || s->now - n->limits_t >= CG_LIMITS_REFRESH_NS) {
		n->limits_t = s->now ? s->now : 1;
		n->limits_have = 0;
		read_cpu(s, n);
		read_texts(s, n);
	}
	for (int i = 0; i < (int)ARRAY_SIZE(n->limits_x); i++) {
		if (!(n->limits_have & (1u << i)))
			continue;
		/* without memory for it, the limit stays unknown: so it is shown */
		(void)cg_stat_x_set(&n->row, CG_X_CPU_QUOTA + i, n->limits_x[i]);
	}
}

static bool x_known(const struct cg_stat_row *r, int i)
{
	return r->x_have & (1ull << i);
}

static const char *size_text(const struct cg_stat_row *r, int x, char *buf, size_t size)
{
	return x_known(r, x) && cg_vocab_size_format(cg_stat_x(r, x), buf, size) == 0 ? buf : NULL;
}

const char *cg_stat_limit(const struct cg_stat_row *r, enum cg_limit i, char *buf, size_t size)
{
	switch (i) {
	case CG_LIMIT_MEMORY_MAX:
		return size_text(r, CG_X_MEM_MAX, buf, size);
	case CG_LIMIT_MEMORY_HIGH:
		return size_text(r, CG_X_MEM_HIGH, buf, size);
	case CG_LIMIT_MEMORY_LOW:
		/* v1's soft limit is what memory.low writes there */
		return x_known(r, CG_X_MEM_LOW) ? size_text(r, CG_X_MEM_LOW, buf, size)
						: size_text(r, CG_X_MEM_SOFT_LIMIT, buf, size);
	case CG_LIMIT_MEMORY_MIN:
		return size_text(r, CG_X_MEM_MIN, buf, size);
	case CG_LIMIT_MEMORY_SWAP_MAX:
		if (x_known(r, CG_X_MEM_SWAP_MAX))
			return size_text(r, CG_X_MEM_SWAP_MAX, buf, size);
		if (!x_known(r, CG_X_MEM_MEMSW_MAX) || !x_known(r, CG_X_MEM_MAX) ||
		    cg_vocab_size_format(cg_vocab_swap_from_memsw(cg_stat_x(r, CG_X_MEM_MAX),
								  cg_stat_x(r, CG_X_MEM_MEMSW_MAX)),
					 buf, size) < 0)
			return NULL;
		return buf;
	case CG_LIMIT_CPU_MAX:
		if (!x_known(r, CG_X_CPU_QUOTA) || !x_known(r, CG_X_CPU_PERIOD) ||
		    cg_cpu_max_format(cg_stat_x(r, CG_X_CPU_QUOTA) == CG_UNLIMITED
					      ? -1
					      : (int64_t)(cg_stat_x(r, CG_X_CPU_QUOTA) & INT64_MAX),
				      cg_stat_x(r, CG_X_CPU_PERIOD), buf, size) < 0)
			return NULL;
		return buf;
	case CG_LIMIT_CPU_WEIGHT:
		if (!x_known(r, CG_X_CPU_WEIGHT) || cg_stat_x(r, CG_X_CPU_WEIGHT) == CG_UNLIMITED)
			return NULL;
		return size_text(r, CG_X_CPU_WEIGHT, buf, size);
	case CG_LIMIT_PIDS_MAX:
		return size_text(r, CG_X_PIDS_MAX, buf, size);
	case CG_LIMIT_CPUSET_CPUS:
		return r->limit_text[CG_LT_CPUSET_CPUS];
	case CG_LIMIT_IO_MAX:
		return r->limit_text[CG_LT_IO_MAX];
	case CG_LIMIT_IO_WEIGHT:
		return r->limit_text[CG_LT_IO_WEIGHT];
	default:
		return NULL;
	}
}
