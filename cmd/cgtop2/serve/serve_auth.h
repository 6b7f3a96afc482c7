/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: passwords checked off the server thread (serve_auth.c). */
#ifndef CGTOP2_SERVE_AUTH_H
#define CGTOP2_SERVE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "webconfig.h"

struct sockaddr;

/* A password to check for a request suspended meanwhile; the request owns it. */
#define SERVE_AUTH_THREADS 2 /* bcrypt checks at once, where 3 CPUs or more leave one free */
#define SERVE_AUTH_WAITING 64 /* bcrypt checks waiting for a thread: then 503 */
/* The bcrypt threads: as many as leave the server thread a CPU of its own, at least one. */
unsigned auth_threads(void);

/*
 * The bcrypt checks that may fail (man page, WEB CONFIGURATION), token buckets: an address may
 * fail SERVE_AUTH_ADDR_BURST in a row, then one every SERVE_AUTH_ADDR_NS; the addresses that
 * failed lately, SERVE_AUTH_ALL_BURST together, then one every SERVE_AUTH_ALL_NS. An address
 * is an IPv4 address or an IPv6 /64; SERVE_AUTH_ADDRS of them are remembered.
 */
#define SERVE_AUTH_ADDRS      256
#define SERVE_AUTH_ADDR_BURST 3
#define SERVE_AUTH_ADDR_NS    (10 * NSEC_PER_SEC)
#define SERVE_AUTH_ALL_BURST  8
#define SERVE_AUTH_ALL_NS     NSEC_PER_SEC

/* What became of the passwords (cgtop2_password_checks_total's result label) */
enum auth_count { AC_CACHED, AC_PASSED, AC_FAILED, AC_CACHED_WRONG, AC_THROTTLED, AC_N };
extern const char *const auth_count_names[AC_N];

/* A client address as the budget knows it: IPv4 as IPv4-mapped IPv6, IPv6 to its /64. */
struct auth_addr {
	uint8_t b[16];
};

/* What a check took from the budget, given back unless it failed. */
struct auth_charge {
	struct auth_addr addr;
	bool taken, all; /* the address's token; one of all */
	bool first; /* the address has no failure and no check under way: ahead of the others */
};

struct auth_job {
	struct auth_job *next;
	struct MHD_Connection *conn; /* resumed when the check is done */
	char *password; /* zeroed and freed by the worker */
	size_t len;
	char *hash; /* a copy: a reload may free the config meanwhile */
	struct auth_charge charge;
	bool done, ok, cancelled;
};

/* The budget, on the server thread under its lock: new, free (NULL too). */
struct auth_budget;
int auth_budget_new(struct auth_budget **ret);
void auth_budget_free(struct auth_budget *b);
void auth_addr_of(const struct sockaddr *sa, struct auth_addr *ret);
/*
 * A bcrypt check for addr: 0 and ch filled when the budget has room, else the seconds until it
 * has (Retry-After, at least 1).
 */
unsigned auth_budget_take(struct auth_budget *b, const struct auth_addr *addr, uint64_t now,
			  struct auth_charge *ch);
/*
 * A check's end, counted: a failure keeps what it took, a success or a check not made (a
 * reload, a stop) gives it back.
 */
void auth_budget_settle(struct auth_budget *b, struct auth_charge *ch, bool made, bool passed);
/* The counts by enum auth_count since the start. */
uint64_t *auth_budget_counts(struct auth_budget *b);

struct auth_pool;
int auth_pool_new(unsigned threads, size_t max_waiting, struct auth_pool **ret);
/*
 * Queue a job (its connection suspended), behind the other jobs of its kind (j->charge.first,
 * taken before the others); false when closed or max_waiting are waiting.
 */
bool auth_pool_submit(struct auth_pool *p, struct auth_job *j);
/*
 * Take no more jobs, resume the waiting ones' connections as cancelled and wait for the
 * running checks: every connection runs again, as libmicrohttpd needs before its daemon stops.
 */
void auth_pool_close(struct auth_pool *p);
/* Take jobs again (a new daemon). */
void auth_pool_open(struct auth_pool *p);
void auth_pool_free(struct auth_pool *p);

#endif
