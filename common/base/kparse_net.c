// SPDX-License-Identifier: MIT
/*
 * Pure parsers of a network namespace's text (declared in kparse.h): /proc/PID/net/dev, and
 * the start time of a process, which tells which of the cgroups sharing a namespace came
 * first (cgtop2's network families, cmd/cgtop2/names/netdev.c).
 */
#include "kparse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "parse.h"

/* The columns of a line after "NAME:" that cAdvisor and cgkit read, by enum cg_net_key. */
static const int net_columns[CG_NET_N] = { 0, 1, 2, 3, 8, 9, 10, 11 };

/* One interface line, "  eth0: 16 numbers": 0, or -EINVAL. */
static int net_line(const char *l, const char *eol, struct cg_net_if *ret)
{
	const char *colon = memchr(l, ':', (size_t)(eol - l)), *p;
	uint64_t v[16];
	size_t n;

	while (l < eol && *l == ' ')
		l++;
	if (!colon || colon == l)
		return -EINVAL;
	n = (size_t)(colon - l);
	if (n >= sizeof(ret->name) || memchr(l, ' ', n))
		return -EINVAL;
	memcpy(ret->name, l, n);
	ret->name[n] = '\0';
	p = colon + 1;
	for (size_t i = 0; i < 16; i++) {
		while (p < eol && *p == ' ')
			p++;
		if (p >= eol || cg_parse_u64_prefix(&p, UINT64_MAX, &v[i]) < 0 ||
		    (p < eol && *p != ' '))
			return -EINVAL;
	}
	while (p < eol && *p == ' ')
		p++;
	if (p != eol)
		return -EINVAL;
	for (int k = 0; k < CG_NET_N; k++)
		ret->v[k] = v[net_columns[k]];
	return 0;
}

int cg_kparse_net_dev(const char *text, struct cg_net_if **ret, size_t *ret_n)
{
	_cleanup_free_ struct cg_net_if *v = NULL;
	size_t n = 0, cap = 0, line = 0;

	for (const char *p = text; *p; line++) {
		const char *eol = strchr(p, '\n');

		if (!eol)
			eol = p + strlen(p);
		/* the two header lines, whose words have changed across kernels */
		if (line >= 2) {
			if (n == cap) {
				struct cg_net_if *t;

				cap = cap ? cap * 2 : 8;
				t = realloc(v, cap * sizeof(*v));
				if (!t)
					return -ENOMEM;
				v = t;
			}
			if (net_line(p, eol, &v[n]) < 0)
				return -EINVAL;
			n++;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (line < 2)
		return -EINVAL;
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}
