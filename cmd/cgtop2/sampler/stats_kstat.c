// SPDX-License-Identifier: MIT
/*
 * The kernel's statistics beyond the collectors' own (issue 45): their names in every output
 * (cg_kstats, by the file vocabulary's CG_KV_STAT0 + i: base/kfile.c says which file and key
 * on each version), and their values taken from a file's text in one pass.
 */
#include <errno.h>
#include <stdint.h>

#include "base/cleanup.h"
#include "base/kparse.h"
#include "stats_kstat.h"
#include "stats_defs.h"
#include "stats_state.h"

/*
 * memory.stat's anon, file, kernel, shmem, slab, sock and file_mapped are not here: the memory
 * collector's keys (memory_anon_bytes ..., the exporter's and cAdvisor's families) say them, and
 * memory.stat zswap is memory.zswap.current's counter (memory_zswap_bytes). One value, one key.
 */
const struct cg_kstat cg_kstats[CG_K_N] = {
	[CG_KV_MS_KERNEL_STACK - CG_KV_STAT0] = { "memory_stat_kernel_stack_bytes",
						  "memory.stat kernel_stack", NULL, CG_COLL_MEMORY,
						  false, false },
	[CG_KV_MS_PAGETABLES - CG_KV_STAT0] = { "memory_stat_pagetables_bytes",
						"memory.stat pagetables", NULL, CG_COLL_MEMORY,
						false, false },
	[CG_KV_MS_SEC_PAGETABLES - CG_KV_STAT0] = { "memory_stat_secondary_pagetables_bytes",
						    "memory.stat sec_pagetables", NULL,
						    CG_COLL_MEMORY, false, false },
	[CG_KV_MS_PERCPU - CG_KV_STAT0] = { "memory_stat_percpu_bytes", "memory.stat percpu", NULL,
					    CG_COLL_MEMORY, false, false },
	[CG_KV_MS_VMALLOC - CG_KV_STAT0] = { "memory_stat_vmalloc_bytes", "memory.stat vmalloc",
					     NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_MS_ZSWAPPED - CG_KV_STAT0] = { "memory_stat_zswapped_bytes", "memory.stat zswapped",
					      NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_MS_FILE_DIRTY - CG_KV_STAT0] = { "memory_stat_file_dirty_bytes",
						"memory.stat file_dirty (v1: total_dirty)", NULL,
						CG_COLL_MEMORY, false, false },
	[CG_KV_MS_FILE_WRITEBACK -
		CG_KV_STAT0] = { "memory_stat_file_writeback_bytes",
				 "memory.stat file_writeback (v1: total_writeback)", NULL,
				 CG_COLL_MEMORY, false, false },
	[CG_KV_MS_SWAPCACHED - CG_KV_STAT0] = { "memory_stat_swapcached_bytes",
						"memory.stat swapcached", NULL, CG_COLL_MEMORY,
						false, false },
	[CG_KV_MS_ANON_THP - CG_KV_STAT0] = { "memory_stat_anon_thp_bytes",
					      "memory.stat anon_thp (v1: total_rss_huge)", NULL,
					      CG_COLL_MEMORY, false, false },
	[CG_KV_MS_FILE_THP - CG_KV_STAT0] = { "memory_stat_file_thp_bytes", "memory.stat file_thp",
					      NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_MS_SHMEM_THP - CG_KV_STAT0] = { "memory_stat_shmem_thp_bytes",
					       "memory.stat shmem_thp", NULL, CG_COLL_MEMORY, false,
					       false },
	[CG_KV_MS_INACTIVE_ANON -
		CG_KV_STAT0] = { "memory_stat_inactive_anon_bytes",
				 "memory.stat inactive_anon (v1: total_inactive_anon)", NULL,
				 CG_COLL_MEMORY, false, false },
	[CG_KV_MS_ACTIVE_ANON - CG_KV_STAT0] = { "memory_stat_active_anon_bytes",
						 "memory.stat active_anon (v1: total_active_anon)",
						 NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_MS_INACTIVE_FILE -
		CG_KV_STAT0] = { "memory_stat_inactive_file_bytes",
				 "memory.stat inactive_file (v1: total_inactive_file)",
				 "container_memory_total_inactive_file_bytes", CG_COLL_MEMORY,
				 false, false },
	[CG_KV_MS_ACTIVE_FILE - CG_KV_STAT0] = { "memory_stat_active_file_bytes",
						 "memory.stat active_file (v1: total_active_file)",
						 "container_memory_total_active_file_bytes",
						 CG_COLL_MEMORY, false, false },
	[CG_KV_MS_UNEVICTABLE - CG_KV_STAT0] = { "memory_stat_unevictable_bytes",
						 "memory.stat unevictable (v1: total_unevictable)",
						 NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_MS_SLAB_RECLAIMABLE - CG_KV_STAT0] = { "memory_stat_slab_reclaimable_bytes",
						      "memory.stat slab_reclaimable", NULL,
						      CG_COLL_MEMORY, false, false },
	[CG_KV_MS_SLAB_UNRECLAIMABLE - CG_KV_STAT0] = { "memory_stat_slab_unreclaimable_bytes",
							"memory.stat slab_unreclaimable", NULL,
							CG_COLL_MEMORY, false, false },
	[CG_KV_MS_WS_REFAULT_ANON - CG_KV_STAT0] = { "memory_stat_workingset_refault_anon",
						     "memory.stat workingset_refault_anon", NULL,
						     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_WS_REFAULT_FILE - CG_KV_STAT0] = { "memory_stat_workingset_refault_file",
						     "memory.stat workingset_refault_file", NULL,
						     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_WS_ACTIVATE_ANON - CG_KV_STAT0] = { "memory_stat_workingset_activate_anon",
						      "memory.stat workingset_activate_anon", NULL,
						      CG_COLL_MEMORY, true, false },
	[CG_KV_MS_WS_ACTIVATE_FILE - CG_KV_STAT0] = { "memory_stat_workingset_activate_file",
						      "memory.stat workingset_activate_file", NULL,
						      CG_COLL_MEMORY, true, false },
	[CG_KV_MS_WS_RESTORE_ANON - CG_KV_STAT0] = { "memory_stat_workingset_restore_anon",
						     "memory.stat workingset_restore_anon", NULL,
						     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_WS_RESTORE_FILE - CG_KV_STAT0] = { "memory_stat_workingset_restore_file",
						     "memory.stat workingset_restore_file", NULL,
						     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_WS_NODERECLAIM - CG_KV_STAT0] = { "memory_stat_workingset_nodereclaim",
						    "memory.stat workingset_nodereclaim", NULL,
						    CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGFAULT - CG_KV_STAT0] = { "memory_stat_pgfault",
					     "memory.stat pgfault (v1: total_pgfault)", NULL,
					     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGMAJFAULT - CG_KV_STAT0] = { "memory_stat_pgmajfault",
						"memory.stat pgmajfault (v1: total_pgmajfault)",
						NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGREFILL - CG_KV_STAT0] = { "memory_stat_pgrefill", "memory.stat pgrefill", NULL,
					      CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGSCAN - CG_KV_STAT0] = { "memory_stat_pgscan", "memory.stat pgscan", NULL,
					    CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGSTEAL - CG_KV_STAT0] = { "memory_stat_pgsteal", "memory.stat pgsteal", NULL,
					     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGSCAN_KSWAPD - CG_KV_STAT0] = { "memory_stat_pgscan_kswapd",
						   "memory.stat pgscan_kswapd", NULL,
						   CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGSCAN_DIRECT - CG_KV_STAT0] = { "memory_stat_pgscan_direct",
						   "memory.stat pgscan_direct", NULL,
						   CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGSTEAL_KSWAPD - CG_KV_STAT0] = { "memory_stat_pgsteal_kswapd",
						    "memory.stat pgsteal_kswapd", NULL,
						    CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGSTEAL_DIRECT - CG_KV_STAT0] = { "memory_stat_pgsteal_direct",
						    "memory.stat pgsteal_direct", NULL,
						    CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGACTIVATE - CG_KV_STAT0] = { "memory_stat_pgactivate", "memory.stat pgactivate",
						NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGDEACTIVATE - CG_KV_STAT0] = { "memory_stat_pgdeactivate",
						  "memory.stat pgdeactivate", NULL, CG_COLL_MEMORY,
						  true, false },
	[CG_KV_MS_PGLAZYFREE - CG_KV_STAT0] = { "memory_stat_pglazyfree", "memory.stat pglazyfree",
						NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGLAZYFREED - CG_KV_STAT0] = { "memory_stat_pglazyfreed",
						 "memory.stat pglazyfreed", NULL, CG_COLL_MEMORY,
						 true, false },
	[CG_KV_MS_ZSWPIN - CG_KV_STAT0] = { "memory_stat_zswpin", "memory.stat zswpin", NULL,
					    CG_COLL_MEMORY, true, false },
	[CG_KV_MS_ZSWPOUT - CG_KV_STAT0] = { "memory_stat_zswpout", "memory.stat zswpout", NULL,
					     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_ZSWPWB - CG_KV_STAT0] = { "memory_stat_zswpwb", "memory.stat zswpwb", NULL,
					    CG_COLL_MEMORY, true, false },
	[CG_KV_MS_THP_FAULT_ALLOC - CG_KV_STAT0] = { "memory_stat_thp_fault_alloc",
						     "memory.stat thp_fault_alloc", NULL,
						     CG_COLL_MEMORY, true, false },
	[CG_KV_MS_THP_COLLAPSE_ALLOC - CG_KV_STAT0] = { "memory_stat_thp_collapse_alloc",
							"memory.stat thp_collapse_alloc", NULL,
							CG_COLL_MEMORY, true, false },
	[CG_KV_MS_THP_SWPOUT - CG_KV_STAT0] = { "memory_stat_thp_swpout", "memory.stat thp_swpout",
						NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MS_THP_SWPOUT_FALLBACK - CG_KV_STAT0] = { "memory_stat_thp_swpout_fallback",
							 "memory.stat thp_swpout_fallback", NULL,
							 CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGPGIN - CG_KV_STAT0] = { "memory_stat_pgpgin", "v1 memory.stat total_pgpgin",
					    NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MS_PGPGOUT - CG_KV_STAT0] = { "memory_stat_pgpgout", "v1 memory.stat total_pgpgout",
					     NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEL_LOW -
		CG_KV_STAT0] = { "memory_local_low_events",
				 "memory.events.local low: of the cgroup itself, not its descendants",
				 NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEL_HIGH -
		CG_KV_STAT0] = { "memory_local_high_events",
				 "memory.events.local high: of the cgroup itself, not its descendants",
				 NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEL_MAX -
		CG_KV_STAT0] = { "memory_local_max_events",
				 "memory.events.local max: of the cgroup itself, not its descendants",
				 NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEL_OOM -
		CG_KV_STAT0] = { "memory_local_oom_events",
				 "memory.events.local oom: of the cgroup itself, not its descendants",
				 NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEL_OOM_KILL -
		CG_KV_STAT0] = { "memory_local_oom_kill_events",
				 "memory.events.local oom_kill: of the cgroup itself, not its descendants",
				 NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEL_OOM_GROUP_KILL -
		CG_KV_STAT0] = { "memory_local_oom_group_kill_events",
				 "memory.events.local oom_group_kill: of the cgroup itself, not its descendants",
				 NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MSE_HIGH - CG_KV_STAT0] = { "memory_swap_high_events", "memory.swap.events high",
					   NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MSE_MAX - CG_KV_STAT0] = { "memory_swap_max_events", "memory.swap.events max", NULL,
					  CG_COLL_MEMORY, true, false },
	[CG_KV_MSE_FAIL - CG_KV_STAT0] = { "memory_swap_fail_events", "memory.swap.events fail",
					   NULL, CG_COLL_MEMORY, true, false },
	[CG_KV_MEM_ZSWAP_CURRENT -
		CG_KV_STAT0] = { "memory_zswap_bytes",
				 "memory.zswap.current: compressed memory in zswap", NULL,
				 CG_COLL_MEMORY, false, false },
	[CG_KV_MEM_MEMSW_USAGE - CG_KV_STAT0] = { "memory_memsw_bytes",
						  "v1 memory.memsw.usage_in_bytes: memory and swap",
						  NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_MEM_MEMSW_PEAK -
		CG_KV_STAT0] = { "memory_memsw_peak_bytes",
				 "v1 memory.memsw.max_usage_in_bytes: the highest memory and swap",
				 NULL, CG_COLL_MEMORY, false, false },
	[CG_KV_NR_DESCENDANTS -
		CG_KV_STAT0] = { "descendants",
				 "cgroup.stat nr_descendants: live descendant cgroups", NULL,
				 CG_COLL_PIDS, false, false },
	[CG_KV_NR_DYING_DESCENDANTS -
		CG_KV_STAT0] = { "dying_descendants",
				 "cgroup.stat nr_dying_descendants: removed descendant cgroups the kernel still holds",
				 NULL, CG_COLL_PIDS, false, false },
	[CG_KV_CPU_LOCAL_THROTTLED_USEC -
		CG_KV_STAT0] = { "cpu_local_throttled_seconds",
				 "cpu.stat.local throttled_usec: time the cgroup was throttled by its ancestors' limits",
				 NULL, CG_COLL_CPU, true, true },
	[CG_KV_IO_COST_USAGE - CG_KV_STAT0] = { "io_cost_usage_seconds",
						"io.stat cost.usage, summed over devices (iocost)",
						NULL, CG_COLL_IO, true, true },
	[CG_KV_IO_COST_WAIT - CG_KV_STAT0] = { "io_cost_wait_seconds",
					       "io.stat cost.wait, summed over devices (iocost)",
					       NULL, CG_COLL_IO, true, true },
	[CG_KV_IO_COST_INDEBT -
		CG_KV_STAT0] = { "io_cost_indebt_seconds",
				 "io.stat cost.indebt, summed over devices (iocost)", NULL,
				 CG_COLL_IO, true, true },
	[CG_KV_IO_COST_INDELAY -
		CG_KV_STAT0] = { "io_cost_indelay_seconds",
				 "io.stat cost.indelay, summed over devices (iocost)", NULL,
				 CG_COLL_IO, true, true },
	[CG_KV_IRQ_FULL_USEC - CG_KV_STAT0] = { "pressure_irq_full_seconds",
						"irq.pressure full total: time lost to interrupts",
						NULL, CG_COLL_PSI, true, true },
	[CG_KV_PIDS_PEAK_STAT - CG_KV_STAT0] = { "pids_peak", "pids.peak: the most tasks at once",
						 NULL, CG_COLL_PIDS, false, false },
	[CG_KV_PIDS_EVL_MAX -
		CG_KV_STAT0] = { "pids_local_max_events",
				 "pids.events.local max: forks refused by the cgroup's own limit",
				 NULL, CG_COLL_PIDS, true, false },
	[CG_KV_MISC_SEV - CG_KV_STAT0] = { "misc_sev", "misc.current sev: SEV ASIDs in use", NULL,
					   CG_COLL_PIDS, false, false },
	[CG_KV_MISC_SEV_ES - CG_KV_STAT0] = { "misc_sev_es",
					      "misc.current sev_es: SEV-ES ASIDs in use", NULL,
					      CG_COLL_PIDS, false, false },
	[CG_KV_MISC_TDX - CG_KV_STAT0] = { "misc_tdx", "misc.current tdx: TDX guest keys in use",
					   NULL, CG_COLL_PIDS, false, false },
	[CG_KV_MISC_SEV_EV_MAX - CG_KV_STAT0] = { "misc_sev_max_events", "misc.events sev.max",
						  NULL, CG_COLL_PIDS, true, false },
	[CG_KV_MISC_SEV_ES_EV_MAX - CG_KV_STAT0] = { "misc_sev_es_max_events",
						     "misc.events sev_es.max", NULL, CG_COLL_PIDS,
						     true, false },
	[CG_KV_MISC_TDX_EV_MAX - CG_KV_STAT0] = { "misc_tdx_max_events", "misc.events tdx.max",
						  NULL, CG_COLL_PIDS, true, false },
	[CG_KV_HUGETLB_2MB - CG_KV_STAT0] = { "hugetlb_2mb_bytes", "hugetlb.2MB.current", NULL,
					      CG_COLL_MEMORY, false, false },
	[CG_KV_HUGETLB_2MB_EV_MAX -
		CG_KV_STAT0] = { "hugetlb_2mb_max_events",
				 "hugetlb.2MB.events max: allocations refused by the limit", NULL,
				 CG_COLL_MEMORY, true, false },
	[CG_KV_HUGETLB_1GB - CG_KV_STAT0] = { "hugetlb_1gb_bytes", "hugetlb.1GB.current", NULL,
					      CG_COLL_MEMORY, false, false },
	[CG_KV_HUGETLB_1GB_EV_MAX -
		CG_KV_STAT0] = { "hugetlb_1gb_max_events",
				 "hugetlb.1GB.events max: allocations refused by the limit", NULL,
				 CG_COLL_MEMORY, true, false },
};

/* The statistics a kind's file has, per kind, with their keys in one cg_kparse_keys call. */
struct kind_keys {
	uint8_t n, n_keyed;
	uint8_t idx[64]; /* the keyed first, then the rest (one value, summed fields) */
	const char *keys[64];
};
static struct kind_keys by_kind[F_N];
static bool by_kind_made;

static void by_kind_make(void)
{
	for (int k = 0; k < F_N; k++) {
		struct kind_keys *b = &by_kind[k];
		int version = st_defs[k].role == R_UNIFIED ? 2 : 1;

		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < CG_K_N && b->n < 64; i++) {
				const struct cg_ksrc *src = cg_kv_src(CG_KV_STAT0 + i, version);
				bool keyed;

				if (st_defs[k].role == R_PROC || !src ||
				    src->file != st_defs[k].file)
					continue;
				keyed = src->key && src->fmt == CG_KFMT_KEYED;
				if (keyed != !pass)
					continue;
				if (keyed)
					b->keys[b->n_keyed++] = src->key;
				b->idx[b->n++] = (uint8_t)i;
			}
	}
	by_kind_made = true;
}

bool st_kstat_kind(int k)
{
	if (!by_kind_made)
		by_kind_make();
	return by_kind[k].n > 0;
}

/* A value that is one number or "max" (a limit-like file), or a sum of fields. */
static int one_value(const struct cg_ksrc *src, const char *text, uint64_t *ret)
{
	if (!src->key)
		return cg_kparse_limit(text, ret);
	return cg_kparse_field_sum(text, src->key, ret);
}

int st_kstat_from(struct cg_stats *s, struct node *n, int k, const char *text)
{
	const struct kind_keys *b;
	uint64_t v[64], found = 0;
	int version = st_defs[k].role == R_UNIFIED ? 2 : 1, bad = 0;

	if (!st_kstat_kind(k))
		return 0;
	b = &by_kind[k];
	if (b->n_keyed && cg_kparse_keys(text, b->keys, b->n_keyed, v, &found) < 0)
		bad = -EINVAL;
	for (size_t j = 0; j < b->n; j++) {
		int i = b->idx[j];
		uint64_t x;
		int r;

		if (cg_kstat_known(&n->row, i))
			continue;
		if (j < b->n_keyed) {
			if ((found & (1ull << j)) && cg_kstat_set(&n->row, i, v[j]) < 0)
				bad = -ENOMEM;
			continue;
		}
		r = one_value(cg_kv_src(CG_KV_STAT0 + i, version), text, &x);
		if (r == 0)
			r = cg_kstat_set(&n->row, i, x);
		if (r < 0 && r != -ENOENT)
			bad = r;
	}
	(void)s;
	return bad;
}
