// SPDX-License-Identifier: MIT
/*
 * pipeline/journal.c journal_read_fd: a day file decompressed whole, bigger than the first
 * buffers (gzread's MiB at a time must have room: a day file over 128 KiB once overran the
 * heap and a replay aborted), and one cut short (no trailer: a recorder killed) read as far
 * as it goes, not clean.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "pipeline/journal.h"

/* not a multiple of gzread's MiB: zlib 1.2.13 misses the early end when a read filled its buffer */
#define BIG ((3u << 20) + 4321)

/* a memfd holding text gzip-compressed: whole, or without gzip's 8-byte trailer */
static int gz_file(const uint8_t *text, size_t len, bool whole)
{
	int fd = memfd_create("journal", MFD_CLOEXEC);
	gzFile gz = fd < 0 ? NULL : gzdopen(dup(fd), "wb");
	off_t end;

	if (!gz)
		return -1;
	if (gzwrite(gz, text, (unsigned)len) != (int)len) {
		gzclose(gz);
		return -1;
	}
	gzclose(gz);
	end = lseek(fd, 0, SEEK_END);
	/* a recorder killed after its flush: the deflate data whole, the CRC and length missing */
	if (!whole && ftruncate(fd, end - 8) < 0)
		return -1;
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static void read_back(bool whole)
{
	uint8_t *text = malloc(BIG), *buf = NULL;
	size_t len = 0;
	bool clean = !whole;
	int fd;

	CHECK(text != NULL);
	if (!text)
		return;
	/* some text zlib does not shrink to nothing, the same each run */
	for (size_t i = 0; i < BIG; i++)
		text[i] = (uint8_t)((i * 2654435761u) >> 13);
	fd = gz_file(text, BIG, whole);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_INT(journal_read_fd(fd, &buf, &len, &clean), 0);
		CHECK_INT(len, BIG);
		CHECK(buf && !memcmp(buf, text, BIG));
		CHECK_INT(clean, whole);
	}
	free(buf);
	free(text);
}

int main(void)
{
	read_back(true);
	read_back(false);
	return CHECK_DONE();
}
