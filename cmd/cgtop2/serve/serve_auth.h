/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: passwords checked off the server thread (serve_auth.c). */
#ifndef CGTOP2_SERVE_AUTH_H
#define CGTOP2_SERVE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "webconfig.h"

/* A password to check for a request suspended meanwhile; the request owns it. */
#define SERVE_AUTH_THREADS 2 /* bcrypt checks at once, where 3 CPUs or more leave one free */
#define SERVE_AUTH_WAITING 64 /* bcrypt checks waiting for a thread: then 503 */
/* The bcrypt threads: as many as leave the server thread a CPU of its own, at least one. */
unsigned auth_threads(void);

struct auth_job {
	struct auth_job *next;
	struct MHD_Connection *conn; /* resumed when the check is done */
	char *password; /* zeroed and freed by the worker */
	size_t len;
	char *hash; /* a copy: a reload may free the config meanwhile */
	bool done, ok, cancelled;
};

struct auth_pool;
int auth_pool_new(unsigned threads, size_t max_waiting, struct auth_pool **ret);
/* Queue a job (its connection suspended); false when closed or max_waiting are waiting. */
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
