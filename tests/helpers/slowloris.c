// SPDX-License-Identifier: MIT
/* Test helper for cgtop2 --listen: N connections that start a request and never finish it. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: slowloris [-b SOURCE] [-n CONNECTIONS] [-r READYFILE] ADDR PORT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *source = NULL, *ready = NULL;
	struct sockaddr_in to = { .sin_family = AF_INET }, from = { .sin_family = AF_INET };
	int n = 10, opt, *fds, open_n = 0;
	FILE *f;

	while ((opt = getopt(argc, argv, "b:n:r:")) != -1) {
		switch (opt) {
		case 'b':
			source = optarg;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || n <= 0 || inet_pton(AF_INET, argv[optind], &to.sin_addr) != 1 ||
	    (source && inet_pton(AF_INET, source, &from.sin_addr) != 1))
		usage();
	to.sin_port = htons((uint16_t)atoi(argv[optind + 1]));
	signal(SIGPIPE, SIG_IGN);
	fds = calloc((size_t)n, sizeof(*fds));
	if (!fds)
		return 1;
	for (int i = 0; i < n; i++) {
		static const char start[] = "GET /metrics HTTP/1.1\r\nHost: slow\r\n";

		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fds[i] < 0)
			continue;
		if ((source && bind(fds[i], (struct sockaddr *)&from, sizeof(from)) < 0) ||
		    connect(fds[i], (struct sockaddr *)&to, sizeof(to)) < 0 ||
		    write(fds[i], start, sizeof(start) - 1) < 0) {
			close(fds[i]);
			fds[i] = -1;
			continue;
		}
		open_n++;
	}
	if (ready) {
		f = fopen(ready, "w");
		if (!f || fprintf(f, "%d\n", open_n) < 0 || fclose(f))
			return 1;
	}
	/* a header line every second: never the blank line that ends the request */
	for (;;) {
		sleep(1);
		for (int i = 0; i < n; i++)
			if (fds[i] >= 0 && write(fds[i], "X-Slow: 1\r\n", 11) < 0) {
				close(fds[i]);
				fds[i] = -1;
			}
	}
}
