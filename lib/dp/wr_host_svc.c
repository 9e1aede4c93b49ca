/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_svc: the emulated hosts' service: rings from the RX lcores drained into the host engine, timers, a TX queue per port, reads for the control plane. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "wr_engine_priv.h"
#include "wr_host_svc.h"
#include "wr_rx.h"

/* Mbufs of a port's service pool: its TX ring (1024 descriptors by
 * default, WR_DESC_DEFAULT) full of answers, the burst being built, and
 * as much again: at 1 M answers a second the NIC frees them within a ring's
 * worth of time. */
#define SVC_POOL_MBUFS 4095
#define SVC_POOL_CACHE 0 /* a control thread has no lcore cache */
/* A TX burst the NIC did not take whole is offered again this many times
 * before what is left is dropped (and counted): the service must not
 * spin on a stuck queue while frames wait in its rings. */
#define SVC_TX_TRIES 4
/* While no worker runs (a bring-up's burst of announcements, the
 * releases at the end) nothing waits behind the service: it lets the NIC
 * empty its ring, up to a millisecond a burst. */
#define SVC_TX_TRIES_OWN 1000

static inline void
count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* The hosts' clock: monotonic ns (wr_host.h: `now` is always given).
 * CLOCK_MONOTONIC rather than the TSC: DPDK rounds the TSC's frequency
 * (doc: 0.149 % here), and DHCP's lease times are the server's seconds. */
static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pull(struct wr_host_svc_port *sp);

/* @p own: no worker runs (wr_host_svc_rx_own()), the service may use
 * any TX queue of the port, and polls its RX queues (pull()) after each
 * burst: a bring-up sends thousands of frames in one tick, and the
 * answers arriving meanwhile would overflow a small RX ring (net_af_packet
 * has 512 frames: seen, 488 of 1,000 ARP replies lost to a bring-up
 * without this).  @p again: frames counted in tx already (the out ring's,
 * sent at last). */
static void
flush_of(struct wr_host_svc_port *sp, bool own, bool again)
{
	uint16_t sent = 0, tries;

	if (sp->shared && !own)
		sent = (uint16_t)rte_ring_sp_enqueue_burst(sp->out,
				(void **)sp->out_m, sp->n_out, NULL);
	else
		for (tries = 0; sent < sp->n_out &&
		     tries < (own ? SVC_TX_TRIES_OWN : SVC_TX_TRIES); tries++) {
			if (tries > 0 && own)
				rte_delay_us_block(1);
			sent += rte_eth_tx_burst(sp->port_id, sp->queue_id,
						 sp->out_m + sent,
						 sp->n_out - sent);
		}
	if (sent < sp->n_out) {
		rte_pktmbuf_free_bulk(sp->out_m + sent, sp->n_out - sent);
		count(&sp->c.tx_drop, sp->n_out - sent);
	}
	if (sent && !again)
		count(&sp->c.tx, sent);
	sp->n_out = 0;
	if (own)
		pull(sp);
}

static inline void
flush(struct wr_host_svc_port *sp, bool own)
{
	flush_of(sp, own, false);
}

/* The engine's send callback: a copy into an mbuf of the service's pool,
 * queued for the pass's TX burst. */
static int
svc_send(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct wr_host_svc_port *sp = ctx;
	struct rte_mbuf *m;

	if (sp->n_out == WR_HOST_SVC_BURST)
		flush(sp, sp->own);
	m = rte_pktmbuf_alloc(sp->pool);
	if (m == NULL || len > rte_pktmbuf_tailroom(m)) {
		rte_pktmbuf_free(m);
		count(&sp->c.tx_drop, 1);
		return -ENOBUFS;
	}
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), frame, len);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	sp->out_m[sp->n_out++] = m;
	return 0;
}

/* Frames into the hosts: they only read them (answers are built in
 * their own buffers), so a frame a capture also holds needs no copy. */
/* An answer of the responder, queued for the pass's TX burst. */
static void
queue_out(struct wr_host_svc_port *sp, struct rte_mbuf *m, uint32_t len)
{
	if (sp->n_out == WR_HOST_SVC_BURST)
		flush(sp, sp->own);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	/* RX flags mean nothing on TX: no offload asked by accident. */
	m->ol_flags = 0;
	sp->out_m[sp->n_out++] = m;
}

static void
got_reply(struct wr_host_svc_resp *r, bool v6, __uint128_t ip,
	  const uint8_t mac[6])
{
	unsigned int i;

		for (i = 0; i < r->n_q; i++) {
		struct wr_arpd_query *q = &r->q[i];

		if (__atomic_load_n(&q->done, __ATOMIC_RELAXED) || q->v6 != v6 ||
		    (v6 ? q->ip6 != ip : q->ip != (uint32_t)ip))
			continue;
		memcpy(q->mac, mac, 6);
		__atomic_store_n(&q->done, 1, __ATOMIC_RELEASE);
	}
}

/*
 * The port's responder (wr_neigh.h) on frame @p *mp: an ARP request, NS or
 * echo request for its addresses is answered in place, into the received
 * mbuf (a copy when a capture holds it too), and queued; an ARP reply or
 * NA answers a question of its.  @return true when it took the mbuf (an
 * answer); false: the frame goes on to the hosts as it was.
 */
static bool
respond(struct wr_host_svc_port *sp, struct rte_mbuf **mp)
{
	struct wr_host_svc_resp *r = sp->resp;
	struct rte_mbuf *m = *mp;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m), cap;
	struct wr_arp_pkt a;
	struct wr_nd_pkt na;
	enum wr_arp_verdict v;
	enum wr_nd_verdict v6;

	/* A chained frame (jumbo scatter) is nothing a host answers. */
	if (m->nb_segs != 1)
		return false;
	/* Held by a capture (wr_cap_rx): the answer is written in place, so
	 * into a copy, made only when there is an answer to write: the
	 * verdicts are decided on the frame as received first. */
	if (rte_mbuf_refcnt_read(m) > 1) {
		uint8_t tmp[WR_HOST_FRAME_MAX];
		uint32_t l = len;

		if (len > sizeof(tmp))
			return false;
		memcpy(tmp, p, len);
		if (wr_arp_answer(tmp, &l, sizeof(tmp), r->mac, &r->addrs,
				  &a) == WR_ARP_IGNORE &&
		    wr_nd_answer(tmp, &l, sizeof(tmp), r->mac, &r->addrs6,
				 &na) == WR_ND_IGNORE)
			return false;
		m = rte_pktmbuf_copy(*mp, sp->pool, 0, UINT32_MAX);
		if (m == NULL)
			return false;
		rte_pktmbuf_free(*mp);
		*mp = m;
		p = rte_pktmbuf_mtod(m, uint8_t *);
	}
	cap = rte_pktmbuf_tailroom(m) + len;
	v = wr_arp_answer(p, &len, cap, r->mac, &r->addrs, &a);
	switch (v) {
	case WR_ARP_ANSWER_ARP:
	case WR_ARP_ANSWER_ICMP:
		queue_out(sp, m, len);
		count(v == WR_ARP_ANSWER_ARP ? &sp->c.arp_replies :
		      &sp->c.icmp_replies, 1);
		return true;
	case WR_ARP_GOT_REPLY:
		count(&sp->c.arp_seen, 1);
		got_reply(r, false, a.spa, a.sha);
		return false; /* a host may be waiting for it too */
	default:
		break;
	}
	if (r->addrs6.n + r->n_q == 0)
		return false;
	v6 = wr_nd_answer(p, &len, cap, r->mac, &r->addrs6, &na);
	if (v6 == WR_ND_GOT_NA) {
		count(&sp->c.arp_seen, 1);
		got_reply(r, true, na.target, na.mac);
		return false;
	}
	if (v6 == WR_ND_IGNORE)
		return false;
	queue_out(sp, m, len);
	count(v6 == WR_ND_ANSWER_NS ? &sp->c.nd_replies : &sp->c.icmp_replies,
	      1);
	return true;
}

static void
input(struct wr_host_svc_port *sp, struct rte_mbuf **pkts, uint16_t n,
      uint64_t now)
{
	uint16_t i, k = 0;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (sp->resp != NULL && respond(sp, &pkts[i]))
			continue;
		m = pkts[i];
		/* A chained frame (jumbo scatter) is nothing a host takes:
		 * the engine sees its first segment, and rejects it as
		 * shorter than its headers say. */
		if (sp->hs != NULL)
			wr_hosts_input(sp->hs,
				       rte_pktmbuf_mtod(m, const uint8_t *),
				       rte_pktmbuf_data_len(m), now);
		pkts[k++] = m;
	}
	if (k > 0)
		rte_pktmbuf_free_bulk(pkts, k);
	count(&sp->c.rx, n);
}

/* The responder's questions, once a WR_ARPD_RETRY_MS while one is not
 * answered. */
static void
ask(struct wr_host_svc_port *sp, uint64_t now)
{
	static const uint8_t zero[6];
	struct wr_host_svc_resp *r = sp->resp;
	unsigned int i, left = 0;

	for (i = 0; i < r->n_q; i++)
		left += !__atomic_load_n(&r->q[i].done, __ATOMIC_RELAXED);
	/* As many rounds as fit in the resolution's bound (two: at 0 and
	 * 1 s of 2 s), none after it. */
	if (left == 0 || now < r->next_req_ns ||
	    r->n_req >= (WR_ARPD_TIMEOUT_MS + WR_ARPD_RETRY_MS - 1) /
			WR_ARPD_RETRY_MS)
		return;
	for (i = 0; i < r->n_q; i++) {
		const struct wr_arpd_query *q = &r->q[i];
		struct rte_mbuf *m;
		uint16_t len;

		if (__atomic_load_n(&q->done, __ATOMIC_RELAXED))
			continue;
		m = rte_pktmbuf_alloc(sp->pool);
		if (m == NULL) {
			count(&sp->c.tx_drop, 1);
			continue;
		}
		if (q->v6)
			len = wr_nd_build_ns(rte_pktmbuf_mtod(m, uint8_t *),
					     q->src_mac, q->src_ip6, q->ip6,
					     q->tags, q->tags_len);
		else
			len = wr_arp_build(rte_pktmbuf_mtod(m, uint8_t *),
					   WR_ARP_OP_REQUEST, wr_eth_broadcast,
					   q->src_mac, q->src_ip, zero, q->ip,
					   q->tags, q->tags_len);
		queue_out(sp, m, len);
	}
	__atomic_store_n(&r->n_req, r->n_req + 1, __ATOMIC_RELEASE);
	r->next_req_ns = now + WR_ARPD_RETRY_MS * 1000000ull;
}

static void
fill_req(struct wr_host_svc *s, struct wr_host_svc_req *r, uint64_t now);

/* A shared port's frames the RX lcore left in the out ring, sent by the
 * service now that no worker runs. */
static void
drain_out(struct wr_host_svc_port *sp)
{
	while (sp->n_out == 0 &&
	       (sp->n_out = (uint16_t)rte_ring_sc_dequeue_burst(sp->out,
				(void **)sp->out_m, WR_HOST_SVC_BURST,
				NULL)) > 0)
		flush_of(sp, true, true);
}

/* No worker polls the port now (before the run, after it): the service
 * does, every queue, into its ring (the workers' producer side is idle),
 * whose frames the pass takes in order. */
static void
pull(struct wr_host_svc_port *sp)
{
	struct rte_mbuf *pkts[WR_HOST_SVC_BURST];
	unsigned int k;
	uint16_t n, q;

	for (q = 0; q < sp->n_rxq; q++)
		while (rte_ring_free_count(sp->ring) >= WR_HOST_SVC_BURST &&
		       (n = rte_eth_rx_burst(sp->port_id, q, pkts,
					     WR_HOST_SVC_BURST)) > 0) {
			k = rte_ring_enqueue_burst(sp->ring, (void **)pkts, n,
						   NULL);
			/* Not reached: room was checked. */
			if (k < n)
				rte_pktmbuf_free_bulk(pkts + k, n - k);
			if (n < WR_HOST_SVC_BURST)
				break;
		}
}

/*
 * One pass over every port.  @return whether it found anything to do
 * (frames in, frames out): an idle pass lets a control thread sleep.
 */
static bool
pass(struct wr_host_svc *s)
{
	struct rte_mbuf *pkts[WR_HOST_SVC_BURST];
	uint64_t now = mono_ns();
	uint32_t own = __atomic_load_n(&s->rx_own, __ATOMIC_ACQUIRE);
	bool stop_hosts = __atomic_load_n(&s->hosts_stop, __ATOMIC_ACQUIRE) &&
			  !__atomic_load_n(&s->hosts_stop_ack, __ATOMIC_RELAXED);
	struct wr_host_svc_req *r;
	bool busy = false;
	unsigned int i;

	for (i = 0; i < WR_PORTS_MAX; i++) {
		struct wr_host_svc_port *sp = s->port[i];
		uint32_t taken = 0;
		uint16_t n;

		if (sp == NULL)
			continue;
		sp->own = own != 0;
		/* What the RX lcore had not sent when it stopped. */
		if (own && sp->shared)
			drain_out(sp);
		if (own)
			pull(sp);
		while (taken < WR_HOST_SVC_PASS_MAX &&
		       (n = (uint16_t)rte_ring_sc_dequeue_burst(sp->ring,
				(void **)pkts, WR_HOST_SVC_BURST, NULL)) > 0) {
			input(sp, pkts, n, now);
			taken += n;
		}
		if (sp->resp != NULL && sp->resp->n_q > 0)
			ask(sp, now);
		if (sp->hs != NULL) {
			if (stop_hosts)
				wr_hosts_stop(sp->hs, now);
			sp->next_tick_ns = wr_hosts_tick(sp->hs, now);
		}
		busy |= taken > 0 || sp->n_out > 0;
		if (sp->n_out > 0)
			flush(sp, own);
		__atomic_store_n(&sp->up, sp->hs == NULL || wr_hosts_up(sp->hs),
				 __ATOMIC_RELEASE);
		count(&sp->c.passes, 1);
	}
	if (stop_hosts)
		__atomic_store_n(&s->hosts_stop_ack, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&s->rx_own_ack, own, __ATOMIC_RELEASE);
	r = __atomic_exchange_n(&s->req, NULL, __ATOMIC_ACQ_REL);
	if (r != NULL) {
		fill_req(s, r, now);
		__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	}
	return busy;
}

static void *
svc_thread(void *arg)
{
	struct wr_host_svc *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		if (!pass(s))
			rte_delay_us_sleep(WR_HOST_SVC_IDLE_US);
	pass(s); /* what the last one queued */
	return NULL;
}

static int
svc_lcore(void *arg)
{
	struct wr_host_svc *s = arg;

	/* A lcore of its own: polling is what it is for. */
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		pass(s);
	pass(s);
	return 0;
}

/* ---- control plane ---- */

struct put_ctx {
	struct wr_host_svc_req *r;
};

static void
put_counter(void *ctx, const char *name, uint64_t v)
{
	struct wr_host_svc_req *r = ((struct put_ctx *)ctx)->r;

	if (r->n_counters >= r->max_counters)
		return;
	snprintf(r->counters[r->n_counters].name,
		 sizeof(r->counters[0].name), "%s", name);
	r->counters[r->n_counters].value = v;
	r->n_counters++;
}

/* Not a constant expression: a build with no module compares with 0
 * without -Wtype-limits saying so. */
static const unsigned int n_protos = WR_HOST_PROTO__COUNT;

static void
fill_req(struct wr_host_svc *s, struct wr_host_svc_req *r, uint64_t now)
{
	struct wr_host_svc_port *sp = r->port < WR_PORTS_MAX ?
		s->port[r->port] : NULL;
	struct put_ctx pc = { r };
	uint32_t h, n;
	unsigned int k;

	r->now_ns = now;
	r->n_hosts = 0;
	r->n_counters = 0;
	if (sp == NULL) {
		r->n_total = 0;
		return;
	}
	n = sp->hs != NULL ? wr_hosts_n(sp->hs) : 0;
	r->n_total = n;
	r->peers_pending = 0;
	if (r->peers != NULL && sp->hs != NULL) {
		if (sp->peers != r->peers) {
			wr_hosts_peers(sp->hs, r->peers, r->n_peers, now);
			sp->peers = r->peers;
		}
		for (h = 0; h < r->n_peers; h++)
			r->peers_pending +=
				r->peers[h].n.state == WR_NEIGH_INCOMPLETE;
	}
	r->up = sp->hs == NULL || wr_hosts_up(sp->hs);
	for (h = r->first; r->hosts != NULL && h < n &&
	     r->n_hosts < r->max_hosts; h++) {
		struct wr_host_svc_host *o = &r->hosts[r->n_hosts++];

		o->index = h;
		o->h = *wr_hosts_cget(sp->hs, h);
		for (k = 0; k < n_protos; k++)
			snprintf(o->proto_state[k], sizeof(o->proto_state[k]),
				 "%s", wr_hosts_proto_state(sp->hs, h,
						(enum wr_host_proto_id)k));
	}
	if (r->counters == NULL)
		return;
	if (sp->hs != NULL)
		wr_hosts_counters(sp->hs, put_counter, &pc);
	if (sp->resp != NULL) {
		put_counter(&pc, "port_arp_replies", sp->c.arp_replies);
		put_counter(&pc, "port_icmp_replies", sp->c.icmp_replies);
		put_counter(&pc, "port_nd_replies", sp->c.nd_replies);
		put_counter(&pc, "port_arp_seen", sp->c.arp_seen);
	}
	put_counter(&pc, "svc_rx", sp->c.rx);
	put_counter(&pc, "svc_tx", sp->c.tx);
	put_counter(&pc, "svc_tx_drop", sp->c.tx_drop);
	{
		/* What the RX lcores could not hand over (the ring full). */
		uint64_t drop = 0, tx_drop = 0;
		const struct wr_engine *e = s->e;
		unsigned int q;

		for (q = 0; q < e->n_rxq[sp->index]; q++) {
			const struct wr_rxq *rq = e->rxq[sp->index][q];

			drop += __atomic_load_n(&rq->rx_host_drop,
						__ATOMIC_RELAXED);
			tx_drop += __atomic_load_n(&rq->hosts_tx_drop,
						   __ATOMIC_RELAXED);
		}
		put_counter(&pc, "svc_ring_drop", drop);
		/* A port without a spare TX queue: what its RX lcore
		 * could not send for the hosts. */
		put_counter(&pc, "svc_lcore_tx_drop", tx_drop);
	}
}

int
wr_host_svc_read(struct wr_host_svc *s, struct wr_host_svc_req *r)
{
	struct wr_host_svc_req *expect;
	uint64_t end;

	if (r->port >= WR_PORTS_MAX || s->port[r->port] == NULL)
		return -ENOENT;
	r->done = 0;
	if (!s->running) {
		fill_req(s, r, mono_ns());
		return 0;
	}
	__atomic_store_n(&s->req, r, __ATOMIC_RELEASE);
	end = mono_ns() + WR_HOST_SVC_READ_MS * 1000000ull;
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		if (mono_ns() >= end) {
			expect = r;
			/* Withdrawn before the service took it: nothing
			 * written.  Taken: it is being filled, without
			 * waiting on anything; wait for it. */
			if (__atomic_compare_exchange_n(&s->req, &expect, NULL,
							false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				return -ETIMEDOUT;
			while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
				rte_delay_us_sleep(100);
			break;
		}
		rte_delay_us_sleep(100);
	}
	return 0;
}

void
wr_host_svc_counts(const struct wr_host_svc *s, unsigned int port,
		   struct wr_host_svc_counts *c)
{
	const struct wr_host_svc_port *sp = port < WR_PORTS_MAX ?
		s->port[port] : NULL;
	unsigned int q;

	memset(c, 0, sizeof(*c));
	if (sp == NULL)
		return;
	c->rx = __atomic_load_n(&sp->c.rx, __ATOMIC_RELAXED);
	c->tx = __atomic_load_n(&sp->c.tx, __ATOMIC_RELAXED);
	c->tx_drop = __atomic_load_n(&sp->c.tx_drop, __ATOMIC_RELAXED);
	c->passes = __atomic_load_n(&sp->c.passes, __ATOMIC_RELAXED);
	for (q = 0; q < s->e->n_rxq[port]; q++)
		c->ring_drop += __atomic_load_n(
			&s->e->rxq[port][q]->rx_host_drop, __ATOMIC_RELAXED);
	c->arp_replies = __atomic_load_n(&sp->c.arp_replies, __ATOMIC_RELAXED);
	c->icmp_replies = __atomic_load_n(&sp->c.icmp_replies,
					  __ATOMIC_RELAXED);
	c->nd_replies = __atomic_load_n(&sp->c.nd_replies, __ATOMIC_RELAXED);
	c->arp_seen = __atomic_load_n(&sp->c.arp_seen, __ATOMIC_RELAXED);
}

/* ---- life ---- */

static void
port_free(struct wr_engine *e, struct wr_host_svc_port *sp)
{
	unsigned int q;

	if (sp == NULL)
		return;
	for (q = 0; q < e->n_rxq[sp->index]; q++)
		if (e->rxq[sp->index][q] != NULL &&
		    e->rxq[sp->index][q]->hosts == sp->ring) {
			e->rxq[sp->index][q]->hosts = NULL;
			e->rxq[sp->index][q]->hosts_out = NULL;
		}
	if (sp->ring != NULL) {
		struct rte_mbuf *m;

		while (rte_ring_sc_dequeue(sp->ring, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(sp->ring);
	}
	if (sp->out != NULL) {
		struct rte_mbuf *m;

		while (rte_ring_sc_dequeue(sp->out, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(sp->out);
	}
	if (sp->n_out > 0)
		rte_pktmbuf_free_bulk(sp->out_m, sp->n_out);
	wr_hosts_free(sp->hs);
	if (sp->resp != NULL) {
		wr_addrs_free(&sp->resp->addrs);
		wr_addrs_free(&sp->resp->addrs6);
		free(sp->resp->q);
		free(sp->resp);
	}
	rte_mempool_free(sp->pool);
	rte_free(sp);
}

/* Host k of static group @p g holding address @p ip of @p a, or -1. */
static int64_t
host_of_addr(const struct wr_host_group *g, const struct wr_host_addr_spec *a,
	     __uint128_t ip)
{
	__uint128_t k;

	if (a->mode != WR_HOST_ADDR_STATIC || ip < a->addr)
		return -1;
	if (a->step == 0)
		return ip == a->addr ? 0 : -1;
	if ((ip - a->addr) % a->step != 0)
		return -1;
	k = (ip - a->addr) / a->step;
	return k < g->count ? (int64_t)k : -1;
}

/* @p a less @p h (both sorted ranges). */
static int
addrs_minus(struct wr_addrs *a, const struct wr_addrs *h)
{
	struct wr_addrs out;
	uint32_t i, j;
	int rc = 0;

	wr_addrs_init(&out);
	for (i = 0; i < a->n && rc == 0; i++) {
		__uint128_t cur = a->r[i].lo;
		bool past = false;

		for (j = 0; j < h->n && rc == 0 && !past; j++) {
			if (h->r[j].hi < cur || h->r[j].lo > a->r[i].hi)
				continue;
			if (h->r[j].lo > cur)
				rc = wr_addrs_add(&out, cur, h->r[j].lo - 1);
			if (h->r[j].hi >= a->r[i].hi)
				past = true;
			else
				cur = h->r[j].hi + 1;
		}
		if (rc == 0 && !past)
			rc = wr_addrs_add(&out, cur, a->r[i].hi);
	}
	if (rc != 0) {
		wr_addrs_free(&out);
		return rc;
	}
	wr_addrs_free(a);
	*a = out;
	return 0;
}

/* Group @p g's static addresses of one family into @p h; a group too large
 * to list with a step other than 1 is left out (its hosts then share the
 * answer with the responder, as before). */
static int
hosts_addrs(const struct wr_host_group *g, const struct wr_host_addr_spec *a,
	    struct wr_addrs *h)
{
	uint32_t k;
	int rc = 0;

	if (a->mode != WR_HOST_ADDR_STATIC || g->count == 0)
		return 0;
	if (a->step == 1)
		return wr_addrs_add(h, a->addr, a->addr + g->count - 1);
	for (k = 0; k < g->count && k < 65536 && rc == 0; k++)
		rc = wr_addrs_add(h, a->addr + (__uint128_t)k * a->step,
				  a->addr + (__uint128_t)k * a->step);
	return rc;
}

/*
 * A stream sending from an emulated host's address (an OTG device's flow)
 * must not make the port another owner of it: the host answers ARP and ND
 * for it, with its MAC, and the stream's next hop is asked from that MAC.
 * Otherwise the port's responder, which sees frames first, answers with
 * the port's MAC, and the peer's table (a host of the far port included)
 * holds the wrong one.
 */
static int
resp_yield_to_hosts(struct wr_host_svc_resp *r, const struct wr_stream_file *f,
		    unsigned int port)
{
	struct wr_addrs h4, h6;
	uint32_t g, i;
	int rc = 0;

	wr_addrs_init(&h4);
	wr_addrs_init(&h6);
	for (g = 0; g < f->hosts.n && rc == 0; g++) {
		const struct wr_host_group *hg = &f->hosts.groups[g];

		if (hg->port != port)
			continue;
		rc = hosts_addrs(hg, &hg->v4, &h4);
		if (rc == 0)
			rc = hosts_addrs(hg, &hg->v6, &h6);
		for (i = 0; i < r->n_q && rc == 0; i++) {
			struct wr_arpd_query *q = &r->q[i];
			int64_t k = q->v6 ? host_of_addr(hg, &hg->v6, q->src_ip6) :
				    host_of_addr(hg, &hg->v4, q->src_ip);
			uint64_t mac;
			int b;

			if (k < 0)
				continue;
			mac = hg->mac + (uint64_t)k * hg->mac_step;
			for (b = 0; b < 6; b++)
				q->src_mac[b] = (uint8_t)(mac >> (8 * (5 - b)));
		}
	}
	if (rc == 0)
		rc = addrs_minus(&r->addrs, &h4);
	if (rc == 0)
		rc = addrs_minus(&r->addrs6, &h6);
	wr_addrs_free(&h4);
	wr_addrs_free(&h6);
	return rc;
}

/* The port's responder: its MAC, its streams' sources, its questions. */
static int
resp_create(struct wr_host_svc_port *sp, const struct wr_port *p,
	    const struct wr_stream_file *f, unsigned int i,
	    struct wr_error *err)
{
	struct wr_host_svc_resp *r = calloc(1, sizeof(*r));
	uint32_t q;
	int rc;

	if (r == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	sp->resp = r;
	memcpy(r->mac, p->mac.addr_bytes, 6);
	wr_addrs_init(&r->addrs);
	wr_addrs_init(&r->addrs6);
	r->q = calloc(WR_STREAMS_MAX, sizeof(*r->q));
	if (r->q == NULL || wr_arpd_sources(f, i, &r->addrs, &r->addrs6) != 0)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	rc = wr_arpd_queries(f, i, r->q, &r->n_q, err);
	for (q = 0; rc == 0 && q < r->n_q; q++)
		memcpy(r->q[q].src_mac, r->mac, 6);
	if (rc == 0 && resp_yield_to_hosts(r, f, i) != 0)
		rc = wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				  "out of memory");
	return rc;
}

static int
port_create(struct wr_host_svc *s, unsigned int i,
	    const struct wr_stream_file *f, bool hosts, bool responder,
	    struct wr_error *err)
{
	struct wr_engine *e = s->e;
	struct wr_port *p = &e->ports[i];
	struct wr_host_svc_port *sp;
	char name[RTE_RING_NAMESIZE];
	int rc;

	sp = rte_zmalloc_socket("wr_host_svc_port", sizeof(*sp),
				RTE_CACHE_LINE_SIZE, p->socket_id);
	if (sp == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	sp->port_id = p->port_id;
	/* The port's last TX queue, when no TX lcore has it
	 * (wr_port_txq_reserve()); else queue 0 while no worker runs, the
	 * RX lcore's while they do. */
	sp->shared = p->n_txq <= e->port_n_lcores[i];
	sp->queue_id = sp->shared ? 0 : (uint16_t)(p->n_txq - 1);
	sp->index = i;
	sp->n_rxq = p->n_rxq;
	s->port[i] = sp;
	snprintf(name, sizeof(name), "wr_hs_r%u", p->port_id);
	/* Single consumer (the service); several producers when several
	 * RX lcores poll the port. */
	sp->ring = rte_ring_create(name, WR_HOST_SVC_RING, p->socket_id,
				   RING_F_SC_DEQ |
				   (e->port_n_rx[i] <= 1 ? RING_F_SP_ENQ : 0));
	snprintf(name, sizeof(name), "wr_hs_p%u", p->port_id);
	sp->pool = rte_pktmbuf_pool_create(name, SVC_POOL_MBUFS,
					   SVC_POOL_CACHE, 0,
					   RTE_PKTMBUF_HEADROOM +
					   WR_HOST_FRAME_MAX, p->socket_id);
	if (sp->shared) {
		snprintf(name, sizeof(name), "wr_hs_o%u", p->port_id);
		sp->out = rte_ring_create(name, WR_HOST_SVC_RING, p->socket_id,
					  RING_F_SP_ENQ | RING_F_SC_DEQ);
	}
	if (sp->ring == NULL || sp->pool == NULL ||
	    (sp->shared && sp->out == NULL))
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "port %s: no memory for the hosts' ring "
				    "and pool: %s", p->device,
				    rte_strerror(rte_errno));
	if (responder) {
		rc = resp_create(sp, p, f, i, err);
		if (rc != 0)
			return rc;
	}
	if (hosts) {
		rc = wr_hosts_create(&sp->hs, &f->hosts, (uint16_t)i, f->seed,
				     svc_send, sp, err);
		if (rc != 0)
			return rc;
		sp->n_hosts = wr_hosts_n(sp->hs);
	}
	s->n_ports++;
	return 0;
}

/* The lcore that polls @p q, and the TX queue it sends on port
 * @p port_id. */
static int
answer_queue(struct wr_engine *e, const struct wr_rxq *q, uint16_t port_id,
	     uint16_t *queue_id)
{
	unsigned int i, j, k;

	for (i = 0; i < e->n_lcores; i++) {
		const struct wr_lcore_ctx *c = e->lctx[e->lcores[i]];

		for (j = 0; j < c->n_rxq; j++) {
			if (c->rxq[j] != q)
				continue;
			for (k = 0; k < c->n_txq; k++)
				if (c->txq[k].port_id == port_id) {
					*queue_id = c->txq[k].queue_id;
					return 0;
				}
			/* A TCP lane sends on its queue pair's TX queue. */
			for (k = 0; c->tcp != NULL && k < c->tcp->n_lanes; k++)
				if (c->tcp->lanes[k]->port_id == port_id) {
					*queue_id = c->tcp->lanes[k]->queue_id;
					return 0;
				}
			return -EINVAL;
		}
	}
	return -EINVAL;
}

int
wr_host_svc_attach(struct wr_host_svc *s, struct wr_error *err)
{
	struct wr_engine *e = s->e;
	unsigned int i, q;

	for (i = 0; i < WR_PORTS_MAX; i++) {
		if (s->port[i] == NULL)
			continue;
		if (e->n_rxq[i] == 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					    "port %s: its hosts need it polled, "
					    "and it has no RX lcore",
					    e->ports[i].device);
		if (s->port[i]->shared) {
			uint16_t qid;

			if (answer_queue(e, e->rxq[i][0], e->ports[i].port_id,
					 &qid) != 0)
				return wr_error_set(err, -EINVAL, e->cfg_path,
					0, 0, NULL, "ports[%u]: its hosts send "
					"through the lcore that polls port %s "
					"(its first RX queue: the device has no "
					"spare TX queue), which must also send "
					"on it: make its first rx_lcores entry "
					"one of its tx_lcores", i,
					e->ports[i].device);
			e->rxq[i][0]->hosts_txq = qid;
			e->rxq[i][0]->hosts_out = s->port[i]->out;
		}
		for (q = 0; q < e->n_rxq[i]; q++)
			e->rxq[i][q]->hosts = s->port[i]->ring;
	}
	return 0;
}

int
wr_host_svc_create(struct wr_host_svc **out, struct wr_engine *e,
		   const struct wr_stream_file *f, const bool *responder,
		   int lcore, struct wr_error *err)
{
	const struct wr_host_specs *specs = &f->hosts;
	struct wr_host_svc *s;
	bool want[WR_PORTS_MAX] = { false };
	unsigned int i;
	uint32_t g;
	int rc = 0;

	*out = NULL;
	for (g = 0; g < specs->n; g++) {
		if (specs->groups[g].port >= e->n_ports)
			return wr_error_set(err, -EINVAL, NULL,
					    specs->groups[g].where.line,
					    specs->groups[g].where.col, NULL,
					    "hosts[%u].port: port %u does not "
					    "exist", g, specs->groups[g].port);
		want[specs->groups[g].port] = true;
	}
	if (lcore >= 0) {
		for (i = 0; i < e->n_lcores; i++)
			if (e->lcores[i] == (unsigned int)lcore)
				return wr_error_set(err, -EINVAL, NULL, 0, 0,
					NULL, "--host-lcore %d: the lcore sends "
					"or receives traffic already", lcore);
		if (lcore >= RTE_MAX_LCORE || !rte_lcore_is_enabled(lcore) ||
		    (unsigned int)lcore == rte_get_main_lcore())
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"--host-lcore %d: not a worker lcore EAL "
				"has (give it in the profile's eal: --lcores)",
				lcore);
	}
	s = rte_zmalloc("wr_host_svc", sizeof(*s), RTE_CACHE_LINE_SIZE);
	if (s == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	s->e = e;
	s->lcore = lcore;
	for (i = 0; i < e->n_ports && rc == 0; i++)
		if (want[i] || (responder != NULL && responder[i]))
			rc = port_create(s, i, f, want[i],
					 responder != NULL && responder[i], err);
	if (rc != 0) {
		wr_host_svc_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int
wr_host_svc_start(struct wr_host_svc *s, struct wr_error *err)
{
	uint64_t now = mono_ns();
	pthread_t tid;
	unsigned int i;
	int rc;

	/* Before the service runs: it is the one thread of the hosts from
	 * its launch on, and the launch orders these calls before it. */
	for (i = 0; i < WR_PORTS_MAX; i++) {
		if (s->port[i] == NULL)
			continue;
		/* No worker runs yet: what the start sends goes out on the
		 * port at once, not into the RX lcore's ring. */
		s->port[i]->own = true;
		if (s->port[i]->hs != NULL)
			wr_hosts_start(s->port[i]->hs, now);
	}
	s->stop = 0;
	s->rx_own = 1;
	s->rx_own_ack = 0;
	if (s->lcore >= 0) {
		rc = rte_eal_remote_launch(svc_lcore, s, (unsigned int)s->lcore);
		if (rc != 0)
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "cannot launch the hosts' lcore %d: "
					    "%s", s->lcore, rte_strerror(-rc));
	} else {
		rc = rte_ctrl_thread_create(&tid, "wr-hosts", NULL, svc_thread,
					    s);
		if (rc != 0)
			return wr_error_set(err, -rc, NULL, 0, 0, NULL,
					    "cannot start the hosts' thread: %s",
					    strerror(rc));
		s->thread = (uint64_t)tid;
	}
	s->running = true;
	return 0;
}

/* Wait (at most @p ms) until *@p ack equals @p want. */
static void
await(const uint32_t *ack, uint32_t want, uint32_t ms)
{
	uint64_t end = mono_ns() + (uint64_t)ms * 1000000ull;

	while (__atomic_load_n(ack, __ATOMIC_ACQUIRE) != want &&
	       mono_ns() < end)
		rte_delay_us_sleep(100);
}

void
wr_host_svc_rx_own(struct wr_host_svc *s, bool own)
{
	__atomic_store_n(&s->rx_own, own ? 1u : 0u, __ATOMIC_RELEASE);
	if (s->running)
		await(&s->rx_own_ack, own ? 1u : 0u, 1000);
}

uint32_t
wr_host_svc_wait_up(struct wr_host_svc *s, uint32_t timeout_ms)
{
	uint64_t end = mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	uint32_t down;
	unsigned int i;

	for (;;) {
		down = 0;
		for (i = 0; i < WR_PORTS_MAX; i++)
			if (s->port[i] != NULL &&
			    !__atomic_load_n(&s->port[i]->up, __ATOMIC_ACQUIRE))
				down++;
		if (down == 0 || mono_ns() >= end || !s->running)
			return down;
		rte_delay_us_sleep(1000);
	}
}

void
wr_host_svc_stop(struct wr_host_svc *s, uint32_t linger_ms)
{
	if (s == NULL || !s->running)
		return;
	__atomic_store_n(&s->hosts_stop, 1, __ATOMIC_RELEASE);
	await(&s->hosts_stop_ack, 1, 1000);
	if (linger_ms > 0)
		rte_delay_us_sleep(linger_ms * 1000u);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	if (s->lcore >= 0)
		rte_eal_wait_lcore((unsigned int)s->lcore);
	else
		pthread_join((pthread_t)s->thread, NULL);
	s->running = false;
}

void
wr_host_svc_free(struct wr_host_svc *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	wr_host_svc_stop(s, 0);
	for (i = 0; i < WR_PORTS_MAX; i++)
		port_free(s->e, s->port[i]);
	rte_free(s);
}

int
wr_host_svc_resolve(struct wr_host_svc *s, struct wr_stream_file *f,
		    uint32_t timeout_ms, struct wr_error *err)
{
	uint64_t end = mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	unsigned int i, k, left;
	int rc;

	do {
		left = 0;
		for (i = 0; i < WR_PORTS_MAX; i++) {
			const struct wr_host_svc_resp *r = s->port[i] != NULL ?
				s->port[i]->resp : NULL;

			for (k = 0; r != NULL && k < r->n_q; k++)
				left += !__atomic_load_n(&r->q[k].done,
							 __ATOMIC_ACQUIRE);
		}
		if (left > 0)
			rte_delay_us_sleep(1000);
	} while (left > 0 && s->running && mono_ns() < end);
	for (i = 0; i < WR_PORTS_MAX; i++) {
		const struct wr_host_svc_resp *r = s->port[i] != NULL ?
			s->port[i]->resp : NULL;

		if (r == NULL || r->n_q == 0)
			continue;
		rc = wr_arpd_apply(f, i, r->q, r->n_q,
				   __atomic_load_n(&r->n_req, __ATOMIC_ACQUIRE),
				   timeout_ms, s->e->ports[i].device, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}
