/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rfc2544: the RFC 2544 throughput binary search, without the traffic. */
#ifndef WR_RFC2544_H
#define WR_RFC2544_H

/**
 * @file
 * RFC 2544 section 26.1: throughput is the fastest rate at which the DUT
 * forwards every frame offered.  This module only decides rates; the app
 * runs each trial (send a fixed number of frames at the rate, wait for the
 * stragglers, count) and reports the counts back.
 *
 * The search, on rates in millipps:
 *   1. The first trial runs at the maximum: the line rate of the frame size
 *      (wr_rate_line_millipps()) or the user's lower ceiling.
 *   2. lo starts at the user's minimum (0 by default), hi at the maximum.
 *      A passing trial at r sets lo = r, a failing one hi = r.
 *   3. While hi - lo > resolution the next trial runs at lo + (hi - lo) / 2
 *      (rounded down), halving the interval: about
 *      1 + ceil(log2(max / resolution)) trials.
 *   4. Then the throughput is lo if some trial passed.  If none did and the
 *      minimum is above 0 and untested, one last trial runs at the minimum;
 *      if even the lowest rate fails, the throughput is 0.
 * A trial passes when lost * 10^6 <= loss_ppm * sent, computed on integers
 * (loss_ppm 0: every frame must come back, as RFC 2544 says).  The answer
 * is the highest passing rate and is within one resolution of the true
 * throughput, assuming (as the binary search does) that a DUT that passes
 * at some rate passes at every lower one.
 *
 * Received > sent (duplicates, or stragglers of an earlier trial) is not a
 * loss of 0: the trial is logged with its excess and must be run again.
 *
 * A figure wirerate reports is one it measured.  Each trial reports the
 * rate the generator actually offered (frames sent over the time they
 * took).  When it falls short of the trial's rate by more than the
 * resolution, the trial did not test the device at that rate:
 *   - no loss (within the tolerance): the device took everything the
 *     generator could offer; nothing above is known, so the search ends
 *     with gen_limited set and gen_millipps the highest rate offered:
 *     "at least gen_millipps, the generator could not offer more", and no
 *     throughput (throughput_millipps is 0);
 *   - loss: the device lost frames at the offered rate, a real failure, so
 *     hi comes down to the offered rate and the search goes on.
 *
 * Threads: one struct wr_rfc2544 per search, used by one thread.
 */

#include <stdbool.h>
#include <stdint.h>

/** Trials a search may log: log2(WR_RATE_MAX_MILLIPPS) + first + floor trial. */
#define WR_RFC2544_TRIALS_MAX 64
/** Default resolution: 0.1 % of the line rate (a common tester default). */
#define WR_RFC2544_RESOLUTION_PPM 1000

struct wr_rfc2544_cfg {
	uint16_t frame_size;          /**< incl. FCS, WR_FRAME_MIN..WR_FRAME_MAX */
	uint32_t link_mbps;           /**< 0 if unknown: then max_millipps is needed */
	uint64_t max_millipps;        /**< first trial; 0 = line rate */
	uint64_t min_millipps;        /**< lowest rate worth a trial; 0 = none */
	uint64_t resolution_millipps; /**< stop width; 0 = resolution_ppm */
	uint32_t resolution_ppm;      /**< of the line rate (of max if the link is
				       *   unknown); 0 = WR_RFC2544_RESOLUTION_PPM */
	uint32_t loss_ppm;            /**< tolerated loss in millionths of sent; 0 = none */
	uint32_t max_trials;          /**< 0 = WR_RFC2544_TRIALS_MAX */
};

/** One trial, as logged. */
struct wr_rfc2544_trial {
	uint64_t rate_millipps;
	uint64_t offered_millipps; /**< what the generator achieved */
	bool short_offer;  /**< offered below rate by more than the resolution */
	uint64_t sent;
	uint64_t received;
	uint64_t lost;     /**< sent - received; 0 when received > sent */
	uint64_t excess;   /**< received - sent; 0 unless the DUT made frames up */
	double loss_ratio; /**< lost / sent, for display only */
	bool pass;         /**< decided on the integers, never on loss_ratio */
};

/** A search in progress.  Fields are internal; read them via the result. */
struct wr_rfc2544 {
	struct wr_rfc2544_cfg cfg;   /* with defaults resolved */
	uint64_t line_millipps;      /* 0 if the link is unknown */
	uint64_t resolution;
	uint64_t lo, hi;
	uint64_t rate;               /* of the trial running, 0 when done */
	bool lo_pass;                /* lo is a rate that passed */
	bool gen_limited;            /* a lossless trial fell short of its rate */
	uint64_t gen_millipps;       /* the highest rate such a trial offered */
	bool min_tested;
	bool done;
	bool converged;
	uint32_t n_trials;
	struct wr_rfc2544_trial trials[WR_RFC2544_TRIALS_MAX];
};

struct wr_rfc2544_result {
	uint64_t throughput_millipps; /**< 0 when no rate passed or gen_limited */
	bool gen_limited;             /**< the generator, not the device, was the limit */
	uint64_t gen_millipps;        /**< gen_limited: the device lost nothing at this offered rate */
	uint64_t l2_bps;              /**< at the throughput, frame bytes incl. FCS */
	uint64_t l1_bps;              /**< plus 20 bytes per frame (IEEE 802.3) */
	uint64_t line_millipps;       /**< 0 if the link is unknown */
	uint64_t resolution_millipps;
	uint32_t n_trials;
	bool done;
	bool converged;  /**< hi - lo <= resolution (false: out of trials) */
	const struct wr_rfc2544_trial *trials; /**< n_trials entries, in order */
};

/**
 * Start a search.
 * @param rate  out: the rate of the first trial (the maximum)
 * @return 0; -EINVAL (frame size out of range, no link and no max, min >
 *         max, loss_ppm > 10^6, max_trials 0 after defaults); -ERANGE (max
 *         above the line rate, max_trials > WR_RFC2544_TRIALS_MAX).
 */
int wr_rfc2544_start(struct wr_rfc2544 *s, const struct wr_rfc2544_cfg *cfg,
		     uint64_t *rate);

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
 * The rate a trial offered: @p sent frames in @p duration_ns, in millipps
 * (rounded down; 0 when @p duration_ns is 0).
 */
uint64_t wr_rfc2544_offered_millipps(uint64_t sent, uint64_t duration_ns);

/**
 * True when @p offered falls short of @p rate by more than @p resolution
 * (all millipps): the trial did not test the device at @p rate.
 */
bool wr_rfc2544_short(uint64_t rate, uint64_t offered, uint64_t resolution);

/** The outcome so far (final once done).  @return 0, -EINVAL on NULL. */
int wr_rfc2544_result(const struct wr_rfc2544 *s, struct wr_rfc2544_result *out);

#endif /* WR_RFC2544_H */
