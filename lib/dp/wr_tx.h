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
 * - a varying stream writes only the bytes that vary (wr_frame_gen_burst_at,
 *   one call through the template's frame source per burst), since the
 *   buffer already holds an earlier frame of the same template.
 * Which of those a stream does, or whether it replays a capture, is its
 * source (wr_tx_src.h), chosen once at setup: the loop takes every burst
 * through the source's table and never asks what kind of stream it has.
 * Compared with refcount reuse of one template mbuf, this keeps refcnt at 1
 * (no atomic per packet on free) and is compatible with MBUF_FAST_FREE.
 *
 * A burst the NIC does not take whole keeps its tail: the same frames, in
 * the same order, are offered again on the next turn, so no frame index is
 * skipped and the frame sequence stays exactly what the stream file says.
 *
 * Counters: struct wr_counters per (lcore, stream), one writer (the lcore),
 * cache-aligned; the stats lcore reads them with wr_counters_read().
 *
 * Schedules (wr_sched.h, wr_rate.h).  A stream runs in activations: one for
 * a stream of a port whose streams run together, one per turn of the
 * sequence for a sequenced port.  An activation ends after the lane's share
 * of `count` (wr_sched_split_count()) or after `duration`, whichever comes
 * first (a burst already built still goes out, so no frame is given a
 * sequence number and then dropped), or when a ramp with at_end: stop is
 * over.  The loop reads the TSC once per stream turn, only for streams that
 * need it (paced, limited in time, ramped, trains); the per-packet path has
 * no division and no floating point.
 * - Rates and trains: struct wr_pacer.  A train's frames are owed at once,
 *   so the pacer's catch-up cap is at least one train.
 * - Ramps: at each step boundary (every 1 ms along a linear ramp) the lane's
 *   share of the ramp's rate goes to wr_pacer_set_rate().
 * - Sequences: a queue with `sequenced` set runs its streams one at a time
 *   through a struct wr_order; the engine puts the streams of a sequenced
 *   port on the port's first lane only (lanes would otherwise have to agree
 *   on when a stream ends), with that lane's full rate and count.  A new
 *   activation restarts the stream's frame sequence (a loop sends the same
 *   frames again) and its pacer; signature sequence numbers keep counting.
 * - Train spacing: with trains, the TSC right after the tx_burst that took
 *   the first frame of a train is recorded, and the interval since the
 *   previous train's goes into a histogram (ns): the report's spread.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_config.h"
#include "wr_error.h"
#include "wr_frame.h"
#include "wr_latency.h"
#include "wr_rate.h"
#include "wr_replay_tx.h"
#include "wr_rx.h"
#include "wr_sched.h"
#include "wr_stats.h"
#include "wr_tx_src.h"

struct wr_tcp_lcore;

#define WR_TXQ_STREAMS_MAX 64
#define WR_LCORE_TXQ_MAX 8
#define WR_LCORE_RXQ_MAX 8

/** How a lane paces and limits a stream: wr_tx_stream_set_rate(). */
struct wr_tx_pace {
	uint64_t millipps;      /**< this lane's rate (wr_rate_split()); WR_RATE_UNPACED: max */
	uint32_t burst;         /**< frames per TX burst, 1..WR_BURST_MAX */
	uint64_t duration_ns;   /**< an activation's time limit, 0 = none */
	uint64_t isg_ns;        /**< from an activation to its first frame, 0 = none */
	uint32_t train_frames;  /**< frames per train, 0 = continuous */
	uint64_t train_gap_ns;  /**< gap between trains (> 0 with trains) */
	const struct wr_ramp *ramp; /**< the stream's whole ramp (copied), or NULL;
				     *   millipps is then its start share */
};

struct wr_tx_stream {
	struct wr_counters c;       /**< written by the owning lcore only */
	uint64_t end_tsc;           /**< when the stream's last activation ended, 0 before */
	/** When the device first took a frame of this stream (the TSC right
	 * after the first rte_eth_tx_burst that returned non-zero), 0 before:
	 * a start's real instant, which the schedule's origin (start_tsc) is
	 * not when the lcore's CPU was taken at the start (issue 31). */
	uint64_t first_tx_tsc;
	const struct wr_frame_tmpl *t;
	struct rte_mempool *mp;
	uint32_t stream_id;
	uint32_t sig_id;            /**< WR_SIG_ID(stream, lane) */
	/** Where its frames come from (wr_tx_src.h): the template's pool
	 * (priv is this context) or a replay lane. */
	struct wr_tx_src src;
	uint32_t frame_bytes;       /**< one size: frame size incl. FCS */
	uint32_t data_off;          /**< frame data from the start of each mbuf */
	bool latency;               /**< frames carry a wr_sig */
	bool tx_prepare;            /**< checksum offload: rte_eth_tx_prepare each burst */
	bool done;
	bool paused;                /**< live control: held, not sending (lcore's copy) */
	/* Live control (wr_tx_stream_ctl()): the control thread writes
	 * ctl_state and ctl_millipps, then bumps ctl_gen with a release
	 * store; the lcore compares ctl_gen with ctl_seen once per turn and
	 * applies the values in its own slow path. */
	uint32_t ctl_gen;
	uint32_t ctl_seen;          /**< lcore only */
	uint32_t ctl_state;         /**< enum wr_tx_ctl_state */
	uint64_t ctl_millipps;      /**< this lane's rate; WR_RATE_UNPACED: max */
	uint64_t ctl_applied_tsc;   /**< lcore: when it applied a generation (measurement) */
	uint64_t next_seq;          /**< signature sequence of the next frame built */
	bool paced;                 /**< a set rate or trains: the pacer decides burst sizes */
	bool clocked;               /**< reads the TSC every turn */
	struct wr_pacer_cfg pacer_cfg; /**< started at each activation */
	struct wr_pacer pacer;
	/* Limits and activations. */
	uint64_t count;             /**< this lane's share per activation (wr_sched_split_count) */
	uint64_t duration_ns;
	uint64_t isg_tsc;           /**< an activation's wait before its first frame */
	uint64_t hold_tsc;          /**< nothing is sent before it (isg), 0 = none */
	uint32_t lane, n_lanes;     /**< frames lane, lane + n_lanes, ... */
	uint32_t burst;             /**< frames per TX burst */
	uint64_t tsc_hz;
	struct wr_latency_tsc ns;   /**< TSC to ns */
	struct wr_sched_run run;
	uint64_t activations;
	uint64_t act_start_tsc;
	uint64_t active_tsc;        /**< time in ended activations */
	uint64_t skipped_before;    /**< pacer skips of earlier activations */
	/* Ramp. */
	bool ramped;
	struct wr_ramp ramp;
	uint64_t ramp_next_tsc;     /**< next step boundary */
	uint64_t ramp_next_ns;      /**< the same, from the activation's start */
	uint64_t ramp_rate;         /**< the lane's current rate */
	/* Trains. */
	uint32_t train_frames;      /**< 0: continuous */
	uint32_t train_pos;         /**< frames of the current train sent */
	uint64_t train_last_tsc;    /**< first frame of the previous train, 0: none */
	uint64_t train_nominal_ns;  /**< expected train-to-train interval */
	struct wr_latency *gaps;    /**< measured train-to-train intervals, ns */
	uint16_t n_pending;         /**< built, not yet taken by the NIC */
	struct rte_mbuf *pending[WR_BURST_MAX];
	struct wr_frame_gen gen;
	/** A replayed stream's lane (wr_replay_tx.h), its source's state,
	 * for the report (the loop goes through src); NULL otherwise. */
	struct wr_replay_lane *rl;
	bool idle;                  /**< a replay lane with nothing to send */
} __rte_cache_aligned;

/** What the control thread asks of a running stream (wr_tx_stream_ctl()). */
enum wr_tx_ctl_state {
	WR_TX_CTL_RUN = 0,          /**< send (resume after a pause) */
	WR_TX_CTL_PAUSE,            /**< hold: send nothing, keep the activation */
	WR_TX_CTL_STOP,             /**< end the activation for good */
};

struct wr_txq {
	uint16_t port_id;
	uint16_t queue_id;
	unsigned int n_streams;
	struct wr_tx_stream *streams[WR_TXQ_STREAMS_MAX];
	bool sequenced;             /**< one stream at a time, by order */
	struct wr_order order;
	enum wr_sched_next next[WR_TXQ_STREAMS_MAX];
	const uint32_t *gone;       /**< the port went away: never touch it again */
	bool retired;               /**< its streams ended because it went */
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
	uint64_t start_at_tsc;      /**< 0, or spin until this TSC before sending */
	/* Ports going away (wr_engine_ports.c, port_leave()): the lcore copies
	 * *epoch into ack at the top of every turn, outside any burst, and
	 * then skips the queues whose port's gone flag is set.  Whoever set
	 * a flag and raised the epoch knows, once ack reached it, that the
	 * lcore is out of that port's burst functions for good. */
	const uint64_t *epoch;
	uint64_t ack;
	const uint32_t *rxq_gone[WR_LCORE_RXQ_MAX];
	/* The TSC's calibrated frequency (wr_clock_eal.h): the lcore compares the
	 * published word with its own copy at every turn; on a change its
	 * streams' pacers, end times and ramps, and its RX queues' latency
	 * conversion, take the new figure (replayed captures' deadlines keep
	 * the one they were built with). */
	const uint64_t *tsc_hz_word;
	uint64_t tsc_hz;
	uint64_t start_tsc;
	uint64_t end_tsc;           /**< when sending ended */
	/** The lcore's own time from start_tsc to end_tsc as the kernel
	 * counted it (wall_ns left 0: the engine knows the clock). */
	struct wr_thread_usage usage;
	uint32_t tx_finished;       /**< set by the lcore when it stopped sending */
	uint32_t finished;          /**< set by the lcore when its loop ended */
	/** A file of hosts alone: nothing to send, the lcore polls their
	 * ports until stopped (duration, traffic.stop), as TCP servers alone
	 * do (wr_engine_load.c's hosts_queues()). */
	bool hold;
	/** TCP lanes (wr_tcp_lcore.h): the lcore runs wr_tcp_lcore_main()
	 * instead of wr_tx_lcore_main(); NULL: none. */
	struct wr_tcp_lcore *tcp;
} __rte_cache_aligned;

/* A quiescent point (see struct wr_lcore_ctx): no burst of any port is in
 * progress here.  The acquire pairs with the release that raised the
 * epoch after a gone flag was set, so the flags read after it are set. */
static inline void
wr_lcore_quiescent(struct wr_lcore_ctx *ctx)
{
	__atomic_store_n(&ctx->ack, __atomic_load_n(ctx->epoch,
						    __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
}

/** Whether the port behind @p gone went away (a lcore never touches it
 * again). */
static inline bool
wr_port_gone(const uint32_t *gone)
{
	return unlikely(__atomic_load_n(gone, __ATOMIC_RELAXED) != 0);
}

/** The kernel's count of this thread's time (twice a launch, never per
 * burst): @p a the start, NULL to store the difference into @p u. */
void wr_lcore_usage_mark(struct rusage *a, struct wr_thread_usage *u);

/**
 * Set up one (lcore, stream) context: its prefilled mempool of @p n_mbufs
 * on @p socket_id, its generator at index @p j with stride @p k, its share
 * of @p count (0 = unlimited) per activation.  Lane @p j numbers the
 * signatures of the frames it sends from 0 (see wr_sig.h).  It sends at
 * the maximum, 64 frames a burst, until wr_tx_stream_set_rate().
 * @return 0, or a negative errno with @p err filled.
 */
int wr_tx_stream_init(struct wr_tx_stream *ts, const struct wr_frame_tmpl *t,
		      uint32_t stream_id, uint64_t count, uint32_t j,
		      uint32_t k, unsigned int n_mbufs, int socket_id,
		      struct wr_error *err);

/**
 * Set up one (lcore, replayed stream) context: lane @p j of @p k of the
 * frames of @p r with a pool of @p n_mbufs (wr_replay_lane_init(), on
 * @p socket_id), sending frames
 * below @p count (0 = unlimited) and r->loops passes per activation
 * (wr_replay_lane_limit()).  Then as wr_tx_stream_init().
 * @return 0, or a negative errno with @p err filled.
 */
int wr_tx_stream_init_replay(struct wr_tx_stream *ts,
			     const struct wr_replay_spec *r, uint32_t stream_id,
			     uint64_t count, uint32_t j, uint32_t k,
			     unsigned int n_mbufs, int socket_id,
			     struct wr_error *err);

/**
 * Give a stream context its rate, burst size, time limit, trains or ramp
 * (main lcore, before the lcore starts).  Everything the lcore would find
 * wrong is checked here, so the lcore cannot fail.
 * @return 0; -EINVAL (burst out of range, a ramp that wr_ramp_check()
 *         refuses or is combined with trains, trains at max without a gap);
 *         -ERANGE (a rate, gap or duration beyond the TSC's range);
 *         -ENOMEM (the trains' histogram).
 */
int wr_tx_stream_set_rate(struct wr_tx_stream *ts, const struct wr_tx_pace *pc);

/**
 * Publish a state and this lane's rate to a running (or not yet launched)
 * stream: the lcore picks them up at its next turn of the stream, without a
 * lock (control thread; one control thread at a time).  A rate change
 * re-anchors the pacer's deadline lattice at that turn, so nothing owed at
 * the old rate is caught up at the new one; a resume re-anchors it too.  A
 * stop waits until the frames already built (and stamped) went out.
 * @param millipps  WR_RATE_UNPACED for the maximum rate; must have passed
 *                  wr_tx_stream_ctl_check()
 */
void wr_tx_stream_ctl(struct wr_tx_stream *ts, enum wr_tx_ctl_state state,
		      uint64_t millipps);

/**
 * Can this stream take a live rate change to @p millipps?
 * @return 0; -ENOTSUP (a ramp or trains own the pacer);
 *         -ERANGE or -EINVAL (a rate the pacer cannot keep).
 */
int wr_tx_stream_ctl_check(const struct wr_tx_stream *ts, uint64_t millipps);

/**
 * Make @p q run its streams one at a time: stream i is followed as
 * @p next[i] says, the whole sequence @p loops times (0 = for ever).
 * @return 0 or -EINVAL (no stream, an action out of range).
 */
int wr_txq_set_sequence(struct wr_txq *q, const enum wr_sched_next *next,
			uint64_t loops);

/** Frames the pacer gave up after stalls, over every activation (after the lcore stopped). */
static inline uint64_t
wr_tx_stream_skipped(const struct wr_tx_stream *ts)
{
	return ts->skipped_before + (ts->paced ? ts->pacer.skipped : 0);
}

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
 * @return 0 (EAL's lcore function type).
 */
int wr_tx_lcore_main(void *arg);

#endif /* WR_TX_H */
