// SPDX-License-Identifier: MIT
/*
 * cgtop2 --record and --replay: recordings on disk. The format is common/record.c's; here are
 * the files: appending, rotation to FILE.1 at --record-size, and reading FILE.1 and FILE back
 * as a replay source (source.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "parse.h"
#include "record.h"
#include "tool.h"

#include "recording.h"

/* ---- recording -------------------------------------------------------------------------------- */

struct recorder {
	const char *file;
	char *rotated; /* FILE.1 */
	int fd;
	uint64_t size, limit;
	size_t samples; /* in this file */
	bool need_header;
	struct cg_rec_writer *w;
	struct cg_rec_info info;
};

/* Write it all, or undo the part that was written (the reader would skip it, but why leave it). */
static int write_all(struct recorder *rc, const uint8_t *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(rc->fd, p + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? -errno : -EIO;

			if (done && ftruncate(rc->fd, (off_t)rc->size) < 0)
				rc->size += done;
			/* the next sample starts a session again: its cgroups are named anew */
			rc->need_header = true;
			return e;
		}
		done += (size_t)w;
	}
	rc->size += n;
	return 0;
}

/*
 * Open FILE for appending: a new or empty file gets the format's head; an existing one must be
 * a recording of this major version (never append samples to some other file).
 */
static int rec_open(struct recorder *rc, const char **why)
{
	uint8_t head[CG_REC_HEAD_SIZE], mine[CG_REC_HEAD_SIZE];
	struct stat st;

	*why = NULL;
	/*
	 * Never through a symbolic link, dangling or not: whoever can write the directory would
	 * choose what is created or appended to (as root, anywhere). O_NONBLOCK: a FIFO is
	 * refused below, not waited on.
	 */
	rc->fd = open(rc->file,
		      O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK,
		      0640);
	if (rc->fd < 0 && errno == ELOOP) {
		*why = "a symbolic link; will not follow it (name the file itself)";
		return -EINVAL;
	}
	if (rc->fd < 0)
		return -errno;
	if (fstat(rc->fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	rc->size = (uint64_t)st.st_size;
	rc->samples = 0;
	rc->need_header = true;
	cg_rec_file_head(mine);
	if (rc->size == 0)
		return write_all(rc, mine, sizeof(mine));
	if (pread(rc->fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(head, mine, 8)) {
		*why = "not a cgtop2 recording; will not append to it";
		return -EINVAL;
	}
	if (memcmp(head + 8, mine + 8, 2)) {
		*why = "a recording of another format version; will not append to it (move it away)";
		return -EINVAL;
	}
	/* appending to a file with samples: rotation waits for at least one of ours */
	rc->samples = 1;
	return 0;
}

/*
 * FILE -> FILE.1 (replacing it), then a new FILE. rename() replaces a FILE.1 that is a symbolic
 * link with the recording, and never writes through it.
 */
static int rec_rotate(struct recorder *rc, const char **why)
{
	close(rc->fd);
	rc->fd = -1;
	if (rename(rc->file, rc->rotated) < 0) {
		*why = "rename to FILE.1";
		return -errno;
	}
	return rec_open(rc, why);
}

static int rec_header(struct recorder *rc)
{
	const uint8_t *p;
	size_t n;
	int r = cg_rec_encode_header(rc->w, &rc->info, &p, &n, NULL);

	if (r == 0)
		r = write_all(rc, p, n);
	if (r == 0)
		rc->need_header = false;
	return r;
}

static int rec_sample(struct recorder *rc, const struct source_sample *s, const char **why)
{
	const uint8_t *p;
	size_t n;
	int r;

	*why = "write";
	if (rc->need_header && (r = rec_header(rc)) < 0)
		return r;
	*why = "encode a sample";
	r = cg_rec_encode_sample(rc->w, s->time_ns, s->rows, s->n, &p, &n, NULL);
	if (r < 0)
		return r;
	if (rc->limit && rc->samples && rc->size + n > rc->limit) {
		r = rec_rotate(rc, why);
		if (r < 0)
			return r;
		*why = "write";
		/* the sample named its cgroups for the old file: once more for the new one */
		r = rec_header(rc);
		if (r == 0)
			r = cg_rec_encode_sample(rc->w, s->time_ns, s->rows, s->n, &p, &n, NULL);
		if (r < 0)
			return r;
	}
	*why = "write";
	r = write_all(rc, p, n);
	if (r == 0)
		rc->samples++;
	return r;
}

int record_run(const struct cgtop2_args *a, struct source *src)
{
	const struct source_info *si = source_info(src);
	struct recorder rc = { .file = a->record_file, .fd = -1, .limit = a->record_size };
	char host[256] = "";
	const char *why = NULL;
	uint64_t next = cg_now_ns();
	int r, ret = 0;

	gethostname(host, sizeof(host) - 1);
	rc.info = (struct cg_rec_info){ .path = si->path,
					.host = host,
					.count = si->count,
					.own_only = si->own_only,
					.threads = si->threads,
					.depth = si->depth,
					.delay_ns = a->delay_ns };
	if (asprintf(&rc.rotated, "%s.1", rc.file) < 0) {
		rc.rotated = NULL;
		return report_errno(a, "record", -ENOMEM);
	}
	r = cg_rec_writer_new(&rc.w, NULL);
	if (r == 0)
		r = rec_open(&rc, &why);
	for (unsigned long it = 0; r == 0 && (!a->iterations || it < a->iterations); it++) {
		struct source_sample s;
		uint64_t now;

		if (it) {
			next += a->delay_ns;
			now = cg_now_ns();
			if (next > now)
				cg_sleep_ns(next - now);
		}
		r = source_next(src, &s);
		if (r < 0) {
			ret = report_errno(a, "sample", r);
			r = 0;
			break;
		}
		r = rec_sample(&rc, &s, &why);
	}
	if (r < 0) {
		if (r == -EINVAL && why)
			tool_say("recording %s: %s", rc.file, why);
		else
			tool_say("recording %s: %s: %s", rc.file, why ? why : "open", strerror(-r));
		ret = 1;
	}
	if (rc.fd >= 0 && close(rc.fd) < 0 && !ret) {
		tool_say("recording %s: close: %s", rc.file, strerror(errno));
		ret = 1;
	}
	cg_rec_writer_free(rc.w);
	free(rc.rotated);
	return ret;
}

/* ---- replay ----------------------------------------------------------------------------------- */

struct rfile {
	uint8_t *buf;
	size_t len;
	struct cg_rec_file *f;
};

struct replay {
	struct rfile files[2]; /* FILE.1 (when there is one), FILE */
	size_t n_files, total, cur;
	bool started;
	struct cg_rec_rows rows;
	struct source_info info;
};

/* The whole file (read, not mapped: a file truncated meanwhile must not be a SIGBUS). */
static int slurp(const char *file, uint8_t **ret, size_t *ret_len)
{
	/* O_NONBLOCK: a FIFO would block open() until a writer came; it is refused below */
	_cleanup_close_ int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	uint8_t *buf;
	size_t len = 0, cap;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
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

void replay_free(struct replay *rp)
{
	if (!rp)
		return;
	for (size_t i = 0; i < rp->n_files; i++) {
		cg_rec_file_free(rp->files[i].f);
		free(rp->files[i].buf);
	}
	cg_rec_rows_free(&rp->rows);
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

const struct source_info *replay_info(const struct replay *rp)
{
	return &rp->info;
}

size_t replay_count(const struct replay *rp)
{
	return rp->total;
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

/* Global sample k -> its file and number there. */
static const struct cg_rec_file *locate(const struct replay *rp, size_t k, size_t *ret_i)
{
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

int replay_step(struct replay *rp, enum replay_step step, uint64_t time_ns,
		struct source_sample *ret)
{
	const struct cg_rec_file *f;
	size_t k = 0, i = 0;
	int r;

	if (!rp->total)
		return 0;
	switch (step) {
	case REPLAY_NEXT:
		if (rp->started && rp->cur + 1 >= rp->total)
			return 0;
		k = rp->started ? rp->cur + 1 : 0;
		break;
	case REPLAY_CURRENT:
		k = rp->started ? rp->cur : 0;
		break;
	case REPLAY_PREV:
		if (!rp->started || rp->cur == 0)
			return 0;
		k = rp->cur - 1;
		break;
	case REPLAY_FIRST:
		k = 0;
		break;
	case REPLAY_LAST:
		k = rp->total - 1;
		break;
	case REPLAY_SEEK:
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
	return 1;
}

int replay_open(const char *file, struct replay **ret, char **ret_damage)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	_cleanup_free_ char *rotated = NULL;
	char *msg = NULL;
	struct stat st;
	int r = 0;

	*ret_damage = NULL;
	if (!rp || asprintf(&rotated, "%s.1", file) < 0) {
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
	rp->info.path = rp->info.host = "";
	for (size_t i = 0; i < rp->n_files; i++) {
		if (!rp->total && cg_rec_count(rp->files[i].f))
			set_info(rp, rp->files[i].f, 0);
		rp->total += cg_rec_count(rp->files[i].f);
	}
	*ret = rp;
	return 0;
}
