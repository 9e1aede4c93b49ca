/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tx: TX lcore loop over prefilled per-stream mempools. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_sig.h"
#include "wr_tx.h"

/*
 * Per-lcore mempool cache: a TX burst comes out of it and the PMD's free
 * puts the same mbufs back, so with a cache of a few bursts the loop cycles
 * through the same few dozen mbufs, hot in L1/L2.
 */
#define WR_TX_POOL_CACHE 256

uint64_t
wr_tx_share(uint64_t count, uint32_t j, uint32_t k)
{
	if (count == 0)
		return UINT64_MAX;
	if (count <= j)
		return 0;
	return (count - j + k - 1) / k;
}

struct fill_arg {
	const uint8_t *bytes;
	uint16_t len;
};

/* rte_mempool_obj_iter callback: put the template into one mbuf. */
static void
fill_mbuf(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
	  unsigned int idx __rte_unused)
{
	const struct fill_arg *a = opaque;
	struct rte_mbuf *m = obj;

	rte_memcpy(rte_pktmbuf_mtod(m, uint8_t *), a->bytes, a->len);
	m->data_len = a->len;
	m->pkt_len = a->len;
}

int
wr_tx_stream_init(struct wr_tx_stream *ts, const struct wr_frame_tmpl *t,
		  uint32_t stream_id, uint64_t count, uint32_t j, uint32_t k,
		  unsigned int n_mbufs, int socket_id, struct wr_error *err)
{
	static unsigned int pool_seq; /* main lcore only: unique pool names */
	char name[RTE_MEMPOOL_NAMESIZE];
	struct fill_arg fa;
	uint16_t max_len = wr_frame_tmpl_max_len(t);

	memset(ts, 0, sizeof(*ts));
	ts->t = t;
	ts->stream_id = stream_id;
	ts->sig_id = WR_SIG_ID(stream_id, j);
	ts->latency = wr_frame_tmpl_sig_off(t) != 0;
	ts->is_static = wr_frame_tmpl_is_static(t);
	ts->frame_bytes = (uint32_t)max_len + WR_FCS_LEN;
	ts->remaining = wr_tx_share(count, j, k);
	ts->done = ts->remaining == 0;
	wr_frame_gen_init(&ts->gen, t, j, k);

	snprintf(name, sizeof(name), "wr_tx%u_s%u", pool_seq++, stream_id);
	ts->mp = rte_pktmbuf_pool_create(name, n_mbufs, WR_TX_POOL_CACHE, 0,
					 RTE_PKTMBUF_HEADROOM + max_len,
					 socket_id);
	if (ts->mp == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "no memory for %u mbufs of %u bytes: %s "
				    "(are hugepages reserved?)",
				    n_mbufs, max_len, rte_strerror(rte_errno));
	fa.bytes = wr_frame_tmpl_bytes(t);
	fa.len = max_len;
	rte_mempool_obj_iter(ts->mp, fill_mbuf, &fa);
	return 0;
}

int
wr_tx_stream_set_rate(struct wr_tx_stream *ts, uint64_t millipps,
		      uint32_t burst)
{
	struct wr_pacer probe;

	memset(&ts->pacer_cfg, 0, sizeof(ts->pacer_cfg));
	ts->paced = millipps != WR_RATE_UNPACED;
	if (!ts->paced)
		return 0;
	ts->pacer_cfg.rate_millipps = millipps;
	ts->pacer_cfg.tsc_hz = rte_get_tsc_hz();
	ts->pacer_cfg.burst = burst;
	/* A stall (the lcore preempted, the ring full) is not made up for
	 * with more than one burst back to back. */
	ts->pacer_cfg.cap = burst;
	/* Validate now, on the main lcore, so the lcore cannot fail. */
	return wr_pacer_init_cfg(&probe, &ts->pacer_cfg, 0);
}

/* rte_mempool_obj_iter callback: checksum-offload metadata on one mbuf. */
static void
flag_mbuf(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
	  unsigned int idx __rte_unused)
{
	const struct rte_mbuf *proto = opaque;
	struct rte_mbuf *m = obj;

	m->ol_flags = proto->ol_flags;
	m->l2_len = proto->l2_len;
	m->l3_len = proto->l3_len;
}

bool
wr_tx_stream_cksum_offload(struct wr_tx_stream *ts, uint16_t port_id,
			   uint16_t queue_id)
{
	struct rte_mbuf *m;
	/* The UDP checksum sits 6 bytes into the UDP header, which follows
	 * the 20-byte IPv4 header the templates always have. */
	uint16_t l2 = (uint16_t)(wr_frame_tmpl_udp_csum_off(ts->t) - 6 -
				 WR_IPV4_HLEN);

	if (rte_mempool_get(ts->mp, (void **)&m) != 0)
		return false;
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
		RTE_MBUF_F_TX_UDP_CKSUM;
	m->l2_len = l2;
	m->l3_len = WR_IPV4_HLEN;
	if (rte_eth_tx_prepare(port_id, queue_id, &m, 1) != 1) {
		m->ol_flags = 0;
		m->l2_len = m->l3_len = 0;
		/* Back to the template's bytes: prepare may have written. */
		rte_memcpy(rte_pktmbuf_mtod(m, uint8_t *),
			   wr_frame_tmpl_bytes(ts->t), m->data_len);
		rte_mempool_put(ts->mp, m);
		return false;
	}
	rte_mempool_put(ts->mp, m);
	rte_mempool_obj_iter(ts->mp, flag_mbuf, m);
	ts->tx_prepare = true;
	return true;
}

void
wr_tx_stream_fini(struct wr_tx_stream *ts)
{
	if (ts == NULL || ts->mp == NULL)
		return;
	if (ts->n_pending > 0)
		rte_mempool_put_bulk(ts->mp, (void **)ts->pending,
				     ts->n_pending);
	ts->n_pending = 0;
	rte_mempool_free(ts->mp);
	ts->mp = NULL;
}

/* Write the varying bytes of @p n frames and set their lengths: one
 * generator call for the whole burst (see wr_frame_gen_burst). */
static inline void
build_burst(struct wr_tx_stream *ts, struct rte_mbuf **pkts, uint16_t n)
{
	uint8_t *bufs[WR_BURST_MAX];
	uint16_t lens[WR_BURST_MAX];
	uint16_t i;

	for (i = 0; i < n; i++)
		bufs[i] = rte_pktmbuf_mtod(pkts[i], uint8_t *);
	wr_frame_gen_burst(&ts->gen, bufs, lens, n);
	for (i = 0; i < n; i++) {
		pkts[i]->data_len = lens[i];
		pkts[i]->pkt_len = lens[i];
	}
}

/*
 * Signatures: sequence numbers in the order the frames go to the NIC, and
 * one TSC read for the whole burst, taken after the frames were built, as
 * late as possible before rte_eth_tx_burst.  A tail the NIC refused keeps
 * its signatures (same sequence numbers, same TSC) when offered again, so
 * its latency includes the wait for room in the ring.
 */
static inline void
stamp_burst(struct wr_tx_stream *ts, struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t tsc = rte_rdtsc();
	uint16_t i;

	for (i = 0; i < n; i++)
		wr_frame_sig_write(ts->t, rte_pktmbuf_mtod(pkts[i], uint8_t *),
				   (uint16_t)pkts[i]->pkt_len, ts->sig_id,
				   ts->next_seq + i, tsc);
	ts->next_seq += n;
}

static inline uint64_t
burst_bytes(const struct wr_tx_stream *ts, struct rte_mbuf **pkts,
	    uint16_t n)
{
	uint64_t bytes = 0;
	uint16_t i;

	if (ts->is_static)
		return (uint64_t)ts->frame_bytes * n;
	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len + WR_FCS_LEN;
	return bytes;
}

/* One turn of one stream: build a burst if none is pending, offer it. */
static inline void
stream_turn(const struct wr_txq *q, struct wr_tx_stream *ts, uint32_t burst)
{
	struct rte_mbuf **pkts = ts->pending;
	uint16_t n = ts->n_pending, sent;

	if (n == 0) {
		uint64_t want = ts->remaining < burst ? ts->remaining : burst;

		if (want == 0) {
			ts->done = true;
			ts->end_tsc = rte_rdtsc();
			return;
		}
		if (ts->paced) {
			/* Frames granted and then refused by the NIC stay
			 * pending and go first next turn: the schedule's
			 * count stays what was sent or is about to be. */
			uint32_t due = wr_pacer_due(&ts->pacer, rte_rdtsc());

			if (due == 0)
				return;
			if (due < want)
				want = due;
		}
		if (unlikely(rte_mempool_get_bulk(ts->mp, (void **)pkts,
						  (unsigned int)want) != 0)) {
			/* Every mbuf is in the NIC's ring: try again later. */
			__atomic_store_n(&ts->c.alloc_fail,
					 ts->c.alloc_fail + 1, __ATOMIC_RELAXED);
			return;
		}
		n = (uint16_t)want;
		if (!ts->is_static)
			build_burst(ts, pkts, n);
		if (ts->latency)
			stamp_burst(ts, pkts, n);
		if (ts->remaining != UINT64_MAX)
			ts->remaining -= n;
	}
	/* Offloaded checksums: fields as the NIC wants them (idempotent,
	 * so a tail offered again is prepared again harmlessly).  The
	 * PMD accepted this stream's frame at setup. */
	if (unlikely(ts->tx_prepare))
		rte_eth_tx_prepare(q->port_id, q->queue_id, pkts, n);
	sent = rte_eth_tx_burst(q->port_id, q->queue_id, pkts, n);
	if (likely(sent > 0)) {
		__atomic_store_n(&ts->c.tx_bytes,
				 ts->c.tx_bytes + burst_bytes(ts, pkts, sent),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&ts->c.tx_pkts, ts->c.tx_pkts + sent,
				 __ATOMIC_RELAXED);
	}
	if (unlikely(sent < n)) {
		/* Keep the tail, in order, for the next turn. */
		memmove(pkts, pkts + sent, (size_t)(n - sent) * sizeof(*pkts));
		__atomic_store_n(&ts->c.tx_full, ts->c.tx_full + 1,
				 __ATOMIC_RELAXED);
	}
	ts->n_pending = n - sent;
}

int
wr_tx_lcore_main(void *arg)
{
	struct wr_lcore_ctx *ctx = arg;
	const uint32_t burst = ctx->burst;
	unsigned int qi, si, active;

	ctx->start_tsc = rte_rdtsc();
	for (qi = 0; qi < ctx->n_txq; qi++)
		for (si = 0; si < ctx->txq[qi].n_streams; si++) {
			struct wr_tx_stream *ts = ctx->txq[qi].streams[si];

			/* Checked by wr_tx_stream_set_rate: cannot fail. */
			if (ts->paced)
				wr_pacer_init_cfg(&ts->pacer, &ts->pacer_cfg,
						  ctx->start_tsc);
		}
	do {
		for (qi = 0; qi < ctx->n_rxq; qi++)
			wr_rx_poll(ctx->rxq[qi]);
		active = 0;
		for (qi = 0; qi < ctx->n_txq; qi++) {
			const struct wr_txq *q = &ctx->txq[qi];

			for (si = 0; si < q->n_streams; si++) {
				struct wr_tx_stream *ts = q->streams[si];

				if (ts->done)
					continue;
				stream_turn(q, ts, burst);
				active += !ts->done;
			}
		}
	} while (active > 0 &&
		 __atomic_load_n(ctx->stop, __ATOMIC_RELAXED) == 0);
	ctx->end_tsc = rte_rdtsc();
	/* Streams cut short by the stop flag end now. */
	for (qi = 0; qi < ctx->n_txq; qi++)
		for (si = 0; si < ctx->txq[qi].n_streams; si++)
			if (ctx->txq[qi].streams[si]->end_tsc == 0)
				ctx->txq[qi].streams[si]->end_tsc =
					ctx->end_tsc;
	__atomic_store_n(&ctx->tx_finished, 1, __ATOMIC_RELEASE);
	/* Frames still in flight come back while the main lcore waits out
	 * the drain time. */
	while (ctx->n_rxq > 0 &&
	       __atomic_load_n(ctx->stop_rx, __ATOMIC_RELAXED) == 0)
		for (qi = 0; qi < ctx->n_rxq; qi++)
			wr_rx_poll(ctx->rxq[qi]);
	__atomic_store_n(&ctx->finished, 1, __ATOMIC_RELEASE);
	return 0;
}
