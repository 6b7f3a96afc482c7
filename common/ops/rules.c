// SPDX-License-Identifier: MIT
/* The only user of libcgroup: cgrules.conf classification and cgrulesengd's sticky flag. */
#include "rules.h"

#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <libcgroup.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cleanup.h"
#include "base/parse.h"
#include "kernel/proc.h"
#include "base/strv.h"

#define RULES_FILE "/etc/cgrules.conf"
/* libcgroup 2.0.2 as Debian builds it (configure --with-cgrulesengd-socket default) */
#define CGRED_SOCKET "/var/run/cgred.socket"

/*
 * Exported by libcgroup (CGROUP_0.34) and used by its cgclassify, but missing from its public
 * headers (declared for the types of lc's pointers). Reading the ids and the name as libcgroup
 * does keeps the matching libcgroup's.
 */
int cgroup_get_uid_gid_from_procfs(pid_t pid, uid_t *euid, gid_t *egid);
int cgroup_get_procname_from_procfs(pid_t pid, char **procname);

/*
 * libcgroup is opened on the first classification or sticky request, not linked: linked, every
 * run of cgexec2 and cgmigrate loaded it and libpthread, for what most runs never ask (cgexec2
 * -g CPU:X /bin/true: 137k of the dynamic loader's 266k instructions, and 2 files mapped).
 * dlvsym asks for the versions a link against libcgroup 2.0 would bind.
 */
#define LC_FUNCS(X)                                                                                \
	X(cgroup_get_procname_from_procfs, "CGROUP_0.34")                                          \
	X(cgroup_get_uid_gid_from_procfs, "CGROUP_0.34")                                           \
	X(cgroup_init, "CGROUP_0.32")                                                              \
	X(cgroup_init_rules_cache, "CGROUP_0.32")                                                  \
	X(cgroup_print_rules_config, "CGROUP_0.32")                                                \
	X(cgroup_register_unchanged_process, "CGROUP_0.34")                                        \
	X(cgroup_set_logger, "CGROUP_0.39")                                                        \
	X(cgroup_strerror, "CGROUP_0.32.1")
static struct {
#define LC_DECL(f, v) __typeof__(&f) f;
	LC_FUNCS(LC_DECL)
} lc;

/* 0, or -ENOSYS with why in buf (no libcgroup.so.2, or one without a function we call) */
static int lc_load(char *buf, size_t size)
{
	static void *lib;
	void *h;

	if (lib)
		return 0;
	h = dlopen("libcgroup.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(buf, size, "libcgroup.so.2 cannot be loaded (%s; Debian: libcgroup2)",
			 dlerror());
		return -ENOSYS;
	}
#define LC_SYM(f, v)                                                                               \
	if (!(lc.f = (__typeof__(&f))dlvsym(h, #f, v))) {                                          \
		dlclose(h);                                                                        \
		snprintf(buf, size, "libcgroup.so.2 has no %s@%s: too old", #f, v);                \
		return -ENOSYS;                                                                    \
	}
	LC_FUNCS(LC_SYM)
	lib = h;
	return 0;
}

/* libcgroup's printed uid/gid markers */
#define ID_ANY (-2L)
#define ID_NA  (-1L)

struct rule {
	char *user; /* "name", "@group", "*", or "%" for a continuation of the rule above */
	char *proc; /* NULL: any process */
	long uid, gid;
	char *dest;
	char **ctrls;
	bool ignore;
};

/*
 * libcgroup keeps its rules in a private list; the one public window on what its parser made
 * of cgrules.conf is cgroup_print_rules_config(). We read that table back rather than parse
 * cgrules.conf a second time, so user/@group lookup and skipped lines are libcgroup's.
 */
static struct {
	bool loaded;
	bool nolib; /* libcgroup.so.2 could not be opened: msg says why */
	int err; /* libcgroup's code from loading, 0 when the rules are in */
	char msg[256]; /* its last warning or error, for the diagnostic */
	struct rule *r;
	size_t n;
} cache;

static void logger(void *userdata, int level, const char *fmt, va_list ap)
{
	size_t len;

	if (level > CGROUP_LOG_WARNING)
		return;
	vsnprintf(cache.msg, sizeof(cache.msg), fmt, ap);
	len = strlen(cache.msg);
	while (len && (cache.msg[len - 1] == '\n' || cache.msg[len - 1] == ' '))
		cache.msg[--len] = '\0';
}

static long parse_id(const char *s)
{
	int64_t v;

	if (!strcmp(s, "any"))
		return ID_ANY;
	/* "N/A", and anything else that is no id, matches no id (never root's 0) */
	if (cg_parse_i64(s, 0, UINT32_MAX - 1, &v) < 0)
		return ID_NA;
	return (long)v;
}

static int push_rule(const char *head)
{
	struct rule *nr = realloc(cache.r, (cache.n + 1) * sizeof(*nr));
	const char *colon = strchr(head, ':');
	struct rule *r;

	if (!nr)
		return -ENOMEM;
	cache.r = nr;
	r = &cache.r[cache.n];
	*r = (struct rule){ .uid = ID_NA, .gid = ID_NA };
	r->user = colon ? strndup(head, (size_t)(colon - head)) : strdup(head);
	r->proc = colon ? strdup(colon + 1) : NULL;
	r->ctrls = calloc(1, sizeof(char *));
	r->dest = strdup("");
	cache.n++;
	if (!r->user || (colon && !r->proc) || !r->ctrls || !r->dest)
		return -ENOMEM;
	return 0;
}

/* The table cgroup_print_rules_config() writes: "Rule: user[:proc]", then indented fields. */
static int parse_table(char *text)
{
	char *save = NULL;
	bool in_ctrls = false;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct rule *r = cache.n ? &cache.r[cache.n - 1] : NULL;
		int e;

		if (!strncmp(line, "Rule: ", 6)) {
			in_ctrls = false;
			e = push_rule(line + 6);
			if (e < 0)
				return e;
			continue;
		}
		if (!r)
			continue;
		if (!strncmp(line, "  UID: ", 7)) {
			r->uid = parse_id(line + 7);
		} else if (!strncmp(line, "  GID: ", 7)) {
			r->gid = parse_id(line + 7);
		} else if (!strncmp(line, "  DEST: ", 8)) {
			free(r->dest);
			r->dest = strdup(line + 8);
			if (!r->dest)
				return -ENOMEM;
		} else if (!strcmp(line, "  CONTROLLERS:")) {
			in_ctrls = true;
		} else if (!strcmp(line, "  OPTIONS:")) {
			in_ctrls = false;
		} else if (!strcmp(line, "    IS_IGNORE: True")) {
			r->ignore = true;
		} else if (in_ctrls && !strncmp(line, "    ", 4)) {
			e = cg_strv_push(&r->ctrls, line + 4);
			if (e < 0)
				return e;
		}
	}
	return 0;
}

static int load(void)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (cache.loaded)
		return cache.err ? -ENOENT : 0;
	cache.loaded = true;
	if (lc_load(cache.msg, sizeof(cache.msg)) < 0) {
		cache.nolib = true;
		return -ENOENT;
	}
	/* library code never prints: libcgroup's messages become our diagnostic */
	lc.cgroup_set_logger(logger, CGROUP_LOG_WARNING, NULL);
	/*
	 * The rules do not need libcgroup's mount table, which on a hybrid host misses
	 * name=systemd and the unified hierarchy: a failed init is not fatal for classification.
	 */
	(void)lc.cgroup_init();
	cache.msg[0] = '\0';
	r = lc.cgroup_init_rules_cache();
	if (r) {
		cache.err = r;
		return -ENOENT;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	lc.cgroup_print_rules_config(f);
	if (fclose(f) != 0)
		return -ENOMEM;
	r = parse_table(text);
	if (r < 0)
		cache.loaded = false;
	return r;
}

static bool uid_in_group(uid_t uid, const char *group)
{
	struct group *g = getgrnam(group);
	struct passwd *pw;

	if (!g)
		return false;
	pw = getpwuid(uid);
	if (!pw)
		return false;
	for (char **m = g->gr_mem; *m; m++)
		if (!strcmp(*m, pw->pw_name))
			return true;
	return false;
}

static bool ids_match(const struct rule *r, uid_t uid, gid_t gid)
{
	if (r->uid == ID_ANY && r->gid == ID_ANY)
		return true;
	if (r->uid >= 0 && (uid_t)r->uid == uid)
		return true;
	if (r->gid >= 0 && (gid_t)r->gid == gid)
		return true;
	return r->user[0] == '@' && uid_in_group(uid, r->user + 1);
}

/* "name*" in a rule matches every process name starting with "name" (libcgroup) */
static bool proc_wildcard(const char *rule, const char *name)
{
	size_t n = strlen(rule);

	return n && rule[n - 1] == '*' && !strncmp(rule, name, n - 1);
}

/*
 * An ignore rule applies when the process already is in (or below) the rule's destination in
 * one of its v1 hierarchies, and its name matches: then the process stays where it is.
 */
static bool ignore_applies(const struct rule *r, pid_t pid, const char *procname)
{
	_cleanup_free_ char *text = NULL;
	size_t dl = strlen(r->dest);
	bool in_dest = false;
	char *save = NULL;

	while (dl > 1 && r->dest[dl - 1] == '/')
		dl--;
	if (cg_task_cgroups(pid, 0, &text) < 0)
		return false;
	for (char *line = strtok_r(text, "\n", &save); !in_dest && line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *cg;

		/* libcgroup reads only v1 lines; a "0::" line has no controller field */
		if (!c2 || c2 == c1 + 1)
			continue;
		cg = c2 + 1;
		if (cg[0] == '/' && cg[1])
			cg++;
		in_dest = !strncmp(cg, r->dest, dl) && (cg[dl] == '\0' || cg[dl] == '/');
	}
	if (!in_dest)
		return false;
	return !r->proc ||
	       (procname && (!strcmp(r->proc, procname) || proc_wildcard(r->proc, procname)));
}

/* libcgroup's cgroup_find_matching_rule(): the index of the rule, or -1 */
static ssize_t find_rule(uid_t uid, gid_t gid, pid_t pid, const char *procname)
{
	const char *base = procname ? strrchr(procname, '/') : NULL;

	base = base ? base + 1 : procname;
	for (size_t i = 0; i < cache.n; i++) {
		const struct rule *r = &cache.r[i];

		if (r->user[0] == '%' || !ids_match(r, uid, gid))
			continue;
		if (r->ignore) {
			if (ignore_applies(r, pid, procname))
				return (ssize_t)i;
			continue;
		}
		if (!procname || !r->proc || !strcmp(r->proc, procname) || !strcmp(r->proc, base) ||
		    proc_wildcard(r->proc, procname))
			return (ssize_t)i;
	}
	return -1;
}

/* libcgroup's destination templates: %u %U %g %G %p %P, and '\' quoting the next character */
static int substitute(const char *dest, uid_t uid, gid_t gid, pid_t pid, const char *procname,
		      char **ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	for (const char *p = dest; *p; p++) {
		struct passwd *pw;
		struct group *gr;

		if (*p == '\\' && p[1]) {
			fputc(*++p, f);
			continue;
		}
		if (*p != '%' || !p[1]) {
			fputc(*p, f);
			continue;
		}
		switch (*++p) {
		case 'U':
			fprintf(f, "%u", (unsigned)uid);
			break;
		case 'u':
			pw = getpwuid(uid);
			pw ? fputs(pw->pw_name, f) : fprintf(f, "%u", (unsigned)uid);
			break;
		case 'G':
			fprintf(f, "%u", (unsigned)gid);
			break;
		case 'g':
			gr = getgrgid(gid);
			gr ? fputs(gr->gr_name, f) : fprintf(f, "%u", (unsigned)gid);
			break;
		case 'P':
			fprintf(f, "%d", (int)pid);
			break;
		case 'p':
			procname ? fputs(procname, f) : fprintf(f, "%d", (int)pid);
			break;
		default:
			fputc('%', f);
			fputc(*p, f);
		}
	}
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return 0;
}

static int rule_targets(const struct cg_layout *l, const struct rule *r, uid_t uid, gid_t gid,
			pid_t pid, const char *procname, struct cg_targets *acc, struct cg_diag *d)
{
	_cleanup_free_ char *dest = NULL;
	_cleanup_free_ char *spec = NULL;
	_cleanup_free_ char *ctrls = NULL;
	int e;

	e = substitute(r->dest, uid, gid, pid, procname, &dest);
	if (e < 0)
		return e;
	ctrls = cg_strv_join(r->ctrls, ",");
	if (!ctrls)
		return -ENOMEM;
	/* cgrules.conf's "*" is every mounted hierarchy, as "*:" in a spec */
	e = asprintf(&spec, "%s:%s", *ctrls ? ctrls : "*", dest);
	if (e < 0)
		return -ENOMEM;
	return cg_spec_parse(l, spec, acc, d);
}

int cg_rules_classify(const struct cg_layout *l, pid_t pid, struct cg_targets *ret,
		      struct cg_diag *d)
{
	return cg_rules_classify_command(l, pid, NULL, ret, d);
}

int cg_rules_classify_command(const struct cg_layout *l, pid_t pid, const char *command,
			      struct cg_targets *ret, struct cg_diag *d)
{
	struct cg_targets acc = { 0 };
	_cleanup_free_ char *procname = command ? strdup(command) : NULL;
	char where[32];
	uid_t uid;
	gid_t gid;
	ssize_t i;
	int e;

	snprintf(where, sizeof(where), "pid %d", (int)pid);
	e = load();
	if (e == -ENOMEM)
		return e;
	if (e < 0 && cache.nolib)
		return cg_diag_say(d, ENOSYS, where, "", "classify",
				   "the rules of " RULES_FILE " need libcgroup: %s", cache.msg);
	if (e < 0)
		return cg_diag_say(d, ENOENT, where, "", "classify",
				   "no rules from " RULES_FILE " (libcgroup: %s%s%s)",
				   lc.cgroup_strerror(cache.err), cache.msg[0] ? ": " : "",
				   cache.msg);
	e = lc.cgroup_get_uid_gid_from_procfs(pid, &uid, &gid);
	if (e == ECGROUPNOTEXIST)
		return cg_diag_fail(d, ESRCH, CG_OP_OTHER, 0, where, "", "classify");
	if (e)
		return cg_diag_say(d, EIO, where, "", "classify", "libcgroup: %s",
				   lc.cgroup_strerror(e));
	if (command && !procname)
		return -ENOMEM;
	/* a process that has no name to read (a kernel thread, gone) matches by ids only */
	if (!command && lc.cgroup_get_procname_from_procfs(pid, &procname))
		procname = NULL;
	i = find_rule(uid, gid, pid, procname);
	if (i < 0)
		return cg_diag_say(d, ENOENT, where, "", "classify",
				   "no rule in " RULES_FILE " matches uid %u gid %u process %s",
				   (unsigned)uid, (unsigned)gid, procname ? procname : "?");
	if (cache.r[i].ignore) {
		cg_targets_clear(ret);
		return 0;
	}
	do {
		e = rule_targets(l, &cache.r[i], uid, gid, pid, procname, &acc, d);
		if (e < 0) {
			cg_targets_clear(&acc);
			return e;
		}
		i++;
	} while ((size_t)i < cache.n && cache.r[i].user[0] == '%');
	cg_targets_clear(ret);
	*ret = acc;
	return 0;
}

size_t cg_rules_move(const struct cg_layout *l, const struct cg_move_opts *o, struct cg_move *m,
		     size_t n, struct cg_move_summary *sum, cg_diag_fn *on_fail, void *ctx)
{
	size_t failed = 0;

	for (size_t k = 0; k < n; k++) {
		struct cg_targets t = { 0 };
		struct cg_move_summary s = { 0 };
		struct cg_diag d = { 0 };
		int r = cg_rules_classify(l, m[k].id, &t, &d);

		if (r < 0) {
			m[k].state = CG_MOVE_FAILED;
			sum->failed++;
			on_fail(&d, r, ctx);
			failed++;
			continue;
		}
		/* an ignore rule: it stays where it is, which is where it belongs */
		if (t.n == 0) {
			m[k].state = CG_MOVE_ARRIVED;
			sum->arrived++;
			sum->processes++;
			continue;
		}
		r = cg_move_many(&t, o, &m[k], 1, &s, &d);
		if (r < 0) {
			on_fail(&d, r, ctx);
			failed++;
			sum->failed++;
		} else {
			failed += cg_moves_report(&t, o, &m[k], 1, on_fail, ctx);
			sum->arrived += s.arrived;
			sum->processes += s.processes;
			sum->threads += s.threads;
			sum->gone += s.gone;
			sum->failed += s.failed;
		}
		cg_targets_clear(&t);
	}
	return failed;
}

int cg_rules_sticky(pid_t pid, bool sticky, struct cg_diag *d)
{
	int flag = sticky ? CGROUP_DAEMON_UNCHANGE_CHILDREN : CGROUP_DAEMON_CANCEL_UNCHANGE_PROCESS;
	char where[32], why[256];

	snprintf(where, sizeof(where), "pid %d", (int)pid);
	/* libcgroup tells no one either when nothing listens: no need to open it for that */
	if (!cg_rules_daemon_running())
		return 0;
	if (lc_load(why, sizeof(why)) < 0)
		return cg_diag_say(d, ENOSYS, where, "", sticky ? "sticky" : "cancel sticky", "%s",
				   why);
	if (lc.cgroup_register_unchanged_process(pid, flag))
		return cg_diag_say(d, EIO, where, "", sticky ? "sticky" : "cancel sticky",
				   "cgrulesengd did not confirm (" CGRED_SOCKET ")");
	return 0;
}

bool cg_rules_daemon_running(void)
{
	struct stat st;

	return stat(CGRED_SOCKET, &st) == 0 && S_ISSOCK(st.st_mode);
}
