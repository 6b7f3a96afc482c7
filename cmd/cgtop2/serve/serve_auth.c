// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen: passwords are checked with bcrypt by a few worker threads, never by the
 * server thread. A request whose password is not in the cache of successes is suspended
 * (libmicrohttpd's suspend/resume) while a worker checks it, so that wrong passwords, however
 * many, cost the workers' time and not the scrapes'.
 */
#include <errno.h>
#include <sched.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "serve_auth.h"

struct auth_pool {
	pthread_mutex_t lock;
	pthread_cond_t work, idle;
	struct auth_job *head, *tail; /* waiting, oldest first */
	size_t waiting, max_waiting;
	unsigned running; /* jobs taken by a worker and not yet handed back */
	bool stop, closed;
	pthread_t *threads;
	unsigned n_threads;
};

static void hand_back(struct auth_job *j)
{
	/* the job may be freed as soon as its connection runs again: nothing of it after this */
	MHD_resume_connection(j->conn);
}

static void *worker(void *arg)
{
	struct auth_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct auth_job *j;

		while (!p->head && !p->stop)
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->head)
			break;
		j = p->head;
		p->head = j->next;
		if (!p->head)
			p->tail = NULL;
		p->waiting--;
		p->running++;
		pthread_mutex_unlock(&p->lock);

		j->ok = webconfig_bcrypt(j->password, j->len, j->hash);
		explicit_bzero(j->password, j->len);
		free(j->password);
		j->password = NULL;
		j->done = true;
		hand_back(j);

		pthread_mutex_lock(&p->lock);
		p->running--;
		if (!p->running && !p->head)
			pthread_cond_broadcast(&p->idle);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int auth_pool_new(unsigned threads, size_t max_waiting, struct auth_pool **ret)
{
	struct auth_pool *p = calloc(1, sizeof(*p));
	int r = 0;

	if (!p || !(p->threads = calloc(threads, sizeof(*p->threads)))) {
		free(p);
		return -ENOMEM;
	}
	p->max_waiting = max_waiting;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->idle, NULL);
	for (; p->n_threads < threads; p->n_threads++) {
		r = -pthread_create(&p->threads[p->n_threads], NULL, worker, p);
		if (r < 0)
			break;
		pthread_setname_np(p->threads[p->n_threads], "cgtop2-bcrypt");
	}
	/* one worker is enough to serve; none is not */
	if (!p->n_threads) {
		auth_pool_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

bool auth_pool_submit(struct auth_pool *p, struct auth_job *j)
{
	bool taken = false;

	j->next = NULL;
	j->done = j->ok = false;
	pthread_mutex_lock(&p->lock);
	if (!p->closed && p->waiting < p->max_waiting) {
		if (p->tail)
			p->tail->next = j;
		else
			p->head = j;
		p->tail = j;
		p->waiting++;
		taken = true;
		pthread_cond_signal(&p->work);
	}
	pthread_mutex_unlock(&p->lock);
	return taken;
}

void auth_pool_close(struct auth_pool *p)
{
	struct auth_job *j;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->closed = true;
	/* the waiting ones are answered 503 when their connection runs */
	while ((j = p->head)) {
		p->head = j->next;
		p->waiting--;
		j->done = true;
		j->ok = false;
		j->cancelled = true;
		hand_back(j);
	}
	p->tail = NULL;
	/* a check that runs ends within one bcrypt, at most WC_BCRYPT_COST_MAX's second or so */
	while (p->running)
		pthread_cond_wait(&p->idle, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

void auth_pool_open(struct auth_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->closed = false;
	pthread_mutex_unlock(&p->lock);
}

void auth_pool_free(struct auth_pool *p)
{
	if (!p)
		return;
	auth_pool_close(p);
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->n_threads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->idle);
	free(p->threads);
	free(p);
}

/* The bcrypt threads: as many as leave the server thread a CPU of its own, at least one. */
unsigned auth_threads(void)
{
	cpu_set_t set;
	int n = 1;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set) - 1;
	return n < 1 ? 1 : n > SERVE_AUTH_THREADS ? SERVE_AUTH_THREADS : (unsigned)n;
}
