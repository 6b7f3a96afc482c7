/* SPDX-License-Identifier: MIT */
/* What the four tools share: exit codes, the one error line, and text made safe to echo. */
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

#include "error.h"
#include "parse.h"

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
 * Room for an argument or a line of a file in a message: cg_quote cuts what does not fit with
 * "...", so a megabyte of garbage is echoed as a few dozen characters, escaped.
 */
#define TOOL_SHOWN_SIZE 72
/* s escaped and cut, in a buffer that lives until the end of the enclosing block */
#define TOOL_SHOWN(s) cg_quote((s), (char[TOOL_SHOWN_SIZE]){ 0 }, TOOL_SHOWN_SIZE)

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
static inline void __attribute__((format(printf, 1, 2))) tool_say(const char *fmt, ...)
{
	char raw[2048], buf[4 * sizeof(raw)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", program_invocation_short_name, cg_quote(raw, buf, sizeof(buf)));
}

/* The error line of a failure common/ described, or strerror(r) when it left no diagnostic. */
static inline void tool_report(const struct cg_diag *d, int r)
{
	char buf[2048];

	if (d->what[0] || d->why[0])
		fprintf(stderr, "%s: %s\n", program_invocation_short_name,
			cg_diag_format(d, buf, sizeof(buf)));
	else
		tool_say("%s", strerror(r < 0 ? -r : r));
}

/* tool_report as the cg_diag_fn of an operation that goes on past a failure */
static inline void tool_report_fn(const struct cg_diag *d, int r, void *ctx)
{
	tool_report(d, r);
}

/* "process" or "processes" after a count: "1 process", "0 processes" */
/*
 * argp_parse exits by itself on a usage error; what it returns is a failure of its own or a
 * parser's (ENOMEM under a low ulimit -v), with the arguments half read. Going on would act
 * on defaults nobody asked for (cgtop2 then watched the whole tree, or crashed): exit instead.
 */
static inline void tool_parse(const struct argp *argp, int argc, char **argv, unsigned flags,
			      void *input, int status)
{
	int r = argp_parse(argp, argc, argv, flags, NULL, input);

	if (r) {
		fprintf(stderr, "%s: read the arguments: %s\n", program_invocation_short_name,
			strerror(r));
		exit(status);
	}
}

static inline const char *tool_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The exit status tool_close_stdout gives a write error (cgexec2: its own 125). */
static inline int *tool_stdout_status(void)
{
	static int status = TOOL_EXIT_FAILED;

	return &status;
}

/*
 * What coreutils' close_stdout does, run at exit: what stdio still holds for stdout is written
 * and stdout closed, and a failure (a full disk, an I/O error) is said and turns the exit
 * status into a failure. argp's --help and --version end with exit(), so this is the one place
 * that sees their write. Quiet when the caller closed stdout and nothing was written, and on
 * EPIPE: a reader that went away (head -1) ends the tool as quietly as SIGPIPE would.
 */
static inline void tool_close_stdout(void)
{
	bool pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
	int err;

	errno = 0;
	if (fclose(stdout) == 0) {
		if (!failed)
			return;
		err = 0; /* the error was earlier, its errno is gone */
	} else {
		err = errno;
		if (!failed && !pending && err == EBADF)
			return;
	}
	if (err == EPIPE)
		return;
	if (err)
		tool_say("write error on standard output: %s", strerror(err));
	else
		tool_say("write error on standard output");
	_exit(*tool_stdout_status());
}

/* Each main calls this first: tool_close_stdout at exit, a write error exiting with status. */
static inline void tool_check_stdout(int status)
{
	static char buf[1 << 16]; /* glibc ignores the size setvbuf is given with no buffer */

	*tool_stdout_status() = status;
	/*
	 * stdio forgets the errno of a write that fails before fclose, so the error line could
	 * not say why: a buffer larger than a page keeps one-shot output (--help is past 4 KiB)
	 * whole until the close, where the reason is known. A terminal stays line-buffered.
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	atexit(tool_close_stdout);
}

#endif
