/* SPDX-License-Identifier: MIT */
/*
 * cgtop2's journal (--journal=DIR, cgkit-record.service): a directory of day files, one per
 * local day, cgtop2-YYYY-MM-DD.rec.gz (the recording format, gzip-compressed). The recorder
 * (output/recorder.c) writes and prunes them, the replay (source_replay.c) lists them; the
 * names and the pruning rules are here so that both read them alike.
 */
#ifndef CGTOP2_JOURNAL_H
#define CGTOP2_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* where cgkit-record.service writes, and what --replay without a file reads */
#define JOURNAL_DIR_DEFAULT "/var/log/cgkit"
/* "YYYY-MM-DD" and its NUL */
#define JOURNAL_DAY_LEN 11

struct journal_file {
	char *name; /* the file's name in the directory */
	char day[JOURNAL_DAY_LEN];
	uint64_t size; /* bytes, compressed */
};

/* The local day of a wall-clock time (ns since the epoch), as day files are named. */
void journal_day(uint64_t time_ns, char day[JOURNAL_DAY_LEN]);
/* The day file's name for day (the caller frees it); NULL: out of memory. */
char *journal_name(const char *day);
/* The day n days before day (n may be negative), in the calendar, not by 86400 s steps. */
void journal_day_add(const char *day, int n, char ret[JOURNAL_DAY_LEN]);
/*
 * The day files of the directory open at dirfd, oldest first (their names sort by day);
 * anything else there is left alone. 0 or -errno.
 */
int journal_list(int dirfd, struct journal_file **ret, size_t *ret_n);
void journal_list_free(struct journal_file *v, size_t n);
/*
 * A gzip file decompressed whole (fd is taken and closed). A file that ends early (a recorder
 * killed before it closed the file: the last member has no trailer) or whose trailer's CRC-32
 * or length is not its data's is read as far as it goes and *ret_clean is false. 0, -ENOMEM or
 * -EIO.
 */
int journal_read_fd(int fd, uint8_t **ret, size_t *ret_len, bool *ret_clean);

#endif
