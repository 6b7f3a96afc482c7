/* SPDX-License-Identifier: MIT */
/*
 * cgtop2's recordings (--record, --replay): samples of the sampler's rows encoded into framed,
 * checksummed records, and a whole file parsed back. Pure: buffers in, buffers out, no I/O.
 * man/cgtop2-record.5.scd is the format's reference.
 */
#ifndef CGKIT_RECORD_H
#define CGKIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "sampler/stats.h"

#define CG_REC_MAGIC "CGTOPREC"
/* A reader takes every minor version of its major; a new major is refused. */
#define CG_REC_MAJOR 1
#define CG_REC_MINOR 2
/* magic, major and minor (u16 little-endian each) */
#define CG_REC_HEAD_SIZE 12
/* The largest record a reader accepts (a damaged length field must not allocate gigabytes). */
#define CG_REC_MAX_RECORD (64u << 20)
/* The largest session header (a few KiB are written): what resynchronisation after damage looks for */
#define CG_REC_MAX_HEADER (64u << 10)

/* How the samples were taken: the header of each session in the file. */
struct cg_rec_info {
	const char *path; /* the cgroup sampled, normalized ("" is the root) */
	const char *host;
	enum cg_count count;
	bool own_only, threads;
	int depth;
	uint64_t delay_ns;
	/* read: the session's rows carry their cgroup's tasks (version 1.1 on); written: always */
	bool tasks;
};

/* Every call that fails tells why in its struct cg_diag (may be NULL), naming no cgroup. */

/* A failure r of what in d (may be NULL): why in our words, or NULL for the errno's. -r. */
int cg_rec_diag(struct cg_diag *d, int r, const char *what, const char *why);

/* ---- writing -------------------------------------------------------------------------------- */

struct cg_rec_writer;

int cg_rec_writer_new(struct cg_rec_writer **ret, struct cg_diag *d);
void cg_rec_writer_free(struct cg_rec_writer *w);
/* The 12 bytes a file starts with. */
void cg_rec_file_head(uint8_t head[CG_REC_HEAD_SIZE]);
/*
 * A header record (the field tables and info), which starts a session: the samples after it
 * name their cgroups anew. Write one at the start of every file, and again after a sample could
 * not be written whole. The record is in the writer, valid until its next call.
 */
int cg_rec_encode_header(struct cg_rec_writer *w, const struct cg_rec_info *info,
			 const uint8_t **ret, size_t *ret_len, struct cg_diag *d);
/* A sample record: its wall-clock time (ns since the epoch) and rows. */
int cg_rec_encode_sample(struct cg_rec_writer *w, uint64_t time_ns, struct cg_stat_row *const *rows,
			 size_t n, const uint8_t **ret, size_t *ret_len, struct cg_diag *d);

/* ---- reading -------------------------------------------------------------------------------- */

struct cg_rec_file;

/* What a parse skipped: the first damaged place, and how many bytes were skipped in all. */
struct cg_rec_damage {
	size_t offset, bytes;
	const char *why; /* a static string; NULL when the file is whole */
};

/*
 * Parse a whole recording in buf (which must outlive the result): every record is checked
 * (length, CRC-32, structure); what cannot be read is skipped up to the next session header
 * and reported in *damage. -EBADMSG: not a recording (damage->why says why); -EPROTONOSUPPORT:
 * a newer major version (*ret_major, *ret_minor say which); -ENOMEM.
 */
int cg_rec_parse(const uint8_t *buf, size_t len, struct cg_rec_file **ret,
		 struct cg_rec_damage *damage, unsigned *ret_major, unsigned *ret_minor,
		 struct cg_diag *d);
void cg_rec_file_free(struct cg_rec_file *f);
size_t cg_rec_count(const struct cg_rec_file *f);
uint64_t cg_rec_time(const struct cg_rec_file *f, size_t i);
/* The info of sample i's session (its strings live as long as f). */
const struct cg_rec_info *cg_rec_info_of(const struct cg_rec_file *f, size_t i);

/* The row's table and the lists a row holds (threads, IO devices, tasks, CPUs' times). */
#define CG_REC_TABLES 5

/* Decoded rows: reused from sample to sample. */
struct cg_rec_rows {
	struct cg_stat_row *rows;
	struct cg_stat_row **ptrs;
	size_t n, cap;
	/* the rows' lists, indexed as record_fields.h's tables: threads, IO devices, tasks, CPUs */
	void *lists[CG_REC_TABLES];
	size_t list_n[CG_REC_TABLES], list_cap[CG_REC_TABLES];
	/* the rows' known values, each row's x then k after the row before's */
	uint64_t *vals;
	size_t vals_n, vals_cap;
};

/* Sample i into out (paths point into f): 0, -ENOMEM or -EBADMSG. */
int cg_rec_decode(const struct cg_rec_file *f, size_t i, struct cg_rec_rows *out,
		  struct cg_diag *d);
void cg_rec_rows_free(struct cg_rec_rows *out);

#endif
