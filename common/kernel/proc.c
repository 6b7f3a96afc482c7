// SPDX-License-Identifier: MIT
/* The one reader of /proc: small kernel files, and what cgkit asks of a task's. */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "file.h"
#include "base/kparse.h"
#include "base/parse.h"

int cg_proc_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int cg_proc_read(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = cg_proc_open(path);

	if (fd < 0)
		return fd;
	return (int)cg_pread_buf(fd, buf, size);
}

int cg_proc_read_all(const char *path, char **ret)
{
	_cleanup_close_ int fd = cg_proc_open(path);

	if (fd < 0)
		return fd;
	return cg_read_fd(fd, ret, NULL);
}

/* s appended at *p if it fits before end (one byte kept for the NUL); false when not */
static bool put(char **p, const char *end, const char *s, size_t n)
{
	if ((size_t)(end - *p) <= n)
		return false;
	memcpy(*p, s, n);
	*p += n;
	return true;
}

static bool put_id(char **p, const char *end, pid_t id)
{
	char num[CG_U64_LEN], *d = cg_format_u64(num, (uint64_t)id);

	return put(p, end, d, (size_t)(num + sizeof(num) - d));
}

/*
 * /proc/PID/NAME or /proc/PID/task/TID/NAME. Not snprintf: cgexec2 reads its /proc/PID/cgroup
 * on every run, and the first snprintf of a run touches three of libc's pages (issue 46).
 */
static void task_path(char *buf, size_t size, pid_t pid, pid_t tid, const char *name)
{
	char *p = buf;
	const char *end = buf + size;

	if (pid < 0 || !put(&p, end, "/proc/", 6) || !put_id(&p, end, pid) ||
	    (tid > 0 && (!put(&p, end, "/task/", 6) || !put_id(&p, end, tid))) ||
	    !put(&p, end, "/", 1) || !put(&p, end, name, strlen(name))) {
		/* a negative id, or too long: what the format made of it, cut where it cuts */
		if (tid > 0)
			snprintf(buf, size, "/proc/%d/task/%d/%s", (int)pid, (int)tid, name);
		else
			snprintf(buf, size, "/proc/%d/%s", (int)pid, name);
		return;
	}
	*p = '\0';
}

static int enoent_is_esrch(int r)
{
	return r == -ENOENT ? -ESRCH : r;
}

/*
 * A task's stat line, and where its fields after the comm begin (the ") " before the state):
 * the comm may hold anything, blanks and parentheses too, so the last ')' ends it.
 */
static int read_stat(pid_t pid, pid_t tid, char *buf, size_t size, char **ret_after)
{
	char *p;
	int r = cg_task_stat(pid, tid, buf, size);

	if (r < 0)
		return r;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -EIO;
	*ret_after = p;
	return 0;
}

int cg_task_stat(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	int r;

	task_path(path, sizeof(path), pid, tid, "stat");
	r = enoent_is_esrch(cg_proc_read(path, buf, size));
	return r < 0 ? r : 0;
}

int cg_task_state(pid_t pid, pid_t tid)
{
	char buf[CG_TASK_STAT_SIZE], *p;
	int r = read_stat(pid, tid, buf, sizeof(buf), &p);

	return r < 0 ? r : (unsigned char)p[2];
}

int cg_task_start(pid_t pid, uint64_t *ret_ticks)
{
	char buf[CG_TASK_STAT_SIZE];
	int r = cg_task_stat(pid, 0, buf, sizeof(buf));

	return r < 0 ? r : cg_kparse_proc_starttime(buf, ret_ticks);
}

/* a zombie, or dead: exited, not yet gone */
static bool state_ended(int state)
{
	return state == 'Z' || state == 'X' || state == 'x';
}

bool cg_task_dead(pid_t pid, pid_t tid)
{
	int state = cg_task_state(pid, tid);

	return state == -ESRCH || state_ended(state);
}

bool cg_task_exiting(pid_t pid, pid_t tid)
{
	char buf[CG_TASK_STAT_SIZE], *p;
	uint64_t flags;
	int r = read_stat(pid, tid, buf, sizeof(buf), &p);

	if (r < 0)
		return r == -ESRCH;
	if (state_ended((unsigned char)p[2]))
		return true;
	/*
	 * Still running its exit (closing files, freeing memory: long under load) but past the
	 * point where a write to cgroup.procs moves it: the write succeeds and leaves it where it
	 * was, and a v1 /proc/PID/cgroup already says "/".
	 */
	return cg_kparse_proc_flags(buf, &flags) == 0 && (flags & CG_PF_EXITING);
}

int cg_task_kthread(pid_t pid)
{
	char buf[CG_TASK_STAT_SIZE], *p;
	uint64_t flags;
	int r = read_stat(pid, 0, buf, sizeof(buf), &p);

	if (r < 0)
		return r;
	r = cg_kparse_proc_flags(buf, &flags);
	return r < 0 ? r : !!(flags & CG_PF_KTHREAD);
}

bool cg_task_is_kthread(pid_t pid)
{
	return cg_task_kthread(pid) > 0;
}

pid_t cg_tid_tgid(pid_t tid)
{
	_cleanup_free_ char *text = NULL;
	char path[64], *p;
	pid_t tgid;
	int r;

	/* whole: a process in many groups has a long Groups: line, and status has no bound */
	task_path(path, sizeof(path), tid, 0, "status");
	r = enoent_is_esrch(cg_proc_read_all(path, &text));
	if (r < 0)
		return r;
	p = strstr(text, "\nTgid:");
	if (!p)
		return -EIO;
	p += 6;
	p[strcspn(p, "\n")] = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	r = cg_parse_pid(p, &tgid);
	return r < 0 ? r : tgid;
}

int cg_thread_count(pid_t pid)
{
	char path[64];
	struct stat st;

	task_path(path, sizeof(path), pid, 0, "task");
	if (stat(path, &st) < 0)
		return enoent_is_esrch(-errno);
	/* procfs counts a task directory's links as 2 + its threads */
	return st.st_nlink > 2 ? (int)st.st_nlink - 2 : 1;
}

int cg_task_comm(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[96];
	int r;

	task_path(path, sizeof(path), pid, tid, "comm");
	r = enoent_is_esrch(cg_proc_read(path, buf, size));
	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int cg_task_cgroups(pid_t pid, pid_t tid, char **ret)
{
	char path[96];

	task_path(path, sizeof(path), pid ? pid : getpid(), tid, "cgroup");
	return enoent_is_esrch(cg_proc_read_all(path, ret));
}

int cg_task_cmdline(pid_t pid, char *buf, size_t size, bool *ret_cut)
{
	char path[64];
	_cleanup_close_ int fd = -1;
	ssize_t n;
	size_t len = 0;

	if (!size)
		return -EINVAL;
	task_path(path, sizeof(path), pid, 0, "cmdline");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return enoent_is_esrch(-errno);
	for (;;) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return enoent_is_esrch(-errno);
		len += (size_t)n;
		if (!n || len == size - 1)
			break;
	}
	if (ret_cut) {
		char more;

		*ret_cut = len == size - 1 && read(fd, &more, 1) == 1;
	}
	/* the arguments end in NUL each: spaces between them, none at the end */
	while (len && !buf[len - 1])
		len--;
	for (size_t i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[len] = '\0';
	return (int)len;
}

int cg_task_rss_uid(pid_t pid, uint64_t *ret_rss, uid_t *ret_uid)
{
	char path[64], buf[256];
	struct stat st;
	uint64_t pages;
	long page = sysconf(_SC_PAGESIZE);
	int r;

	task_path(path, sizeof(path), pid, 0, "statm");
	r = enoent_is_esrch(cg_proc_read(path, buf, sizeof(buf)));
	if (r < 0)
		return r;
	r = cg_kparse_statm(buf, &pages);
	if (r < 0)
		return r;
	task_path(path, sizeof(path), pid, 0, "");
	if (stat(path, &st) < 0)
		return enoent_is_esrch(-errno);
	*ret_rss = pages * (uint64_t)(page > 0 ? page : 4096);
	*ret_uid = st.st_uid;
	return 0;
}

int cg_threads_of(pid_t pid, const char *glob, pid_t **ret, size_t *ret_n)
{
	char path[64];
	_cleanup_closedir_ DIR *dir = NULL;
	_cleanup_free_ pid_t *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((e = readdir(dir))) {
		char comm[128];
		pid_t tid;

		if (cg_parse_pid(e->d_name, &tid) < 0)
			continue;
		if (glob) {
			if (cg_task_comm(pid, tid, comm, sizeof(comm)) < 0)
				continue; /* the thread ended meanwhile */
			if (fnmatch(glob, comm, 0) != 0)
				continue;
		}
		if (n == cap) {
			pid_t *nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(pid_t));

			if (!nv)
				return -ENOMEM;
			v = nv;
		}
		v[n++] = tid;
	}
	if (n)
		qsort(v, n, sizeof(pid_t), cg_pid_cmp);
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}
