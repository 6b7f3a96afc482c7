/* SPDX-License-Identifier: MIT */
/*
 * cgtop2's one-shot answers in the words of libcgroup's kit: --get (cgget), --list-cgroups
 * (lscgroup), --list-controllers (lssubsys), --snapshot (cgsnapshot). Their options are an argp
 * child of main.c's; main.c hands kit_run the CGROUPs as given.
 */
#ifndef CGTOP2_KIT_H
#define CGTOP2_KIT_H

#include <argp.h>
#include <stdbool.h>

#include "pipeline/kit_args.h"

/* The options, parsed into the struct kit_args that main.c gives as the child's input. */
extern const struct argp kit_argp;

/* A CGROUP as given (-g SPEC when spec, else a bare PATH or :PATH): 0 or -ENOMEM. */
int kit_spec_push(struct kit_args *k, const char *arg, bool spec);

/* Run the mode asked for: an exit status. */
int kit_run(const struct kit_args *k);

void kit_args_free(struct kit_args *k);

#endif
