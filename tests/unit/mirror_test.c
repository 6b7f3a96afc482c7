// SPDX-License-Identifier: MIT
/*
 * cmd/cgtop2/mirror: two subscribers of one inotify instance on a plain directory. One inode
 * is one kernel watch whoever holds it; each subscriber hears its own mask from its own queue,
 * whoever read the fd; the watch stays while one holds it and goes with the last; a removed
 * directory's IN_IGNORED reaches its holders and ends their holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "mirror/mirror.h"

static char top[64];

/* What s's queue holds now: the masks of its events (IN_ISDIR off) and names, "CREATE:a ..." */
static void heard(struct mirror_sub *s, char *out, size_t size)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t len;
	size_t n = 0;

	out[0] = '\0';
	while ((len = mirror_read(s, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			uint32_t m = ev->mask & ~IN_ISDIR;
			const char *what = m == IN_CREATE	 ? "CREATE"
					   : m == IN_DELETE	 ? "DELETE"
					   : m == IN_DELETE_SELF ? "DELETE_SELF"
					   : m == IN_IGNORED	 ? "IGNORED"
					   : m == IN_Q_OVERFLOW	 ? "OVERFLOW"
								 : "OTHER";

			n += (size_t)snprintf(out + n, size - n, "%s%s%s%s", n ? " " : "", what,
					      ev->len ? ":" : "", ev->len ? ev->name : "");
			p += sizeof(*ev) + ev->len;
		}
	CHECK(len == 0);
}

static void at(const char *op, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", top, name);
	CHECK((!strcmp(op, "mkdir") ? mkdir(path, 0700) : rmdir(path)) == 0);
}

/* Whether the kernel has anything for the instance (without reading it). */
static bool fd_ready(struct mirror *m)
{
	struct pollfd p = { .fd = mirror_fd(m), .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

int main(void)
{
	struct mirror *m = NULL;
	struct mirror_sub *a = NULL, *b = NULL;
	char got[512], sub[128];
	int wa, wb;

	snprintf(top, sizeof(top), "/tmp/mirror_test.XXXXXX");
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 77;
	}
	if (mirror_new(&m) < 0) {
		perror("inotify");
		rmdir(top);
		return 77;
	}
	CHECK(fcntl(mirror_fd(m), F_GETFD) & FD_CLOEXEC);
	CHECK(mirror_sub_new(m, &a) == 0);
	CHECK(mirror_sub_new(m, &b) == 0);
	CHECK(mirror_of(a) == m);

	/* one inode, one wd; a hears creations, b removals */
	wa = mirror_watch(a, top, IN_CREATE | IN_ONLYDIR);
	wb = mirror_watch(b, top, IN_DELETE | IN_ONLYDIR);
	CHECK(wa >= 0);
	CHECK_INT(wb, wa);
	at("mkdir", "x");
	at("rmdir", "x");
	/* a's read takes the fd's events and files b's into b's queue */
	heard(a, got, sizeof(got));
	CHECK_STR(got, "CREATE:x");
	CHECK(mirror_pending(b));
	CHECK(!fd_ready(m));
	heard(b, got, sizeof(got));
	CHECK_STR(got, "DELETE:x");
	CHECK(!mirror_pending(b));

	/* a lets go: b still hears its removals; a nothing */
	mirror_unwatch(a, wa);
	at("mkdir", "y");
	at("rmdir", "y");
	heard(a, got, sizeof(got));
	CHECK_STR(got, "");
	heard(b, got, sizeof(got));
	CHECK_STR(got, "DELETE:y");

	/* a watch taken twice is held twice: one unwatch leaves it */
	CHECK_INT(mirror_watch(b, top, IN_DELETE | IN_ONLYDIR), wb);
	mirror_unwatch(b, wb);
	at("mkdir", "z");
	at("rmdir", "z");
	heard(b, got, sizeof(got));
	CHECK_STR(got, "DELETE:z");

	/* the last holder lets go: the kernel's watch goes (IN_IGNORED, heard by nobody) */
	mirror_unwatch(b, wb);
	at("mkdir", "w");
	at("rmdir", "w");
	heard(a, got, sizeof(got));
	heard(b, got + 256, sizeof(got) - 256);
	CHECK_STR(got, "");
	CHECK_STR(got + 256, "");
	CHECK(!fd_ready(m));

	/* a watched directory removed: both holders hear it go, and hold nothing after */
	at("mkdir", "d");
	snprintf(sub, sizeof(sub), "%s/d", top);
	wa = mirror_watch(a, sub, IN_DELETE_SELF | IN_ONLYDIR);
	wb = mirror_watch(b, sub, IN_CREATE | IN_ONLYDIR);
	CHECK(wa >= 0);
	CHECK_INT(wb, wa);
	at("rmdir", "d");
	heard(b, got, sizeof(got));
	CHECK_STR(got, "IGNORED");
	heard(a, got, sizeof(got));
	CHECK_STR(got, "DELETE_SELF IGNORED");
	/* nothing left to drop: no error, no effect */
	mirror_unwatch(a, wa);
	mirror_unwatch(b, wb);

	/* a subscriber freed takes its watches with it; the other's stay */
	CHECK(mirror_watch(a, top, IN_CREATE | IN_ONLYDIR) >= 0);
	CHECK(mirror_watch(b, top, IN_CREATE | IN_ONLYDIR) >= 0);
	mirror_sub_free(a);
	at("mkdir", "v");
	heard(b, got, sizeof(got));
	CHECK_STR(got, "CREATE:v");
	at("rmdir", "v");

	/* a subscriber of no mirror gets one of its own, which goes with it */
	CHECK(mirror_sub_new(NULL, &a) == 0);
	CHECK(a && mirror_of(a) != m);
	mirror_sub_free(a);

	mirror_sub_free(b);
	mirror_unref(m);
	rmdir(top);
	return CHECK_DONE();
}
