// SPDX-License-Identifier: MIT
/* The conventions of the four tools (cmd/tool.h): what each says, and how, in one place. */
#include "tool.h"

#include "base/cleanup.h"

void tool_say(const char *fmt, ...)
{
	char raw[2048], buf[4 * sizeof(raw)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", program_invocation_short_name, cg_quote(raw, buf, sizeof(buf)));
}

void tool_report(const struct cg_diag *d, int r)
{
	char buf[2048];

	if (d->what[0] || d->why[0])
		fprintf(stderr, "%s: %s\n", program_invocation_short_name,
			cg_diag_format(d, buf, sizeof(buf)));
	else
		tool_say("%s", strerror(r < 0 ? -r : r));
}

void tool_report_fn(const struct cg_diag *d, int r, void *ctx)
{
	tool_report(d, r);
}

int tool_layout_load(struct cg_layout **l)
{
	int r = cg_layout_load(l);

	if (r < 0)
		tool_say("read the mount table %s: %s", cg_layout_source(), strerror(-r));
	return r;
}

int tool_specs(const struct cg_layout *l, char *const *specs, unsigned flags, struct cg_targets *ts,
	       int failed)
{
	struct cg_diag d = { 0 };
	int r = cg_specs_parse(l, specs, flags, ts, &d);

	if (r == 0)
		return 0;
	tool_report(&d, r);
	return r == -ENOMEM ? failed : TOOL_EXIT_USAGE;
}

/* Would the n bytes at s be echoed other than as they are? */
static bool needs_escape(const char *s, size_t n)
{
	_cleanup_free_ char *buf = malloc(4 * n + 4);

	return !buf || strlen(cg_quote_n(s, n, buf, 4 * n + 4)) != n || memcmp(buf, s, n);
}

/* argp's own long options, beside the tool's: --program-name takes a value */
static const struct argp_option argp_own[] = { { "help", 0, 0, 0, 0, 0 },
					       { "usage", 0, 0, 0, 0, 0 },
					       { "version", 0, 0, 0, 0, 0 },
					       { "program-name", 0, "NAME", 0, 0, 0 },
					       { "HANG", 0, "SECS", OPTION_ARG_OPTIONAL, 0, 0 },
					       { 0 } };

/*
 * The option (of argp's tree, or argp's own) that a long name (n bytes, a prefix is enough, as
 * for getopt) or a short key (name NULL) stands for: the entry that says whether it takes a
 * value (an alias takes its predecessor's).
 */
static const struct argp_option *option_find(const struct argp *argp, const char *name, size_t n,
					     int key)
{
	const struct argp_option *o, *real = NULL, *hit;

	for (o = argp ? argp->options : argp_own; o && (o->name || o->key || o->doc); o++) {
		if (!(o->flags & OPTION_ALIAS))
			real = o;
		if (name ? o->name && n && !strncmp(o->name, name, n) : o->key == key && key)
			return real;
	}
	for (const struct argp_child *c = argp ? argp->children : NULL; c && c->argp; c++)
		if ((hit = option_find(c->argp, name, n, key)))
			return hit;
	return argp ? option_find(NULL, name, n, key) : NULL;
}

/*
 * The TOOL_OPTION_WHOLE option that the n bytes at name abbreviate, when they name no option
 * exactly (argp's own options included); NULL otherwise.
 */
static const struct argp_option *whole_abbreviated(const struct argp *argp, const char *name,
						   size_t n, bool *exact)
{
	const struct argp_option *o, *real = NULL, *hit = NULL, *sub;

	for (o = argp ? argp->options : argp_own; o && (o->name || o->key || o->doc); o++) {
		if (!(o->flags & OPTION_ALIAS))
			real = o;
		if (!o->name || strncmp(o->name, name, n))
			continue;
		if (!o->name[n])
			*exact = true;
		else if (!hit && ((o->flags | real->flags) & TOOL_OPTION_WHOLE))
			hit = o;
	}
	for (const struct argp_child *c = argp ? argp->children : NULL; c && c->argp; c++)
		if ((sub = whole_abbreviated(c->argp, name, n, exact)) && !hit)
			hit = sub;
	if (argp)
		whole_abbreviated(NULL, name, n, exact);
	return *exact ? NULL : hit;
}

/*
 * An abbreviation of a TOOL_OPTION_WHOLE option: a usage error that names the option, said in
 * argp's two lines; false then (the caller's exit status is argp's).
 */
static bool check_whole(const struct argp *argp, const char *word, size_t n)
{
	bool exact = false;
	const struct argp_option *o = n ? whole_abbreviated(argp, word + 2, n, &exact) : NULL;

	if (o) {
		fprintf(stderr,
			"%s: option '%s' abbreviates '--%s': write it whole (an option that serves, acts or writes is not taken abbreviated)\nTry `%s --help' or `%s --usage' for more information.\n",
			program_invocation_short_name, TOOL_SHOWN_N(word, n + 2), o->name,
			program_invocation_short_name, program_invocation_short_name);
		return false;
	}
	return true;
}

/*
 * getopt names an unknown option as typed ("unrecognized option '--\x1b[2J'", the value after
 * '=' too), raw: one that would not be echoed as it is is refused first, escaped, in argp's
 * words (the values of known options are escaped where they are echoed). The scan follows
 * getopt: an option's value is the rest of its word or the next argument, "--" ends the
 * options, and so does the first operand with ARGP_IN_ORDER (cgexec2's COMMAND).
 */
static bool check_option_names(const struct argp *argp, int argc, char **argv, bool in_order)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const struct argp_option *k;

		if (!strcmp(o, "--"))
			return true;
		if (o[0] != '-' || !o[1]) {
			if (in_order)
				return true;
			continue;
		}
		if (o[1] == '-') {
			size_t n = strcspn(o + 2, "=");

			if (!check_whole(argp, o, n))
				return false;
			k = option_find(argp, o + 2, n, 0);
			if (k && k->arg && !o[2 + n] && !(k->flags & OPTION_ARG_OPTIONAL))
				i++;
			else if (!k && needs_escape(o, strlen(o)))
				goto bad;
			continue;
		}
		for (const char *c = o + 1; *c; c++) {
			k = option_find(argp, NULL, 0, (unsigned char)*c);
			if (k && k->arg) {
				/* the rest of the word is its value, else (unless optional) the next */
				i += !c[1] && !(k->flags & OPTION_ARG_OPTIONAL);
				break;
			}
			if (!k && needs_escape(c, 1))
				goto bad;
		}
		continue;
	bad:
		fprintf(stderr,
			"%s: unrecognized option '%s'\nTry `%s --help' or `%s --usage' for more information.\n",
			program_invocation_short_name, TOOL_SHOWN(o), program_invocation_short_name,
			program_invocation_short_name);
		return false;
	}
	return true;
}

int tool_parse(const struct argp *argp, int argc, char **argv, unsigned flags, void *input,
	       int status)
{
	int r;

	if (!check_option_names(argp, argc, argv, flags & ARGP_IN_ORDER))
		return argp_err_exit_status;
	r = argp_parse(argp, argc, argv, flags, NULL, input);
	if (r) {
		tool_say("read the arguments: %s", strerror(r));
		return status;
	}
	return 0;
}

/* The exit status tool_close_stdout gives a write error (cgexec2: its own 125). */
static int stdout_status = TOOL_EXIT_FAILED;
/* The errno of tool_flush_stdout's failed write, for the line at exit (stdio keeps none) */
static int flush_errno;

void tool_flush_stdout(void)
{
	if (fflush(stdout) != 0 && !flush_errno)
		flush_errno = errno;
}

/*
 * What coreutils' close_stdout does, run at exit: what stdio still holds for stdout is written
 * and stdout closed, and a failure (a full disk, an I/O error) is said and turns the exit
 * status into a failure. argp's --help and --version end with exit(), so this is the one place
 * that sees their write. Quiet when the caller closed stdout and nothing was written, and on
 * EPIPE: a reader that went away (head -1) ends the tool as quietly as SIGPIPE would.
 */
static void tool_close_stdout(void)
{
	bool pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
	int err;

	errno = 0;
	if (fclose(stdout) == 0) {
		if (!failed)
			return;
		err = flush_errno; /* the error was earlier: its errno, if a flush kept it */
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
	_exit(stdout_status);
}

void tool_check_stdout(int status)
{
	static char buf[1 << 16]; /* glibc ignores the size setvbuf is given with no buffer */

	stdout_status = status;
	/*
	 * stdio forgets the errno of a write that fails before fclose, so the error line could
	 * not say why: a buffer larger than a page keeps one-shot output (--help is past 4 KiB)
	 * whole until the close, where the reason is known. A terminal stays line-buffered.
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	atexit(tool_close_stdout);
}
