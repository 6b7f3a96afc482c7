// SPDX-License-Identifier: MIT
/*
 * common/origin: the owner of a cgroup from its path, on the paths systemd, Docker, Podman,
 * containerd, CRI-O, the kubelet (both cgroup drivers) and systemd-machined really make, as
 * cgroup2 and v1 hierarchies show them.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "names/origin.h"

#define ID "3f1c9e2b7a8d4c6e5f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6"

struct want {
	const char *unit, *slice, *container_id, *pod_uid, *qos, *machine;
};

static void check_path(int line, const char *path, struct want w)
{
	const char *want[CG_ORIGIN_N] = { w.unit,    w.slice, w.container_id,
					  w.pod_uid, w.qos,   w.machine };
	struct cg_origin o;

	memset(&o, 0x55, sizeof(o));
	cg_origin_parse(path, &o);
	for (int k = 0; k < CG_ORIGIN_N; k++) {
		const char *got = cg_origin_field(&o, (enum cg_origin_key)k);
		const char *exp = want[k] ? want[k] : "";

		if (strcmp(got, exp)) {
			fprintf(stderr, "line %d: %s: %s = \"%s\", expected \"%s\"\n", line, path,
				cg_origin_names[k], got, exp);
			check_failures++;
		}
	}
}

#define PATH(p, ...) check_path(__LINE__, p, (struct want){ __VA_ARGS__ })

static void test_systemd(void)
{
	PATH("/");
	PATH("");
	PATH("/system.slice", .slice = "system.slice");
	PATH("/system.slice/nginx.service", .unit = "nginx.service", .slice = "system.slice");
	/* a delegated service's own cgroups keep the unit */
	PATH("/system.slice/containerd.service/worker", .unit = "containerd.service",
	     .slice = "system.slice");
	PATH("/init.scope", .unit = "init.scope");
	PATH("/user.slice/user-1000.slice/session-3.scope", .unit = "session-3.scope",
	     .slice = "user-1000.slice");
	PATH("/user.slice/user-1000.slice/user@1000.service", .unit = "user@1000.service",
	     .slice = "user-1000.slice");
	/* the user manager's units: the innermost wins */
	PATH("/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-42.scope",
	     .unit = "app-gnome-firefox-42.scope", .slice = "app.slice");
	PATH("/system.slice/systemd-journald.socket", .unit = "systemd-journald.socket",
	     .slice = "system.slice");
	PATH("/system.slice/home.mount", .unit = "home.mount", .slice = "system.slice");
	/* not units: a bare suffix, a suffix inside a name */
	PATH("/.service/.scope/.slice");
	PATH("/a.service.d/b.scopes");
	/* v1: the same names below each controller's hierarchy */
	PATH("system.slice/cron.service", .unit = "cron.service", .slice = "system.slice");
}

static void test_containers(void)
{
	/* each runtime's scope under systemd, at the top of a slice */
	static const char *const runtimes[] = { "docker-", "libpod-", "cri-containerd-", "crio-" };

	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		char path[256], unit[128];

		snprintf(unit, sizeof(unit), "%s%s.scope", runtimes[i], ID);
		snprintf(path, sizeof(path), "/machine.slice/%s", unit);
		PATH(path, .unit = unit, .slice = "machine.slice", .container_id = ID);
		/* a cgroup the container makes below its scope (podman's split, systemd inside) */
		snprintf(path, sizeof(path), "/machine.slice/%s/container", unit);
		PATH(path, .unit = unit, .slice = "machine.slice", .container_id = ID);
	}
	/* Docker's cgroupfs driver (v1 and v2) */
	PATH("/docker/" ID, .container_id = ID);
	/* systemd inside a container: the unit is its own, the container stays */
	PATH("/system.slice/docker-" ID ".scope/init.scope", .unit = "init.scope",
	     .slice = "system.slice", .container_id = ID);
	/* conmon, the monitor beside the container, is not the container */
	PATH("/machine.slice/libpod-conmon-" ID ".scope", .unit = "libpod-conmon-" ID ".scope",
	     .slice = "machine.slice");
	PATH("/system.slice/crio-conmon-" ID ".scope", .unit = "crio-conmon-" ID ".scope",
	     .slice = "system.slice");
	/* rootless Podman below the user's manager; Podman's cgroupfs driver */
	PATH("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID ".scope",
	     .unit = "libpod-" ID ".scope", .slice = "user.slice", .container_id = ID);
	PATH("/libpod_parent/libpod-" ID, .container_id = ID);
	/* not an ID: 63 or 65 digits, upper case, a non-hex letter */
	PATH("/docker/" ID "0");
	PATH("/docker/3F1C9E2B7A8D4C6E5F0A1B2C3D4E5F60718293A4B5C6D7E8F9A0B1C2D3E4F5A6");
	PATH("/system.slice/docker-3f1c9e2b7a8d4c6e5f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a.scope",
	     .unit = "docker-3f1c9e2b7a8d4c6e5f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a.scope",
	     .slice = "system.slice");
	PATH("/system.slice/docker-g" ID ".scope", .unit = "docker-g" ID ".scope",
	     .slice = "system.slice");
}

static void test_kubelet(void)
{
	/* the systemd driver: the UID's dashes became underscores */
	PATH("/kubepods.slice", .slice = "kubepods.slice");
	PATH("/kubepods.slice/kubepods-burstable.slice", .slice = "kubepods-burstable.slice",
	     .qos = "burstable");
	PATH("/kubepods.slice/kubepods-burstable.slice/"
	     "kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice/"
	     "cri-containerd-" ID ".scope",
	     .unit = "cri-containerd-" ID ".scope",
	     .slice = "kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice",
	     .container_id = ID, .pod_uid = "1234abcd-5678-90ef-abcd-1234567890ab",
	     .qos = "burstable");
	PATH("/kubepods.slice/kubepods-besteffort.slice/"
	     "kubepods-besteffort-pod1234abcd_5678_90ef_abcd_1234567890ab.slice/crio-" ID ".scope",
	     .unit = "crio-" ID ".scope",
	     .slice = "kubepods-besteffort-pod1234abcd_5678_90ef_abcd_1234567890ab.slice",
	     .container_id = ID, .pod_uid = "1234abcd-5678-90ef-abcd-1234567890ab",
	     .qos = "besteffort");
	/* guaranteed: the pod right below kubepods */
	PATH("/kubepods.slice/kubepods-pod1234abcd_5678_90ef_abcd_1234567890ab.slice/docker-" ID
	     ".scope",
	     .unit = "docker-" ID ".scope",
	     .slice = "kubepods-pod1234abcd_5678_90ef_abcd_1234567890ab.slice", .container_id = ID,
	     .pod_uid = "1234abcd-5678-90ef-abcd-1234567890ab", .qos = "guaranteed");
	/* a static pod's UID is a hash without dashes; a cgroup root of the kubelet's own */
	PATH("/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
	     "kubelet-kubepods-besteffort-pod0123456789abcdef0123456789abcdef.slice",
	     .slice = "kubelet-kubepods-besteffort-pod0123456789abcdef0123456789abcdef.slice",
	     .pod_uid = "0123456789abcdef0123456789abcdef", .qos = "besteffort");
	/* the cgroupfs driver (v1 and v2): the UID keeps its dashes */
	PATH("/kubepods/burstable/pod1234abcd-5678-90ef-abcd-1234567890ab/" ID, .container_id = ID,
	     .pod_uid = "1234abcd-5678-90ef-abcd-1234567890ab", .qos = "burstable");
	PATH("/kubepods/besteffort/pod1234abcd-5678-90ef-abcd-1234567890ab",
	     .pod_uid = "1234abcd-5678-90ef-abcd-1234567890ab", .qos = "besteffort");
	PATH("/kubepods/pod1234abcd-5678-90ef-abcd-1234567890ab/" ID, .container_id = ID,
	     .pod_uid = "1234abcd-5678-90ef-abcd-1234567890ab", .qos = "guaranteed");
	/* not a pod: outside kubepods, a UID with other characters */
	PATH("/pod1234", );
	PATH("/kubepods/burstable/podXYZ", .qos = "burstable");
	PATH("/system.slice/podman-pod1234.slice", .slice = "podman-pod1234.slice");
	PATH("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podZZ.slice",
	     .slice = "kubepods-burstable-podZZ.slice", .qos = "burstable");
}

static void test_machines(void)
{
	PATH("/machine.slice/machine-qemu\\x2d1\\x2dvm1.scope",
	     .unit = "machine-qemu\\x2d1\\x2dvm1.scope", .slice = "machine.slice",
	     .machine = "qemu-1-vm1");
	PATH("/machine.slice/machine-debian.scope/payload", .unit = "machine-debian.scope",
	     .slice = "machine.slice", .machine = "debian");
	/* a broken or NUL escape stays as it is */
	PATH("/machine.slice/machine-a\\x2.scope", .unit = "machine-a\\x2.scope",
	     .slice = "machine.slice", .machine = "a\\x2");
	PATH("/machine.slice/machine-a\\x00b\\xzz.scope", .unit = "machine-a\\x00b\\xzz.scope",
	     .slice = "machine.slice", .machine = "a\\x00b\\xzz");
	PATH("/machine-.scope", .unit = "machine-.scope");
}

static void test_hostile(void)
{
	char longname[600];

	/* a name longer than any field is cut, never overrun */
	memset(longname, 'a', sizeof(longname));
	memcpy(longname, "/x-", 3);
	strcpy(longname + sizeof(longname) - 7, ".scope");
	{
		struct cg_origin o;

		cg_origin_parse(longname, &o);
		CHECK_INT(strlen(o.unit), sizeof(o.unit) - 1);
	}
	PATH("//system.slice//a.service//", .unit = "a.service", .slice = "system.slice");
	PATH("/a\nb.service", .unit = "a\nb.service");
}

int main(void)
{
	test_systemd();
	test_containers();
	test_kubelet();
	test_machines();
	test_hostile();
	return CHECK_DONE();
}
