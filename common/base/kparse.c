// SPDX-License-Identifier: MIT
/* Pure kernel-text parsers: the unit-test and fuzz surface (no I/O; tests/unit, tests/fuzz). */
#include "kparse.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "clock.h"
#include "parse.h"

/* Copy the token [p, e) into buf so the strict parser sees a whole string. */
static int token_u64(const char *p, const char *e, uint64_t *ret)
{
	char buf[32];
	size_t n = (size_t)(e - p);

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return cg_parse_u64(buf, UINT64_MAX, ret);
}

/* A kernel counter that is summed must not wrap silently. */
static int add_u64(uint64_t *acc, uint64_t v)
{
	if (*acc > UINT64_MAX - v)
		return -ERANGE;
	*acc += v;
	return 0;
}

int cg_kparse_keyed(const char *text, const char *key, uint64_t *ret)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l;) {
		const char *eol = strchrnul(l, '\n');

		if ((size_t)(eol - l) > kl && !strncmp(l, key, kl) && l[kl] == ' ')
			return token_u64(l + kl + 1, eol, ret);
		l = *eol ? eol + 1 : eol;
	}
	return -ENOENT;
}

int cg_kparse_number(const char *text, uint64_t *ret)
{
	return cg_parse_u64(text, UINT64_MAX, ret);
}

/* "KEY:   N kB" at text -> N (kB) */
static int meminfo_kb(const char *text, const char *key, uint64_t *ret)
{
	size_t kl = strlen(key);

	if (!text || strncmp(text, key, kl))
		return -EINVAL;
	text += kl;
	text += strspn(text, " \t");
	return cg_parse_u64_prefix(&text, UINT64_MAX / 1024, ret);
}

int cg_kparse_meminfo(const char *text, uint64_t *ret_used)
{
	uint64_t total, avail;

	if (meminfo_kb(text, "MemTotal:", &total) < 0 ||
	    meminfo_kb(strstr(text, "MemAvailable:"), "MemAvailable:", &avail) < 0 || avail > total)
		return -EINVAL;
	*ret_used = (total - avail) * 1024;
	return 0;
}

/* The "KEY: N kB" line of /proc/meminfo that starts with key, else NULL. */
static const char *meminfo_line(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; *l;) {
		if (!strncmp(l, key, kl))
			return l;
		l = strchrnul(l, '\n');
		l += *l == '\n';
	}
	return NULL;
}

int cg_kparse_meminfo_totals(const char *text, uint64_t *ret_mem, uint64_t *ret_swap)
{
	const char *swap = meminfo_line(text, "SwapTotal:");
	uint64_t mem, sw = 0;

	if (meminfo_kb(meminfo_line(text, "MemTotal:"), "MemTotal:", &mem) < 0 ||
	    (swap && meminfo_kb(swap, "SwapTotal:", &sw) < 0))
		return -EINVAL;
	*ret_mem = mem * 1024;
	*ret_swap = sw * 1024;
	return 0;
}

int cg_kparse_populated(const char *text)
{
	const char *p = strstr(text, "populated ");

	return p ? p[10] == '1' : 1;
}

int cg_kparse_io_stat(const char *text, uint64_t *ret_read, uint64_t *ret_write)
{
	uint64_t rd = 0, wr = 0;

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n'), *p = l;
		bool dev = false;

		while (p < eol) {
			const char *e = p, *eq;
			uint64_t v;

			while (e < eol && *e != ' ')
				e++;
			if (!dev) {
				/* "MAJ:MIN" opens every line */
				if (!memchr(p, ':', (size_t)(e - p)))
					return -EINVAL;
				dev = true;
			} else if (e > p) {
				eq = memchr(p, '=', (size_t)(e - p));
				if (!eq || token_u64(eq + 1, e, &v) < 0)
					return -EINVAL;
				if (eq - p == 6 && !strncmp(p, "rbytes", 6) && add_u64(&rd, v) < 0)
					return -ERANGE;
				if (eq - p == 6 && !strncmp(p, "wbytes", 6) && add_u64(&wr, v) < 0)
					return -ERANGE;
			}
			p = e < eol ? e + 1 : e;
		}
		l = *eol ? eol + 1 : eol;
	}
	*ret_read = rd;
	*ret_write = wr;
	return 0;
}

int cg_kparse_blkio(const char *text, uint64_t *ret_read, uint64_t *ret_write)
{
	uint64_t rd = 0, wr = 0;

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n');
		const char *sp1 = memchr(l, ' ', (size_t)(eol - l)), *sp2;
		uint64_t v;

		if (eol == l) {
			l = *eol ? eol + 1 : eol;
			continue;
		}
		if (!sp1)
			return -EINVAL;
		/* the grand "Total N" line has no device */
		if (sp1 - l == 5 && !strncmp(l, "Total", 5)) {
			if (token_u64(sp1 + 1, eol, &v) < 0)
				return -EINVAL;
			l = *eol ? eol + 1 : eol;
			continue;
		}
		sp2 = memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1));
		if (!memchr(l, ':', (size_t)(sp1 - l)) || !sp2 || token_u64(sp2 + 1, eol, &v) < 0)
			return -EINVAL;
		if (sp2 - sp1 - 1 == 4 && !strncmp(sp1 + 1, "Read", 4) && add_u64(&rd, v) < 0)
			return -ERANGE;
		if (sp2 - sp1 - 1 == 5 && !strncmp(sp1 + 1, "Write", 5) && add_u64(&wr, v) < 0)
			return -ERANGE;
		l = *eol ? eol + 1 : eol;
	}
	*ret_read = rd;
	*ret_write = wr;
	return 0;
}

/* " key=" in the line [l, eol): a percentage (0 to 100) as PSI prints it; -EINVAL otherwise */
static int line_field_pct(const char *l, const char *eol, const char *key, double *ret)
{
	size_t kl = strlen(key);

	for (const char *p = l; p < eol; p++) {
		char buf[32];
		size_t n = 0;
		double v;

		if (*p != ' ' || (size_t)(eol - p) <= kl + 1 || strncmp(p + 1, key, kl) ||
		    p[kl + 1] != '=')
			continue;
		p += kl + 2;
		while (p + n < eol && p[n] != ' ' && n < sizeof(buf) - 1) {
			buf[n] = p[n];
			n++;
		}
		buf[n] = '\0';
		if (!n || cg_parse_decimal(buf, 100, &v) < 0)
			return -EINVAL;
		*ret = v;
		return 0;
	}
	return -EINVAL;
}

int cg_kparse_psi_avg10(const char *text, double *ret_some_avg10)
{
	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n');

		if (!strncmp(l, "some ", 5))
			return line_field_pct(l, eol, "avg10", ret_some_avg10);
		l = *eol ? eol + 1 : eol;
	}
	return -EINVAL;
}

bool cg_kparse_psi_idle(const char *text)
{
	for (const char *p = strstr(text, "avg"); p; p = strstr(p + 1, "avg")) {
		const char *v = strchr(p, '=');

		if (!v)
			return false;
		for (v++; *v && *v != ' ' && *v != '\n'; v++)
			if (*v >= '1' && *v <= '9')
				return false;
	}
	return true;
}

uint64_t cg_kparse_count_lines(const char *text)
{
	uint64_t n = 0;

	for (const char *p = text; *p; p++)
		if (*p == '\n')
			n++;
	/* a last line without its newline still counts */
	if (*text && text[strlen(text) - 1] != '\n')
		n++;
	return n;
}

/*
 * Where field `field` (3 or more, as proc(5) counts: 3 state, 9 flags, 14 utime, 22 starttime)
 * of a /proc/PID/stat line begins: counted from close, the line's last ')', as comm may hold
 * spaces and parentheses. NULL when the line has fewer fields.
 */
static const char *stat_field(const char *close, int field)
{
	for (int f = 2; close && f < field; f++)
		close = strchr(close + 1, ' ');
	return close ? close + 1 : NULL;
}

/* The number that begins at p and ends at the next space or the line's end. */
static int stat_u64(const char *p, uint64_t *ret)
{
	return token_u64(p, strchrnul(p, ' '), ret);
}

int cg_kparse_proc_stat(const char *text, char *comm, size_t size, uint64_t *ret_ticks)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	uint64_t ut, st;
	size_t n;

	if (!open || !close || close < open || size == 0)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= size)
		n = size - 1;
	memcpy(comm, open + 1, n);
	comm[n] = '\0';
	/* utime, then stime after it */
	p = stat_field(close, 14);
	if (!p || stat_u64(p, &ut) < 0 || !(p = strchr(p, ' ')) || stat_u64(p + 1, &st) < 0)
		return -EINVAL;
	*ret_ticks = ut + st;
	return 0;
}

int cg_kparse_proc_state(const char *text, char *ret_state)
{
	const char *p = strrchr(text, ')');

	/* comm may hold anything: the last ')' ends it, and the state is the field after it */
	if (!p || p[1] != ' ' || !p[2] || p[2] == ' ' || p[2] == '\n' || (p[3] && p[3] != ' '))
		return -EINVAL;
	*ret_state = p[2];
	return 0;
}

int cg_kparse_statm(const char *text, uint64_t *ret_resident_pages)
{
	const char *p = text;
	uint64_t size, resident;

	/* "size resident shared text lib data dt": the first two, space-separated */
	if (cg_parse_u64_prefix(&p, UINT64_MAX, &size) < 0 || *p++ != ' ' ||
	    cg_parse_u64_prefix(&p, UINT64_MAX, &resident) < 0 || (*p && *p != ' ' && *p != '\n'))
		return -EINVAL;
	*ret_resident_pages = resident;
	return 0;
}

int cg_kparse_proc_flags(const char *text, uint64_t *ret_flags)
{
	const char *p = stat_field(strrchr(text, ')'), 9);

	return p ? stat_u64(p, ret_flags) : -EINVAL;
}

int cg_kparse_proc_starttime(const char *text, uint64_t *ret_ticks)
{
	const char *p = stat_field(strrchr(text, ')'), 22);

	return p ? stat_u64(p, ret_ticks) : -EINVAL;
}

/* n units of unit_ns each, in nanoseconds, without wrapping */
static int scale_ns(uint64_t n, uint64_t unit_ns, uint64_t *ret)
{
	if (unit_ns && n > UINT64_MAX / unit_ns)
		return -ERANGE;
	*ret = n * unit_ns;
	return 0;
}

int cg_kparse_cpu_stat(const char *text, uint64_t *ret_user_ns, uint64_t *ret_system_ns)
{
	uint64_t u, s;
	int r;

	if ((r = cg_kparse_keyed(text, "user_usec", &u)) < 0 ||
	    (r = cg_kparse_keyed(text, "system_usec", &s)) < 0 ||
	    (r = scale_ns(u, NSEC_PER_USEC, &u)) < 0 || (r = scale_ns(s, NSEC_PER_USEC, &s)) < 0)
		return r;
	*ret_user_ns = u;
	*ret_system_ns = s;
	return 0;
}

int cg_kparse_cpuacct_stat(const char *text, long ticks_per_sec, uint64_t *ret_user_ns,
			   uint64_t *ret_system_ns)
{
	uint64_t u, s, tick_ns;
	int r;

	if (ticks_per_sec <= 0)
		return -EINVAL;
	tick_ns = NSEC_PER_SEC / (uint64_t)ticks_per_sec;
	if ((r = cg_kparse_keyed(text, "user", &u)) < 0 ||
	    (r = cg_kparse_keyed(text, "system", &s)) < 0 || (r = scale_ns(u, tick_ns, &u)) < 0 ||
	    (r = scale_ns(s, tick_ns, &s)) < 0)
		return r;
	*ret_user_ns = u;
	*ret_system_ns = s;
	return 0;
}

char *cg_kparse_env_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');

		if ((size_t)(eol - p) > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t len = (size_t)(eol - v);

			if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
				v++;
				len -= 2;
			}
			return strndup(v, len);
		}
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}

int cg_kparse_keys(const char *text, const char *const *keys, size_t n, uint64_t *vals,
		   uint64_t *ret_found)
{
	uint64_t found = 0, tmp[64];

	if (n > 64)
		return -EINVAL;
	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n'), *sp = memchr(l, ' ', (size_t)(eol - l));

		for (size_t i = 0; sp && i < n; i++) {
			if ((size_t)(sp - l) != strlen(keys[i]) ||
			    strncmp(l, keys[i], (size_t)(sp - l)))
				continue;
			if (token_u64(sp + 1, eol, &tmp[i]) < 0)
				return -EINVAL;
			found |= 1ull << i;
			break;
		}
		l = *eol ? eol + 1 : eol;
	}
	for (size_t i = 0; i < n; i++)
		if (found & (1ull << i))
			vals[i] = tmp[i];
	*ret_found = found;
	return 0;
}

int cg_kparse_limit(const char *text, uint64_t *ret)
{
	if (!strcmp(text, "max\n") || !strcmp(text, "max")) {
		*ret = CG_UNLIMITED;
		return 0;
	}
	return cg_parse_u64(text, UINT64_MAX, ret);
}

/* " key=" in the line [l, eol): the value as a strict number; -ENOENT when it is not there */
static int line_field_u64(const char *l, const char *eol, const char *key, uint64_t *ret)
{
	size_t kl = strlen(key);

	for (const char *p = l; p < eol; p++) {
		const char *e;

		if (*p != ' ' || (size_t)(eol - p) <= kl + 1 || strncmp(p + 1, key, kl) ||
		    p[kl + 1] != '=')
			continue;
		p += kl + 2;
		for (e = p; e < eol && *e != ' '; e++)
			;
		return token_u64(p, e, ret);
	}
	return -ENOENT;
}

int cg_kparse_field_sum(const char *text, const char *key, uint64_t *ret)
{
	uint64_t sum = 0, v;
	bool found = false;

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n');
		int r = line_field_u64(l, eol, key, &v);

		/* a value out of range (-ERANGE) is as wrong as one that is no number */
		if ((r < 0 && r != -ENOENT) || (r == 0 && v > UINT64_MAX - sum))
			return -EINVAL;
		if (r == 0) {
			sum += v;
			found = true;
		}
		l = *eol ? eol + 1 : eol;
	}
	if (!found)
		return -ENOENT;
	*ret = sum;
	return 0;
}

int cg_kparse_psi(const char *text, struct cg_psi *ret)
{
	struct cg_psi r = { 0 };
	bool some = false;

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n');
		bool full = !strncmp(l, "full ", 5);
		double a10, a60, a300;
		uint64_t total;

		if (full || !strncmp(l, "some ", 5)) {
			/* every kernel with PSI (4.20) prints the three averages and the total */
			if (line_field_pct(l, eol, "avg10", &a10) < 0 ||
			    line_field_pct(l, eol, "avg60", &a60) < 0 ||
			    line_field_pct(l, eol, "avg300", &a300) < 0 ||
			    line_field_u64(l, eol, "total", &total) < 0)
				return -EINVAL;
			if (full) {
				r.full_avg10 = a10;
				r.full_avg60 = a60;
				r.full_avg300 = a300;
				r.full_total_us = total;
				r.has_full = true;
			} else {
				r.some_avg10 = a10;
				r.some_avg60 = a60;
				r.some_avg300 = a300;
				r.some_total_us = total;
				some = true;
			}
		}
		l = *eol ? eol + 1 : eol;
	}
	if (!some)
		return -EINVAL;
	*ret = r;
	return 0;
}

/* The device maj:min in *devs, added (zeroed) when it is not there yet; NULL without memory. */
static struct cg_io_dev *dev_slot(struct cg_io_dev **devs, size_t *n, unsigned maj, unsigned min)
{
	struct cg_io_dev *g;

	for (size_t i = 0; i < *n; i++)
		if ((*devs)[i].major == maj && (*devs)[i].minor == min)
			return &(*devs)[i];
	/* the capacity is the power of two at or above *n: full when *n is one (or 0) */
	if (!(*n & (*n - 1))) {
		g = realloc(*devs, (*n ? *n * 2 : 1) * sizeof(*g));
		if (!g)
			return NULL;
		*devs = g;
	}
	g = &(*devs)[(*n)++];
	memset(g, 0, sizeof(*g));
	g->major = maj;
	g->minor = min;
	return g;
}

/* "MAJ:MIN" at l, up to the space that must follow: the numbers and where the rest starts */
static const char *parse_devno(const char *l, const char *eol, unsigned *maj, unsigned *min)
{
	const char *colon = memchr(l, ':', (size_t)(eol - l)), *sp;
	uint64_t a, b;

	if (!colon)
		return NULL;
	sp = memchr(colon, ' ', (size_t)(eol - colon));
	if (!sp || token_u64(l, colon, &a) < 0 || token_u64(colon + 1, sp, &b) < 0 ||
	    a > UINT32_MAX || b > UINT32_MAX)
		return NULL;
	*maj = (unsigned)a;
	*min = (unsigned)b;
	return sp;
}

int cg_kparse_io_devs(const char *text, struct cg_io_dev **devs, size_t *n)
{
	static const char *const keys[CG_IO_N] = { "rbytes", "wbytes", "rios",
						   "wios",   "dbytes", "dios" };

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n'), *p;
		unsigned maj, min;
		struct cg_io_dev *d;

		if (eol == l) {
			l = *eol ? eol + 1 : eol;
			continue;
		}
		p = parse_devno(l, eol, &maj, &min);
		if (!p)
			return -EINVAL;
		d = dev_slot(devs, n, maj, min);
		if (!d)
			return -ENOMEM;
		for (int k = 0; k < CG_IO_N; k++) {
			uint64_t v;
			int r = line_field_u64(p, eol, keys[k], &v);

			if (r == -ENOENT)
				continue;
			if (r < 0)
				return r;
			{
				d->v[k] = v;
				d->have |= 1u << k;
			}
		}
		l = *eol ? eol + 1 : eol;
	}
	return 0;
}

int cg_kparse_blkio_devs(const char *text, bool ops, struct cg_io_dev **devs, size_t *n)
{
	static const char *const ops_names[] = { "Read", "Write", "Discard" };
	static const int bytes_idx[] = { CG_IO_RBYTES, CG_IO_WBYTES, CG_IO_DBYTES };
	static const int ops_idx[] = { CG_IO_RIOS, CG_IO_WIOS, CG_IO_DIOS };

	for (const char *l = text; *l;) {
		const char *eol = strchrnul(l, '\n'), *p, *sp;
		unsigned maj, min;
		uint64_t v;

		/* the grand "Total N" line, and empty lines */
		if (eol == l || !strncmp(l, "Total ", 6)) {
			l = *eol ? eol + 1 : eol;
			continue;
		}
		p = parse_devno(l, eol, &maj, &min);
		if (!p)
			return -EINVAL;
		p++;
		sp = memchr(p, ' ', (size_t)(eol - p));
		if (!sp)
			return -EINVAL;
		if (token_u64(sp + 1, eol, &v) < 0)
			return -EINVAL;
		for (size_t i = 0; i < ARRAY_SIZE(ops_names); i++) {
			struct cg_io_dev *d;
			int k = ops ? ops_idx[i] : bytes_idx[i];

			if ((size_t)(sp - p) != strlen(ops_names[i]) ||
			    strncmp(p, ops_names[i], (size_t)(sp - p)))
				continue;
			d = dev_slot(devs, n, maj, min);
			if (!d)
				return -ENOMEM;
			d->v[k] = v;
			d->have |= 1u << k;
		}
		l = *eol ? eol + 1 : eol;
	}
	return 0;
}

int cg_kparse_u64_list(const char *text, uint64_t **vals, size_t *cap, size_t *n)
{
	const char *p = text;

	*n = 0;
	for (;;) {
		const char *e;
		uint64_t v;

		p += strspn(p, " \t\n");
		if (!*p)
			return 0;
		e = p + strcspn(p, " \t\n");
		if (token_u64(p, e, &v) < 0)
			return -EINVAL;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 8;
			uint64_t *nv = realloc(*vals, nc * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			*vals = nv;
			*cap = nc;
		}
		(*vals)[(*n)++] = v;
		p = e;
	}
}
