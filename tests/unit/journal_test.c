// SPDX-License-Identifier: MIT
/*
 * pipeline/journal.c journal_read_fd: a day file decompressed whole, bigger than the first
 * buffers (gzread's MiB at a time must have room: a day file over 128 KiB once overran the
 * heap and a replay aborted), and one cut short (no trailer: a recorder killed) read as far
 * as it goes, not clean: also where its data ends on a MiB (zlib 1.2.13's gzread took that for
 * a whole file), and where the trailer is there but wrong.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "pipeline/journal.h"

#define BIG ((3u << 20) + 4321)
/* a multiple of gzread's MiB: its last read filled its buffer and it took the cut file as whole */
#define BIG_MIB (2u << 20)

enum cut { WHOLE, NO_TRAILER, BAD_CRC };

/* a memfd holding text gzip-compressed: whole, without gzip's 8-byte trailer, or a wrong CRC */
static int gz_file(const uint8_t *text, size_t len, enum cut cut)
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
	if (cut == NO_TRAILER && ftruncate(fd, end - 8) < 0)
		return -1;
	if (cut == BAD_CRC) {
		uint8_t b;

		if (pread(fd, &b, 1, end - 8) != 1)
			return -1;
		b ^= 1;
		if (pwrite(fd, &b, 1, end - 8) != 1)
			return -1;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static void read_back(size_t size, enum cut cut)
{
	uint8_t *text = malloc(size), *buf = NULL;
	size_t len = 0;
	bool clean = cut != WHOLE;
	int fd;

	CHECK(text != NULL);
	if (!text)
		return;
	/* some text zlib does not shrink to nothing, the same each run */
	for (size_t i = 0; i < size; i++)
		text[i] = (uint8_t)((i * 2654435761u) >> 13);
	fd = gz_file(text, size, cut);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_INT(journal_read_fd(fd, &buf, &len, &clean), 0);
		CHECK_INT(len, size);
		CHECK(buf && !memcmp(buf, text, size));
		CHECK_INT(clean, cut == WHOLE);
	}
	free(buf);
	free(text);
}

int main(void)
{
	read_back(BIG, WHOLE);
	read_back(BIG, NO_TRAILER);
	read_back(BIG_MIB, WHOLE);
	read_back(BIG_MIB, NO_TRAILER);
	read_back(BIG_MIB, BAD_CRC);
	return CHECK_DONE();
}
