/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: --record (the recorder, rotation) and --replay (a recording as a source). */
#ifndef CGTOP2_RECORDING_H
#define CGTOP2_RECORDING_H

#include <stdint.h>

#include "cgtop2.h"
#include "source.h"

struct replay;

enum replay_step {
	REPLAY_NEXT,
	REPLAY_CURRENT,
	REPLAY_PREV,
	REPLAY_FIRST,
	REPLAY_LAST,
	REPLAY_SEEK
};

/* source.h's source_replay_new, source_free and the stepping functions over a recording */
int replay_open(const char *file, struct replay **ret, char **ret_damage);
void replay_free(struct replay *rp);
const struct source_info *replay_info(const struct replay *rp);
size_t replay_count(const struct replay *rp);
int replay_step(struct replay *rp, enum replay_step step, uint64_t time_ns,
		struct source_sample *ret);

/* --record: sample src every a->delay_ns and append to a->record_file until done: exit status */
int record_run(const struct cgtop2_args *a, struct source *src);

#endif
