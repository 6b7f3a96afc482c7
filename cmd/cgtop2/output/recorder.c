// SPDX-License-Identifier: MIT
/*
 * cgtop2 --record and --journal: the recorder, a sink of the pipeline (pipeline.h). The format
 * is cmd/cgtop2/record/record.c's; here are the files: --record's appending, and rotation to
 * FILE.1 at --record-size; --journal's day files (pipeline/journal.h), gzip-compressed, a new
 * one at local midnight, pruned by age (--keep) and total size (--cap). source_replay.c reads
 * them all back.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/cleanup.h"
#include "record/record.h"
#include "tool.h"

#include "pipeline/args.h"
#include "pipeline/journal.h"
#include "pipeline/pipeline.h"
#include "batch.h"
#include "recorder.h"
#include "report.h"

/* ---- recording -------------------------------------------------------------------------------- */

struct recorder {
	const char *file; /* --record's, or the journal's day file (in journal_name) */
	char *rotated; /* FILE.1 */
	int fd;
	uint64_t size, limit;
	size_t samples; /* in this file */
	bool need_header;
	struct cg_rec_writer *w;
	struct cg_rec_info info;
	/* --journal: the directory, the day file open (compressed through gz), the bounds */
	int dirfd;
	gzFile gz;
	char day[JOURNAL_DAY_LEN];
	char *journal_name;
	uint64_t keep_days, cap;
	uint64_t older; /* the other day files' bytes, as the last prune left them */
	bool cap_said;
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
 * name (beneath dirfd) opened into rc->fd for appending, made when missing. Never through a
 * symbolic link, dangling or not: whoever can write the directory would choose what is created
 * or appended to (as root, anywhere). O_NONBLOCK: a FIFO is refused, not waited on.
 */
static int open_append(struct recorder *rc, int dirfd, const char *name, struct stat *st,
		       const char **why)
{
	rc->fd = openat(
		dirfd, name,
		O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK, 0640);
	if (rc->fd < 0 && errno == ELOOP) {
		*why = "a symbolic link; will not follow it (name the file itself)";
		return -EINVAL;
	}
	if (rc->fd < 0)
		return -errno;
	if (fstat(rc->fd, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
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
	int r;

	*why = NULL;
	r = open_append(rc, AT_FDCWD, rc->file, &st, why);
	if (r < 0)
		return r;
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

/* A day file's bytes go through zlib; a failure leaves the stream unusable: reopened next time */
static int gz_put(struct recorder *rc, const uint8_t *p, size_t n)
{
	int zerr;

	if (gzwrite(rc->gz, p, (unsigned)n) == (int)n)
		return 0;
	gzerror(rc->gz, &zerr);
	rc->need_header = true;
	return zerr == Z_ERRNO && errno ? -errno : -EIO;
}

static int rec_write(struct recorder *rc, const uint8_t *p, size_t n)
{
	return rc->gz ? gz_put(rc, p, n) : write_all(rc, p, n);
}

static int rec_header(struct recorder *rc)
{
	const uint8_t *p;
	size_t n;
	int r = cg_rec_encode_header(rc->w, &rc->info, &p, &n, NULL);

	if (r == 0)
		r = rec_write(rc, p, n);
	if (r == 0)
		rc->need_header = false;
	return r;
}

/* ---- the journal ------------------------------------------------------------------------------- */

static int jr_close(struct recorder *rc)
{
	int r = 0;

	if (rc->gz && gzclose(rc->gz) != Z_OK)
		r = -EIO;
	else if (!rc->gz && rc->fd >= 0)
		close(rc->fd);
	rc->gz = NULL;
	rc->fd = -1;
	return r;
}

/*
 * A day file a recorder was killed in ends without gzip's trailer: a member appended to it would
 * be unreadable. Its samples are written again into a whole file, which replaces it.
 */
static int jr_repair(struct recorder *rc, const char *name, bool *ret_ok)
{
	_cleanup_free_ char *tmp = NULL;
	_cleanup_free_ uint8_t *buf = NULL;
	size_t len = 0;
	bool clean = true;
	gzFile gz;
	int fd = openat(rc->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	int r;

	if (fd < 0)
		return -errno;
	r = journal_read_fd(fd, &buf, &len, &clean);
	if (r < 0)
		return r;
	*ret_ok = len >= CG_REC_HEAD_SIZE && !memcmp(buf, CG_REC_MAGIC, 8);
	if (clean || !*ret_ok)
		return 0;
	if (asprintf(&tmp, ".%s.tmp", name) < 0)
		return -ENOMEM;
	fd = openat(rc->dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (fd < 0)
		return -errno;
	gz = gzdopen(fd, "wb");
	if (!gz) {
		close(fd);
		return -ENOMEM;
	}
	r = gzwrite(gz, buf, (unsigned)len) == (int)len ? 0 : -EIO;
	if (gzclose(gz) != Z_OK)
		r = -EIO;
	if (r == 0 && renameat(rc->dirfd, tmp, rc->dirfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(rc->dirfd, tmp, 0);
	return r;
}

/* Day's file open for appending (a new one gets the format's head), through zlib. */
static int jr_open(struct recorder *rc, const char *day, const char **why)
{
	uint8_t head[CG_REC_HEAD_SIZE];
	char *name = journal_name(day);
	struct stat st;
	bool ours = true;
	int r;

	*why = NULL;
	if (!name)
		return -ENOMEM;
	free(rc->journal_name);
	rc->journal_name = name;
	rc->file = name;
	memcpy(rc->day, day, JOURNAL_DAY_LEN);
	rc->need_header = true;
	r = open_append(rc, rc->dirfd, name, &st, why);
	if (r < 0)
		return r;
	if (st.st_size > 0) {
		r = jr_repair(rc, name, &ours);
		if (r < 0) {
			*why = "repair the end of a recording cut short";
			return r;
		}
		if (!ours) {
			*why = "not a cgtop2 recording; will not append to it";
			return -EINVAL;
		}
		/* a repair replaced the file: append to the new one */
		close(rc->fd);
		rc->fd = openat(rc->dirfd, name,
				O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
		if (rc->fd < 0)
			return -errno;
	}
	rc->gz = gzdopen(rc->fd, "ab");
	if (!rc->gz) {
		close(rc->fd);
		rc->fd = -1;
		return -ENOMEM;
	}
	if (st.st_size == 0) {
		cg_rec_file_head(head);
		return gz_put(rc, head, sizeof(head));
	}
	return 0;
}

/*
 * What --keep and --cap leave: day files whose whole day ended more than --keep days ago, then
 * the oldest while all of them are more than --cap bytes; never the file being written (*cur,
 * its bytes). rc->older: what the others weigh after it.
 */
static void jr_prune(struct recorder *rc, uint64_t cur)
{
	struct journal_file *v = NULL;
	char cutoff[JOURNAL_DAY_LEN];
	uint64_t total = cur;
	size_t n = 0;

	if (journal_list(rc->dirfd, &v, &n) < 0)
		return;
	journal_day_add(rc->day, -(int)rc->keep_days, cutoff);
	for (size_t i = 0; i < n; i++) {
		bool mine = !strcmp(v[i].day, rc->day);

		if (!mine && rc->keep_days && strcmp(v[i].day, cutoff) < 0 &&
		    unlinkat(rc->dirfd, v[i].name, 0) == 0)
			v[i].size = 0, v[i].day[0] = '\0';
		else if (!mine)
			total += v[i].size;
	}
	for (size_t i = 0; rc->cap && total > rc->cap && i < n; i++) {
		if (!v[i].day[0] || !strcmp(v[i].day, rc->day))
			continue;
		if (unlinkat(rc->dirfd, v[i].name, 0) == 0)
			total -= v[i].size;
	}
	rc->older = total - cur;
	journal_list_free(v, n);
}

/*
 * Before a sample at time_ns: the day file of its local day (a new one past midnight, or after
 * the clock moved), and the bounds held. A day's file alone over --cap starts that day again.
 */
static int jr_before(struct recorder *rc, uint64_t time_ns, const char **why)
{
	char day[JOURNAL_DAY_LEN];
	struct stat st;
	int r;

	journal_day(time_ns, day);
	if (!rc->gz || strcmp(day, rc->day)) {
		r = jr_close(rc);
		if (r < 0) {
			*why = "close";
			return r;
		}
		r = jr_open(rc, day, why);
		if (r < 0)
			return r;
		jr_prune(rc, 0);
		return 0;
	}
	if (!rc->cap || fstat(rc->fd, &st) < 0 || rc->older + (uint64_t)st.st_size <= rc->cap)
		return 0;
	jr_prune(rc, (uint64_t)st.st_size);
	if ((uint64_t)st.st_size <= rc->cap)
		return 0;
	if (!rc->cap_said)
		tool_say("journal %s: over --cap=%llu bytes alone; starting the day's file again",
			 rc->file, (unsigned long long)rc->cap);
	rc->cap_said = true;
	jr_close(rc);
	if (unlinkat(rc->dirfd, rc->journal_name, 0) < 0) {
		*why = "remove";
		return -errno;
	}
	return jr_open(rc, day, why);
}

static int rec_sample(struct recorder *rc, const struct source_sample *s, const char **why)
{
	const uint8_t *p;
	size_t n;
	int r;

	if (rc->dirfd >= 0 && (r = jr_before(rc, s->time_ns, why)) < 0)
		return r;
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
	r = rec_write(rc, p, n);
	/* each sample whole on disk: a reader (or a crash) finds every sample before it */
	if (r == 0 && rc->gz && gzflush(rc->gz, Z_SYNC_FLUSH) != Z_OK) {
		rc->need_header = true;
		r = -EIO;
	}
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
	int sfd; /* the stop signals, or -1 */
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

/* Until the next sample, or a stop signal: the loop ends and the file is closed whole. */
static int rec_wait(struct sink *k, uint64_t deadline_ns)
{
	struct rec_sink *rs = (struct rec_sink *)k;
	struct pollfd p = { .fd = rs->sfd, .events = POLLIN };
	struct signalfd_siginfo si;
	int r = pipeline_wait(NULL, &p, rs->sfd >= 0 ? 1 : 0, deadline_ns);

	if (r <= 0)
		return r < 0 ? r : PIPE_CLOCK;
	/* taken, or the mask restored at the end would deliver it: an exit by the signal */
	while (read(rs->sfd, &si, sizeof(si)) == sizeof(si))
		;
	return PIPE_STOP;
}

static const struct sink_ops rec_ops = { .put = rec_put, .wait = rec_wait };

/*
 * TERM (systemd's stop), INT and HUP read on a signalfd: killed by one, the recorder would leave
 * the day's file without gzip's trailer. A signal ignored when cgtop2 started (nohup's HUP, a
 * shell's INT for a job in the background) stays ignored. The mask: what to restore.
 */
static int stop_signals(sigset_t *ret_old)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t set;
	int fd;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;

		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			sigaddset(&set, sigs[i]);
	}
	if (sigprocmask(SIG_BLOCK, &set, ret_old) < 0)
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0) {
		int r = -errno;

		sigprocmask(SIG_SETMASK, ret_old, NULL);
		return r;
	}
	return fd;
}

/* --journal's directory, made when missing (one level: a mistyped parent is not made) */
static int jr_dir(struct recorder *rc, const char *dir)
{
	if (mkdir(dir, 0750) < 0 && errno != EEXIST)
		return -errno;
	rc->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return rc->dirfd < 0 ? -errno : 0;
}

int record_run(const struct record_opts *a, struct source *src)
{
	const struct source_info *si = source_info(src);
	const char *where = a->journal_dir ? a->journal_dir : a->record_file;
	struct rec_sink rs = {
		.k = { .ops = &rec_ops, .delay_ns = a->delay_ns, .iterations = a->iterations },
		.rc = { .file = a->record_file,
			.fd = -1,
			.dirfd = -1,
			.limit = a->journal_dir ? 0 : a->record_size,
			.keep_days = a->keep_days,
			.cap = a->journal_cap },
		.sfd = -1,
	};
	struct recorder *rc = &rs.rc;
	char host[256] = "";
	sigset_t old_mask;
	int r, ret = 0;

	gethostname(host, sizeof(host) - 1);
	rc->info = (struct cg_rec_info){ .path = si->path,
					 .host = host,
					 .count = si->count,
					 .own_only = si->own_only,
					 .threads = si->threads,
					 .depth = si->depth,
					 .delay_ns = a->delay_ns };
	if (asprintf(&rc->rotated, "%s.1", where) < 0) {
		rc->rotated = NULL;
		return report_errno(a->path, "record", -ENOMEM);
	}
	r = cg_rec_writer_new(&rc->w, NULL);
	if (r == 0 && a->print && !(rs.print = batch_new(a->print, src)))
		r = -ENOMEM;
	if (r == 0)
		r = a->journal_dir ? jr_dir(rc, a->journal_dir) : rec_open(rc, &rs.why);
	if (r == 0 && (rs.sfd = stop_signals(&old_mask)) < 0) {
		ret = report_errno(a->path, "signalfd", rs.sfd);
	} else if (r == 0) {
		r = pipeline_run(src, &rs.k, SOURCE_NEXT, 0);
		if (r < 0)
			ret = report_errno(a->path, rs.k.failed, r);
		r = rs.r;
	}
	if (rs.print && batch_end(rs.print) && !ret)
		ret = 1;
	/* the journal's messages name the day file in the directory */
	if (a->journal_dir)
		where = rc->journal_name ? rc->journal_name : a->journal_dir;
	if (r < 0) {
		if (r == -EINVAL && rs.why)
			tool_say("%s %s%s%s: %s", a->journal_dir ? "journal" : "recording",
				 a->journal_dir && rc->journal_name ? a->journal_dir : "",
				 a->journal_dir && rc->journal_name ? "/" : "", where, rs.why);
		else
			tool_say("%s %s%s%s: %s: %s", a->journal_dir ? "journal" : "recording",
				 a->journal_dir && rc->journal_name ? a->journal_dir : "",
				 a->journal_dir && rc->journal_name ? "/" : "", where,
				 rs.why ? rs.why : "open", strerror(-r));
		ret = 1;
	}
	if (rc->gz && jr_close(rc) < 0 && !ret) {
		tool_say("journal %s/%s: close: %s", a->journal_dir, where, strerror(EIO));
		ret = 1;
	}
	if (rc->fd >= 0 && close(rc->fd) < 0 && !ret) {
		tool_say("recording %s: close: %s", where, strerror(errno));
		ret = 1;
	}
	if (rc->dirfd >= 0)
		close(rc->dirfd);
	if (rs.sfd >= 0) {
		close(rs.sfd);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	}
	cg_rec_writer_free(rc->w);
	free(rc->rotated);
	free(rc->journal_name);
	return ret;
}
