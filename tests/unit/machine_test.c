// SPDX-License-Identifier: MIT
/*
 * machined's state files as it writes them: the scope is the unit name of the cgroup directory,
 * unescaped once (a machine name's '-' is "\x2d" in the directory, "\\x2d" in the file).
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "names/machine.h"

static void parses(const char *text, const char *scope, pid_t leader)
{
	char *s = NULL;
	pid_t l = 0;

	CHECK_INT(cg_machine_state_parse(text, &s, &l), 0);
	CHECK_STR(s, scope);
	CHECK_INT(l, leader);
	free(s);
}

static void refused(const char *text)
{
	char *s = NULL;
	pid_t l = 0;

	CHECK_INT(cg_machine_state_parse(text, &s, &l), -EINVAL);
	CHECK(!s);
}

int main(void)
{
	/* systemd 252 (Debian 12), machine "cgkit-test": cescape() doubles the backslash */
	parses("# This is private data. Do not parse.\nNAME=cgkit-test\n"
	       "SCOPE=machine-cgkit\\\\x2dtest.scope\nSCOPE_JOB=123\nROOT=/run/cgkit-test\n"
	       "LEADER=4242\nCLASS=container\n",
	       "machine-cgkit\\x2dtest.scope", 4242);
	/* newer systemd quotes a value that needs it, with the backslash doubled the same */
	parses("NAME=qemu-1-vm1\nSCOPE=\"machine-qemu\\\\x2d1\\\\x2dvm1.scope\"\nLEADER=7\n",
	       "machine-qemu\\x2d1\\x2dvm1.scope", 7);
	/* a plain name, and UNIT= for a file without SCOPE= */
	parses("SCOPE=machine-debian.scope\nLEADER=1\n", "machine-debian.scope", 1);
	parses("UNIT=machine-t.scope\nLEADER=99\n", "machine-t.scope", 99);
	/* the other escapes of either writer */
	parses("SCOPE=\"a\\$b\\`c\\\"d\"\nLEADER=2\n", "a$b`c\"d", 2);
	parses("SCOPE=a\\x41b\\tc\nLEADER=2\n", "aAb\tc", 2);
	/* a broken escape and a trailing backslash stay as they are */
	parses("SCOPE=a\\x4gb\\\nLEADER=2\n", "ax4gb\\", 2);

	refused("SCOPE=machine-t.scope\n");
	refused("LEADER=5\n");
	refused("SCOPE=machine-t.scope\nLEADER=0\n");
	refused("SCOPE=machine-t.scope\nLEADER=5x\n");
	refused("SCOPE=\nLEADER=5\n");
	refused("SCOPE=\"\"\nLEADER=5\n");
	/* never more than one path component, never a NUL */
	refused("SCOPE=machine.slice/machine-t.scope\nLEADER=5\n");
	refused("SCOPE=a\\x2fb\nLEADER=5\n");
	refused("SCOPE=..\nLEADER=5\n");
	refused("SCOPE=.\nLEADER=5\n");
	refused("SCOPE=a\\x00b\nLEADER=5\n");
	return CHECK_DONE();
}
