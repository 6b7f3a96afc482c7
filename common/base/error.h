/* SPDX-License-Identifier: MIT */
/* errno -> explanation in cgroup terms, and the diagnostic a failed operation leaves behind. */
#ifndef CGKIT_ERROR_H
#define CGKIT_ERROR_H

#include <stddef.h>

/* What was being done when the kernel said no: the same errno means different rules. */
enum cg_op {
	CG_OP_OTHER,
	CG_OP_MKDIR,
	CG_OP_RMDIR,
	CG_OP_ATTACH, /* a process into cgroup.procs (or v1 tasks for a whole process) */
	CG_OP_ATTACH_THREAD, /* a thread into cgroup.threads / v1 tasks */
	CG_OP_SUBTREE, /* cgroup.subtree_control */
	CG_OP_TYPE, /* cgroup.type */
	CG_OP_WRITE, /* any other interface file */
	CG_OP_READ,
	CG_OP_OPEN,
	CG_OP_CHOWN,
	CG_OP_KILL,
};

/*
 * Filled by common/ when an operation fails, so the tool can print one line:
 *   tool: cgroup WHERE (HIER): WHAT: WHY
 * WHERE is the cgroup the kernel refused, which may be an ancestor of the one asked for.
 */
struct cg_diag {
	char where[512];
	char hier[128];
	char what[512];
	char why[512];
};

/*
 * The cgroup namespace rule: the why of every refusal of a cgroup beyond the namespace's root
 * (cgroup-v2.rst, "Namespace": /proc/PID/cgroup and mountinfo are shown relative to the
 * reader's namespace root).
 */
#define CG_NS_RULE                                                                                  \
	"cgroup namespace rule: inside a cgroup namespace the hierarchy starts at the namespace's " \
	"root (the cgroup it was made in, / in /proc/self/cgroup); what lies beyond it shows as "   \
	"/.. and cannot be named from inside"

/* The rule behind err for op on a v1 or v2 hierarchy, or NULL when strerror says it all. */
const char *cg_explain(int err, enum cg_op op, int version);

/* Record a failure: why = strerror(err) [": " explanation]. d may be NULL. Returns -err. */
int cg_diag_fail(struct cg_diag *d, int err, enum cg_op op, int version, const char *where,
		 const char *hier, const char *what_fmt, ...) __attribute__((format(printf, 7, 8)));

/* Record a failure described by a sentence of our own (no errno text). Returns -err. */
int cg_diag_say(struct cg_diag *d, int err, const char *where, const char *hier, const char *what,
		const char *why_fmt, ...) __attribute__((format(printf, 6, 7)));

/* Hears of each failure of an operation that goes on past it (a tool reports it, one line). */
typedef void cg_diag_fn(const struct cg_diag *d, int err, void *ctx);

/*
 * Name the cgroup of a failure a pure check recorded without one (a vocabulary's refusal):
 * where and hier, quoted. d may be NULL. Returns -err, so that it can end the failing path.
 */
int cg_diag_place(struct cg_diag *d, int err, const char *where, const char *hier);

/*
 * "cgroup WHERE (HIER): WHAT: WHY" into buf, the body of every error line a tool prints; passed
 * through cg_quote, so a field a caller filled by hand is as safe as the recorded ones.
 */
const char *cg_diag_format(const struct cg_diag *d, char *buf, size_t size);

/*
 * s made safe for a terminal and a one-line log, into buf (size > 0), which is returned.
 * Printable UTF-8 stays as it is; newline and tab become \n and \t, every other byte that is
 * not part of printable UTF-8 becomes \xNN: C0 controls (ESC is \x1b), DEL, C1 controls
 * (U+0080-U+009F, which some terminals obey), line and paragraph separators, bidirectional
 * overrides, and invalid, overlong or surrogate sequences. A backslash stays as it is, so that
 * quoting quoted text changes nothing. What does not fit ends in "..." and is never cut inside
 * an escape or a character. s may be NULL ("").
 */
const char *cg_quote(const char *s, char *buf, size_t size);
/* The same for n bytes that may hold a NUL (a line read from a file): shown as \x00. */
const char *cg_quote_n(const char *s, size_t n, char *buf, size_t size);

#endif
