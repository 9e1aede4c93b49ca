/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_capture_port: captures of what a port receives and sends, in pcapng, never slowing the receive path. */
#ifndef WR_CAPTURE_PORT_H
#define WR_CAPTURE_PORT_H

/**
 * @file
 * A capture (`--capture PORT[:rx|tx|both]=FILE`, the server's
 * capture.start) copies the frames of one port that pass its filter into
 * a pcapng file, or a ring of files:
 *
 *   RX lcores      wr_cap_rx(): per received burst, before it is
 *                  accounted: the filter (JIT eBPF, wr_bpf.h), then no
 *                  copy: each matching frame gets one more reference (a
 *                  plain store while the lcore is its only owner) and goes
 *                  with its TSC (or the NIC's stamp mapped onto it) and
 *                  queue into the capture's hold ring, one multi-producer
 *                  enqueue a burst.  At most rx_hold_max frames of a port
 *                  are held at once (the port's RX pool has that many
 *                  mbufs besides what its queues need: holding never
 *                  starves them); beyond that, or with the ring full, the
 *                  frame is "capture dropped", counted, never waited for.
 *                  The original is accounted as always, so RX counters
 *                  stay exact.  A held frame the ARP/ND responder would
 *                  answer in place is answered from a copy (wr_rx.c).
 *   TX lcores      an ethdev TX callback on each of the port's TX queues
 *                  (the TX loop itself is untouched): each frame offered
 *                  is copied once (a frame the NIC refused and wirerate
 *                  offers again carries a mark, an mbuf dynamic field, and
 *                  is not copied twice) and held by one extra reference
 *                  until the PMD frees it: only then was it sent, and its
 *                  copy goes to the ring.  A frame never sent (still
 *                  pending when the capture closes) is left out.
 *   writer thread  one per capture, a control thread: copies the held
 *                  frames into blocks (rte_pcapng_copy() into the
 *                  capture's own mempool, snap length applied) and lets
 *                  them go (an empty pool: capture dropped), dequeues the
 *                  TX copies, turns TSC
 *                  times into nanoseconds since the epoch with the
 *                  calibrated TSC frequency, adds the stream's name as a
 *                  comment to frames carrying a signature, writes with
 *                  rte_pcapng_write_packets(), and applies the limits
 *                  (frames, bytes, seconds: stop, or the next file of the
 *                  ring).  Each file starts with wirerate's own section and
 *                  interface blocks (wr_capture.h) and ends with an
 *                  Interface Statistics Block whose ifdrop and comment say
 *                  how many frames the capture dropped.
 *
 * Files appear under their names only when complete (wr_out_tmp): a write
 * error removes the file being written and ends the capture with the
 * error in its status.
 *
 * Threads: open, attach, detach, close and status on the main lcore (or
 * the server's thread); wr_cap_rx() on the RX lcores, the TX callbacks on
 * the TX lcores.  Between wr_cap_detach() and wr_cap_close() the caller
 * waits until every lcore passed a quiescent point (wr_engine_ports.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "wr_clock.h"
#include "wr_error.h"
#include "wr_filter.h"
#include "wr_capture.h"
#include "wr_pkt.h"

struct wr_cap;

struct wr_cap_cfg {
	uint16_t port_id;           /**< the DPDK port */
	unsigned int port_index;    /**< its index in the run (interface text) */
	enum wr_cap_dir dir;
	const char *file;
	const struct wr_filter *filter; /**< NULL: every frame */
	struct wr_cap_limits lim;
	uint16_t n_txq;             /**< TX queues to watch (dir has TX) */
	const char *const *stream_names; /**< comments; copied */
	unsigned int n_streams;
	struct wr_pkt_hints hints;  /**< where the signature is after a raw
				     *   layer (the receive path's) */
	uint64_t tsc_hz;            /**< the calibrated TSC frequency */
	/** A wall-clock time (ns since the epoch) and the TSC read at that
	 * instant: timestamps are wall0_ns + (tsc - tsc0) / tsc_hz, the same
	 * for every capture given the same pair.  0: read at open. */
	uint64_t wall0_ns, tsc0;
	/** Received frames held for captures (not yet copied by their
	 * writers): the port's count, shared by its captures, and how many
	 * its RX pool spares for them (WR_PORT_RX_HOLD). */
	uint32_t *rx_held;
	uint32_t rx_hold_max;
	uint32_t frame_max;         /**< the port's largest frame: the copies'
				     *   size without a snap length */
	int socket_id;
};

/** What a capture did so far (wr_cap_status()). */
struct wr_cap_status {
	char file[WR_CAP_PATH_MAX]; /**< the file being (or last) written */
	uint32_t files;             /**< files completed */
	uint64_t seen;              /**< frames that passed the filter */
	uint64_t written;           /**< frames in the files */
	uint64_t bytes;             /**< bytes in the files, blocks included */
	uint64_t dropped;           /**< frames the capture could not keep */
	uint64_t over_limit;        /**< frames after the limit was reached */
	bool running;               /**< not closed */
	bool full;                  /**< a limit ended it (no ring) */
	int error;                  /**< 0 or the negative errno that ended it */
};

/**
 * Open the first file and start the writer; nothing is captured before
 * wr_cap_attach_tx() and wr_engine's attaching of its RX queues.
 * @return 0; -EINVAL (a filter DPDK refuses, bad limits); -ENOMEM; the
 *         file's negative errno; @p err filled.
 */
int wr_cap_open(struct wr_cap **out, const struct wr_cap_cfg *cfg,
		struct wr_error *err);

/** Most frames one wr_cap_rx() call takes (the RX path's burst, wr_rx.h,
 * is checked against it there). */
#define WR_CAP_RX_BURST_MAX 32

/**
 * Copy the frames of a received burst that pass the filter (RX lcore).
 * @param n     frames in @p pkts, at most WR_CAP_RX_BURST_MAX
 * @param tsc   the burst's receive time
 * @param hw    the NIC clock's map onto the TSC for stamped frames, or NULL
 */
void wr_cap_rx(struct wr_cap *c, uint16_t queue, struct rte_mbuf **pkts,
	       uint16_t n, uint64_t tsc, const struct wr_clock_map *hw,
	       int hwts_off, uint64_t hwts_flag);

/** @return whether the capture takes received frames. */
bool wr_cap_wants_rx(const struct wr_cap *c);

/**
 * Install the TX callbacks (when the capture takes sent frames).
 * @return 0; -ENOTSUP (the port frees sent mbufs without reference counts,
 *         MBUF_FAST_FREE, or ethdev callbacks are compiled out); @p err.
 */
int wr_cap_attach_tx(struct wr_cap *c, uint64_t port_tx_offloads,
		     struct wr_error *err);

/** Remove the TX callbacks; the lcores may still be inside one until the
 * caller's quiescent wait. */
void wr_cap_detach_tx(struct wr_cap *c);

/** Counters so far (any time). */
void wr_cap_status(const struct wr_cap *c, struct wr_cap_status *st);

/**
 * After detaching (and the quiescent wait): confirm or drop the frames
 * still held, let the writer empty the ring, close the file, stop the
 * writer, free everything.  @p st (may be NULL) gets the final status.
 * @return 0 or the error that ended the capture.
 */
int wr_cap_close(struct wr_cap *c, struct wr_cap_status *st);

#endif /* WR_CAPTURE_PORT_H */
