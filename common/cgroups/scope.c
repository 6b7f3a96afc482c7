// SPDX-License-Identifier: MIT
/* Transient systemd scopes over D-Bus (sd-bus), and -r settings as their unit properties. */
#include "scope.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "base/clock.h"
#include "vocab/relative.h"

#define MANAGER_DEST  "org.freedesktop.systemd1"
#define MANAGER_PATH  "/org/freedesktop/systemd1"
#define MANAGER_IFACE "org.freedesktop.systemd1.Manager"

/*
 * libsystemd is opened when a scope is asked for, not linked: linked, it and the seven libraries
 * it needs (libgcrypt, liblzma, libzstd, lz4, libcap, ...) are loaded by every run of cgexec2,
 * for an option most runs do not use (1,000 runs of cgexec2 --version from a shell loop on the
 * hybrid host: 8.9 s of CPU linked, 6.6 s opened on demand).
 */
#define SD_FUNCS(X)                                                                                \
	X(sd_bus_call)                                                                             \
	X(sd_bus_call_method)                                                                      \
	X(sd_bus_error_free)                                                                       \
	X(sd_bus_flush_close_unref)                                                                \
	X(sd_bus_get_property_trivial)                                                             \
	X(sd_bus_match_signal)                                                                     \
	X(sd_bus_message_append)                                                                   \
	X(sd_bus_message_close_container)                                                          \
	X(sd_bus_message_new_method_call)                                                          \
	X(sd_bus_message_open_container)                                                           \
	X(sd_bus_message_read)                                                                     \
	X(sd_bus_message_unref)                                                                    \
	X(sd_bus_new)                                                                              \
	X(sd_bus_open_system)                                                                      \
	X(sd_bus_open_user)                                                                        \
	X(sd_bus_process)                                                                          \
	X(sd_bus_set_address)                                                                      \
	X(sd_bus_set_method_call_timeout)                                                          \
	X(sd_bus_slot_unref)                                                                       \
	X(sd_bus_start)                                                                            \
	X(sd_bus_wait)
static struct {
#define SD_DECL(f) __typeof__(&f) f;
	SD_FUNCS(SD_DECL)
} sd;

static int sd_load(const char *where, const char *what, struct cg_diag *d)
{
	static void *lib;
	void *h;

	if (lib)
		return 0;
	h = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return cg_diag_say(
			d, ENOSYS, where, "", what,
			"libsystemd.so.0 cannot be loaded (%s): a scope needs it (Debian: libsystemd0)",
			dlerror());
#define SD_SYM(f)                                                                                  \
	if (!(sd.f = (__typeof__(&f))dlsym(h, #f))) {                                              \
		dlclose(h);                                                                        \
		return cg_diag_say(d, ENOSYS, where, "", what,                                     \
				   "libsystemd.so.0 has no %s: too old for scopes", #f);           \
	}
	SD_FUNCS(SD_SYM)
	lib = h;
	return 0;
}

static int bad_value(struct cg_diag *d, const char *file, const char *value, const char *want)
{
	return cg_diag_say(d, EINVAL, "", "", "-r", "%s=%s: systemd takes %s", file, value, want);
}

/* io.max: "MAJ:MIN rbps=N wbps=N riops=N wiops=N" (any of them, "max" allowed) */
static int map_io_max(const char *value, struct cg_unit_prop *out, struct cg_diag *d)
{
	static const struct {
		const char *key, *prop;
	} keys[] = { { "rbps", "IOReadBandwidthMax" },
		     { "wbps", "IOWriteBandwidthMax" },
		     { "riops", "IOReadIOPSMax" },
		     { "wiops", "IOWriteIOPSMax" } };
	const char *want = "MAJ:MIN followed by rbps=, wbps=, riops= or wiops= limits";
	const char *p = value;
	uint64_t maj, min;
	char dev[32];
	int n = 0;

	if (cg_parse_u64_prefix(&p, UINT32_MAX, &maj) < 0 || *p++ != ':' ||
	    cg_parse_u64_prefix(&p, UINT32_MAX, &min) < 0 || (*p && *p != ' '))
		return bad_value(d, "io.max", value, want);
	snprintf(dev, sizeof(dev), "/dev/block/%llu:%llu", (unsigned long long)maj,
		 (unsigned long long)min);
	while (*p == ' ') {
		char word[64];
		size_t len, k;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		if (len >= sizeof(word) || n == CG_UNIT_PROPS_MAX)
			return bad_value(d, "io.max", value, want);
		memcpy(word, p, len);
		word[len] = 0;
		p += len;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t kl = strlen(keys[k].key);

			if (!strncmp(word, keys[k].key, kl) && word[kl] == '=')
				break;
		}
		if (k == sizeof(keys) / sizeof(keys[0]) ||
		    cg_parse_size(word + strlen(keys[k].key) + 1, CG_SIZE_MAX, &out[n].value) < 0)
			return bad_value(d, "io.max", value, want);
		out[n].name = keys[k].prop;
		out[n].device = true;
		snprintf(out[n].dev, sizeof(out[n].dev), "%s", dev);
		n++;
	}
	if (!n)
		return bad_value(d, "io.max", value, want);
	return n;
}

int cg_scope_map(const char *file, const char *value, struct cg_unit_prop out[CG_UNIT_PROPS_MAX],
		 struct cg_diag *d)
{
	static const struct {
		const char *file, *prop;
	} limits[] = { { "memory.max", "MemoryMax" },
		       { "memory.high", "MemoryHigh" },
		       { "pids.max", "TasksMax" } };
	uint64_t v, quota, period;
	const char *p;

	memset(out, 0, sizeof(*out) * CG_UNIT_PROPS_MAX);
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		if (strcmp(file, limits[i].file))
			continue;
		if (cg_parse_size(value, CG_SIZE_MAX, &v) < 0)
			return bad_value(d, file, value, "a number (K, M, G, T suffixes) or max");
		out[0].name = limits[i].prop;
		out[0].value = v;
		return 1;
	}
	if (!strcmp(file, "cpu.weight")) {
		if (cg_parse_u64(value, 10000, &v) < 0 || v < 1)
			return bad_value(d, file, value, "a weight from 1 to 10000");
		out[0].name = "CPUWeight";
		out[0].value = v;
		return 1;
	}
	if (!strcmp(file, "cpu.max")) {
		/* "QUOTA [PERIOD]" in microseconds: systemd's quota is per second of wall time */
		p = value;
		period = 100000;
		if (!strncmp(p, "max", 3)) {
			p += 3;
			quota = UINT64_MAX;
		} else if (cg_parse_u64_prefix(&p, UINT64_MAX / 1000000, &quota) < 0 || !quota) {
			return bad_value(d, file, value, "QUOTA [PERIOD] in microseconds, or max");
		}
		if (*p == ' ' && (p++, cg_parse_u64_prefix(&p, 1000000, &period) < 0 || !period))
			return bad_value(d, file, value, "a PERIOD from 1 to 1000000 microseconds");
		if (*p)
			return bad_value(d, file, value, "QUOTA [PERIOD] in microseconds, or max");
		out[0].name = "CPUQuotaPerSecUSec";
		out[0].value = quota == UINT64_MAX ? UINT64_MAX : quota * 1000000 / period;
		return 1;
	}
	if (!strcmp(file, "io.max"))
		return map_io_max(value, out, d);
	return cg_diag_say(
		d, EOPNOTSUPP, "", "", "-r",
		"%s: no systemd unit property stands for it (memory.max, memory.high, cpu.weight, cpu.max, pids.max and io.max do)",
		file);
}

/*
 * cg_scope_map of a -r with a relative value made absolute first (common/relative.c): the
 * bytes and quota cgroupfs would get, not systemd's own reading of "50%" (the memory of the
 * slice's cgroup, where it has a limit).
 */
static int map_setting(const struct cg_assignment *a, struct cg_unit_prop out[CG_UNIT_PROPS_MAX],
		       struct cg_diag *d)
{
	char abs[64];
	int r = cg_relative_resolve(a->file, a->value, abs, sizeof(abs), d);

	if (r < 0)
		return r;
	return cg_scope_map(a->file, r == 0 ? abs : a->value, out, d);
}

int cg_scope_map_check(const struct cg_assignments *set, struct cg_diag *d)
{
	for (size_t k = 0; set && k < set->n; k++) {
		struct cg_unit_prop p[CG_UNIT_PROPS_MAX];
		int r = map_setting(&set->v[k], p, d);

		if (r < 0)
			return r;
	}
	return 0;
}

struct job_wait {
	const char *job; /* the object path of the job we wait for */
	char result[32]; /* "done", "failed", ... once it is removed */
	bool removed;
};

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	struct job_wait *w = userdata;
	const char *path, *unit, *result;
	uint32_t id;

	if (sd.sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0)
		return 0;
	if (w->job && !strcmp(path, w->job)) {
		snprintf(w->result, sizeof(w->result), "%s", result);
		w->removed = true;
	}
	return 0;
}

static int bus_open(bool user, sd_bus **ret)
{
	return user ? sd.sd_bus_open_user(ret) : sd.sd_bus_open_system(ret);
}

static const char *manager_name(bool user)
{
	return user ? "the user's systemd" : "systemd";
}

/* Wait for the job's JobRemoved; its result must be "done". */
static int wait_job(sd_bus *bus, struct job_wait *w, uint64_t deadline, const char *where,
		    const char *unit, bool user, const char *what, struct cg_diag *d)
{
	int r;

	while (!w->removed) {
		uint64_t now = cg_now_ns();

		r = sd.sd_bus_process(bus, NULL);
		if (r < 0)
			return cg_diag_say(d, -r, where, "", what, "waiting for the job: %s",
					   strerror(-r));
		if (r > 0)
			continue;
		if (now >= deadline)
			return cg_diag_say(d, ETIMEDOUT, where, "", what,
					   "the job did not finish in time");
		r = sd.sd_bus_wait(bus, (deadline - now) / 1000);
		if (r < 0)
			return cg_diag_say(d, -r, where, "", what, "waiting for the job: %s",
					   strerror(-r));
	}
	if (strcmp(w->result, "done"))
		return cg_diag_say(d, EIO, where, "", what,
				   "the job ended '%s' (journalctl%s -u %s says why)", w->result,
				   user ? " --user" : "", unit);
	return 0;
}

static int append_props(sd_bus_message *m, const struct cg_scope_opts *o, const char *where,
			struct cg_diag *d)
{
	int r;

	r = sd.sd_bus_message_append(m, "(sv)", "Description", "s",
				     o->description ? o->description : o->unit);
	if (r >= 0)
		r = sd.sd_bus_message_append(m, "(sv)", "Delegate", "b", 1);
	if (r >= 0 && o->slice)
		r = sd.sd_bus_message_append(m, "(sv)", "Slice", "s", o->slice);
	if (r >= 0) {
		r = sd.sd_bus_message_open_container(m, 'r', "sv");
		if (r >= 0)
			r = sd.sd_bus_message_append(m, "s", "PIDs");
		if (r >= 0)
			r = sd.sd_bus_message_open_container(m, 'v', "au");
		if (r >= 0)
			r = sd.sd_bus_message_open_container(m, 'a', "u");
		for (size_t i = 0; r >= 0 && i < o->n_pids; i++)
			r = sd.sd_bus_message_append(m, "u", (uint32_t)o->pids[i]);
		if (r >= 0)
			r = sd.sd_bus_message_close_container(m);
		if (r >= 0)
			r = sd.sd_bus_message_close_container(m);
		if (r >= 0)
			r = sd.sd_bus_message_close_container(m);
	}
	for (size_t k = 0; r >= 0 && o->set && k < o->set->n; k++) {
		struct cg_unit_prop p[CG_UNIT_PROPS_MAX];
		int n = map_setting(&o->set->v[k], p, d);

		if (n < 0)
			return n;
		for (int i = 0; r >= 0 && i < n; i++)
			r = p[i].device ? sd.sd_bus_message_append(m, "(sv)", p[i].name, "a(st)", 1,
								   p[i].dev, p[i].value)
					: sd.sd_bus_message_append(m, "(sv)", p[i].name, "t",
								   p[i].value);
	}
	if (r < 0)
		return cg_diag_say(d, -r, where, "", "StartTransientUnit", "building the call: %s",
				   strerror(-r));
	return 0;
}

/* Call METHOD(args...) that returns a job, and wait for the job. */
static int run_job(bool user, const char *unit, const char *what, uint64_t timeout_ns,
		   const struct cg_scope_opts *o, struct cg_diag *d)
{
	sd_bus *bus = NULL;
	sd_bus_slot *slot = NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	sd_bus_error err = SD_BUS_ERROR_NULL;
	struct job_wait w = { 0 };
	uint64_t deadline = cg_now_ns() + (timeout_ns ? timeout_ns : 60 * NSEC_PER_SEC);
	const char *job;
	char where[300];
	int r;

	snprintf(where, sizeof(where), "unit %s (%s)", unit, manager_name(user));
	r = sd_load(where, what, d);
	if (r < 0)
		return r;
	r = bus_open(user, &bus);
	if (r < 0) {
		r = cg_diag_say(d, -r, where, "", what, "cannot connect to the %s bus: %s",
				user ? "user" : "system", strerror(-r));
		goto out;
	}
	/* before the call: the job may be gone before its reply is read */
	r = sd.sd_bus_match_signal(bus, &slot, MANAGER_DEST, MANAGER_PATH, MANAGER_IFACE,
				   "JobRemoved", on_job_removed, &w);
	if (r >= 0)
		r = sd.sd_bus_message_new_method_call(bus, &m, MANAGER_DEST, MANAGER_PATH,
						      MANAGER_IFACE, what);
	if (r >= 0)
		r = sd.sd_bus_message_append(m, "ss", unit, "fail");
	if (r < 0) {
		r = cg_diag_say(d, -r, where, "", what, "building the call: %s", strerror(-r));
		goto out;
	}
	if (o) {
		r = sd.sd_bus_message_open_container(m, 'a', "(sv)");
		if (r >= 0)
			r = append_props(m, o, where, d);
		else
			r = cg_diag_say(d, -r, where, "", what, "building the call: %s",
					strerror(-r));
		if (r < 0)
			goto out;
		r = sd.sd_bus_message_close_container(m);
		if (r >= 0)
			r = sd.sd_bus_message_append(m, "a(sa(sv))", 0);
		if (r < 0) {
			r = cg_diag_say(d, -r, where, "", what, "building the call: %s",
					strerror(-r));
			goto out;
		}
	}
	r = sd.sd_bus_call(bus, m, (deadline - cg_now_ns()) / 1000, &err, &reply);
	if (r < 0) {
		r = cg_diag_say(d, -r, where, "", what, "%s",
				err.message ? err.message : strerror(-r));
		goto out;
	}
	r = sd.sd_bus_message_read(reply, "o", &job);
	if (r < 0) {
		r = cg_diag_say(d, -r, where, "", what, "reading the reply: %s", strerror(-r));
		goto out;
	}
	w.job = job;
	r = wait_job(bus, &w, deadline, where, unit, user, what, d);
out:
	sd.sd_bus_error_free(&err);
	sd.sd_bus_message_unref(reply);
	sd.sd_bus_message_unref(m);
	sd.sd_bus_slot_unref(slot);
	sd.sd_bus_flush_close_unref(bus);
	return r;
}

void cg_scope_unit_name(char *buf, size_t size, const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	snprintf(buf, size, "%s%s", name, n > k && !strcmp(name + n - k, suffix) ? "" : suffix);
}

int cg_scope_start(const struct cg_scope_opts *o, struct cg_diag *d)
{
	return run_job(o->user, o->unit, "StartTransientUnit", o->timeout_ns, o, d);
}

int cg_scope_stop(const char *unit, bool user, uint64_t timeout_ns, struct cg_diag *d)
{
	return run_job(user, unit, "StopUnit", timeout_ns, NULL, d);
}

int cg_scope_user_unit_delegated(const char *unit, uid_t uid)
{
	sd_bus *bus = NULL;
	sd_bus_message *reply = NULL;
	sd_bus_error err = SD_BUS_ERROR_NULL;
	struct cg_diag d = { 0 };
	const char *iface, *path;
	char addr[80], *copy = NULL;
	size_t n = strlen(unit);
	int yes = 0, r;

	/* a slice holds no processes and delegates nothing */
	if (n > 6 && !strcmp(unit + n - 6, ".scope"))
		iface = "org.freedesktop.systemd1.Scope";
	else if (n > 8 && !strcmp(unit + n - 8, ".service"))
		iface = "org.freedesktop.systemd1.Service";
	else
		return 0;
	r = sd_load("", "", &d);
	if (r < 0)
		return r;
	/*
	 * The manager's own socket, not the session bus: it is there whether or not the caller's
	 * environment names a bus, and root may use it as the user may (logind's fixed path).
	 */
	snprintf(addr, sizeof(addr), "unix:path=/run/user/%u/systemd/private", (unsigned)uid);
	r = sd.sd_bus_new(&bus);
	if (r >= 0)
		r = sd.sd_bus_set_address(bus, addr);
	if (r >= 0)
		r = sd.sd_bus_set_method_call_timeout(bus, 5 * 1000000ULL);
	if (r >= 0)
		r = sd.sd_bus_start(bus);
	if (r >= 0)
		r = sd.sd_bus_call_method(bus, MANAGER_DEST, MANAGER_PATH, MANAGER_IFACE, "GetUnit",
					  &err, &reply, "s", unit);
	if (r >= 0)
		r = sd.sd_bus_message_read(reply, "o", &path);
	if (r >= 0 && !(copy = strdup(path)))
		r = -ENOMEM;
	if (r >= 0)
		r = sd.sd_bus_get_property_trivial(bus, MANAGER_DEST, copy, iface, "Delegate", &err,
						   'b', &yes);
	free(copy);
	sd.sd_bus_error_free(&err);
	sd.sd_bus_message_unref(reply);
	sd.sd_bus_flush_close_unref(bus);
	return r < 0 ? r : yes != 0;
}
