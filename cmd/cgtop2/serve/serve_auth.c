// SPDX-License-Identifier: MIT
/*
 * cgtop2 --listen: passwords are checked with bcrypt by a few worker threads, never by the
 * server thread. A request whose password is not in the cache of successes is suspended
 * (libmicrohttpd's suspend/resume) while a worker checks it, so that wrong passwords, however
 * many, cost the workers' time and not the scrapes'. What failures may cost is bounded, per
 * address and in all (a budget of checks that may fail), and an address that has not failed
 * goes ahead of those that did: a flood of wrong passwords from elsewhere neither starves a
 * scraper's first check nor shuts it out.
 */
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "serve_auth.h"

struct auth_pool {
	pthread_mutex_t lock;
	pthread_cond_t work, idle;
	/* waiting, oldest first: [1] the first checks of addresses without failures, [0] others */
	struct auth_job *head[2], *tail[2];
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

		int q;

		while (!p->head[0] && !p->head[1] && !p->stop)
			pthread_cond_wait(&p->work, &p->lock);
		q = p->head[1] ? 1 : 0;
		if (!p->head[q])
			break;
		j = p->head[q];
		p->head[q] = j->next;
		if (!p->head[q])
			p->tail[q] = NULL;
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
		if (!p->running && !p->head[0] && !p->head[1])
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
		int q = j->charge.first;

		if (p->tail[q])
			p->tail[q]->next = j;
		else
			p->head[q] = j;
		p->tail[q] = j;
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
	for (int q = 0; q < 2; q++) {
		while ((j = p->head[q])) {
			p->head[q] = j->next;
			p->waiting--;
			j->done = true;
			j->ok = false;
			j->cancelled = true;
			hand_back(j);
		}
		p->tail[q] = NULL;
	}
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

/* ---- the budget of checks that may fail ------------------------------------------------ */

const char *const auth_count_names[AC_N] = {
	[AC_CACHED] = "cached",	      [AC_PASSED] = "passed",
	[AC_FAILED] = "failed",	      [AC_CACHED_WRONG] = "cached_wrong",
	[AC_THROTTLED] = "throttled",
};

/*
 * A token bucket as a time (GCRA): tat is when it would be full again, each token taken moves
 * it an interval on, and a token is there while that stays within burst intervals of now.
 */
struct bucket {
	uint64_t tat;
};

/* 0 when a token was taken, else the ns until one is there */
static uint64_t bucket_take(struct bucket *k, uint64_t now, uint64_t interval, unsigned burst)
{
	uint64_t t = (k->tat > now ? k->tat : now) + interval;

	if (t - now > burst * interval)
		return t - now - burst * interval;
	k->tat = t;
	return 0;
}

static void bucket_give(struct bucket *k, uint64_t interval)
{
	k->tat = k->tat > interval ? k->tat - interval : 0;
}

struct addr_slot {
	struct auth_addr addr;
	struct bucket bucket;
	uint64_t used_ns; /* last asked */
	unsigned running; /* checks taken and not settled */
	bool failed; /* a check failed since the last that passed */
	bool in_use;
};

struct auth_budget {
	struct addr_slot slots[SERVE_AUTH_ADDRS];
	struct bucket all;
	uint64_t counts[AC_N];
};

int auth_budget_new(struct auth_budget **ret)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? 0 : -ENOMEM;
}

void auth_budget_free(struct auth_budget *b)
{
	free(b);
}

uint64_t *auth_budget_counts(struct auth_budget *b)
{
	return b->counts;
}

void auth_addr_of(const struct sockaddr *sa, struct auth_addr *ret)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	*ret = (struct auth_addr){ 0 };
	if (sa && sa->sa_family == AF_INET) {
		memcpy(ret->b, mapped, sizeof(mapped));
		memcpy(ret->b + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		const uint8_t *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;

		/*
		 * IPv4 through the dual-stack socket stays one address; IPv6 hosts get a /64 each
		 * (SLAAC), so that is what one client can hold
		 */
		memcpy(ret->b, a, memcmp(a, mapped, sizeof(mapped)) ? 8 : 16);
	}
}

/*
 * The address's slot; a new one takes the slot asked least lately, one without failures first
 * (an address forgotten starts again without failures).
 */
static struct addr_slot *slot_of(struct auth_budget *b, const struct auth_addr *addr, bool make)
{
	struct addr_slot *pick = NULL;

	for (size_t i = 0; i < SERVE_AUTH_ADDRS; i++) {
		struct addr_slot *s = &b->slots[i];

		if (s->in_use && !memcmp(&s->addr, addr, sizeof(*addr)))
			return s;
		/* a slot with a check under way stays: its end is settled there */
		if (!make || s->running || (pick && !pick->in_use))
			continue;
		if (!pick || !s->in_use || s->failed < pick->failed ||
		    (s->failed == pick->failed && s->used_ns < pick->used_ns))
			pick = s;
	}
	if (pick)
		*pick = (struct addr_slot){ .addr = *addr, .in_use = true };
	return pick;
}

unsigned auth_budget_take(struct auth_budget *b, const struct auth_addr *addr, uint64_t now,
			  struct auth_charge *ch)
{
	struct addr_slot *s = slot_of(b, addr, true);
	uint64_t wait;

	*ch = (struct auth_charge){ .addr = *addr };
	/* every slot with a check under way: as many addresses are being checked at once */
	wait = NSEC_PER_SEC;
	if (!s)
		goto refused;
	s->used_ns = now;
	wait = bucket_take(&s->bucket, now, SERVE_AUTH_ADDR_NS, SERVE_AUTH_ADDR_BURST);
	if (wait)
		goto refused;
	ch->taken = true;
	ch->first = !s->failed && !s->running;
	ch->all = !(wait = bucket_take(&b->all, now, SERVE_AUTH_ALL_NS, SERVE_AUTH_ALL_BURST));
	/*
	 * An address's first check is made even when the others' failures took every token: a
	 * scraper is not shut out by a flood from elsewhere
	 */
	if (!ch->all && !ch->first) {
		bucket_give(&s->bucket, SERVE_AUTH_ADDR_NS);
		*ch = (struct auth_charge){ .addr = *addr };
		goto refused;
	}
	s->running++;
	return 0;
refused:
	b->counts[AC_THROTTLED]++;
	return (unsigned)((wait + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
}

void auth_budget_settle(struct auth_budget *b, struct auth_charge *ch, bool made, bool passed)
{
	struct addr_slot *s;

	if (made)
		b->counts[passed ? AC_PASSED : AC_FAILED]++;
	if (!ch->taken)
		return;
	s = slot_of(b, &ch->addr, false);
	if (s && s->running)
		s->running--;
	if (s && made)
		s->failed = !passed;
	if (!made || passed) {
		if (s)
			bucket_give(&s->bucket, SERVE_AUTH_ADDR_NS);
		if (ch->all)
			bucket_give(&b->all, SERVE_AUTH_ALL_NS);
	}
	ch->taken = ch->all = false;
}
