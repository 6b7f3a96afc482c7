/* SPDX-License-Identifier: MIT */
/*
 * cgtop2's one tree mirror: the one inotify instance (the only inotify_init1 of the tree), the
 * watches its subscribers add and drop as cgroups appear and vanish, and each subscriber's own
 * queue of what inotify said about its watches. The sampler (sampler/stats_tree.c) and the
 * event watcher (watch/, --events and --psi-trigger) are its subscribers.
 *
 * One inode watched by two subscribers is one kernel watch (one wd), its mask the union of
 * theirs (IN_MASK_ADD); each hears only the events of its own mask, IN_IGNORED and
 * IN_Q_OVERFLOW. The kernel watch goes when its last subscriber drops it. A subscriber reads
 * its queue when it likes (mirror_read): whoever read the inotify fd first has filed what the
 * others' watches got into their queues, so a waiter asks mirror_pending before it sleeps on
 * mirror_fd. Not thread-safe: one thread uses an instance and its subscribers.
 */
#ifndef CGTOP2_MIRROR_H
#define CGTOP2_MIRROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct mirror;
struct mirror_sub;

/* A new instance (inotify_init1, non-blocking, close-on-exec): 0, or -errno (EMFILE, ENFILE). */
int mirror_new(struct mirror **ret);
/* One more user of m (a subscriber holds one); m itself. */
struct mirror *mirror_ref(struct mirror *m);
/* One user fewer: the last closes the inotify fd. NULL is nothing. */
void mirror_unref(struct mirror *m);
/* The inotify fd, readable when the kernel has events for some subscriber (for poll, epoll). */
int mirror_fd(const struct mirror *m);

/*
 * A subscriber of m, with an empty queue (it holds a reference to m); m NULL: of a new mirror
 * of its own, which goes with it. 0, or -errno (mirror_new's, ENOMEM).
 */
int mirror_sub_new(struct mirror *m, struct mirror_sub **ret);
/* The subscriber, its queue and its watches gone (the last user of an inode's watch removes it). */
void mirror_sub_free(struct mirror_sub *s);
/* The instance it subscribes to. */
struct mirror *mirror_of(const struct mirror_sub *s);

/*
 * Watch path (absolute) for s with mask (IN_* events and flags; IN_MASK_ADD is the engine's):
 * the wd (one inode, one wd, whoever asks), or -errno as inotify_add_watch says it (ENOENT,
 * ENOTDIR, ENOSPC: out of watches, ENOMEM). A subscriber that watches one inode twice holds it
 * twice, and drops it twice.
 */
int mirror_watch(struct mirror_sub *s, const char *path, uint32_t mask);
/* s drops wd once; the kernel watch goes with its last holder. A wd s does not hold, or s
 * NULL: nothing. */
void mirror_unwatch(struct mirror_sub *s, int wd);

/*
 * What the kernel holds read and filed, then as many whole events of s's queue as fit in buf
 * (struct inotify_event, aligned as the kernel's): the bytes, 0 when none is queued, -errno when
 * reading inotify failed. A queue that outgrew its bound is dropped and reads as one
 * IN_Q_OVERFLOW (wd -1), as the kernel's own overflow.
 */
ssize_t mirror_read(struct mirror_sub *s, void *buf, size_t size);
/* Whether s has events queued (filed by another subscriber's read): then do not sleep on the fd. */
bool mirror_pending(const struct mirror_sub *s);

#endif
