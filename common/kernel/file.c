// SPDX-License-Identifier: MIT
/* Small-file I/O beneath a cgroup mount: no symlinks, no "..", no mount crossed, only cgroupfs. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "base/kparse.h"
#include "base/parse.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif

/* Virtual files larger than this are not "small"; refuse rather than eat memory. */
#define READ_LIMIT (64u << 20)

bool cg_name_is_plain(const char *name)
{
	if (!name || !*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (*p == '/' || (unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

int cg_open_beneath_walk(int dirfd, const char *path, int flags, mode_t mode)
{
	_cleanup_free_ char *copy = strdup(path);
	_cleanup_close_ int cur = -1;
	char *save = NULL, *comp, *next;
	struct stat base, st;

	if (!copy)
		return -ENOMEM;
	cur = openat(dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0 || fstat(cur, &base) < 0)
		return -errno;
	comp = strtok_r(copy, "/", &save);
	if (!comp) {
		int fd = openat(cur, ".", flags | O_CLOEXEC, mode);
		return fd < 0 ? -errno : fd;
	}
	for (; comp; comp = next) {
		int fd;

		next = strtok_r(NULL, "/", &save);
		if (!strcmp(comp, ".."))
			return -EXDEV;
		if (next)
			fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		else
			fd = openat(cur, comp, flags | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0)
			return -errno;
		close(cur);
		cur = fd;
		/* RESOLVE_NO_XDEV, as open_unchecked asks it: another device is a mount crossed */
		if (!(flags & O_PATH)) {
			if (fstat(cur, &st) < 0)
				return -errno;
			if (st.st_dev != base.st_dev)
				return -EXDEV;
		}
	}
	return TAKE_FD(cur);
}

static int open_unchecked(int dirfd, const char *p, int flags, mode_t mode)
{
	/*
	 * Once the kernel said ENOSYS there is no point in asking again. Atomic: cg_move_many's
	 * helper thread opens files too, and the first ENOSYS may be seen by either thread.
	 */
	static atomic_bool no_openat2;
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	/*
	 * What is read or written never crosses a mount on its way from the base (a cgroup of
	 * another hierarchy bind-mounted over one of ours is cgroupfs too). An O_PATH handle may:
	 * "does the cgroup exist" stays true, and its first use says what is wrong there.
	 */
	if (!(flags & O_PATH))
		how.resolve |= RESOLVE_NO_XDEV;

	if (!atomic_load_explicit(&no_openat2, memory_order_relaxed)) {
		do
			fd = (int)syscall(SYS_openat2, dirfd, p, &how, sizeof(how));
		while (fd < 0 && errno == EAGAIN);
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS)
			return -errno;
		atomic_store_explicit(&no_openat2, true, memory_order_relaxed);
	}
	return cg_open_beneath_walk(dirfd, p, flags, mode);
}

int cg_fd_check_cgroupfs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return -errno;
	if (sfs.f_type != (typeof(sfs.f_type))CGROUP_SUPER_MAGIC &&
	    sfs.f_type != (typeof(sfs.f_type))CGROUP2_SUPER_MAGIC)
		return -ENXIO;
	return 0;
}

static int check_regular(int fd, int flags)
{
	struct stat st;

	/* a directory (a base, a listing) is never read as a file */
	if (flags & (O_PATH | O_DIRECTORY))
		return 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	return S_ISREG(st.st_mode) ? 0 : -EMEDIUMTYPE;
}

/*
 * A fixture tree: plain directories a test's mount table ($CGKIT_MOUNTINFO, or its own
 * struct cg_hier) names as a hierarchy. Its files may be read where no cgroup hierarchy is
 * mounted above them; a filesystem mounted inside one (a tmpfs over a cgroup directory) is
 * what an attacker plants, never a fixture. Costs a mountinfo read, off cgroupfs only.
 */
static bool fixture_file(int fd)
{
	_cleanup_free_ char *text = NULL;
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 || !(stx.stx_mask & STATX_MNT_ID))
		return false;
	{
		_cleanup_close_ int mfd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

		if (mfd < 0 || cg_read_fd(mfd, &text, NULL) < 0)
			return false;
	}
	return cg_kparse_mountinfo_in_cgroup(text, stx.stx_mnt_id) == 0;
}

int cg_fd_check_interface(int fd, int flags)
{
	int r = cg_fd_check_cgroupfs(fd);

	if (r == -ENXIO && (flags & O_ACCMODE) == O_RDONLY && fixture_file(fd))
		r = 0;
	if (r < 0)
		return r;
	return check_regular(fd, flags);
}

int cg_open_beneath(int dirfd, const char *path, int flags, mode_t mode)
{
	const char *p = (!path || !*path) ? "." : path;
	_cleanup_close_ int fd = -1;
	int r;

	if (p[0] == '/')
		return -EXDEV;
	/*
	 * A FIFO planted where a file should be must not block the open. An O_PATH handle
	 * (openat2 takes no other flag with it) reads and writes nothing: what is opened
	 * beneath it is checked then.
	 */
	if (!(flags & O_PATH))
		flags |= O_NONBLOCK;
	fd = open_unchecked(dirfd, p, flags, mode);
	if (fd < 0 || (flags & O_PATH))
		return TAKE_FD(fd);
	r = cg_fd_check_interface(fd, flags);
	return r < 0 ? r : TAKE_FD(fd);
}

ssize_t cg_pread_buf(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (size < 2)
		return -EINVAL;
	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n == size - 1)
		return -EFBIG;
	buf[n] = '\0';
	return n;
}

/* a bound reached, at the end of a line: the read may stop there */
static bool bound_reached(const struct cg_read_bound *b, const char *buf, size_t len)
{
	if (!b || buf[len - 1] != '\n')
		return false;
	return (b->max_len && len >= b->max_len) ||
	       (b->deadline_ns && cg_now_ns() >= b->deadline_ns);
}

int cg_read_fd(int fd, char **ret, size_t *ret_len)
{
	return cg_read_fd_bounded(fd, NULL, ret, ret_len, NULL);
}

int cg_read_fd_bounded(int fd, const struct cg_read_bound *b, char **ret, size_t *ret_len,
		       bool *ret_cut)
{
	_cleanup_free_ char *buf = NULL;
	size_t cap = 4096, len = 0;
	/* a bounded listing is read once, front to back, with read() as the drain always did */
	bool seekable = !b, cut = false;

	/*
	 * Read to EOF from offset 0: seq_file hands out at most a page per read() (cgroup.procs,
	 * tasks of a big cgroup), and continues consistently from where the last read stopped.
	 */
	for (;;) {
		ssize_t n;

		if (len == cap || !buf) {
			char *nb;

			if (buf)
				cap *= 2;
			if (cap > READ_LIMIT)
				return -EFBIG;
			nb = realloc(buf, cap + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
		}
		do
			n = seekable ? pread(fd, buf + len, cap - len, (off_t)len)
				     : read(fd, buf + len, cap - len);
		while (n < 0 && errno == EINTR);
		if (n < 0 && errno == ESPIPE && seekable && len == 0) {
			/* pipes and some /proc files do not seek; read those plainly */
			seekable = false;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
		if (bound_reached(b, buf, len)) {
			cut = true;
			break;
		}
	}
	buf[len] = '\0';
	if (ret_len)
		*ret_len = len;
	if (ret_cut)
		*ret_cut = cut;
	*ret = TAKE_PTR(buf);
	return 0;
}

int cg_read_at(int dirfd, const char *path, char **ret)
{
	_cleanup_close_ int fd = cg_open_beneath(dirfd, path, O_RDONLY, 0);

	if (fd < 0)
		return fd;
	return cg_read_fd(fd, ret, NULL);
}

int cg_members_read_at(int dirfd, const char *path, unsigned flags, const struct cg_read_bound *b,
		       pid_t **ret, size_t *ret_n, bool *ret_cut)
{
	_cleanup_close_ int fd = cg_open_beneath(dirfd, path, O_RDONLY, 0);
	_cleanup_free_ char *buf = NULL;
	int r;

	if (fd < 0)
		return fd;
	r = cg_read_fd_bounded(fd, b, &buf, NULL, ret_cut);
	return r < 0 ? r : cg_kparse_members(buf, flags & CG_MEMBERS_LAX, ret, ret_n);
}

int cg_write_fd(int fd, const char *value, size_t len)
{
	ssize_t n;

	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	return 0;
}

int cg_write_at(int dirfd, const char *path, const char *value)
{
	/* cg_open_beneath verified it is a regular file on cgroupfs */
	_cleanup_close_ int fd = cg_open_beneath(dirfd, path, O_WRONLY, 0);

	if (fd < 0)
		return fd;
	return cg_write_fd(fd, value, strlen(value));
}

char *cg_path_join(const char *parent, const char *child)
{
	char *s;

	if (!*parent)
		return strdup(child);
	if (!*child)
		return strdup(parent);
	if (asprintf(&s, "%s/%s", parent, child) < 0)
		return NULL;
	return s;
}
