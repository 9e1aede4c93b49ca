/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_result: sweep and RFC 2544 results: option values, rows from counts, table, CSV and JSON. */
#ifndef WR_BENCH_RESULT_H
#define WR_BENCH_RESULT_H

/**
 * @file
 * `wirerate sweep` sends one stream at the maximum rate for each frame size
 * and reports, as Ostinato's maximum-rate table does, frame size, Kpps,
 * Mbps at L1 and L2 and the share of the port's line rate.
 * `wirerate rfc2544` runs the RFC 2544 throughput search (wr_throughput.h)
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

#include "wr_b2b.h"
#include "wr_clock.h"
#include "wr_floss.h"
#include "wr_latency.h"
#include "wr_mlr.h"
#include "wr_throughput.h"
#include "wr_stats.h"
#include "wr_txlimit.h"

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
	uint32_t link_mbps;     /**< the line rate, 0: none (unknown, or a
				 *   placeholder: wr_txlimit_line_mbps()) */
	uint64_t pacer_skipped;
	uint64_t tx_full;
	uint64_t alloc_fail;
	struct wr_thread_usage usage; /**< the TX lcores' (wall_ns 0: unknown) */
	const char *limited_by; /**< "line" (within WR_RFC2544_RESOLUTION_PPM
				 *   of the line, either side), "port" (it did
				 *   not take frames faster:
				 *   wr_txlimit_port()) or "generator"
				 *   (the TX lcore sent as fast as it could) */
	char limit_why[160];    /**< the figures behind limited_by */
	bool cut_short;         /**< a signal ended it early */
};

/**
 * Fill a row from what was sent in how long, on a port of line rate
 * @p line_mbps (0: none) with @p tx's counters (NULL: none known).  A
 * figure above the line by more than the resolution is never "line": the
 * port's speed is then not the wire's.
 */
void wr_sweep_row_calc(struct wr_sweep_row *r, uint16_t size, uint64_t tx_pkts,
		       uint64_t duration_ns, uint32_t line_mbps,
		       const struct wr_txlimit_tx *tx);

struct wr_bench_meta;

/** Repeats of one size a sweep may run (--repeat). */
#define WR_SWEEP_REPEATS_MAX 1000

/**
 * One frame size of a sweep, over its repeats (seed 002: a timed transfer
 * repeated to see its spread) and, through a reflector (--rx-port, seed
 * 004), what came back.
 */
struct wr_sweep_stat {
	uint16_t size;
	uint32_t n;                 /**< repeats */
	int32_t payload_off;        /**< bytes before the payload (above the
				     *   innermost UDP/TCP header); goodput is
				     *   wr_goodput_bytes() of it; -1: no
				     *   UDP/TCP header, no goodput */
	struct wr_spread kpps, mbps_l1, mbps_l2, goodput_mbps;
	bool echo;                  /**< frames came back: */
	struct wr_spread rx_kpps, rx_mbps_l2, rx_goodput_mbps, loss_pct;
	uint64_t tx_pkts, rx_pkts, lost;   /**< summed over the repeats */
	uint64_t rx_nic_pkts;       /**< the RX port's own count, summed */
	uint64_t rx_bytes;          /**< bytes of the frames back, summed */
	uint64_t rx_nic_bytes;      /**< the RX port's own byte count, summed */
	struct wr_spread rx_bytes_ps; /**< bytes back per second (no FCS) */
	const char *limited_by;     /**< as the rows': the worst repeat's */
};

/** Per-repeat echo counts for wr_sweep_stat_calc(). */
struct wr_sweep_echo {
	uint64_t rx_pkts;           /**< distinct frames back */
	uint64_t rx_nic_pkts;
	uint64_t rx_bytes;          /**< bytes of the frames back, as received
				     *   (no FCS): measured, not size x frames */
	uint64_t rx_nic_bytes;      /**< the RX port's own byte count */
};

/**
 * Spread of @p n repeats' rows (and their echoes when @p echo is not NULL),
 * goodput from @p payload_off (wr_frame_tmpl_payload_off(); -1: none).
 * @return 0, -EINVAL (n 0, rows of different sizes, or headers larger
 *         than the frame).
 */
int wr_sweep_stat_calc(struct wr_sweep_stat *st, const struct wr_sweep_row *rows,
		       const struct wr_sweep_echo *echo, uint32_t n,
		       int32_t payload_off);

/**
 * Whether a frame of @p size bytes (FCS included) fits a port: its MTU
 * (the frame less its 14-byte Ethernet header and FCS; 0 = unknown), the
 * longest frame it receives (@p max_rx_pktlen, FCS excluded, 0 = unknown)
 * and its buffers (@p rx_room: memif's buffer size, 0 = unknown; no
 * scatter).  A frame larger than any of them is cut, dropped or (memif's
 * 2048-byte buffers) corrupted by the path: it must not be sent.
 * @return 0, or -EMSGSIZE with @p why naming the limit.
 */
int wr_bench_frame_fits(uint16_t size, uint32_t mtu, uint32_t max_rx_pktlen,
			uint32_t rx_room, char *why, size_t why_len);

/** Table: per size Kpps, Mbps L1/L2 and goodput min/median/max, echoes. */
void wr_sweep_stat_print(FILE *out, const struct wr_sweep_stat *st,
			 unsigned int n);
/** JSON ("wirerate-sweep-repeat/1").  @return 0, or -EIO when writing to @p out failed. */
int wr_sweep_stat_json_write(FILE *out, const struct wr_bench_meta *m,
			     const struct wr_sweep_stat *st, unsigned int n);

/** Metadata printed with the results. */
struct wr_bench_meta {
	const char *wirerate_version;
	const char *dpdk_version;
	const char *stream_file;
	char stream_sha256[65];
	const char *stream;       /**< the stream's name */
	const char *config_file;
	char started_at[40];
	char finished_at[40];
	uint64_t seed;            /**< the stream file's (or --seed) */
	const char *tx_device;
	const char *tx_driver;
	uint32_t link_mbps;       /**< the TX port's, 0 unknown */
	const char *rx_device;    /**< rfc2544 */
	uint64_t duration_ns;     /**< sweep: per size; rfc2544: per trial */
	uint64_t drain_ns;        /**< rfc2544 */
	uint32_t loss_ppm;        /**< rfc2544 */
	uint32_t pdr_ppm;         /**< rfc2544: 0 = no PDR */
	uint32_t phases;          /**< rfc2544 */
	uint64_t first_trial_ns;  /**< rfc2544 */
	uint64_t max_millipps;    /**< rfc2544: the ceiling, 0 = line rate */
	const char *stop_reason;  /**< "done", "signal" or "link-down" */
	bool link_placeholder;    /**< link_mbps is the PMD's placeholder
				   *   (wr_txlimit_placeholder()): no line */
	uint16_t stopped_in;      /**< the size whose trial the stop cut (0:
				   *   none); with link-down it is not reported */
	const uint16_t *not_measured; /**< sizes not reported, in order */
	unsigned int n_not_measured;
	/** The TSC's calibration its times and rates were computed with
	 * (wr_clock.h): the JSON's "tsc", null without has_tsc. */
	struct wr_tsc_cal tsc;
	bool has_tsc;
};

/**
 * The line saying why a benchmark stopped before its end and which sizes
 * it did not measure, e.g. "stopped: a port's link went down during the
 * 128-byte trial (link-down); not measured: 128, 256, 512 bytes".
 * Nothing when it ran to its end.
 */
void wr_bench_stop_print(FILE *out, const struct wr_bench_meta *m);

/**
 * Whether an echo sweep's size measured the generator, not the reflector:
 * every frame came back and the TX lcore, not the line or the port, was
 * the limit (the sweep's exit status 3).
 */
bool wr_sweep_stat_gen_limited(const struct wr_sweep_stat *st);

/** Ostinato's table: size, Kpps, Mbps L1, Mbps L2, % of line ("n/a"), what limited the rate. */
void wr_sweep_print(FILE *out, const struct wr_sweep_row *rows, unsigned int n);
/** CSV with a header line; line_pct is empty when the link is unknown.  @return 0, or -EIO when writing to @p out failed. */
int wr_sweep_csv_write(FILE *out, const struct wr_sweep_row *rows,
		       unsigned int n);
/** JSON ("wirerate-sweep/1"); line_pct is null when the link is unknown.  @return 0, or -EIO when writing to @p out failed. */
int wr_sweep_json_write(FILE *out, const struct wr_bench_meta *m,
			const struct wr_sweep_row *rows, unsigned int n);

/** One trial of an RFC 2544 search as the command saw it. */
struct wr_bench_trial {
	uint64_t rate_millipps;   /**< asked */
	uint64_t trial_ns;        /**< the length asked */
	uint32_t phase;           /**< of the search, from 0 */
	bool pdr_pass;            /**< within the PDR's tolerance */
	uint64_t offered_millipps; /**< achieved: sent over duration_ns */
	bool short_offer;         /**< offered below asked by more than the resolution */
	uint64_t sent;
	uint64_t received;        /**< distinct frames back (sequence numbers) */
	uint64_t duration_ns;     /**< first frame to last */
	uint64_t pacer_skipped;   /**< frames the generator could not send in time */
	uint64_t rx_frames;       /**< every frame the RX port's poll saw */
	uint64_t rx_nic_pkts;     /**< the RX port's own ipackets over the trial */
	uint64_t rx_nic_missed;   /**< the RX port's own imissed over the trial */
	bool bidir;               /**< the reverse direction ran too: */
	uint64_t rev_sent;        /**<   its frames sent (rx port -> tx port) */
	uint64_t rev_received;    /**<   its distinct frames back on the tx port */
	uint64_t rev_offered_millipps;
	bool valid;               /**< the rate was offered (wr_bench_trial_valid()) */
	bool counted;             /**< reported to the search (else run again) */
	bool pass;
	struct wr_txlimit_tx tx;    /**< the forward direction's TX evidence */
};

/**
 * What held a trial below its rate (wr_txlimit_of() of its evidence),
 * or NULL when it offered the rate (valid and not short).  @p why (may be
 * NULL) gets the figures.
 */
const char *wr_bench_trial_short_by(const struct wr_bench_trial *t, char *why,
				    size_t why_len);


/**
 * True when a trial offered its rate: the pacer gave up at most
 * WR_BENCH_SKIP_PPM of the frames its schedule made due (the TX lcore
 * stalled, e.g. another thread ran on its CPU).  A trial that did not
 * offer its rate says nothing about the device at that rate.
 */
bool wr_bench_trial_valid(uint64_t sent, uint64_t pacer_skipped);
/** 0.1 %: the accuracy wirerate's pacer holds on an idle CPU. */
#define WR_BENCH_SKIP_PPM 1000

/** The RFC 2544 tests `wirerate rfc2544 --tests` runs (section 26). */
#define WR_BENCH_TEST_THROUGHPUT 0x1u  /**< 26.1, with NDR/PDR */
#define WR_BENCH_TEST_LOSS       0x2u  /**< 26.3 frame loss rate */
#define WR_BENCH_TEST_B2B        0x4u  /**< 26.4 back-to-back */
#define WR_BENCH_TEST_LATENCY    0x8u  /**< 26.2 latency, at the throughput */

/** RFC 2544 section 26.2: at least 20 trials (of 120 s). */
#define WR_BENCH_LAT_TRIALS_DEFAULT 20
#define WR_BENCH_LAT_TRIALS_MAX 100

/** Latency at one frame size: every frame timed, per trial and overall. */
struct wr_bench_lat {
	uint64_t rate_millipps;     /**< the throughput (NDR) trials ran at */
	bool rate_at_least;         /**< the throughput was generator-limited:
				     *   trials ran at the rate it offered */
	const char *skipped;        /**< why no trial ran, or NULL */
	uint32_t n_trials;
	uint64_t sent[WR_BENCH_LAT_TRIALS_MAX];
	uint64_t lost[WR_BENCH_LAT_TRIALS_MAX];
	uint64_t offered[WR_BENCH_LAT_TRIALS_MAX]; /**< millipps achieved */
	bool short_offer[WR_BENCH_LAT_TRIALS_MAX]; /**< below the rate by more
						    *   than the resolution */
	struct wr_latency_summary trial[WR_BENCH_LAT_TRIALS_MAX];
	struct wr_latency_summary overall; /**< of every frame of every trial;
					    *   jitter: the trials' mean */
	double jitter_max_ns;       /**< the trials' largest */
};

/**
 * Parse "throughput,loss,b2b" (any order, each once, "all" for every
 * one) into WR_BENCH_TEST_* bits.
 * @return 0 or -EINVAL with @p why filled.
 */
int wr_bench_parse_tests(const char *s, uint32_t *tests, char *why,
			 size_t why_len);

/** What `wirerate rfc2544` will run, for the progress line's "about n". */
struct wr_bench_plan {
	uint32_t tests;             /**< WR_BENCH_TEST_* */
	uint32_t n_sizes;
	uint32_t phases;            /**< 0 = 1 */
	bool pdr;
	uint64_t width_ratio;       /**< max rate / resolution, >= 1 */
	uint32_t lat_trials;
	uint32_t loss_step_ppm;     /**< 0 = 10 % */
	uint32_t b2b_repeats;
	uint64_t b2b_ratio;         /**< first burst / resolution, >= 1 */
	/* For the time estimate (wr_bench_time_estimate_ns()): */
	uint64_t trial_ns;          /**< a throughput / loss trial (the last phase's) */
	uint64_t first_trial_ns;    /**< the first phase's (0: trial_ns) */
	uint64_t drain_ns;          /**< after every trial */
	uint64_t lat_trial_ns;
	uint64_t b2b_trial_ns;      /**< the first (longest) burst */
	uint32_t mlr_trials;        /**< MLRsearch's estimate a size (0: binary search) */
};

/**
 * About how many trials the plan runs: a bisection's 1 + ceil(log2(ratio))
 * per target plus two re-measurements per later phase; every frame loss
 * step (its most); each back-to-back repeat's bisection; the latency
 * trials.  An estimate for progress, never a result.
 */
uint32_t wr_bench_trials_estimate(const struct wr_bench_plan *p);

/**
 * About how long the plan runs, the drains included: the throughput
 * search's first phase bisects in first_trial_ns trials, each later phase
 * re-measures its two bounds and halves once in its own length (geometric
 * up to trial_ns, as wr_rfc2544_trial_ns()); MLRsearch's trials at the mean
 * of the first and last lengths; every loss step a trial_ns; latency trials
 * lat_trial_ns; back-to-back bursts at most b2b_trial_ns.  An estimate to
 * plan by (printed before the first trial), never a result.
 */
uint64_t wr_bench_time_estimate_ns(const struct wr_bench_plan *p);

/** @p ns as "1h19m", "3m05s" (as the progress line's ETA). */
void wr_bench_duration_text(char *buf, size_t len, uint64_t ns);

/**
 * The progress line: "throughput 512 B: trial 7 of ~42, ETA 3m05s".
 * @param eta_s  negative: unknown
 */
void wr_bench_progress_text(char *buf, size_t len, const char *test,
			    uint16_t size, uint32_t k, uint32_t n, double eta_s);

/**
 * Whether port @p port exists among @p n_ports (a profile's ports, or
 * those EAL probed; 0: not known yet, every index passes), for an option
 * that names a port.
 * @return 0, or -ENODEV with @p why filled: "expected a port index 0..0
 *         (there is 1 port)".
 */
int wr_bench_port_check(unsigned int port, unsigned int n_ports, char *why,
			size_t why_len);

/**
 * Whether --min-rate @p min is at most --max-rate @p max at every one of
 * @p n sizes, on a link of @p link_mbps (0: not known yet).  Rates of one
 * unit compare as written; others once both convert (a percentage needs
 * the link: until then nothing is refused).
 * @return 0, or -EINVAL with @p why: "expected at most --max-rate (10000
 *         pps at 64 bytes), got 20000 pps".
 */
int wr_bench_rate_order(const struct wr_rate_spec *min,
			const struct wr_rate_spec *max, const uint16_t *sizes,
			unsigned int n, uint32_t link_mbps, char *why,
			size_t why_len);

/** Port pairs one `wirerate rfc2544 --pairs` runs, one after another. */
#define WR_BENCH_PAIRS_MAX 16

/**
 * Parse "0:1,2:3": TX port, colon, RX port (0..31; the same port for a
 * loopback), each pair once, 1..@p cap pairs.
 * @return 0 or -EINVAL with @p why filled.
 */
int wr_bench_parse_pairs(const char *s, uint16_t (*pairs)[2], unsigned int cap,
			 unsigned int *n, char *why, size_t why_len);

/** One frame size of `wirerate rfc2544`: each test's results. */
struct wr_rfc2544_row {
	uint16_t size;
	uint16_t tx_port, rx_port;      /**< the pair it ran on */
	uint32_t link_mbps;
	bool has_throughput;
	struct wr_rfc2544_result res;   /**< res.trials is not used here */
	struct wr_bench_trial trials[WR_RFC2544_TRIALS_MAX * 2];
	unsigned int n_trials;
	/* The throughput found by MLRsearch (--search mlr, wr_mlr.h): its
	 * goals (NDR, then PDR) and each one's result; res above holds their
	 * relevant lower bounds as the NDR and the PDR.  A trial's phase is
	 * then its target's level. */
	bool mlr;
	unsigned int n_goals;
	struct wr_mlr_goal goals[2];
	struct wr_mlr_result mlr_res[2];
	bool has_floss;
	struct wr_floss floss;          /**< frame loss rate steps */
	bool has_b2b;
	struct wr_b2b b2b;              /**< back-to-back repeats */
	uint64_t b2b_rate_millipps;     /**< bursts paced at; 0 = unpaced */
	uint64_t b2b_asked_millipps;    /**< the rate a burst must be offered
					 *   at to count: the paced rate, or
					 *   the line rate (a real one) when
					 *   unpaced; 0: none (as fast as the
					 *   port takes frames) */
	uint64_t b2b_offered_min;       /**< slowest burst offered, millipps */
	uint64_t b2b_bursts;            /**< bursts sent in all */
	uint64_t b2b_gen_offered;       /**< b2b.gen_limited: the burst's rate */
	struct wr_txlimit_tx b2b_gen_tx;  /**<   and what held it */
	bool has_lat;
	struct wr_bench_lat lat;
	/* Both directions at once (--reverse-stream): the reverse direction's
	 * back-to-back search (its bursts sent with the forward ones) and
	 * latency (its frames timed in the same trials). */
	bool bidir;
	struct wr_b2b rev_b2b;
	uint64_t rev_b2b_offered_min;   /**< its slowest burst offered */
	struct wr_bench_lat rev_lat;
	/** The test a signal stopped at this size ("throughput", "latency",
	 * "loss", "b2b"), NULL when every test ran to its end.  A throughput
	 * search stopped has no throughput: the outputs give the highest
	 * rate a trial passed so far as "at least" (limited_by "incomplete"). */
	const char *cut;
};

/**
 * The highest rate a counted trial of a row passed at (NDR's tolerance,
 * or the PDR's with @p pdr) and offered: the lower of the rate and what
 * was offered; 0 when none passed.  What a search stopped part way knows.
 */
uint64_t wr_rfc2544_row_passed_millipps(const struct wr_rfc2544_row *r,
					bool pdr);

/**
 * The generator, not the device, limited this size's result: the row has
 * no throughput, only "at least res.gen_millipps".
 */
bool wr_rfc2544_row_gen_limited(const struct wr_rfc2544_row *r);

/** Results table then the trial log of every size. */
void wr_rfc2544_print(FILE *out, const struct wr_rfc2544_row *rows,
		      unsigned int n);
/** CSV, one line per size: frame_size, throughput_pps, mbps_l1, mbps_l2,
 * line_pct, trials, converged, limited_by ("device" or "generator"),
 * at_least_pps; a generator-limited row leaves the first four rates empty.  @return 0, or -EIO when writing to @p out failed. */
int wr_rfc2544_csv_write(FILE *out, const struct wr_rfc2544_row *rows,
			 unsigned int n);
/** JSON ("wirerate-rfc2544/1").  @return 0, or -EIO when writing to @p out failed. */
int wr_rfc2544_json_write(FILE *out, const struct wr_bench_meta *m,
			  const struct wr_rfc2544_row *rows, unsigned int n);


#endif /* WR_BENCH_RESULT_H */
