/* SPDX-License-Identifier: MIT */
/* The one reader of /proc: small kernel files, and what cgkit asks of a task's. */
#ifndef CGKIT_PROC_H
#define CGKIT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cg_hier;

/* A /proc file opened for reading (O_CLOEXEC): fd or -errno. */
int cg_proc_open(const char *path);
/*
 * A /proc file whole into buf, NUL-terminated: its length, or -EFBIG when it does not fit (a
 * text is never cut short silently), or -errno of the open or read. For files of a known
 * bound (stat, comm); cg_pread_buf (file.h) does the same for an fd already open.
 */
int cg_proc_read(const char *path, char *buf, size_t size);
/* The same for a file of no fixed bound (status, cgroup, mountinfo), allocated. -errno. */
int cg_proc_read_all(const char *path, char **ret);

/*
 * A task's files. tid 0 means the process itself (/proc/PID/...), else /proc/PID/task/TID/.
 * A missing file is a task that has gone: -ESRCH.
 */
/* comm may take 64 bytes (a workqueue worker's), the rest is fifty numbers at most */
#define CG_TASK_STAT_SIZE 2048
/*
 * A task's stat line into buf (CG_TASK_STAT_SIZE), for kparse.h's cg_kparse_proc_*: 0 or
 * -errno (-EMFILE and -ENFILE as they are: the sampler gives fds back and asks again).
 */
int cg_task_stat(pid_t pid, pid_t tid, char *buf, size_t size);
/* A process's start time (/proc/PID/stat, clock ticks after boot): who a pid names. -errno. */
int cg_task_start(pid_t pid, uint64_t *ret_ticks);
/* Where a task is: 'R'unning, 'S'leeping..., 'Z'ombie or 'X' dead (exited, not yet gone). */
int cg_task_state(pid_t pid, pid_t tid);
/* Has the task ended: no such task, a zombie, or dead (the kernel moves none of them)? */
bool cg_task_dead(pid_t pid, pid_t tid);
/*
 * Ended, or ending: cg_task_dead, or exiting (PF_EXITING), which the kernel does not move
 * either but still lists in its cgroup until it leaves (so a drain waits for it: only a move's
 * verification counts it as gone).
 */
bool cg_task_exiting(pid_t pid, pid_t tid);
/* The process a thread id belongs to (Tgid: in /proc/TID/status), or -errno. */
pid_t cg_tid_tgid(pid_t tid);
/* How many threads a process has (st_nlink of /proc/PID/task), or -errno. */
int cg_thread_count(pid_t pid);
/* A thread's name (/proc/PID/task/TID/comm) without its newline: 0 or -errno. */
int cg_task_comm(pid_t pid, pid_t tid, char *buf, size_t size);
/*
 * A process's command line (/proc/PID/cmdline), its arguments joined by spaces, cut to size-1
 * bytes (a command line has no bound; *ret_cut says it was cut, may be NULL): its length, 0 for
 * a kernel thread or a zombie, which have none, or -errno (-ESRCH: gone). Bytes as they are:
 * escape them to show them.
 */
int cg_task_cmdline(pid_t pid, char *buf, size_t size, bool *ret_cut);
/* A process's resident set in bytes (/proc/PID/statm) and owner (of /proc/PID: its euid). */
int cg_task_rss_uid(pid_t pid, uint64_t *ret_rss, uid_t *ret_uid);
/* Is the process a kernel thread (CG_PF_KTHREAD, kparse.h): 1, 0, or -errno of the read. */
int cg_task_kthread(pid_t pid);
/* The same, false when it cannot be told. */
bool cg_task_is_kthread(pid_t pid);
/* The text of /proc/PID/cgroup (pid 0: the calling process), allocated, or -errno. */
int cg_task_cgroups(pid_t pid, pid_t tid, char **ret);

/*
 * The thread listing: threads of pid whose name (/proc/PID/task/TID/comm) matches the fnmatch(3) glob (NULL: all).
 * -ESRCH when pid does not exist. Sorted.
 */
int cg_threads_of(pid_t pid, const char *glob, pid_t **ret, size_t *ret_n);

#endif
