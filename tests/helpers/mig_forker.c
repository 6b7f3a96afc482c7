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
 *   bomb PROCSFILE SECONDS LIFE_MS [FORK_MS]
 *                               join PROCSFILE, then a fork bomb under it: every process forks
 *                               a child each FORK_MS milliseconds (1; as far as pids.max lets
 *                               it) and exits after LIFE_MS; all of it ends after SECONDS, or on
 *                               SIGTERM to this first process. Bound it with pids.max. A longer
 *                               FORK_MS keeps a storm at pids.max without taking every CPU.
 * Everything is bounded in time: a test must not leave processes behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LIFETIME_S 600

/*
 * How long everything here lives: LIFETIME_S, or MIG_FORKER_LIFETIME_S when set. A benchmark
 * that keeps 10,000 sleepers through many timed rounds outlives the default (bench/cgmigrate.sh
 * took 950 s once, and its sleepers exited under it); it kills them itself when done.
 */
static int lifetime_s(void)
{
	const char *e = getenv("MIG_FORKER_LIFETIME_S");
	int v = e ? atoi(e) : 0;

	return v > 0 ? v : LIFETIME_S;
}

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
	for (int i = 0, n = lifetime_s(); i < n; i++)
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
	int ready[2];
	char b;

	/*
	 * The pid file promises every thread: a test that counts threads read them before the
	 * children had made them when the machine was loaded (CI). Each child reports on this pipe
	 * once its threads exist.
	 */
	if (pipe(ready) < 0) {
		perror("pipe");
		return 1;
	}
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

				if (pthread_create(&t, &a, idle, NULL) != 0)
					_exit(1);
			}
			close(ready[0]);
			if (write(ready[1], "", 1) != 1)
				_exit(1);
			close(ready[1]);
			idle_for_life();
		}
	}
	close(ready[1]);
	for (int i = 0; i < n; i++)
		if (read(ready[0], &b, 1) != 1) {
			fprintf(stderr,
				"mig_forker: a sleeper died before its threads were made\n");
			return 1;
		}
	close(ready[0]);
	write_pids(path, v, n);
	/* the children are ours to reap when the test kills them */
	signal(SIGCHLD, SIG_IGN);
	idle_for_life();
	return 0;
}

static int storm(int keep, int life_ms)
{
	struct timespec life = { life_ms / 1000, (long)(life_ms % 1000) * 1000000L };
	time_t end = time(NULL) + lifetime_s();
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

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* set by the first process on SIGTERM, seen by every bomber: the storm stops as a whole */
static volatile int *bomb_stop;

static void on_term(int sig)
{
	(void)sig;
	*bomb_stop = 1;
}

static void bomber(uint64_t end, int life_ms, int fork_ms)
{
	struct timespec ms = { fork_ms / 1000, (long)(fork_ms % 1000) * 1000000L };
	uint64_t die = now_ms() + (uint64_t)life_ms;

	for (;;) {
		uint64_t t = now_ms();

		if (*bomb_stop || t >= end || t >= die)
			_exit(0);
		/* the child starts its own life and goes on forking */
		if (fork() == 0)
			die = now_ms() + (uint64_t)life_ms;
		else
			nanosleep(&ms, NULL);
	}
}

static int bomb(const char *procs, int seconds, int life_ms, int fork_ms)
{
	uint64_t end = now_ms() + (uint64_t)seconds * 1000;
	int fd = open(procs, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "0", 1) != 1) {
		perror(procs);
		return 1;
	}
	close(fd);
	bomb_stop =
		mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bomb_stop == MAP_FAILED)
		return 1;
	/* orphans come back here and are reaped at once: no zombie holds a pid */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGCHLD, SIG_IGN);
	signal(SIGTERM, on_term);
	if (fork() == 0) {
		signal(SIGTERM, SIG_DFL);
		bomber(end, life_ms, fork_ms > 0 ? fork_ms : 1);
	}
	while (!*bomb_stop && now_ms() < end)
		usleep(10000);
	*bomb_stop = 1;
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
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "bomb"))
		return bomb(argv[2], atoi(argv[3]), atoi(argv[4]), argc == 6 ? atoi(argv[5]) : 1);
	if (argc == 5 && !strcmp(argv[1], "dying"))
		return dying(atoi(argv[2]), atoi(argv[3]), argv[4]);
	fprintf(stderr,
		"usage: mig_forker sleepers N THREADS PIDFILE | storm KEEP LIFE_MS | zombie PIDFILE | dying N MS PIDFILE | reattach PID PROCSFILE | bomb PROCSFILE SECONDS LIFE_MS [FORK_MS]\n");
	return 2;
}
