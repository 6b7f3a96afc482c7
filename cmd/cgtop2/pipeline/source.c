// SPDX-License-Identifier: MIT
/* cgtop2's sample sources (source.h): the calls every sink makes, whichever source it is. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/parse.h"
#include "source.h"

void source_free(struct source *src)
{
	if (src)
		src->ops->free(src);
}

int source_step(struct source *src, enum source_step step, uint64_t time_ns,
		struct source_sample *ret)
{
	return src->ops->step(src, step, time_ns, ret);
}

const struct source_info *source_info(const struct source *src)
{
	return src->ops->info(src);
}

size_t source_count(const struct source *src)
{
	return src->ops->count ? src->ops->count(src) : 0;
}

int source_set_depth(struct source *src, int depth)
{
	return src->ops->set_depth ? src->ops->set_depth(src, depth) : -EOPNOTSUPP;
}

int source_set_count(struct source *src, enum cg_count count, bool own_only)
{
	return src->ops->set_count ? src->ops->set_count(src, count, own_only) : -EOPNOTSUPP;
}

int source_set_threads(struct source *src, bool threads)
{
	return src->ops->set_threads ? src->ops->set_threads(src, threads) : -EOPNOTSUPP;
}

int source_set_collectors(struct source *src, unsigned collectors)
{
	return src->ops->set_collectors ? src->ops->set_collectors(src, collectors) : -EOPNOTSUPP;
}

int source_set_focus(struct source *src, const char *path)
{
	return src->ops->set_focus ? src->ops->set_focus(src, path) : -EOPNOTSUPP;
}

int source_members(const struct source *src, const char *path, const struct cg_stat_member **ret,
		   size_t *ret_n)
{
	return src->ops->members ? src->ops->members(src, path, ret, ret_n) : -EOPNOTSUPP;
}

const struct cg_layout *source_layout(const struct source *src)
{
	return src->ops->layout ? src->ops->layout(src) : NULL;
}

const char *source_describe(const struct source *src)
{
	return src->ops->describe ? src->ops->describe(src) : "";
}

size_t source_reopened(const struct source *src)
{
	return src->ops->reopened ? src->ops->reopened(src) : 0;
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
