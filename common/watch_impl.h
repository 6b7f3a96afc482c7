/* SPDX-License-Identifier: MIT */
/*
 * Private to common/watch*.c: the watcher's state. watch.c: the tree, inotify, rescans;
 * watch_files.c: the events files, v1 eventfds and what is sampled; watch_psi.c: PSI triggers.
 */
#ifndef CGKIT_WATCH_IMPL_H
#define CGKIT_WATCH_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>

#include "watch.h"

enum efile { EF_CGROUP, EF_MEMORY, EF_PIDS, EF_N };
#define EF_KEYS 4

extern const char *const efile_names[EF_N];

/*
 * A node's inotify watches: its directory, its events files, and for the watched cgroup its
 * parent's directory (a removed cgroup directory's IN_DELETE_SELF waits until the dentry cache
 * lets it go, which for cgroupfs can be long: the parent's IN_DELETE is prompt).
 */
enum slot { S_DIR, S_EFILE0, S_PARENT = S_EFILE0 + EF_N, S_N };

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
	struct wnode *parent, *child, *sibling, *hnext;
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
	int ifd, epfd;
	struct wnode **hash;
	size_t hash_size, n_nodes;
	struct wslot **wds;
	size_t wds_size, n_wds;
	bool sampled;
	uint64_t next_sample;
	size_t overflows;
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

/* ---- watch.c ------------------------------------------------------------------------------ */

/* A sampled counter's episode ends after this many samples without a rise. */
#define EPISODE_QUIET_SAMPLES 5

/* ev to the callback, as n's (unless its kind is not wanted or the callback said stop) */
void emit(struct cg_watch *w, struct wnode *n, struct cg_watch_event *ev);
void emit_simple(struct cg_watch *w, struct wnode *n, enum cg_watch_kind k,
		 enum cg_watch_source src);
/* An inotify watch on n's directory (file NULL) or on one of its files, as n's slot */
int add_watch(struct cg_watch *w, struct wnode *n, int slot, const char *file, uint32_t mask);

/* ---- watch_files.c ------------------------------------------------------------------------ */

int efile_parse(enum efile f, const char *text, uint64_t v[EF_KEYS]);
int read_file(struct wnode *n, const char *name, char *buf, size_t size);
int read_u64(struct wnode *n, const char *name, const char *key, uint64_t *ret);
/* Re-read an events file and report what changed since the values known. */
void efile_update(struct cg_watch *w, struct wnode *n, enum efile f, enum cg_watch_source src);
void threshold_check(struct cg_watch *w, struct wnode *n, uint64_t usage, uint64_t count,
		     enum cg_watch_source src);
/* Everything of n but its directory watch: see watch_files.c */
int node_arm(struct cg_watch *w, struct wnode *n, bool fresh, enum cg_watch_source src);
void efd_free(struct efd_slot *s);
/* A v1 eventfd fired */
void on_eventfd(struct cg_watch *w, struct efd_slot *s);
/* v1 membership as it is now: news unless quiet (the baseline) */
bool sample_populated(struct cg_watch *w, struct wnode *n, bool quiet);
/* Read what is sampled, everywhere */
void sample(struct cg_watch *w);
/* n's episodes quiet since EPISODE_QUIET_SAMPLES samples: stopped */
void episodes_end(struct cg_watch *w, struct wnode *n, uint64_t now);

/* ---- watch_psi.c ------------------------------------------------------------------------- */

/* n's PSI triggers (cgroup2): each registered on its own fd; a refusal fills w->d */
int psi_arm(struct cg_watch *w, struct wnode *n);
void psi_free(struct cg_watch *w, struct wnode *n);
/* A trigger's fd polled with events (EPOLLPRI: a wake-up; EPOLLERR: the cgroup went) */
void on_psi(struct cg_watch *w, struct efd_slot *s, uint32_t events);
/* The sampled triggers (sample), and the wake-ups whose window has passed */
void psi_tick(struct cg_watch *w, bool sample);

#endif
