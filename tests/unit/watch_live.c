// SPDX-License-Identifier: MIT
/*
 * common/watch on the live unified hierarchy, in the sandbox: a rescan (what an inotify queue
 * overflow triggers) reports exactly what changed since the watcher last knew, and the queued
 * inotify events that follow it report none of that again.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "live.h"
#include "watch/watch.h"

static int ufd = -1;
static char sb[64];

static void on_signal(int sig)
{
	if (ufd >= 0 && sb[0])
		live_remove(ufd, sb);
	_exit(128 + sig);
}

struct seen {
	char log[4096];
};

static int record(const struct cg_watch_event *ev, void *userdata)
{
	struct seen *s = userdata;
	const char *base = strrchr(ev->path, '/');
	size_t n = strlen(s->log);

	snprintf(s->log + n, sizeof(s->log) - n, "%s%s %s", n ? "|" : "",
		 cg_watch_kind_name(ev->kind), base ? base + 1 : ev->path);
	return 0;
}

static void mk(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", sb, rel);
	if (mkdirat(ufd, p, 0755) < 0)
		perror(p);
}

static void rm(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", sb, rel);
	if (unlinkat(ufd, p, AT_REMOVEDIR) < 0)
		perror(p);
}

int main(void)
{
	struct cg_layout *l = NULL;
	struct cg_hier *u;
	struct cg_watch *w = NULL;
	struct cg_diag d = { 0 };
	struct seen s = { "" };
	struct cg_watch_opts o = { .kinds = 1u << CG_EV_CREATED | 1u << CG_EV_REMOVED,
				   .interval_ns = 1000000000 };
	int r;

	r = live_sandbox(&l, &u, &ufd, sb, sizeof(sb), on_signal);
	if (r)
		return r;
	o.path = sb;
	mk("a");
	mk("b");
	r = cg_watch_new(l, &o, &w, &d);
	CHECK_INT(r, 0);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", d.what, d.why);
		goto out;
	}
	CHECK_INT(cg_watch_cgroups(w) >= 3, 1);

	/* cg_watch_poll: a caller's fd ready is said in its revents, and leaves the epoll fd after */
	{
		int pp[2];
		struct pollfd p = { .events = POLLIN };

		CHECK_INT(pipe(pp), 0);
		p.fd = pp[0];
		CHECK_INT(cg_watch_poll(w, &p, 1, 0), 0);
		CHECK_INT(p.revents, 0);
		CHECK_INT(write(pp[1], "x", 1), 1);
		CHECK_INT(cg_watch_poll(w, &p, 1, 1000), 1);
		CHECK_INT(p.revents, POLLIN);
		/* still readable, but no longer the watcher's: nothing */
		CHECK_INT(cg_watch_poll(w, NULL, 0, 0), 0);
		close(pp[0]);
		close(pp[1]);
	}

	/* while the watcher reads nothing: one made (with a child), one removed */
	mk("c");
	mk("c/d");
	rm("a");
	CHECK_INT(cg_watch_rescan(w, record, &s, &d), 0);
	CHECK_STR(s.log, "created c|created d|removed a");

	/* the queue still holds their inotify events: nothing twice */
	s.log[0] = '\0';
	CHECK_INT(cg_watch_process(w, record, &s, &d), 0);
	CHECK_STR(s.log, "");

	/* and what happens after is heard as usual */
	rm("c/d");
	rm("b");
	CHECK_INT(cg_watch_process(w, record, &s, &d), 0);
	CHECK_STR(s.log, "removed d|removed b");

	/* a rescan with nothing changed says nothing */
	s.log[0] = '\0';
	CHECK_INT(cg_watch_rescan(w, record, &s, &d), 0);
	CHECK_STR(s.log, "");

	/* the watched cgroup itself removed: said, and the watcher says it is done */
	rm("c");
	CHECK_INT(cg_watch_process(w, record, &s, &d), 0);
	CHECK_STR(s.log, "removed c");
	s.log[0] = '\0';
	unlinkat(ufd, sb, AT_REMOVEDIR);
	/* the kernel says IN_DELETE_SELF once the directory's last reference goes */
	CHECK_INT(cg_watch_poll(w, NULL, 0, 5000), 1);
	CHECK_INT(cg_watch_process(w, record, &s, &d), 1);
	CHECK(strstr(s.log, "removed cgkit-test.") == s.log);
out:
	cg_watch_free(w);
	live_remove(ufd, sb);
	cg_layout_free(l);
	return CHECK_DONE();
}
