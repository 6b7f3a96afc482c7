// SPDX-License-Identifier: MIT
/* The cgconfig.conf language's parser (common/cgconfig.h): a tokenizer and a descent. */
#include "cgconfig.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

/* Past this a file is no configuration: a bound on what a hostile one costs */
#define CONF_MAX_ITEMS 100000

enum tok { T_END, T_WORD, T_OPEN, T_CLOSE, T_EQ, T_SEMI, T_BAD };

struct lex {
	const char *p;
	unsigned line;
	enum tok t;
	char word[4096];
	unsigned items;
	/* the failure: its line and words */
	unsigned err_line;
	char *err;
	size_t err_size;
};

static int fail(struct lex *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct lex *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, x->err_size, fmt, ap);
	va_end(ap);
	x->err_line = x->line;
	return -EINVAL;
}

/* a byte that ends an unquoted word */
static bool delim(char c)
{
	return !c || strchr(" \t\r\n{}=;#\"", c);
}

static void next(struct lex *x)
{
	size_t n = 0;

	for (;;) {
		while (*x->p == ' ' || *x->p == '\t' || *x->p == '\r' || *x->p == '\n')
			x->line += *x->p++ == '\n';
		if (*x->p != '#')
			break;
		while (*x->p && *x->p != '\n')
			x->p++;
	}
	x->word[0] = 0;
	switch (*x->p) {
	case 0:
		x->t = T_END;
		return;
	case '{':
		x->t = T_OPEN;
		break;
	case '}':
		x->t = T_CLOSE;
		break;
	case '=':
		x->t = T_EQ;
		break;
	case ';':
		x->t = T_SEMI;
		break;
	case '"':
		/* a quoted word: any byte but '"' and a newline, as libcgroup's lexer takes it */
		for (x->p++; *x->p && *x->p != '"' && *x->p != '\n'; x->p++)
			if (n < sizeof(x->word) - 1)
				x->word[n++] = *x->p;
		x->word[n] = 0;
		x->t = *x->p == '"' && n < sizeof(x->word) - 1 ? T_WORD : T_BAD;
		if (*x->p == '"')
			x->p++;
		return;
	default:
		for (; !delim(*x->p); x->p++)
			if (n < sizeof(x->word) - 1)
				x->word[n++] = *x->p;
		x->word[n] = 0;
		x->t = n < sizeof(x->word) - 1 ? T_WORD : T_BAD;
		return;
	}
	x->p++;
}

static const char *shown(const struct lex *x)
{
	switch (x->t) {
	case T_END:
		return "the end of the file";
	case T_OPEN:
		return "'{'";
	case T_CLOSE:
		return "'}'";
	case T_EQ:
		return "'='";
	case T_SEMI:
		return "';'";
	case T_BAD:
		return "an unterminated or overlong word";
	default:
		return x->word;
	}
}

static int expect(struct lex *x, enum tok t, const char *what)
{
	if (x->t != t)
		return fail(x, "expected %s, found %s", what, shown(x));
	next(x);
	return 0;
}

/* "KEY = VALUE;" at x, KEY and VALUE words: copies in ret_key (may be NULL) and ret_value */
static int assignment(struct lex *x, char **ret_key, char **ret_value)
{
	_cleanup_free_ char *k = NULL;
	int r;

	if (x->t != T_WORD)
		return fail(x, "expected NAME = VALUE;, found %s", shown(x));
	if (++x->items > CONF_MAX_ITEMS)
		return fail(x, "more than %d settings", CONF_MAX_ITEMS);
	if (!(k = strdup(x->word)))
		return -ENOMEM;
	next(x);
	r = expect(x, T_EQ, "'='");
	if (r < 0)
		return r;
	if (x->t != T_WORD)
		return fail(x, "expected the value of %s, found %s", k, shown(x));
	if (!(*ret_value = strdup(x->word)))
		return -ENOMEM;
	next(x);
	r = expect(x, T_SEMI, "';'");
	if (r < 0) {
		free(*ret_value);
		*ret_value = NULL;
		return r;
	}
	if (ret_key)
		*ret_key = TAKE_PTR(k);
	return 0;
}

/* one of task's or admin's keys into its slot: 0, or -EINVAL for a key the block has not */
static int perm_key(struct lex *x, struct cg_conf_perm *p, bool admin)
{
	const char *keys[] = { "uid", "gid", "fperm", "dperm" };
	char **slots[] = { admin ? &p->a_uid : &p->t_uid, admin ? &p->a_gid : &p->t_gid,
			   admin ? &p->a_fperm : &p->t_fperm, admin ? &p->a_dperm : NULL };
	char *value = NULL;
	size_t k;
	int r;

	for (k = 0; k < 4; k++)
		if (x->t == T_WORD && !strcmp(x->word, keys[k]) && slots[k])
			break;
	if (k == 4)
		return fail(x, "%s takes uid, gid, %s, not %s", admin ? "admin" : "task",
			    admin ? "dperm and fperm" : "fperm", shown(x));
	r = assignment(x, NULL, &value);
	if (r < 0)
		return r;
	free(*slots[k]);
	*slots[k] = value;
	return 0;
}

/* perm { task { ... } admin { ... } }, "perm" read already */
static int perm_block(struct lex *x, struct cg_conf_perm *p)
{
	int r = expect(x, T_OPEN, "'{' after perm");

	p->given = true;
	while (r == 0 && x->t == T_WORD) {
		bool admin = !strcmp(x->word, "admin");

		if (!admin && strcmp(x->word, "task"))
			return fail(x, "perm holds task and admin blocks, not %s", shown(x));
		next(x);
		r = expect(x, T_OPEN, "'{'");
		while (r == 0 && x->t == T_WORD)
			r = perm_key(x, p, admin);
		if (r == 0)
			r = expect(x, T_CLOSE, "'}'");
	}
	return r < 0 ? r : expect(x, T_CLOSE, "'}' closing perm");
}

/* CONTROLLER { NAME = VALUE; ... }, the name read already into c->name */
static int ctrl_block(struct lex *x, struct cg_conf_ctrl *c)
{
	int r = expect(x, T_OPEN, "'{' after the controller's name");

	while (r == 0 && x->t == T_WORD) {
		struct cg_conf_setting s = { .line = x->line };
		struct cg_conf_setting *v = realloc(c->set, (c->n + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->set = v;
		r = assignment(x, &s.file, &s.value);
		if (r == 0)
			c->set[c->n++] = s;
	}
	return r < 0 ? r : expect(x, T_CLOSE, "'}' closing the controller's block");
}

static void perm_free(struct cg_conf_perm *p)
{
	free(p->t_uid);
	free(p->t_gid);
	free(p->t_fperm);
	free(p->a_uid);
	free(p->a_gid);
	free(p->a_dperm);
	free(p->a_fperm);
}

static void group_free(struct cg_conf_group *g)
{
	for (size_t i = 0; i < g->n_ctrl; i++) {
		for (size_t j = 0; j < g->ctrl[i].n; j++) {
			free(g->ctrl[i].set[j].file);
			free(g->ctrl[i].set[j].value);
		}
		free(g->ctrl[i].set);
		free(g->ctrl[i].name);
	}
	free(g->ctrl);
	free(g->name);
	perm_free(&g->perm);
}

/* group NAME { perm {...} CONTROLLER {...} ... }, "group" read already */
static int group_block(struct lex *x, struct cg_conf_group *g)
{
	int r;

	g->line = x->line;
	if (x->t != T_WORD)
		return fail(x, "expected the group's name, found %s", shown(x));
	if (!(g->name = strdup(x->word)))
		return -ENOMEM;
	next(x);
	r = expect(x, T_OPEN, "'{' after the group's name");
	while (r == 0 && x->t == T_WORD) {
		struct cg_conf_ctrl *c;

		if (!strcmp(x->word, "perm")) {
			if (g->perm.given)
				return fail(x, "a second perm block in group %s", g->name);
			next(x);
			r = perm_block(x, &g->perm);
			continue;
		}
		c = realloc(g->ctrl, (g->n_ctrl + 1) * sizeof(*c));
		if (!c)
			return -ENOMEM;
		g->ctrl = c;
		c = &g->ctrl[g->n_ctrl];
		*c = (struct cg_conf_ctrl){ .line = x->line, .name = strdup(x->word) };
		if (!c->name)
			return -ENOMEM;
		g->n_ctrl++;
		next(x);
		r = ctrl_block(x, c);
	}
	return r < 0 ? r : expect(x, T_CLOSE, "'}' closing the group");
}

/* mount { CONTROLLER = PATH; ... }: read and skipped */
static int mount_block(struct lex *x)
{
	int r = expect(x, T_OPEN, "'{' after mount");

	while (r == 0 && x->t == T_WORD) {
		char *v = NULL;

		r = assignment(x, NULL, &v);
		free(v);
	}
	return r < 0 ? r : expect(x, T_CLOSE, "'}' closing mount");
}

static int top(struct lex *x, struct cg_conf *c)
{
	while (x->t != T_END) {
		int r;

		if (x->t != T_WORD)
			return fail(x, "expected group, default or mount, found %s", shown(x));
		if (!strcmp(x->word, "group")) {
			struct cg_conf_group *g = realloc(c->g, (c->n + 1) * sizeof(*g));

			if (!g)
				return -ENOMEM;
			c->g = g;
			g = &c->g[c->n++];
			*g = (struct cg_conf_group){ 0 };
			next(x);
			r = group_block(x, g);
		} else if (!strcmp(x->word, "default")) {
			if (c->dflt.given)
				return fail(x, "a second default block");
			next(x);
			r = expect(x, T_OPEN, "'{' after default");
			if (r == 0 && (x->t != T_WORD || strcmp(x->word, "perm")))
				return fail(x, "default holds a perm block, not %s", shown(x));
			if (r == 0) {
				next(x);
				r = perm_block(x, &c->dflt);
			}
			if (r == 0)
				r = expect(x, T_CLOSE, "'}' closing default");
		} else if (!strcmp(x->word, "mount")) {
			if (!c->mount_line)
				c->mount_line = x->line;
			next(x);
			r = mount_block(x);
		} else {
			return fail(x, "%s blocks are not taken (group, default and mount are)",
				    shown(x));
		}
		if (r < 0)
			return r;
	}
	return 0;
}

int cg_conf_parse(const char *text, struct cg_conf *ret, unsigned *err_line, char *err, size_t size)
{
	struct lex x = { .p = text, .line = 1, .err = err, .err_size = size };
	struct cg_conf c = { 0 };
	int r;

	if (size)
		err[0] = 0;
	next(&x);
	r = top(&x, &c);
	if (r < 0) {
		*err_line = x.err_line ? x.err_line : x.line;
		if (r == -ENOMEM)
			snprintf(err, size, "%s", strerror(ENOMEM));
		cg_conf_free(&c);
		return r;
	}
	*ret = c;
	return 0;
}

void cg_conf_free(struct cg_conf *c)
{
	for (size_t i = 0; i < c->n; i++)
		group_free(&c->g[i]);
	free(c->g);
	perm_free(&c->dflt);
	*c = (struct cg_conf){ 0 };
}
