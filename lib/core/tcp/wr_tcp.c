/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp: the engine's arrays (connections, hash, wheel, locals, listeners), made once at create; counters, histograms and control requests. */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_priv.h"

static void *
zalloc(struct wr_tcp *t, size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p != NULL)
		t->mem += n;
	return p;
}

static uint32_t
pow2_at_least(uint64_t n)
{
	uint32_t p = 1;

	while (p < n && p < (1u << 31))
		p <<= 1;
	return p;
}

static uint32_t
local_add(struct wr_tcp *t, const struct wr_tcp_local *l, bool v6)
{
	uint32_t vlan = wr_tcp_vlan_key(l->n_tags, l->tci);
	int32_t f = wr_tcp_local_find(t, l->ip, v6, vlan);
	uint32_t h;

	if (f >= 0)
		return (uint32_t)f;
	wr_tcp_tmpl_init(&t->loc[t->n_loc], l, v6);
	h = wr_tcp_local_hash(l->ip, v6, vlan);
	while (t->loc_hash[h & t->loc_mask] != 0)
		h++;
	t->loc_hash[h & t->loc_mask] = ++t->n_loc;
	return t->n_loc - 1;
}

static void
listener_add(struct wr_tcp *t, uint32_t local, uint16_t port, unsigned int k)
{
	uint64_t key = (uint64_t)local << 16 | port;
	uint32_t h = (uint32_t)wr_tcp_mix64(key);

	if (wr_tcp_listener(t, local, port) >= 0)
		return;
	while (t->lis[h & t->lis_mask] != 0)
		h++;
	t->lis[h & t->lis_mask] = key << 8 | (k + 1);
}

/* A lane's share of a concurrency: at least one, or a lane whose share
 * rounds to 0 would never open its share of the count and never be done
 * (a concurrency below n_lanes is exceeded by the difference). */
static uint32_t
lane_cap(uint32_t conc, unsigned int lane, unsigned int n)
{
	uint32_t c = conc / n + (lane < conc % n ? 1 : 0);

	return c > 0 ? c : 1;
}

/* A lane's share of a rate (0 stays 0: as fast as the concurrency
 * allows); a positive rate's share never rounds to 0, which would read
 * as no limit. */
static uint64_t
lane_rate(uint64_t milli, unsigned int lane, unsigned int n)
{
	uint64_t r = milli / n + (lane < milli % n ? 1 : 0);

	return milli > 0 && r == 0 ? 1 : r;
}

static int
class_setup(struct wr_tcp *t, unsigned int k, struct wr_error *err)
{
	struct wr_tcp_cls *cl = &t->cls[k];
	const struct wr_tcp_class *s = cl->rt.spec;
	bool v6 = s->ip == 6;
	unsigned int lane = t->cfg.lane, n = t->cfg.n_lanes;
	uint32_t range;

	cl->client = s->client.present && cl->rt.n_clients > 0;
	cl->server = s->server.present && cl->rt.n_listen > 0;
	if (!cl->client && !cl->server)
		return wr_error_set(err, -EINVAL, NULL, s->where.line,
				    s->where.col, NULL, "tcp class %s has no "
				    "side on port %u", s->name, t->cfg.port);
	if (cl->client && cl->rt.n_servers == 0)
		return wr_error_set(err, -EINVAL, NULL, s->where.line,
				    s->where.col, NULL, "tcp class %s: clients "
				    "without a server address", s->name);
	cl->mss = s->tcp.mss ? s->tcp.mss : (v6 ? 1440 : 1460);
	cl->lim.rto_init_us = (uint32_t)(s->tcp.rto_init_ns / 1000);
	cl->lim.rto_min_us = (uint32_t)(s->tcp.rto_min_ns / 1000);
	cl->lim.rto_max_us = (uint32_t)(s->tcp.rto_max_ns / 1000);
	cl->tw_ticks = wr_tcp_ticks(s->tcp.time_wait_ns) + 1;
	cl->idle_ticks = wr_tcp_ticks(s->tcp.idle_timeout_ns) + 1;
	cl->rcv_win = s->tcp.window ? s->tcp.window : 65535;
	cl->rate_milli = lane_rate(s->rate_milli, lane, n);
	if (s->count > 0)
		cl->lane_count = s->count > lane ?
			(s->count - lane + n - 1) / n : 0;
	cl->cap = lane_cap(s->concurrency, lane, n);
	range = (uint32_t)(s->client.sport_hi - s->client.sport_lo) + 1;
	if (t->cfg.sport_ok != NULL) {
		/* the device's RSS decides which ports are this lane's */
		cl->n_sports = range;
		cl->sport_step = 1;
		cl->sport_base = s->client.sport_lo;
	} else {
		cl->n_sports = range > lane ? (range - lane + n - 1) / n : 0;
		cl->sport_step = n;
		cl->sport_base = s->client.sport_lo + lane;
	}
	if (cl->client && cl->n_sports == 0)
		return wr_error_set(err, -EINVAL, NULL, s->client.where.line,
				    s->client.where.col, NULL, "tcp class %s: "
				    "lane %u has no source port", s->name, lane);
	if (cl->client) {
		cl->cli_i = lane % cl->rt.n_clients;
		cl->srv_i = lane / cl->rt.n_clients % cl->rt.n_servers;
		cl->cl_local = zalloc(t, cl->rt.n_clients * sizeof(uint32_t));
		if (cl->cl_local == NULL)
			return -ENOMEM;
		for (uint32_t i = 0; i < cl->rt.n_clients; i++)
			cl->cl_local[i] = local_add(t, &cl->rt.clients[i], v6);
	}
	for (uint32_t i = 0; cl->server && i < cl->rt.n_listen; i++)
		listener_add(t, local_add(t, &cl->rt.listen[i], v6),
			     s->server.dport, k);
	return 0;
}

static int
class_apps(struct wr_tcp *t, unsigned int k, struct wr_error *err)
{
	struct wr_tcp_cls *cl = &t->cls[k];
	const struct wr_tcp_class *s = cl->rt.spec;
	char host[64] = "";
	int rc;

	for (int side = 0; side < 2; side++) {
		if (!(side == WR_TCP_CLIENT ? cl->client : cl->server))
			continue;
		if (cl->rt.app[side] != NULL) {
			cl->app[side] = cl->rt.app[side];
			continue;
		}
		if (side == WR_TCP_CLIENT) {
			__uint128_t a = cl->rt.servers[0];
			uint8_t b[16];

			for (int i = 15; i >= 0; i--, a >>= 8)
				b[i] = (uint8_t)a;
			if (s->ip == 6)
				inet_ntop(AF_INET6, b, host, sizeof(host));
			else
				inet_ntop(AF_INET, b + 12, host, sizeof(host));
		}
		rc = wr_tcp_app_init(&cl->own_app[side], s, (enum wr_tcp_side)side,
				     cl->rt.data, cl->rt.data_len, host, err);
		if (rc < 0)
			return rc;
		cl->own[side] = true;
		cl->app[side] = &cl->own_app[side];
	}
	return 0;
}

/* A connection names its local in 16 bits (doc/tcp.md: bytes a
 * connection): more addresses on one engine are refused, not wrapped. */
static int
check_locals(struct wr_tcp *t, struct wr_error *err)
{
	uint64_t n_loc = 0;

	for (unsigned int k = 0; k < t->n_cls; k++)
		n_loc += t->cls[k].rt.n_clients + t->cls[k].rt.n_listen;
	if (n_loc > UINT16_MAX)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "tcp engine "
				    "of port %u: %llu local addresses, at most "
				    "%u", t->cfg.port, (unsigned long long)n_loc,
				    UINT16_MAX);
	return 0;
}

static int
alloc_arrays(struct wr_tcp *t)
{
	uint64_t n_loc = 0, n_lis = 0;

	for (unsigned int k = 0; k < t->n_cls; k++) {
		n_loc += t->cls[k].rt.n_clients + t->cls[k].rt.n_listen;
		n_lis += t->cls[k].rt.n_listen;
	}
	t->conns = zalloc(t, (size_t)t->max_conns * sizeof(*t->conns));
	t->hash_mask = pow2_at_least(t->max_conns / 2 + 1) - 1; /* chains of 2 or less */
	t->hash = zalloc(t, ((size_t)t->hash_mask + 1) * sizeof(uint32_t));
	t->wheel = zalloc(t, WR_TCP_WHEEL * sizeof(uint32_t));
	t->loc = zalloc(t, (size_t)(n_loc + 1) * sizeof(*t->loc));
	t->loc_mask = pow2_at_least(2 * n_loc + 2) - 1;
	t->loc_hash = zalloc(t, ((size_t)t->loc_mask + 1) * sizeof(uint32_t));
	t->lis_mask = pow2_at_least(2 * n_lis + 2) - 1;
	t->lis = zalloc(t, ((size_t)t->lis_mask + 1) * sizeof(uint64_t));
	t->ctr = zalloc(t, t->n_cls * 2 * sizeof(*t->ctr));
	t->hist = aligned_alloc(64, t->n_cls * 2 * WR_TCP_HIST__COUNT *
				sizeof(*t->hist));
	if (!t->conns || !t->hash || !t->wheel || !t->loc || !t->loc_hash ||
	    !t->lis || !t->ctr || !t->hist)
		return -ENOMEM;
	t->mem += t->n_cls * 2 * WR_TCP_HIST__COUNT * sizeof(*t->hist);
	for (unsigned int h = 0; h < t->n_cls * 2 * WR_TCP_HIST__COUNT; h++)
		wr_latency_init(&t->hist[h]);
	memset(t->hash, 0xff, ((size_t)t->hash_mask + 1) * sizeof(uint32_t));
	memset(t->wheel, 0xff, WR_TCP_WHEEL * sizeof(uint32_t));
	/* slots are taken in order first (n_used), the free list after:
	 * create touches none of them */
	t->free_head = WR_TCP_NIL;
	return 0;
}

int
wr_tcp_create(struct wr_tcp **out, const struct wr_tcp_cfg *cfg,
	      struct wr_error *err)
{
	struct wr_tcp *t;
	int rc;

	*out = NULL;
	if (cfg->max_conns == 0 || cfg->max_conns > (1u << 28) ||
	    cfg->n_classes == 0 || cfg->n_classes > WR_TCP_CLASSES_MAX ||
	    cfg->n_lanes == 0 || cfg->lane >= cfg->n_lanes)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "tcp engine "
				    "of port %u: max_conns %u (1..2^28), %u "
				    "classes, lane %u of %u", cfg->port,
				    cfg->max_conns, cfg->n_classes, cfg->lane,
				    cfg->n_lanes);
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->mem = sizeof(*t);
	t->cfg = *cfg;
	t->n_cls = cfg->n_classes;
	t->max_conns = cfg->max_conns;
	t->txq_head = t->txq_tail = WR_TCP_NIL;
	t->cls = zalloc(t, t->n_cls * sizeof(*t->cls));
	rc = t->cls == NULL ? -ENOMEM : 0;
	for (unsigned int k = 0; rc == 0 && k < t->n_cls; k++)
		t->cls[k].rt = cfg->classes[k];
	if (rc == 0)
		rc = check_locals(t, err);
	if (rc == 0)
		rc = alloc_arrays(t);
	for (unsigned int k = 0; rc == 0 && k < t->n_cls; k++)
		rc = class_setup(t, k, err);
	for (unsigned int k = 0; rc == 0 && k < t->n_cls; k++)
		rc = class_apps(t, k, err);
	if (rc < 0) {
		wr_tcp_free(t);
		if (rc == -ENOMEM)
			wr_error_set(err, rc, NULL, 0, 0, NULL, "tcp engine of "
				     "port %u: out of memory for %u "
				     "connections", cfg->port, cfg->max_conns);
		return rc;
	}
	/* the programs the engine compiled: their data repeated and its
	 * prefix sums (wr_tcp_app.c) */
	for (unsigned int k = 0; k < t->n_cls; k++)
		for (int sd = 0; sd < 2; sd++)
			if (t->cls[k].own[sd]) {
				const struct wr_tcp_app *a = &t->cls[k].own_app[sd];

				t->mem += a->rep_len + ((a->data_len >> a->sum_shift) +
							1) * sizeof(*a->sum);
			}
	t->pc.mem_bytes = t->mem;
	*out = t;
	return 0;
}

void
wr_tcp_free(struct wr_tcp *t)
{
	if (t == NULL)
		return;
	for (unsigned int k = 0; t->cls != NULL && k < t->n_cls; k++) {
		for (int s = 0; s < 2; s++)
			if (t->cls[k].own[s])
				wr_tcp_app_fini(&t->cls[k].own_app[s]);
		free(t->cls[k].cl_local);
	}
	free(t->cls);
	free(t->conns);
	free(t->hash);
	free(t->wheel);
	free(t->loc);
	free(t->loc_hash);
	free(t->lis);
	free(t->ctr);
	free(t->hist);
	free(t);
}

size_t
wr_tcp_mem(const struct wr_tcp *t)
{
	return t->mem;
}

void
wr_tcp_start(struct wr_tcp *t, uint64_t now)
{
	t->now = now;
	t->tick = wr_tcp_ticks(now);
	if (!t->started)
		t->wheel_tick = t->tick;
	t->started = true;
	t->start_ns = now;
	for (unsigned int k = 0; k < t->n_cls; k++) {
		t->cls[k].start_ns = now;
		t->cls[k].opening = t->cls[k].client;
	}
}

void
wr_tcp_stop(struct wr_tcp *t, bool abort, uint64_t now)
{
	t->now = now;
	t->tick = wr_tcp_ticks(now);
	for (unsigned int k = 0; k < t->n_cls; k++)
		t->cls[k].opening = false;
	for (uint32_t i = 0; i < t->n_used; i++) {
		struct wr_tcp_conn *c = &t->conns[i];

		if (c->state == WR_TCP_ST_FREE)
			continue;
		if (!abort) {
			/* a send without end ("until the run ends") ends here:
			 * a FIN after what went out */
			if (c->send_end == UINT64_MAX &&
			    !(c->flags & WR_TC_FIN_PEND) &&
			    (c->state == WR_TCP_ST_ESTABLISHED ||
			     c->state == WR_TCP_ST_CLOSE_WAIT)) {
				c->send_end = wr_tcp_tx_off(c, c->snd_max);
				c->flags |= WR_TC_FIN_PEND;
				wr_tcp_txq_push(t, i);
			}
			continue;
		}
		if (c->state == WR_TCP_ST_TIME_WAIT) {
			WR_TCP_SUB(wr_tcp_ctr(t, c)->time_wait, 1);
			wr_tcp_conn_free(t, i);
			continue;
		}
		wr_tcp_end(t, i, &wr_tcp_ctr(t, c)->failed_other, true);
	}
}

bool
wr_tcp_done(const struct wr_tcp *t)
{
	for (unsigned int k = 0; k < t->n_cls; k++)
		if (t->cls[k].opening)
			return false;
	return t->n_open == 0;
}

int
wr_tcp_ctl(struct wr_tcp *t, const struct wr_tcp_ctl *c)
{
	uint32_t empty = 0;

	if (c->class_idx >= t->n_cls)
		return -EINVAL;
	if (c->set_concurrency && c->concurrency > t->max_conns *
	    (uint64_t)t->cfg.n_lanes)
		return -EINVAL;
	if (!__atomic_compare_exchange_n(&t->box.state, &empty, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -EBUSY;
	t->box.req = *c;
	__atomic_store_n(&t->box.state, 2, __ATOMIC_RELEASE);
	return 0;
}

/* The lcore's side of the mailbox (wr_tcp_poll). */
static void
ctl_take(struct wr_tcp *t)
{
	struct wr_tcp_ctl r;
	struct wr_tcp_cls *cl;
	unsigned int n = t->cfg.n_lanes, lane = t->cfg.lane;

	if (__atomic_load_n(&t->box.state, __ATOMIC_ACQUIRE) != 2)
		return;
	r = t->box.req;
	__atomic_store_n(&t->box.state, 0, __ATOMIC_RELEASE);
	cl = &t->cls[r.class_idx];
	if (r.set_rate) {
		/* The opened count so far stays: the new rate counts from now. */
		cl->rate_milli = lane_rate(r.rate_milli, lane, n);
		cl->start_ns = t->now;
		cl->opened_base = cl->opened;
		cl->no_ramp = true;
		cl->next_check = 0;
	}
	if (r.set_concurrency)
		cl->cap = lane_cap(r.concurrency, lane, n);
	if (r.pause)
		cl->paused = true;
	if (r.resume)
		cl->paused = false;
}

void
wr_tcp_counters(const struct wr_tcp *t, unsigned int k, enum wr_tcp_side side,
		struct wr_tcp_counters *out)
{
	const uint64_t *src;
	uint64_t *dst = (uint64_t *)out;

	memset(out, 0, sizeof(*out));
	if (k >= t->n_cls)
		return;
	src = (const uint64_t *)&t->ctr[k * 2 + side];
	for (size_t i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void
wr_tcp_hist(const struct wr_tcp *t, unsigned int k, enum wr_tcp_side side,
	    enum wr_tcp_hist_id id, struct wr_latency *dst)
{
	if (k < t->n_cls && id < WR_TCP_HIST__COUNT)
		wr_latency_merge(dst, &t->hist[(k * 2 + side) *
					       WR_TCP_HIST__COUNT + id]);
}

void
wr_tcp_port_counters(const struct wr_tcp *t, struct wr_tcp_port_counters *out)
{
	const uint64_t *src = (const uint64_t *)&t->pc;
	uint64_t *dst = (uint64_t *)out;

	for (size_t i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void
wr_tcp_counters_add(struct wr_tcp_counters *a, const struct wr_tcp_counters *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;

	for (size_t i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		x[i] += y[i];
}

/* A baseline taken earlier by the same reader: never above the counter,
 * but a snapshot of counters the lcores write one by one may be. */
static uint64_t
sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void
wr_tcp_counters_sub(struct wr_tcp_counters *a, const struct wr_tcp_counters *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;
	size_t i;

	for (i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		if (i != offsetof(struct wr_tcp_counters, active) / sizeof(uint64_t) &&
		    i != offsetof(struct wr_tcp_counters, time_wait) / sizeof(uint64_t))
			x[i] = sub0(x[i], y[i]);
}

void
wr_tcp_port_counters_sub(struct wr_tcp_port_counters *a,
			 const struct wr_tcp_port_counters *b)
{
	uint64_t *x = (uint64_t *)a;
	const uint64_t *y = (const uint64_t *)b;
	size_t i;

	for (i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		if (i != offsetof(struct wr_tcp_port_counters, mem_bytes) /
		    sizeof(uint64_t))
			x[i] = sub0(x[i], y[i]);
}

void
wr_tcp_counters_each(const struct wr_tcp_counters *c,
		     void (*put)(void *ctx, const char *name, uint64_t v),
		     void *ctx)
{
#define P(f) put(ctx, #f, c->f)
	P(attempted); P(established); P(failed_refused); P(failed_timeout);
	P(failed_reset); P(failed_other); P(closed); P(aborted); P(active);
	P(time_wait); P(tx_bytes); P(rx_bytes); P(tx_segs); P(rx_segs);
	P(tx_frame_bytes); P(rx_frame_bytes); P(rexmit_segs); P(rexmit_bytes);
	P(rto); P(fast_rexmit); P(ooo_segs); P(dup_segs); P(dup_acks);
	P(zero_window); P(http_requests); P(http_responses);
#undef P
	put(ctx, "http_status_bad", c->http_status[0]);
	put(ctx, "http_1xx", c->http_status[1]);
	put(ctx, "http_2xx", c->http_status[2]);
	put(ctx, "http_3xx", c->http_status[3]);
	put(ctx, "http_4xx", c->http_status[4]);
	put(ctx, "http_5xx", c->http_status[5]);
	put(ctx, "app_errors", c->app_errors);
}

/* ---- the lcore's turn: timers, opening, sending ---- */

static bool
due(uint32_t at, uint32_t tick)
{
	return at != 0 && wr_tcp_seq_leq(at, tick);
}

static void
fire(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	const struct wr_tcp_cls *cl = &t->cls[c->cls];
	uint32_t next = 0, idle;
	struct wr_tcp_app_out o;

	if (c->state == WR_TCP_ST_TIME_WAIT) {
		if (due(c->rto_at, t->tick))
			wr_tcp_end(t, i, NULL, false);
		else
			wr_tcp_timer_arm(t, i, c->rto_at);
		return;
	}
	idle = c->last_rx + cl->idle_ticks;
	if (c->state != WR_TCP_ST_SYN_SENT && due(idle, t->tick)) {
		wr_tcp_end(t, i, &wr_tcp_ctr(t, c)->failed_timeout, true);
		return;
	}
	if (due(c->rto_at, t->tick)) {
		c->rto_at = 0;
		wr_tcp_rto_fire(t, i);
		if (c->state == WR_TCP_ST_FREE)
			return;
	}
	if (due(c->dack_at, t->tick)) {
		c->dack_at = 0;
		c->flags |= WR_TC_ACK_NOW;
		wr_tcp_txq_push(t, i);
	}
	if (due(c->think_at, t->tick)) {
		c->think_at = 0;
		memset(&o, 0, sizeof(o));
		wr_tcp_app_timer(cl->app[(c->flags & WR_TC_SERVER) ? 1 : 0],
				 &c->app, &o);
		wr_tcp_app_apply(t, i, &o);
		if (c->state == WR_TCP_ST_FREE)
			return;
	}
	if (c->state != WR_TCP_ST_SYN_SENT)
		next = idle;
	if (c->rto_at && (!next || wr_tcp_seq_lt(c->rto_at, next)))
		next = c->rto_at;
	if (c->dack_at && (!next || wr_tcp_seq_lt(c->dack_at, next)))
		next = c->dack_at;
	if (c->think_at && (!next || wr_tcp_seq_lt(c->think_at, next)))
		next = c->think_at;
	if (next)
		wr_tcp_timer_arm(t, i, next);
}

static void
timers(struct wr_tcp *t)
{
	uint32_t n = 0;

	if (t->n_timed == 0) {
		/* nothing on the wheel: no slot to walk */
		t->wheel_tick = t->tick + 1;
		return;
	}
	while (wr_tcp_seq_leq(t->wheel_tick, t->tick) && n++ < WR_TCP_WHEEL) {
		uint32_t *head = &t->wheel[t->wheel_tick & (WR_TCP_WHEEL - 1)];
		uint32_t i = *head, nx;

		while (i != WR_TCP_NIL) {
			struct wr_tcp_conn *c = &t->conns[i];

			nx = c->tnext;
			if (wr_tcp_seq_leq(c->t_at, t->tick)) {
				wr_tcp_timer_unlink(t, c);
				fire(t, i);
			}
			i = nx;
		}
		t->wheel_tick++;
	}
	if (wr_tcp_seq_lt(t->wheel_tick, t->tick))
		t->wheel_tick = t->tick;  /* a long pause: every slot was seen */
}

/* Connection k (k % n_lanes == lane) uses client k % n_clients and server
 * k / n_clients % n_servers: stepped by n_lanes without a division. */
static void
next_pair(struct wr_tcp_cls *cl, unsigned int n_lanes)
{
	cl->cli_i += n_lanes;
	while (cl->cli_i >= cl->rt.n_clients) {
		cl->cli_i -= cl->rt.n_clients;
		if (++cl->srv_i == cl->rt.n_servers)
			cl->srv_i = 0;
	}
}

static bool
open_conn(struct wr_tcp *t, unsigned int k)
{
	struct wr_tcp_cls *cl = &t->cls[k];
	const struct wr_tcp_class *s = cl->rt.spec;
	uint32_t local = cl->cl_local[cl->cli_i], tries, i = WR_TCP_NIL;
	__uint128_t rip = cl->rt.servers[cl->srv_i];
	uint16_t sport = 0;
	struct wr_tcp_conn *c;
	struct wr_tcp_counters *ct = &t->ctr[k * 2];

	/* with RSS about 1 in n_lanes ports is this lane's: n times the tries */
	tries = 64 * (t->cfg.sport_ok != NULL ? t->cfg.n_lanes : 1);
	if (tries > cl->n_sports)
		tries = cl->n_sports;
	while (tries-- > 0) {
		sport = (uint16_t)(cl->sport_base + cl->sport_step * cl->sport_cur);
		if (++cl->sport_cur == cl->n_sports)
			cl->sport_cur = 0;
		if (t->cfg.sport_ok != NULL &&
		    !t->cfg.sport_ok(t->cfg.sport_ctx,
				     &cl->rt.clients[cl->cli_i], rip, sport,
				     s->server.dport))
			continue;
		if (wr_tcp_lookup(t, local, rip, sport, s->server.dport) ==
		    WR_TCP_NIL) {
			i = 0;
			break;
		}
	}
	if (i == WR_TCP_NIL) {
		WR_TCP_ADD(t->pc.ports_busy, 1);
		return false;
	}
	i = wr_tcp_conn_alloc(t);
	if (i == WR_TCP_NIL)
		return false;
	c = &t->conns[i];
	c->local = (uint16_t)local;
	wr_tcp_rip_set(c, rip);
	c->lport = sport;
	c->rport = s->server.dport;
	c->cls = (uint8_t)k;
	c->flags = s->ip == 6 ? WR_TC_V6 : 0;
	c->iss = wr_tcp_isn(t, c);
	c->snd_una = c->iss;
	c->snd_nxt = c->snd_max = c->iss + 1;
	c->state = WR_TCP_ST_SYN_SENT;
	c->t0_us = wr_tcp_us(t->now);
	c->last_rx = t->tick;
	wr_tcp_cc_init(&c->cc, (uint16_t)cl->mss, s->tcp.init_cwnd, false,
		       &cl->lim);
	wr_tcp_conn_link(t, i);
	t->n_open++;
	cl->open_now++;
	cl->opened++;
	next_pair(cl, t->cfg.n_lanes);
	WR_TCP_ADD(ct->attempted, 1);
	WR_TCP_ADD(ct->active, 1);
	wr_tcp_send_ctl(t, c, WR_TH_SYN, c->iss);
	wr_tcp_rto_arm(t, c);
	return true;
}

/* Connections the class's rate allows by now on this lane: the rate's
 * integral since start_ns (a linear ramp first). */
static uint64_t
rate_due(const struct wr_tcp_cls *cl, uint64_t now)
{
	uint64_t e = now - cl->start_ns;
	uint64_t ramp = cl->no_ramp ? 0 : cl->rt.spec->ramp_ns;
	__uint128_t x;

	if (ramp > 0 && e < ramp)
		x = (__uint128_t)e * e / (2 * ramp);
	else
		x = e - ramp / 2;
	return cl->opened_base +
	       (uint64_t)((__uint128_t)cl->rate_milli * x / 1000000000000ull);
}

static void
open_class(struct wr_tcp *t, unsigned int k)
{
	struct wr_tcp_cls *cl = &t->cls[k];
	const struct wr_tcp_class *s = cl->rt.spec;
	uint64_t due_n;

	if (!cl->opening || cl->paused)
		return;
	if ((s->duration_ns > 0 && t->now - t->start_ns >= s->duration_ns) ||
	    (s->count > 0 && cl->opened >= cl->lane_count)) {
		cl->opening = false;
		return;
	}
	if (cl->open_now >= cl->cap || t->now < cl->next_check)
		return;
	/* no rate: as fast as the concurrency allows, a burst a poll */
	due_n = cl->rate_milli ? rate_due(cl, t->now) : cl->opened + 256;
	if (due_n <= cl->opened) {
		/* nothing due: the rate's 128-bit division waits 16 µs
		 * (polls come far more often when idle) */
		cl->next_check = t->now + (1u << 14);
		return;
	}
	if (s->count > 0 && due_n > cl->lane_count)
		due_n = cl->lane_count;
	while (cl->opened < due_n && cl->open_now < cl->cap)
		if (!open_conn(t, k))
			break;
}

uint64_t
wr_tcp_poll(struct wr_tcp *t, uint64_t now)
{
	uint32_t i, last;

	t->now = now;
	t->tick = wr_tcp_ticks(now);
	ctl_take(t);
	timers(t);
	/* the queue as it is now; what output() queues again waits a turn */
	last = t->txq_tail;
	while (last != WR_TCP_NIL && (i = t->txq_head) != WR_TCP_NIL) {
		struct wr_tcp_conn *c = &t->conns[i];

		t->txq_head = c->txnext;
		if (t->txq_head == WR_TCP_NIL)
			t->txq_tail = WR_TCP_NIL;
		c->flags &= (uint16_t)~WR_TC_TXQ;
		if (c->state == WR_TCP_ST_FREE) {
			c->hnext = t->free_head;        /* freed while queued */
			t->free_head = i;
		} else {
			wr_tcp_output(t, i);
		}
		if (i == last)
			break;
	}
	/* after the ACKs owed: a closing peer frees its slot first */
	for (unsigned int k = 0; t->started && k < t->n_cls; k++)
		open_class(t, k);
	return now + (1ull << WR_TCP_TICK_SHIFT);
}
