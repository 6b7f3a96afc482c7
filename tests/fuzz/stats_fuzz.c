// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for every parser of common/base/kparse.c (make fuzz builds and runs it). By hand:
 *   clang -std=gnu11 -D_GNU_SOURCE -Icommon -g -O1 -fsanitize=fuzzer,address,undefined \
 *     tests/fuzz/stats_fuzz.c common/base/kparse.c common/base/parse.c -o stats_fuzz &&
 *     ./stats_fuzz -max_total_time=60
 * The first input byte picks the parser; the rest is the file text.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/kparse.h"
#include "sampler/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, comm[16];
	uint64_t a, b;
	double d;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 20) {
	case 0:
		cg_kparse_keyed(text, "usage_usec", &a);
		break;
	case 1:
		cg_kparse_io_stat(text, &a, &b);
		break;
	case 2:
		cg_kparse_blkio(text, &a, &b);
		break;
	case 3:
		if (cg_kparse_psi_avg10(text, &d) == 0 && !(d >= 0 && d <= 100))
			abort();
		break;
	case 4:
		cg_kparse_number(text, &a);
		break;
	case 5:
		cg_kparse_count_lines(text);
		break;
	case 6:
		if (cg_kparse_meminfo(text, &a) == 0 && a % 1024)
			abort();
		break;
	case 7:
		if (cg_kparse_populated(text) != 0 && cg_kparse_populated(text) != 1)
			abort();
		break;
	case 8:
		cg_kparse_psi_idle(text);
		break;
	case 9: {
		char *v = cg_kparse_env_value(text, "SCOPE");

		/* a value is never longer than the text it came from, and holds no newline */
		if (v && (strlen(v) >= size || strchr(v, '\n')))
			abort();
		free(v);
		break;
	}
	case 10: {
		uint64_t u;

		/* the user_usec the keyed parser reads, in nanoseconds */
		if (cg_kparse_cpu_stat(text, &a, &b) == 0 &&
		    (cg_kparse_keyed(text, "user_usec", &u) < 0 || a != u * 1000 || a / 1000 != u))
			abort();
		break;
	}
	case 11: {
		uint64_t u;

		/* 100 ticks a second: 10 ms each */
		if (cg_kparse_cpuacct_stat(text, 100, &a, &b) == 0 &&
		    (cg_kparse_keyed(text, "user", &u) < 0 || a / 10000000 != u || a % 10000000 ||
		     b % 10000000))
			abort();
		break;
	}
	case 12: {
		static const char *const keys[] = { "anon", "file", "inactive_file", "max" };
		uint64_t v[4], found;

		if (cg_kparse_keys(text, keys, 4, v, &found) == 0 && found > 15)
			abort();
		break;
	}
	case 13:
		cg_kparse_limit(text, &a);
		break;
	case 14: {
		struct cg_psi p;

		if (cg_kparse_psi(text, &p) == 0) {
			double v[] = { p.some_avg10, p.some_avg60, p.some_avg300,
				       p.full_avg10, p.full_avg60, p.full_avg300 };

			for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
				if (!(v[i] >= 0 && v[i] <= 100))
					abort();
		}
		break;
	}
	case 15:
	case 16: {
		struct cg_io_dev *devs = NULL;
		size_t n = 0;

		/* twice into the same array: the second merges into the first's devices */
		for (int i = 0; i < 2; i++) {
			if (data[0] % 20 == 15)
				cg_kparse_io_devs(text, &devs, &n);
			else
				cg_kparse_blkio_devs(text, i, &devs, &n);
		}
		for (size_t d = 0; d < n; d++)
			if (devs[d].have >= 1u << CG_IO_N)
				abort();
		free(devs);
		break;
	}
	case 17: {
		const char *bad = NULL;
		unsigned c;

		if (cg_collectors_parse(text, &c, &bad) < 0 && (bad < text || bad > text + size))
			abort();
		break;
	}
	case 19:
		/* a sum only where some line has " total=", none where none has */
		if ((cg_kparse_field_sum(text, "total", &a) == -ENOENT) != !strstr(text, " total="))
			abort();
		{
			/* cpuacct.usage_percpu: twice into the same list, never past its room */
			uint64_t *v = NULL;
			size_t cap = 0, n = 0;

			for (int i = 0; i < 2; i++)
				if (cg_kparse_u64_list(text, &v, &cap, &n) == 0 && n > cap)
					abort();
			free(v);
		}
		break;
	default:
		if (cg_kparse_proc_stat(text, comm, sizeof(comm), &a) == 0 &&
		    strlen(comm) >= sizeof(comm))
			abort();
		cg_kparse_proc_flags(text, &a);
		/* statm: a resident set only from two numbers at the start */
		if (cg_kparse_statm(text, &a) == 0 && !(text[0] >= '0' && text[0] <= '9'))
			abort();
		{
			char st;

			if (cg_kparse_proc_state(text, &st) == 0 && (st == ' ' || !st))
				abort();
		}
		break;
	}
	free(text);
	return 0;
}
