// SPDX-License-Identifier: MIT
/*
 * Pure parsers of process and mount text (declared in kparse.h, beside kparse.c's statistics):
 * membership listings, the mount table's cgroup ancestry, a mountinfo root's levels above the
 * namespace, /proc/PID/cgroup for one hierarchy.
 */
#include "kparse.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "hier.h"
#include "parse.h"

int cg_kparse_members(const char *text, bool lax, pid_t **ret, size_t *ret_n)
{
	_cleanup_free_ pid_t *v = NULL;
	size_t n = 0, cap = 0, u = 0;

	for (const char *p = text; *p;) {
		const char *e = p;
		uint64_t id = 0;
		/* the hot loop of every verification: digits only, bounded as cg_parse_pid */
		int r = cg_parse_u64_prefix(&e, CG_PID_MAX, &id);

		if (r == -ERANGE || (*e && *e != '\n') || (r == 0 && !id)) {
			if (!lax)
				return -EINVAL;
			/* a line that is no id, skipped whole */
			e = strchrnul(p, '\n');
			r = -EINVAL;
		}
		if (r == 0) {
			if (n == cap) {
				pid_t *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(pid_t));

				if (!nv)
					return -ENOMEM;
				v = nv;
			}
			v[n++] = (pid_t)id;
		}
		p = *e ? e + 1 : e;
	}
	/* v1 hands its listings out sorted already; v2 in css_set order */
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] > v[i]) {
			qsort(v, n, sizeof(pid_t), cg_pid_cmp);
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*ret = TAKE_PTR(v);
	*ret_n = u;
	return 0;
}

int cg_kparse_mountinfo_in_cgroup(const char *text, uint64_t mnt_id)
{
	uint64_t cur = mnt_id;
	size_t lines = 1;

	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	/* one step up per round; more rounds than lines is a loop in the table */
	for (size_t round = 0; round <= lines; round++) {
		const char *line = text;
		bool found = false;

		while (*line && !found) {
			const char *end = strchrnul(line, '\n'), *sep, *e = line;
			uint64_t id, parent;

			if (cg_parse_u64_prefix(&e, UINT64_MAX, &id) == 0 && *e == ' ' &&
			    id == cur) {
				e++;
				sep = memmem(line, (size_t)(end - line), " - ", 3);
				if (cg_parse_u64_prefix(&e, UINT64_MAX, &parent) < 0 || *e != ' ' ||
				    !sep)
					return -EINVAL;
				sep += 3;
				if ((end - sep >= 7 && !memcmp(sep, "cgroup ", 7)) ||
				    (end - sep >= 8 && !memcmp(sep, "cgroup2 ", 8)))
					return 1;
				if (parent == cur)
					return 0;
				cur = parent;
				found = true;
			}
			line = *end ? end + 1 : end;
		}
		/* the root mount's parent is outside this namespace's table */
		if (!found)
			return 0;
	}
	return -ELOOP;
}

int cg_kparse_root_levels_up(const char *root)
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
int cg_kparse_proc_cgroup(const char *text, const struct cg_hier *h, char **ret)
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
		up = cg_kparse_root_levels_up(h->root);
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
