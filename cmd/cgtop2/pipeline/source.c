// SPDX-License-Identifier: MIT
/* cgtop2's sample sources (source.h): the calls every sink makes, whichever source it is. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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

struct mirror *source_mirror(const struct source *src)
{
	return src->ops->mirror ? src->ops->mirror(src) : NULL;
}

/* $CGKIT_TEST_CLOCK_OFFSET=/FILE: the offset in FILE, read at each call (a test's clock jump) */
static const char *offset_of(const char *off, char buf[32])
{
	int fd;
	ssize_t n;

	if (!off || off[0] != '/')
		return off;
	fd = open(off, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, 31);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

uint64_t source_wall_ns(void)
{
	char buf[32];
	const char *off = offset_of(getenv("CGKIT_TEST_CLOCK_OFFSET"), buf);
	struct timespec ts;
	uint64_t ns;
	int64_t sec = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	/* a test's knob: a value that is no number of seconds moves nothing */
	if (off && cg_parse_i64(off, -(int64_t)(ns / NSEC_PER_SEC), INT32_MAX, &sec) == 0)
		ns = sec < 0 ? ns - (uint64_t)-sec * NSEC_PER_SEC
			     : ns + (uint64_t)sec * NSEC_PER_SEC;
	return ns;
}
