/* SPDX-License-Identifier: MIT */
/* Who is in a container: its names from the runtimes' state files on the node (runtime.c). */
#ifndef CGKIT_RUNTIME_H
#define CGKIT_RUNTIME_H

#include <stddef.h>

/* The fields, in the order writers put them (labels, JSON keys). */
enum cg_rt_key {
	CG_RT_CONTAINER, /* the Kubernetes container's name */
	CG_RT_POD, /* the pod's name */
	CG_RT_NAMESPACE, /* the pod's namespace */
	CG_RT_IMAGE, /* the image as the container was asked to run it */
	CG_RT_NAME, /* Docker's container name (cAdvisor's name label); else "" */
	CG_RT_N
};

/* "container", "pod", "namespace", "image", "name": indexed by enum cg_rt_key */
extern const char *const cg_rt_names[CG_RT_N];

/* Whose state file a text is. */
enum cg_rt_kind { CG_RT_CONTAINERD, CG_RT_CRIO, CG_RT_DOCKER };

/* A field longer than its room is no field: a name is never shown cut. */
struct cg_rt_info {
	char v[CG_RT_N][512];
};

/* The largest state file read; a larger one names nothing (an OCI config is some 10 KB). */
#define CG_RT_FILE_MAX (1 << 20)

/*
 * The names in text[0, len), the state file of a runtime of kind k: containerd's task bundle
 * config.json (the CRI annotations), CRI-O's userdata/config.json (its annotations), Docker's
 * config.v2.json (Name, Config.Image, Config.Labels). A field the file does not hold as a
 * string is "". Pure: 0 (with at least one field), -EINVAL (no JSON, not the shape, no
 * field), -ENOMEM.
 */
int cg_rt_extract(enum cg_rt_kind k, const char *text, size_t len, struct cg_rt_info *ret);

/*
 * The process's cache of the runtimes' files beneath root ("/" on the node, or where its
 * files are mounted: --runtime-root). 0, or -errno (root cannot be opened).
 */
int cg_rt_init(const char *root);
/* The cache emptied and root closed. */
void cg_rt_done(void);
/*
 * The most IDs the cache holds (a node runs a few hundred containers): the next new one empties
 * it first, so that IDs of cgroups long gone (a user may make cgroups by the million) cost no
 * memory. How many it holds now: cg_rt_cached.
 */
#define CG_RT_CACHE_MAX 4096
size_t cg_rt_cached(void);
/*
 * The names of container id (64 hex digits, origin.c's container_id), or NULL: no runtime
 * file names it, or it is no file the size cap and no-symlink rule let through, or no JSON,
 * or cg_rt_init was not called. Read at its first lookup, again when the file changed (inode,
 * size or mtime); valid until the next lookup of the same id.
 */
const struct cg_rt_info *cg_rt_lookup(const char *id);
/*
 * The names of the container whose own cgroup path is (its last component names the ID
 * origin.c found, container_id): cAdvisor labels that cgroup alone, and a sum by pod or
 * container would count a container's sub-cgroups twice. NULL otherwise, or as cg_rt_lookup.
 */
const struct cg_rt_info *cg_rt_of_path(const char *path, const char *container_id);

#endif
