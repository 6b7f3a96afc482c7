// SPDX-License-Identifier: MIT
/*
 * cgtop2's journal directory (journal.h): the day files' names and their listing. A day is the
 * local calendar's, so that "yesterday's file" is what a reader in the same time zone expects;
 * a replay's window is by the samples' own times, which a file's day only narrows.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/clock.h"
#include "base/parse.h"

#include "journal.h"

#define PREFIX "cgtop2-"
#define SUFFIX ".rec.gz"

void journal_day(uint64_t time_ns, char day[JOURNAL_DAY_LEN])
{
	time_t t = (time_t)(time_ns / NSEC_PER_SEC);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(day, JOURNAL_DAY_LEN, "%Y-%m-%d", &tm))
		snprintf(day, JOURNAL_DAY_LEN, "0000-00-00");
}

char *journal_name(const char *day)
{
	char *s;

	return asprintf(&s, PREFIX "%s" SUFFIX, day) < 0 ? NULL : s;
}

/* "YYYY-MM-DD": digits and dashes where they belong */
static bool day_valid(const char *s)
{
	for (size_t i = 0; i < JOURNAL_DAY_LEN - 1; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

void journal_day_add(const char *day, int n, char ret[JOURNAL_DAY_LEN])
{
	struct tm tm = { .tm_hour = 12, .tm_isdst = -1 };
	const char *p = day;
	uint64_t y = 0, m = 0, d = 0;

	if (!day_valid(day) || cg_parse_u64_prefix(&p, 9999, &y) < 0 || *p++ != '-' ||
	    cg_parse_u64_prefix(&p, 12, &m) < 0 || *p++ != '-' ||
	    cg_parse_u64_prefix(&p, 31, &d) < 0) {
		snprintf(ret, JOURNAL_DAY_LEN, "%s", day);
		return;
	}
	/* noon: a daylight saving change moves no day across midnight */
	tm.tm_year = (int)y - 1900;
	tm.tm_mon = (int)m - 1;
	tm.tm_mday = (int)d + n;
	if (mktime(&tm) == (time_t)-1 || !strftime(ret, JOURNAL_DAY_LEN, "%Y-%m-%d", &tm))
		snprintf(ret, JOURNAL_DAY_LEN, "%s", day);
}

void journal_list_free(struct journal_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static int by_day(const void *a, const void *b)
{
	return strcmp(((const struct journal_file *)a)->day, ((const struct journal_file *)b)->day);
}

int journal_list(int dirfd, struct journal_file **ret, size_t *ret_n)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	struct journal_file *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *dir;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		int r = -errno;

		close(fd);
		return r;
	}
	rewinddir(dir);
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		struct stat st;

		if (len != strlen(PREFIX) + JOURNAL_DAY_LEN - 1 + strlen(SUFFIX) ||
		    strncmp(e->d_name, PREFIX, strlen(PREFIX)) ||
		    strcmp(e->d_name + len - strlen(SUFFIX), SUFFIX) ||
		    !day_valid(e->d_name + strlen(PREFIX)))
			continue;
		/* a link or a directory of that name is none of ours */
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct journal_file *nv =
				realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!nv)
				goto oom;
			v = nv;
		}
		v[n].name = strdup(e->d_name);
		if (!v[n].name)
			goto oom;
		memcpy(v[n].day, e->d_name + strlen(PREFIX), JOURNAL_DAY_LEN - 1);
		v[n].day[JOURNAL_DAY_LEN - 1] = '\0';
		v[n].size = (uint64_t)st.st_size;
		n++;
	}
	closedir(dir);
	if (n)
		qsort(v, n, sizeof(*v), by_day);
	*ret = v;
	*ret_n = n;
	return 0;
oom:
	closedir(dir);
	journal_list_free(v, n);
	return -ENOMEM;
}

/* room for at least a MiB more at *buf (a power of two, doubled); false without memory */
static bool room(uint8_t **buf, size_t *cap, size_t len)
{
	while (*cap - len < (1u << 20)) {
		uint8_t *nb = realloc(*buf, *cap * 2);

		if (!nb)
			return false;
		*buf = nb;
		*cap *= 2;
	}
	return true;
}

/*
 * The members are inflated here, not through gzread: zlib 1.2.13's gzread misses a file cut
 * after its deflate data (no trailer) when the data ended where a read's buffer did (at the end
 * of the input it returns 0 without asking inflate for the trailer), and such a file read as
 * whole was never repaired. inflate ends a member (Z_STREAM_END) only past its trailer, the
 * CRC-32 and the length (mod 2^32) of what it produced compared with the file's; anything else
 * at the end of the file is an early end. A file that is no gzip at all is read as it is, as
 * gzread did.
 */
int journal_read_fd(int fd, uint8_t **ret, size_t *ret_len, bool *ret_clean)
{
	z_stream z = { 0 };
	size_t len = 0, cap = 1 << 16;
	uint8_t *buf = malloc(cap), *in = malloc(1 << 16);
	bool first = true, direct = false, in_member = false, damaged = false;
	int r = 0, zr;

	if (!buf || !in || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		r = -ENOMEM;
		goto out_fd;
	}
	for (;;) {
		if (!z.avail_in) {
			ssize_t n = read(fd, in, 1 << 16);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				r = -EIO;
				break;
			}
			if (!n)
				break;
			z.next_in = in;
			z.avail_in = (uInt)n;
			if (first && (n < 2 || in[0] != 0x1f || in[1] != 0x8b))
				direct = true;
			first = false;
		}
		if (!room(&buf, &cap, len)) {
			r = -ENOMEM;
			break;
		}
		if (direct) {
			memcpy(buf + len, z.next_in, z.avail_in);
			len += z.avail_in;
			z.avail_in = 0;
			continue;
		}
		z.next_out = buf + len;
		z.avail_out = 1u << 20;
		zr = inflate(&z, Z_NO_FLUSH);
		len += (1u << 20) - z.avail_out;
		if (zr == Z_STREAM_END) {
			in_member = false;
			inflateReset(&z);
		} else if (zr == Z_OK || zr == Z_BUF_ERROR) {
			in_member = true;
		} else if (zr == Z_MEM_ERROR) {
			r = -ENOMEM;
			break;
		} else {
			/* damage (a wrong CRC or length too): what came before is the recording's */
			damaged = true;
			break;
		}
	}
	inflateEnd(&z);
	if (r == 0) {
		*ret_clean = !in_member && !damaged;
		*ret = buf;
		*ret_len = len;
		buf = NULL;
	}
out_fd:
	close(fd);
	free(in);
	free(buf);
	return r;
}
