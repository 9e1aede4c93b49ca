/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tx_src: where a TX stream's mbufs come from (a template's pool, a replayed capture's lane): one ops table per source. */
#ifndef WR_TX_SRC_H
#define WR_TX_SRC_H

/**
 * @file
 * The TX loop (wr_tx.c) paces, limits, stamps and offers bursts; what it
 * offers comes from the stream's source, chosen once when the stream's
 * context is set up and called through this table: one indirect call to
 * take a burst, one to count what the NIC took, none per frame (as DPDK's
 * struct rte_mempool_ops, testpmd's struct fwd_engine).  A new kind of
 * stream plugs in as one const struct wr_tx_src_ops in its own file and
 * an init function that sets struct wr_tx_src.
 *
 * The sources:
 * - a template's prefilled pool (wr_tx.c): every mbuf holds the stream's
 *   template; per burst the frame source writes what varies
 *   (wr_frame_src.h: the layer stack, TRex's field engine).  Three tables,
 *   so the choice is made once: static (nothing written), one size
 *   (lengths kept), several sizes (lengths set per frame);
 * - a replayed capture's lane (wr_replay_tx.c): bare mbufs pointed at
 *   frames loaded once.
 *
 * Threads: take(), sent() and start() on the stream's lcore only; fini()
 * on the main lcore after the lcore stopped.
 */

#include <stdbool.h>
#include <stdint.h>

struct rte_mbuf;

struct wr_tx_src_ops {
	const char *name;
	/**
	 * Up to @p want frames ready to send into @p pkts, those due at TSC
	 * @p now (which is 0 unless the stream is clocked).
	 * @return how many (>= 1), 0 when none is due, -1 when no mbuf is
	 *         free (every one in the NIC's ring: try again later).
	 */
	int (*take)(void *priv, struct rte_mbuf **pkts, uint16_t want,
		    uint64_t now);
	/** The NIC took the first @p n of @p pkts.  @return their L2 bytes,
	 * FCS included (and a short frame's padding where the source knows
	 * it). */
	uint64_t (*sent)(void *priv, struct rte_mbuf **pkts, uint16_t n);
	/** An activation starts at TSC @p now: the first frame again. */
	void (*start)(void *priv, uint64_t now);
	/** Free what the source's init made, and @p pending frames taken and
	 * never sent.  NULL-safe on @p priv. */
	void (*fini)(void *priv, struct rte_mbuf **pending, uint16_t n);
};

/** A stream's source: its table and its state. */
struct wr_tx_src {
	const struct wr_tx_src_ops *ops;
	void *priv;
	/** The source needs the TSC every turn (a replay timed as captured). */
	bool clocked;
};

#endif /* WR_TX_SRC_H */
