// SPDX-License-Identifier: MIT
/*
 * Unit tests of common/base/kparse_net.c on literal kernel text: /proc/PID/net/dev (its two
 * header lines, names right-aligned before the colon, the eight columns cgtop2 writes) and a
 * process's start time from /proc/PID/stat.
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "base/kparse.h"

static const char dev[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
	"drop fifo colls carrier compressed\n"
	"    lo:     140       2    0    0    0     0          0         0      140       2    0 "
	"   0    0     0       0          0\n"
	"  eth0: 1234567      89    1    2    0     0          0         3    98765      43    4 "
	"   5    0     0       0          0\n";

static void test_net_dev(void)
{
	struct cg_net_if *ifs = NULL;
	size_t n = 0;

	CHECK_INT(cg_kparse_net_dev(dev, &ifs, &n), 0);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(ifs[0].name, "lo");
		CHECK_STR(ifs[1].name, "eth0");
		CHECK(ifs[1].v[CG_NET_RX_BYTES] == 1234567 && ifs[1].v[CG_NET_RX_PACKETS] == 89);
		CHECK(ifs[1].v[CG_NET_RX_ERRORS] == 1 && ifs[1].v[CG_NET_RX_DROPPED] == 2);
		CHECK(ifs[1].v[CG_NET_TX_BYTES] == 98765 && ifs[1].v[CG_NET_TX_PACKETS] == 43);
		CHECK(ifs[1].v[CG_NET_TX_ERRORS] == 4 && ifs[1].v[CG_NET_TX_DROPPED] == 5);
	}
	free(ifs);
	/* the headers alone: a namespace without interfaces */
	ifs = NULL;
	CHECK(cg_kparse_net_dev("a\nb\n", &ifs, &n) == 0 && n == 0);
	free(ifs);
	/* no header, a short line, a word for a number, a name too long: none is trusted */
	CHECK_INT(cg_kparse_net_dev("", &ifs, &n), -EINVAL);
	CHECK_INT(cg_kparse_net_dev("a\nb\n eth0: 1 2 3\n", &ifs, &n), -EINVAL);
	CHECK_INT(
		cg_kparse_net_dev("a\nb\neth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n", &ifs, &n),
		-EINVAL);
	CHECK_INT(cg_kparse_net_dev("a\nb\neth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", &ifs,
				    &n),
		  -EINVAL);
	CHECK_INT(cg_kparse_net_dev("a\nb\nabcdefghijklmnop: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
				    "16\n",
				    &ifs, &n),
		  -EINVAL);
	CHECK_INT(
		cg_kparse_net_dev("a\nb\n    : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", &ifs, &n),
		-EINVAL);
}

static void test_starttime(void)
{
	uint64_t t = 0;

	/* comm with a space and a parenthesis: the last ')' ends it */
	CHECK_INT(
		cg_kparse_proc_starttime("42 (a) b) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 "
					 "1 0 987654 1000 200 18446744073709551615\n",
					 &t),
		0);
	CHECK(t == 987654);
	CHECK_INT(cg_kparse_proc_starttime("42 (a) S 1 42\n", &t), -EINVAL);
	CHECK_INT(cg_kparse_proc_starttime("no parenthesis", &t), -EINVAL);
}

int main(void)
{
	test_net_dev();
	test_starttime();
	return CHECK_DONE();
}
