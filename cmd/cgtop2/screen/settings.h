/* SPDX-License-Identifier: MIT */
/*
 * The screen's settings that persist: $XDG_CONFIG_HOME/cgtop2/config (default ~/.config), lines
 * of KEY=VALUE, read at start and written by a key. No curses here: unit-tested and fuzzed.
 */
#ifndef CGTOP2_SETTINGS_H
#define CGTOP2_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipeline/args.h"

/* what a file said: a bit each */
enum {
	SET_ORDER = 1 << 0,
	SET_COLUMNS = 1 << 1,
	SET_VIEW = 1 << 2,
	SET_DELAY = 1 << 3,
	SET_STATS = 1 << 4,
};
/* hidden: bit c for the table's column c (1: tasks ... 8: PSI-IO), this one for the history */
#define SETTINGS_HIST (1u << 31)
/* stats=: at most this many columns from statistics, each a name of at most SETTINGS_NAME - 1 */
#define SETTINGS_EXTRA 4
#define SETTINGS_NAME  48
/* the file is refused beyond this: a settings file is a few lines */
#define SETTINGS_MAX 4096

struct settings {
	unsigned have;
	enum order order;
	unsigned hidden;
	bool tree;
	uint64_t delay_ns;
	/* stats=: the statistics shown as columns of their own, by their --fields key */
	char stats[SETTINGS_EXTRA][SETTINGS_NAME];
	size_t n_stats;
};

/*
 * text[0, len) as a settings file: '#' comments, blank lines, order=, columns= (the columns
 * shown, comma-separated: tasks, cpu, memory, in, out, psi-cpu, psi-memory, psi-io, history),
 * view=tree|list, delay= (as -d), stats= (up to SETTINGS_EXTRA keys of --fields=help, comma-
 * separated, each a name of letters, digits, '_' and '.': which are known is the screen's to
 * say). A key it does not know is skipped (a newer cgtop2's). 0, or
 * -EINVAL with why ("line 3: ...") for a line it cannot read: then nothing of it is used.
 */
int settings_parse(const char *text, size_t len, struct settings *ret, char *why, size_t size);
/* The file's text for s (every key), NUL-terminated: its length, or -ENOSPC. */
int settings_format(const struct settings *s, char *buf, size_t size);
/* $XDG_CONFIG_HOME/cgtop2/config, or $HOME/.config/cgtop2/config: 0, -ENOENT (neither set). */
int settings_path(char *buf, size_t size);
/*
 * Read the file: 1 with *ret filled, 0 when there is none, -errno with why when it cannot be
 * read or is damaged (a symbolic link, not a regular file, too long, a bad line): ignore it.
 */
int settings_load(struct settings *ret, char *why, size_t size);
/*
 * Write the file atomically (a new file renamed over it, never through a symbolic link; the
 * directories made 0700 where missing): 0, or -errno with why.
 */
int settings_save(const struct settings *s, char *why, size_t size);

#endif
