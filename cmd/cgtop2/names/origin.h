/* SPDX-License-Identifier: MIT */
/* Who a cgroup belongs to, from its path alone: systemd unit and slice, container, pod, machine. */
#ifndef CGKIT_ORIGIN_H
#define CGKIT_ORIGIN_H

#include <stddef.h>

/* The fields, in the order writers put them (labels, JSON keys); indexes of cg_origin_field. */
enum cg_origin_key {
	CG_ORIGIN_UNIT, /* the innermost systemd unit that is no slice: nginx.service, session-3.scope */
	CG_ORIGIN_SLICE, /* the innermost slice: system.slice, user-1000.slice */
	CG_ORIGIN_CONTAINER_ID, /* 64 lowercase hex digits */
	CG_ORIGIN_POD_UID, /* the kubelet's pod UID, with its dashes */
	CG_ORIGIN_QOS, /* guaranteed, burstable or besteffort */
	CG_ORIGIN_MACHINE, /* a systemd-machined machine's name, unescaped */
	CG_ORIGIN_N
};

/* "unit", "slice", "container_id", "pod_uid", "qos", "machine": indexed by enum cg_origin_key */
extern const char *const cg_origin_names[CG_ORIGIN_N];

/* A component is at most NAME_MAX bytes, and no field is longer than its component. */
struct cg_origin {
	char unit[256], slice[256], machine[256];
	char container_id[65], pod_uid[65], qos[12];
};

/*
 * What path ("/a/b" or "a/b", any bytes) says about its owner; a field it does not name is "".
 * Pure: the path's text is all it reads. The innermost component of each kind wins.
 */
void cg_origin_parse(const char *path, struct cg_origin *ret);

/* Field k of o: "" when the path did not name it. */
const char *cg_origin_field(const struct cg_origin *o, enum cg_origin_key k);

#endif
