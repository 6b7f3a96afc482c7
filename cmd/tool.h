/* SPDX-License-Identifier: MIT */
/*
 * What the four tools share: exit codes, the one error line, the mount table's failure, the -g
 * list, the arguments read with unknown options escaped, and text made safe to echo. The
 * functions are cmd/tool.c's, linked into every tool.
 */
#ifndef CGKIT_TOOL_H
#define CGKIT_TOOL_H

#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "kernel/mount.h"
#include "base/parse.h"
#include "kernel/spec.h"

/* argp's --version line, the same in every tool: "cgtop2 (cgkit) 0.1.0" */
#define TOOL_ARGP_VERSION(tool) const char *argp_program_version = tool " (cgkit) " CGKIT_VERSION

/* Exit codes of cgcreate2, cgmigrate and cgtop2 (cgexec2 has its own, as env(1)). */
#define TOOL_EXIT_OK	 0
#define TOOL_EXIT_FAILED 1
#define TOOL_EXIT_USAGE	 64 /* argp's, sysexits' EX_USAGE */

/*
 * -h for help, as libcgroup's tools and systemd-cgtop take it, beside argp's -? and --help.
 * Each tool's parser answers it with argp_state_help(state, stdout, ARGP_HELP_STD_HELP).
 */
#define TOOL_OPTION_HELP                                                                           \
	{                                                                                          \
		0, 'h', 0, 0, "Give this help list (as -? and --help)", -1                         \
	}

/*
 * An argp option flag of cgkit's own: the option serves, acts or writes, so tool_parse takes
 * it only written whole. getopt_long reads an unambiguous prefix as the option ("cgtop2
 * --list" was --listen and served); an abbreviation of such an option is a usage error that
 * names it. argp ignores flag bits it does not know.
 */
#define TOOL_OPTION_WHOLE 0x4000

/*
 * Room for an argument or a line of a file in a message: cg_quote cuts what does not fit with
 * "...", so a megabyte of garbage is echoed as a few dozen characters, escaped.
 */
#define TOOL_SHOWN_SIZE 72
/*
 * The one way an argument is echoed: s escaped and cut, in a buffer that lives until the end
 * of the enclosing block. TOOL_SHOWN_N: n bytes that may hold a NUL (a line of a file).
 */
#define TOOL_SHOWN(s) cg_quote((s), (char[TOOL_SHOWN_SIZE]){ 0 }, TOOL_SHOWN_SIZE)
/* token for token cmd/cgtop2/serve/webconfig.c's own, which may go (72 is TOOL_SHOWN_SIZE) */
#define TOOL_SHOWN_N(s, len) cg_quote_n((s), (len), (char[72]){ 0 }, 72)

/*
 * A cgroup's path or a unit's name in a -v line, escaped as cg_quote does and whole (only a
 * path past PATH_MAX, from a walk, could be cut), in a buffer that lives until the end of the
 * enclosing block.
 */
#define TOOL_PATH_SIZE (4 * PATH_MAX)
#define TOOL_PATH(s)   cg_quote((s), (char[TOOL_PATH_SIZE]){ 0 }, TOOL_PATH_SIZE)

/* cgcreate2's and cgexec2's refusal of a -r argument (an argument for %s) */
#define TOOL_SET_USAGE                                                                             \
	"--set takes FILE=VALUE, FILE an interface file's name (" CG_SETTING_NAME_RULE "), not '%s'"

/* "tool: TEXT" on stderr, the whole text escaped: one line, whatever it holds. */
void tool_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The error line of a failure common/ described, or strerror(r) when it left no diagnostic. */
void tool_report(const struct cg_diag *d, int r);

/* tool_report as the cg_diag_fn of an operation that goes on past a failure */
void tool_report_fn(const struct cg_diag *d, int r, void *ctx);

/*
 * argp_parse, with three things it lacks. An unknown option is named escaped (getopt would
 * echo it raw: "--\x1b[2J") and ends the tool with argp_err_exit_status, as argp's own usage
 * errors do; so does an abbreviation of a TOOL_OPTION_WHOLE option. What argp_parse returns is a failure of its own or a parser's (ENOMEM under a
 * low ulimit -v), with the arguments half read: going on would act on defaults nobody asked
 * for (cgtop2 then watched the whole tree, or crashed), so the tool ends with status instead.
 * Returns 0 to go on, else the status main returns (nothing below main calls exit()).
 */
int tool_parse(const struct argp *argp, int argc, char **argv, unsigned flags, void *input,
	       int status);

/*
 * The mount table read (cg_layout_load), its failure said in the one wording of every tool:
 * "tool: read the mount table /proc/self/mountinfo: ERROR". Returns 0 or -errno.
 */
int tool_layout_load(struct cg_layout **l);

/*
 * The -g list (cg_specs_parse with flags) into ts, its refusal said as the error line.
 * Returns 0, or the exit status: TOOL_EXIT_USAGE for a spec this system cannot serve (a bad
 * path, an unmounted controller), failed when memory ran out.
 */
int tool_specs(const struct cg_layout *l, char *const *specs, unsigned flags, struct cg_targets *ts,
	       int failed);

/* "process" or "processes" after a count: "1 process", "0 processes" */
static inline const char *tool_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * Each main calls this first: what coreutils' close_stdout does, at exit (stdout written out
 * and closed, a failure said), a write error exiting with status.
 */
void tool_check_stdout(int status);
/* What stdout holds, written now (a -v line before a long wait); a failure is said at exit */
void tool_flush_stdout(void);

#endif
