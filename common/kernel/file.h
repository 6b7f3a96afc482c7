/* SPDX-License-Identifier: MIT */
/* Small-file I/O beneath a cgroup mount: no symlinks, no "..", no mount crossed, only cgroupfs. */
#ifndef CGKIT_FILE_H
#define CGKIT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/parse.h"

/*
 * Open PATH (relative, "" or "." for dirfd itself) beneath dirfd: it may not leave dirfd's
 * tree nor pass a symlink or magic link (-EXDEV, -ELOOP); unless O_PATH, it may not cross a
 * mount point either (-EXDEV: a cgroup of another hierarchy bind-mounted over one of ours is
 * cgroupfs too). openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS, and
 * RESOLVE_NO_XDEV) where the kernel has it, else a per-component O_NOFOLLOW walk. O_CLOEXEC
 * is always added. Unless O_PATH, O_NONBLOCK is added (a FIFO must not block the open) and
 * the fd is checked with cg_fd_check_interface before it is returned. An O_PATH handle
 * (a base, an existence check) reads and writes nothing: what is opened beneath it is
 * checked then. Every open beneath a hierarchy goes through here. Returns an fd or -errno.
 */
int cg_open_beneath(int dirfd, const char *path, int flags, mode_t mode);

/* The fallback walk itself (kernels before 5.6), unchecked, exposed so tests cover it. */
int cg_open_beneath_walk(int dirfd, const char *path, int flags, mode_t mode);

/* -ENXIO unless fd lives on cgroupfs (v1) or cgroup2fs. */
int cg_fd_check_cgroupfs(int fd);

/*
 * fd, opened with flags, may be used as a cgroup interface file or directory:
 *   -ENXIO       not on cgroupfs. A read-only fd on a plain tree that no cgroup hierarchy is
 *                mounted above is a test's fixture and passes; a filesystem mounted inside a
 *                hierarchy (a tmpfs over a cgroup directory) never does. Writes: cgroupfs only.
 *   -EMEDIUMTYPE not a regular file (unless flags has O_DIRECTORY): a FIFO, socket or device
 *                where the kernel's file should be; cgroupfs itself has none.
 * One fstatfs() and one fstat() on cgroupfs. For fds a caller opened by itself (the
 * sampler's kept fds): once at open time, never per read.
 */
int cg_fd_check_interface(int fd, int flags);

/*
 * Whole content of a virtual file from offset 0 to EOF, NUL-terminated. seq_file files
 * (cgroup.procs, tasks) come a page per read(), so one read is not enough for them.
 * *ret_len may be NULL. The sampler's hot path uses cg_pread_buf instead.
 */
int cg_read_fd(int fd, char **ret, size_t *ret_len);

/* Where cg_read_fd_bounded may stop before EOF; a zero field is no bound. */
struct cg_read_bound {
	uint64_t deadline_ns; /* cg_now_ns() time */
	size_t max_len;
};

/*
 * cg_read_fd, cut at the end of a line once the deadline or the length is reached, with
 * *ret_cut telling whether it was (a listing that a fork storm grows faster than it is read
 * never reaches EOF: a drain takes a slice and lists again). b may be NULL (cg_read_fd).
 */
int cg_read_fd_bounded(int fd, const struct cg_read_bound *b, char **ret, size_t *ret_len,
		       bool *ret_cut);
int cg_read_at(int dirfd, const char *path, char **ret);

/* How cg_members_read_at (and cgroup.h's cg_members_read) read a membership listing. */
enum {
	CG_MEMBERS_THREADS = 1 << 0, /* the threads' listing (cgroup.h's readers pick the file) */
	CG_MEMBERS_LAX = 1 << 1, /* a line that is no id is skipped, not -EINVAL */
};
/*
 * The one pid-list reader: the membership file (cgroup.procs, cgroup.threads, tasks) at path
 * beneath dirfd, opened as cg_open_beneath does, read to its end (or cut by b, which may be
 * NULL, as cg_read_fd_bounded cuts) and parsed by cg_kparse_members: sorted, unique ids.
 */
int cg_members_read_at(int dirfd, const char *path, unsigned flags, const struct cg_read_bound *b,
		       pid_t **ret, size_t *ret_n, bool *ret_cut);
/* Read into a caller buffer (hot path of the sampler): returns length or -errno; -EFBIG if full. */
ssize_t cg_pread_buf(int fd, char *buf, size_t size);

/* One write() of the whole value; a short write is -EIO. */
int cg_write_fd(int fd, const char *value, size_t len);
/* Open beneath dirfd (checked as cg_open_beneath does), write value in one write(). */
int cg_write_at(int dirfd, const char *path, const char *value);

/* Join a cgroup path and a child name: "a" + "b" -> "a/b", "" + "b" -> "b". */
char *cg_path_join(const char *parent, const char *child);

/* The last component of path must be a plain name: no "/", not "." or "..", no control chars. */
bool cg_name_is_plain(const char *name);

#endif
