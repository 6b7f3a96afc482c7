// SPDX-License-Identifier: MIT
/*
 * cgtop2 --record: the recorder, a sink of the pipeline (pipeline.h). The format is
 * cmd/cgtop2/record/record.c's; here is the file: appending, and rotation to FILE.1 at --record-size
 * (source_replay.c reads both back).
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
#include "tool.h"

#include "pipeline/args.h"
#include "pipeline/pipeline.h"
#include "batch.h"
#include "recorder.h"
#include "report.h"

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

struct rec_sink {
	struct sink k;
	struct recorder rc;
	const char *why;
	int r; /* the recorder's failure, said after the loop */
	struct sink *print; /* -b or -F: batch output of what is recorded, or NULL */
};

static int rec_put(struct sink *k, int step, int r, const struct source_sample *s)
{
	struct rec_sink *rs = (struct rec_sink *)k;

	(void)step;
	if (r == 0)
		return 1;
	rs->r = rec_sample(&rs->rc, s, &rs->why);
	if (rs->r < 0)
		return 1;
	/* printed once it is kept: what is on the screen is in the file */
	return rs->print ? rs->print->ops->put(rs->print, step, r, s) : 0;
}

static const struct sink_ops rec_ops = { .put = rec_put };

int record_run(const struct cgtop2_args *a, struct source *src)
{
	const struct source_info *si = source_info(src);
	struct rec_sink rs = {
		.k = { .ops = &rec_ops, .delay_ns = a->delay_ns, .iterations = a->iterations },
		.rc = { .file = a->record_file, .fd = -1, .limit = a->record_size },
	};
	struct recorder *rc = &rs.rc;
	char host[256] = "";
	int r, ret = 0;

	gethostname(host, sizeof(host) - 1);
	rc->info = (struct cg_rec_info){ .path = si->path,
					 .host = host,
					 .count = si->count,
					 .own_only = si->own_only,
					 .threads = si->threads,
					 .depth = si->depth,
					 .delay_ns = a->delay_ns };
	if (asprintf(&rc->rotated, "%s.1", rc->file) < 0) {
		rc->rotated = NULL;
		return report_errno(a, "record", -ENOMEM);
	}
	r = cg_rec_writer_new(&rc->w, NULL);
	if (r == 0 && (a->batch || a->format_set) && !(rs.print = batch_new(a, src)))
		r = -ENOMEM;
	if (r == 0)
		r = rec_open(rc, &rs.why);
	if (r == 0) {
		r = pipeline_run(src, &rs.k, SOURCE_NEXT, 0);
		if (r < 0)
			ret = report_errno(a, rs.k.failed, r);
		r = rs.r;
	}
	if (rs.print && batch_end(rs.print) && !ret)
		ret = 1;
	if (r < 0) {
		if (r == -EINVAL && rs.why)
			tool_say("recording %s: %s", rc->file, rs.why);
		else
			tool_say("recording %s: %s: %s", rc->file, rs.why ? rs.why : "open",
				 strerror(-r));
		ret = 1;
	}
	if (rc->fd >= 0 && close(rc->fd) < 0 && !ret) {
		tool_say("recording %s: close: %s", rc->file, strerror(errno));
		ret = 1;
	}
	cg_rec_writer_free(rc->w);
	free(rc->rotated);
	return ret;
}
