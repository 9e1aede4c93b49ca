/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_throughput: the RFC 2544 throughput search, with NDR and PDR in one search, without the traffic. */
#ifndef WR_THROUGHPUT_H
#define WR_THROUGHPUT_H

/**
 * @file
 * RFC 2544 section 26.1: throughput is the fastest rate at which the DUT
 * forwards every frame offered (RFC 1242's throughput, CSIT's NDR: the
 * Non-Drop Rate).  A second target, the Partial Drop Rate (PDR), is the
 * fastest rate losing at most a tolerated share (e.g. 0.5 %).  This module
 * only decides rates and trial lengths; the app runs each trial (send at
 * the rate for the length, wait for the stragglers, count) and reports the
 * counts back.  One trial informs both targets: a trial passes a target
 * when lost * 10^6 <= loss_ppm * sent, on integers.
 *
 * The search, on rates in millipps, in the spirit of CSIT's MLRsearch
 * (phases of shorter, coarser trials first, then full-length ones):
 *   - phase p of P lasts trial_ns * (first_trial_ns / trial_ns)^((P-1-p)/(P-1))
 *     a trial (the last phase trial_ns, the first first_trial_ns) and
 *     narrows each target's interval to resolution * 2^(P-1-p);
 *   - each target keeps lo (highest rate passing, or the minimum assumed)
 *     and hi (lowest rate failing, or the maximum untested).  In a phase,
 *     for NDR then PDR: a bound measured in an earlier phase (shorter
 *     trials) is measured again first; a lo that now fails becomes hi
 *     and a new lo below it is tried (the interval's width doubled), a
 *     hi that now passes becomes lo and a new hi is tried above it; then
 *     the interval is halved (lo + (hi - lo) / 2, rounded down) until it
 *     is no wider than the phase's width; if nothing passed and the
 *     minimum is above 0, the minimum itself is tried;
 *   - the first trial runs at the maximum: the line rate of the frame
 *     size (wr_rate_line_millipps()) or the user's lower ceiling.
 * With one phase and one target this is RFC 2544's binary search exactly:
 * about 1 + ceil(log2(max / resolution)) trials, every one full length.
 * The answers are the highest rates that passed full-length trials, within
 * one resolution of the true rates, assuming (as a binary search does) that
 * a DUT passing at some rate passes at every lower one.
 *
 * Received > sent (duplicates, or stragglers of an earlier trial) is not a
 * loss of 0: the trial is logged with its excess and must be run again.
 *
 * A figure wirerate reports is one it measured.  Each trial reports the
 * rate the generator actually offered (frames sent over the time they
 * took).  When it falls short of the trial's rate by more than its short
 * width (wr_rfc2544_short_width(): the resolution, but never more than
 * WR_RFC2544_OFFER_PPM of the rate, so that a coarse resolution cannot
 * count 1.8 Mpps offered as a trial at 3 Mpps), the trial did not test the
 * device at that rate; for each target:
 *   - passed: the device took everything the generator could offer;
 *     nothing above is known, so that target ends with gen_limited set and
 *     gen_millipps the highest rate offered: "at least gen_millipps, the
 *     generator could not offer more", and no rate (its millipps is 0);
 *   - failed: the device lost frames at the offered rate, a real failure,
 *     so hi comes down to the offered rate and the search goes on.
 * A trial short by less than that still steers the search as a trial at
 * its rate, but the rate a target reports is the lower of the rate that
 * passed and what that trial offered: never above what was offered.
 *
 * Threads: one struct wr_rfc2544 per search, used by one thread.
 */

#include <stdbool.h>
#include <stdint.h>

/** Trials a search may log: per phase and target two re-measurements and
 * log2(WR_RATE_MAX_MILLIPPS) halvings, with room for expansions. */
#define WR_RFC2544_TRIALS_MAX 128
/** Default resolution: 0.1 % of the line rate (a common tester default). */
#define WR_RFC2544_RESOLUTION_PPM 1000
/** A trial offering less than its rate by more than this share (0.1 %,
 * the accuracy wirerate's pacer holds on an idle CPU: WR_BENCH_SKIP_PPM)
 * did not test that rate, whatever the resolution. */
#define WR_RFC2544_OFFER_PPM 1000
/** Targets of one search: NDR, then PDR. */
#define WR_RFC2544_NDR 0
#define WR_RFC2544_PDR 1
#define WR_RFC2544_TARGETS 2
/** Phases a search may have. */
#define WR_RFC2544_PHASES_MAX 8

struct wr_rfc2544_cfg {
	uint16_t frame_size;          /**< incl. FCS, WR_FRAME_MIN..WR_FRAME_MAX */
	uint32_t link_mbps;           /**< 0 if unknown: then max_millipps is needed */
	uint64_t max_millipps;        /**< first trial; 0 = line rate */
	uint64_t min_millipps;        /**< lowest rate worth a trial; 0 = none */
	uint64_t resolution_millipps; /**< stop width; 0 = resolution_ppm */
	uint32_t resolution_ppm;      /**< of the line rate (of max if the link is
				       *   unknown); 0 = WR_RFC2544_RESOLUTION_PPM */
	uint32_t loss_ppm;            /**< NDR: tolerated loss in millionths of
				       *   sent; 0 = none (RFC 2544) */
	uint32_t pdr_loss_ppm;        /**< PDR's tolerance, above loss_ppm;
				       *   0 = no PDR target */
	uint32_t phases;              /**< 0 or 1: every trial trial_ns */
	uint64_t trial_ns;            /**< the final phase's trials; 0 = unset
				       *   (the app's own length, one phase) */
	uint64_t first_trial_ns;      /**< the first phase's trials, <= trial_ns */
	uint32_t max_trials;          /**< 0 = WR_RFC2544_TRIALS_MAX */
};

/** One trial, as logged. */
struct wr_rfc2544_trial {
	uint64_t rate_millipps;
	uint64_t trial_ns;         /**< the length asked (0 when cfg.trial_ns is 0) */
	uint32_t phase;
	uint64_t offered_millipps; /**< what the generator achieved */
	bool short_offer;  /**< offered below rate by more than the resolution */
	uint64_t sent;
	uint64_t received;
	uint64_t lost;     /**< sent - received; 0 when received > sent */
	uint64_t excess;   /**< received - sent; 0 unless the DUT made frames up */
	double loss_ratio; /**< lost / sent, for display only */
	bool pass;         /**< NDR's verdict, on the integers, never on loss_ratio */
	bool pdr_pass;     /**< PDR's verdict (false without a PDR target) */
	uint64_t rx_missed; /**< frames the RX port dropped that wirerate did
			     *   not take in time (the generator's) */
};

/* A target's interval (internal). */
enum wr_rfc2544_lo { WR_LO_ASSUMED, WR_LO_CANDIDATE, WR_LO_PASSED };
struct wr_rfc2544_target {
	uint32_t loss_ppm;
	uint64_t lo, hi;
	uint64_t lo_offered;   /* WR_LO_PASSED: what lo's trial offered */
	enum wr_rfc2544_lo lo_state;
	int32_t lo_phase;      /* WR_LO_PASSED: the phase it passed in */
	int32_t hi_phase;      /* -1: hi untested */
	bool top;              /* passed at the maximum: nothing above */
	bool floor_tested;     /* the minimum failed in this phase */
	bool gen_limited;
	uint64_t gen_millipps;
	bool done;             /* in the current phase */
};

/** A search in progress.  Fields are internal; read them via the result. */
struct wr_rfc2544 {
	struct wr_rfc2544_cfg cfg;   /* with defaults resolved */
	uint64_t line_millipps;      /* 0 if the link is unknown */
	uint64_t resolution;
	struct wr_rfc2544_target t[WR_RFC2544_TARGETS];
	unsigned int n_targets;
	uint32_t phase;
	uint64_t rate;               /* of the trial running, 0 when done */
	bool done;
	bool converged;
	uint32_t n_trials;
	struct wr_rfc2544_trial trials[WR_RFC2544_TRIALS_MAX];
};

/** One target's answer. */
struct wr_rfc2544_rate {
	uint64_t millipps;     /**< 0 when no full-length trial passed, or
			        *   gen_limited; never above what the trial
			        *   that passed offered */
	uint64_t l2_bps;       /**< at millipps, frame bytes incl. FCS */
	uint64_t l1_bps;       /**< plus 20 bytes per frame (IEEE 802.3) */
	bool gen_limited;      /**< the generator, not the device, was the limit */
	uint64_t gen_millipps; /**< gen_limited: lost nothing at this offered rate */
	uint32_t loss_ppm;     /**< its tolerance */
};

struct wr_rfc2544_result {
	uint64_t throughput_millipps; /**< NDR: 0 when no rate passed or gen_limited */
	uint64_t l2_bps;              /**< at the throughput, frame bytes incl. FCS */
	uint64_t l1_bps;              /**< plus 20 bytes per frame (IEEE 802.3) */
	bool gen_limited;             /**< NDR: the generator, not the device, was the limit */
	uint64_t gen_millipps;        /**< gen_limited: the device lost nothing at this offered rate */
	bool has_pdr;
	struct wr_rfc2544_rate ndr;   /**< the same as the fields above */
	struct wr_rfc2544_rate pdr;   /**< valid when has_pdr */
	uint64_t line_millipps;       /**< 0 if the link is unknown */
	uint64_t resolution_millipps;
	uint32_t phases;
	uint32_t n_trials;
	bool done;
	bool converged;  /**< every target narrowed to the resolution in the last
			  *   phase (false: out of trials, or gen_limited) */
	const struct wr_rfc2544_trial *trials; /**< n_trials entries, in order */
};

/**
 * Start a search.
 * @param rate  out: the rate of the first trial (the maximum)
 * @return 0; -EINVAL (frame size out of range, no link and no max, min >
 *         max, a loss tolerance > 10^6, pdr_loss_ppm not above loss_ppm,
 *         phases > 1 without trial_ns or first_trial_ns, first_trial_ns >
 *         trial_ns, max_trials 0 after defaults); -ERANGE (max above the
 *         line rate, max_trials > WR_RFC2544_TRIALS_MAX, phases >
 *         WR_RFC2544_PHASES_MAX).
 */
int wr_rfc2544_start(struct wr_rfc2544 *s, const struct wr_rfc2544_cfg *cfg,
		     uint64_t *rate);

/** The length of the trial to run now (cfg.trial_ns with one phase). */
uint64_t wr_rfc2544_trial_ns(const struct wr_rfc2544 *s);

/**
 * Report the trial at the rate last given.
 * @param sent      frames sent, >= 1
 * @param received  frames the DUT forwarded back
 * @param offered   the rate the generator achieved, millipps
 *                  (wr_rfc2544_offered_millipps())
 * @param rate      out: the next trial's rate, 0 when done
 * @return 0 (run *rate), 1 (done: read wr_rfc2544_result()), -EINVAL (not
 *         running, sent 0), -EBADMSG (received > sent: logged as failed,
 *         run the same *rate again; *rate is 0 if no trial is left).
 */
int wr_rfc2544_report(struct wr_rfc2544 *s, uint64_t sent, uint64_t received,
		      uint64_t offered, uint64_t *rate);

/**
 * wr_rfc2544_report() for a trial in which the RX port dropped
 * @p rx_missed frames because wirerate did not take them in time
 * (imissed + rx_nombuf: the generator's limit).  The device lost between
 * lost - rx_missed and lost frames; for each target, a verdict that holds
 * at both ends is taken as it is; one that depends on the misses (a pass
 * without them, a failure with them) is the generator's limit, as a short
 * offer that passed is: the target ends with gen_limited, and gen_millipps
 * the highest rate that passed before (0: none), never with a loss
 * charged to the device.
 */
int wr_rfc2544_report_rx(struct wr_rfc2544 *s, uint64_t sent,
			 uint64_t received, uint64_t offered,
			 uint64_t rx_missed, uint64_t *rate);

/**
 * The rate a trial offered: @p sent frames in @p duration_ns, in millipps
 * (rounded down; 0 when @p duration_ns is 0).
 */
uint64_t wr_rfc2544_offered_millipps(uint64_t sent, uint64_t duration_ns);

/**
 * True when @p offered falls short of @p rate by more than @p resolution
 * (all millipps): the trial did not test the device at @p rate.
 */
bool wr_rfc2544_short(uint64_t rate, uint64_t offered, uint64_t resolution);

/**
 * The shortfall a search's trial at @p rate may have and still count as
 * offered at it: @p resolution, at most WR_RFC2544_OFFER_PPM of @p rate
 * (at least 1 millipps).
 */
uint64_t wr_rfc2544_short_width(uint64_t rate, uint64_t resolution);

/** @p out's rate @p millipps and its L2 and L1 bit rates at @p frame_size
 * (FCS included; L1 adds 20 bytes a frame), rounded to the nearest bit. */
void wr_rfc2544_rate_set(struct wr_rfc2544_rate *out, uint64_t millipps,
			 uint16_t frame_size);

/** The outcome so far (final once done).  @return 0, -EINVAL on NULL. */
int wr_rfc2544_result(const struct wr_rfc2544 *s, struct wr_rfc2544_result *out);

#endif /* WR_THROUGHPUT_H */
