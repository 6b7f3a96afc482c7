/* SPDX-License-Identifier: MIT */
/*
 * The cgconfig.conf language of libcgroup (cgconfig.conf(5)), the part that declares a tree:
 * group blocks (perm { task { uid gid fperm } admin { uid gid dperm fperm } }, a block per
 * controller of NAME = VALUE settings) and the default block. mount blocks are read and
 * skipped (their line kept, for the caller's note); template and namespace blocks refused.
 * Pure: text in, a tree out. cgcreate2 --apply reads it, cgtop2 --snapshot writes it.
 */
#ifndef CGKIT_CGCONFIG_H
#define CGKIT_CGCONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct cg_conf_setting {
	char *file, *value;
	unsigned line;
};

struct cg_conf_ctrl {
	char *name; /* the controller ("cpu", "name=systemd" quoted in the file) */
	struct cg_conf_setting *set;
	size_t n;
	unsigned line;
};

/* The owners and modes as written (names or numbers, octal modes); NULL: not given */
struct cg_conf_perm {
	char *t_uid, *t_gid, *t_fperm;
	char *a_uid, *a_gid, *a_dperm, *a_fperm;
	bool given;
};

struct cg_conf_group {
	char *name; /* as written: "a/b"; "." is the root */
	struct cg_conf_perm perm;
	struct cg_conf_ctrl *ctrl;
	size_t n_ctrl;
	unsigned line;
};

struct cg_conf {
	struct cg_conf_group *g;
	size_t n;
	struct cg_conf_perm dflt; /* the default block's perm (given: there is one) */
	unsigned mount_line; /* the first mount block's line, 0: none */
};

/*
 * Parse text into ret: 0, -ENOMEM, or -EINVAL with *err_line and err (the rule broken, the
 * token found) filled. ret is untouched on failure.
 */
int cg_conf_parse(const char *text, struct cg_conf *ret, unsigned *err_line, char *err,
		  size_t size);
void cg_conf_free(struct cg_conf *c);

#endif
