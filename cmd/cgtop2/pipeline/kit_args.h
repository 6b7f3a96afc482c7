/* SPDX-License-Identifier: MIT */
/* What cgtop2's libcgroup kit was asked (kit.c parses it; get.c, list.c, snapshot.c read it). */
#ifndef CGTOP2_KIT_ARGS_H
#define CGTOP2_KIT_ARGS_H

#include <stdbool.h>

enum kit_mode { KIT_NONE, KIT_GET, KIT_LIST_CGROUPS, KIT_LIST_CONTROLLERS, KIT_SNAPSHOT };

struct kit_args {
	enum kit_mode mode;
	char **files; /* --get=FILE,...; NULL: every readable file (cgget -a) */
	bool bare, values; /* --bare (cgget -n), --values (cgget -v) */
	bool all, mounts; /* --list-controllers=all,mounts (lssubsys -a, -m) */
	char **specs; /* the CGROUPs as given: -g SPEC, PATH, :PATH */
	bool many; /* more than one CGROUP given: only the kit's modes take that */
};

#endif
