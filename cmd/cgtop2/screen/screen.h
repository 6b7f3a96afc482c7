/* SPDX-License-Identifier: MIT */
/* cgtop2's interactive screen (screen.c, on ncursesw), a sink of the pipeline: what main.c runs. */
#ifndef CGTOP2_SCREEN_H
#define CGTOP2_SCREEN_H

struct screen_opts;
struct source;

/* tty_run's answer when ncurses cannot drive the terminal: print batch output instead. */
#define TTY_FALLBACK (-1)
/* Run full-screen on src until q, a signal or a->iterations: the exit status, or TTY_FALLBACK. */
int tty_run(const struct screen_opts *a, struct source *src);

#endif
