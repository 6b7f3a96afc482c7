// SPDX-License-Identifier: MIT
/* cgtop2 --record and --replay: recordings on disk (common/record.c is the format). */
#include <errno.h>
#include <stdlib.h>

#include "record.h"

int replay_open(const char *file, struct replay **ret, char **ret_damage)
{
	*ret_damage = NULL;
	return -EOPNOTSUPP;
}

void replay_free(struct replay *rp)
{
}

const struct source_info *replay_info(const struct replay *rp)
{
	return NULL;
}

size_t replay_count(const struct replay *rp)
{
	return 0;
}

int replay_step(struct replay *rp, enum replay_step step, uint64_t time_ns,
		struct source_sample *ret)
{
	return -EOPNOTSUPP;
}
