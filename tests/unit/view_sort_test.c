// SPDX-License-Identifier: MIT
/*
 * output/view_sort.c: a view whose key order is kept and patched from one refresh to the next
 * has its rows in the order of a view sorted afresh, refresh after refresh, in every key order,
 * while keys move (one row, a few, most of them), become unknown and known again, tie, and
 * with a filter; and a new shape (rows came or went) sorts afresh.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/render.h"
#include "tool.h"

/* out.c's failure line (cmd/tool.c is the tools', not the libraries'): never said here */
void tool_say(const char *fmt, ...)
{
	(void)fmt;
	check_failures++;
}

#define N 200

static struct cg_stat_row rows[N];
static struct cg_stat_row *in[N];
static char names[N][16];

/* a cheap generator, the same run after run */
static unsigned seed = 12345;
static unsigned next(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static void change(size_t count)
{
	for (size_t c = 0; c < count; c++) {
		struct cg_stat_row *r = &rows[next() % N];

		r->tasks = next() % 5;
		r->memory = next() % 7 * 4096;
		r->cpu_percent = (double)(next() % 4);
		r->io_read_bps = (double)(next() % 3);
		r->psi[0] = (double)(next() % 3) / 4;
		r->have ^= next() % 9 ? 0 : CG_STAT_CPU_RATE | CG_STAT_MEMORY;
	}
}

static void same_as_afresh(int line, struct view *kept, size_t n, uint64_t shape, enum order o,
			   const char *filter)
{
	struct view fresh = { 0 };

	CHECK_INT(make_view(in, n, shape, o, filter, kept), 0);
	CHECK_INT(make_view(in, n, 0, o, filter, &fresh), 0);
	CHECK_INT(kept->n, fresh.n);
	for (size_t i = 0; i < kept->n && i < fresh.n; i++)
		if (kept->rows[i] != fresh.rows[i]) {
			fprintf(stderr, "line %d: order %d: row %zu is %s, afresh %s\n", line,
				(int)o, i, kept->rows[i]->path, fresh.rows[i]->path);
			check_failures++;
			break;
		}
	view_free(&fresh);
}

int main(void)
{
	static const enum order orders[] = { ORDER_TASKS, ORDER_CPU, ORDER_MEMORY, ORDER_IO,
					     ORDER_PRESSURE };

	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "/c%03zu", (i * 37) % N);
		rows[i] = (struct cg_stat_row){ .path = names[i],
						.have = CG_STAT_TASKS | CG_STAT_CPU_RATE |
							CG_STAT_MEMORY | CG_STAT_IO_RATE |
							CG_STAT_PSI_CPU };
		in[i] = &rows[i];
	}
	for (size_t k = 0; k < sizeof(orders) / sizeof(orders[0]); k++) {
		struct view v = { 0 };

		same_as_afresh(__LINE__, &v, N, 7, orders[k], NULL);
		for (int round = 0; round < 30; round++) {
			/* none, one, a few, most */
			change(round % 4 == 0 ? 0 : round % 4 == 1 ? 1 : round % 4 == 2 ? 10 : 150);
			same_as_afresh(__LINE__, &v, N, 7, orders[k], round % 5 ? NULL : "c1");
		}
		/* another shape: the rows are others (fewer) */
		same_as_afresh(__LINE__, &v, N - 20, 8, orders[k], NULL);
		change(5);
		same_as_afresh(__LINE__, &v, N - 20, 8, orders[k], NULL);
		/* another order with the same shape */
		same_as_afresh(__LINE__, &v, N - 20, 8, orders[(k + 1) % 5], NULL);
		view_free(&v);
	}
	return CHECK_DONE();
}
