/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tx: the TX lcore loop and its per-lcore, per-stream contexts. */
#ifndef WR_TX_H
#define WR_TX_H

/**
 * @file
 * Each TX lcore owns a struct wr_lcore_ctx: the (port, queue) pairs it sends
 * on and, per queue, the streams it sends there.  Nothing in the loop reads
 * global mutable state but the stop flag.
 *
 * mbuf strategy (why it is fast): every (lcore, stream) pair has its own
 * mempool whose mbufs are filled with the stream's template once, at setup
 * (rte_mempool_obj_iter).  The loop takes mbufs with rte_mempool_get_bulk,
 * not rte_pktmbuf_alloc_bulk: the raw get skips rte_pktmbuf_reset(), and a
 * freed mbuf keeps its data, data_off and lengths (rte_pktmbuf_free only
 * resets next/nb_segs, which a single-segment frame never changes).  So:
 * - a static stream (nothing varies) writes nothing per packet: get a burst
 *   from the lcore's mempool cache, hand it to the NIC, the NIC's free puts
 *   it back into the same cache;
 * - a varying stream writes only the bytes that vary (wr_frame_gen_next),
 *   since the buffer already holds an earlier frame of the same template.
 * Compared with refcount reuse of one template mbuf, this keeps refcnt at 1
 * (no atomic per packet on free) and is compatible with MBUF_FAST_FREE.
 *
 * A burst the NIC does not take whole keeps its tail: the same frames, in
 * the same order, are offered again on the next turn, so no frame index is
 * skipped and the frame sequence stays exactly what the stream file says.
 *
 * Counters: struct wr_counters per (lcore, stream), one writer (the lcore),
 * cache-aligned; the stats lcore reads them with wr_counters_read().
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_config.h"
#include "wr_error.h"
#include "wr_frame.h"
#include "wr_rate.h"
#include "wr_rx.h"
#include "wr_stats.h"

#define WR_TXQ_STREAMS_MAX 64
#define WR_LCORE_TXQ_MAX 8
#define WR_LCORE_RXQ_MAX 8

struct wr_tx_stream {
	struct wr_counters c;       /**< written by the owning lcore only */
	uint64_t remaining;         /**< frames still to build; UINT64_MAX = unlimited */
	uint64_t end_tsc;           /**< when this lcore finished the stream, 0 while running */
	const struct wr_frame_tmpl *t;
	struct rte_mempool *mp;
	uint32_t stream_id;
	uint32_t sig_id;            /**< WR_SIG_ID(stream, lane) */
	uint32_t frame_bytes;       /**< static streams: frame size incl. FCS */
	bool is_static;
	bool latency;               /**< frames carry a wr_sig */
	bool tx_prepare;            /**< checksum offload: rte_eth_tx_prepare each burst */
	bool done;
	uint64_t next_seq;          /**< signature sequence of the next frame built */
	bool paced;                 /**< a set rate: the pacer decides burst sizes */
	struct wr_pacer_cfg pacer_cfg; /**< started by the lcore at its start TSC */
	struct wr_pacer pacer;
	uint16_t n_pending;         /**< built, not yet taken by the NIC */
	struct rte_mbuf *pending[WR_BURST_MAX];
	struct wr_frame_gen gen;
} __rte_cache_aligned;

struct wr_txq {
	uint16_t port_id;
	uint16_t queue_id;
	unsigned int n_streams;
	struct wr_tx_stream *streams[WR_TXQ_STREAMS_MAX];
};

struct wr_lcore_ctx {
	unsigned int lcore_id;
	uint32_t burst;
	unsigned int n_txq;
	struct wr_txq txq[WR_LCORE_TXQ_MAX];
	unsigned int n_rxq;
	struct wr_rxq *rxq[WR_LCORE_RXQ_MAX];
	const uint32_t *stop;       /**< stop sending: set by the main lcore */
	const uint32_t *stop_rx;    /**< stop receiving (after the drain time) */
	uint64_t start_tsc;
	uint64_t end_tsc;           /**< when sending ended */
	uint32_t tx_finished;       /**< set by the lcore when it stopped sending */
	uint32_t finished;          /**< set by the lcore when its loop ended */
} __rte_cache_aligned;

/**
 * Frames lcore @p j of @p k sends of a stream of @p count frames (0 =
 * unlimited, returned as UINT64_MAX): indices j, j+k, j+2k, ... < count.
 */
uint64_t wr_tx_share(uint64_t count, uint32_t j, uint32_t k);

/**
 * Set up one (lcore, stream) context: its prefilled mempool of @p n_mbufs
 * on @p socket_id, its generator at index @p j with stride @p k.  Lane @p j
 * numbers the signatures of the frames it sends from 0 (see wr_sig.h).
 * @return 0, or a negative errno with @p err filled.
 */
int wr_tx_stream_init(struct wr_tx_stream *ts, const struct wr_frame_tmpl *t,
		      uint32_t stream_id, uint64_t count, uint32_t j,
		      uint32_t k, unsigned int n_mbufs, int socket_id,
		      struct wr_error *err);

/**
 * Give a stream context a rate: @p millipps for this lane (wr_rate_split()),
 * WR_RATE_UNPACED for the maximum.  The pacer starts when the lcore starts.
 * @return 0 or a negative errno from wr_pacer_init_cfg's checks.
 */
int wr_tx_stream_set_rate(struct wr_tx_stream *ts, uint64_t millipps,
			  uint32_t burst);

/**
 * Use the port's IPv4 + UDP checksum offload for this stream (wr_offload.h):
 * flag every mbuf of its pool (RTE_MBUF_F_TX_IPV4 | IP_CKSUM | UDP_CKSUM,
 * l2_len, l3_len; the flags survive free and get, as the data does) and
 * prepare each burst with rte_eth_tx_prepare on @p port_id / @p queue_id.
 * One frame is prepared here first: if the PMD rejects it, nothing is
 * changed and the software checksums stay in use.
 * Main lcore, before the lcore starts.  @return true when offload is on.
 */
bool wr_tx_stream_cksum_offload(struct wr_tx_stream *ts, uint16_t port_id,
				uint16_t queue_id);

/** Free what wr_tx_stream_init made (frames still pending too).  NULL-safe. */
void wr_tx_stream_fini(struct wr_tx_stream *ts);

/**
 * A worker lcore's main loop (rte_eal_remote_launch argument: a
 * struct wr_lcore_ctx).  It sends (one burst per stream per turn) and polls
 * its RX queues in the same loop, until every stream is done or *stop is
 * set; then, if it has RX queues, it goes on receiving until *stop_rx, so
 * frames still in flight are counted before loss is.
 */
int wr_tx_lcore_main(void *arg);

#endif /* WR_TX_H */
