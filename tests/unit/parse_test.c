// SPDX-License-Identifier: MIT
/* common/parse: the one number parser, on user and kernel text. */
#include <errno.h>
#include <stdint.h>

#include "check.h"
#include "parse.h"

int main(void)
{
	uint64_t u = 0;
	int64_t i = 0;
	pid_t pid = 0;
	mode_t m = 0;
	uid_t uid;
	gid_t gid;

	CHECK_INT(cg_parse_u64("42", 100, &u), 0);
	CHECK_INT(u, 42);
	CHECK_INT(cg_parse_u64("42\n", 100, &u), 0); /* kernel files end in a newline */
	CHECK_INT(cg_parse_u64("42\n\n", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("101", 100, &u), -ERANGE);
	CHECK_INT(cg_parse_u64("-1", UINT64_MAX, &u), -EINVAL);
	CHECK_INT(cg_parse_u64(" 1", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("1x", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("", 100, &u), -EINVAL);
	CHECK_INT(cg_parse_u64("18446744073709551616", UINT64_MAX, &u), -ERANGE);
	CHECK_INT(cg_parse_u64("18446744073709551615", UINT64_MAX, &u), 0);
	CHECK(u == UINT64_MAX);
	CHECK_INT(cg_parse_i64("-20", -20, 19, &i), 0);
	CHECK_INT(i, -20);
	CHECK_INT(cg_parse_i64("-21", -20, 19, &i), -ERANGE);
	CHECK_INT(cg_parse_i64("--1", -20, 19, &i), -EINVAL);

	CHECK_INT(cg_parse_pid("1", &pid), 0);
	CHECK_INT(pid, 1);
	CHECK_INT(cg_parse_pid("0", &pid), -ERANGE);
	CHECK_INT(cg_parse_pid("4194305", &pid), -ERANGE);

	CHECK_INT(cg_parse_seconds("1.5", &u), 0);
	CHECK_INT(u, 1500000000);
	CHECK_INT(cg_parse_seconds(".25", &u), 0);
	CHECK_INT(u, 250000000);
	CHECK_INT(cg_parse_seconds("2", &u), 0);
	CHECK_INT(u, 2000000000);
	CHECK_INT(cg_parse_seconds("0.0000000001", &u), -ERANGE);
	CHECK_INT(cg_parse_seconds("0", &u), -ERANGE);
	CHECK_INT(cg_parse_seconds("1.x", &u), -EINVAL);
	CHECK_INT(cg_parse_seconds(".", &u), -EINVAL);
	CHECK_INT(cg_parse_seconds("86401", &u), -ERANGE);

	CHECK_INT(cg_parse_mode("0755", &m), 0);
	CHECK_INT(m, 0755);
	CHECK_INT(cg_parse_mode("8", &m), -EINVAL);
	CHECK_INT(cg_parse_mode("17777", &m), -ERANGE);

	CHECK_INT(cg_parse_owner("1000:100", &uid, &gid), 0);
	CHECK_INT(uid, 1000);
	CHECK_INT(gid, 100);
	CHECK_INT(cg_parse_owner(":100", &uid, &gid), 0);
	CHECK(uid == (uid_t)-1);
	CHECK_INT(cg_parse_owner("root", &uid, &gid), 0);
	CHECK_INT(uid, 0);
	CHECK(gid == (gid_t)-1);
	CHECK_INT(cg_parse_owner(":", &uid, &gid), -EINVAL);
	CHECK_INT(cg_parse_owner("no-such-user-cgkit", &uid, &gid), -ENOENT);
	return CHECK_DONE();
}
