/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_rx_poll() on an in-process net_ring port (what is sent into it comes
 * back out of its RX queue): every mbuf of a received burst goes back to
 * its own pool, once, whatever it is.  A burst as PMDs hand them out is
 * returned in one rte_mempool_put_bulk(); one with an mbuf held by another
 * owner, a chain, an indirect mbuf or a second pool must not be (wr_rx.c,
 * rx_free()).  Pool counts from DPDK (rte_mempool_in_use_count), reference
 * counts from the mbufs.  And the compact signature (wr_sig.h) through
 * both receive paths (rx_block() and the general loop): every frame
 * counted in its lane's sequence, across the 2^48 wrap, and timed with
 * its TX TSC put back whole (where the TSC is past 2^48, 30 h at 2.6 GHz:
 * below it, putting back is the identity, which wr_sig_extend48()'s own
 * test in test_frame covers).  EAL without hugepages.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_latency.h"
#include "wr_rx.h"
#include "wr_seq.h"
#include "wr_sig.h"
#include "wr_test_eal.h"

#define POOL_N 255
#define FRAME_LEN 60

static struct rte_mempool *pool_a, *pool_b;
static uint16_t port;
static struct wr_rxq rxq;
/* Two streams: 0 with one lane, 1 with two; signatures at 42 (UDP). */
static struct wr_rxq sigq;
#define SIG_OFF 42

/* A frame of zeros but for its Ethernet addresses: no signature, so
 * rx_foreign. */
static struct rte_mbuf *
frame(struct rte_mempool *mp)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *p;

	if (m == NULL)
		return NULL;
	/* As a PMD fills it (rte_pktmbuf_append() is beyond what GCC can
	 * see the bounds of). */
	m->data_len = FRAME_LEN;
	m->pkt_len = FRAME_LEN;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0, FRAME_LEN);
	p[0] = 2;
	p[6] = 2;
	return m;
}

/* Send @p n mbufs into the ring and have wr_rx_poll() take them. */
static void
round_trip(struct rte_mbuf **m, uint16_t n)
{
	uint64_t before = rxq.rx_pkts;

	CU_ASSERT_EQUAL_FATAL(rte_eth_tx_burst(port, 0, m, n), n);
	CU_ASSERT_EQUAL(wr_rx_poll(&rxq), n);
	CU_ASSERT_EQUAL(rxq.rx_pkts - before, n);
}

static void
fill(struct rte_mbuf **m, uint16_t n, struct rte_mempool *mp)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		m[i] = frame(mp);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i]);
	}
}

static void
test_plain(void)
{
	struct rte_mbuf *m[WR_RX_BURST];

	fill(m, WR_RX_BURST, pool_a);
	round_trip(m, WR_RX_BURST);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
	fill(m, 1, pool_a);
	round_trip(m, 1);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
}

/* An mbuf another owner holds (a capture does, wr_cap_rx()), first in the
 * burst and in its middle: that owner's reference stays, and its data. */
static void
test_held(void)
{
	static const unsigned int at[] = { 0, 5, WR_RX_BURST - 1 };
	struct rte_mbuf *m[WR_RX_BURST], *held;
	unsigned int k;

	for (k = 0; k < RTE_DIM(at); k++) {
		fill(m, WR_RX_BURST, pool_a);
		held = m[at[k]];
		rte_mbuf_refcnt_update(held, 1);
		rte_pktmbuf_mtod(held, uint8_t *)[20] = 0xa5;
		round_trip(m, WR_RX_BURST);
		CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 1);
		CU_ASSERT_EQUAL(rte_mbuf_refcnt_read(held), 1);
		CU_ASSERT_EQUAL(rte_pktmbuf_mtod(held, uint8_t *)[20], 0xa5);
		rte_pktmbuf_free(held);
		CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
	}
}

/* A frame in two segments: both go back. */
static void
test_chain(void)
{
	struct rte_mbuf *m[WR_RX_BURST], *tail;

	fill(m, WR_RX_BURST, pool_a);
	tail = frame(pool_a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tail);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_chain(m[7], tail), 0);
	CU_ASSERT_EQUAL(m[7]->nb_segs, 2);
	round_trip(m, WR_RX_BURST);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
}

/* Frames of two pools in one burst: each back to its own. */
static void
test_two_pools(void)
{
	struct rte_mbuf *m[WR_RX_BURST];
	uint16_t i;

	for (i = 0; i < WR_RX_BURST; i++) {
		m[i] = frame(i % 3 == 2 ? pool_b : pool_a);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i]);
	}
	round_trip(m, WR_RX_BURST);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_b), 0);
	/* A burst all of the second pool. */
	fill(m, WR_RX_BURST, pool_b);
	round_trip(m, WR_RX_BURST);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_b), 0);
}

/* An indirect mbuf (a clone of pool_b attached to a frame of pool_a): the
 * clone goes back to pool_b, and the frame it was attached to loses that
 * reference only. */
static void
test_indirect(void)
{
	struct rte_mbuf *m[WR_RX_BURST], *direct;

	fill(m, WR_RX_BURST, pool_b);
	direct = frame(pool_a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(direct);
	rte_pktmbuf_free(m[3]);
	m[3] = rte_pktmbuf_clone(direct, pool_b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m[3]);
	CU_ASSERT_EQUAL(rte_mbuf_refcnt_read(direct), 2);
	round_trip(m, WR_RX_BURST);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_b), 0);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 1);
	CU_ASSERT_EQUAL(rte_mbuf_refcnt_read(direct), 1);
	rte_pktmbuf_free(direct);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
}

/* A 60-byte frame (64 with FCS) with a compact signature at SIG_OFF. */
static struct rte_mbuf *
compact(uint16_t stream, uint16_t lane, uint64_t seq, uint64_t tx_tsc)
{
	struct rte_mbuf *m = frame(pool_a);
	struct wr_sig sig = { WR_SIG_ID(stream, lane), seq, tx_tsc };

	if (m != NULL)
		wr_sig_encode_compact(rte_pktmbuf_mtod(m, uint8_t *) + SIG_OFF,
				      &sig);
	return m;
}

static void
sig_round_trip(struct rte_mbuf **m, uint16_t n)
{
	CU_ASSERT_EQUAL_FATAL(rte_eth_tx_burst(port, 0, m, n), n);
	CU_ASSERT_EQUAL(wr_rx_poll(&sigq), n);
}

static struct wr_latency_summary
lat_of(uint16_t stream)
{
	struct wr_latency_summary sum;

	wr_latency_summarize(&sigq.streams[stream]->hist, NULL, &sum);
	return sum;
}

/*
 * A block of one lane (rx_block's), then lanes interleaved (the general
 * loop's), each from just below 2^48 on: every frame in sequence (no loss,
 * no reorder, next past the wrap), and each timed 1 ms (the TX TSC written
 * that long before the send), not 2^48 cycles or 0.
 */
static void
test_compact(void)
{
	const uint64_t base = (1ull << 48) - 10, ms = rte_get_tsc_hz() / 1000;
	struct rte_mbuf *m[WR_RX_BURST];
	struct wr_latency_summary l0, l1;
	struct wr_seq_result r;
	uint64_t tx, ours = sigq.rx_ours, bad = sigq.rx_bad_sig;
	uint16_t i;

	/* Where the lanes have got to: as after 2^48 - 10 frames each. */
	sigq.streams[0]->seq[0].next = base;
	sigq.streams[1]->seq[0].next = base;
	sigq.streams[1]->seq[1].next = base;
	tx = rte_rdtsc() - ms;
	for (i = 0; i < WR_RX_BURST; i++) {
		m[i] = compact(0, 0, base + i, tx);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i]);
	}
	sig_round_trip(m, WR_RX_BURST);
	wr_seq_finish(&sigq.streams[0]->seq[0], base + WR_RX_BURST, &r);
	CU_ASSERT_EQUAL(r.rx_pkts, WR_RX_BURST);
	CU_ASSERT_EQUAL(r.distinct, WR_RX_BURST);
	CU_ASSERT_EQUAL(r.reordered, 0);
	CU_ASSERT_EQUAL(r.duplicated, 0);
	CU_ASSERT_EQUAL(sigq.streams[0]->seq[0].next, base + WR_RX_BURST);
	l0 = lat_of(0);
	CU_ASSERT_EQUAL(l0.n, WR_RX_BURST);
	/* 1 ms before the send, less than a second after. */
	CU_ASSERT(l0.min >= 1000000 && l0.max < 1000000000ull);

	/* Lanes 0 and 1 of stream 1 in turn: one frame a block. */
	tx = rte_rdtsc() - ms;
	for (i = 0; i < WR_RX_BURST; i++) {
		m[i] = compact(1, i & 1, base + i / 2, tx);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i]);
	}
	sig_round_trip(m, WR_RX_BURST);
	for (i = 0; i < 2; i++) {
		wr_seq_finish(&sigq.streams[1]->seq[i],
			      base + WR_RX_BURST / 2, &r);
		CU_ASSERT_EQUAL(r.distinct, WR_RX_BURST / 2);
		CU_ASSERT_EQUAL(r.duplicated, 0);
		CU_ASSERT_EQUAL(r.reordered, 0);
		CU_ASSERT_EQUAL(sigq.streams[1]->seq[i].next,
				base + WR_RX_BURST / 2);
	}
	l1 = lat_of(1);
	CU_ASSERT_EQUAL(l1.n, WR_RX_BURST);
	CU_ASSERT(l1.min >= 1000000 && l1.max < 1000000000ull);

	/* A lane the streams do not have, and a stream: bad, not ours. */
	m[0] = compact(0, 1, 0, tx);
	m[1] = compact(2, 0, 0, tx);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m[1]);
	sig_round_trip(m, 2);
	CU_ASSERT_EQUAL(sigq.rx_ours - ours, 2 * WR_RX_BURST);
	CU_ASSERT_EQUAL(sigq.rx_bad_sig - bad, 2);
	CU_ASSERT_EQUAL(rte_mempool_in_use_count(pool_a), 0);
}

static int
setup(void)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	pool_a = rte_pktmbuf_pool_create("rxq_a", POOL_N, 32, 0,
					 RTE_MBUF_DEFAULT_BUF_SIZE,
					 SOCKET_ID_ANY);
	pool_b = rte_pktmbuf_pool_create("rxq_b", POOL_N, 0, 0,
					 RTE_MBUF_DEFAULT_BUF_SIZE,
					 SOCKET_ID_ANY);
	if (pool_a == NULL || pool_b == NULL ||
	    rte_eth_dev_get_port_by_name("net_ring0", &port) != 0 ||
	    rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL,
				   pool_a) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0 ||
	    wr_rxq_init(&rxq, port, 0, 0, NULL, 0, SOCKET_ID_ANY) != 0)
		return -1;
	{
		static const uint16_t lanes[2] = { 1, 2 };

		if (wr_rxq_init(&sigq, port, 0, 2, lanes, 0,
				SOCKET_ID_ANY) != 0)
			return -1;
		wr_rx_sig_offs_add(&sigq, SIG_OFF, WR_SIG_KIND_COMPACT);
	}
	return 0;
}

static CU_TestInfo rxq_tests[] = {
	{ "plain", test_plain },
	{ "held", test_held },
	{ "chain", test_chain },
	{ "two_pools", test_two_pools },
	{ "indirect", test_indirect },
	{ "compact", test_compact },
	CU_TEST_INFO_NULL,
};

/* The queues' own state (sequence windows) freed: LeakSanitizer runs this. */
static int
teardown(void)
{
	wr_rxq_fini(&sigq);
	wr_rxq_fini(&rxq);
	return 0;
}

static CU_SuiteInfo suites[] = {
	{ "rxq", setup, teardown, NULL, NULL, rxq_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	return wr_test_eal_main("test_rxq", "net_ring0", suites);
}
