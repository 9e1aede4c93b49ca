/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_neigh: ARP, ND and echo answers on the RX path, and next-hop resolution before traffic starts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "wr_neigh.h"
#include "wr_describe.h"
#include "wr_frame.h"
#include "wr_proto.h"
#include "wr_clock_eal.h"

/* The resolver polls RX in slices this long: a reply on a LAN takes well
 * under a millisecond, and the main lcore should not spin. */
#define RESOLVE_POLL_US 1000

static inline void
count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

int
wr_arpd_init(struct wr_arpd *d, const struct wr_port *p, uint16_t queue_id,
	     const struct wr_stream_file *f, unsigned int port_index)
{
	uint32_t s;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	d->port_id = p->port_id;
	d->queue_id = queue_id;
	memcpy(d->mac, p->mac.addr_bytes, 6);
	wr_addrs_init(&d->addrs);
	wr_addrs_init(&d->addrs6);
	for (s = 0; s < f->n_streams && rc == 0; s++)
		if (f->streams[s].port == port_index)
			rc = wr_nd_stream_sources(&f->streams[s], &d->addrs,
						  &d->addrs6);
	if (rc != 0)
		wr_arpd_fini(d);
	return rc;
}

void
wr_arpd_fini(struct wr_arpd *d)
{
	if (d == NULL)
		return;
	wr_addrs_free(&d->addrs);
	wr_addrs_free(&d->addrs6);
}

static void
got_reply(struct wr_arpd *d, const struct wr_arp_pkt *a)
{
	unsigned int i;

	count(&d->arp_seen, 1);
	for (i = 0; i < d->n_q; i++)
		if (!d->q[i].done && !d->q[i].v6 && d->q[i].ip == a->spa) {
			memcpy(d->q[i].mac, a->sha, 6);
			d->q[i].done = true;
		}
}

static void
got_na(struct wr_arpd *d, const struct wr_nd_pkt *a)
{
	unsigned int i;

	count(&d->arp_seen, 1);
	for (i = 0; i < d->n_q; i++)
		if (!d->q[i].done && d->q[i].v6 && d->q[i].ip6 == a->target) {
			memcpy(d->q[i].mac, a->mac, 6);
			d->q[i].done = true;
		}
}

/* An mbuf whose frame was answered in place, ready to send. */
static struct rte_mbuf *
answer(struct rte_mbuf *m, uint32_t len)
{
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	/* RX flags mean nothing on TX; clear them so no offload is asked
	 * for by accident. */
	m->ol_flags = 0;
	return m;
}

void
wr_arpd_input(struct wr_arpd *d, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *out[WR_ARPD_BURST_MAX];
	uint16_t i, n_out = 0, sent, n_arp = 0, n_icmp = 0, n_nd = 0;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t len = rte_pktmbuf_data_len(m), cap;
		struct wr_arp_pkt a;
		struct wr_nd_pkt na;
		enum wr_arp_verdict v;
		enum wr_nd_verdict v6;

		/* Answers are written in place, in the room the mbuf has:
		 * a chained frame (jumbo scatter) is nothing a host answers
		 * here anyway. */
		if (m->nb_segs != 1 || n_out == RTE_DIM(out)) {
			rte_pktmbuf_free(m);
			continue;
		}
		cap = rte_pktmbuf_tailroom(m) + len;
		v = wr_arp_answer(rte_pktmbuf_mtod(m, uint8_t *), &len, cap, d->mac,
				  &d->addrs, &a);
		if (v == WR_ARP_IGNORE && d->addrs6.n + d->n_q > 0) {
			v6 = wr_nd_answer(rte_pktmbuf_mtod(m, uint8_t *), &len, cap,
					  d->mac, &d->addrs6, &na);
			if (v6 == WR_ND_GOT_NA) {
				got_na(d, &na);
				rte_pktmbuf_free(m);
				continue;
			}
			if (v6 != WR_ND_IGNORE) {
				out[n_out++] = answer(m, len);
				if (v6 == WR_ND_ANSWER_NS)
					n_nd++;
				else
					n_icmp++;
				continue;
			}
		}
		switch (v) {
		case WR_ARP_ANSWER_ARP:
		case WR_ARP_ANSWER_ICMP:
			out[n_out++] = answer(m, len);
			if (v == WR_ARP_ANSWER_ARP)
				n_arp++;
			else
				n_icmp++;
			break;
		case WR_ARP_GOT_REPLY:
			got_reply(d, &a);
			rte_pktmbuf_free(m);
			break;
		default:
			rte_pktmbuf_free(m);
			break;
		}
	}
	if (n_out == 0)
		return;
	sent = rte_eth_tx_burst(d->port_id, d->queue_id, out, n_out);
	if (sent < n_out) {
		rte_pktmbuf_free_bulk(out + sent, n_out - sent);
		count(&d->tx_drop, n_out - sent);
	}
	if (n_arp)
		count(&d->arp_replies, n_arp);
	if (n_icmp)
		count(&d->icmp_replies, n_icmp);
	if (n_nd)
		count(&d->nd_replies, n_nd);
}

/*
 * The next hop a stream's eth.dst resolves to (its IPv4 one, or in q->ip6
 * its IPv6 one for `dst: nd`), the source address to ask from, and the
 * tags the question goes out behind: packet 0's.
 * @return 0, or a negative errno (the stream's tags do not build).
 */
static int
next_hop(const struct wr_stream *s, struct wr_arpd_query *q)
{
	unsigned int kind;
	__uint128_t dst, src;
	int n;

	memset(q, 0, sizeof(*q));
	n = wr_frame_l2_tags(s, q->tags, sizeof(q->tags));
	if (n < 0)
		return n;
	q->tags_len = (uint16_t)n;
	q->v6 = s->dst_nd;
	kind = q->v6 ? WR_VAL_IPV6 : WR_VAL_IPV4;
	/* The loader checked both exist (check_resolve). */
	dst = wr_stream_addr(s, kind, WR_ROLE_DST_ADDR)->value;
	src = wr_stream_addr(s, kind, WR_ROLE_SRC_ADDR)->value;
	if (q->v6) {
		q->ip6 = s->gateway6 != 0 ? s->gateway6 : dst;
		q->src_ip6 = src;
	} else {
		q->ip = s->gateway != 0 ? s->gateway : (uint32_t)dst;
		q->src_ip = (uint32_t)src;
	}
	return 0;
}

static bool
same_query(const struct wr_arpd_query *a, const struct wr_arpd_query *b)
{
	return a->v6 == b->v6 && a->tags_len == b->tags_len &&
	       memcmp(a->tags, b->tags, a->tags_len) == 0 &&
	       (a->v6 ? a->ip6 == b->ip6 : a->ip == b->ip);
}

/* Write a resolved MAC into the stream's eth.dst, fixed from now on. */
static int
send_requests(struct wr_port *p, struct wr_arpd *d)
{
	struct rte_mbuf *m;
	unsigned int i;

	for (i = 0; i < d->n_q; i++) {
		static const uint8_t zero[6];
		uint16_t len;

		if (d->q[i].done)
			continue;
		m = rte_pktmbuf_alloc(p->rx_pool);
		if (m == NULL)
			return -ENOMEM;
		if (d->q[i].v6)
			len = wr_nd_build_ns(rte_pktmbuf_mtod(m, uint8_t *), d->mac,
					     d->q[i].src_ip6, d->q[i].ip6,
					     d->q[i].tags, d->q[i].tags_len);
		else
			len = wr_arp_build(rte_pktmbuf_mtod(m, uint8_t *),
					   WR_ARP_OP_REQUEST, wr_eth_broadcast,
					   d->mac, d->q[i].src_ip, zero, d->q[i].ip,
					   d->q[i].tags, d->q[i].tags_len);
		m->data_len = len;
		m->pkt_len = len;
		if (rte_eth_tx_burst(p->port_id, 0, &m, 1) != 1) {
			rte_pktmbuf_free(m);
			return -EIO;
		}
	}
	return 0;
}

static bool
all_done(const struct wr_arpd *d)
{
	unsigned int i;

	for (i = 0; i < d->n_q; i++)
		if (!d->q[i].done)
			return false;
	return true;
}

/* Resolve the next hops of port index @p pi. */
static int
resolve_port(struct wr_port *p, unsigned int pi, struct wr_stream_file *f,
	     uint32_t timeout_ms, struct wr_error *err)
{
	struct wr_arpd d;
	struct wr_arpd_query q[WR_STREAMS_MAX];
	struct rte_mbuf *pkts[WR_ARPD_BURST_MAX];
	uint64_t hz = wr_tsc_hz(), start, next_req = 0, end;
	struct wr_arpd_query want;
	unsigned int i, n_req = 0;
	uint32_t s;
	int rc;

	rc = wr_arpd_init(&d, p, 0, f, pi);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL, "out of memory");
	d.q = q;
	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];

		if (st->port != pi || !st->dst_arp)
			continue;
		rc = next_hop(st, &want);
		if (rc != 0) {
			wr_arpd_fini(&d);
			return wr_error_set(err, rc, f->path, st->mark.line,
					    st->mark.col, NULL,
					    "streams[%u]: more than %u tags to ask "
					    "its next hop behind", s, WR_ARP_TAGS_MAX);
		}
		for (i = 0; i < d.n_q; i++)
			if (same_query(&q[i], &want))
				break;
		if (i < d.n_q)
			continue;
		q[d.n_q++] = want;
	}
	start = rte_rdtsc();
	end = start + hz * timeout_ms / 1000;
	while (d.n_q > 0 && !all_done(&d) && rte_rdtsc() < end) {
		uint16_t n;

		if (rte_rdtsc() >= next_req) {
			rc = send_requests(p, &d);
			if (rc != 0) {
				wr_arpd_fini(&d);
				return wr_error_set(err, rc, NULL, 0, 0, NULL,
					"port %s: cannot send an ARP request or NS: %s",
					p->device, strerror(-rc));
			}
			n_req++;
			next_req = rte_rdtsc() + hz * WR_ARPD_RETRY_MS / 1000;
		}
		n = rte_eth_rx_burst(p->port_id, 0, pkts, WR_ARPD_BURST_MAX);
		if (n > 0)
			wr_arpd_input(&d, pkts, n);
		else
			rte_delay_us_sleep(RESOLVE_POLL_US);
	}
	for (s = 0; s < f->n_streams; s++) {
		struct wr_stream *st = &f->streams[s];

		if (st->port != pi || !st->dst_arp)
			continue;
		(void)next_hop(st, &want); /* as above, which succeeded */
		for (i = 0; i < d.n_q; i++)
			if (same_query(&q[i], &want))
				break;
		if (!q[i].done) {
			char addr[48];

			wr_describe_val(want.v6 ? WR_VAL_IPV6 : WR_VAL_IPV4,
					want.v6 ? want.ip6 : want.ip, addr,
					sizeof(addr));
			wr_error_set(err, -EHOSTUNREACH, f->path, st->mark.line,
				     st->mark.col, NULL,
				     "streams[%u].eth.dst: %s: no %s from %s on "
				     "port %s after %u request%s in %u ms", s,
				     want.v6 ? "nd" : "arp",
				     want.v6 ? "Neighbor Advertisement" : "ARP reply",
				     addr, p->device, n_req, n_req == 1 ? "" : "s",
				     timeout_ms);
			wr_arpd_fini(&d);
			return -EHOSTUNREACH;
		}
		wr_stream_set_mac(st, true, wr_mac_from_bytes(q[i].mac));
	}
	wr_arpd_fini(&d);
	return 0;
}

int
wr_arpd_resolve(struct wr_port *ports, unsigned int n_ports,
		struct wr_stream_file *f, uint32_t timeout_ms,
		struct wr_error *err)
{
	unsigned int i;
	uint32_t s;
	int rc;

	for (i = 0; i < n_ports; i++) {
		for (s = 0; s < f->n_streams; s++)
			if (f->streams[s].port == i && f->streams[s].dst_arp)
				break;
		if (s == f->n_streams)
			continue;
		rc = resolve_port(&ports[i], i, f, timeout_ms, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}
