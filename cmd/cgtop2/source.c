// SPDX-License-Identifier: MIT
/* cgtop2's sample sources (source.h): the live sampler and a recording, one interface. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "parse.h"
#include "recording.h"
#include "source.h"

struct source {
	struct source_info info;
	/* live */
	struct cg_stats *stats;
	size_t taken;
	char *path, *host;
	/* replay */
	struct replay *replay;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

int source_live_new(struct cg_stats *s, const struct source_info *info, struct source **ret)
{
	struct source *src = calloc(1, sizeof(*src));

	if (!src)
		return -ENOMEM;
	src->stats = s;
	src->info = *info;
	src->path = strdup(info->path ? info->path : "");
	src->host = strdup(info->host ? info->host : "");
	if (!src->path || !src->host) {
		source_free(src);
		return -ENOMEM;
	}
	src->info.path = src->path;
	src->info.host = src->host;
	*ret = src;
	return 0;
}

void source_free(struct source *src)
{
	if (!src)
		return;
	replay_free(src->replay);
	free(src->path);
	free(src->host);
	free(src);
}

bool source_is_replay(const struct source *src)
{
	return src->replay != NULL;
}

struct cg_stats *source_stats(struct source *src)
{
	return src->stats;
}

const struct source_info *source_info(const struct source *src)
{
	return src->replay ? replay_info(src->replay) : &src->info;
}

size_t source_count(const struct source *src)
{
	return src->replay ? replay_count(src->replay) : 0;
}

static int live_sample(struct source *src, struct source_sample *ret)
{
	struct cg_stat_row *const *rows;
	size_t n;
	int r = cg_stats_sample(src->stats, &rows, &n, NULL);

	if (r < 0)
		return r;
	ret->rows = rows;
	ret->n = n;
	ret->time_ns = wall_ns();
	ret->index = src->taken++;
	return 1;
}

int source_next(struct source *src, struct source_sample *ret)
{
	return src->replay ? replay_step(src->replay, REPLAY_NEXT, 0, ret) : live_sample(src, ret);
}

int source_current(struct source *src, struct source_sample *ret)
{
	return src->replay ? replay_step(src->replay, REPLAY_CURRENT, 0, ret)
			   : live_sample(src, ret);
}

int source_prev(struct source *src, struct source_sample *ret)
{
	return src->replay ? replay_step(src->replay, REPLAY_PREV, 0, ret) : -EOPNOTSUPP;
}

int source_first(struct source *src, struct source_sample *ret)
{
	return src->replay ? replay_step(src->replay, REPLAY_FIRST, 0, ret) : -EOPNOTSUPP;
}

int source_last(struct source *src, struct source_sample *ret)
{
	return src->replay ? replay_step(src->replay, REPLAY_LAST, 0, ret) : -EOPNOTSUPP;
}

int source_seek(struct source *src, uint64_t time_ns, struct source_sample *ret)
{
	return src->replay ? replay_step(src->replay, REPLAY_SEEK, time_ns, ret) : -EOPNOTSUPP;
}

int source_replay_new(const char *file, struct source **ret, char **ret_damage)
{
	struct source *src = calloc(1, sizeof(*src));
	int r;

	if (!src)
		return -ENOMEM;
	r = replay_open(file, &src->replay, ret_damage);
	if (r < 0) {
		free(src);
		return r;
	}
	*ret = src;
	return 0;
}

int source_parse_time(const char *s, uint64_t *ret_ns)
{
	struct tm tm = { 0 };
	const char *end;
	time_t t;

	if (s[0] == '@') {
		/* seconds since the epoch, as date(1) takes them, with up to 9 decimals */
		char whole[24];
		const char *dot = strchr(s + 1, '.');
		size_t len = dot ? (size_t)(dot - s - 1) : strlen(s + 1);
		uint64_t sec, frac = 0, scale = NSEC_PER_SEC;

		if (!len || len >= sizeof(whole))
			return -EINVAL;
		memcpy(whole, s + 1, len);
		whole[len] = '\0';
		if (cg_parse_u64(whole, UINT64_MAX / NSEC_PER_SEC - 1, &sec) < 0)
			return -EINVAL;
		if (dot) {
			const char *d = dot + 1;

			if (!*d || strlen(d) > 9)
				return -EINVAL;
			for (; *d; d++) {
				if (*d < '0' || *d > '9')
					return -EINVAL;
				scale /= 10;
				frac += (uint64_t)(*d - '0') * scale;
			}
		}
		*ret_ns = sec * NSEC_PER_SEC + frac;
		return 0;
	}
	end = strptime(s, "%Y-%m-%d %H:%M", &tm);
	if (end && *end == ':')
		end = strptime(end, ":%S", &tm);
	if (!end || *end)
		return -EINVAL;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 || t < 0)
		return -EINVAL;
	*ret_ns = (uint64_t)t * NSEC_PER_SEC;
	return 0;
}
