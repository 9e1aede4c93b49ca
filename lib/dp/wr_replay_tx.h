/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_tx: one TX lane of a replayed stream: frames loaded once, sent in order from hot mbufs pointing at them. */
#ifndef WR_REPLAY_TX_H
#define WR_REPLAY_TX_H

/**
 * @file
 * Why it costs what a static stream costs.  A lane's frames are copied
 * once, at setup, into one hugepage block on the port's socket, and the
 * lane keeps a table of (address, IOVA, length) per frame, in order.  The
 * TX loop takes mbufs from a small pool of bare headers exactly as a
 * static stream takes its prefilled ones (rte_mempool_get_bulk from the
 * lcore's cache: a few dozen mbufs, hot in L1), and points each at the
 * next frame: buf_addr, buf_iova and the lengths, four stores in a line
 * already in cache.  No frame byte is copied or touched by the CPU; the
 * NIC reads them where they were loaded.  The PMD frees the mbufs back to
 * the same cache.
 *
 * Measured why not one prefilled mbuf per frame: a 100 000-frame capture
 * then spreads 100 000 mbuf headers over memory, and the PMD's free reads
 * two lines of each from DRAM: 27-43 Mpps against 85 for a static stream
 * of the mean size on this machine.
 *
 * With `timing: capture` a struct wr_replay_sched (wr_replay.h) decides
 * which frames are due; after each tx_burst the TSC is read once and every
 * frame the NIC took gets that departure time: the histograms `late`
 * (departure - deadline) and `gap_err` (|departure gap - the capture's gap|
 * between consecutive frames of the lane) are what the report prints,
 * the lateness split by whether the frame fell due while the lcore was
 * polling the lane or away from it (see poll_tsc below).
 * One writer: the lane's lcore; the main lcore reads the histograms after
 * the lcores stopped.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_config.h"
#include "wr_error.h"
#include "wr_latency.h"
#include "wr_rate.h"
#include "wr_replay.h"
#include "wr_tx_src.h"

/** Where one frame of a lane is, and what it weighs on the wire. */
struct wr_replay_frame {
	uint8_t *addr;
	rte_iova_t iova;
	uint16_t len;      /**< bytes as captured (no FCS) */
	uint16_t wire;     /**< L2 bytes on the wire: padded to 60, plus FCS */
};

struct wr_replay_lane {
	struct rte_mempool *mp;     /**< bare mbuf headers (no data room) */
	struct wr_replay_frame *frames; /**< m frames, the lane's in order */
	uint8_t *data;              /**< the frames' bytes */
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
	/* Where lateness comes from (timed lanes).  The lane is polled
	 * every turn of its lcore, a few hundred ns apart; a longer gap
	 * between two polls means the lcore was away (the host took the
	 * vCPU, an interrupt, other streams' work), and a frame that fell
	 * due before such a gap ended leaves late by up to the gap,
	 * whatever the pacer does.  Lateness is kept apart for frames
	 * polled for without a gap from deadline to departure (the
	 * pacer's own) and counted for the others. */
	uint64_t poll_tsc;          /**< the previous poll */
	uint64_t away_thr;          /**< a gap longer than this is "away" */
	uint64_t away_to;           /**< when the latest away gap ended */
	uint64_t away_n, away_ticks, away_max;
	uint64_t late_away;         /**< frames that waited through a gap */
	struct wr_latency *late_polled; /**< ns: the others' lateness */
};

/** Poll gaps longer than this (ns) count as the lcore being away. */
#define WR_REPLAY_AWAY_NS 1000

/**
 * Hugepage bytes lane @p j of @p k of @p r needs with a pool of
 * @p n_mbufs: the frames' bytes (line-aligned, page padding), its table
 * and its mbufs.
 */
uint64_t wr_replay_lane_mem(const struct wr_replay_spec *r, uint32_t k,
			    uint32_t j, unsigned int n_mbufs);

/**
 * Build lane @p j of @p k of @p r on @p socket: the frames' block and
 * table, a pool of @p n_mbufs bare mbufs, the deadlines for `timing:
 * capture`.  Main lcore.
 * @return 0; -ENOMEM with @p err saying how much was asked.
 */
int wr_replay_lane_init(struct wr_replay_lane *rl,
			const struct wr_replay_spec *r, uint32_t k, uint32_t j,
			unsigned int n_mbufs, int socket, struct wr_error *err);

/** Free what wr_replay_lane_init() built.  NULL-safe. */
void wr_replay_lane_fini(struct wr_replay_lane *rl);

/** An activation starts at TSC @p now: frame 0, pass 0. */
void wr_replay_lane_start(struct wr_replay_lane *rl, uint64_t now);

/** A timed lane was not polled from rl->poll_tsc to @p now (out of line). */
void wr_replay_lane_away(struct wr_replay_lane *rl, uint64_t now);

/**
 * The next @p want frames (timed: of those due at @p now) in mbufs of the
 * lane's pool, into @p pkts.
 * @return how many; 0 when none is due; -1 when the pool is empty (every
 *         mbuf in the NIC's ring: try again later).
 */
static inline int
wr_replay_lane_take(struct wr_replay_lane *rl, struct rte_mbuf **pkts,
		    uint16_t want, uint64_t now)
{
	const struct wr_replay_frame *frames = rl->frames;
	uint32_t pos = rl->sched.pos, m = rl->m;
	uint16_t i, n = want;

	if (rl->timed) {
		if (unlikely(now - rl->poll_tsc > rl->away_thr))
			wr_replay_lane_away(rl, now);
		rl->poll_tsc = now;
		if (rl->sched.base + rl->sched.dl[rl->sched.pos] > now)
			return 0;
	}
	if (unlikely(rte_mempool_get_bulk(rl->mp, (void **)pkts, want) != 0))
		return -1;
	if (rl->timed) {
		uint64_t shift;

		n = (uint16_t)wr_replay_sched_take(&rl->sched, now, want,
						   rl->due);
		if (n < want)
			rte_mempool_put_bulk(rl->mp, (void **)pkts + n,
					     want - n);
		/* Gaps are judged against the capture's: deadlines before
		 * the schedule moved for stalls.  The move happens only
		 * in take, so the shift at departure is the one at take. */
		shift = rl->sched.stall_ticks;
		for (i = 0; i < n; i++)
			rl->due[i] -= shift;
		rl->n_due = n;
	}
	for (i = 0; i < n; i++) {
		const struct wr_replay_frame *f = &frames[pos];
		struct rte_mbuf *mb = pkts[i];

		mb->buf_addr = f->addr;
		mb->buf_iova = f->iova;
		mb->buf_len = f->len;
		mb->data_len = f->len;
		mb->pkt_len = f->len;
		if (++pos == m)
			pos = 0;
	}
	if (!rl->timed)
		rl->sched.pos = pos;
	return n;
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
	const struct wr_replay_frame *frames = rl->frames;
	uint32_t a = rl->acct, m = rl->m;
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < sent; i++) {
		bytes += frames[a].wire;
		if (++a == m)
			a = 0;
	}
	rl->acct = a;
	if (rl->timed)
		wr_replay_lane_departed(rl, sent, tsc);
	return bytes;
}

/**
 * Make @p src lane @p j of @p k of @p r (wr_replay_lane_init(), the lane
 * allocated on @p socket): the TX loop's source of a replayed stream.  On
 * error @p src may hold a half-built lane: its fini() frees it.  Main lcore.
 * @return 0; -ENOMEM with @p err filled.
 */
int wr_replay_tx_src_init(struct wr_tx_src *src, const struct wr_replay_spec *r,
			  uint32_t k, uint32_t j, unsigned int n_mbufs,
			  int socket, struct wr_error *err);

#endif /* WR_REPLAY_TX_H */
