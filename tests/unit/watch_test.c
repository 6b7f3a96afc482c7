// SPDX-License-Identifier: MIT
/*
 * Unit tests of common/watch's pure side: events files' changes, --events lists, thresholds,
 * --psi-trigger specs.
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "watch/watch.h"

static void test_diff(void)
{
	struct cg_watch_event ev[8];

	/* cgroup.events: a state per key, both ways */
	CHECK_INT(cg_watch_diff("cgroup.events", "populated 0\nfrozen 0\n",
				"populated 1\nfrozen 1\n", ev, 8),
		  2);
	CHECK_INT(ev[0].kind, CG_EV_POPULATED);
	CHECK_INT(ev[1].kind, CG_EV_FROZEN);
	CHECK_STR(ev[0].file, "cgroup.events");
	CHECK_INT(cg_watch_diff("cgroup.events", "populated 1\nfrozen 1\n",
				"populated 0\nfrozen 0\n", ev, 8),
		  2);
	CHECK_INT(ev[0].kind, CG_EV_EMPTY);
	CHECK_INT(ev[1].kind, CG_EV_THAWED);
	CHECK_INT(cg_watch_diff("cgroup.events", "populated 1\nfrozen 0\n",
				"populated 1\nfrozen 0\n", ev, 8),
		  0);
	/* a new cgroup: from nothing (an older kernel has no frozen key) */
	CHECK_INT(cg_watch_diff("cgroup.events", NULL, "populated 1\n", ev, 8), 1);
	CHECK_INT(ev[0].kind, CG_EV_POPULATED);

	/* memory.events: counters say by how many they rose, and their total */
	CHECK_INT(cg_watch_diff("memory.events",
				"low 0\nhigh 3\nmax 10\noom 1\noom_kill 1\noom_group_kill 0\n",
				"low 5\nhigh 3\nmax 17\noom 3\noom_kill 2\noom_group_kill 0\n", ev,
				8),
		  3);
	CHECK_INT(ev[0].kind, CG_EV_MEMORY_MAX);
	CHECK_INT(ev[0].count, 7);
	CHECK_INT(ev[0].total, 17);
	CHECK_INT(ev[1].kind, CG_EV_OOM);
	CHECK_INT(ev[1].count, 2);
	CHECK_INT(ev[2].kind, CG_EV_OOM_KILL);
	CHECK_INT(ev[2].count, 1);
	CHECK_INT(ev[2].total, 2);
	/* a counter that went down was made again: counted from zero */
	CHECK_INT(cg_watch_diff("memory.events", "oom 9\n", "oom 2\n", ev, 8), 1);
	CHECK_INT(ev[0].count, 2);
	CHECK_INT(cg_watch_diff("memory.events", "oom 9\n", "oom 0\n", ev, 8), 0);
	/* room for one: one */
	CHECK_INT(cg_watch_diff("memory.events", "", "high 1\nmax 1\n", ev, 1), 1);

	/* pids.events */
	CHECK_INT(cg_watch_diff("pids.events", "max 0\n", "max 4\n", ev, 8), 1);
	CHECK_INT(ev[0].kind, CG_EV_PIDS_MAX);
	CHECK_INT(ev[0].count, 4);

	/* not an events file; a value that is no number */
	CHECK_INT(cg_watch_diff("cpu.stat", "", "usage_usec 1\n", ev, 8), -EINVAL);
	CHECK_INT(cg_watch_diff("pids.events", "", "max x\n", ev, 8), -EINVAL);
	CHECK_INT(cg_watch_diff("pids.events", "", "max 18446744073709551616\n", ev, 8), -EINVAL);
	/* an old text that does not parse counts as nothing */
	CHECK_INT(cg_watch_diff("pids.events", "max -1\n", "max 1\n", ev, 8), 1);
}

static void test_kinds(void)
{
	unsigned k = 0;
	const char *bad = NULL;

	CHECK_INT(cg_watch_kinds_parse("all", &k, NULL), 0);
	CHECK_INT(k, CG_EV_ALL);
	CHECK_INT(cg_watch_kinds_parse("empty,oom_kill", &k, NULL), 0);
	CHECK_INT(k, (1u << CG_EV_EMPTY) | (1u << CG_EV_OOM_KILL));
	CHECK_INT(cg_watch_kinds_parse("empty,oom_kil", &k, &bad), -EINVAL);
	CHECK_STR(bad, "oom_kil");
	CHECK_INT(cg_watch_kinds_parse("", &k, NULL), -EINVAL);
	CHECK_INT(cg_watch_kinds_parse("created,", &k, NULL), -EINVAL);
	for (int i = 0; i < CG_EV_N; i++) {
		CHECK_INT(cg_watch_kinds_parse(cg_watch_kind_name(i), &k, NULL), 0);
		CHECK_INT(k, 1u << i);
	}
	CHECK(cg_watch_kind_name(CG_EV_N) == NULL);
}

static void test_threshold(void)
{
	char *path = NULL;
	uint64_t b = 0;

	CHECK_INT(cg_watch_threshold_parse("/a/b:64M", &path, &b), 0);
	CHECK_STR(path, "a/b");
	CHECK_INT(b, 64 << 20);
	free(path);
	CHECK_INT(cg_watch_threshold_parse("/:4096", &path, &b), 0);
	CHECK_STR(path, "");
	CHECK_INT(b, 4096);
	free(path);
	/* the last colon separates: a cgroup name may hold one */
	CHECK_INT(cg_watch_threshold_parse("/a:b:1K", &path, &b), 0);
	CHECK_STR(path, "a:b");
	CHECK_INT(b, 1024);
	free(path);
	CHECK_INT(cg_watch_threshold_parse("/a:2T", &path, &b), 0);
	CHECK_INT(b, 2ULL << 40);
	free(path);
	CHECK_INT(cg_watch_threshold_parse("/a", &path, &b), -EINVAL);
	CHECK_INT(cg_watch_threshold_parse("/a:", &path, &b), -EINVAL);
	CHECK_INT(cg_watch_threshold_parse("/a:1Q", &path, &b), -EINVAL);
	/* the same sizes as --record-size (cg_parse_size): 1KB and 1KiB are 1K */
	CHECK_INT(cg_watch_threshold_parse("/a:1KB", &path, &b), 0);
	CHECK_INT(b, 1024);
	free(path);
	CHECK_INT(cg_watch_threshold_parse("/a:1KiB", &path, &b), 0);
	CHECK_INT(b, 1024);
	free(path);
	CHECK_INT(cg_watch_threshold_parse("/a:max", &path, &b), -EINVAL);
	CHECK_INT(cg_watch_threshold_parse("/a:1Kb", &path, &b), -EINVAL);
	CHECK_INT(cg_watch_threshold_parse("/a:-1", &path, &b), -EINVAL);
	CHECK_INT(cg_watch_threshold_parse("/a:17179869184T", &path, &b), -ERANGE);
	CHECK_INT(cg_watch_threshold_parse("/../a:1", &path, &b), -EINVAL);
}

static void check_trigger(const char *spec, enum cg_psi_res res, bool full, uint64_t stall,
			  uint64_t window, bool sample)
{
	struct cg_psi_trigger t = { 0 };

	CHECK_INT(cg_psi_trigger_parse(spec, &t, NULL), 0);
	CHECK_INT(t.res, res);
	CHECK_INT(t.full, full);
	CHECK_INT(t.stall_us, stall);
	CHECK_INT(t.window_us, window);
	CHECK_INT(t.sample, sample);
}

static void test_psi_trigger(void)
{
	struct cg_psi_trigger t = { 0 };
	const char *why = NULL;

	check_trigger("memory:some:150ms:1s", CG_PSIR_MEMORY, false, 150000, 1000000, false);
	check_trigger("cpu:full:50ms:500ms:sample", CG_PSIR_CPU, true, 50000, 500000, true);
	CHECK_INT(cg_psi_trigger_parse("io:some:1.5:10s", &t, NULL), 0);
	CHECK_INT(t.stall_us, 1500000);
	CHECK_INT(t.window_us, 10000000);
	CHECK_INT(cg_psi_trigger_parse("irq:full:10ms:2s", &t, NULL), 0);
	CHECK_INT(t.res, CG_PSIR_IRQ);
	/* the stall may be the whole window */
	CHECK_INT(cg_psi_trigger_parse("cpu:some:2s:2s", &t, NULL), 0);
	CHECK_STR(cg_psi_res_name(CG_PSIR_IO), "io");
	CHECK(!cg_psi_res_name(CG_PSIR_N));

	/* each rule says itself */
	static const struct {
		const char *spec;
		int err;
		const char *why; /* NULL: not checked */
	} bad[] = {
		{ "irq:some:10ms:2s", -EINVAL, "irq.pressure has only a full line" },
		{ "cpu:some:100ms:400ms", -ERANGE, "the window is 500ms to 10s" },
		{ "cpu:some:100ms:11s", -ERANGE, "the window is 500ms to 10s" },
		{ "cpu:some:3s:2s", -ERANGE, "the stall is at most the window" },
		{ "disk:some:1s:2s", -EINVAL, "the resource is cpu, memory, io or irq" },
		{ "cpu:half:1s:2s", -EINVAL, "the second field is some or full" },
		{ "cpu:some:1s:2s:poll", -EINVAL, "the fifth field, if any, is sample" },
		{ "cpu:some:0:2s", -ERANGE, NULL },
		{ "cpu:some:1500ns:2s", -EINVAL, NULL },
		{ "cpu:some:-1s:2s", -EINVAL, NULL },
		{ "cpu:some:1s", -EINVAL, "RESOURCE:some|full:STALL:WINDOW[:sample]" },
		{ "cpu:some:1s:2s:sample:x", -EINVAL, "RESOURCE:some|full:STALL:WINDOW[:sample]" },
		{ "", -EINVAL, NULL },
		{ "cpu:some:1s:2s:", -EINVAL, NULL },
		{ "cpu::1s:2s", -EINVAL, NULL },
		{ "cpu:some:1s:2s ", -EINVAL, NULL },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		CHECK_INT(cg_psi_trigger_parse(bad[i].spec, &t, &why), bad[i].err);
		CHECK(why != NULL);
		if (bad[i].why)
			CHECK_STR(why, bad[i].why);
	}
	/* untouched on failure */
	t = (struct cg_psi_trigger){ .stall_us = 7 };
	CHECK(cg_psi_trigger_parse("cpu:some:1s:2", &t, NULL) == 0);
	CHECK_INT(t.window_us, 2000000);
	t.stall_us = 7;
	CHECK(cg_psi_trigger_parse("cpu:some:1s:x", &t, NULL) < 0);
	CHECK_INT(t.stall_us, 7);
}

int main(void)
{
	test_diff();
	test_kinds();
	test_threshold();
	test_psi_trigger();
	return CHECK_DONE();
}
