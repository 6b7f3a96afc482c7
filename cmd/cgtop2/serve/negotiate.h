/* SPDX-License-Identifier: MIT */
/* Private to cgtop2 --listen: pure parsers of what a client or the command line sends (negotiate.c). */
#ifndef CGTOP2_NEGOTIATE_H
#define CGTOP2_NEGOTIATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The default port of --listen. The Prometheus default-port registry's exporter range
 * (9100-9999) is full and it allocates from 10000 up (10019 in 2024); 10306 is in no
 * allocation known to us, and keeps the 9306 of treydock's cgroup_exporter in mind without
 * colliding with it on the HPC hosts that run both (man page, PORT). Not registered.
 */
#define SERVE_DEFAULT_PORT 10306

enum expo { EXPO_TEXT, EXPO_OPENMETRICS };

/* The exposition format an Accept header asks for (NULL: no header): text 0.0.4 unless
 * OpenMetrics 1.0.0 is acceptable with at least text's quality. */
enum expo negotiate_format(const char *accept);
/* Whether an Accept-Encoding header (NULL: none) allows gzip. */
bool negotiate_gzip(const char *accept_encoding);
/*
 * --listen's [ADDR:]PORT: PORT, :PORT, ADDR:PORT or [IPV6]:PORT; NULL or "" is every address
 * on SERVE_DEFAULT_PORT. *ret_host: NULL for every address, else a new string. -EINVAL.
 */
int listen_parse(const char *arg, char **ret_host, unsigned *ret_port);
/*
 * An Authorization header's Basic credentials (RFC 7617, padded base64 as Go takes it): user
 * and password as new strings, the password's length in *ret_len. -EINVAL for another scheme,
 * bad base64, no ':', or a NUL byte in either part (never the configured one); -ENOMEM.
 */
int basic_auth_parse(const char *header, char **ret_user, char **ret_pass, size_t *ret_len);

#endif
