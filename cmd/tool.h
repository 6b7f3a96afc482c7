/* SPDX-License-Identifier: MIT */
/* What the four tools share: exit codes, the one error line, and text made safe to echo. */
#ifndef CGKIT_TOOL_H
#define CGKIT_TOOL_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

/* argp's --version line, the same in every tool: "cgtop2 (cgkit) 0.1.0" */
#define TOOL_ARGP_VERSION(tool) const char *argp_program_version = tool " (cgkit) " CGKIT_VERSION

/* Exit codes of cgcreate2, cgmigrate and cgtop2 (cgexec2 has its own, as env(1)). */
#define TOOL_EXIT_OK	 0
#define TOOL_EXIT_FAILED 1
#define TOOL_EXIT_USAGE	 64 /* argp's, sysexits' EX_USAGE */

/*
 * Room for an argument or a line of a file in a message: cg_quote cuts what does not fit with
 * "...", so a megabyte of garbage is echoed as a few dozen characters, escaped.
 */
#define TOOL_SHOWN_SIZE 72
/* s escaped and cut, in a buffer that lives until the end of the enclosing block */
#define TOOL_SHOWN(s) cg_quote((s), (char[TOOL_SHOWN_SIZE]){ 0 }, TOOL_SHOWN_SIZE)

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

#endif
