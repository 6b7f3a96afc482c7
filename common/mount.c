// SPDX-License-Identifier: MIT
/* Where the cgroup hierarchies are: unified, legacy, hybrid, named, namespaced. */
#include "mount.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cleanup.h"
#include "file.h"
#include "kparse.h"
#include "parse.h"
#include "proc.h"
#include "strv.h"

#define CG_MOUNT_BASE "/sys/fs/cgroup"

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r;) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* Mount options of a v1 cgroup superblock that are not controllers. */
static bool is_v1_option(const char *o)
{
	static const char *const opts[] = {
		"rw",
		"ro",
		"none",
		"noprefix",
		"clone_children",
		"xattr",
		"cpuset_v2_mode",
		"favordynmods",
		"nsdelegate",
		"memory_localevents",
		"memory_recursiveprot",
		"memory_hugetlb_accounting",
		"pids_localevents",
	};

	if (!strncmp(o, "release_agent=", 14) || !strncmp(o, "name=", 5))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (!strcmp(o, opts[i]))
			return true;
	return false;
}

static void hier_clear(struct cg_hier *h)
{
	free(h->mountpoint);
	free(h->root);
	free(h->dir);
	free(h->nsbase);
	free(h->name);
	free(h->label);
	cg_strv_free(h->controllers);
	if (h->fd >= 0)
		close(h->fd);
	memset(h, 0, sizeof(*h));
	h->fd = -1;
}

void cg_layout_free(struct cg_layout *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		hier_clear(&l->hier[i]);
	free(l->hier);
	free(l);
}

static int make_label(struct cg_hier *h)
{
	char *s;

	if (h->version == 2) {
		h->label = strdup("unified");
		return h->label ? 0 : -ENOMEM;
	}
	s = cg_strv_join(h->controllers, ",");
	if (s && h->name) {
		char *t;

		if (asprintf(&t, "%s%sname=%s", s, *s ? "," : "", h->name) < 0)
			t = NULL;
		free(s);
		s = t;
	}
	h->label = s;
	return s ? 0 : -ENOMEM;
}

/* "MAJOR:MINOR" */
static int parse_devno(const char *s, unsigned *maj, unsigned *min)
{
	uint64_t a, b;

	if (cg_parse_u64_prefix(&s, UINT_MAX, &a) < 0 || *s++ != ':' ||
	    cg_parse_u64_prefix(&s, UINT_MAX, &b) < 0 || *s)
		return -EINVAL;
	*maj = (unsigned)a;
	*min = (unsigned)b;
	return 0;
}

/* One mountinfo line -> hierarchy; 0 with h->version == 0 when it is not a cgroup mount. */
static int parse_line(char *line, struct cg_hier *h)
{
	char *f[7] = { 0 }, *save = NULL, *t, *fstype, *super, *dash;
	unsigned maj, min;
	int i = 0;

	/* optional fields vary in number; " - " ends them */
	dash = strstr(line, " - ");
	if (!dash)
		return -EINVAL;
	/* most mounts are not cgroups: skip them before the tokenizing, the cost of every run */
	if (strncmp(dash + 3, "cgroup", 6) || (dash[9] != ' ' && strncmp(dash + 9, "2 ", 2)))
		return 0;
	*dash = '\0';
	for (t = strtok_r(line, " ", &save); t && i < 6; t = strtok_r(NULL, " ", &save))
		f[i++] = t;
	if (i < 6)
		return -EINVAL;
	save = NULL;
	fstype = strtok_r(dash + 3, " ", &save);
	(void)strtok_r(NULL, " ", &save); /* source */
	super = strtok_r(NULL, " \n", &save);
	if (!fstype || !super)
		return -EINVAL;
	if (strcmp(fstype, "cgroup") && strcmp(fstype, "cgroup2"))
		return 0;
	if (parse_devno(f[2], &maj, &min) < 0)
		return -EINVAL;
	unescape(f[3]);
	unescape(f[4]);
	h->dev = makedev(maj, min);
	h->root = strdup(f[3]);
	h->mountpoint = strdup(f[4]);
	if (!h->root || !h->mountpoint)
		return -ENOMEM;
	if (!strcmp(fstype, "cgroup2")) {
		h->version = 2;
		h->controllers = calloc(1, sizeof(char *));
		if (!h->controllers)
			return -ENOMEM;
	} else {
		char *osave = NULL;

		h->version = 1;
		h->controllers = calloc(1, sizeof(char *));
		if (!h->controllers)
			return -ENOMEM;
		for (char *o = strtok_r(super, ",", &osave); o; o = strtok_r(NULL, ",", &osave)) {
			if (!strncmp(o, "name=", 5)) {
				free(h->name);
				h->name = strdup(o + 5);
				if (!h->name)
					return -ENOMEM;
			} else if (!is_v1_option(o) && cg_strv_push(&h->controllers, o) < 0) {
				return -ENOMEM;
			}
		}
	}
	return make_label(h);
}

int cg_root_levels_up(const char *root)
{
	const char *p = root;
	int up = 0;

	/* PATH_MAX bounds what the kernel prints; the cap keeps a forged table from overflowing */
	while (!strncmp(p, "/..", 3) && (p[3] == '/' || !p[3]) && up < PATH_MAX) {
		up++;
		p += 3;
	}
	/* "/../x": the mount's root is in a branch beside the namespace's, not above it */
	if (up && *p && strcmp(p, "/"))
		return -EREMOTE;
	return up;
}

/*
 * How much of the hierarchy below the namespace's root a mount shows, as the depth of the
 * cgroup its tools' "/" is: 0 for its root or the namespace's (a mount reaching above it is
 * used from there), more for a bind of a subtree; a branch beside the namespace's root shows
 * none of it.
 */
static size_t root_depth(const char *root)
{
	size_t d = 0;
	int up = cg_root_levels_up(root);

	if (up < 0)
		return SIZE_MAX;
	if (up > 0)
		return 0;
	for (const char *p = root; *p; p++)
		d += *p == '/';
	return strcmp(root, "/") ? d : 0;
}

int cg_layout_parse(const char *mountinfo, struct cg_layout **ret)
{
	_cleanup_free_ char *copy = strdup(mountinfo ? mountinfo : "");
	struct cg_layout *l = calloc(1, sizeof(*l));
	char *save = NULL;
	int r;

	if (!copy || !l) {
		free(l);
		return -ENOMEM;
	}
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct cg_hier h = { .fd = -1 };
		bool replaced = false;

		r = parse_line(line, &h);
		if (r < 0 || h.version == 0) {
			hier_clear(&h);
			if (r < 0 && r != -EINVAL)
				goto fail;
			continue;
		}
		for (size_t i = 0; i < l->n; i++) {
			struct cg_hier *o = &l->hier[i];

			/* a later mount on the same mountpoint hides the earlier one */
			if (!strcmp(o->mountpoint, h.mountpoint)) {
				hier_clear(o);
				*o = h;
				replaced = true;
				break;
			}
			/* the same hierarchy mounted twice: keep the mount that sees the most */
			if (o->dev == h.dev) {
				size_t dh = root_depth(h.root), dor = root_depth(o->root);

				/* on a tie the mount from inside the namespace: nothing to search */
				if (dh < dor || (dh == dor && cg_root_levels_up(o->root) > 0 &&
						 cg_root_levels_up(h.root) == 0)) {
					hier_clear(o);
					*o = h;
				} else {
					hier_clear(&h);
				}
				replaced = true;
				break;
			}
		}
		if (replaced)
			continue;
		struct cg_hier *nh = realloc(l->hier, (l->n + 1) * sizeof(*nh));
		if (!nh) {
			hier_clear(&h);
			r = -ENOMEM;
			goto fail;
		}
		l->hier = nh;
		l->hier[l->n++] = h;
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->hier[i].version == 2 && !l->unified)
			l->unified = &l->hier[i];
	*ret = l;
	return 0;
fail:
	cg_layout_free(l);
	return r;
}

/* Searching a machine's whole tree for the namespace's root is a bug: stop well before. */
#define NS_SEARCH_MAX 100000

/* Is pid listed in dfd/path/cgroup.procs? */
static bool lists_pid(int dfd, const char *path, pid_t pid)
{
	_cleanup_free_ char *file = NULL, *text = NULL;

	if (asprintf(&file, "%s%scgroup.procs", path, *path ? "/" : "") < 0)
		return false;
	if (cg_read_at(dfd, file, &text) < 0)
		return false;
	for (const char *p = text; *p;) {
		uint64_t v;

		if (cg_parse_u64_prefix(&p, INT_MAX, &v) == 0 && v == (uint64_t)pid)
			return true;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return false;
}

/* cgroup2 prunes by populated: every ancestor of this process's cgroup has "populated 1" */
static bool unpopulated(int dfd)
{
	_cleanup_free_ char *text = NULL;

	return cg_read_at(dfd, "cgroup.events", &text) == 0 && cg_stats_parse_populated(text) == 0;
}

/*
 * Below dfd, up levels down, the directory whose self/cgroup.procs lists pid: the namespace's
 * root, as its path (rel, of size PATH_MAX, filled from len on). 1 when found, 0 when not,
 * -E2BIG when the budget of directories ran out.
 */
static int ns_search(int dfd, int up, const char *self, pid_t pid, int version, char *rel,
		     size_t len, size_t *budget)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *e;
	int fd;

	if (up == 0)
		return lists_pid(dfd, self, pid);
	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while ((e = readdir(dir))) {
		_cleanup_close_ int cfd = -1;
		size_t n = strlen(e->d_name);
		int r;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!(*budget)--)
			return -E2BIG;
		if (len + 1 + n >= PATH_MAX)
			continue;
		cfd = openat(dirfd(dir), e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0 || (version == 2 && unpopulated(cfd)))
			continue;
		rel[len] = len ? '/' : '\0';
		memcpy(rel + len + !!len, e->d_name, n + 1);
		r = ns_search(cfd, up - 1, self, pid, version, rel, len + !!len + n, budget);
		if (r != 0)
			return r;
		rel[len] = '\0';
	}
	return 0;
}

/*
 * A mount from before this process's cgroup namespace (mountinfo root "/..", once a level
 * above the namespace's root): /proc/PID/cgroup names cgroups from the namespace's root, and
 * so do the tools, so h->dir becomes that root below the mount. Neither table names the
 * levels in between; the root is the cgroup, that many levels down, below which this process
 * is where its own /proc/self/cgroup says. The search reads one cgroup.procs per candidate and
 * on cgroup2 skips unpopulated subtrees. Not found: h->ns_error, reported at use.
 */
static int ns_locate(struct cg_hier *h)
{
	_cleanup_free_ char *self_cgroups = NULL, *self = NULL, *rel = NULL;
	_cleanup_close_ int mfd = -1;
	size_t budget = NS_SEARCH_MAX;
	int up = cg_root_levels_up(h->root), r;

	h->ns_error = -EREMOTE;
	if (up <= 0)
		return 0;
	r = cg_task_cgroups(getpid(), 0, &self_cgroups);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	r = cg_proc_cgroup_parse(self_cgroups, h, &self);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	rel = calloc(1, PATH_MAX);
	if (!rel)
		return -ENOMEM;
	mfd = open(h->mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return 0;
	r = ns_search(mfd, up, self, getpid(), h->version, rel, 0, &budget);
	if (r <= 0)
		return 0;
	h->nsbase = strdup(rel);
	if (!h->nsbase || asprintf(&h->dir, "%s/%s", h->mountpoint, rel) < 0) {
		h->dir = NULL;
		return -ENOMEM;
	}
	h->ns_error = 0;
	return 0;
}

/*
 * The search of ns_locate on a hierarchy's first use. Like cg_hier_fd's cache, a write through
 * a const hierarchy (every cg_hier is a modifiable object); the mutex lets one thread search
 * while the others wait, and the flag's release orders the fields before it for them.
 */
static void ns_resolve(const struct cg_hier *ch)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct cg_hier *h = (struct cg_hier *)ch;

	if (!atomic_load(&h->ns_pending))
		return;
	pthread_mutex_lock(&lock);
	if (atomic_load(&h->ns_pending)) {
		int r = ns_locate(h);

		if (r < 0)
			h->ns_error = r;
		atomic_store(&h->ns_pending, false);
	}
	pthread_mutex_unlock(&lock);
}

const char *cg_hier_dir(const struct cg_hier *h)
{
	ns_resolve(h);
	return h->dir ? h->dir : h->mountpoint;
}

const char *cg_hier_nsbase(const struct cg_hier *h)
{
	ns_resolve(h);
	return h->nsbase;
}

int cg_layout_load(struct cg_layout **ret)
{
	const char *src = getenv("CGKIT_MOUNTINFO");
	_cleanup_free_ char *text = NULL;
	struct cg_layout *l;
	int r;

	r = cg_proc_read_all(src && *src ? src : "/proc/self/mountinfo", &text);
	if (r < 0)
		return r;
	r = cg_layout_parse(text, &l);
	if (r < 0)
		return r;
	for (size_t i = 0; i < l->n; i++)
		if (cg_root_levels_up(l->hier[i].root) != 0)
			atomic_store(&l->hier[i].ns_pending, true);
	/*
	 * Read when asked: a v1 spec (cgexec2 -g cpu:X) never needs them, and the read cost
	 * every run an open of the mount and of the file (~15 us).
	 */
	if (l->unified)
		l->unified->controllers_pending = true;
	*ret = l;
	return 0;
}

char *const *cg_hier_controllers(const struct cg_hier *h)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	/* the write through a const hierarchy that cg_hier_fd explains */
	struct cg_hier *w = (struct cg_hier *)h;

	if (!atomic_load_explicit(&h->controllers_pending, memory_order_acquire))
		return h->controllers;
	pthread_mutex_lock(&lock);
	if (atomic_load_explicit(&h->controllers_pending, memory_order_relaxed)) {
		_cleanup_free_ char *ctrls = NULL;
		int fd = cg_hier_fd(h);
		char **v;

		/* a missing file (fixture tree without it) just means no controllers */
		if (fd >= 0 && cg_read_at(fd, "cgroup.controllers", &ctrls) == 0 &&
		    (v = cg_strv_split(ctrls, " \n"))) {
			cg_strv_free(w->controllers);
			w->controllers = v;
		}
		atomic_store_explicit(&w->controllers_pending, false, memory_order_release);
	}
	pthread_mutex_unlock(&lock);
	return h->controllers;
}

int cg_hier_fd(const struct cg_hier *h)
{
	/*
	 * The one write through a const hierarchy, and a defined one: every cg_hier is a
	 * modifiable object (cg_layout_parse's heap, or a caller's own variable), and C forbids
	 * writes only to objects defined const. The alternative, the cache behind a pointer,
	 * would make every hierarchy a caller builds (.fd = -1, in the sampler and in tests)
	 * allocate one.
	 */
	_Atomic int *cache = &((struct cg_hier *)h)->fd;
	int fd = atomic_load(cache), expected = -1;

	if (fd >= 0)
		return fd;
	ns_resolve(h);
	if (h->ns_error)
		return h->ns_error;
	fd = open(cg_hier_dir(h), O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* not the cgroup's ENOENT: the mount the table named has gone since it was read */
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? -ESTALE : -errno;
	/* two threads may both open it: one fd is kept, the other closed */
	if (!atomic_compare_exchange_strong(cache, &expected, fd)) {
		close(fd);
		fd = expected;
	}
	return fd;
}

int cg_hier_open(const struct cg_hier *h, const char *path, int flags)
{
	int fd = cg_hier_fd(h);

	return fd < 0 ? fd : cg_open_beneath(fd, path, flags, 0);
}

enum cg_layout_kind cg_layout_kind(const struct cg_layout *l)
{
	bool v1 = false;

	for (size_t i = 0; i < l->n; i++)
		v1 |= l->hier[i].version == 1;
	if (l->unified)
		return v1 ? CG_LAYOUT_HYBRID : CG_LAYOUT_UNIFIED;
	return v1 ? CG_LAYOUT_LEGACY : CG_LAYOUT_NONE;
}

const char *cg_layout_kind_name(enum cg_layout_kind k)
{
	switch (k) {
	case CG_LAYOUT_UNIFIED:
		return "unified";
	case CG_LAYOUT_LEGACY:
		return "legacy";
	case CG_LAYOUT_HYBRID:
		return "hybrid";
	default:
		return "none";
	}
}

bool cg_hier_has(const struct cg_hier *h, const char *controller)
{
	if (!strncmp(controller, "name=", 5))
		return h->version == 1 && h->name && !strcmp(h->name, controller + 5);
	return cg_strv_contains(cg_hier_controllers(h), controller);
}

struct cg_hier *cg_layout_find(const struct cg_layout *l, const char *controller)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->hier[i].version == 1 && cg_hier_has(&l->hier[i], controller))
			return &l->hier[i];
	if (l->unified && cg_hier_has(l->unified, controller))
		return l->unified;
	return NULL;
}

/* Whether the comma-separated list [s, e) holds the word w, optionally after a prefix. */
static bool list_has(const char *s, const char *e, const char *prefix, const char *w)
{
	size_t pl = strlen(prefix), wl = strlen(w);

	while (s < e) {
		const char *c = memchr(s, ',', (size_t)(e - s));
		size_t n = (size_t)((c ? c : e) - s);

		if (n == pl + wl && !memcmp(s, prefix, pl) && !memcmp(s + pl, w, wl))
			return true;
		s += n + 1;
	}
	return false;
}

/*
 * Runs twice in every cgexec2 (before its move and to verify it): the text is walked in place,
 * with no copy and no allocation but the path returned.
 */
int cg_proc_cgroup_parse(const char *text, const struct cg_hier *h, char **ret)
{
	for (const char *line = text ? text : ""; *line;) {
		const char *eol = strchrnul(line, '\n'), *next = *eol ? eol + 1 : eol;
		const char *c1 = memchr(line, ':', (size_t)(eol - line)), *c2, *path;
		_cleanup_free_ char *own = NULL;
		size_t rl, pl;
		bool match = false;
		int r, up;

		c2 = c1 ? memchr(c1 + 1, ':', (size_t)(eol - c1 - 1)) : NULL;
		if (!c2) {
			line = next;
			continue;
		}
		if (h->version == 2)
			match = c1 - line == 1 && line[0] == '0' && c2 == c1 + 1;
		else if (c2 > c1 + 1 && h->controllers && h->controllers[0])
			match = list_has(c1 + 1, c2, "", h->controllers[0]);
		else if (c2 > c1 + 1 && h->name)
			match = list_has(c1 + 1, c2, "name=", h->name);
		if (!match) {
			line = next;
			continue;
		}
		path = c2 + 1;
		pl = (size_t)(eol - path);
		/* beyond our cgroup namespace's root: /proc shows it relative to that root */
		if (pl >= 3 && !strncmp(path, "/..", 3) && (pl == 3 || path[3] == '/'))
			return -EREMOTE;
		/*
		 * The root of a mount from before the namespace is printed relative to the same root
		 * ("/.."): such a mount is used from the namespace's root (h->dir), where the path
		 * already starts; one in a branch beside it shows nothing inside the namespace.
		 */
		up = cg_root_levels_up(h->root);
		if (up < 0)
			return -ENOENT;
		rl = up == 0 && strcmp(h->root, "/") ? strlen(h->root) : 0;
		if (pl < rl || strncmp(path, h->root, rl) || (pl > rl && path[rl] != '/'))
			return -ENOENT;
		own = strndup(path + rl, pl - rl);
		if (!own)
			return -ENOMEM;
		/* the kernel never prints ".." inside a path, but this text decides what we open */
		r = cg_path_normalize(own, ret);
		return r == -ENOMEM ? r : r < 0 ? -ENOENT : 0;
	}
	return -ENOENT;
}

static int do_mount(const char *fstype, const char *dir, const char *opts,
		    void (*cb)(const char *what))
{
	char what[512];

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mount(fstype, dir, fstype, MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		return -errno;
	if (cb) {
		snprintf(what, sizeof(what), "mounted %s%s%s at %s", fstype, opts ? " -o " : "",
			 opts ? opts : "", dir);
		cb(what);
	}
	return 0;
}

/* Distributions co-mount these pairs and keep each name as a symlink. */
static const char *const comounts[][2] = { { "cpu", "cpuacct" }, { "net_cls", "net_prio" } };

static int mount_legacy(void (*cb)(const char *what))
{
	_cleanup_free_ char *text = NULL;
	char **avail = calloc(1, sizeof(char *));
	char *save = NULL;
	int r;

	if (!avail)
		return -ENOMEM;
	r = cg_proc_read_all("/proc/cgroups", &text);
	if (r < 0)
		goto out;
	/* "#subsys_name hierarchy num_cgroups enabled" */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *fsave = NULL;
		uint64_t hier, num, enabled;
		int n = 0;

		if (line[0] == '#')
			continue;
		for (char *t = strtok_r(line, " \t", &fsave); t && n < 4;
		     t = strtok_r(NULL, " \t", &fsave))
			f[n++] = t;
		if (n < 4 || strlen(f[0]) > 63 || cg_parse_u64(f[1], UINT_MAX, &hier) < 0 ||
		    cg_parse_u64(f[2], UINT_MAX, &num) < 0 ||
		    cg_parse_u64(f[3], UINT_MAX, &enabled) < 0)
			continue;
		if (enabled && hier == 0 && (r = cg_strv_push(&avail, f[0])) < 0)
			goto out;
	}
	if ((r = do_mount("tmpfs", CG_MOUNT_BASE, "mode=755", cb)) < 0)
		goto out;
	for (char **c = avail; *c; c++) {
		const char *pair = NULL;
		char dir[256];

		for (size_t i = 0; i < ARRAY_SIZE(comounts); i++) {
			if (!strcmp(*c, comounts[i][1]) && cg_strv_contains(avail, comounts[i][0]))
				goto next; /* mounted with its partner */
			if (!strcmp(*c, comounts[i][0]) && cg_strv_contains(avail, comounts[i][1]))
				pair = comounts[i][1];
		}
		if (pair) {
			char opts[160], link[256];

			snprintf(opts, sizeof(opts), "%s,%s", *c, pair);
			snprintf(dir, sizeof(dir), CG_MOUNT_BASE "/%s", opts);
			if ((r = do_mount("cgroup", dir, opts, cb)) < 0)
				goto out;
			snprintf(link, sizeof(link), CG_MOUNT_BASE "/%s", *c);
			if (symlink(opts, link) < 0 && errno != EEXIST)
				goto fail_errno;
			snprintf(link, sizeof(link), CG_MOUNT_BASE "/%s", pair);
			if (symlink(opts, link) < 0 && errno != EEXIST)
				goto fail_errno;
		} else {
			snprintf(dir, sizeof(dir), CG_MOUNT_BASE "/%s", *c);
			if ((r = do_mount("cgroup", dir, *c, cb)) < 0)
				goto out;
		}
	next:;
	}
	goto out;
fail_errno:
	r = -errno;
out:
	cg_strv_free(avail);
	return r;
}

int cg_mount_setup(enum cg_mount_mode mode, void (*cb)(const char *what))
{
	struct cg_layout *l;
	struct stat st;
	int r;

	r = cg_layout_load(&l);
	if (r < 0)
		return r;
	r = l->n ? -EEXIST : 0;
	cg_layout_free(l);
	if (r < 0)
		return r;
	/* without sysfs there is no /sys/fs/cgroup to mount on; say so instead of creating it */
	if (stat(CG_MOUNT_BASE, &st) < 0)
		return -errno;
	if (mode == CG_MOUNT_UNIFIED)
		return do_mount("cgroup2", CG_MOUNT_BASE, NULL, cb);
	r = mount_legacy(cb);
	if (r < 0 || mode == CG_MOUNT_LEGACY)
		return r;
	return do_mount("cgroup2", CG_MOUNT_BASE "/unified", NULL, cb);
}

int cg_pid_cgroup(const struct cg_hier *h, pid_t pid, pid_t tid, char **ret)
{
	_cleanup_free_ char *text = NULL;
	int r = cg_task_cgroups(pid, tid, &text);

	return r < 0 ? r : cg_proc_cgroup_parse(text, h, ret);
}
