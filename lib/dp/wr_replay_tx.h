/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_tx: one TX lane of a replayed stream: its frames in prefilled mbufs, taken in order. */
#ifndef WR_REPLAY_TX_H
#define WR_REPLAY_TX_H

/**
 * @file
 * Why it costs what a static stream costs.  A lane's frames are copied
 * once, at setup, into one hugepage block on the port's socket, and each
 * gets an mbuf of a mempool of its own whose buf_addr points at it (bare
 * headers, read in order: see place_data() in the .c file).  The pool uses the "wr_replay" mempool
 * driver, whose put does nothing: when the PMD frees a transmitted frame
 * (rte_pktmbuf_free, or a fast-free bulk put) the mbuf simply stays where
 * it is, still holding its frame, refcnt 1, lengths intact.  The TX loop
 * hands the NIC the lane's mbuf pointers in order (frame i, i+1, ...,
 * wrapping at the end of a pass): no allocation, no copy, no per-packet
 * write, no atomic.  The frames are never written after setup, so one
 * mbuf may sit in the NIC's ring twice (a lane of fewer frames than the
 * ring): the NIC only reads it.
 *
 * With `timing: capture` a struct wr_replay_sched (wr_replay.h) decides
 * which frames are due; after each tx_burst the TSC is read once and every
 * frame the NIC took gets that departure time: the histograms `late`
 * (departure - deadline) and `gap_err` (|departure gap - the capture's gap|
 * between consecutive frames of the lane) are what the report prints.
 * One writer: the lane's lcore; the main lcore reads the histograms after
 * the lcores stopped.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_mempool.h>

#include "wr_config.h"
#include "wr_error.h"
#include "wr_latency.h"
#include "wr_rate.h"
#include "wr_replay.h"

struct wr_replay_lane {
	struct rte_mempool *mp;
	struct rte_mbuf **frames;   /**< m mbufs, the lane's frames in order */
	uint8_t *data;              /**< the frames' bytes, which the mbufs point into */
	uint16_t *wire;             /**< m L2 wire sizes incl. padding and FCS */
	uint64_t *dl;               /**< m deadlines within a pass (timed) */
	uint32_t m;
	uint32_t acct;              /**< next frame whose bytes are counted */
	bool timed;
	uint64_t pass_ns;
	uint64_t tsc_hz;
	struct wr_replay_sched sched; /**< its pos is the next frame, timed or not */
	uint16_t n_due;             /**< deadlines of frames taken, not yet sent */
	uint64_t due[WR_BURST_MAX]; /**< unshifted deadlines (before stall moves) */
	bool have_prev;
	uint64_t prev_dep;          /**< departure of the previous frame */
	uint64_t prev_due;          /**< its unshifted deadline */
	struct wr_latency_tsc ns;
	struct wr_latency *gap_err; /**< ns, timed lanes only */
	struct wr_latency *late;    /**< ns, timed lanes only */
};

/**
 * Hugepage bytes lane @p j of @p k of @p r needs: its mbufs (object size
 * as the mempool lays it out) and its tables.
 */
uint64_t wr_replay_lane_mem(const struct wr_replay_spec *r, uint32_t k,
			    uint32_t j);

/**
 * Build lane @p j of @p k of @p r on @p socket: the mempool, every frame
 * copied into its mbuf, the deadlines for `timing: capture`.  Main lcore.
 * @return 0; -ENOMEM with @p err saying how much was asked.
 */
int wr_replay_lane_init(struct wr_replay_lane *rl,
			const struct wr_replay_spec *r, uint32_t k, uint32_t j,
			int socket, struct wr_error *err);

/** Free what wr_replay_lane_init() built.  NULL-safe. */
void wr_replay_lane_fini(struct wr_replay_lane *rl);

/** An activation starts at TSC @p now: frame 0, pass 0. */
void wr_replay_lane_start(struct wr_replay_lane *rl, uint64_t now);

/**
 * The next @p want frames (timed: of those due at @p now) into @p pkts.
 * @return how many (0 when none is due).
 */
static inline uint16_t
wr_replay_lane_take(struct wr_replay_lane *rl, struct rte_mbuf **pkts,
		    uint16_t want, uint64_t now)
{
	struct rte_mbuf **frames = rl->frames;
	uint32_t pos, ahead, m = rl->m;
	uint16_t i;

	pos = rl->sched.pos;
	if (rl->timed) {
		uint64_t shift;

		want = (uint16_t)wr_replay_sched_take(&rl->sched, now, want,
						      rl->due);
		/* Gaps are judged against the capture's: deadlines before
		 * the schedule moved for stalls.  The move happens only
		 * in take, so the shift at departure is the one at take. */
		shift = rl->sched.stall_ticks;
		for (i = 0; i < want; i++)
			rl->due[i] -= shift;
		rl->n_due = want;
	}
	ahead = (uint32_t)((pos + want) % m);
	for (i = 0; i < want; i++) {
		/* The frames of a long capture are spread over more memory
		 * than the caches hold: the mbuf header the PMD reads when it
		 * frees the frame (both its cache lines) is fetched now for
		 * the frame one burst ahead, so no free waits for DRAM. */
		rte_prefetch0(frames[ahead]);
		rte_prefetch0(RTE_PTR_ADD(frames[ahead], RTE_CACHE_LINE_SIZE));
		if (++ahead == m)
			ahead = 0;
		pkts[i] = frames[pos];
		if (++pos == m)
			pos = 0;
	}
	if (!rl->timed)
		rl->sched.pos = pos;
	return want;
}

/** Departure accounting of a timed lane (out of line: not on the max-rate path). */
void wr_replay_lane_departed(struct wr_replay_lane *rl, uint16_t sent,
			     uint64_t tsc);

/**
 * The NIC took the next @p sent frames at TSC @p tsc.
 * @return their L2 bytes (padding and FCS included).
 */
static inline uint64_t
wr_replay_lane_sent(struct wr_replay_lane *rl, uint16_t sent, uint64_t tsc)
{
	const uint16_t *wire = rl->wire;
	uint32_t a = rl->acct, m = rl->m;
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < sent; i++) {
		bytes += wire[a];
		if (++a == m)
			a = 0;
	}
	rl->acct = a;
	if (rl->timed)
		wr_replay_lane_departed(rl, sent, tsc);
	return bytes;
}

#endif /* WR_REPLAY_TX_H */
