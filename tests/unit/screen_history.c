// SPDX-License-Identifier: MIT
/*
 * cgtop2's screen history (cmd/cgtop2/screen/history.c): rings per path, bounded, dropped with their
 * cgroup; sparklines in blocks and ASCII; and text.c's widths (wcwidth, C.UTF-8).
 */
#include <locale.h>
#include <math.h>
#include <stdlib.h>

#include "screen/history.h"
#include "output/text.h"
#include "check.h"

static struct cg_stat_row row(const char *path, double cpu)
{
	struct cg_stat_row r = { .path = (char *)path, .have = CG_STAT_CPU_RATE | CG_STAT_MEMORY };

	r.cpu_percent = cpu;
	r.memory = (uint64_t)(cpu * 1000);
	return r;
}

static int add(struct history *h, struct cg_stat_row *rs, size_t n)
{
	struct cg_stat_row *p[1100];

	for (size_t i = 0; i < n; i++)
		p[i] = &rs[i];
	return hist_add(h, p, n);
}

static void test_rings(void)
{
	struct history *h = hist_new();
	struct cg_stat_row rs[1100];
	static char names[1100][16];
	double v[HIST_LEN];
	size_t n;

	CHECK(h != NULL);
	for (int k = 0; k < 5; k++) {
		rs[0] = row("/a", k);
		rs[1] = row("/b", 10 + k);
		rs[2] = row("/c", 20 + k);
		CHECK_INT(add(h, rs, 3), 0);
	}
	CHECK_INT(hist_size(h), 3);
	n = hist_get(h, "/b", HIST_CPU, v, HIST_LEN);
	CHECK_INT(n, 5);
	for (size_t i = 0; i < n; i++)
		CHECK_INT(v[i], 10 + (int)i);
	CHECK_INT(hist_get(h, "/b", HIST_MEM, v, 2), 2);
	CHECK_INT(v[0], 13000);
	CHECK_INT(v[1], 14000);
	/* unknown stays unknown */
	CHECK_INT(hist_get(h, "/a", HIST_IO, v, HIST_LEN), 5);
	CHECK(isnan(v[4]));
	/* /c vanished: its ring goes at once */
	rs[0] = row("/a", 5);
	rs[1] = row("/b", 15);
	CHECK_INT(add(h, rs, 2), 0);
	CHECK_INT(hist_size(h), 2);
	CHECK_INT(hist_get(h, "/c", HIST_CPU, v, HIST_LEN), 0);
	/* a ring holds HIST_LEN refreshes, the latest, oldest first */
	for (int k = 6; k < 6 + 2 * HIST_LEN; k++) {
		rs[0] = row("/a", k);
		CHECK_INT(add(h, rs, 1), 0);
	}
	n = hist_get(h, "/a", HIST_CPU, v, HIST_LEN);
	CHECK_INT(n, HIST_LEN);
	CHECK_INT(v[0], 6 + HIST_LEN);
	CHECK_INT(v[HIST_LEN - 1], 5 + 2 * HIST_LEN);
	CHECK_INT(hist_size(h), 1);
	/* a thousand cgroups, then one: the memory follows what is shown */
	for (int i = 0; i < 1000; i++) {
		snprintf(names[i], sizeof(names[i]), "/n%d", i);
		rs[i] = row(names[i], i);
	}
	CHECK_INT(add(h, rs, 1000), 0);
	CHECK_INT(add(h, rs, 1000), 0);
	CHECK_INT(hist_size(h), 1000);
	CHECK_INT(hist_get(h, "/n999", HIST_CPU, v, HIST_LEN), 2);
	CHECK_INT(add(h, rs + 7, 1), 0);
	CHECK_INT(hist_size(h), 1);
	CHECK_INT(hist_get(h, "/n7", HIST_CPU, v, HIST_LEN), 3);
	hist_clear(h);
	CHECK_INT(hist_size(h), 0);
	CHECK_INT(hist_get(h, "/n7", HIST_CPU, v, HIST_LEN), 0);
	hist_free(h);
}

static void test_spark(void)
{
	double v[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, NAN };
	char buf[64];

	spark(buf, sizeof(buf), v, 10, 10, 1.0, true);
	CHECK_STR(buf, "▁▁▂▃▄▅▆▇█ ");
	spark(buf, sizeof(buf), v, 10, 10, 1.0, false);
	CHECK_STR(buf, "..:-=+*#% ");
	/* fewer values than cells: the newest at the right edge; more: the newest kept */
	spark(buf, sizeof(buf), v, 2, 4, 1.0, false);
	CHECK_STR(buf, "  .%");
	spark(buf, sizeof(buf), v + 6, 3, 2, 1.0, false);
	CHECK_STR(buf, "#%");
	/* the floor keeps small values small */
	spark(buf, sizeof(buf), v + 1, 1, 1, 8.0, false);
	CHECK_STR(buf, ".");
	/* a two-row graph: 16 eighths, the top row from the ninth */
	graph_row(buf, sizeof(buf), v, 9, 9, 1.0, 2, 0, false);
	CHECK_STR(buf, "     :=*%");
	graph_row(buf, sizeof(buf), v, 9, 9, 1.0, 2, 1, false);
	CHECK_STR(buf, ".:=*%%%%%");
}

static void test_text(void)
{
	const char *wide = "\xe4\xb8\xad\xe6\x96\x87x";
	locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);

	if (!utf8) {
		/* no C.UTF-8 (a minimal system): no width is known, every non-ASCII byte escaped */
		CHECK_INT(text_char_width((const unsigned char *)"\xe4\xb8\xad", 3), -1);
		CHECK_INT(text_cols("abc", 3), 3);
		return;
	}
	freelocale(utf8);
	CHECK_INT(text_cols(wide, strlen(wide)), 5);
	CHECK_INT(text_cut(wide, strlen(wide), 3), 3);
	CHECK_INT(text_cut(wide, strlen(wide), 4), 6);
	CHECK_INT(text_cut(wide, strlen(wide), 1), 0);
	CHECK_INT(text_cols("abc", 3), 3);
	CHECK_INT(text_char_width((const unsigned char *)"\x1b", 1), -1);
	CHECK_INT(text_char_width((const unsigned char *)"\xe4\xb8\xad", 3), 2);
	/* U+202E RIGHT-TO-LEFT OVERRIDE and U+0301 COMBINING ACUTE take no column */
	CHECK(text_char_width((const unsigned char *)"\xe2\x80\xae", 3) < 1);
	CHECK(text_char_width((const unsigned char *)"\xcc\x81", 2) < 1);
	CHECK_INT(text_char_width((const unsigned char *)"\xc3\xa9", 2), 1);
}

int main(void)
{
	test_rings();
	test_spark();
	test_text();
	return CHECK_DONE();
}
