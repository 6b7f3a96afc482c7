// SPDX-License-Identifier: MIT
/* common/proc: /proc reads with a truncation check, and a task's state, tgid, name, flags. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "kernel/proc.h"

/* A second thread until its pipe closes (no pthread_cancel: it needs libgcc_s, which the VMs lack) */
static void *idle(void *arg)
{
	char c;

	while (read(*(int *)arg, &c, 1) > 0)
		;
	return NULL;
}

int main(void)
{
	char buf[4096], small[16], comm[128];
	char *all = NULL;
	pid_t self = getpid();
	pthread_t th;
	int n, p[2];

	/* whole into a buffer, or -EFBIG: never a text cut short without saying so */
	n = cg_proc_read("/proc/self/stat", buf, sizeof(buf));
	CHECK(n > 0 && (size_t)n == strlen(buf));
	CHECK_INT(cg_proc_read("/proc/self/status", small, sizeof(small)), -EFBIG);
	CHECK_INT(cg_proc_read("/proc/self/no-such-file", buf, sizeof(buf)), -ENOENT);
	CHECK_INT(cg_proc_read_all("/proc/self/status", &all), 0);
	CHECK(all && strstr(all, "\nTgid:"));
	free(all);
	all = NULL;

	/* a task that is gone is -ESRCH, whichever question is asked */
	CHECK_INT(cg_task_state(self, 0), 'R');
	CHECK_INT(cg_task_state(self, self), 'R');
	CHECK_INT(cg_tid_tgid(self), self);
	CHECK_INT(cg_thread_count(self), 1);
	CHECK_INT(cg_task_comm(self, self, comm, sizeof(comm)), 0);
	CHECK_STR(comm, "proc_test");
	CHECK_INT(cg_task_comm(self, self, small, 4), -EFBIG);
	CHECK(!cg_task_is_kthread(self));
	/* kthreadd is pid 2 in the initial pid namespace; elsewhere pid 2 is no kernel thread */
	if (access("/proc/2/stat", F_OK) == 0 && cg_tid_tgid(2) == 2 &&
	    cg_proc_read("/proc/2/cmdline", buf, sizeof(buf)) == 0)
		CHECK(cg_task_is_kthread(2));

	/* the command line joined by spaces, cut where asked and saying so; RSS and owner */
	{
		char cmd[256], cut4[5];
		bool cut = true;
		uint64_t rss = 0;
		uid_t uid = 12345;

		n = cg_task_cmdline(self, cmd, sizeof(cmd), &cut);
		CHECK(n > 0 && (size_t)n == strlen(cmd) && !cut);
		CHECK(strstr(cmd, "proc_test") != NULL && !strchr(cmd, ' '));
		CHECK_INT(cg_task_cmdline(self, cut4, sizeof(cut4), &cut), 4);
		CHECK(cut && !strncmp(cut4, cmd, 4));
		CHECK_INT(cg_task_rss_uid(self, &rss, &uid), 0);
		CHECK(rss > 0 && rss % 4096 == 0 && uid == geteuid());
		CHECK_INT(cg_task_cmdline(4194305, cmd, sizeof(cmd), NULL), -ESRCH);
		CHECK_INT(cg_task_rss_uid(4194305, &rss, &uid), -ESRCH);
		/* a kernel thread has no command line */
		if (access("/proc/2/stat", F_OK) == 0 && cg_tid_tgid(2) == 2 &&
		    cg_task_is_kthread(2))
			CHECK_INT(cg_task_cmdline(2, cmd, sizeof(cmd), NULL), 0);
	}

	/* a thread: its own tid, the process's tgid, counted */
	CHECK_INT(pipe(p), 0);
	CHECK_INT(pthread_create(&th, NULL, idle, &p[0]), 0);
	CHECK_INT(cg_thread_count(self), 2);
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);

	/* pid_max is at most CG_PID_MAX (2^22): one above is never a task */
	CHECK_INT(cg_task_state(4194305, 0), -ESRCH);
	CHECK_INT(cg_tid_tgid(4194305), -ESRCH);
	CHECK_INT(cg_thread_count(4194305), -ESRCH);
	CHECK_INT(cg_task_comm(4194305, 4194305, comm, sizeof(comm)), -ESRCH);
	CHECK_INT(cg_task_cgroups(4194305, 0, &all), -ESRCH);
	CHECK(!cg_task_is_kthread(4194305));
	CHECK_INT(cg_task_cgroups(0, 0, &all), 0);
	CHECK(all && strchr(all, ':') != NULL);
	free(all);
	return CHECK_DONE();
}
