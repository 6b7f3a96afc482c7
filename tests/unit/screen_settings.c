// SPDX-License-Identifier: MIT
/*
 * cgtop2's settings file (cmd/cgtop2/screen/settings.c): the KEY=VALUE parser on literal text, its
 * writer read back, and the file written atomically, never through a symbolic link.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "screen/settings.h"
#include "check.h"

/* main.c's, which this test does not link */
const char *const order_names[] = { "path", "tasks", "cpu", "memory", "io", "pressure" };

static int parse(const char *text, struct settings *s, char *why)
{
	return settings_parse(text, strlen(text), s, why, 256);
}

static void test_parse(void)
{
	struct settings s = { 0 };
	char why[256] = "";

	CHECK_INT(parse("# a comment\n\norder=memory\ncolumns=cpu,history,tasks\nview=tree\n"
			"delay=1.5s\nlater=a newer cgtop2's key\n",
			&s, why),
		  0);
	CHECK(s.have == (SET_ORDER | SET_COLUMNS | SET_VIEW | SET_DELAY));
	CHECK(s.order == ORDER_MEMORY && s.tree && s.delay_ns == 1500000000ull);
	/* shown: tasks (1), cpu (2), history; hidden: the other six table columns */
	CHECK(s.hidden == ((1u << 3) | (1u << 4) | (1u << 5) | (1u << 6) | (1u << 7) | (1u << 8)));
	/* nothing said: nothing set, the defaults' order */
	CHECK_INT(parse("", &s, why), 0);
	CHECK(s.have == 0 && s.order == ORDER_CPU);
	CHECK_INT(parse("view=list", &s, why), 0);
	CHECK(s.have == SET_VIEW && !s.tree);
	CHECK_INT(parse("columns=\n", &s, why), 0);
	CHECK(s.have == SET_COLUMNS && (s.hidden & SETTINGS_HIST) && (s.hidden & (1u << 1)));
	/* each damage: the line and what the key takes, and *ret untouched */
	s.order = ORDER_IO;
	CHECK_INT(parse("order=cpu\norder=sideways\n", &s, why), -EINVAL);
	CHECK_STR(why, "line 2: order takes path, tasks, cpu, memory, io or pressure");
	CHECK(s.order == ORDER_IO);
	CHECK_INT(parse("view=upside-down", &s, why), -EINVAL);
	CHECK_STR(why, "line 1: view takes tree or list");
	CHECK_INT(parse("delay=0", &s, why), -EINVAL);
	CHECK_STR(why, "line 1: delay takes seconds or a time with us, ms, s or min, as -d");
	CHECK_INT(parse("delay=2 days", &s, why), -EINVAL);
	CHECK_INT(parse("columns=cpu,cpu", &s, why), -EINVAL);
	CHECK(!strncmp(why, "line 1: columns takes", 21));
	CHECK_INT(parse("columns=cpu,", &s, why), -EINVAL);
	CHECK_INT(parse("columns=,cpu", &s, why), -EINVAL);
	CHECK_INT(parse("columns=CPU", &s, why), -EINVAL);
	CHECK_INT(parse("\n\njust words\n", &s, why), -EINVAL);
	CHECK_STR(why, "line 3: not KEY=VALUE");
	CHECK_INT(parse("=cpu", &s, why), -EINVAL);
	CHECK_STR(why, "line 1: not KEY=VALUE");
	CHECK_INT(parse("order=cpu\r\n", &s, why), -EINVAL);
	CHECK_STR(why, "line 1: a control character");
	CHECK_INT(parse("order=cpu \n", &s, why), -EINVAL);
	CHECK_INT(settings_parse("view=tree\nvi\0ew=list\n", 21, &s, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "line 2: a NUL byte");
	{
		char big[SETTINGS_MAX + 2];

		memset(big, '#', sizeof(big));
		CHECK_INT(settings_parse(big, sizeof(big), &s, why, sizeof(why)), -EINVAL);
		CHECK_STR(why, "line 0: longer than 4096 bytes");
	}
}

static void test_format(void)
{
	struct settings s = { .order = ORDER_PRESSURE,
			      .hidden = (1u << 1) | SETTINGS_HIST,
			      .tree = true,
			      .delay_ns = 250000000 },
			back;
	char buf[1024], why[256];
	static const uint64_t delays[] = { 1000000000ull,     250000000,     200000,
					   86400000000000ull, 1500000001ull, 500 };

	CHECK(settings_format(&s, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\norder=pressure\ncolumns=cpu,memory,in,out,psi-cpu,psi-memory,psi-io\n"
			  "view=tree\ndelay=250ms\n"));
	for (size_t i = 0; i < ARRAY_SIZE(delays); i++) {
		s.delay_ns = delays[i];
		CHECK(settings_format(&s, buf, sizeof(buf)) > 0);
		CHECK_INT(settings_parse(buf, strlen(buf), &back, why, sizeof(why)), 0);
		CHECK(back.order == s.order && back.hidden == s.hidden && back.tree == s.tree &&
		      back.delay_ns == s.delay_ns);
	}
	CHECK_INT(settings_format(&s, buf, 10), -ENOSPC);
	/* stats=: the statistics' columns by key, kept in their order, round trip */
	s.n_stats = 2;
	snprintf(s.stats[0], SETTINGS_NAME, "io_read_ops");
	snprintf(s.stats[1], SETTINGS_NAME, "pressure_io_some_seconds");
	CHECK(settings_format(&s, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "\nstats=io_read_ops,pressure_io_some_seconds\n"));
	CHECK_INT(settings_parse(buf, strlen(buf), &back, why, sizeof(why)), 0);
	CHECK(back.have & SET_STATS);
	CHECK_INT((int)back.n_stats, 2);
	CHECK_STR(back.stats[1], "pressure_io_some_seconds");
	CHECK_INT(settings_parse("stats=a,b,c,d,e\n", 16, &back, why, sizeof(why)), -EINVAL);
	CHECK_STR(why,
		  "line 1: stats takes at most 4 keys of cgtop2 --fields=help, comma-separated");
	CHECK_INT(settings_parse("stats=a,\n", 9, &back, why, sizeof(why)), -EINVAL);
	CHECK_INT(settings_parse("stats=A b\n", 10, &back, why, sizeof(why)), -EINVAL);
	CHECK_INT(settings_parse("stats=\n", 7, &back, why, sizeof(why)), 0);
	CHECK_INT((int)back.n_stats, 0);
}

static void test_files(void)
{
	char dir[] = "/tmp/cgkit-settings.XXXXXX", path[1024], other[512], why[1024];
	struct settings s = { .order = ORDER_TASKS, .delay_ns = 2000000000ull }, back;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	setenv("XDG_CONFIG_HOME", dir, 1);
	/* none: 0, nothing said */
	CHECK_INT(settings_load(&back, why, sizeof(why)), 0);
	/* written (the directory made, 0700), read back */
	CHECK_INT(settings_save(&s, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/cgtop2", dir);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0700);
	CHECK_INT(settings_load(&back, why, sizeof(why)), 1);
	CHECK(back.order == ORDER_TASKS && back.delay_ns == 2000000000ull && !back.tree);
	/* a symbolic link is not read, and W replaces it, its target untouched */
	snprintf(path, sizeof(path), "%s/cgtop2/config", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	CHECK(unlink(path) == 0);
	CHECK(symlink(other, path) == 0);
	{
		FILE *f = fopen(other, "w");

		CHECK(f && fputs("order=io\n", f) >= 0 && fclose(f) == 0);
	}
	CHECK_INT(settings_load(&back, why, sizeof(why)), -ELOOP);
	CHECK(strstr(why, "a symbolic link, not followed") != NULL);
	CHECK_INT(settings_save(&s, why, sizeof(why)), 0);
	CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
	CHECK(stat(other, &st) == 0 && st.st_size == 9);
	/* damaged: refused with the line */
	{
		FILE *f = fopen(path, "w");

		CHECK(f && fputs("order=io\nview=sideways\n", f) >= 0 && fclose(f) == 0);
	}
	CHECK_INT(settings_load(&back, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "/cgtop2/config: line 2: view takes tree or list") != NULL);
	/* cgtop2/ a link elsewhere: not written through */
	CHECK(unlink(path) == 0);
	snprintf(path, sizeof(path), "%s/cgtop2", dir);
	CHECK(rmdir(path) == 0);
	CHECK(unlink(other) == 0 && mkdir(other, 0700) == 0);
	CHECK(symlink(other, path) == 0);
	CHECK(settings_save(&s, why, sizeof(why)) < 0);
	CHECK(strstr(why, "not a directory (a symbolic link?)") != NULL);
	snprintf(path, sizeof(path), "%s/config", other);
	CHECK(access(path, F_OK) < 0);
	/* neither variable: nothing to read, and a save says why */
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	CHECK_INT(settings_load(&back, why, sizeof(why)), 0);
	CHECK_INT(settings_save(&s, why, sizeof(why)), -ENOENT);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK_INT(system(path), 0);
}

int main(void)
{
	test_parse();
	test_format();
	test_files();
	return CHECK_DONE();
}
