/* SPDX-License-Identifier: MIT */
/* What the floor programs share: they must do only the kernel work, so nothing of common/. */
#ifndef CGKIT_BENCH_FLOOR_H
#define CGKIT_BENCH_FLOOR_H

#include <fcntl.h>
#include <unistd.h>

/* Reads PATH to its end once, as the tool does (the kernel builds a listing per read). */
static inline int floor_read_all(const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (fd < 0)
		return -1;
	while ((k = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return k < 0 ? -1 : 0;
}

#endif
