// SPDX-License-Identifier: MIT
/*
 * mig_forker MODE ...: processes for the cgmigrate suite and benchmark.
 *   sleepers N THREADS PIDFILE  N processes of THREADS threads each (1: single-threaded) that
 *                               idle; their pids go to PIDFILE, then mig_forker idles too.
 *   storm KEEP LIFE_MS          fork constantly: keep KEEP children alive, each exiting after
 *                               LIFE_MS, replaced at once (a fork storm a drain must outrun).
 *   zombie PIDFILE              one child that exits at once and is never reaped: its pid is
 *                               "gone" though it is still listed in /proc.
 *   dying N MS PIDFILE          N children exiting one after another over MS milliseconds,
 *                               never reaped: no stranger can take over their pids.
 *   reattach PID PROCSFILE      write PID into PROCSFILE (a cgroup.procs) again and again: a
 *                               source that some other mover keeps refilling.
 * Everything is bounded in time: a test must not leave processes behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LIFETIME_S 600

static void *idle(void *p)
{
	for (;;)
		pause();
	return p;
}

/* In a child: die with the parent, so that no test or benchmark leaves orphans behind. */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
}

static void idle_for_life(void)
{
	for (int i = 0; i < LIFETIME_S; i++)
		sleep(1);
	_exit(0);
}

static void write_pids(const char *path, const pid_t *v, int n)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		exit(1);
	for (int i = 0; i < n; i++)
		fprintf(f, "%d\n", (int)v[i]);
	fclose(f);
	rename(tmp, path);
}

static int sleepers(int n, int threads, const char *path)
{
	pid_t *v = calloc((size_t)n, sizeof(pid_t)), self = getpid();

	for (int i = 0; i < n; i++) {
		v[i] = fork();
		if (v[i] < 0) {
			perror("fork");
			return 1;
		}
		if (v[i] == 0) {
			pthread_attr_t a;

			die_with_parent(self);
			pthread_attr_init(&a);
			pthread_attr_setstacksize(&a, 65536);
			for (int k = 1; k < threads; k++) {
				pthread_t t;

				pthread_create(&t, &a, idle, NULL);
			}
			idle_for_life();
		}
	}
	write_pids(path, v, n);
	/* the children are ours to reap when the test kills them */
	signal(SIGCHLD, SIG_IGN);
	idle_for_life();
	return 0;
}

static int storm(int keep, int life_ms)
{
	struct timespec life = { life_ms / 1000, (long)(life_ms % 1000) * 1000000L };
	time_t end = time(NULL) + LIFETIME_S;
	pid_t self = getpid();
	int alive = 0;

	while (time(NULL) < end) {
		while (alive < keep) {
			pid_t p = fork();

			if (p == 0) {
				die_with_parent(self);
				nanosleep(&life, NULL);
				_exit(0);
			}
			if (p > 0)
				alive++;
			else
				break;
		}
		if (wait(NULL) > 0)
			alive--;
	}
	return 0;
}

static int dying(int n, int ms, const char *path)
{
	pid_t *v = calloc((size_t)n, sizeof(pid_t));

	for (int i = 0; i < n; i++) {
		v[i] = fork();
		if (v[i] == 0) {
			long ns = (long)ms * 1000000L * i / n;
			struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

			/* they start dying once the pid file is there */
			usleep(20000);
			nanosleep(&ts, NULL);
			_exit(0);
		}
	}
	write_pids(path, v, n);
	idle_for_life();
	return 0;
}

static int reattach(const char *pid, const char *procs)
{
	int fd = open(procs, O_WRONLY | O_CLOEXEC);
	time_t end = time(NULL) + 60;

	if (fd < 0) {
		perror(procs);
		return 1;
	}
	while (time(NULL) < end) {
		if (write(fd, pid, strlen(pid)) < 0 && errno == ESRCH)
			return 0;
		sched_yield();
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "sleepers"))
		return sleepers(atoi(argv[2]), atoi(argv[3]), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "storm"))
		return storm(atoi(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "zombie")) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		write_pids(argv[2], &p, 1);
		idle_for_life();
	}
	if (argc == 4 && !strcmp(argv[1], "reattach"))
		return reattach(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "dying"))
		return dying(atoi(argv[2]), atoi(argv[3]), argv[4]);
	fprintf(stderr, "usage: mig_forker sleepers N THREADS PIDFILE | storm KEEP LIFE_MS | "
			"zombie PIDFILE | dying N MS PIDFILE | "
			"reattach PID PROCSFILE\n");
	return 2;
}
