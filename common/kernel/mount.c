// SPDX-License-Identifier: MIT
/* Where the cgroup hierarchies are (unified, legacy, hybrid, named) and their roots' fds. */
#include "mount.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "file.h"
#include "base/kparse.h"
#include "base/parse.h"
#include "proc.h"
#include "base/strv.h"

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
	/* the first byte first: most options are controllers, compared with every entry */
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (o[0] == opts[i][0] && !strcmp(o, opts[i]))
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

/* "cpu,cpuacct", "name=systemd", "cpu,name=x", "unified": one allocation, no join */
static int make_label(struct cg_hier *h)
{
	size_t n = 0, k = 0;
	char *s;

	if (h->version == 2) {
		h->label = strdup("unified");
		return h->label ? 0 : -ENOMEM;
	}
	for (char **c = h->controllers; *c; c++)
		n += strlen(*c) + 1;
	if (h->name)
		n += strlen("name=") + strlen(h->name) + 1;
	s = malloc(n + 1);
	if (!s)
		return -ENOMEM;
	for (char **c = h->controllers; *c; c++) {
		size_t m = strlen(*c);

		if (k)
			s[k++] = ',';
		memcpy(s + k, *c, m);
		k += m;
	}
	if (h->name) {
		size_t m = strlen(h->name);

		if (k)
			s[k++] = ',';
		memcpy(s + k, "name=", 5);
		memcpy(s + k + 5, h->name, m);
		k += 5 + m;
	}
	s[k] = '\0';
	h->label = s;
	return 0;
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

/*
 * strtok_r's rule with one delimiter, by hand: every run of delim skipped, NULL at the end. The
 * parse runs at every start of every tool (bench/RESULTS-floors.md: strtok_r was a quarter of
 * it).
 */
static char *next_token(char **p, char delim)
{
	char *t = *p, *e;

	while (*t == delim)
		t++;
	if (!*t) {
		*p = t;
		return NULL;
	}
	e = strchrnul(t, delim);
	*p = *e ? e + 1 : e;
	*e = '\0';
	return t;
}

/*
 * Where " - " (the end of the optional fields) is in the line [s, e), or NULL. The first one:
 * a mount point or root holds no blank (mountinfo escapes it).
 */
static const char *find_dash(const char *s, const char *e)
{
	for (const char *d = s; e - d >= 3 && (d = memchr(d, '-', (size_t)(e - d - 1))); d++)
		if (d > s && d[-1] == ' ' && d[1] == ' ')
			return d - 1;
	return NULL;
}

/*
 * One cgroup mountinfo line (a copy: it is cut up) -> hierarchy; 0 with h->version == 0 when
 * it is not a cgroup mount after all.
 */
static int parse_line(char *line, char *dash, struct cg_hier *h)
{
	char *f[6], *rest = line, *fstype, *super;
	unsigned maj, min;
	size_t nopt = 1;

	*dash = '\0';
	for (int i = 0; i < 6; i++)
		if (!(f[i] = next_token(&rest, ' ')))
			return -EINVAL;
	rest = dash + 3;
	fstype = next_token(&rest, ' ');
	(void)next_token(&rest, ' '); /* source */
	super = next_token(&rest, ' ');
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
	h->version = strcmp(fstype, "cgroup2") ? 1 : 2;
	if (h->version == 1)
		for (const char *c = super; *c; c++)
			nopt += *c == ',';
	/* v2: cgroup.controllers is read when asked (cg_hier_controllers) */
	h->controllers = calloc(h->version == 1 ? nopt + 1 : 1, sizeof(char *));
	if (!h->controllers)
		return -ENOMEM;
	if (h->version == 1) {
		size_t n = 0;

		rest = super;
		for (char *o; (o = next_token(&rest, ','));) {
			if (!strncmp(o, "name=", 5)) {
				free(h->name);
				h->name = strdup(o + 5);
				if (!h->name)
					return -ENOMEM;
			} else if (!is_v1_option(o) && !(h->controllers[n++] = strdup(o))) {
				return -ENOMEM;
			}
		}
	}
	return make_label(h);
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
	int up = cg_kparse_root_levels_up(root);

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
	struct cg_layout *l = calloc(1, sizeof(*l));
	const char *text = mountinfo ? mountinfo : "", *end = text + strlen(text), *next;
	int r;

	if (!l)
		return -ENOMEM;
	/*
	 * Line by line in place: most mounts are not cgroups and are skipped before anything is
	 * copied (the cost of every run of every tool); a cgroup line is copied to be cut up.
	 */
	for (const char *s = text; s < end; s = next) {
		const char *e = memchr(s, '\n', (size_t)(end - s)), *dash;
		_cleanup_free_ char *heap = NULL;
		/* a host's cgroup line is under 200 bytes: cut up on the stack, not copied to the heap */
		char buf[512], *line = buf;
		struct cg_hier h = { .fd = -1 };
		bool replaced = false;

		if (!e)
			e = end;
		next = e + 1;
		dash = find_dash(s, e);
		/* no " - ": not a mount line (as a cgroup line without one, skipped) */
		if (!dash || e - dash < 9 || memcmp(dash + 3, "cgroup", 6) ||
		    (!(e - dash > 9 && dash[9] == ' ') &&
		     !(e - dash > 10 && dash[9] == '2' && dash[10] == ' ')))
			continue;
		if ((size_t)(e - s) < sizeof(buf)) {
			memcpy(buf, s, (size_t)(e - s));
			buf[e - s] = '\0';
		} else if (!(line = heap = strndup(s, (size_t)(e - s)))) {
			r = -ENOMEM;
			goto fail;
		}
		r = parse_line(line, line + (dash - s), &h);
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
				if (dh < dor ||
				    (dh == dor && cg_kparse_root_levels_up(o->root) > 0 &&
				     cg_kparse_root_levels_up(h.root) == 0)) {
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
		/* grown to powers of two: a host has ten or so */
		if (!(l->n & (l->n - 1))) {
			struct cg_hier *nh = realloc(l->hier, (l->n ? 2 * l->n : 1) * sizeof(*nh));

			if (!nh) {
				hier_clear(&h);
				r = -ENOMEM;
				goto fail;
			}
			l->hier = nh;
		}
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

const char *cg_layout_source(void)
{
	const char *src = getenv("CGKIT_MOUNTINFO");

	return src && *src ? src : "/proc/self/mountinfo";
}

int cg_layout_load(struct cg_layout **ret)
{
	_cleanup_free_ char *text = NULL;
	struct cg_layout *l;
	int r;

	r = cg_proc_read_all(cg_layout_source(), &text);
	if (r < 0)
		return r;
	r = cg_layout_parse(text, &l);
	if (r < 0)
		return r;
	for (size_t i = 0; i < l->n; i++)
		if (cg_kparse_root_levels_up(l->hier[i].root) != 0)
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
	const char *dir;

	if (fd >= 0)
		return fd;
	/* first: it finds the namespace's root, or why there is none */
	dir = cg_hier_dir(h);
	if (h->ns_error)
		return h->ns_error;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
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
