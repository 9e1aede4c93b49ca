/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_b2b: RFC 2544's back-to-back test (section 26.4): the longest lossless burst, by search, repeated. */
#ifndef WR_B2B_H
#define WR_B2B_H

/**
 * @file
 * RFC 2544 section 26.4: a burst of frames at the minimum inter-frame gap
 * (line rate, or the fastest the generator offers); a burst the DUT
 * forwards whole is lengthened, one it loses frames of is shortened; the
 * back-to-back value is the longest burst forwarded without loss.  The
 * search repeats (RFC 2544: at least 50 times) and the answer is the
 * min/avg/max of the repeats.
 *
 * One search: the first burst is max_frames (RFC 2544: a trial of at least
 * 2 s, so 2 s of the rate); forwarded whole, the value is "at least
 * max_frames" (the test's own limit, flagged at_max).  Else lo = 0,
 * hi = max_frames and the burst is lo + (hi - lo) / 2 until hi - lo <=
 * resolution_frames; the value is lo.  Each repeat starts afresh.
 *
 * A burst is only a result when the generator offered it at the rate
 * asked (RFC 2544: at the minimum gap, or the test's paced rate): one
 * offered slower that the DUT forwarded whole says nothing about bursts
 * at the rate (issue 17: bursts offered at 2.5 kpps of the 30 kpps asked
 * counted as passes).  It ends the search generator-limited, as a
 * throughput search's target does: the repeats finished before it keep
 * their values, the one running has none, and no later repeat runs.  A
 * short burst the DUT lost frames of is a real failure (it lost them at a
 * lower rate than asked) and the search goes on.
 *
 * Threads: one struct wr_b2b per test, used by one thread.
 */

#include <stdbool.h>
#include <stdint.h>

/** RFC 2544: "SHOULD be repeated at least 50 times". */
#define WR_B2B_REPEATS_DEFAULT 50
#define WR_B2B_REPEATS_MAX 1000
/** Trials logged: log2(2^64) + 1 per repeat is enough for any repeat. */
#define WR_B2B_TRIALS_MAX 66

struct wr_b2b_cfg {
	uint64_t max_frames;        /**< first burst, >= 1 */
	uint64_t resolution_frames; /**< 0 = 1 frame */
	uint32_t repeats;           /**< 0 = 50 */
};

struct wr_b2b_trial {
	uint64_t frames;    /**< the burst asked */
	uint64_t sent, received;
	bool short_offer;   /**< not offered at the rate asked */
	bool pass;
};

struct wr_b2b {
	struct wr_b2b_cfg cfg;
	uint64_t lo, hi, burst;
	bool lo_pass;
	uint32_t repeat;             /* the one running, from 0 */
	bool done;
	/* the repeat running: its trials */
	uint32_t n_trials;
	struct wr_b2b_trial trials[WR_B2B_TRIALS_MAX];
	/* every repeat's value */
	uint64_t values[WR_B2B_REPEATS_MAX];
	bool at_max[WR_B2B_REPEATS_MAX];
	uint32_t trials_per[WR_B2B_REPEATS_MAX];
	uint32_t n_values;
	bool gen_limited;            /* a short burst passed: ended there */
	uint64_t gen_burst;          /* that burst's length */
};

struct wr_b2b_result {
	uint32_t n;          /**< repeats done */
	uint64_t min, max;
	double avg;
	uint32_t n_at_max;   /**< repeats whose whole first burst passed */
	const uint64_t *values;
	bool gen_limited;    /**< ended by a burst the generator could not
			      *   offer at the rate (and the DUT forwarded) */
	uint64_t gen_burst;  /**< its length */
};

/**
 * Start.  @param frames out: the first burst's length.
 * @return 0, -EINVAL (max_frames 0), -ERANGE (repeats > WR_B2B_REPEATS_MAX).
 */
int wr_b2b_start(struct wr_b2b *s, const struct wr_b2b_cfg *cfg,
		 uint64_t *frames);

/**
 * Report the burst just sent: @p sent frames (the burst asked, unless the
 * generator was stopped), @p received forwarded, @p short_offer when the
 * generator did not offer it at the rate asked (wr_rfc2544_short()).  A
 * burst passes when received == sent == the burst asked and it was not
 * short; a short one that would have passed ends the search
 * generator-limited (see the file comment).
 * @param frames  out: the next burst, 0 when done
 * @return 0 (send *frames), 1 (done: also when generator-limited), 2 (a
 *         repeat ended; send *frames, the next repeat's first burst),
 *         -EINVAL (not running).
 */
int wr_b2b_report(struct wr_b2b *s, uint64_t sent, uint64_t received,
		  bool short_offer, uint64_t *frames);

/** min/avg/max over the repeats so far.  @return 0, -EINVAL on NULL. */
int wr_b2b_result(const struct wr_b2b *s, struct wr_b2b_result *out);

#endif /* WR_B2B_H */
