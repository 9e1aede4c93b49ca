/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_mlr: MLRsearch (RFC 9971, the IETF BMWG's Multiple Loss Ratio Search) without the traffic: several loss ratios in one pass. */
#ifndef WR_MLR_H
#define WR_MLR_H

/**
 * @file
 * MLRsearch as CSIT runs it (RFC 9971, formerly draft-ietf-bmwg-mlrsearch;
 * doc/rates.md says when it fits better than the binary search of
 * wr_throughput.h).  One search serves several **Search Goals** at once, each
 * with the RFC's attributes:
 *
 *     Goal Loss Ratio          the loss a trial may have and still be low-loss
 *                              (0: NDR; 0.5 %: CSIT's PDR);
 *     Goal Exceed Ratio        the share of trial time that may be high-loss
 *                              at a Lower Bound (0: RFC 2544; 50 %: TST009's
 *                              "binary search with loss verification");
 *     Goal Final Trial Duration  trials at least this long decide a Lower Bound;
 *     Goal Duration Sum        how much trial time at one load is enough;
 *     Goal Initial Trial Duration  the shortest trials the search uses for it;
 *     Goal Width               the precision: (upper - lower) / upper.
 *
 * Every trial informs every goal.  A load is classified per goal by the
 * RFC's Load Classification Code (Appendix A) from all the trials run at
 * it: Upper Bound, Lower Bound or Undecided (wr_mlr_classify(), exact on
 * integers).  A goal's result is its Relevant Upper Bound (the smallest
 * Upper Bound), its Relevant Lower Bound (the largest Lower Bound below it)
 * and the Conditional Throughput at that lower bound (Appendix B,
 * wr_mlr_conditional()); regular when both bounds exist within the width.
 *
 * The controller (this module's own, as the RFC leaves it open): each goal
 * is approached through P intermediate targets before its final one, target
 * k of P trying trials of initial * (final / initial)^(k/P) and a width of
 * width * 2^(P-k); targets run coarsest first, all goals' at one level
 * before the next.  For the target in hand, the lowest measured load still
 * undecided between its bounds is measured again (smaller candidates first,
 * as the RFC advises); without an upper bound the maximum load is tried;
 * without a lower bound below the upper one, a load under it (first the
 * forwarding rate the upper bound's trial achieved, then steps doubling
 * away); with both, their midpoint, until they are within the width.  So
 * the trials grow longer as the interval narrows, and loads found by
 * earlier, shorter trials are confirmed with full-length ones.
 *
 * Loads are in millipps (wr_rate.h), durations in ns.  Threads: one struct
 * wr_mlr per search, used by one thread.
 */

#include <stdbool.h>
#include <stdint.h>

#define WR_MLR_GOALS_MAX 8
/** Trials a search may log. */
#define WR_MLR_TRIALS_MAX 512
/** Intermediate targets per goal, at most. */
#define WR_MLR_PHASES_MAX 6

/** One Search Goal (RFC 9971 section 4.5). */
struct wr_mlr_goal {
	uint32_t loss_ppm;         /**< Goal Loss Ratio, millionths, < 10^6 */
	uint32_t exceed_ppm;       /**< Goal Exceed Ratio, millionths, < 10^6 */
	uint64_t final_ns;         /**< Goal Final Trial Duration, > 0 */
	uint64_t sum_ns;           /**< Goal Duration Sum; 0: final_ns */
	uint64_t initial_ns;       /**< Goal Initial Trial Duration; 0: final_ns */
	uint32_t width_ppm;        /**< Goal Width, relative, millionths, > 0 */
};

struct wr_mlr_cfg {
	struct wr_mlr_goal goals[WR_MLR_GOALS_MAX];
	unsigned int n_goals;      /**< 1..WR_MLR_GOALS_MAX */
	uint64_t max_millipps;     /**< Max Load, > 0 (the line rate, or lower) */
	uint64_t min_millipps;     /**< Min Load, > 0 and < max; 0: max / 10^4 */
	uint32_t phases;           /**< intermediate targets per goal; 0: ceil(log2(final/initial) / 2) */
	uint32_t max_trials;       /**< 0: WR_MLR_TRIALS_MAX */
};

/** One trial as logged. */
struct wr_mlr_trial {
	uint64_t load;             /**< Trial Load, millipps (intended) */
	uint64_t duration_ns;      /**< Trial Duration (and its effective duration) */
	uint64_t sent;             /**< frames the trial should have had forwarded */
	uint64_t received;         /**< distinct frames forwarded */
	uint64_t offered;          /**< the load the generator achieved, millipps */
	uint32_t target;           /**< which target chose it (level * n_goals + goal) */
};

enum wr_mlr_class { WR_MLR_UNDECIDED, WR_MLR_LOWER, WR_MLR_UPPER };

/** A goal's result (RFC 9971 section 4.7). */
struct wr_mlr_result {
	bool regular;              /**< both bounds, within the width */
	bool has_upper, has_lower;
	uint64_t upper;            /**< Relevant Upper Bound, millipps */
	uint64_t lower;            /**< Relevant Lower Bound (irregular: the max
				    *   load when it is a lower bound) */
	double conditional_pps;    /**< Conditional Throughput at lower, pps */
	bool max_is_lower;         /**< irregular: nothing above the max load failed */
	bool min_is_upper;         /**< irregular: even the min load failed */
	bool short_offer;          /**< a trial at lower offered less than its load
				    *   by more than the width: the generator may be
				    *   the limit there */
};

/** A search in progress; fields are internal. */
struct wr_mlr {
	struct wr_mlr_cfg cfg;     /* defaults resolved */
	uint32_t phases;
	uint32_t level;            /* 0..phases: the target level in hand */
	uint32_t goal;             /* the goal in hand */
	uint32_t expansions;       /* steps below an upper bound taken so far */
	uint64_t next_load, next_ns;
	bool done, out_of_trials;
	uint32_t n_trials;
	struct wr_mlr_trial trials[WR_MLR_TRIALS_MAX];
};

/**
 * Start a search.
 * @return 0 with the first trial in *load and *ns (the max load, the
 *         shortest initial duration); -EINVAL (no goal, a ratio >= 10^6, a
 *         zero duration or width, initial > final, max 0, min >= max);
 *         -ERANGE (more than WR_MLR_GOALS_MAX goals, phases or trials over
 *         their maxima).
 */
int wr_mlr_start(struct wr_mlr *s, const struct wr_mlr_cfg *cfg, uint64_t *load,
		 uint64_t *ns);

/**
 * Report the trial last asked for: @p sent frames should have been
 * forwarded, @p received were (distinct; more than sent counts as none
 * lost), at @p offered millipps.
 * @return 0 with the next trial in *load, *ns; 1 when done; -EINVAL
 *         (not running, sent 0).
 */
int wr_mlr_report(struct wr_mlr *s, uint64_t sent, uint64_t received,
		  uint64_t offered, uint64_t *load, uint64_t *ns);

/** Goal @p g's result from the trials so far.  @return 0, -EINVAL. */
int wr_mlr_result(const struct wr_mlr *s, unsigned int g,
		  struct wr_mlr_result *out);

/** About how many trials @p cfg takes, for progress ("trial k of ~n"). */
uint32_t wr_mlr_trials_estimate(const struct wr_mlr_cfg *cfg);

/**
 * RFC 9971 Appendix A: the class of a load under goal @p g from its
 * @p n trials (all at that load).  Exact: integers throughout.
 */
enum wr_mlr_class wr_mlr_classify(const struct wr_mlr_goal *g,
				  const struct wr_mlr_trial *t, unsigned int n);

/**
 * RFC 9971 Appendix B: the Conditional Throughput of @p n trials at one
 * load under goal @p g, in pps (0 when no trial is full-length).
 */
double wr_mlr_conditional(const struct wr_mlr_goal *g,
			  const struct wr_mlr_trial *t, unsigned int n);

#endif /* WR_MLR_H */
