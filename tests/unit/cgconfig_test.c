// SPDX-License-Identifier: MIT
/* common/cgconfig: the cgconfig.conf language parsed; errors with their line. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/cgconfig.h"
#include "check.h"

/* cgconfig.conf(5)'s example, as libcgroup's documentation gives it */
static const char example[] = "mount {\n"
			      "\tcpu = /mnt/cgroups/cpu;\n"
			      "\tcpuacct = /mnt/cgroups/cpuacct;\n"
			      "}\n"
			      "\n"
			      "group daemons/www {\n"
			      "\tperm {\n"
			      "\t\ttask {\n"
			      "\t\t\tuid = root;\n"
			      "\t\t\tgid = webmaster;\n"
			      "\t\t\tfperm = 770;\n"
			      "\t\t}\n"
			      "\t\tadmin {\n"
			      "\t\t\tuid = root;\n"
			      "\t\t\tgid = root;\n"
			      "\t\t\tdperm = 775;\n"
			      "\t\t\tfperm = 744;\n"
			      "\t\t}\n"
			      "\t}\n"
			      "\tcpu {\n"
			      "\t\tcpu.shares = \"1000\";\n"
			      "\t}\n"
			      "}\n"
			      "\n"
			      "# a comment\n"
			      "group daemons/ftp {\n"
			      "\tcpu {\n"
			      "\t\tcpu.shares = 500; # another\n"
			      "\t}\n"
			      "\tcpuacct {\n"
			      "\t}\n"
			      "}\n"
			      "default {\n"
			      "\tperm { task { uid = 1000; gid = 1000; } admin { uid = 1000; } }\n"
			      "}\n";

static void good(void)
{
	struct cg_conf c = { 0 };
	unsigned line = 0;
	char err[256];

	CHECK_INT(cg_conf_parse(example, &c, &line, err, sizeof(err)), 0);
	CHECK_INT(c.mount_line, 1);
	CHECK_INT(c.n, 2);
	if (c.n != 2)
		return;
	CHECK_STR(c.g[0].name, "daemons/www");
	CHECK_INT(c.g[0].line, 6);
	CHECK(c.g[0].perm.given);
	CHECK_STR(c.g[0].perm.t_uid, "root");
	CHECK_STR(c.g[0].perm.t_gid, "webmaster");
	CHECK_STR(c.g[0].perm.t_fperm, "770");
	CHECK_STR(c.g[0].perm.a_dperm, "775");
	CHECK_STR(c.g[0].perm.a_fperm, "744");
	CHECK_INT(c.g[0].n_ctrl, 1);
	CHECK_STR(c.g[0].ctrl[0].name, "cpu");
	CHECK_STR(c.g[0].ctrl[0].set[0].file, "cpu.shares");
	CHECK_STR(c.g[0].ctrl[0].set[0].value, "1000");
	CHECK_INT(c.g[0].ctrl[0].set[0].line, 21);
	CHECK(!c.g[1].perm.given);
	CHECK_INT(c.g[1].n_ctrl, 2);
	CHECK_STR(c.g[1].ctrl[0].set[0].value, "500");
	CHECK_STR(c.g[1].ctrl[1].name, "cpuacct");
	CHECK_INT(c.g[1].ctrl[1].n, 0);
	CHECK(c.dflt.given);
	CHECK_STR(c.dflt.t_uid, "1000");
	CHECK_STR(c.dflt.a_uid, "1000");
	CHECK(!c.dflt.a_gid);
	cg_conf_free(&c);
	/* the root group, quoted names, an empty file */
	CHECK_INT(cg_conf_parse("group . { pids { pids.max = \"10 0\"; } }", &c, &line, err,
				sizeof(err)),
		  0);
	CHECK_STR(c.g[0].name, ".");
	CHECK_STR(c.g[0].ctrl[0].set[0].value, "10 0");
	cg_conf_free(&c);
	CHECK_INT(cg_conf_parse("# nothing\n\n", &c, &line, err, sizeof(err)), 0);
	CHECK_INT(c.n, 0);
	cg_conf_free(&c);
}

static void bad(const char *text, unsigned want_line, const char *want)
{
	struct cg_conf c = { 0 };
	unsigned line = 0;
	char err[256];

	CHECK_INT(cg_conf_parse(text, &c, &line, err, sizeof(err)), -EINVAL);
	CHECK_INT(line, want_line);
	if (!strstr(err, want)) {
		fprintf(stderr, "error '%s' lacks '%s'\n", err, want);
		check_failures++;
	}
	CHECK_INT(c.n, 0);
}

int main(void)
{
	good();
	bad("group a {\n cpu {\n cpu.shares = 1\n }\n}\n", 4, "expected ';'");
	bad("group a {\n cpu {\n cpu.shares 1;\n }\n}\n", 3, "expected '='");
	bad("group a {\n cpu {\n", 3, "the end of the file");
	bad("template a/%u {\n}\n", 1, "template blocks are not taken");
	bad("group a {\n perm {\n task { dperm = 755; }\n }\n}\n", 3, "task takes uid, gid, fperm");
	bad("group a {\n perm {\n other { }\n }\n}\n", 3, "perm holds task and admin");
	bad("group a {\n perm { }\n perm { }\n}\n", 3, "a second perm block");
	bad("group \"a\n", 1, "unterminated");
	bad("default { cpu { } }", 1, "default holds a perm block");
	bad("}", 1, "expected group, default or mount");
	return CHECK_DONE();
}
