/* SPDX-License-Identifier: MIT */
/* Private to cgtop2: --listen, /metrics for Prometheus (serve.c); its parts have headers of their own. */
#ifndef CGTOP2_SERVE_H
#define CGTOP2_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cg_layout;
struct serve_opts;

/*
 * What --listen needs before the sampler scans the tree: --web-config read and the port bound,
 * so that a bad file or a busy port is said at once, not after a first scan that takes
 * seconds on a large tree. 0, or the exit status after saying why.
 */
struct serve_pre;
int serve_prepare(const struct serve_opts *a, struct serve_pre **ret);
void serve_pre_free(struct serve_pre *p);
/* The fds the server may hold (connections and its own): the sampler leaves them free. */
size_t serve_fds(const struct serve_pre *p);
/*
 * Serve /metrics on a->listen until SIGINT or SIGTERM (SIGHUP re-reads --web-config); takes p.
 * Each scrape pulls a sample from src, the live source. l: for --psi-trigger's watcher.
 */
struct source;
int serve_run(const struct serve_opts *a, const struct cg_layout *l, struct source *src,
	      struct serve_pre *p);

#endif
