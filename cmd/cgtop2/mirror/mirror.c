// SPDX-License-Identifier: MIT
/*
 * The one inotify instance of cgtop2 (mirror.h): watches held per subscriber, the kernel's
 * events filed into each subscriber's queue by wd.
 */
#include "mirror.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

/*
 * A queue a subscriber does not read grows to this, then reads as an overflow (a rescan): about
 * what the kernel's own queue holds by default (max_queued_events 16384, an event and a short
 * name in 64 bytes), so the mirror keeps no more than inotify would have. 8 MiB made
 * cgtop2_events' storm of 10,000 cgroups grow the watcher by more than its 8 MiB budget.
 */
#define QUEUE_MAX (1u << 20)

/* One subscriber's hold on one wd: its mask and how many times it watched the inode. */
struct hold {
	int wd;
	uint32_t mask;
	unsigned count;
	struct mirror_sub *sub;
	struct hold *next;
};

struct mirror {
	int fd;
	unsigned refs;
	struct hold **tab; /* by wd, chained; a power of two */
	size_t tab_size, n;
	struct mirror_sub *subs;
};

struct mirror_sub {
	struct mirror *m;
	struct mirror_sub *next;
	char *q; /* whole struct inotify_event records, q[off..len) unread */
	size_t off, len, cap;
	bool overflow; /* the queue was dropped: the next read starts with IN_Q_OVERFLOW */
};

int mirror_new(struct mirror **ret)
{
	struct mirror *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->tab_size = 64;
	m->tab = calloc(m->tab_size, sizeof(*m->tab));
	if (!m->tab) {
		free(m);
		return -ENOMEM;
	}
	m->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (m->fd < 0) {
		int e = errno;

		free(m->tab);
		free(m);
		return -e;
	}
	m->refs = 1;
	*ret = m;
	return 0;
}

struct mirror *mirror_ref(struct mirror *m)
{
	m->refs++;
	return m;
}

void mirror_unref(struct mirror *m)
{
	if (!m || --m->refs)
		return;
	/* closing the fd drops every watch at once; the subscribers are gone by now */
	close(m->fd);
	for (size_t i = 0; i < m->tab_size; i++)
		for (struct hold *h = m->tab[i], *next; h; h = next) {
			next = h->next;
			free(h);
		}
	free(m->tab);
	free(m);
}

int mirror_fd(const struct mirror *m)
{
	return m->fd;
}

struct mirror *mirror_of(const struct mirror_sub *s)
{
	return s->m;
}

int mirror_sub_new(struct mirror *m, struct mirror_sub **ret)
{
	struct mirror_sub *s;
	struct mirror *own = NULL;

	if (!m) {
		int r = mirror_new(&own);

		if (r < 0)
			return r;
		m = own;
	}
	s = calloc(1, sizeof(*s));
	if (s) {
		s->m = mirror_ref(m);
		s->next = m->subs;
		m->subs = s;
		*ret = s;
	}
	/* the subscription holds the mirror: one of its own goes with it */
	mirror_unref(own);
	return s ? 0 : -ENOMEM;
}

static struct hold **bucket(const struct mirror *m, int wd)
{
	return &m->tab[(size_t)wd & (m->tab_size - 1)];
}

static bool wd_held(const struct mirror *m, int wd)
{
	for (const struct hold *h = *bucket(m, wd); h; h = h->next)
		if (h->wd == wd)
			return true;
	return false;
}

/* *p's hold unlinked and freed; the kernel watch removed when nobody holds its wd any more */
static void hold_drop(struct mirror *m, struct hold **p, bool rm)
{
	struct hold *h = *p;
	int wd = h->wd;

	*p = h->next;
	free(h);
	m->n--;
	if (rm && !wd_held(m, wd))
		inotify_rm_watch(m->fd, wd);
}

void mirror_sub_free(struct mirror_sub *s)
{
	struct mirror *m;

	if (!s)
		return;
	m = s->m;
	for (size_t i = 0; i < m->tab_size; i++)
		for (struct hold **p = &m->tab[i]; *p;)
			if ((*p)->sub == s)
				hold_drop(m, p, true);
			else
				p = &(*p)->next;
	for (struct mirror_sub **p = &m->subs; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	free(s->q);
	free(s);
	mirror_unref(m);
}

static int tab_grow(struct mirror *m)
{
	size_t size = m->tab_size * 2;
	struct hold **tab;

	if (m->n < m->tab_size)
		return 0;
	tab = calloc(size, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < m->tab_size; i++)
		for (struct hold *h = m->tab[i], *next; h; h = next) {
			next = h->next;
			h->next = tab[(size_t)h->wd & (size - 1)];
			tab[(size_t)h->wd & (size - 1)] = h;
		}
	free(m->tab);
	m->tab = tab;
	m->tab_size = size;
	return 0;
}

int mirror_watch(struct mirror_sub *s, const char *path, uint32_t mask)
{
	struct mirror *m = s->m;
	struct hold *h;
	int wd;

	if (tab_grow(m) < 0)
		return -ENOMEM;
	/* another subscriber's mask on the inode stays: each hears its own through the filing */
	wd = inotify_add_watch(m->fd, path, mask | IN_MASK_ADD);
	if (wd < 0)
		return -errno;
	for (h = *bucket(m, wd); h; h = h->next)
		if (h->wd == wd && h->sub == s) {
			h->mask |= mask;
			h->count++;
			return wd;
		}
	h = malloc(sizeof(*h));
	if (!h) {
		if (!wd_held(m, wd))
			inotify_rm_watch(m->fd, wd);
		return -ENOMEM;
	}
	*h = (struct hold){ .wd = wd, .mask = mask, .count = 1, .sub = s, .next = *bucket(m, wd) };
	*bucket(m, wd) = h;
	m->n++;
	return wd;
}

void mirror_unwatch(struct mirror_sub *s, int wd)
{
	struct mirror *m;

	if (!s || wd < 0)
		return;
	m = s->m;
	for (struct hold **p = bucket(m, wd); *p; p = &(*p)->next)
		if ((*p)->wd == wd && (*p)->sub == s) {
			if (!--(*p)->count)
				hold_drop(m, p, true);
			return;
		}
}

/* ev appended to s's queue (or the queue dropped for an overflow, past its bound) */
static void file_event(struct mirror_sub *s, const struct inotify_event *ev)
{
	size_t len = sizeof(*ev) + ev->len;

	if (s->overflow)
		return;
	if (s->off && s->off == s->len)
		s->off = s->len = 0;
	if (s->len + len > s->cap) {
		size_t cap = s->cap ? s->cap : 16384;
		char *q;

		if (s->off) {
			memmove(s->q, s->q + s->off, s->len - s->off);
			s->len -= s->off;
			s->off = 0;
		}
		while (cap < s->len + len)
			cap *= 2;
		if (cap > QUEUE_MAX || !(q = cap > s->cap ? realloc(s->q, cap) : s->q)) {
			s->off = s->len = 0;
			s->overflow = true;
			return;
		}
		s->q = q;
		s->cap = cap;
	}
	memcpy(s->q + s->len, ev, len);
	s->len += len;
}

/* Everything the kernel holds, filed into the queues of the subscribers it is for */
static int pump(struct mirror *m)
{
	char buf[65536] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		ssize_t len = read(m->fd, buf, sizeof(buf));

		if (len < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 0 : -errno;
		}
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				for (struct mirror_sub *s = m->subs; s; s = s->next)
					file_event(s, ev);
				continue;
			}
			for (const struct hold *h = *bucket(m, ev->wd); h; h = h->next)
				if (h->wd == ev->wd &&
				    (ev->mask & (h->mask | IN_IGNORED | IN_UNMOUNT) & ~IN_ISDIR))
					file_event(h->sub, ev);
			/* the kernel dropped the watch (its inode went): nobody holds it now */
			if (!(ev->mask & IN_IGNORED))
				continue;
			for (struct hold **q = bucket(m, ev->wd); *q;) {
				if ((*q)->wd == ev->wd)
					hold_drop(m, q, false);
				else
					q = &(*q)->next;
			}
		}
	}
}

ssize_t mirror_read(struct mirror_sub *s, void *buf, size_t size)
{
	size_t n = 0;
	int r = pump(s->m);

	if (r < 0 && s->off == s->len && !s->overflow)
		return r;
	if (s->overflow && size >= sizeof(struct inotify_event)) {
		struct inotify_event ov = { .wd = -1, .mask = IN_Q_OVERFLOW };

		memcpy(buf, &ov, sizeof(ov));
		n = sizeof(ov);
		s->overflow = false;
	}
	while (s->off < s->len) {
		const struct inotify_event *ev = (const struct inotify_event *)(s->q + s->off);
		size_t len = sizeof(*ev) + ev->len;

		if (n + len > size)
			break;
		memcpy((char *)buf + n, ev, len);
		n += len;
		s->off += len;
	}
	return (ssize_t)n;
}

bool mirror_pending(const struct mirror_sub *s)
{
	return s->overflow || s->off < s->len;
}
