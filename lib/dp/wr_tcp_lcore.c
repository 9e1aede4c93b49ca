/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_lcore: the lcore loop of TCP lanes: RX into the engine, its frames out through mbufs lent to it, the hosts' frames handed on. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "wr_clock_eal.h"
#include "wr_tcp_lcore.h"

/* The pool's per-lcore cache: a burst's worth several times over. */
#define POOL_CACHE 256

static inline void
count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

int
wr_tcp_lane_add(struct wr_tcp_lcore **tlp, struct wr_tcp_lane **out,
		uint16_t port_id, uint16_t queue_id, uint32_t frame_max,
		unsigned int n_mbufs, int socket_id, struct wr_error *err)
{
	struct wr_tcp_lcore *tl = *tlp;
	struct wr_tcp_lane *l;
	char name[RTE_MEMPOOL_NAMESIZE];
	static unsigned int seq; /* main lcore only: pools' names */

	if (tl == NULL) {
		tl = rte_zmalloc_socket("wr_tcp_lcore", sizeof(*tl),
					RTE_CACHE_LINE_SIZE, socket_id);
		if (tl == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		*tlp = tl;
	}
	if (tl->n_lanes == WR_TCP_LCORE_LANES)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "a lcore runs %u TCP lanes at most",
				    WR_TCP_LCORE_LANES);
	l = rte_zmalloc_socket("wr_tcp_lane", sizeof(*l), RTE_CACHE_LINE_SIZE,
			       socket_id);
	if (l == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	snprintf(name, sizeof(name), "wr_tcp%u_%u_%u", port_id, queue_id,
		 seq++);
	l->pool = rte_pktmbuf_pool_create(name, n_mbufs, POOL_CACHE, 0,
			(uint16_t)(RTE_PKTMBUF_HEADROOM + frame_max),
			socket_id);
	if (l->pool == NULL) {
		rte_free(l);
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
			"cannot allocate the TCP frames' pool of port %u queue "
			"%u (%u mbufs of %u bytes): %s", port_id, queue_id,
			n_mbufs, frame_max, rte_strerror(rte_errno));
	}
	l->port_id = port_id;
	l->queue_id = queue_id;
	l->room = frame_max;
	tl->lanes[tl->n_lanes++] = l;
	*out = l;
	return 0;
}

int
wr_tcp_lane_learn(struct wr_tcp_lane *l, int socket_id)
{
	if (l->macs != NULL)
		return 0;
	l->macs = rte_zmalloc_socket("wr_tcp_macs",
				     WR_TCP_LANE_MACS * sizeof(*l->macs),
				     RTE_CACHE_LINE_SIZE, socket_id);
	return l->macs != NULL ? 0 : -ENOMEM;
}

/* Where the IP header of @p p starts (past the tags), its source
 * (@p src) or destination address read into @p ip; 0: not IP. */
static inline uint32_t
frame_ip(const uint8_t *p, uint32_t len, bool src, __uint128_t *ip)
{
	uint32_t o = 12;
	uint16_t et;
	unsigned int k;

	for (;;) {
		if (len < o + 2)
			return 0;
		et = (uint16_t)(p[o] << 8 | p[o + 1]);
		if (et != 0x8100 && et != 0x88a8)
			break;
		o += 4;
	}
	o += 2;
	if (et == 0x0800 && len >= o + 20) {
		const uint8_t *a = p + o + (src ? 12 : 16);

		*ip = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 |
		      (uint32_t)a[2] << 8 | a[3];
		return o;
	}
	if (et == 0x86dd && len >= o + 40) {
		const uint8_t *a = p + o + (src ? 8 : 24);

		*ip = 0;
		for (k = 0; k < 16; k++)
			*ip = *ip << 8 | a[k];
		return o;
	}
	return 0;
}

static inline uint32_t
mac_slot(__uint128_t ip)
{
	uint64_t x = (uint64_t)ip ^ (uint64_t)(ip >> 64);

	x *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 40) & (WR_TCP_LANE_MACS - 1);
}

/* A frame received: its sender's MAC by its address (any IP frame: a
 * frame not for the engine says where its sender is as well). */
static inline void
mac_learn(struct wr_tcp_lane *l, const uint8_t *p, uint32_t len)
{
	struct wr_tcp_mac_ent *e;
	__uint128_t ip;

	if (frame_ip(p, len, true, &ip) == 0 || ip == 0)
		return;
	e = &l->macs[mac_slot(ip)];
	if (e->ip != ip || memcmp(e->mac, p + 6, 6) != 0) {
		e->ip = ip;
		memcpy(e->mac, p + 6, 6);
	}
}

/* A frame with no next hop (a zero destination MAC): its peer's, as
 * learned.  @return false when it is not known. */
static inline bool
mac_fill(struct wr_tcp_lane *l, uint8_t *p, uint32_t len)
{
	const struct wr_tcp_mac_ent *e;
	__uint128_t ip;

	if (frame_ip(p, len, false, &ip) == 0)
		return false;
	e = &l->macs[mac_slot(ip)];
	if (e->ip != ip)
		return false;
	memcpy(p, e->mac, 6);
	return true;
}

static const uint8_t zero_mac[6];

/* The burst to the NIC: what it does not take is offered again a few
 * times (af_packet's socket, a full ring), then kept for the next flush:
 * to TCP a full ring is back-pressure, not a loss (dropped, each such
 * frame cost an RTO: test_tcp_memif saw 245,656 of them for a million
 * connections with no frame lost on the wire, and resets after). */
static void
lane_flush(struct wr_tcp_lane *l)
{
	uint16_t sent = 0, n = l->n_tx;
	unsigned int tries = 0;

	uint64_t bytes = 0;
	uint16_t i;

	/* Read before the NIC owns them. */
	for (i = 0; i < n; i++)
		bytes += rte_pktmbuf_pkt_len(l->tx[i]) + RTE_ETHER_CRC_LEN;
	while (sent < n && tries++ < WR_TCP_LCORE_TX_TRIES)
		sent += rte_eth_tx_burst(l->port_id, l->queue_id, l->tx + sent,
					 (uint16_t)(n - sent));
	if (sent < n)
		for (i = sent; i < n; i++)
			bytes -= rte_pktmbuf_pkt_len(l->tx[i]) +
				 RTE_ETHER_CRC_LEN;
	if (sent) {
		count(&l->c.tx_frames, sent);
		count(&l->c.tx_bytes, bytes);
	}
	if (sent > 0 && sent < n)
		memmove(l->tx, l->tx + sent, (size_t)(n - sent) * sizeof(l->tx[0]));
	l->n_tx = (uint16_t)(n - sent);
}

/* wr_tcp_io.frame: the next mbuf's own buffer.  One not sent (the engine
 * gave up the segment) is lent again. */
static uint8_t *
io_frame(void *ctx, uint32_t room)
{
	struct wr_tcp_lane *l = ctx;
	struct rte_mbuf *m = l->lent;

	if (unlikely(room > l->room))
		return NULL;
	if (unlikely(l->n_tx == WR_TCP_LCORE_BURST)) {
		/* The NIC took none of a whole burst: no room for more
		 * until it does (the engine sends the segment later). */
		lane_flush(l);
		if (l->n_tx == WR_TCP_LCORE_BURST) {
			count(&l->c.tx_nobuf, 1);
			return NULL;
		}
	}
	if (m == NULL) {
		m = rte_pktmbuf_alloc(l->pool);
		if (unlikely(m == NULL)) {
			count(&l->c.tx_nobuf, 1);
			return NULL;
		}
		l->lent = m;
	}
	return rte_pktmbuf_mtod(m, uint8_t *);
}

/* wr_tcp_io.send: the lent mbuf into the burst. */
static void
io_send(void *ctx, uint32_t len, uint16_t l3_off, uint16_t l4_off)
{
	struct wr_tcp_lane *l = ctx;
	struct rte_mbuf *m = l->lent;

	if (unlikely(m == NULL))
		return;
	l->lent = NULL;
	if (l->macs != NULL) {
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

		if (memcmp(p, zero_mac, 6) == 0 && !mac_fill(l, p, len)) {
			rte_pktmbuf_free(m);
			count(&l->c.tx_nomac, 1);
			return;
		}
	}
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	if (l->csum_offload) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		m->l2_len = l3_off;
		m->l3_len = (uint16_t)(l4_off - l3_off);
		m->ol_flags |= ((p[l3_off] >> 4) == 4 ?
				RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM :
				RTE_MBUF_F_TX_IPV6) | RTE_MBUF_F_TX_TCP_CKSUM;
	}
	l->tx[l->n_tx++] = m;
	if (l->n_tx == WR_TCP_LCORE_BURST)
		lane_flush(l);
}

void
wr_tcp_lane_io(struct wr_tcp_lane *l, struct wr_tcp_io *io)
{
	io->ctx = l;
	io->frame = io_frame;
	io->send = io_send;
	io->csum_offload = l->csum_offload;
}

void
wr_tcp_lane_stop(struct wr_tcp_lane *l, bool abort)
{
	uint32_t want = abort ? 2 : 1;

	if (__atomic_load_n(&l->stop_req, __ATOMIC_RELAXED) < want)
		__atomic_store_n(&l->stop_req, want, __ATOMIC_RELEASE);
}

void
wr_tcp_lcore_free(struct wr_tcp_lcore *tl)
{
	unsigned int i;

	if (tl == NULL)
		return;
	for (i = 0; i < tl->n_lanes; i++) {
		struct wr_tcp_lane *l = tl->lanes[i];

		wr_tcp_free(l->t);
		if (l->lent != NULL)
			rte_pktmbuf_free(l->lent);
		if (l->n_tx > 0)
			rte_pktmbuf_free_bulk(l->tx, l->n_tx);
		rte_mempool_free(l->pool);
		rte_free(l->macs);
		rte_free(l);
	}
	rte_free(tl);
}

/* One RX burst of @p l into its engine; frames that are not its handed
 * to the hosts' service (or freed: a port without hosts). */
static inline void
lane_rx(struct wr_tcp_lane *l, uint64_t now)
{
	struct rte_mbuf *pkts[WR_TCP_LCORE_BURST], *fwd[WR_TCP_LCORE_BURST];
	struct wr_rxq *q = l->rxq;
	uint16_t n, i, n_fwd = 0, n_free = 0;

	if (unlikely(q->hosts_out != NULL))
		wr_rx_hosts_send(q);
	n = rte_eth_rx_burst(l->port_id, l->queue_id, pkts,
			     WR_TCP_LCORE_BURST);
	count(&q->polls, 1);
	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		/* A chained mbuf (a jumbo frame over small buffers) is
		 * not one run of bytes: linearized where it fits, else
		 * dropped by the engine's length checks. */
		if (unlikely(m->nb_segs > 1))
			(void)rte_pktmbuf_linearize(m);
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		uint32_t len = rte_pktmbuf_data_len(m);

		/* Before the engine answers (a SYN-ACK goes out from
		 * within wr_tcp_input()). */
		if (l->macs != NULL)
			mac_learn(l, p, len);
		if (wr_tcp_input(l->t, p, len, now) == 1 && q->hosts != NULL) {
			fwd[n_fwd++] = m;
			continue;
		}
		/* The engine copied what it keeps: the mbuf goes back
		 * with the burst's others, in one call. */
		pkts[n_free++] = m;
	}
	if (n_free > 0)
		rte_pktmbuf_free_bulk(pkts, n_free);
	if (n_fwd > 0)
		wr_rx_to_hosts(q, fwd, n_fwd);
	count(&q->rx_pkts, n);
	count(&q->rx_foreign, n_fwd);
	count(&q->busy_polls, 1);
	count(&l->c.rx_frames, n);
	if (n_fwd)
		count(&l->c.rx_hosts, n_fwd);
}

/* The lcore's clock for its engines: ns since its start, from the TSC
 * with a multiply (no division a turn). */
struct lclock {
	uint64_t base;
	uint64_t mult;  /* ns per tick << 32 */
};

static void
lclock_init(struct lclock *c, uint64_t base)
{
	uint64_t hz = wr_tsc_hz();

	c->base = base;
	c->mult = (uint64_t)(((__uint128_t)1000000000ull << 32) / hz);
}

/* Never 0: an engine may take 0 for "not set". */
static inline uint64_t
lclock_now(const struct lclock *c)
{
	return (uint64_t)(((__uint128_t)(rte_rdtsc() - c->base) * c->mult) >>
			  32) + 1;
}

/* A stop asked of a lane (or of every lane: the engine's flags). */
static void
lane_stop_turn(struct wr_tcp_lane *l, uint32_t want, uint64_t now)
{
	uint32_t req = __atomic_load_n(&l->stop_req, __ATOMIC_ACQUIRE);

	if (want > req)
		req = want;
	if (req <= l->stop_seen)
		return;
	wr_tcp_stop(l->t, req == 2, now);
	l->stop_seen = req;
}

/* One turn over every lane: RX, stops asked, the engine's poll, the
 * burst out; and the lcore's other RX queues.  @return true when every
 * lane with clients has them done (and one has). */
static bool
turn(struct wr_lcore_ctx *ctx, struct wr_tcp_lcore *tl, bool *is_lane,
     const struct lclock *clk, uint32_t want_stop)
{
	unsigned int i;
	bool done = true, any = false;
	uint64_t now;

	wr_lcore_quiescent(ctx);
	now = lclock_now(clk);
	for (i = 0; i < tl->n_lanes; i++) {
		struct wr_tcp_lane *l = tl->lanes[i];

		if (wr_port_gone(l->gone))
			continue;
		lane_rx(l, now);
		lane_stop_turn(l, want_stop, now);
		(void)wr_tcp_poll(l->t, now);
		if (l->n_tx > 0)
			lane_flush(l);
		count(&l->c.polls, 1);
		if (l->has_clients) {
			bool d = wr_tcp_done(l->t);

			any = true;
			done &= d;
			if (d != (__atomic_load_n(&l->done,
						  __ATOMIC_RELAXED) != 0))
				__atomic_store_n(&l->done, d, __ATOMIC_RELEASE);
		}
	}
	for (i = 0; i < ctx->n_rxq; i++)
		if (!is_lane[i] && !wr_port_gone(ctx->rxq_gone[i]))
			wr_rx_drain(ctx->rxq[i], WR_RX_TURN_BURSTS);
	return any && done;
}

int
wr_tcp_lcore_main(void *arg)
{
	struct wr_lcore_ctx *ctx = arg;
	struct wr_tcp_lcore *tl = ctx->tcp;
	bool is_lane[WR_LCORE_RXQ_MAX] = { false };
	struct lclock clk;
	struct rusage ru;
	unsigned int i, j;
	uint64_t now;

	for (i = 0; i < ctx->n_rxq; i++)
		for (j = 0; j < tl->n_lanes; j++)
			is_lane[i] |= tl->lanes[j]->rxq == ctx->rxq[i];
	while (ctx->start_at_tsc != 0 && rte_rdtsc() < ctx->start_at_tsc &&
	       __atomic_load_n(ctx->stop, __ATOMIC_RELAXED) == 0) {
		wr_lcore_quiescent(ctx);
		rte_pause();
	}
	wr_lcore_usage_mark(&ru, NULL);
	now = rte_rdtsc();
	ctx->start_tsc = ctx->start_at_tsc != 0 && ctx->start_at_tsc <= now ?
		ctx->start_at_tsc : now;
	if (tl->tsc_base == 0)
		tl->tsc_base = ctx->start_tsc;
	/* One clock over the lcore's starts (run --repeat loads afresh;
	 * the server starts and stops a loaded session): an engine's
	 * timers never see time go back. */
	lclock_init(&clk, tl->tsc_base);
	for (i = 0; i < tl->n_lanes; i++) {
		tl->lanes[i]->stop_seen = 0;
		wr_tcp_start(tl->lanes[i]->t, lclock_now(&clk));
	}
	/* Until the stop flag: clients open, servers answer.  The lcore
	 * says it finished sending once its clients are done (its servers
	 * go on answering until the stop). */
	while (__atomic_load_n(ctx->stop, __ATOMIC_RELAXED) == 0)
		if (turn(ctx, tl, is_lane, &clk, 0) &&
		    !__atomic_load_n(&ctx->tx_finished, __ATOMIC_RELAXED))
			__atomic_store_n(&ctx->tx_finished, 1,
					 __ATOMIC_RELEASE);
	ctx->end_tsc = rte_rdtsc();
	wr_lcore_usage_mark(&ru, &ctx->usage);
	__atomic_store_n(&ctx->tx_finished, 1, __ATOMIC_RELEASE);
	/* The drain: no connection opened, those open run to their end. */
	while (__atomic_load_n(ctx->stop_rx, __ATOMIC_RELAXED) == 0)
		(void)turn(ctx, tl, is_lane, &clk, 1);
	/* What is left is reset, its RSTs sent. */
	(void)turn(ctx, tl, is_lane, &clk, 2);
	(void)turn(ctx, tl, is_lane, &clk, 2);
	__atomic_store_n(&ctx->finished, 1, __ATOMIC_RELEASE);
	return 0;
}
