// SPDX-License-Identifier: MIT
/*
 * Who a cgroup belongs to, read from the names systemd, container runtimes and the kubelet give
 * their cgroups: no runtime socket, no D-Bus, so that an exporter can label every series of a
 * scrape at the cost of a string scan. Names are data: any byte may come, nothing is trusted.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/cleanup.h"
#include "origin.h"

const char *const cg_origin_names[CG_ORIGIN_N] = {
	[CG_ORIGIN_UNIT] = "unit",
	[CG_ORIGIN_SLICE] = "slice",
	[CG_ORIGIN_CONTAINER_ID] = "container_id",
	[CG_ORIGIN_POD_UID] = "pod_uid",
	[CG_ORIGIN_QOS] = "qos",
	[CG_ORIGIN_MACHINE] = "machine",
};

/* A component of the path: not NUL-terminated. */
struct comp {
	const char *s;
	size_t len;
};

static bool has_prefix(struct comp c, const char *p)
{
	size_t n = strlen(p);

	return c.len >= n && !memcmp(c.s, p, n);
}

static bool has_suffix(struct comp c, const char *p)
{
	size_t n = strlen(p);

	return c.len >= n && !memcmp(c.s + c.len - n, p, n);
}

static bool is(struct comp c, const char *p)
{
	return c.len == strlen(p) && !memcmp(c.s, p, c.len);
}

static void set(char *field, size_t size, const char *s, size_t len)
{
	snprintf(field, size, "%.*s", (int)(len < size ? len : size - 1), s);
}

#define SET(field, s, len) set(field, sizeof(field), s, len)

static bool is_hex64(const char *s, size_t len)
{
	if (len != 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * A pod UID as the kubelet writes it into a cgroup name: a UUID (dashes; the systemd driver
 * turns them into underscores, as systemd takes '-' for a slice's nesting) or, for a static
 * pod, 32 hex digits of a hash. Stored with its dashes, as the API server has it.
 */
static bool pod_uid(struct cg_origin *o, const char *s, size_t len)
{
	if (!len || len >= sizeof(o->pod_uid))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || s[i] == '-' ||
		      s[i] == '_'))
			return false;
	for (size_t i = 0; i < len; i++)
		o->pod_uid[i] = s[i] == '_' ? '-' : s[i];
	o->pod_uid[len] = '\0';
	return true;
}

static void qos(struct cg_origin *o, const char *s, size_t len)
{
	if ((len == 9 && !memcmp(s, "burstable", 9)) || (len == 10 && !memcmp(s, "besteffort", 10)))
		SET(o->qos, s, len);
}

/*
 * The kubelet's systemd driver: kubepods.slice, kubepods-burstable.slice,
 * kubepods-burstable-pod<UID>.slice, kubepods-pod<UID>.slice (guaranteed: no QoS level); with
 * a cgroup root of its own, every nested slice repeats it (kubelet-kubepods-besteffort.slice).
 * name is the slice's name without ".slice".
 */
static void kube_slice(struct cg_origin *o, const char *name, size_t len)
{
	const char *seg[64];
	size_t seglen[64], n = 0, kube = SIZE_MAX;

	for (size_t i = 0, start = 0; i <= len && n < ARRAY_SIZE(seg); i++) {
		if (i < len && name[i] != '-')
			continue;
		seg[n] = name + start;
		seglen[n] = i - start;
		if (seglen[n] == 8 && !memcmp(seg[n], "kubepods", 8))
			kube = n;
		n++;
		start = i + 1;
	}
	if (kube == SIZE_MAX || kube + 1 >= n)
		return;
	/* the segment after kubepods: a QoS level or the pod itself */
	qos(o, seg[kube + 1], seglen[kube + 1]);
	if (seglen[n - 1] > 3 && !memcmp(seg[n - 1], "pod", 3) &&
	    pod_uid(o, seg[n - 1] + 3, seglen[n - 1] - 3) && kube + 2 == n)
		SET(o->qos, "guaranteed", 10);
}

/*
 * systemd's unit name escaping undone (\xNN, as in machine-qemu\x2d1\x2dvm.scope); a NUL
 * byte stays escaped, so that the name stays a C string.
 */
static void unescape(char *out, size_t size, const char *s, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 1 < size; i++) {
		unsigned v = 0;
		bool ok = s[i] == '\\' && i + 3 < len && s[i + 1] == 'x';

		for (size_t j = 2; ok && j < 4; j++) {
			char h = s[i + j];

			v <<= 4;
			if (h >= '0' && h <= '9')
				v |= (unsigned)(h - '0');
			else if (h >= 'a' && h <= 'f')
				v |= (unsigned)(h - 'a' + 10);
			else if (h >= 'A' && h <= 'F')
				v |= (unsigned)(h - 'A' + 10);
			else
				ok = false;
		}
		if (ok && v) {
			out[k++] = (char)v;
			i += 3;
		} else {
			out[k++] = s[i];
		}
	}
	out[k] = '\0';
}

/* The container runtimes' scopes under systemd: PREFIX<64 hex>.scope. */
static void container_scope(struct cg_origin *o, struct comp c)
{
	/*
	 * Podman's and CRI-O's conmon, the runtime's monitor beside the container, is left out:
	 * its scope is a sibling of the container's, and its memory and CPU are not the
	 * container's (summing by container_id would add them). Its unit label names it.
	 */
	static const char *const prefix[] = { "docker-", "libpod-", "cri-containerd-", "crio-" };

	for (size_t i = 0; i < ARRAY_SIZE(prefix); i++) {
		size_t n = strlen(prefix[i]);

		if (has_prefix(c, prefix[i]) && c.len == n + 64 + 6 && is_hex64(c.s + n, 64)) {
			SET(o->container_id, c.s + n, 64);
			return;
		}
	}
}

static bool is_unit(struct comp c)
{
	static const char *const suffix[] = { ".service", ".scope", ".socket", ".mount", ".swap" };

	for (size_t i = 0; i < ARRAY_SIZE(suffix); i++)
		if (c.len > strlen(suffix[i]) && has_suffix(c, suffix[i]))
			return true;
	return false;
}

void cg_origin_parse(const char *path, struct cg_origin *ret)
{
	struct cg_origin o = { 0 };
	struct comp prev = { "", 0 };
	bool kubepods_fs = false; /* below the cgroupfs driver's kubepods */

	for (const char *p = path; *p;) {
		struct comp c;

		while (*p == '/')
			p++;
		c.s = p;
		while (*p && *p != '/')
			p++;
		c.len = (size_t)(p - c.s);
		if (!c.len)
			break;
		if (c.len > 6 && has_suffix(c, ".slice")) {
			SET(o.slice, c.s, c.len);
			kube_slice(&o, c.s, c.len - 6);
		} else if (is_unit(c)) {
			SET(o.unit, c.s, c.len);
			if (has_suffix(c, ".scope")) {
				container_scope(&o, c);
				if (has_prefix(c, "machine-") && c.len > 8 + 6)
					unescape(o.machine, sizeof(o.machine), c.s + 8,
						 c.len - 8 - 6);
			}
		} else if (is(c, "kubepods")) {
			/* the cgroupfs driver: kubepods[/burstable|/besteffort]/pod<UID>/<ID> */
			kubepods_fs = true;
		} else if (kubepods_fs && is(prev, "kubepods") &&
			   (is(c, "burstable") || is(c, "besteffort"))) {
			qos(&o, c.s, c.len);
		} else if (kubepods_fs && c.len > 3 && has_prefix(c, "pod") &&
			   pod_uid(&o, c.s + 3, c.len - 3)) {
			if (is(prev, "kubepods"))
				SET(o.qos, "guaranteed", 10);
		} else if (is_hex64(c.s, c.len)) {
			/* /docker/ID, the kubelet's cgroupfs driver, any runtime's bare ID */
			SET(o.container_id, c.s, c.len);
		} else if (has_prefix(c, "libpod-") && is_hex64(c.s + 7, c.len - 7)) {
			/* Podman's cgroupfs driver: /libpod_parent/libpod-ID */
			SET(o.container_id, c.s + 7, 64);
		}
		prev = c;
	}
	*ret = o;
}

const char *cg_origin_field(const struct cg_origin *o, enum cg_origin_key k)
{
	switch (k) {
	case CG_ORIGIN_UNIT:
		return o->unit;
	case CG_ORIGIN_SLICE:
		return o->slice;
	case CG_ORIGIN_CONTAINER_ID:
		return o->container_id;
	case CG_ORIGIN_POD_UID:
		return o->pod_uid;
	case CG_ORIGIN_QOS:
		return o->qos;
	case CG_ORIGIN_MACHINE:
		return o->machine;
	case CG_ORIGIN_N:
		break;
	}
	return "";
}
