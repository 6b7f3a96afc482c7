/* SPDX-License-Identifier: MIT */
/* The one strict number parser: every number cgkit reads from a user or the kernel. */
#ifndef CGKIT_PARSE_H
#define CGKIT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* PID_MAX_LIMIT of include/linux/threads.h (2^22): no pid or tid is larger. */
#define CG_PID_MAX 4194304u

/*
 * Decimal digits at *p (at least one; no sign, no blank) -> *ret, *p moved past every digit.
 * -EINVAL when *p is no digit, -ERANGE above max. What follows is the caller's to judge: for
 * numbers inside a text (mountinfo fields, cpu lists, member listings). The family's core.
 */
int cg_parse_u64_prefix(const char **p, uint64_t max, uint64_t *ret);
/*
 * The inverse, for hot paths where snprintf was most of the cost (a pid per move, a number per
 * exposition line): v in decimal at the end of buf, no NUL; returns where its digits start.
 */
#define CG_U64_LEN 20
char *cg_format_u64(char buf[CG_U64_LEN], uint64_t v);
/*
 * Whole-string decimal parse; a trailing newline (kernel files) is accepted, nothing else.
 * Returns 0, -EINVAL (not a number, sign on unsigned, junk) or -ERANGE (outside [min, max]).
 */
int cg_parse_u64(const char *s, uint64_t max, uint64_t *ret);
int cg_parse_i64(const char *s, int64_t min, int64_t max, int64_t *ret);
int cg_parse_pid(const char *s, pid_t *ret);
/* Append id to the vector *v of *n ids with room for *cap (grown by doubling): 0 or -ENOMEM. */
int cg_pids_push(pid_t **v, size_t *n, size_t *cap, pid_t id);
/* Where a pid file is no list of ids: the line's number (from 1) and its text, blanks trimmed. */
struct cg_pid_file_bad {
	size_t line;
	char *text; /* allocated (free it); may hold NUL bytes: len says how long it is */
	size_t len;
};
/*
 * The ids of a pid file (or stdin): one a line, blanks (space, tab, CR) around it ignored, empty
 * lines skipped, each appended as cg_pids_push does. -EINVAL at the first line that is no id
 * (cg_parse_pid; a NUL inside it too: "123\0junk" is no 123), described in *bad; -errno of the
 * read (a directory opens, and its read fails: that is no empty pid file); -ENOMEM.
 */
int cg_parse_pid_file(FILE *f, pid_t **v, size_t *n, size_t *cap, struct cg_pid_file_bad *bad);
/*
 * "1.5" seconds, or one unit attached: "200us", "500ms", "1.5s", "2min" -> nanoseconds;
 * positive, at most a day. -EINVAL for junk, -ERANGE for 0 or more than a day.
 */
int cg_parse_seconds(const char *s, uint64_t *ret_ns);
/*
 * A point in time as cgtop2's --at, --begin and --end take it, into ns since the epoch:
 * local "YYYY-MM-DD HH:MM[:SS]", "@SECONDS" (up to 9 decimals), "now", relative to now_ns
 * "-DURATION" (whole numbers with d, h, m or min, s, in that order, each at most once: "-10m",
 * "-1h30m", "-90s"), or "today HH:MM[:SS]" and "yesterday HH:MM[:SS]" (local time).
 * -EINVAL for anything else, a time before the epoch, a field out of its range.
 */
int cg_parse_when(const char *s, uint64_t now_ns, uint64_t *ret_ns);
/*
 * A decimal fraction as the kernel prints one (PSI's "12.34", "100.00"; "7" too): digits, then
 * '.' and at least one digit; one trailing newline. -EINVAL for junk (signs, exponents, hex,
 * blanks), -ERANGE above max. Up to 15 significant digits the value is the nearest double,
 * as strtod's.
 */
int cg_parse_decimal(const char *s, double max, double *ret);
/*
 * A share as systemd writes one: "50%", "12.5%", "12.34%" (at most two decimals), in basis
 * points (hundredths of a percent: "12.5%" is 1250), no blanks, one trailing newline. -EINVAL
 * for junk (no '%', a sign, a third decimal), -ERANGE above max_bp.
 */
int cg_parse_percent(const char *s, uint64_t max_bp, uint64_t *ret_bp);
/*
 * A size: bytes, or with one of K, M, G, T (powers of 1024: "64M" is 67108864), and like the
 * rest of the family one trailing newline. With CG_SIZE_MAX the word "max" too, as UINT64_MAX
 * (so is 18446744073709551615: the kernel's limits read it as max as well); with
 * CG_SIZE_BYTES the unit may go on with "B" or "iB" ("64MB", "64MiB": a tool's own options;
 * never the kernel's values, which it refuses). -EINVAL for junk, -ERANGE above 64 bits.
 */
#define CG_SIZE_MAX   (1u << 0)
#define CG_SIZE_BYTES (1u << 1)
int cg_parse_size(const char *s, unsigned flags, uint64_t *ret);
/* "UID:GID", names or numbers, either side may be empty (unchanged: -1) */
int cg_parse_owner(const char *s, uid_t *ret_uid, gid_t *ret_gid);
/* The -r FILE=VALUE options of a call, in order. */
struct cg_assignment {
	char *file;
	char *value;
};
struct cg_assignments {
	struct cg_assignment *v;
	size_t n;
};
/*
 * The n bytes at s are an interface file's name as -r takes it: a letter, then letters, digits,
 * '_' and '.' (every file the kernel makes: cpu.weight, memory.limit_in_bytes, hugetlb.2MB.max).
 * Nothing else, because the part before the first '.' names the controller that picks the
 * hierarchy: a blank or a ',' there once turned " cpu.weight" into a cgroup named " cpu:".
 */
#define CG_SETTING_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_."
#define CG_SETTING_NAME_RULE  "a letter, then letters, digits, '_' or '.', as cpu.weight"
bool cg_setting_name_valid(const char *s, size_t n);
/*
 * Append "FILE=VALUE": -EINVAL without '=' or when FILE is no interface file's name
 * (cg_setting_name_valid), -ENOMEM.
 */
int cg_assignments_add(struct cg_assignments *a, const char *s);
void cg_assignments_clear(struct cg_assignments *a);
/* octal mode, 0..07777 */
int cg_parse_mode(const char *s, mode_t *ret);

/* "/a//b/./" -> "a/b"; -EINVAL for "..", control characters; -ENAMETOOLONG. */
int cg_path_normalize(const char *in, char **ret);
/* "/" + path ("a/b" and "/a/b" alike), the way every message names a cgroup; returns buf. */
const char *cg_path_display(const char *path, char *buf, size_t size);

/* qsort/bsearch order of pid_t. */
int cg_pid_cmp(const void *a, const void *b);

#endif
