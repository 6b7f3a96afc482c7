// SPDX-License-Identifier: MIT
/*
 * cgtop2 --replay: a recording as a source (source.h). The format is cmd/cgtop2/record/record.c's; here
 * are the files: FILE.1 (rotated by the recorder, record.c) and FILE, or a journal's day files
 * (journal.h), read back as one run of samples.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "record/record.h"

#include "journal.h"
#include "source.h"

struct rfile {
	uint8_t *buf;
	size_t len;
	struct cg_rec_file *f;
};

struct replay {
	struct source src;
	struct rfile
		*files; /* FILE.1 (when there is one), FILE; or a journal's days, oldest first */
	size_t n_files, total, cur;
	size_t *window; /* --begin, --end: the samples' numbers in the files, or NULL: all */
	bool started;
	struct cg_rec_rows rows;
	struct source_info info;
};

/*
 * The whole file (read, not mapped: a file truncated meanwhile must not be a SIGBUS); a name
 * ending in .gz decompressed (a journal's day file: one being written is read up to its last
 * sample).
 */
static int slurp(const char *file, uint8_t **ret, size_t *ret_len)
{
	/* O_NONBLOCK: a FIFO would block open() until a writer came; it is refused below */
	_cleanup_close_ int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	size_t len = 0, cap, flen = strlen(file);
	struct stat st;
	uint8_t *buf;
	bool clean;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (flen > 3 && !strcmp(file + flen - 3, ".gz"))
		return journal_read_fd(TAKE_FD(fd), ret, ret_len, &clean);
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;

			free(buf);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

static void replay_free(struct replay *rp)
{
	for (size_t i = 0; i < rp->n_files; i++) {
		cg_rec_file_free(rp->files[i].f);
		free(rp->files[i].buf);
	}
	cg_rec_rows_free(&rp->rows);
	free(rp->files);
	free(rp->window);
	free(rp);
}

/* Load one file; *ret_msg a line to print (an error, or the damage skipped). */
static int load(struct rfile *rf, const char *file, char **ret_msg)
{
	struct cg_rec_damage d;
	unsigned major = 0, minor = 0;
	int r = slurp(file, &rf->buf, &rf->len);

	if (r < 0) {
		if (asprintf(ret_msg, "replay %s: %s", file,
			     r == -EINVAL ? "not a regular file" : strerror(-r)) < 0)
			*ret_msg = NULL;
		return r;
	}
	r = cg_rec_parse(rf->buf, rf->len, &rf->f, &d, &major, &minor, NULL);
	if (r == -EPROTONOSUPPORT)
		r = asprintf(
			    ret_msg,
			    "replay %s: format version %u.%u is newer than this cgtop2 reads (%u.x); replay it with a newer cgtop2",
			    file, major, minor, CG_REC_MAJOR) < 0
			    ? -ENOMEM
			    : -EPROTONOSUPPORT;
	else if (r == -EBADMSG)
		r = asprintf(ret_msg, "replay %s: %s", file, d.why) < 0 ? -ENOMEM : -EBADMSG;
	else if (
		r == 0 && d.why &&
		asprintf(
			ret_msg,
			"replay %s: %zu damaged bytes skipped from offset %zu (%s); replaying the %zu whole samples",
			file, d.bytes, d.offset, d.why, cg_rec_count(rf->f)) < 0)
		*ret_msg = NULL;
	return r;
}

static struct replay *replay_of(const struct source *src)
{
	return (struct replay *)src;
}

static const struct source_info *replay_info(const struct source *src)
{
	return &replay_of(src)->info;
}

static size_t replay_count(const struct source *src)
{
	return replay_of(src)->total;
}

/* The info of sample i of f, the source's now. */
static void set_info(struct replay *rp, const struct cg_rec_file *f, size_t i)
{
	const struct cg_rec_info *ci = cg_rec_info_of(f, i);

	rp->info = (struct source_info){ .path = ci->path,
					 .host = ci->host,
					 .count = ci->count,
					 .own_only = ci->own_only,
					 .threads = ci->threads,
					 .depth = ci->depth,
					 .delay_ns = ci->delay_ns,
					 .tasks = ci->tasks };
}

/* Sample k of the source (of its window) -> its file and number there. */
static const struct cg_rec_file *locate(const struct replay *rp, size_t k, size_t *ret_i)
{
	if (rp->window)
		k = rp->window[k];
	for (size_t i = 0; i < rp->n_files; i++) {
		size_t n = cg_rec_count(rp->files[i].f);

		if (k < n) {
			*ret_i = k;
			return rp->files[i].f;
		}
		k -= n;
	}
	return NULL;
}

static int replay_step(struct source *src, enum source_step step, uint64_t time_ns,
		       struct source_sample *ret)
{
	struct replay *rp = replay_of(src);
	const struct cg_rec_file *f;
	size_t k = 0, i = 0;
	int r;

	if (!rp->total)
		return 0;
	switch (step) {
	case SOURCE_NEXT:
		if (rp->started && rp->cur + 1 >= rp->total)
			return 0;
		k = rp->started ? rp->cur + 1 : 0;
		break;
	case SOURCE_CURRENT:
		k = rp->started ? rp->cur : 0;
		break;
	case SOURCE_PREV:
		if (!rp->started || rp->cur == 0)
			return 0;
		k = rp->cur - 1;
		break;
	case SOURCE_FIRST:
		k = 0;
		break;
	case SOURCE_LAST:
		k = rp->total - 1;
		break;
	case SOURCE_SEEK:
		/* in file order: a clock set back meanwhile still finds the first such sample */
		for (k = 0; k < rp->total; k++) {
			f = locate(rp, k, &i);
			if (cg_rec_time(f, i) >= time_ns)
				break;
		}
		if (k == rp->total)
			return 0;
		break;
	}
	f = locate(rp, k, &i);
	r = cg_rec_decode(f, i, &rp->rows, NULL);
	if (r < 0)
		return r;
	rp->cur = k;
	rp->started = true;
	set_info(rp, f, i);
	ret->rows = rp->rows.ptrs;
	ret->n = rp->rows.n;
	ret->time_ns = cg_rec_time(f, i);
	ret->index = k;
	ret->took_ns = 0;
	ret->errors = NULL;
	ret->shape = 0; /* decoded afresh: no order to keep */
	return 1;
}

static void replay_release(struct source *src)
{
	replay_free(replay_of(src));
}

static const struct source_ops replay_ops = {
	.step = replay_step,
	.info = replay_info,
	.free = replay_release,
	.count = replay_count,
};

int source_replay_window(struct source *src, uint64_t begin_ns, uint64_t end_ns)
{
	struct replay *rp = replay_of(src);
	size_t n = 0, i = 0, *w;

	if (!src->replay || rp->window || rp->started)
		return -EINVAL;
	w = calloc(rp->total ? rp->total : 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	/* by time, not by place: a clock set back meanwhile leaves each sample in or out */
	for (size_t k = 0; k < rp->total; k++) {
		const struct cg_rec_file *f = locate(rp, k, &i);
		uint64_t t = cg_rec_time(f, i);

		if (t >= begin_ns && t <= end_ns)
			w[n++] = k;
	}
	rp->window = w;
	rp->total = n;
	return 0;
}

static int replay_ready(struct replay *rp, struct source **ret);

int source_replay_new(const char *file, struct source **ret, char **ret_damage)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	_cleanup_free_ char *rotated = NULL;
	char *msg = NULL;
	struct stat st;
	int r = 0;

	*ret_damage = NULL;
	if (!rp || !(rp->files = calloc(2, sizeof(*rp->files))) ||
	    asprintf(&rotated, "%s.1", file) < 0) {
		if (rp)
			free(rp->files);
		free(rp);
		return -ENOMEM;
	}
	/* a rotated recording's older part first, as logrotate keeps it */
	if (stat(rotated, &st) == 0 && S_ISREG(st.st_mode)) {
		r = load(&rp->files[rp->n_files++], rotated, &msg);
		*ret_damage = TAKE_PTR(msg);
	}
	if (r == 0) {
		r = load(&rp->files[rp->n_files++], file, &msg);
		/* one warning: the first damage */
		if (r < 0 || !*ret_damage) {
			free(*ret_damage);
			*ret_damage = TAKE_PTR(msg);
		}
		free(msg);
	}
	if (r < 0) {
		replay_free(rp);
		return r;
	}
	return replay_ready(rp, ret);
}

static int replay_ready(struct replay *rp, struct source **ret)
{
	rp->src.ops = &replay_ops;
	rp->src.replay = true;
	rp->info.path = rp->info.host = "";
	for (size_t i = 0; i < rp->n_files; i++) {
		if (!rp->total && cg_rec_count(rp->files[i].f))
			set_info(rp, rp->files[i].f, 0);
		rp->total += cg_rec_count(rp->files[i].f);
	}
	*ret = &rp->src;
	return 0;
}

int source_replay_journal(const char *dir, uint64_t begin_ns, uint64_t end_ns, bool all,
			  struct source **ret, char **ret_msg)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct journal_file *v = NULL;
	char from[JOURNAL_DAY_LEN], to[JOURNAL_DAY_LEN], day[JOURNAL_DAY_LEN];
	struct replay *rp;
	size_t n = 0, first = 0, last;
	int r;

	*ret_msg = NULL;
	if (dfd < 0)
		return -errno;
	r = journal_list(dfd, &v, &n);
	if (r < 0)
		return r;
	if (!n) {
		journal_list_free(v, n);
		return -ENOENT;
	}
	last = n - 1;
	/* a window: the days it spans, a day wider each way (a file is named by the writer's time
	 * zone); without one, the newest day alone */
	if (all) {
		journal_day(begin_ns, day);
		journal_day_add(day, -1, from);
		journal_day(end_ns == UINT64_MAX ? begin_ns : end_ns, day);
		journal_day_add(day, 1, to);
		while (first < n && begin_ns && strcmp(v[first].day, from) < 0)
			first++;
		while (last + 1 > first && end_ns != UINT64_MAX && strcmp(v[last].day, to) > 0)
			last--;
	} else {
		first = last;
	}
	rp = calloc(1, sizeof(*rp));
	if (!rp || !(rp->files = calloc(n, sizeof(*rp->files)))) {
		free(rp);
		journal_list_free(v, n);
		return -ENOMEM;
	}
	for (size_t i = first; r == 0 && i <= last && last < n; i++) {
		_cleanup_free_ char *path = NULL;
		char *msg = NULL;

		if (asprintf(&path, "%s/%s", dir, v[i].name) < 0) {
			r = -ENOMEM;
			break;
		}
		r = load(&rp->files[rp->n_files++], path, &msg);
		/* one line: the first damage, or the failure */
		if (r < 0 || !*ret_msg) {
			free(*ret_msg);
			*ret_msg = TAKE_PTR(msg);
		}
		free(msg);
	}
	journal_list_free(v, n);
	if (r < 0) {
		replay_free(rp);
		return r;
	}
	return replay_ready(rp, ret);
}
