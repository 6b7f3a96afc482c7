/* SPDX-License-Identifier: MIT */
/*
 * Private to common/watch*.c: the watcher's state and its core (watch_core.c), which watch.c
 * (the tree, inotify, rescans), watch_files.c (the events files, v1 eventfds, what is sampled)
 * and watch_psi.c (PSI triggers) call; the core calls none of them.
 */
#ifndef CGKIT_WATCH_CORE_H
#define CGKIT_WATCH_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>

#include "base/hash.h"
#include "base/kfile.h"
#include "watch.h"

enum efile { EF_CGROUP, EF_MEMORY, EF_PIDS, EF_N };
#define EF_KEYS 4

/*
 * A node's inotify watches: its directory, its events files, and for the watched cgroup its
 * parent's directory (a removed cgroup directory's IN_DELETE_SELF waits until the dentry cache
 * lets it go, which for cgroupfs can be long: the parent's IN_DELETE is prompt).
 */
enum slot { S_DIR, S_EFILE0, S_PARENT = S_EFILE0 + EF_N, S_N };

struct mirror_sub;

struct whier {
	const struct cg_hier *h;
	bool v1_populated, v1_pids, memory_v1, cpu;
	struct wnode *top;
};

/* An fd on the epoll fd besides inotify: a v1 eventfd, or a PSI trigger's pressure file */
struct efd_slot {
	struct wnode *node;
	int fd; /* -1: a sampled trigger, or one the kernel dropped */
	enum { EFD_OOM, EFD_THRESHOLD, EFD_PSI } type;
	/* PSI: which trigger, the wake-ups not yet reported, when the last was (monotonic ns) */
	size_t trig;
	uint64_t wakes, last_ns;
};

struct wnode {
	char *path; /* hierarchy-relative: "" or "a/b" */
	struct whier *h;
	struct wnode *parent, *child, *sibling;
	int wd[S_N];
	bool have[EF_N];
	uint64_t ev[EF_N][EF_KEYS];
	bool populated; /* v1: as sampled */
	bool throttle; /* has cpu.stat nr_throttled */
	uint64_t nr_throttled, oom_kill;
	bool thr_v2, above;
	uint64_t threshold;
	struct efd_slot *oom, *thr;
	struct efd_slot **psi; /* one per trigger (cgroup2 only), NULL where none */
	/* the sampled counters' episodes: throttled, pids_max */
	struct episode {
		bool on;
		uint64_t count, total, last_ns;
	} ep[2];
	unsigned gen; /* the last rescan that found it */
	bool unwatched; /* said so (an unwatched event): once */
};

struct wslot {
	int wd;
	struct wnode *node;
	int slot;
	struct wslot *next;
};

struct cg_watch {
	const struct cg_layout *l;
	struct cg_watch_opts o;
	struct whier *hiers;
	size_t n_hiers;
	struct mirror_sub *msub; /* the watches (mirror/mirror.h) */
	int epfd;
	struct cg_pathmap nodes; /* (struct whier *, path) -> struct wnode * */
	struct wslot **wds;
	size_t wds_size, n_wds;
	bool sampled;
	uint64_t next_sample;
	size_t overflows;
	/* set once cg_watch_new is done: from then on a limit reached leaves a cgroup unwatched */
	bool started;
	size_t unwatched; /* cgroups found that could not be watched (wholly or in part) */
	size_t n_psi; /* trigger fds held */
	uint64_t psi_due; /* when a wake-up held back by its window is due (0: none) */
	/* what cg_watch_poll's epoll_wait took, for cg_watch_process (a trigger's is said once) */
	struct epoll_event ready[64];
	int n_ready;
	unsigned gen;
	/* the callback of the running call; stop: it asked not to be called again */
	cg_watch_cb cb;
	void *ud;
	int stop;
	struct cg_diag *d;
};

/* ---- watch_core.c ------------------------------------------------------------------------ */

/* A sampled counter's episode ends after this many samples without a rise. */
#define EPISODE_QUIET_SAMPLES 5

/* The tables of nodes and watches: made, and freed with what the watches still hold */
int wc_init(struct cg_watch *w);
void wc_fini(struct cg_watch *w);
struct wnode *wc_node_find(struct cg_watch *w, const struct whier *h, const char *path);
/* A node of h at path under parent (NULL: a top), in the tables; NULL without memory */
struct wnode *wc_node_new(struct cg_watch *w, struct whier *h, struct wnode *parent,
			  const char *path);
/* n, a leaf whose eventfds and triggers are closed, out of the tables and freed */
void wc_node_drop(struct cg_watch *w, struct wnode *n);
struct wslot *wc_wd_find(struct cg_watch *w, int wd);
void wc_wd_forget(struct cg_watch *w, int wd);
/* An inotify watch on n's directory (file NULL) or on one of its files, as n's slot */
int wc_add_watch(struct cg_watch *w, struct wnode *n, int slot, const char *file, uint32_t mask);
/* ev to the callback, as n's (unless its kind is not wanted or the callback said stop) */
void wc_emit(struct cg_watch *w, struct wnode *n, struct cg_watch_event *ev);
void wc_emit_simple(struct cg_watch *w, struct wnode *n, enum cg_watch_kind k,
		    enum cg_watch_source src);
/* n's episodes quiet since EPISODE_QUIET_SAMPLES samples: stopped */
void wc_episodes_end(struct cg_watch *w, struct wnode *n, uint64_t now);
/* A file of n's cgroup read into buf; its number (key NULL) or keyed value */
int wc_read_file(struct wnode *n, const char *name, char *buf, size_t size);
int wc_read_u64(struct wnode *n, const char *name, const char *key, uint64_t *ret);

#endif
