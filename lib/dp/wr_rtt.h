/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rtt: ping-pong round trips, one frame in flight at a time. */
#ifndef WR_RTT_H
#define WR_RTT_H

/**
 * @file
 * A round trip: build one frame of the template (the stream's fields, the
 * size under test), stamp a signature (wr_sig.h: stream, lane 0, sequence,
 * TX TSC), hand it to the NIC, then busy-poll the RX queue until the frame
 * with that signature comes back or the timeout passes; then the next.  With
 * one frame in flight, no queue builds up anywhere: the time measured is the
 * path's own (the raw-Ethernet vs UDP study's method), not buffering.
 *
 * RTT = TSC read right after the rte_eth_rx_burst() that returned the echo
 * minus the TSC in its signature (read just before rte_eth_tx_burst()), in
 * ns, recorded in a wr_latency histogram.  It includes building nothing:
 * the frame is complete before its TSC is read.
 *
 * Sequence numbers run on across calls (wr_rtt.first_seq), so an echo of an
 * earlier round trip that comes after its timeout, even one of the previous
 * size, is told apart: it counts in `late`, never as the current echo.
 * Anything without our signature counts in `foreign` and is dropped.
 *
 * A frame the NIC does not take is offered again until the timeout, then the
 * round trip counts as lost (it never left; `sent` does not count it).
 *
 * Threads: wr_rtt_lcore() runs on one lcore (rte_eal_remote_launch) that
 * owns the TX and RX queues given; the caller reads the results after the
 * lcore returned (rte_eal_wait_lcore), or polls `done` (acquire) first.
 * The caller sets *stop (relaxed store) to end early: the lcore returns
 * -EINTR; a round trip still waiting for its echo is then counted neither
 * as received nor as lost.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>

#include "wr_frame.h"
#include "wr_latency.h"
#include "wr_pkt.h"

struct wr_rtt {
	/* Set by the caller. */
	uint16_t port_id;
	uint16_t tx_queue;
	uint16_t rx_queue;
	struct rte_mempool *mp;        /**< mbufs for the largest frame */
	const struct wr_frame_tmpl *t; /**< a latency template at one size */
	uint32_t sig_id;               /**< WR_SIG_ID(stream, 0) */
	uint64_t count;                /**< round trips to make */
	uint64_t timeout_tsc;          /**< per round trip */
	uint64_t first_seq;            /**< sequence of the first round trip */
	const uint32_t *stop;
	/* The port going away (wr_engine.h): the lcore copies *epoch into
	 * ack outside any burst and ends (-ENOLINK) once *gone is set. */
	const uint32_t *gone;
	const uint64_t *epoch;
	uint64_t ack;
	/* Results, written by the lcore. */
	uint64_t sent;       /**< frames the NIC accepted */
	uint64_t received;   /**< round trips completed */
	uint64_t lost;       /**< timed out, or never accepted by the NIC */
	uint64_t late;       /**< echoes of an earlier round trip */
	uint64_t foreign;    /**< frames that were not our echoes */
	int rc;              /**< 0, -EINTR (stopped), -ENOBUFS (no mbuf), -ENOLINK (port gone) */
	uint32_t done;       /**< set (release) when the lcore returns */
	struct wr_latency_tsc tsc;
	struct wr_latency_jitter jitter; /**< RFC 3550, over consecutive RTTs */
	struct wr_latency hist;
	struct wr_pkt_hints hints;     /**< the template's raw layer, if any */
} __rte_cache_aligned;

/**
 * Clear the results and the histogram of @p r for a new run; keeps the
 * caller's settings.  @p tsc_hz is wr_tsc_hz() (calibrated, wr_clock_eal.h).
 * @return 0 or -EINVAL (tsc_hz 0, count 0, no pool or template, a template
 *         without a signature).
 */
int wr_rtt_reset(struct wr_rtt *r, uint64_t tsc_hz);

/**
 * Make r->count round trips (rte_eal_remote_launch argument: a struct
 * wr_rtt, after wr_rtt_reset()).  @return r->rc.
 */
int wr_rtt_lcore(void *arg);

/**
 * A pool of mbufs with room for @p max_len bytes of frame, enough for a
 * round trip at a time (a few, for frames the NIC still holds).
 * @return the pool, or NULL with rte_errno set.
 */
struct rte_mempool *wr_rtt_pool_create(const char *name, uint16_t max_len,
				       int socket_id);

/*
 * An rtt sweep on one port of an engine: the port's first TX lcore makes
 * the round trips, from a pool sized for the largest frame, while the
 * caller's thread sleeps and watches the links.
 */
struct wr_engine;
struct wr_error;
struct wr_rtt_ses;

/**
 * Set up a sweep on engine port @p port (an index into the profile's
 * ports) for frames of up to @p max_len bytes (without FCS).
 * @param out set to the session; free it with wr_rtt_ses_close() before
 *        wr_engine_close().
 * @return 0; -EINVAL (no such port), -ENOMEM (the
 *         pool or the state: hugepages), with @p err filled.
 */
int wr_rtt_ses_open(struct wr_rtt_ses **out, struct wr_engine *e,
		    unsigned int port, uint16_t max_len, struct wr_error *err);

/** @return the lcore that makes the round trips. */
unsigned int wr_rtt_ses_lcore(const struct wr_rtt_ses *s);

/** @return the results of the last wr_rtt_ses_measure(). */
const struct wr_rtt *wr_rtt_ses_result(const struct wr_rtt_ses *s);

/** The port's MTU into @p mtu.  @return 0 or rte_eth_dev_get_mtu()'s
 * negative errno (-ENODEV, -ENOTSUP). */
int wr_rtt_ses_mtu(const struct wr_rtt_ses *s, uint16_t *mtu);

/**
 * Make @p count round trips of template @p t (a latency template at one
 * size; signature @p sig_id, sequences from @p first_seq), each waiting at
 * most @p timeout_ns for its echo, until done or *@p stop; meanwhile the
 * caller's @p wait (@p ctx) lets @p poll_ns pass at a time (a sleep; a
 * server's turn), the links checked in between.
 * @return 0 or the lcore's result (-EINTR stopped, -ENOBUFS no mbuf,
 *         -ENOLINK the port went away), results in wr_rtt_ses_result();
 *         -EINVAL (bad settings) or rte_eal_remote_launch()'s negative
 *         errno (-EBUSY) with @p err filled and nothing sent.
 */
int wr_rtt_ses_measure(struct wr_rtt_ses *s, const struct wr_frame_tmpl *t,
		       uint32_t sig_id, uint64_t count, uint64_t timeout_ns,
		       uint64_t first_seq, const uint32_t *stop,
		       void (*wait)(void *ctx, uint64_t ns), void *ctx,
		       uint64_t poll_ns, struct wr_error *err);

/** Close the port (it may hold frames of the pool), free the pool and the
 * session.  NULL-safe. */
void wr_rtt_ses_close(struct wr_rtt_ses *s);

#endif /* WR_RTT_H */
