// SPDX-License-Identifier: MIT
/* common/usage and common/spawn pure parts: kernel text parsers, the summary line, choosing
 * each field's source across hierarchies (on fixture trees), targets one process can be in. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ops/launch.h"
#include "base/kparse.h"
#include "cgexec2/usage.h"

static void test_parsers(void)
{
	uint64_t a = 0, b = 0;

	CHECK_INT(cg_kparse_cpu_stat("usage_usec 3500\nuser_usec 2000\nsystem_usec 1500\n"
				     "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n",
				     &a, &b),
		  0);
	CHECK_INT(a, 2000000);
	CHECK_INT(b, 1500000);
	/* a key that only starts like the one asked for is another key */
	CHECK_INT(cg_kparse_cpu_stat("user_usec_x 1\nsystem_usec 2\n", &a, &b), -ENOENT);
	CHECK_INT(cg_kparse_cpu_stat("user_usec 1x\nsystem_usec 2\n", &a, &b), -EINVAL);

	CHECK_INT(cg_kparse_cpuacct_stat("user 250\nsystem 100\n", 100, &a, &b), 0);
	CHECK_INT(a, 2500000000ULL);
	CHECK_INT(b, 1000000000ULL);
	CHECK_INT(cg_kparse_cpuacct_stat("user 1\n", 100, &a, &b), -ENOENT);
	CHECK_INT(cg_kparse_cpuacct_stat("user 1\nsystem 1\n", 0, &a, &b), -EINVAL);
	/* nanoseconds that do not fit are an error, not a wrapped count */
	a = b = 7;
	CHECK_INT(cg_kparse_cpuacct_stat("user 18446744073709551\nsystem 1\n", 100, &a, &b),
		  -ERANGE);
	CHECK_INT(cg_kparse_cpu_stat("user_usec 1\nsystem_usec 18446744073709552\n", &a, &b),
		  -ERANGE);
	CHECK(a == 7 && b == 7);
	/* the largest that fits */
	CHECK_INT(cg_kparse_cpu_stat("user_usec 18446744073709551\nsystem_usec 0\n", &a, &b), 0);
	CHECK(a == 18446744073709551000ULL && b == 0);

	CHECK_INT(cg_kparse_io_stat("8:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n"
				    "253:0 rbytes=100 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n",
				    &a, &b),
		  0);
	CHECK_INT(a, 4196);
	CHECK_INT(b, 8192);
	CHECK_INT(cg_kparse_io_stat("", &a, &b), 0);
	CHECK_INT(a, 0);
	CHECK_INT(b, 0);

	CHECK_INT(cg_kparse_blkio("8:0 Read 4096\n8:0 Write 512\n8:0 Sync 4608\n"
				  "8:0 Async 0\n8:0 Discard 0\n8:0 Total 4608\n"
				  "8:16 Read 10\n8:16 Write 0\n8:16 Total 10\nTotal 4618\n",
				  &a, &b),
		  0);
	CHECK_INT(a, 4106);
	CHECK_INT(b, 512);
	CHECK_INT(cg_kparse_blkio("Total 0\n", &a, &b), 0);
	CHECK_INT(a, 0);
}

static void test_format(void)
{
	struct cg_usage u = { 0 };
	char buf[256];

	CHECK_STR(cg_usage_format(&u, 1234567890, buf, sizeof(buf)), "wall=1.234s");
	u = (struct cg_usage){ .have = CG_USAGE_CPU | CG_USAGE_MEM_PEAK | CG_USAGE_IO |
				       CG_USAGE_PIDS_PEAK,
			       .user_ns = 10000000,
			       .system_ns = 2500000000ULL,
			       .mem_peak = 1527808,
			       .io_read = 0,
			       .io_write = 4096,
			       .pids_peak = 3 };
	CHECK_STR(
		cg_usage_format(&u, 5000000, buf, sizeof(buf)),
		"wall=0.005s user=0.010s system=2.500s memory_peak=1527808B io_read=0B io_write=4096B pids_peak=3");
	/* truncation stays NUL-terminated */
	CHECK_STR(cg_usage_format(&u, 0, buf, 12), "wall=0.000s");
}

static void test_delta(void)
{
	struct cg_usage before = { .have = CG_USAGE_CPU | CG_USAGE_IO,
				   .user_ns = 100,
				   .system_ns = 50,
				   .io_read = 10,
				   .io_write = 10 };
	struct cg_usage after = { .have = CG_USAGE_CPU | CG_USAGE_IO | CG_USAGE_MEM_PEAK,
				  .user_ns = 300,
				  .system_ns = 40,
				  .io_read = 15,
				  .io_write = 10,
				  .mem_peak = 7 };

	cg_usage_delta(&before, &after);
	CHECK_INT(after.user_ns, 200);
	CHECK_INT(after.system_ns, 0); /* a counter never runs backwards: clamp */
	CHECK_INT(after.io_read, 5);
	CHECK_INT(after.io_write, 0);
	CHECK_INT(after.mem_peak, 7);
}

/* Two fixture hierarchies under a temporary directory, each with the cgroup "g". */
struct tree {
	char top[64], v2[80], v1[80];
	struct cg_hier h2, h1;
};

static bool tree_make(struct tree *f, const char *v1_label)
{
	char cmd[200];

	snprintf(f->top, sizeof(f->top), "/tmp/exec_usage.XXXXXX");
	f->h2 = (struct cg_hier){ .version = 2, .label = "unified", .fd = -1 };
	f->h1 = (struct cg_hier){ .version = 1, .label = (char *)v1_label, .fd = -1 };
	CHECK(mkdtemp(f->top) != NULL);
	snprintf(f->v2, sizeof(f->v2), "%s/v2/g", f->top);
	snprintf(f->v1, sizeof(f->v1), "%s/v1/g", f->top);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s", f->v2, f->v1);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/v2", f->top);
	f->h2.fd = open(cmd, O_PATH | O_DIRECTORY | O_CLOEXEC);
	snprintf(cmd, sizeof(cmd), "%s/v1", f->top);
	f->h1.fd = open(cmd, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(f->h2.fd >= 0 && f->h1.fd >= 0);
	return f->h2.fd >= 0 && f->h1.fd >= 0;
}

static void tree_free(struct tree *f)
{
	char cmd[200];

	close(f->h1.fd);
	close(f->h2.fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->top);
	CHECK_INT(system(cmd), 0);
}

/* Fixture trees: a v2 cgroup with cpu.stat and memory.peak, a v1 one with cpuacct and pids. */
static void test_read_sources(void)
{
	struct tree f;
	struct cg_target tv[2] = { { .hier = &f.h1, .path = "g" }, { .hier = &f.h2, .path = "g" } };
	struct cg_targets t = { .t = tv, .n = 2 };
	struct cg_usage u;

	if (!tree_make(&f, "cpuacct,pids"))
		return;
	check_put(f.v2, "cpu.stat", "usage_usec 30\nuser_usec 20\nsystem_usec 10\n");
	check_put(f.v2, "memory.peak", "8192\n");
	check_put(f.v1, "cpuacct.usage_user", "999000\n");
	check_put(f.v1, "cpuacct.usage_sys", "1000\n");
	check_put(f.v1, "pids.peak", "4\n");
	check_put(f.v1, "blkio.throttle.io_service_bytes", "8:0 Read 10\n8:0 Write 20\nTotal 30\n");

	/* the unified cpu.stat wins over v1 cpuacct; the rest comes from where it is */
	CHECK_INT(cg_usage_read(&t, &u), 0);
	CHECK_INT(u.have, CG_USAGE_CPU | CG_USAGE_MEM_PEAK | CG_USAGE_IO | CG_USAGE_PIDS_PEAK);
	CHECK_INT(u.user_ns, 20000);
	CHECK_INT(u.system_ns, 10000);
	CHECK_INT(u.mem_peak, 8192);
	CHECK_INT(u.io_read, 10);
	CHECK_INT(u.io_write, 20);
	CHECK_INT(u.pids_peak, 4);

	/* v1 alone: cpuacct's nanoseconds; no memory file: no memory field */
	t.t = &tv[0];
	t.n = 1;
	CHECK_INT(cg_usage_read(&t, &u), 0);
	CHECK_INT(u.have, CG_USAGE_CPU | CG_USAGE_IO | CG_USAGE_PIDS_PEAK);
	CHECK_INT(u.user_ns, 999000);
	CHECK_INT(u.system_ns, 1000);

	/* a cgroup that vanished is an error, not an empty summary */
	tv[0].path = "gone";
	CHECK(cg_usage_read(&t, &u) < 0);
	tree_free(&f);
}

/* OOM kills: v2 memory.events, v1 memory.oom_control's oom_kill, else v1 memory.failcnt */
static void test_read_oom(void)
{
	struct tree f;
	struct cg_target tv[2] = { { .hier = &f.h2, .path = "g" }, { .hier = &f.h1, .path = "g" } };
	struct cg_targets t = { .t = tv, .n = 1 };
	struct cg_usage u, before = { .have = CG_USAGE_OOM_KILL, .oom_kill = 2 };
	char buf[256];

	if (!tree_make(&f, "memory"))
		return;
	check_put(f.v2, "memory.events",
		  "low 0\nhigh 0\nmax 17\noom 3\noom_kill 3\noom_group_kill 0\n");
	check_put(f.v2, "memory.max", "67108864\n");
	check_put(f.v1, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n");
	check_put(f.v1, "memory.failcnt", "5\n");
	check_put(f.v1, "memory.limit_in_bytes", "9223372036854771712\n");

	CHECK_INT(cg_usage_read(&t, &u), 0);
	CHECK_INT(u.have, CG_USAGE_OOM_KILL | CG_USAGE_MEM_MAX);
	CHECK_INT(u.oom_kill, 3);
	CHECK_INT(u.mem_max, 67108864);
	CHECK_INT(u.oom_at, 0);
	CHECK_STR(cg_usage_format(&u, 0, buf, sizeof(buf)), "wall=0.000s oom_kill=3");
	/* a counter: what the run added */
	cg_usage_delta(&before, &u);
	CHECK_INT(u.oom_kill, 1);

	/* v1 without oom_kill in memory.oom_control (before 4.13): failcnt, as a hint */
	t.t = &tv[1];
	CHECK_INT(cg_usage_read(&t, &u), 0);
	CHECK_INT(u.have, CG_USAGE_MEM_FAILCNT | CG_USAGE_MEM_MAX);
	CHECK_INT(u.mem_failcnt, 5);
	CHECK_STR(cg_usage_format(&u, 0, buf, sizeof(buf)), "wall=0.000s memory_failcnt=5");
	CHECK_STR(cg_usage_format_limit(u.mem_max, buf, sizeof(buf)), "max");
	/* 4.13+: oom_kill there wins over failcnt */
	check_put(f.v1, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	CHECK_INT(cg_usage_read(&t, &u), 0);
	CHECK_INT(u.have, CG_USAGE_OOM_KILL | CG_USAGE_MEM_MAX);
	CHECK_INT(u.oom_kill, 1);
	/* the unified target without memory files, then v1 memory: the index says which */
	t.t = tv;
	t.n = 2;
	CHECK_INT(unlinkat(f.h2.fd, "g/memory.events", 0), 0);
	CHECK_INT(unlinkat(f.h2.fd, "g/memory.max", 0), 0);
	CHECK_INT(cg_usage_read(&t, &u), 0);
	CHECK_INT(u.oom_at, 1);
	tree_free(&f);
}

static void test_format_limit(void)
{
	char buf[32];

	CHECK_STR(cg_usage_format_limit(67108864, buf, sizeof(buf)), "64M");
	CHECK_STR(cg_usage_format_limit(1536 * 1024, buf, sizeof(buf)), "1536K");
	CHECK_STR(cg_usage_format_limit(1000, buf, sizeof(buf)), "1000B");
	CHECK_STR(cg_usage_format_limit(0, buf, sizeof(buf)), "0B");
	CHECK_STR(cg_usage_format_limit(UINT64_C(3) << 30, buf, sizeof(buf)), "3G");
	CHECK_STR(cg_usage_format_limit(UINT64_MAX, buf, sizeof(buf)), "max");
}

static void test_placeable(void)
{
	struct cg_hier a = { .version = 1, .label = "cpu", .fd = -1 },
		       b = { .version = 2, .label = "unified", .fd = -1 };
	struct cg_target tv[3] = { { .hier = &a, .path = "x" },
				   { .hier = &b, .path = "x" },
				   { .hier = &b, .path = "y/z" } };
	struct cg_targets t = { .t = tv, .n = 2 };
	struct cg_diag d;
	char buf[1024];

	CHECK_INT(cg_targets_check_placeable(&t, &d), 0);
	t.n = 3;
	CHECK_INT(cg_targets_check_placeable(&t, &d), -EINVAL);
	CHECK_STR(
		cg_diag_format(&d, buf, sizeof(buf)),
		"cgroup /y/z (unified): place: /x (unified) is named too, and a process is in exactly one cgroup of each hierarchy");
}

static void test_exec_status(void)
{
	CHECK_INT(cg_exec_errno_status(ENOENT), 127);
	CHECK_INT(cg_exec_errno_status(ENOTDIR), 127);
	CHECK_INT(cg_exec_errno_status(EACCES), 126);
	CHECK_INT(cg_exec_errno_status(ENOEXEC), 126);
	CHECK_INT(cg_exec_errno_status(ETXTBSY), 126);
}

int main(void)
{
	test_parsers();
	test_format();
	test_delta();
	test_read_sources();
	test_read_oom();
	test_format_limit();
	test_placeable();
	test_exec_status();
	return CHECK_DONE();
}
