// SPDX-License-Identifier: MIT
/*
 * hugetlb_touch N READYFILE: N huge pages of the default size (2 MiB on x86-64) mapped with
 * MAP_HUGETLB and touched, so that the kernel charges them to this process's cgroup
 * (hugetlb.2MB.current), then "ready" in READYFILE and a pause until a signal ends it. The
 * charge is made at the fault: the caller moves the process before exec (sh -c 'echo $$ >
 * .../cgroup.procs; exec hugetlb_touch ...'). Exit 77: no huge page to be had (vm.nr_hugepages
 * 0, or the pool used up), the reason on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE (2ul << 20)

int main(int argc, char **argv)
{
	unsigned long n;
	char *p;
	FILE *f;

	if (argc != 3 || (n = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: hugetlb_touch N READYFILE\n");
		return 2;
	}
	p = mmap(NULL, n * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB,
		 -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "hugetlb_touch: mmap MAP_HUGETLB: %s\n", strerror(errno));
		return 77;
	}
	/* a fault per page: the pool gives it, the cgroup is charged (SIGBUS if the pool is out) */
	for (unsigned long i = 0; i < n; i++)
		p[i * HUGE] = 1;
	f = fopen(argv[2], "we");
	if (!f || fputs("ready\n", f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "hugetlb_touch: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	pause();
	return 0;
}
