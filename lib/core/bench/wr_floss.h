/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_floss: RFC 2544's frame loss rate test (section 26.3): which rate each step runs, when to stop. */
#ifndef WR_FLOSS_H
#define WR_FLOSS_H

/**
 * @file
 * RFC 2544 section 26.3: the first trial runs at the maximum rate (the line
 * rate of the frame size, or the maximum the user set), each next one a
 * step lower (10 % of the maximum by default, "granularity ... SHOULD be
 * 10 % or less"), until two successive trials lose no frame.  Each step
 * reports ((input count - output count) * 100) / input count.
 *
 * A step whose offered rate falls short of its rate by more than the
 * resolution measured the device at the offered rate, not at the step's:
 * it is marked short_offer and its loss belongs to the offered rate.
 *
 * Threads: one struct wr_floss per test, used by one thread.
 */

#include <stdbool.h>
#include <stdint.h>

/** Steps a test may have: 1 % steps from 100 % down. */
#define WR_FLOSS_STEPS_MAX 100
/** RFC 2544: steps of 10 % of the maximum. */
#define WR_FLOSS_STEP_PPM_DEFAULT 100000
/** RFC 2544: stop after two successive lossless trials. */
#define WR_FLOSS_CLEAN_DEFAULT 2

struct wr_floss_cfg {
	uint64_t max_millipps;   /**< the first step, > 0 */
	uint32_t step_ppm;       /**< of max; 0 = 10 %; at least 1 % */
	uint32_t clean;          /**< lossless steps in a row that stop; 0 = 2 */
	uint64_t resolution_millipps; /**< a shortfall beyond it is short_offer */
};

struct wr_floss_step {
	uint64_t rate_millipps;
	uint32_t pct_ppm;            /**< rate as a share of max */
	uint64_t offered_millipps;
	bool short_offer;
	uint64_t sent, received, lost, excess;
	double loss_pct;             /**< RFC 2544's frame loss rate */
	bool bidir;                  /**< both directions ran: the reverse's */
	uint64_t rev_sent, rev_received, rev_lost;
	double rev_loss_pct;
};

struct wr_floss {
	struct wr_floss_cfg cfg;
	uint32_t n_steps;
	uint32_t clean_run;
	uint64_t rate;               /* of the step running, 0 when done */
	bool done;
	bool stopped_clean;          /* ended by the lossless steps (else at 0) */
	bool rev_set;                /* the reverse counts of the step running */
	uint64_t rev_sent, rev_received;
	struct wr_floss_step steps[WR_FLOSS_STEPS_MAX];
};

/**
 * Start.  @param rate out: the first step's rate.
 * @return 0, -EINVAL (max 0, step above 100 % or below 1 %).
 */
int wr_floss_start(struct wr_floss *s, const struct wr_floss_cfg *cfg,
		   uint64_t *rate);

/**
 * Both directions at once: the reverse direction's counts of the step
 * about to be reported (its loss is its own, and the step is lossless
 * only when both directions are).  @return 0, -EINVAL (not running).
 */
int wr_floss_set_reverse(struct wr_floss *s, uint64_t sent, uint64_t received);

/**
 * Report the step just run (the forward direction's counts).
 * @return 0 (run *rate next), 1 (done), -EINVAL (not running, sent 0).
 *         Received > sent (frames made up) is logged with its excess and
 *         is never a lossless step.
 */
int wr_floss_report(struct wr_floss *s, uint64_t sent, uint64_t received,
		    uint64_t offered, uint64_t *rate);

#endif /* WR_FLOSS_H */
