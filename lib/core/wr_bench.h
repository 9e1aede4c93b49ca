/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench: sweep and RFC 2544 results: option values, rows from counts, table, CSV and JSON. */
#ifndef WR_BENCH_H
#define WR_BENCH_H

/**
 * @file
 * `wirerate sweep` sends one stream at the maximum rate for each frame size
 * and reports, as Ostinato's maximum-rate table does, frame size, Kpps,
 * Mbps at L1 and L2 and the share of the port's line rate.
 * `wirerate rfc2544` runs the RFC 2544 throughput search (wr_rfc2544.h)
 * for each frame size and reports the throughput and every trial.
 * This module holds what those commands compute and print, without EAL, so
 * it is unit-tested: the rows are computed from exact counts (frames, ns),
 * rates as in wr_stats.h (L1 adds 20 bytes a frame, IEEE 802.3).
 *
 * Files are written to a temporary name and renamed into place, so a
 * failure never leaves a truncated file (wr_out_atomic()).
 *
 * Thread: the main lcore; nothing here is shared.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wr_rfc2544.h"

/** Frame sizes one command takes: far more than any test plan lists. */
#define WR_BENCH_SIZES_MAX 64
/** Ostinato's table and RFC 2544 section 9.1's Ethernet sizes (FCS included). */
#define WR_BENCH_SIZES_DEFAULT { 64, 128, 256, 512, 1024, 1280, 1518 }
#define WR_BENCH_N_SIZES_DEFAULT 7

/**
 * Parse a comma-separated list of frame sizes, "64,128,1518": each
 * 64..9018 (FCS included), no duplicates, 1..@p cap entries, order kept.
 * @return 0 or -EINVAL with @p why filled.
 */
int wr_bench_parse_sizes(const char *s, uint16_t *sizes, unsigned int cap,
			 unsigned int *n, char *why, size_t why_len);

/**
 * Parse a percentage, "0.1" or "0.1%", exactly into parts per million
 * (0..1000000; "0" is 0).
 * @return 0 or -EINVAL with @p why filled.
 */
int wr_bench_parse_ppm(const char *s, uint32_t *ppm, char *why,
		       size_t why_len);

/** One frame size of a sweep. */
struct wr_sweep_row {
	uint16_t size;          /**< frame size incl. FCS */
	uint64_t tx_pkts;
	uint64_t duration_ns;
	double kpps;
	double mbps_l2;         /**< size * 8 bits a frame */
	double mbps_l1;         /**< (size + 20) * 8 bits a frame */
	double line_pct;        /**< Mbps L1 / link; valid when link_mbps > 0 */
	uint32_t link_mbps;     /**< 0: unknown */
	uint64_t pacer_skipped;
	uint64_t tx_full;
	bool cut_short;         /**< a signal or a lost link ended it early */
};

/** Fill a row from what was sent in how long. */
void wr_sweep_row_calc(struct wr_sweep_row *r, uint16_t size, uint64_t tx_pkts,
		       uint64_t duration_ns, uint32_t link_mbps);

/** Metadata printed with the results. */
struct wr_bench_meta {
	const char *wirerate_version;
	const char *dpdk_version;
	const char *stream_file;
	char stream_sha256[65];
	const char *stream;       /**< the stream's name */
	const char *config_file;
	char started_at[40];
	const char *tx_device;
	const char *tx_driver;
	uint32_t link_mbps;       /**< the TX port's, 0 unknown */
	const char *rx_device;    /**< rfc2544 */
	uint64_t duration_ns;     /**< sweep: per size; rfc2544: per trial */
	uint64_t drain_ns;        /**< rfc2544 */
	uint32_t loss_ppm;        /**< rfc2544 */
	uint64_t max_millipps;    /**< rfc2544: the ceiling, 0 = line rate */
	const char *stop_reason;  /**< "done" or "signal" */
};

/** Ostinato's table: size, Kpps, Mbps L1, Mbps L2, % of line ("n/a"). */
void wr_sweep_print(FILE *out, const struct wr_sweep_row *rows, unsigned int n);
/** CSV with a header line; line_pct is empty when the link is unknown. */
int wr_sweep_csv_write(FILE *out, const struct wr_sweep_row *rows,
		       unsigned int n);
/** JSON ("wirerate-sweep/1"); line_pct is null when the link is unknown. */
int wr_sweep_json_write(FILE *out, const struct wr_bench_meta *m,
			const struct wr_sweep_row *rows, unsigned int n);

/** One trial of an RFC 2544 search as the command saw it. */
struct wr_bench_trial {
	uint64_t rate_millipps;   /**< asked */
	uint64_t sent;
	uint64_t received;        /**< distinct frames back (sequence numbers) */
	uint64_t duration_ns;     /**< first frame to last */
	uint64_t pacer_skipped;   /**< frames the generator could not send in time */
	uint64_t rx_frames;       /**< every frame the RX port's poll saw */
	uint64_t rx_nic_pkts;     /**< the RX port's own ipackets over the trial */
	uint64_t rx_nic_missed;   /**< the RX port's own imissed over the trial */
	bool valid;               /**< the rate was offered (wr_bench_trial_valid()) */
	bool counted;             /**< reported to the search (else run again) */
	bool pass;
};

/**
 * True when a trial offered its rate: the pacer gave up at most
 * WR_BENCH_SKIP_PPM of the frames its schedule made due (the TX lcore
 * stalled, e.g. another thread ran on its CPU).  A trial that did not
 * offer its rate says nothing about the device at that rate.
 */
bool wr_bench_trial_valid(uint64_t sent, uint64_t pacer_skipped);
/** 0.1 %: the accuracy wirerate's pacer holds on an idle CPU. */
#define WR_BENCH_SKIP_PPM 1000

/** One frame size of an RFC 2544 throughput test. */
struct wr_rfc2544_row {
	uint16_t size;
	struct wr_rfc2544_result res;   /**< res.trials is not used here */
	struct wr_bench_trial trials[WR_RFC2544_TRIALS_MAX * 2];
	unsigned int n_trials;
	uint32_t link_mbps;
};

/** Results table then the trial log of every size. */
void wr_rfc2544_print(FILE *out, const struct wr_rfc2544_row *rows,
		      unsigned int n);
/** CSV, one line per size: frame_size, throughput_pps, mbps_l1, mbps_l2, line_pct, trials, converged. */
int wr_rfc2544_csv_write(FILE *out, const struct wr_rfc2544_row *rows,
			 unsigned int n);
/** JSON ("wirerate-rfc2544/1"). */
int wr_rfc2544_json_write(FILE *out, const struct wr_bench_meta *m,
			  const struct wr_rfc2544_row *rows, unsigned int n);


#endif /* WR_BENCH_H */
