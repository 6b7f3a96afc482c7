// SPDX-License-Identifier: MIT
/*
 * The labels of cgtop2's expositions (metrics.c): names as label values, each row's labels
 * (its path and who it belongs to, cmd/cgtop2/names/origin.c) made once for all its families.
 */
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "labels.h"
#include "names/origin.h"
#include "names/runtime.h"

/*
 * Names as label values. The expositions escape a backslash, a quote and a newline, and their
 * text must be UTF-8: a name that is valid UTF-8 and holds nothing the table escapes but
 * backslashes (systemd's foo\x2dbar.service among them) is its own bytes, so that a PromQL
 * matcher holds the path as it is, as node_exporter's and cAdvisor's labels do. A name with a
 * control character, a byte of no valid UTF-8 or a character of no column cannot be: its value
 * is the table's reversible text (\xNN, \t, \\), and the sample says so with escaped="true",
 * so that no plain name's value is ever taken for an escaped one's.
 */
static bool name_plain(const char *name)
{
	_cleanup_free_ char *t = NULL;
	size_t n = 0, backslashes = 0;

	/* printable ASCII, all but every name: the table escapes only its backslashes */
	while (name[n] >= 0x20 && name[n] < 0x7f)
		n++;
	if (!name[n])
		return true;
	t = escaped(name, Q_TABLE);
	if (!t)
		return false;
	for (n = 0; name[n]; n++)
		backslashes += name[n] == '\\';
	/* every other escape of the table is longer than a doubled backslash's one more byte */
	return strlen(t) == n + backslashes;
}

/* s between a label's quotes (s holds no newline) */
static void put_quoted(struct out *o, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		if (*s != '\\' && *s != '"')
			continue;
		out_put(o, run, (size_t)(s - run));
		out_put(o, "\\", 1);
		run = s;
	}
	out_put(o, run, (size_t)(s - run));
}

/* A name as a label's value: its bytes, or with esc the table's text (name_plain). */
void put_label_value(struct out *o, const char *name, bool esc)
{
	_cleanup_free_ char *t = NULL;

	if (!esc) {
		put_quoted(o, name);
		return;
	}
	t = escaped(name, Q_TABLE);
	if (!t) {
		o->failed = true;
		return;
	}
	put_quoted(o, t);
}

/* The end of a sample's labels: escaped="true" where a value is the table's text. */
void labels_end(struct out *o, bool esc)
{
	if (esc)
		out_put(o, ",escaped=\"true\"} ", 17);
	else
		out_put(o, "} ", 2);
}

/*
 * The labels of row r after its cgroup label's opening quote, up to the closing quote of its
 * last: the path, then who the cgroup belongs to (the fields its path names, cmd/cgtop2/names/origin.c),
 * and with --compat=cadvisor a name as cAdvisor's for a container: its ID. All of them in the
 * table's text when esc is set or one of them is no plain name; returns whether they are.
 */
static bool put_row_labels(struct out *o, const struct cg_stat_row *r, bool cadv, bool esc)
{
	const char *val[CG_ORIGIN_N];
	struct cg_origin org;
	const struct cg_rt_info *rt;

	cg_origin_parse(r->path, &org);
	esc = esc || !name_plain(r->path);
	for (int k = 0; k < CG_ORIGIN_N; k++) {
		val[k] = cg_origin_field(&org, (enum cg_origin_key)k);
		esc = esc || !name_plain(val[k]);
	}
	/* the runtime's names (runtime.c): a hostile file's bytes are as any name's */
	rt = cg_rt_of_path(r->path, org.container_id);
	for (int k = 0; rt && k < CG_RT_N; k++)
		esc = esc || !name_plain(rt->v[k]);
	put_label_value(o, r->path, esc);
	for (int k = 0; k < CG_ORIGIN_N; k++) {
		if (!*val[k])
			continue;
		out_printf(o, "\",%s=\"", cg_origin_names[k]);
		put_label_value(o, val[k], esc);
	}
	/* cAdvisor's name: Docker's container name, else (containerd, CRI-O) the ID, as its own */
	for (int k = 0; rt && k < CG_RT_N; k++) {
		if (!rt->v[k][0] || (k == CG_RT_NAME && !cadv))
			continue;
		out_printf(o, "\",%s=\"", cg_rt_names[k]);
		put_label_value(o, rt->v[k], esc);
	}
	if (cadv && org.container_id[0] && !(rt && rt->v[CG_RT_NAME][0]))
		out_printf(o, "\",name=\"%s", org.container_id);
	return esc;
}

void labels_make(struct labels *l, const struct view *v, bool cadv)
{
	uint64_t x_have = 0;
	unsigned dev_have = 0;

	for (size_t i = 0; i < v->n; i++) {
		x_have |= v->rows[i]->x_have;
		for (size_t j = 0; j < v->rows[i]->n_iodevs; j++)
			dev_have |= v->rows[i]->iodevs[j].io.have;
	}
	*l = (struct labels){
		.text = { .fd = -1 }, .x_have = x_have, .dev_have = dev_have, .cadv = cadv
	};
	l->end = malloc((v->n ? v->n : 1) * sizeof(*l->end));
	l->esc = malloc((v->n ? v->n : 1) * sizeof(*l->esc));
	for (size_t i = 0; l->end && l->esc && i < v->n; i++) {
		l->esc[i] = put_row_labels(&l->text, v->rows[i], cadv, false);
		l->end[i] = l->text.len;
	}
	if (l->end && l->esc && !l->text.failed)
		return;
	free(l->end);
	free(l->esc);
	free(l->text.s);
	*l = (struct labels){ .x_have = x_have, .dev_have = dev_have, .cadv = cadv };
}

void labels_free(struct labels *l)
{
	free(l->end);
	free(l->esc);
	free(l->text.s);
}

bool labels_put(struct out *o, const struct labels *l, const struct view *v, size_t i,
		const char *own)
{
	bool esc = own && !name_plain(own);

	/* the row's own text unless the sample's name makes it the table's and the row's is not */
	if (l->end && l->esc[i] == (l->esc[i] || esc)) {
		size_t from = i ? l->end[i - 1] : 0;

		out_put(o, l->text.s + from, l->end[i] - from);
		return l->esc[i];
	}
	return put_row_labels(o, v->rows[i], l->cadv, esc);
}
