// SPDX-License-Identifier: MIT
/*
 * Test helper for cgtop2 --listen: N connections that never finish a request, from one source
 * address or spread over several (127.0.0.X): trickling header lines, idle, or stuck in a TLS
 * handshake. Counts the connections the server closed; can open them again (-R).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum mode { TRICKLE, IDLE, TLS };

static struct sockaddr_in to = { .sin_family = AF_INET };
static struct in_addr first;
static int n_addrs = 1;
static bool bind_source;
static enum mode mode = TRICKLE;

static void usage(void)
{
	fprintf(stderr,
		"usage: slowloris [-b SOURCE [-a ADDRESSES]] [-n CONNECTIONS] [-m trickle|idle|tls]\n"
		"                 [-i SECONDS] [-R] [-r READYFILE] [-s STATUSFILE] [-t SECONDS] ADDR PORT\n");
	exit(2);
}

/* Connection i, from address first + i % n_addrs: fd or -1. */
static int open_one(int i)
{
	/* a TLS record header announcing a 512-byte ClientHello that never comes */
	static const char tls_start[] = { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01 };
	static const char start[] = "GET /metrics HTTP/1.1\r\nHost: slow\r\n";
	struct timeval tv = { 2, 0 };
	struct sockaddr_in from = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	from.sin_addr.s_addr = htonl(ntohl(first.s_addr) + (uint32_t)(i % n_addrs));
	/* a full accept queue must not hold the helper: connect() gives up after 2 s */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if ((bind_source && bind(fd, (struct sockaddr *)&from, sizeof(from)) < 0) ||
	    connect(fd, (struct sockaddr *)&to, sizeof(to)) < 0 ||
	    (mode == TRICKLE && write(fd, start, sizeof(start) - 1) < 0) ||
	    (mode == TLS && write(fd, tls_start, sizeof(tls_start)) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Whether the server closed fd (or answered: a refusal is an answer too). */
static bool closed_by_server(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
	char buf[4096];

	if (poll(&p, 1, 0) <= 0)
		return false;
	/* the end of the stream, or data (a refusal, a TLS alert): the server is done with it */
	(void)!recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	return true;
}

static void write_file(const char *path, const char *fmt, int a, int b)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, fmt, a, b) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *ready = NULL, *status = NULL;
	int n = 10, opt, *fds, open_n = 0, closed = 0, interval = 1, seconds = 600;
	bool reopen = false;
	struct rlimit rl;
	time_t end;

	while ((opt = getopt(argc, argv, "a:b:i:m:n:r:Rs:t:")) != -1) {
		switch (opt) {
		case 'a':
			n_addrs = atoi(optarg);
			break;
		case 'b':
			if (inet_pton(AF_INET, optarg, &first) != 1)
				usage();
			bind_source = true;
			break;
		case 'i':
			interval = atoi(optarg);
			break;
		case 'm':
			mode = !strcmp(optarg, "idle")	? IDLE
			       : !strcmp(optarg, "tls") ? TLS
							: TRICKLE;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 'r':
			ready = optarg;
			break;
		case 'R':
			reopen = true;
			break;
		case 's':
			status = optarg;
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || n <= 0 || n_addrs <= 0 || interval <= 0 || seconds <= 0 ||
	    inet_pton(AF_INET, argv[optind], &to.sin_addr) != 1)
		usage();
	to.sin_port = htons((uint16_t)atoi(argv[optind + 1]));
	signal(SIGPIPE, SIG_IGN);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	fds = calloc((size_t)n, sizeof(*fds));
	if (!fds)
		return 1;
	for (int i = 0; i < n; i++) {
		fds[i] = open_one(i);
		if (fds[i] >= 0)
			open_n++;
	}
	if (ready)
		write_file(ready, "%d %d\n", open_n, n - open_n);
	/* bounded: a test that forgets the helper does not leave it running for good */
	for (end = time(NULL) + seconds; time(NULL) < end;) {
		sleep((unsigned)interval);
		open_n = 0;
		for (int i = 0; i < n; i++) {
			if (fds[i] >= 0 && closed_by_server(fds[i])) {
				close(fds[i]);
				fds[i] = -1;
				closed++;
			}
			if (fds[i] < 0 && reopen)
				fds[i] = open_one(i);
			if (fds[i] < 0)
				continue;
			/* never the blank line (or the rest of the ClientHello) that ends it */
			if ((mode == TRICKLE && write(fds[i], "X-Slow: 1\r\n", 11) < 0) ||
			    (mode == TLS && write(fds[i], "\x03", 1) < 0)) {
				close(fds[i]);
				fds[i] = -1;
				closed++;
				continue;
			}
			open_n++;
		}
		if (status)
			write_file(status, "open %d closed %d\n", open_n, closed);
	}
	return 0;
}
