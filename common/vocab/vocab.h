/* SPDX-License-Identifier: MIT */
/* Memory, IO and pids in the v2 vocabulary, translated for v1 (pure: no cgroupfs). */
#ifndef CGKIT_VOCAB_H
#define CGKIT_VOCAB_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* io.max on v1 is up to four files; nothing else takes more */
#define CG_SETTINGS_MAX 4

/* What a translation may need to know of the cgroup it is for. */
struct cg_vocab_ctx {
	/* v1 memory.limit_in_bytes as it is (UINT64_MAX: unlimited or unknown) */
	uint64_t memory_limit;
};

/*
 * Translate FILE=VALUE for a hierarchy of the given version, with the same contract as
 * cg_cpu_translate: 1 when FILE is not part of this vocabulary, 0 with 1..CG_SETTINGS_MAX
 * settings in out[] (in the order to write them), or -EINVAL (bad value) / -ENOTSUP (the
 * layout cannot express it) with d filled, its why naming the nearest knob there is.
 *   memory.max -> memory.limit_in_bytes, memory.low -> memory.soft_limit_in_bytes,
 *   memory.swap.max -> memory.memsw.limit_in_bytes (memory plus swap: limit + swap),
 *   io.max -> blkio.throttle.{read,write}_{bps,iops}_device, io.weight -> blkio.bfq.weight
 *   (or weight_device), pids.max as it is. Sizes take K, M, G, T (powers of 1024) and max.
 * Devices in io.max/io.weight are MAJ:MIN here: cg_vocab_device resolves a /dev path first.
 * ctx NULL: the cgroup cannot be looked at yet; memory.swap.max on v1 then names its file with
 * -1 (what it will write is known only once memory.max is).
 */
int cg_vocab_translate(int version, const char *file, const char *value,
		       const struct cg_vocab_ctx *ctx, struct cg_setting out[CG_SETTINGS_MAX],
		       size_t *ret_n, struct cg_diag *d);

/*
 * Read back, the inverse of the v1 side of cg_vocab_translate (pure): v1 files as the v2 file
 * of the same limit reads, so that translating the result writes the same files again.
 */
/* A size as memory.max reads: bytes, or "max" for UINT64_MAX. 0, or -ENOBUFS. */
int cg_vocab_size_format(uint64_t v, char *buf, size_t size);
/*
 * memory.swap.max from memory.memsw.limit_in_bytes and memory.limit_in_bytes (UINT64_MAX:
 * unlimited, as is the result): memory plus swap minus memory.
 */
uint64_t cg_vocab_swap_from_memsw(uint64_t limit, uint64_t memsw);
/*
 * io.max from blkio.throttle.{read_bps,write_bps,read_iops,write_iops}_device's texts (in that
 * order; NULL: absent, no limit): a line "MAJ:MIN rbps=N wbps=N riops=N wiops=N" per device
 * (max where that file has none), by device number, "\n" between them, "" for none; as the
 * v2 file, without its last newline. 0, -EINVAL (a line that is not "MAJ:MIN N"), -ENOBUFS.
 */
int cg_vocab_io_max_from_v1(const char *const text[4], char *out, size_t size);
/*
 * io.weight from blkio.bfq.weight ("N"; or blkio.weight of the kernels before 5.0) and
 * blkio.bfq.weight_device ("MAJ:MIN N" lines; "default N" first on newer kernels; NULL:
 * absent): "default N" then "MAJ:MIN N" per device, "\n" between them. 0, -ENOENT (no default
 * weight in either), -EINVAL, -ENOBUFS.
 */
int cg_vocab_io_weight_from_v1(const char *weight, const char *weight_device, char *out,
			       size_t size);

/* The v1 controller that holds a v2 controller's files ("io" -> "blkio"), else ctrl itself. */
const char *cg_vocab_v1_controller(const char *ctrl);

/*
 * io.max/io.weight values name a device as MAJ:MIN or as a block device path: the value with
 * a leading /dev path replaced by its MAJ:MIN (not pure: stat, and a MAJ:MIN is looked up in
 * /sys/dev/block where sysfs is mounted). 0, -EINVAL (not a block device), -ENOENT (no such
 * path), -ENODEV (no block device MAJ:MIN), or -ENAMETOOLONG.
 */
int cg_vocab_device(const char *value, char *out, size_t size);

#endif
