// SPDX-License-Identifier: MIT
/* cgtop2's options (options.c): what main.c hands to tool_parse. */
#ifndef CGTOP2_OPTIONS_H
#define CGTOP2_OPTIONS_H

#include <argp.h>

/* The options, their parser filling a struct cgtop2_args, and the kit's as a child. */
extern const struct argp cgtop2_argp;

#endif
