// SPDX-License-Identifier: MIT
/* cgtop2's settings file: a tiny KEY=VALUE parser, its writer, and the file read and replaced. */
#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/parse.h"

/* the table's columns 1.. by the names the file uses, then the history */
static const char *const column_names[] = { "tasks",   "cpu",	     "memory", "in",	 "out",
					    "psi-cpu", "psi-memory", "psi-io", "history" };
#define N_COLUMNS (ARRAY_SIZE(column_names))

static unsigned column_bit(size_t i)
{
	return i + 1 == N_COLUMNS ? SETTINGS_HIST : 1u << (i + 1);
}

static int bad(char *why, size_t size, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(char *why, size_t size, size_t line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(why, size, "line %zu: ", line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < size)
		vsnprintf(why + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* columns=: the names shown, each once; hidden is every other column */
static int columns(const char *v, unsigned *ret)
{
	unsigned shown = 0;

	while (*v) {
		const char *end = strchr(v, ',');
		size_t len = end ? (size_t)(end - v) : strlen(v), i;

		for (i = 0; i < N_COLUMNS; i++)
			if (strlen(column_names[i]) == len && !strncmp(v, column_names[i], len))
				break;
		if (i == N_COLUMNS || (shown & column_bit(i)))
			return -EINVAL;
		shown |= column_bit(i);
		v += len + (end != NULL);
		if (end && !*v)
			return -EINVAL;
	}
	*ret = 0;
	for (size_t i = 0; i < N_COLUMNS; i++)
		if (!(shown & column_bit(i)))
			*ret |= column_bit(i);
	return 0;
}

/* stats=: names of letters, digits, '_' and '.', comma-separated, at most SETTINGS_EXTRA */
static int stats(const char *v, struct settings *s)
{
	s->n_stats = 0;
	while (*v) {
		size_t len = strcspn(v, ",");

		if (!len || len >= SETTINGS_NAME || s->n_stats == SETTINGS_EXTRA ||
		    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_.") < len)
			return -EINVAL;
		memcpy(s->stats[s->n_stats], v, len);
		s->stats[s->n_stats++][len] = '\0';
		v += len + (v[len] == ',');
		if (v[-1] == ',' && !*v)
			return -EINVAL;
	}
	s->have |= SET_STATS;
	return 0;
}

/* One KEY=VALUE line into s: 0, 1 for a key it does not know, -EINVAL. */
static int assign(const char *key, const char *v, struct settings *s)
{
	if (!strcmp(key, "order")) {
		for (int i = 0; i <= ORDER_PRESSURE; i++)
			if (!strcmp(v, order_names[i])) {
				s->order = (enum order)i;
				s->have |= SET_ORDER;
				return 0;
			}
		return -EINVAL;
	}
	if (!strcmp(key, "columns")) {
		if (columns(v, &s->hidden) < 0)
			return -EINVAL;
		s->have |= SET_COLUMNS;
		return 0;
	}
	if (!strcmp(key, "view")) {
		if (strcmp(v, "tree") && strcmp(v, "list"))
			return -EINVAL;
		s->tree = !strcmp(v, "tree");
		s->have |= SET_VIEW;
		return 0;
	}
	if (!strcmp(key, "delay")) {
		if (cg_parse_seconds(v, &s->delay_ns) < 0)
			return -EINVAL;
		s->have |= SET_DELAY;
		return 0;
	}
	if (!strcmp(key, "stats"))
		return stats(v, s);
	return 1;
}

static const char *const hints[] = {
	"order takes path, tasks, cpu, memory, io or pressure",
	"columns takes a comma-separated list of tasks, cpu, memory, in, out, psi-cpu, psi-memory, psi-io, history",
	"view takes tree or list",
	"delay takes seconds or a time with us, ms, s or min, as -d",
	"stats takes at most 4 keys of cgtop2 --fields=help, comma-separated",
};

int settings_parse(const char *text, size_t len, struct settings *ret, char *why, size_t size)
{
	static const char *const keys[] = { "order", "columns", "view", "delay", "stats" };
	struct settings s = { .order = ORDER_CPU };
	size_t line = 0;

	if (len > SETTINGS_MAX)
		return bad(why, size, 0, "longer than %d bytes", SETTINGS_MAX);
	for (size_t i = 0, l = 1; i < len; l += text[i++] == '\n')
		if (!text[i])
			return bad(why, size, l, "a NUL byte");
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len, k;
		char buf[SETTINGS_MAX + 1], *eq;

		line++;
		memcpy(buf, text, n);
		buf[n] = '\0';
		text += n + (nl != NULL);
		len -= n + (nl != NULL);
		if (!n || buf[0] == '#')
			continue;
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
				return bad(why, size, line, "a control character");
		eq = strchr(buf, '=');
		if (!eq || eq == buf)
			return bad(why, size, line, "not KEY=VALUE");
		*eq = '\0';
		switch (assign(buf, eq + 1, &s)) {
		case 0:
		case 1:
			break;
		default:
			for (k = 0; k < ARRAY_SIZE(keys) && strcmp(keys[k], buf); k++)
				;
			return bad(why, size, line, "%s", hints[k]);
		}
	}
	*ret = s;
	return 0;
}

int settings_format(const struct settings *s, char *buf, size_t size)
{
	char cols[256] = "", delay[64], st[SETTINGS_EXTRA * SETTINGS_NAME + 8] = "";
	int n;

	for (size_t i = 0; i < s->n_stats && i < SETTINGS_EXTRA; i++)
		snprintf(st + strlen(st), sizeof(st) - strlen(st), "%s%s", i ? "," : "",
			 s->stats[i]);

	for (size_t i = 0; i < N_COLUMNS; i++)
		if (!(s->hidden & column_bit(i)))
			snprintf(cols + strlen(cols), sizeof(cols) - strlen(cols), "%s%s",
				 *cols ? "," : "", column_names[i]);
	if (s->delay_ns % NSEC_PER_SEC == 0)
		snprintf(delay, sizeof(delay), "%llus",
			 (unsigned long long)(s->delay_ns / NSEC_PER_SEC));
	else if (s->delay_ns % NSEC_PER_MSEC == 0)
		snprintf(delay, sizeof(delay), "%llums",
			 (unsigned long long)(s->delay_ns / NSEC_PER_MSEC));
	else if (s->delay_ns % 1000 == 0)
		snprintf(delay, sizeof(delay), "%lluus", (unsigned long long)(s->delay_ns / 1000));
	else
		snprintf(delay, sizeof(delay), "%llu.%09llu",
			 (unsigned long long)(s->delay_ns / NSEC_PER_SEC),
			 (unsigned long long)(s->delay_ns % NSEC_PER_SEC));
	n = snprintf(buf, size,
		     "# cgtop2's screen settings, written by its W key; read when it starts\n"
		     "order=%s\ncolumns=%s\nview=%s\ndelay=%s\nstats=%s\n",
		     order_names[s->order], cols, s->tree ? "tree" : "list", delay, st);
	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}

int settings_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	/* the XDG base directory spec: a relative path there is invalid and to be ignored */
	if (xdg && *xdg == '/')
		n = snprintf(buf, size, "%s/cgtop2/config", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.config/cgtop2/config", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int say(char *why, size_t size, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *why, size_t size, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return r;
}

int settings_load(struct settings *ret, char *why, size_t size)
{
	char path[PATH_MAX], buf[SETTINGS_MAX + 2], err[256];
	_cleanup_close_ int fd = -1;
	struct stat st;
	size_t len = 0;
	int r;

	if (settings_path(path, sizeof(path)) < 0)
		return 0;
	/* the last component is not followed: a link planted there is not read */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return say(why, size, -errno, "%s: %s", path,
			   errno == ELOOP ? "a symbolic link, not followed" : strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return say(why, size, -EINVAL, "%s: not a regular file", path);
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return say(why, size, -errno, "%s: %s", path, strerror(errno));
		len += (size_t)n;
		if (!n || len == sizeof(buf) - 1)
			break;
	}
	r = settings_parse(buf, len, ret, err, sizeof(err));
	if (r < 0)
		return say(why, size, r, "%s: %s", path, err);
	return 1;
}

/* mkdir -p of the directory part of path[0, len), new ones 0700 */
static int make_dirs(char *path, size_t len)
{
	for (size_t i = 1; i <= len; i++)
		if (i == len || path[i] == '/') {
			char c = path[i];

			path[i] = '\0';
			if (mkdir(path, 0700) < 0 && errno != EEXIST) {
				path[i] = c;
				return -errno;
			}
			path[i] = c;
		}
	return 0;
}

int settings_save(const struct settings *s, char *why, size_t size)
{
	char path[PATH_MAX], text[1024], tmp[64];
	_cleanup_close_ int dfd = -1, fd = -1;
	char *slash;
	int n, r;

	if (settings_path(path, sizeof(path)) < 0)
		return say(why, size, -ENOENT, "neither XDG_CONFIG_HOME nor HOME is set");
	n = settings_format(s, text, sizeof(text));
	if (n < 0)
		return say(why, size, n, "%s: %s", path, strerror(-n));
	slash = strrchr(path, '/');
	r = make_dirs(path, (size_t)(slash - path));
	if (r < 0)
		return say(why, size, r, "%.*s: %s", (int)(slash - path), path, strerror(-r));
	*slash = '\0';
	/* cgtop2/ itself is not followed either: a link there would send the file elsewhere */
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*slash = '/';
	if (dfd < 0)
		return say(why, size, -errno, "%.*s: %s", (int)(slash - path), path,
			   errno == ELOOP || errno == ENOTDIR ? "not a directory (a symbolic link?)"
							      : strerror(errno));
	snprintf(tmp, sizeof(tmp), ".config.%d.tmp", (int)getpid());
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return say(why, size, -errno, "%s: %s", path, strerror(errno));
	errno = 0;
	if (write(fd, text, (size_t)n) != n || fsync(fd) < 0) {
		r = errno ? -errno : -EIO;
		unlinkat(dfd, tmp, 0);
		return say(why, size, r, "%s: write: %s", path, strerror(-r));
	}
	/* rename replaces what is there, a link too, without following it */
	if (renameat(dfd, tmp, dfd, "config") < 0) {
		r = -errno;
		unlinkat(dfd, tmp, 0);
		return say(why, size, r, "%s: %s", path, strerror(-r));
	}
	return 0;
}
