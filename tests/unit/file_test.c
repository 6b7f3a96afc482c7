// SPDX-License-Identifier: MIT
/* common/file: confinement beneath a directory, the read-size+1 rule, the fd checks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kernel/file.h"
#include "base/kparse.h"

int main(void)
{
	char tmpl[] = "/tmp/cgkit-file-test.XXXXXX";
	char *dir = mkdtemp(tmpl), path[256], *text = NULL, big[10000];
	int root, fd;
	size_t len = 0;

	if (!dir)
		return 77;
	snprintf(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/f", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	memset(big, 'x', sizeof(big));
	CHECK(write(fd, big, sizeof(big)) == (ssize_t)sizeof(big));
	close(fd);
	snprintf(path, sizeof(path), "%s/a/link", dir);
	CHECK_INT(symlink("/etc/passwd", path), 0);
	snprintf(path, sizeof(path), "%s/a/dirlink", dir);
	CHECK_INT(symlink(".", path), 0);
	root = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	/* a file bigger than the first buffer comes back whole */
	fd = cg_open_beneath(root, "a/f", O_RDONLY, 0);
	CHECK(fd >= 0);
	CHECK_INT(cg_read_fd(fd, &text, &len), 0);
	CHECK_INT(len, sizeof(big));
	free(text);
	/* a buffer exactly the size of the file is "maybe truncated" */
	{
		char small[10000];
		CHECK_INT(cg_pread_buf(fd, small, sizeof(small)), -EFBIG);
	}
	/* plain files are not cgroupfs: writes must be refused */
	CHECK_INT(cg_fd_check_cgroupfs(fd), -ENXIO);
	CHECK_INT(cg_write_at(root, "a/f", "1"), -ENXIO);
	close(fd);

	CHECK(cg_open_beneath(root, "../etc/passwd", O_RDONLY, 0) < 0);
	CHECK(cg_open_beneath(root, "/etc/passwd", O_RDONLY, 0) < 0);
	CHECK(cg_open_beneath(root, "a/link", O_RDONLY, 0) < 0);
	CHECK(cg_open_beneath(root, "a/dirlink/f", O_RDONLY, 0) < 0);
	/* the same walls without openat2 */
	CHECK_INT(cg_open_beneath_walk(root, "../etc/passwd", O_RDONLY, 0), -EXDEV);
	CHECK(cg_open_beneath_walk(root, "a/link", O_RDONLY, 0) < 0);
	CHECK(cg_open_beneath_walk(root, "a/dirlink/f", O_RDONLY, 0) < 0);
	fd = cg_open_beneath_walk(root, "a//f", O_RDONLY, 0);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	fd = cg_open_beneath(root, "", O_PATH | O_DIRECTORY, 0);
	CHECK(fd >= 0);
	close(fd);

	/*
	 * What is not a regular file is refused on its fd, without blocking: a FIFO (whose plain
	 * open would wait for a writer forever), a directory opened as a file. Directories
	 * opened as such still are bases. A plain tree is readable as a fixture, never writable.
	 */
	snprintf(path, sizeof(path), "%s/a/fifo", dir);
	CHECK_INT(mkfifo(path, 0600), 0);
	CHECK_INT(cg_open_beneath(root, "a/fifo", O_RDONLY, 0), -EMEDIUMTYPE);
	CHECK_INT(cg_read_at(root, "a/fifo", &text), -EMEDIUMTYPE);
	CHECK(cg_open_beneath(root, "a/fifo", O_WRONLY, 0) < 0);
	CHECK(cg_write_at(root, "a/fifo", "1") < 0);
	CHECK_INT(cg_open_beneath(root, "a", O_RDONLY, 0), -EMEDIUMTYPE);
	fd = cg_open_beneath(root, "a", O_RDONLY | O_DIRECTORY, 0);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_INT(cg_fd_check_interface(fd, O_RDONLY | O_DIRECTORY), 0);
		CHECK_INT(cg_fd_check_interface(fd, O_WRONLY | O_DIRECTORY), -ENXIO);
		CHECK_INT(cg_read_at(fd, "f", &text), 0);
		free(text);
		close(fd);
	}
	fd = cg_open_beneath(root, "a/f", O_RDONLY, 0);
	CHECK(fd >= 0 && (fcntl(fd, F_GETFL) & O_NONBLOCK));
	if (fd >= 0)
		close(fd);
	/* an fd opened some other way is checked as such */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	CHECK(fd >= 0);
	CHECK_INT(cg_fd_check_interface(fd, O_RDONLY), -EMEDIUMTYPE);
	close(fd);

	/* mountinfo: a mount is inside a cgroup hierarchy when it or an ancestor is one */
	{
		static const char mi[] =
			"26 1 254:0 / / rw - ext4 /dev/vda1 rw\n"
			"30 26 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
			"31 30 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
			"40 31 0:50 / /sys/fs/cgroup/unified/x rw - tmpfs none rw\n"
			"41 40 0:51 / /sys/fs/cgroup/unified/x/y rw - tmpfs none rw\n"
			"42 30 0:28 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
			"50 26 0:60 / /tmp rw - tmpfs tmpfs rw\n"
			"60 61 0:61 / /a rw - tmpfs a rw\n"
			"61 60 0:62 / /b rw - tmpfs b rw\n"
			"70 26 0:70 / /bad rw tmpfs\n";

		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 26), 0);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 50), 0);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 30), 0);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 31), 1);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 42), 1);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 40), 1);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 41), 1);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 99), 0);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 60), -ELOOP);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup(mi, 70), -EINVAL);
		CHECK_INT(cg_kparse_mountinfo_in_cgroup("", 1), 0);
	}

	/* seq_file gives a page per read (as cgroup.procs of a big cgroup does): read to EOF */
	fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		CHECK_INT(cg_read_fd(fd, &text, &len), 0);
		CHECK(len > 8192);
		CHECK(len == strlen(text) && text[len - 1] == '\n');
		free(text);
		close(fd);
	}

	/*
	 * A listing that never ends (a pipe whose writer stays, as a fork storm keeps a v2
	 * listing growing): a bound cuts it at a line's end, where a plain read would block.
	 */
	{
		const struct cg_read_bound by_len = { .max_len = 3 },
					   by_time = { .deadline_ns = 1 };
		int p[2];
		bool cut = false;

		CHECK_INT(pipe(p), 0);
		CHECK_INT((int)write(p[1], "12\n34\n", 6), 6);
		CHECK_INT(cg_read_fd_bounded(p[0], &by_len, &text, &len, &cut), 0);
		CHECK(cut);
		CHECK_STR(text, "12\n34\n");
		free(text);
		/* not at a line's end: read on to the line's end (or EOF, here) */
		CHECK_INT((int)write(p[1], "5", 1), 1);
		close(p[1]);
		CHECK_INT(cg_read_fd_bounded(p[0], &by_time, &text, &len, &cut), 0);
		CHECK(!cut);
		CHECK_STR(text, "5");
		free(text);
		close(p[0]);
	}

	CHECK(cg_name_is_plain("memory.max"));
	CHECK(!cg_name_is_plain("a/b"));
	CHECK(!cg_name_is_plain(".."));
	CHECK(!cg_name_is_plain("x\ny"));

	close(root);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK_INT(system(path), 0);
	return CHECK_DONE();
}
