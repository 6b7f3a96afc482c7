/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: deadlines, the connection limit, the listening socket (serve_guard.c). */
#ifndef CGTOP2_SERVE_GUARD_H
#define CGTOP2_SERVE_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"

/* Limits against slow and hostile clients (man page, LIMITS). */
#define SERVE_CONNECTIONS_MIN 16
#define SERVE_CONNECTIONS_MAX 4096 /* and half the fds over the sampler's margin */
#define SERVE_PER_IP	      8
#define SERVE_TIMEOUT_S	      15 /* idle */
#define SERVE_HEADER_NS	      (5 * NSEC_PER_SEC) /* TLS handshake, request line and headers */

struct guard;
struct guard_conn;
int guard_new(struct guard **ret);
void guard_free(struct guard *g);
/* MHD_OPTION_NOTIFY_CONNECTION with the guard: lists each connection with its deadline. */
void guard_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			 enum MHD_ConnectionNotificationCode code);
struct guard_conn *guard_conn_of(struct MHD_Connection *c);
/* A request's headers are in (started: no deadline) or its answer is sent (the next one's). */
void guard_request(struct guard *g, struct guard_conn *gc, bool started);
/* The server thread enters or leaves the request handler: deadlines do not run meanwhile. */
void guard_busy(struct guard *g, bool busy);
/* Shut the connections past their deadline: how many; *ret_open: how many are listed. */
size_t guard_sweep(struct guard *g, size_t *ret_open);
/*
 * The listening socket of --listen's [ADDR:]PORT (arg), its address as shown in shown: fd, or
 * -errno after saying why.
 */
int guard_listen(const char *arg, char *shown, size_t size);
/* MHD_OPTION_CONNECTION_LIMIT from RLIMIT_NOFILE (as raised): half of it, within bounds. */
size_t guard_connection_limit(void);

#endif
