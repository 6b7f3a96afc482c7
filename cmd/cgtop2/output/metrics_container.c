// SPDX-License-Identifier: MIT
/*
 * The families of a container that are no cgroup file's statistic, beside metrics.c's table:
 * its network namespace's interfaces (cmd/cgtop2/names/netdev.c), in cgkit's names and
 * cAdvisor's, and under --compat=cadvisor the container_fs_* families cAdvisor derives from
 * the IO controller's per-device counters (io.stat, v1 blkio's io_service_bytes and
 * io_serviced), which cgkit's own names already have as cgroup_io_device_*.
 *
 * A namespace is written once, for the cgroup whose member started first: a pod's containers
 * share its sandbox's namespace, and cAdvisor writes it for the sandbox alone, so that a sum
 * by pod counts each byte once. The cgroup's first member (lowest pid) stands for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cleanup.h"
#include "base/parse.h"
#include "kfamilies.h"
#include "metrics_cache.h"
#include "metrics_container.h"
#include "names/netdev.h"

struct cfamily {
	const char *name[2]; /* cgkit's, cAdvisor's: without the counter's _total */
	const char *unit; /* OpenMetrics UNIT, or NULL */
	const char *help[2];
	int idx; /* enum cg_net_key, or CG_IO_* for an fs family */
};

static const struct cfamily net_families[] = {
	{ { "cgroup_network_receive_bytes", "container_network_receive_bytes" },
	  "bytes",
	  { "Bytes received by the interfaces of the cgroup's network namespace",
	    "Cumulative count of bytes received" },
	  CG_NET_RX_BYTES },
	{ { "cgroup_network_receive_packets", "container_network_receive_packets" },
	  NULL,
	  { "Packets received by the interfaces of the cgroup's network namespace",
	    "Cumulative count of packets received" },
	  CG_NET_RX_PACKETS },
	{ { "cgroup_network_receive_packets_dropped", "container_network_receive_packets_dropped" },
	  NULL,
	  { "Packets dropped while receiving",
	    "Cumulative count of packets dropped while receiving" },
	  CG_NET_RX_DROPPED },
	{ { "cgroup_network_receive_errors", "container_network_receive_errors" },
	  NULL,
	  { "Errors while receiving", "Cumulative count of errors encountered while receiving" },
	  CG_NET_RX_ERRORS },
	{ { "cgroup_network_transmit_bytes", "container_network_transmit_bytes" },
	  "bytes",
	  { "Bytes sent by the interfaces of the cgroup's network namespace",
	    "Cumulative count of bytes transmitted" },
	  CG_NET_TX_BYTES },
	{ { "cgroup_network_transmit_packets", "container_network_transmit_packets" },
	  NULL,
	  { "Packets sent by the interfaces of the cgroup's network namespace",
	    "Cumulative count of packets transmitted" },
	  CG_NET_TX_PACKETS },
	{ { "cgroup_network_transmit_packets_dropped",
	    "container_network_transmit_packets_dropped" },
	  NULL,
	  { "Packets dropped while sending",
	    "Cumulative count of packets dropped while transmitting" },
	  CG_NET_TX_DROPPED },
	{ { "cgroup_network_transmit_errors", "container_network_transmit_errors" },
	  NULL,
	  { "Errors while sending", "Cumulative count of errors encountered while transmitting" },
	  CG_NET_TX_ERRORS },
};

/* cAdvisor's (its metrics/prometheus.go): bytes from io_service_bytes, counts from io_serviced */
static const struct cfamily fs_families[] = {
	{ { NULL, "container_fs_reads_bytes" },
	  "bytes",
	  { NULL, "Cumulative count of bytes read" },
	  CG_IO_RBYTES },
	{ { NULL, "container_fs_reads" },
	  NULL,
	  { NULL, "Cumulative count of reads completed" },
	  CG_IO_RIOS },
	{ { NULL, "container_fs_writes_bytes" },
	  "bytes",
	  { NULL, "Cumulative count of bytes written" },
	  CG_IO_WBYTES },
	{ { NULL, "container_fs_writes" },
	  NULL,
	  { NULL, "Cumulative count of writes completed" },
	  CG_IO_WIOS },
};

/* cAdvisor leaves out the interfaces of these prefixes (its libcontainer handler's list) */
static bool cadvisor_ignores(const char *ifname)
{
	static const char *const prefixes[] = { "lo", "veth", "docker", "nerdctl" };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncasecmp(ifname, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* A counter family's metadata, as metrics.c writes its own. */
static void head(struct out *o, bool prom, const struct cfamily *f, bool cadv)
{
	const char *name = f->name[cadv], *help = f->help[cadv];

	if (prom) {
		out_printf(o, "# HELP %s_total %s.\n# TYPE %s_total counter\n", name, help, name);
		return;
	}
	out_printf(o, "# TYPE %s counter\n", name);
	if (f->unit)
		out_printf(o, "# UNIT %s %s\n", name, f->unit);
	out_printf(o, "# HELP %s %s.\n", name, help);
}

/* A sample: NAME_total{cgroup's labels,KEY="VALUE"} N; own names VALUE, or is NULL. */
static void sample(struct out *o, const char *name, bool cadv, const struct labels *l,
		   const struct view *v, size_t i, const char *key, const char *prefix,
		   const char *own, uint64_t value)
{
	char buf[CG_U64_LEN], *p = cg_format_u64(buf, value);
	bool esc;

	out_printf(o, "%s_total{%s=\"", name, cadv ? "id" : "cgroup");
	esc = labels_put(o, l, v, i, own);
	out_printf(o, "\",%s=\"%s", key, prefix);
	put_label_value(o, own ? own : "", esc);
	out_put(o, "\"", 1);
	labels_end(o, esc);
	/* cg_format_u64's digits end the buffer, with no NUL */
	out_put(o, p, (size_t)(buf + sizeof(buf) - p));
	out_put(o, "\n", 1);
	out_maybe_flush(o);
}

const struct cg_net_ns **metrics_net_owners(const struct view *v)
{
	_cleanup_free_ struct cg_net_member *m = calloc(v->n ? v->n : 1, sizeof(*m));
	_cleanup_free_ bool *in = calloc(v->n ? v->n : 1, sizeof(*in));
	const struct cg_net_ns **ns = calloc(v->n ? v->n : 1, sizeof(*ns));

	if (!m || !in || !ns) {
		free(ns);
		return NULL;
	}
	cg_net_refresh();
	for (size_t i = 0; i < v->n; i++) {
		const struct cg_stat_row *r = v->rows[i];

		/* nothing in its subtree: no member to ask */
		if ((r->have & CG_STAT_TASKS) && !r->tasks)
			continue;
		in[i] = cg_net_member(r->path, &m[i]) == 0;
	}
	for (size_t i = 0; i < v->n; i++) {
		bool first = in[i];

		for (size_t j = 0; first && j < v->n; j++)
			if (j != i && in[j] && m[j].ns == m[i].ns &&
			    (m[j].start < m[i].start || (m[j].start == m[i].start && j < i)))
				first = false;
		if (first)
			ns[i] = cg_net_counters(&m[i]);
	}
	return ns;
}

/* Row i's lines of network family fam (ns: the namespace the row writes, or NULL). */
static void net_lines(struct out *o, const struct cfamily *fam, bool cadv, const struct view *v,
		      const struct labels *l, size_t i, const struct cg_net_ns *ns)
{
	for (size_t k = 0; ns && k < ns->n; k++) {
		const struct cg_net_if *nif = &ns->ifs[k];

		if (cadv && cadvisor_ignores(nif->name))
			continue;
		sample(o, fam->name[cadv], cadv, l, v, i, "interface", "", nif->name,
		       nif->v[fam->idx]);
	}
}

/* Row i's lines of fs family fam. */
static void fs_lines(struct out *o, const struct cfamily *fam, const struct view *v,
		     const struct labels *l, size_t i)
{
	unsigned bit = 1u << fam->idx;

	for (size_t j = 0; j < v->rows[i]->n_iodevs; j++) {
		const struct cg_stat_iodev *d = &v->rows[i]->iodevs[j];
		char mm[32];

		if (!(d->io.have & bit))
			continue;
		/*
		 * cAdvisor's /dev/NAME; a device of no name is MAJ:MIN, where cAdvisor's "" would
		 * make two devices one series
		 */
		snprintf(mm, sizeof(mm), "%u:%u", d->io.major, d->io.minor);
		sample(o, fam->name[1], true, l, v, i, "device", d->name[0] ? "/dev/" : "",
		       d->name[0] ? d->name : mm, d->io.v[fam->idx]);
	}
}

/*
 * Row i's segments in c (metrics_container_row's), from k: its statistics' first (kfamilies.c),
 * then a network family each where it writes a namespace, then with cadv a fs family each.
 */
static size_t net_seg(const struct view *v, size_t i, size_t k)
{
	return k + metrics_kstats_segments(v->rows[i]);
}

static size_t fs_seg(const struct view *v, const struct cg_net_ns *const *ns, size_t i, size_t k)
{
	return net_seg(v, i, k) + (ns && ns[i] ? ARRAY_SIZE(net_families) : 0);
}

static void network(struct out *o, bool prom, bool cadv, const struct view *v,
		    const struct labels *l, const struct cg_net_ns *const *ns,
		    struct metrics_cache *c, size_t k)
{
	bool any = false;

	for (size_t i = 0; ns && i < v->n; i++)
		for (size_t j = 0; ns[i] && j < ns[i]->n; j++)
			any = any || !cadv || !cadvisor_ignores(ns[i]->ifs[j].name);
	if (!any)
		return;
	for (size_t f = 0; f < ARRAY_SIZE(net_families); f++) {
		const struct cfamily *fam = &net_families[f];

		head(o, prom, fam, cadv);
		for (size_t i = 0; i < v->n; i++)
			if (c && ns[i])
				metrics_cache_put(o, c, i, net_seg(v, i, k) + f);
			else if (!c)
				net_lines(o, fam, cadv, v, l, i, ns[i]);
	}
}

static void fs(struct out *o, bool prom, const struct view *v, const struct labels *l,
	       const struct cg_net_ns *const *ns, struct metrics_cache *c, size_t k)
{
	if (v->collect && !(v->collect & (1u << CG_COLL_IODEVICE)))
		return;
	for (size_t f = 0; f < ARRAY_SIZE(fs_families); f++) {
		const struct cfamily *fam = &fs_families[f];

		if (!(l->dev_have & (1u << fam->idx)))
			continue;
		head(o, prom, fam, true);
		for (size_t i = 0; i < v->n; i++)
			if (c)
				metrics_cache_put(o, c, i, fs_seg(v, ns, i, k) + f);
			else
				fs_lines(o, fam, v, l, i);
	}
}

void metrics_container(struct out *o, bool prom, const struct render_opts *a, const struct view *v,
		       const struct labels *l, const struct cg_net_ns *const *ns,
		       struct metrics_cache *c, size_t k)
{
	bool cadv = a->compat == COMPAT_CADVISOR;

	network(o, prom, cadv, v, l, ns, c, k);
	if (cadv)
		fs(o, prom, v, l, ns, c, k);
}

void metrics_container_row(struct out *t, struct metrics_cache *c, const struct render_opts *a,
			   const struct view *v, const struct labels *l,
			   const struct cg_net_ns *const *ns, size_t i)
{
	bool cadv = a->compat == COMPAT_CADVISOR;

	for (size_t f = 0; ns && ns[i] && f < ARRAY_SIZE(net_families); f++) {
		net_lines(t, &net_families[f], cadv, v, l, i, ns[i]);
		metrics_cache_cut(c, i);
	}
	for (size_t f = 0; cadv && f < ARRAY_SIZE(fs_families); f++) {
		fs_lines(t, &fs_families[f], v, l, i);
		metrics_cache_cut(c, i);
	}
}

size_t metrics_container_series(const struct render_opts *a, const struct cg_stat_row *r)
{
	bool cadv = a->compat == COMPAT_CADVISOR;
	struct cg_net_member m;
	const struct cg_net_ns *ns;
	size_t k = 0;

	for (size_t j = 0; cadv && j < r->n_iodevs; j++)
		for (size_t f = 0; f < ARRAY_SIZE(fs_families); f++)
			k += !!(r->iodevs[j].io.have & (1u << fs_families[f].idx));
	if (((r->have & CG_STAT_TASKS) && !r->tasks) || cg_net_member(r->path, &m) < 0 ||
	    !(ns = cg_net_counters(&m)))
		return k;
	for (size_t i = 0; i < ns->n; i++)
		k += (!cadv || !cadvisor_ignores(ns->ifs[i].name)) * ARRAY_SIZE(net_families);
	return k;
}
