// SPDX-License-Identifier: MIT
/*
 * dsleeper DIR PIDFILE SECONDS: a process in uninterruptible sleep (state D), which no freezer
 * can freeze, for tests of what a freeze that cannot complete does.
 *
 * In a mount namespace of its own (nothing is mounted where the host sees it), mount a FUSE
 * filesystem at DIR that no daemon ever answers, then fork two children that look up the same
 * name in it. The first waits in FUSE for the filesystem's INIT to be answered: killable, not
 * interruptible, which stops a v2 freeze (cgroup.freeze stops a task only on its way back to
 * user space) but which newer kernels let the v1 freezer freeze. The second waits for the
 * first's lookup of that name to finish (the dentry cache's d_wait_lookup), a plain
 * uninterruptible sleep that no freezer can freeze. Their pids go to PIDFILE once both are in
 * D; this process idles until SECONDS have passed or a signal ends it, and its exit closes
 * /dev/fuse, which aborts the connection: the lookups fail and the children exit too (or die
 * with this process: PR_SET_PDEATHSIG). Exit 77: no FUSE here (no /dev/fuse, or the mount is
 * refused), a reason on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* the command name may hold ") ": the state follows the last one */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

int main(int argc, char **argv)
{
	char opts[128], name[4200];
	struct stat st;
	pid_t parent = getpid(), child[2];
	int fd, seconds;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: dsleeper DIR PIDFILE SECONDS\n");
		return 2;
	}
	seconds = atoi(argv[3]);
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		fprintf(stderr, "dsleeper: no private mount namespace: %s\n", strerror(errno));
		return 77;
	}
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "dsleeper: /dev/fuse: %s\n", strerror(errno));
		return 77;
	}
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (mount("cgkit-dsleeper", argv[1], "fuse", MS_NOSUID | MS_NODEV, opts) < 0) {
		fprintf(stderr, "dsleeper: mount fuse on %s: %s\n", argv[1], strerror(errno));
		return 77;
	}
	for (int k = 0; k < 2; k++) {
		child[k] = fork();
		if (child[k] < 0) {
			perror("dsleeper: fork");
			return 1;
		}
		if (child[k] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			close(fd);
			snprintf(name, sizeof(name), "%s/x", argv[1]);
			(void)stat(name, &st);
			_exit(0);
		}
		/* the second must find the first's lookup in flight */
		for (int i = 0; task_state(child[k]) != 'D'; i++) {
			struct timespec ms = { 0, 10000000L };

			if (i == 500) {
				fprintf(stderr,
					"dsleeper: the child did not enter uninterruptible sleep\n");
				kill(child[0], SIGKILL);
				kill(child[k], SIGKILL);
				return 77;
			}
			nanosleep(&ms, NULL);
		}
	}
	f = fopen(argv[2], "we");
	if (!f || fprintf(f, "%d\n%d\n", (int)child[0], (int)child[1]) < 0 || fclose(f) != 0) {
		perror(argv[2]);
		kill(child[0], SIGKILL);
		kill(child[1], SIGKILL);
		return 1;
	}
	for (int i = 0; i < seconds * 10; i++) {
		struct timespec ms = { 0, 100000000L };

		nanosleep(&ms, NULL);
	}
	kill(child[0], SIGKILL);
	kill(child[1], SIGKILL);
	return 0;
}
