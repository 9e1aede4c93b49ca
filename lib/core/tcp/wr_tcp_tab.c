/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_tab: the engine's tables: connections by 4-tuple (a chained hash over indexes), locals and listeners, the free list, the timer wheel and the send queue (intrusive links, indexes not pointers). */
#include <string.h>

#include "wr_tcp_priv.h"

uint32_t
wr_tcp_hash(const struct wr_tcp *t, uint32_t local, __uint128_t rip,
	    uint16_t lport, uint16_t rport)
{
	/* The address multiplied before the ports join it: a XOR of both
	 * collapses when ports and addresses step together (client k on
	 * address k % n, port lo + k: 64,512 tuples fell in 1,003 buckets). */
	uint64_t k = ((uint64_t)rip ^ (uint64_t)(rip >> 64) * 0xc2b2ae3d27d4eb4full) *
		     0x9e3779b97f4a7c15ull;

	k += (uint64_t)local << 32 | (uint64_t)lport << 16 | rport;
	return (uint32_t)wr_tcp_mix64(k) & t->hash_mask;
}

uint32_t
wr_tcp_lookup(const struct wr_tcp *t, uint32_t local, __uint128_t rip,
	      uint16_t lport, uint16_t rport)
{
	uint32_t i = t->hash[wr_tcp_hash(t, local, rip, lport, rport)];

	while (i != WR_TCP_NIL) {
		const struct wr_tcp_conn *c = &t->conns[i];

		if (c->lport == lport && c->rport == rport && wr_tcp_rip(c) == rip &&
		    c->local == local)
			return i;
		i = c->hnext;
	}
	return WR_TCP_NIL;
}

int32_t
wr_tcp_local_find(const struct wr_tcp *t, __uint128_t ip, bool v6)
{
	uint32_t h = (uint32_t)wr_tcp_mix64((uint64_t)ip ^ (uint64_t)(ip >> 64) ^ v6);

	for (uint32_t n = 0; n <= t->loc_mask; n++, h++) {
		uint32_t e = t->loc_hash[h & t->loc_mask];

		if (e == 0)
			return -1;
		if (t->loc[e - 1].ip == ip && t->loc[e - 1].v6 == v6)
			return (int32_t)(e - 1);
	}
	return -1;
}

int32_t
wr_tcp_listener(const struct wr_tcp *t, uint32_t local, uint16_t port)
{
	uint64_t key = (uint64_t)local << 16 | port;
	uint32_t h = (uint32_t)wr_tcp_mix64(key);

	for (uint32_t n = 0; n <= t->lis_mask; n++, h++) {
		uint64_t e = t->lis[h & t->lis_mask];

		if (e == 0)
			return -1;
		if (e >> 8 == key)
			return (int32_t)(e & 0xff) - 1;
	}
	return -1;
}

/* RFC 6528: a 4 µs clock plus a keyed hash of the tuple. */
uint32_t
wr_tcp_isn(const struct wr_tcp *t, const struct wr_tcp_conn *c)
{
	uint64_t k = t->cfg.seed ^ (uint64_t)wr_tcp_rip(c) ^
		     (uint64_t)(wr_tcp_rip(c) >> 64) * 0x9e3779b97f4a7c15ull ^
		     ((uint64_t)c->local << 32 | (uint32_t)c->lport << 16 |
		      c->rport) * 0xd1b54a32d192ed03ull;

	k ^= k >> 31;
	k *= 0x94d049bb133111ebull;
	k ^= k >> 29;
	return (uint32_t)k + (uint32_t)(t->now >> 12);
}

uint32_t
wr_tcp_conn_alloc(struct wr_tcp *t)
{
	uint32_t i = t->free_head;

	if (i != WR_TCP_NIL)
		t->free_head = t->conns[i].hnext;
	else if (t->n_used < t->max_conns)
		i = t->n_used++;        /* never used: its page not yet touched */
	else
		return WR_TCP_NIL;
	memset(&t->conns[i], 0, sizeof(t->conns[i]));
	t->conns[i].t_at = WR_TCP_NIL;
	t->conns[i].tnext = WR_TCP_NIL;
	t->conns[i].tprev = WR_TCP_NIL;
	t->conns[i].txnext = WR_TCP_NIL;
	return i;
}

void
wr_tcp_conn_link(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	uint32_t h = wr_tcp_hash(t, c->local, wr_tcp_rip(c), c->lport, c->rport);

	c->hnext = t->hash[h];
	t->hash[h] = i;
}

void
wr_tcp_timer_unlink(struct wr_tcp *t, struct wr_tcp_conn *c)
{
	if (c->t_at == WR_TCP_NIL)
		return;
	if (c->tprev != WR_TCP_NIL)
		t->conns[c->tprev].tnext = c->tnext;
	else
		t->wheel[c->t_at & (WR_TCP_WHEEL - 1)] = c->tnext;
	if (c->tnext != WR_TCP_NIL)
		t->conns[c->tnext].tprev = c->tprev;
	c->t_at = WR_TCP_NIL;
}

/* Wake connection @p i at tick @p at (or earlier if it already waits for
 * an earlier one: the firing finds the later deadline and re-arms). */
void
wr_tcp_timer_arm(struct wr_tcp *t, uint32_t i, uint32_t at)
{
	struct wr_tcp_conn *c = &t->conns[i];
	uint32_t *head;

	if (wr_tcp_seq_lt(at, t->wheel_tick))
		at = t->wheel_tick;
	if (c->t_at != WR_TCP_NIL) {
		if (wr_tcp_seq_leq(c->t_at, at))
			return;
		wr_tcp_timer_unlink(t, c);
	}
	head = &t->wheel[at & (WR_TCP_WHEEL - 1)];
	c->t_at = at;
	c->tprev = WR_TCP_NIL;
	c->tnext = *head;
	if (*head != WR_TCP_NIL)
		t->conns[*head].tprev = i;
	*head = i;
}

void
wr_tcp_txq_push(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];

	if (c->flags & WR_TC_TXQ)
		return;
	c->flags |= WR_TC_TXQ;
	c->txnext = WR_TCP_NIL;
	if (t->txq_tail == WR_TCP_NIL)
		t->txq_head = i;
	else
		t->conns[t->txq_tail].txnext = i;
	t->txq_tail = i;
}

/* Out of the hash and the wheel, back on the free list.  The send queue
 * skips free slots (it may still hold @p i). */
void
wr_tcp_conn_free(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	uint32_t *pp = &t->hash[wr_tcp_hash(t, c->local, wr_tcp_rip(c), c->lport,
					    c->rport)];

	while (*pp != WR_TCP_NIL && *pp != i)
		pp = &t->conns[*pp].hnext;
	if (*pp == i)
		*pp = c->hnext;
	wr_tcp_timer_unlink(t, c);
	c->state = WR_TCP_ST_FREE;
	if (!(c->flags & WR_TC_TXQ)) {
		c->hnext = t->free_head;
		t->free_head = i;
	}
	/* else: the send queue frees it when it comes to it */
}
