// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen: the connections. The listening socket is cgtop2's own (bind errors told as
 * they are, kept across a TLS reload), with a backlog that holds a burst of them; their number
 * follows the fd limit. What keeps clients from holding them: libmicrohttpd's timeout is an
 * idle one, which a client that sends a byte now and then never reaches: every connection is
 * listed here (MHD_OPTION_NOTIFY_CONNECTION) with a deadline for its TLS handshake, request
 * line and headers, as Go's ReadHeaderTimeout, and the main thread shuts the ones past it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/clock.h"
#include "tool.h"
#include "negotiate.h"
#include "serve_guard.h"
#include "serve_io.h"

struct guard_conn {
	struct guard_conn *prev, *next;
	int fd;
	uint64_t deadline; /* on the guard's clock; UINT64_MAX: a request is being served */
	bool shut;
};

struct guard {
	/* the list, and the clock: the connections' deadlines are read by the main thread */
	pthread_mutex_t lock;
	struct guard_conn *head;
	size_t n;
	/* time spent in the request handler (a sample of a large tree takes seconds) */
	uint64_t busy_ns, busy_since;
};

int guard_new(struct guard **ret)
{
	struct guard *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	pthread_mutex_init(&g->lock, NULL);
	*ret = g;
	return 0;
}

void guard_free(struct guard *g)
{
	if (!g)
		return;
	/* the daemon is stopped: every connection was closed and told */
	pthread_mutex_destroy(&g->lock);
	free(g);
}

/*
 * The guard's clock stands still while the server thread is in the request handler: a
 * connection whose headers arrived while a scrape sampled has not been read yet, and must
 * not lose its time to that. Under g->lock.
 */
static uint64_t clock_of(const struct guard *g)
{
	uint64_t now = cg_now_ns();

	return now - g->busy_ns - (g->busy_since ? now - g->busy_since : 0);
}

void guard_busy(struct guard *g, bool busy)
{
	uint64_t now = cg_now_ns();

	pthread_mutex_lock(&g->lock);
	if (busy) {
		g->busy_since = now;
	} else if (g->busy_since) {
		g->busy_ns += now - g->busy_since;
		g->busy_since = 0;
	}
	pthread_mutex_unlock(&g->lock);
}

void guard_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			 enum MHD_ConnectionNotificationCode code)
{
	struct guard *g = cls;
	struct guard_conn *gc = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		gc = calloc(1, sizeof(*gc));
		/* without its record a connection has only the idle timeout: still served */
		if (!gc || !ci) {
			free(gc);
			return;
		}
		gc->fd = ci->connect_fd;
		pthread_mutex_lock(&g->lock);
		gc->deadline = clock_of(g) + SERVE_HEADER_NS;
		gc->next = g->head;
		if (g->head)
			g->head->prev = gc;
		g->head = gc;
		g->n++;
		pthread_mutex_unlock(&g->lock);
		*socket_context = gc;
		return;
	}
	if (!gc)
		return;
	/* libmicrohttpd closes the fd after this: under the lock, no sweep shuts it meanwhile */
	pthread_mutex_lock(&g->lock);
	if (gc->prev)
		gc->prev->next = gc->next;
	else
		g->head = gc->next;
	if (gc->next)
		gc->next->prev = gc->prev;
	g->n--;
	pthread_mutex_unlock(&g->lock);
	free(gc);
	*socket_context = NULL;
}

struct guard_conn *guard_conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

void guard_request(struct guard *g, struct guard_conn *gc, bool started)
{
	if (!gc)
		return;
	pthread_mutex_lock(&g->lock);
	/*
	 * Once a request's headers are in, it is served (its answer written, or its password
	 * checked) without a deadline; the next request on the connection has the idle timeout
	 * and then the header deadline.
	 */
	gc->deadline = started ? UINT64_MAX
			       : clock_of(g) + SERVE_TIMEOUT_S * NSEC_PER_SEC + SERVE_HEADER_NS;
	pthread_mutex_unlock(&g->lock);
}

size_t guard_sweep(struct guard *g, size_t *ret_open)
{
	size_t shut = 0;
	uint64_t now;

	pthread_mutex_lock(&g->lock);
	now = clock_of(g);
	for (struct guard_conn *gc = g->head; gc; gc = gc->next)
		if (!gc->shut && now > gc->deadline) {
			/*
			 * The server thread sees the end of the stream and closes the connection
			 * itself (its fd is still its own: the list holds it until then).
			 */
			shutdown(gc->fd, SHUT_RDWR);
			gc->shut = true;
			shut++;
		}
	if (ret_open)
		*ret_open = g->n;
	pthread_mutex_unlock(&g->lock);
	return shut;
}

size_t guard_connection_limit(void)
{
	struct rlimit rl;
	uint64_t fds = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		fds = rl.rlim_cur;
	if (fds < 64 + 2 * SERVE_CONNECTIONS_MIN)
		return SERVE_CONNECTIONS_MIN;
	/* half of what is left over the tool's margin: the other half is the sampler's cache */
	fds = (fds - 64) / 2;
	return fds < SERVE_CONNECTIONS_MAX ? (size_t)fds : SERVE_CONNECTIONS_MAX;
}

/* The listening socket, ours so that bind errors are told as they are and a reload keeps it. */
int guard_listen(const char *arg, char *shown, size_t size)
{
	_cleanup_free_ char *host = NULL;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res = NULL, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char port[8], h[INET6_ADDRSTRLEN];
	unsigned p;
	int fd = -1, err = 0, r;

	if (listen_parse(arg, &host, &p) < 0)
		return -EINVAL;
	snprintf(port, sizeof(port), "%u", p);
	/* every address: one IPv6 socket that takes IPv4 too, where the machine has IPv6 */
	if (!host)
		hints.ai_family = AF_INET6;
	r = getaddrinfo(host, port, &hints, &res);
	if (r && !host) {
		hints.ai_family = AF_INET;
		r = getaddrinfo(host, port, &hints, &res);
	}
	if (r) {
		tool_say("--listen %s: %s", arg ? arg : "", gai_strerror(r));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		int one = 1, zero = 0;

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6 && !host)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		tool_say("--listen %s: %s", arg ? arg : "", strerror(err));
		return -err;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &s6->sin6_addr, h, sizeof(h));
			snprintf(shown, size, "[%s]:%u", h, ntohs(s6->sin6_port));
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &s4->sin_addr, h, sizeof(h));
			snprintf(shown, size, "%s:%u", h, ntohs(s4->sin_port));
		}
	}
	return fd;
}
