// SPDX-License-Identifier: MIT
/* The one strict number parser: every number cgkit reads from a user or the kernel. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"
#include "clock.h"

int cg_parse_u64_prefix(const char **p, uint64_t max, uint64_t *ret)
{
	const char *s = *p;
	uint64_t v = 0;
	bool over = false;

	/* digits only: strtoull's leading blanks and '-' (which it wraps!) are never wanted */
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		/* keep consuming after an overflow: the caller judges what follows the number */
		if (v > (UINT64_MAX - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	*p = s;
	if (over || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* After the digits: a trailing newline (kernel files) is accepted, nothing else. */
static int check_end(const char *end)
{
	if (end[0] == '\n')
		end++;
	return end[0] ? -EINVAL : 0;
}

char *cg_format_u64(char buf[CG_U64_LEN], uint64_t v)
{
	char *p = buf + CG_U64_LEN;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

int cg_parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	/* a number too large for 64 bits is out of range before it is junk, as with strtoull */
	r = cg_parse_u64_prefix(&s, UINT64_MAX, &v);
	if (r < 0)
		return r;
	if (check_end(s) < 0)
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int cg_parse_decimal(const char *s, double max, double *ret)
{
	const char *p = s, *f;
	uint64_t whole, frac = 0, scale = 1;
	double v;
	int r;

	if (!s)
		return -EINVAL;
	r = cg_parse_u64_prefix(&p, UINT64_MAX, &whole);
	if (r < 0)
		return r;
	if (*p == '.') {
		f = ++p;
		r = cg_parse_u64_prefix(&p, UINT64_MAX, &frac);
		if (r < 0)
			return r;
		for (; f < p; f++) {
			if (scale > UINT64_MAX / 10)
				return -ERANGE;
			scale *= 10;
		}
	}
	if (check_end(p) < 0)
		return -EINVAL;
	/* one division of two exact integers rounds once: "12.34" is the double strtod gives */
	if (whole > (UINT64_MAX - frac) / scale || (whole * scale + frac) >> 53)
		v = (double)whole + (double)frac / (double)scale;
	else
		v = (double)(whole * scale + frac) / (double)scale;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int cg_parse_percent(const char *s, uint64_t max_bp, uint64_t *ret_bp)
{
	const char *p = s;
	uint64_t whole, bp;
	int r, decimals = 0;

	if (!s)
		return -EINVAL;
	r = cg_parse_u64_prefix(&p, UINT64_MAX / 10000, &whole);
	if (r < 0)
		return r;
	bp = whole * 100;
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++, decimals++) {
			if (decimals == 2)
				return -EINVAL;
			bp += (uint64_t)(*p - '0') * (decimals ? 1 : 10);
		}
		if (!decimals)
			return -EINVAL;
	}
	if (*p++ != '%' || check_end(p) < 0)
		return -EINVAL;
	if (bp > max_bp)
		return -ERANGE;
	*ret_bp = bp;
	return 0;
}

int cg_pids_push(pid_t **v, size_t *n, size_t *cap, pid_t id)
{
	/* ids come by the ten thousand from pid files: grow by doubling */
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		pid_t *nv = realloc(*v, c * sizeof(pid_t));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = id;
	return 0;
}

int cg_parse_pid_file(FILE *f, pid_t **v, size_t *n, size_t *cap, struct cg_pid_file_bad *bad)
{
	_cleanup_free_ char *line = NULL;
	size_t size = 0, lineno = 0;
	ssize_t len;

	errno = 0;
	while ((len = getline(&line, &size, f)) >= 0) {
		char *s = line;
		pid_t pid;
		int r;

		lineno++;
		while (len && strchr(" \t\r\n", s[len - 1]) && s[len - 1])
			s[--len] = '\0';
		while (*s == ' ' || *s == '\t') {
			s++;
			len--;
		}
		if (!len)
			continue;
		if (strlen(s) != (size_t)len || cg_parse_pid(s, &pid) < 0) {
			bad->text = malloc((size_t)len + 1);
			if (!bad->text)
				return -ENOMEM;
			memcpy(bad->text, s, (size_t)len + 1);
			bad->len = (size_t)len;
			bad->line = lineno;
			return -EINVAL;
		}
		r = cg_pids_push(v, n, cap, pid);
		if (r < 0)
			return r;
	}
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

int cg_parse_size(const char *s, unsigned flags, uint64_t *ret)
{
	static const char units[] = "KMGT";
	const char *p = s, *u;
	unsigned shift = 0;
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	if ((flags & CG_SIZE_MAX) && !strncmp(s, "max", 3) && check_end(s + 3) == 0) {
		*ret = UINT64_MAX;
		return 0;
	}
	/* as cg_parse_u64: too many digits for 64 bits is out of range before it is junk */
	r = cg_parse_u64_prefix(&p, UINT64_MAX, &v);
	if (r < 0)
		return r;
	if (*p && *p != '\n') {
		u = strchr(units, *p++);
		if (!u)
			return -EINVAL;
		shift = 10 * (unsigned)(u - units + 1);
		if ((flags & CG_SIZE_BYTES) && !strncmp(p, "iB", 2))
			p += 2;
		else if ((flags & CG_SIZE_BYTES) && *p == 'B')
			p++;
	}
	if (check_end(p) < 0)
		return -EINVAL;
	if (v > UINT64_MAX >> shift)
		return -ERANGE;
	*ret = v << shift;
	return 0;
}

int cg_parse_i64(const char *s, int64_t min, int64_t max, int64_t *ret)
{
	bool neg = s && s[0] == '-';
	uint64_t mag;
	int64_t v;
	int r;

	if (!s)
		return -EINVAL;
	if (neg)
		s++;
	/* INT64_MIN's magnitude is one more than INT64_MAX's */
	r = cg_parse_u64_prefix(&s, (uint64_t)INT64_MAX + neg, &mag);
	if (r < 0)
		return r;
	if (check_end(s) < 0)
		return -EINVAL;
	v = !neg ? (int64_t)mag : mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)mag;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int cg_parse_pid(const char *s, pid_t *ret)
{
	uint64_t v;
	/* pid 0 means "the writer" to cgroup.procs, never wanted here */
	int r = cg_parse_u64(s, CG_PID_MAX, &v);

	if (r < 0)
		return r;
	if (v == 0)
		return -ERANGE;
	*ret = (pid_t)v;
	return 0;
}

/* The units of systemd-cgtop's --delay; a bare number is seconds */
static const struct {
	const char *name;
	uint64_t ns;
} time_units[] = {
	{ "us", NSEC_PER_USEC }, /* microseconds */
	{ "ms", NSEC_PER_MSEC }, /* milliseconds */
	{ "s", NSEC_PER_SEC }, /* seconds */
	{ "min", 60 * NSEC_PER_SEC }, /* minutes */
	{ "", NSEC_PER_SEC }, /* a bare number: seconds */
};

int cg_parse_seconds(const char *s, uint64_t *ret_ns)
{
	const uint64_t max_ns = 86400 * NSEC_PER_SEC;
	const char *p, *frac = NULL, *end;
	uint64_t whole = 0, unit = 0, ns = 0;

	if (!s)
		return -EINVAL;
	for (p = s; isdigit((unsigned char)*p); p++)
		/* past max_ns it is out of range in any unit; stop before it can wrap */
		if (whole <= max_ns)
			whole = whole * 10 + (uint64_t)(*p - '0');
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
	}
	end = p;
	/* a digit on at least one side of the point: "." and "ms" are no number */
	if (end - s == (frac ? 1 : 0))
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(time_units); i++) {
		if (!strcmp(end, time_units[i].name)) {
			unit = time_units[i].ns;
			break;
		}
	}
	if (!unit)
		return -EINVAL;
	if (whole > max_ns / unit)
		return -ERANGE;
	/*
	 * Right to left, floor((d * unit + rest) / 10) at each digit equals flooring the exact
	 * product once: no digit is dropped, so "0.000000000099min" still counts its 5 ns, and
	 * nothing exceeds 10 * unit however long the fraction is.
	 */
	for (p = end; frac && p > frac; p--)
		ns = ((uint64_t)(p[-1] - '0') * unit + ns) / 10;
	ns += whole * unit;
	if (ns == 0 || ns > max_ns)
		return -ERANGE;
	*ret_ns = ns;
	return 0;
}

/* "@SECONDS[.FRACTION]", as date(1) takes them */
static int parse_epoch(const char *s, uint64_t *ret_ns)
{
	uint64_t sec, frac = 0, scale = NSEC_PER_SEC;
	const char *p = s;

	if (cg_parse_u64_prefix(&p, UINT64_MAX / NSEC_PER_SEC - 1, &sec) < 0)
		return -EINVAL;
	if (*p == '.') {
		if (!*++p || strlen(p) > 9)
			return -EINVAL;
		for (; *p; p++) {
			if (*p < '0' || *p > '9')
				return -EINVAL;
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
		}
	}
	if (*p)
		return -EINVAL;
	*ret_ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

/* "-1h30m": whole numbers with d, h, m (or min), s, largest first, each once; none empty */
static int parse_ago(const char *s, uint64_t *ret_ns)
{
	static const struct {
		const char *name;
		uint64_t sec;
	} units[] = { { "d", 86400 }, { "h", 3600 }, { "min", 60 }, { "m", 60 }, { "s", 1 } };
	/* ten years back is past any recording; the bound keeps the sum from wrapping */
	const uint64_t max_sec = 3660ULL * 86400;
	uint64_t total = 0;
	size_t next = 0;

	if (!*s)
		return -EINVAL;
	while (*s) {
		uint64_t v;
		size_t u;

		if (cg_parse_u64_prefix(&s, max_sec, &v) < 0)
			return -EINVAL;
		for (u = next; u < ARRAY_SIZE(units); u++)
			if (!strncmp(s, units[u].name, strlen(units[u].name)))
				break;
		if (u == ARRAY_SIZE(units))
			return -EINVAL;
		s += strlen(units[u].name);
		/* "min" and "m" are one unit: after either, only seconds */
		next = u + (u == 2 ? 2 : 1);
		total += v * units[u].sec;
		if (total > max_sec)
			return -EINVAL;
	}
	*ret_ns = total * NSEC_PER_SEC;
	return 0;
}

/* strptime's "HH:MM[:SS]" into tm, all of s */
static int parse_clock(const char *s, struct tm *tm)
{
	const char *end = strptime(s, "%H:%M", tm);

	if (end && *end == ':')
		end = strptime(end, ":%S", tm);
	return end && !*end ? 0 : -EINVAL;
}

int cg_parse_when(const char *s, uint64_t now_ns, uint64_t *ret_ns)
{
	struct tm tm = { 0 };
	const char *rest;
	time_t t;
	uint64_t ago;
	int back = 0;

	if (!s)
		return -EINVAL;
	if (s[0] == '@')
		return parse_epoch(s + 1, ret_ns);
	if (!strcmp(s, "now")) {
		*ret_ns = now_ns;
		return 0;
	}
	if (s[0] == '-') {
		if (parse_ago(s + 1, &ago) < 0 || ago > now_ns)
			return -EINVAL;
		*ret_ns = now_ns - ago;
		return 0;
	}
	if (!strncmp(s, "today ", 6) || !strncmp(s, "yesterday ", 10)) {
		struct tm clk = { 0 };

		t = (time_t)(now_ns / NSEC_PER_SEC);
		back = s[0] == 'y';
		rest = s + (back ? 10 : 6);
		if (!localtime_r(&t, &tm) || parse_clock(rest, &clk) < 0)
			return -EINVAL;
		tm.tm_hour = clk.tm_hour;
		tm.tm_min = clk.tm_min;
		tm.tm_sec = clk.tm_sec;
		/* mktime takes the 0th of a month as the last of the one before */
		tm.tm_mday -= back;
	} else {
		rest = strptime(s, "%Y-%m-%d ", &tm);
		if (!rest || s[0] < '0' || s[0] > '9' || parse_clock(rest, &tm) < 0)
			return -EINVAL;
	}
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 || t < 0)
		return -EINVAL;
	*ret_ns = (uint64_t)t * NSEC_PER_SEC;
	return 0;
}

/* A user or group: a number, else a name from the passwd or group database. */
static int parse_id(const char *s, bool group, uint32_t *ret)
{
	uint64_t v;

	/* (uid_t)-1 is "unchanged" to chown(2): no user's id */
	if (cg_parse_u64(s, UINT32_MAX - 1, &v) == 0) {
		*ret = (uint32_t)v;
		return 0;
	}
	if (group) {
		struct group *gr = getgrnam(s);

		if (!gr)
			return -ENOENT;
		*ret = gr->gr_gid;
	} else {
		struct passwd *pw = getpwnam(s);

		if (!pw)
			return -ENOENT;
		*ret = pw->pw_uid;
	}
	return 0;
}

int cg_parse_owner(const char *s, uid_t *ret_uid, gid_t *ret_gid)
{
	_cleanup_free_ char *copy = strdup(s ? s : "");
	uid_t uid = (uid_t)-1;
	gid_t gid = (gid_t)-1;
	char *colon;
	int r;

	if (!copy)
		return -ENOMEM;
	colon = strchr(copy, ':');
	if (colon)
		*colon = '\0';
	if (*copy) {
		r = parse_id(copy, false, &uid);
		if (r < 0)
			return r;
	}
	if (colon && colon[1]) {
		r = parse_id(colon + 1, true, &gid);
		if (r < 0)
			return r;
	}
	if (uid == (uid_t)-1 && gid == (gid_t)-1)
		return -EINVAL;
	*ret_uid = uid;
	*ret_gid = gid;
	return 0;
}

int cg_parse_mode(const char *s, mode_t *ret)
{
	unsigned v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '7')
			return -EINVAL;
	for (const char *p = s; *p; p++) {
		v = v * 8 + (unsigned)(*p - '0');
		/* leading zeros are fine, any further digit is out of range */
		if (v > 07777)
			return -ERANGE;
	}
	*ret = (mode_t)v;
	return 0;
}

bool cg_setting_name_valid(const char *s, size_t n)
{
	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!s[i] || !strchr(CG_SETTING_NAME_CHARS, s[i]))
			return false;
	return true;
}

int cg_assignments_add(struct cg_assignments *a, const char *s)
{
	const char *eq = strchr(s, '=');
	struct cg_assignment *nv;
	_cleanup_free_ char *file = NULL;
	char *value;

	if (!eq || !cg_setting_name_valid(s, (size_t)(eq - s)))
		return -EINVAL;
	nv = realloc(a->v, (a->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	a->v = nv;
	file = strndup(s, (size_t)(eq - s));
	value = strdup(eq + 1);
	if (!file || !value) {
		free(value);
		return -ENOMEM;
	}
	nv[a->n].file = TAKE_PTR(file);
	nv[a->n].value = value;
	a->n++;
	return 0;
}

void cg_assignments_clear(struct cg_assignments *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].file);
		free(a->v[i].value);
	}
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

int cg_path_normalize(const char *in, char **ret)
{
	size_t len = strlen(in);
	_cleanup_free_ char *out = malloc(len + 1);
	char *w;

	if (!out)
		return -ENOMEM;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	w = out;
	for (const char *p = in; *p;) {
		const char *e;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		for (const char *c = p; c < e; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return -EINVAL;
		if (!(n == 1 && p[0] == '.')) {
			if (w != out)
				*w++ = '/';
			memcpy(w, p, n);
			w += n;
		}
		p = e;
	}
	*w = '\0';
	*ret = TAKE_PTR(out);
	return 0;
}

const char *cg_path_display(const char *path, char *buf, size_t size)
{
	/*
	 * snprintf's "/%s", cut as it cuts, by hand: every move names its cgroup so, and the first
	 * snprintf of a run touches three of libc's pages (bench/RESULTS-floors.md, issue 46).
	 */
	size_t n = 0;

	if (!size)
		return buf;
	if (size > 1) {
		/* strlen, not strnlen: one libc function fewer bound at every run */
		size_t k;

		path += *path == '/';
		k = strlen(path);
		buf[n++] = '/';
		n += k < size - 2 ? k : size - 2;
		memcpy(buf + 1, path, n - 1);
	}
	buf[n] = '\0';
	return buf;
}

int cg_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}
