/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_repeat: a run repeated N times: each repetition's counts, the spread of its rates, the peer's counts beside ours. */
#ifndef WR_REPEAT_H
#define WR_REPEAT_H

/**
 * @file
 * `wirerate run --repeat N` sends the same streams N times on ports that
 * stay up (seed 002: repeat a timed transfer and look at the spread).
 * After each repetition the command hands its final report view (fresh
 * counters: the streams were loaded again) to wr_rep_add(), with what each
 * peer (wr_peer.h) counted over it.  This module keeps one row per port and
 * per stream per repetition and computes, without EAL:
 *
 *   - rates as every report does (wr_stats.h): Kpps, Mbps L2, Mbps L1;
 *   - goodput: the bytes above the UDP or TCP header per second
 *     (wr_goodput_bytes() with the stream's wr_frame_tmpl_payload_off();
 *     exact for IMIX and size ranges); none for a stream without UDP/TCP
 *     or replayed from a capture, nor for a port carrying one;
 *   - min / median / max over the repetitions (wr_spread_of()) of those
 *     rates and of the time each repetition took, over the repetitions
 *     whose rate was measured (wr_report_rate_measured());
 *   - returned and lost frames (streams with a signature; ports that poll
 *     RX count every frame received), the NICs' own counters as
 *     differences, and the peers' differences, per repetition and summed.
 *
 * Thread: the main lcore only; nothing here is shared.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wr_config.h"
#include "wr_peer.h"
#include "wr_report.h"
#include "wr_stats.h"

/** Repetitions one run may have (--repeat). */
#define WR_REPEAT_MAX 1000

/** One port or stream over one repetition. */
struct wr_rep_row {
	uint64_t tx_pkts;
	uint64_t tx_bytes;          /**< FCS included */
	uint64_t duration_ns;       /**< first frame to last */
	bool measured;              /**< wr_report_rate_measured() */
	bool has_goodput;
	uint64_t goodput_bytes;
	bool has_rx;
	uint64_t rx_pkts;           /**< streams: distinct frames back; ports:
				     *   every frame received */
	uint64_t lost;              /**< streams: sent - distinct back */
	bool has_nic;               /**< ports: the NIC's counts over the
				     *   repetition */
	uint64_t nic_opackets, nic_ipackets, nic_imissed;
};

/** What a row is: a port or a stream. */
struct wr_rep_name {
	bool port;                  /**< else a stream */
	uint16_t index;             /**< the port's, or the stream's port */
	char name[WR_REPORT_NAME_MAX];
};

/** The repetitions of one run. */
struct wr_rep_set {
	uint32_t n_ports, n_streams;    /**< rows: ports first, then streams */
	struct wr_rep_name *names;      /**< n_ports + n_streams */
	uint32_t n_peers;
	char peer[WR_PEERS_MAX][WR_PEER_SPEC_MAX];
	uint32_t cap, n;                /**< repetitions asked, recorded */
	struct wr_rep_row *rows;        /**< cap * (n_ports + n_streams) */
	struct wr_peer_counts *peers;   /**< cap * n_peers */
	uint64_t *elapsed_ns;           /**< per repetition: the view's */
	const char **reason;            /**< per repetition: why it ended */
	/* each port's NIC counters at the end of the previous repetition
	 * (they run since the ports started) */
	uint64_t nic_base[WR_PORTS_MAX][3];
};

/**
 * Set up for @p cap repetitions of the ports and streams of @p v, beside
 * @p n_peers peers named @p peer_names (their specs).
 * @return 0, -EINVAL (cap 0 or above WR_REPEAT_MAX, more than WR_PEERS_MAX
 *         peers, more than WR_PORTS_MAX ports), -ENOMEM.
 */
int wr_rep_init(struct wr_rep_set *s, const struct wr_report_view *v,
		uint32_t cap, const char *const *peer_names, uint32_t n_peers);

/** Free what wr_rep_init() allocated (safe twice). */
void wr_rep_free(struct wr_rep_set *s);

/**
 * Record one repetition from its final view @p v (same ports and streams
 * as at init).
 * @param payload_off  per stream: wr_frame_tmpl_payload_off(), negative
 *                     when the stream has no goodput (no UDP/TCP, replay)
 * @param peer         n_peers differences (after - before), or NULL when
 *                     there are no peers
 * @param reason       why it ended ("count", "duration", "signal", ...),
 *                     kept by pointer
 * @return 0, -ENOSPC (cap reached), -EINVAL (a view of other rows).
 */
int wr_rep_add(struct wr_rep_set *s, const struct wr_report_view *v,
	       const int32_t *payload_off, const struct wr_peer_counts *peer,
	       const char *reason);

/** The spread of one row over the recorded repetitions. */
struct wr_rep_stat {
	uint32_t n_measured;        /**< repetitions with a measured rate;
				     *   0: the spreads mean nothing */
	struct wr_spread kpps, mbps_l2, mbps_l1, goodput_mbps, duration_ms;
	bool has_goodput;
	bool has_rx;
	uint64_t tx_pkts, tx_bytes, rx_pkts, lost;  /**< sums */
};

/**
 * Spread of row @p row (ports first, then streams) of @p s.
 * @return 0, -EINVAL (no repetition, no such row), -ENOMEM.
 */
int wr_rep_stat_calc(const struct wr_rep_set *s, uint32_t row,
		     struct wr_rep_stat *st);

/** The spread of one peer's counts over the recorded repetitions. */
struct wr_rep_peer_stat {
	struct wr_spread rx_pkts, rx_bytes, tx_pkts, tx_bytes;
	struct wr_peer_counts total;
};

/** @return 0, -EINVAL (no repetition, no such peer), -ENOMEM. */
int wr_rep_peer_stat_calc(const struct wr_rep_set *s, uint32_t peer,
			  struct wr_rep_peer_stat *st);

/** Repetition @p k's lines: its time, a line per port, stream and peer. */
void wr_rep_print(FILE *out, const struct wr_rep_set *s, uint32_t k);

/** The summary: min / median / max per port and stream, sums, peers. */
void wr_rep_summary_print(FILE *out, const struct wr_rep_set *s);

/**
 * The results JSON's `"repeats": [...]` and `"summary": {...}` members,
 * each introduced by ",\n  ".  @return 0, -EIO when writing failed.
 */
int wr_rep_json_write(FILE *out, const struct wr_rep_set *s);

/**
 * The same for wr_report_meta's json_more (@p set: a struct wr_rep_set,
 * or NULL for none), so the report calls the repetitions through the
 * meta and wr_report does not depend on wr_repeat (the arrow is one way).
 */
int wr_rep_json_more(FILE *out, const void *set);

#endif /* WR_REPEAT_H */
