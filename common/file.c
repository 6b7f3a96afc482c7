// SPDX-License-Identifier: MIT
/* Small-file I/O beneath a cgroup mount: no symlinks, no "..", no mount crossed, only cgroupfs. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"

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

/* The walk's RESOLVE_NO_XDEV: a component on another device than the base is a mount crossed. */
static int same_dev(int fd, dev_t dev)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	return st.st_dev == dev ? 0 : -EXDEV;
}

int cg_open_beneath_walk(int dirfd, const char *path, int flags, mode_t mode)
{
	_cleanup_free_ char *copy = strdup(path);
	_cleanup_close_ int cur = -1;
	char *save = NULL, *comp, *next;
	struct stat base;

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
		int fd, r;

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
		r = same_dev(cur, base.st_dev);
		if (r < 0)
			return r;
	}
	return TAKE_FD(cur);
}

static int open_unchecked(int dirfd, const char *p, int flags, mode_t mode)
{
	/* once the kernel said ENOSYS there is no point in asking again */
	static int have_openat2 = 1;
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (have_openat2) {
		do
			fd = (int)syscall(SYS_openat2, dirfd, p, &how, sizeof(how));
		while (fd < 0 && errno == EAGAIN);
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS)
			return -errno;
		have_openat2 = 0;
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

	/* a directory (a base, a listing) or an O_PATH handle is never read as a file */
	if (flags & (O_PATH | O_DIRECTORY))
		return 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	return S_ISREG(st.st_mode) ? 0 : -EMEDIUMTYPE;
}

/*
 * A fixture tree: plain directories the mount table ($CGKIT_MOUNTINFO, or a test's own
 * struct cg_hier) names as a hierarchy, read by the tests of every tool. Its files are read
 * when the base they were opened from is on the same filesystem and not on cgroupfs either:
 * RESOLVE_NO_XDEV kept the open on the base's mount, so nothing mounted over a cgroup of a
 * real hierarchy can look like one. Writes never (the signal side, cgroup.kill, moves).
 */
static bool fixture_read(int base, int fd, int flags)
{
	struct stat a, b;

	if ((flags & O_ACCMODE) != O_RDONLY || base == AT_FDCWD)
		return false;
	if (cg_fd_check_cgroupfs(base) != -ENXIO)
		return false;
	return fstat(base, &a) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev;
}

int cg_fd_check_interface(int fd, int flags)
{
	int r = cg_fd_check_cgroupfs(fd);

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
	/* a FIFO planted where a file should be must not block the open (O_PATH takes no more) */
	if (!(flags & O_PATH))
		flags |= O_NONBLOCK;
	fd = open_unchecked(dirfd, p, flags, mode);
	if (fd < 0)
		return fd;
	r = cg_fd_check_interface(fd, flags);
	if (r == -ENXIO && fixture_read(dirfd, fd, flags))
		r = check_regular(fd, flags);
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

int cg_read_fd(int fd, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t cap = 4096, len = 0;
	bool seekable = true;

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
	}
	buf[len] = '\0';
	if (ret_len)
		*ret_len = len;
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

int cg_path_normalize(const char *in, char **ret)
{
	size_t len = strlen(in);
	_cleanup_free_ char *out = malloc(len + 1);
	char *w;

	if (!out)
		return -ENOMEM;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	w = out;
	for (const char *p = in; *p;) {
		const char *e;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		for (const char *c = p; c < e; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return -EINVAL;
		if (!(n == 1 && p[0] == '.')) {
			if (w != out)
				*w++ = '/';
			memcpy(w, p, n);
			w += n;
		}
		p = e;
	}
	*w = '\0';
	*ret = TAKE_PTR(out);
	return 0;
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
