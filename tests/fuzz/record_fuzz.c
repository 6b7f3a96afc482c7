// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for cgtop2's recording reader (cmd/cgtop2/record/record_read.c; make fuzz builds and
 * runs it). By hand:
 *   clang -std=gnu11 -D_GNU_SOURCE -Icommon -g -O1 -fsanitize=fuzzer,address,undefined \
 *     tests/fuzz/record_fuzz.c cmd/cgtop2/record/record.c cmd/cgtop2/record/record_read.c common/base/parse.c -lz \
 *     -o record_fuzz && ./record_fuzz -max_total_time=60
 * The first byte picks the mode: even, the input is a file as it is (what damage looks like,
 * almost never past a CRC); odd, the input is cut into records whose lengths and CRCs the
 * harness writes, so that the fuzzer reaches the headers and samples behind the checksums.
 * Every sample the parse accepted must decode, and its rows must be sane.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "record/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* head, then each chunk (2 bytes of length, little-endian, then type and payload) framed */
static uint8_t *framed(const uint8_t *data, size_t size, size_t *ret_len)
{
	uint8_t *buf = malloc(CG_REC_HEAD_SIZE + size * 9 + 16), *p;
	size_t i = 0;

	if (!buf)
		return NULL;
	cg_rec_file_head(buf);
	p = buf + CG_REC_HEAD_SIZE;
	while (i < size) {
		size_t n = data[i];

		n |= i + 1 < size ? (size_t)data[i + 1] << 8 : 0;
		i += i + 1 < size ? 2 : 1;
		if (n > size - i)
			n = size - i;
		if (n == 0)
			continue;
		put_le32(p, (uint32_t)n);
		memcpy(p + 4, data + i, n);
		put_le32(p + 4 + n, (uint32_t)crc32(0, p, (uInt)(n + 4)));
		p += n + 8;
		i += n;
	}
	*ret_len = (size_t)(p - buf);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_rec_file *f = NULL;
	struct cg_rec_damage d;
	struct cg_rec_rows rows = { 0 };
	unsigned major, minor;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		buf = framed(data + 1, size - 1, &len);
	} else {
		len = size - 1;
		buf = malloc(len ? len : 1);
		if (buf)
			memcpy(buf, data + 1, len);
	}
	if (!buf)
		return 0;
	if (cg_rec_parse(buf, len, &f, &d, &major, &minor, NULL) == 0) {
		if (d.why && (d.offset >= len || d.bytes > len))
			abort();
		for (size_t i = 0; i < cg_rec_count(f); i++) {
			const struct cg_rec_info *info = cg_rec_info_of(f, i);

			if (!info->path || !info->host || cg_rec_decode(f, i, &rows, NULL) < 0)
				abort();
			for (size_t r = 0; r < rows.n; r++) {
				const struct cg_stat_row *row = rows.ptrs[r];

				if (!row->path || (row->n_threads && !row->threads))
					abort();
				if (row->n_members && !row->members)
					abort();
				for (size_t t = 0; t < row->n_members; t++)
					if (strnlen(row->members[t].comm,
						    sizeof(row->members[t].comm)) ==
						    sizeof(row->members[t].comm) ||
					    (row->members[t].cpu_percent >= 0 &&
					     !(row->members[t].cpu_percent <= 1e15)))
						abort();
				for (size_t t = 0; t < row->n_threads; t++)
					if (strnlen(row->threads[t].comm,
						    sizeof(row->threads[t].comm)) ==
					    sizeof(row->threads[t].comm))
						abort();
				if ((row->have & CG_STAT_CPU_RATE) && !(row->cpu_percent >= 0))
					abort();
			}
		}
		cg_rec_file_free(f);
	}
	cg_rec_rows_free(&rows);
	free(buf);
	return 0;
}
