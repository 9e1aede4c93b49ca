/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_sched: when streams end, which stream follows, and rate ramps. */
#ifndef WR_SCHED_H
#define WR_SCHED_H

/**
 * @file
 * Pure logic: every function takes the clock as an argument (TSC ticks for
 * the data path's per-burst checks, nanoseconds from the start for ramps).
 * Spacing of frames, including bursts of N frames with a gap, is the
 * pacer's job (wr_rate.h, struct wr_pacer_cfg.burst_frames).
 *
 * Limits (struct wr_sched_run).  A stream activation ends after `count`
 * frames or after `duration_ns`, whichever comes first; 0 means no limit
 * for either.  With K TX lcores each lcore runs its own wr_sched_run with
 * its share of the count (wr_sched_split_count()) and the same end time.
 *
 * Sequencing (struct wr_order), as Ostinato's per-stream "next" action.
 * Streams run one at a time in list order.  When the active stream ends:
 *   - next:  the following stream becomes active; after the last stream
 *            this ends the sequence (as stop);
 *   - first: one pass is complete; stream 0 becomes active again unless
 *            `loops` passes are done (loops 0: loop for ever);
 *   - stop:  the sequence ends.
 *
 * Ramps (struct wr_ramp).  From start_millipps towards end_millipps (up or
 * down) by step_millipps every step_ns:
 *   - STAIRCASE: step i (0-based) holds min(start + i * step, end) going
 *     up (max(start - i * step, end) going down) during
 *     [i * step_ns, (i + 1) * step_ns); there are
 *     ceil(|end - start| / step) + 1 steps, the last one at end rate.
 *   - LINEAR:    start + step * t / step_ns (rounded towards start),
 *     clamped to end: the line through the staircase's step corners; it
 *     reaches end at ceil(|end - start| * step_ns / step) ns.
 * After the ramp (wr_ramp_duration_ns()), HOLD keeps the end rate for ever
 * and STOP ends the stream.  A ramp that never moves (start == end) has one
 * step.
 *
 * Threads: a struct wr_sched_run or wr_order belongs to one thread; struct
 * wr_ramp is read-only and may be shared.
 */

#include <stdbool.h>
#include <stdint.h>

/** What follows a stream in a sequence: X(enum suffix, YAML/report name). */
#define WR_SCHED_NEXTS(X)       \
	X(NEXT, "next")         \
	X(FIRST, "first")       \
	X(STOP, "stop")

enum wr_sched_next {
#define WR_X(e, name) WR_SCHED_NEXT_##e,
	WR_SCHED_NEXTS(WR_X)
#undef WR_X
	WR_SCHED_NEXT__COUNT
};

/** Name of a next action ("first"), NULL if out of range. */
const char *wr_sched_next_name(enum wr_sched_next n);

/** One activation of a stream on one lcore. */
struct wr_sched_run {
	uint64_t left;    /**< frames still to send; UINT64_MAX: no count */
	uint64_t end_tsc; /**< end time; UINT64_MAX: no duration */
};

/**
 * Start an activation at @p now_tsc.
 * @param count        frames to send, 0 = no limit, WR_SCHED_NONE = none
 *                     at all (the activation is done at once)
 * @param duration_ns  how long, 0 = no limit
 * @param tsc_hz       TSC frequency
 * @return 0; -EINVAL (tsc_hz 0, NULL); -ERANGE when the end time does not
 *         fit 64 bits of TSC.
 */
int wr_sched_run_start(struct wr_sched_run *r, uint64_t count,
		       uint64_t duration_ns, uint64_t tsc_hz, uint64_t now_tsc);

/**
 * Set the end time of an activation that started at @p start_tsc to
 * @p duration_ns later at @p tsc_hz (0: no end time); its count is kept.
 * wr_sched_run_start() uses it; a refined TSC frequency moves the end.
 * @return 0; -EINVAL (tsc_hz 0, NULL); -ERANGE (beyond 64 bits of TSC).
 */
int wr_sched_run_set_end(struct wr_sched_run *r, uint64_t duration_ns,
			 uint64_t tsc_hz, uint64_t start_tsc);

/** The @p n frames a pacer granted, cut to what the count still allows. */
static inline uint32_t
wr_sched_run_clip(const struct wr_sched_run *r, uint32_t n)
{
	return r->left < n ? (uint32_t)r->left : n;
}

/** Account @p n frames the NIC took. */
static inline void
wr_sched_run_sent(struct wr_sched_run *r, uint32_t n)
{
	if (r->left != UINT64_MAX)
		r->left = r->left < n ? 0 : r->left - n;
}

/** True once the count is sent or the end time reached. */
static inline bool
wr_sched_run_done(const struct wr_sched_run *r, uint64_t now_tsc)
{
	return r->left == 0 || now_tsc >= r->end_tsc;
}

/**
 * Frames lcore @p idx of @p n_lcores sends of a stream's @p count when lcore
 * j sends indices j, j + K, ... (wr_frame.h): ceil((count - j) / K).  The
 * shares sum to count.  count 0 (no limit) gives 0 (no limit) to every
 * lcore; an lcore with no frame to send gets WR_SCHED_NONE.
 */
uint64_t wr_sched_split_count(uint64_t count, unsigned int n_lcores,
			      unsigned int idx);

/** wr_sched_split_count(): this lcore has nothing to send at all. */
#define WR_SCHED_NONE UINT64_MAX

/** wr_order_active() once the sequence has ended. */
#define WR_ORDER_DONE UINT32_MAX

struct wr_order {
	const enum wr_sched_next *next; /* n entries, not owned */
	uint32_t n;
	uint32_t active;  /* index, or WR_ORDER_DONE */
	uint64_t loops;   /* passes to run, 0 = for ever */
	uint64_t pass;    /* 1-based pass of the active stream */
};

/**
 * Start a sequence: stream 0 active, pass 1.
 * @param next   the next action of each stream (kept by pointer)
 * @param n      number of streams, >= 1
 * @param loops  passes through the sequence (for `first`), 0 = for ever
 * @return 0, -EINVAL (NULL, n 0, an action out of range).
 */
int wr_order_init(struct wr_order *s, const enum wr_sched_next *next, uint32_t n,
		uint64_t loops);

/** Index of the active stream, or WR_ORDER_DONE. */
static inline uint32_t
wr_order_active(const struct wr_order *s)
{
	return s->active;
}

/**
 * The active stream ended: apply its next action.
 * @return the stream now active, or WR_ORDER_DONE (also when called after
 *         the end).
 */
uint32_t wr_order_end(struct wr_order *s);

#define WR_RAMP_SHAPES(X)               \
	X(STAIRCASE, "staircase")       \
	X(LINEAR, "linear")

enum wr_ramp_shape {
#define WR_X(e, name) WR_RAMP_##e,
	WR_RAMP_SHAPES(WR_X)
#undef WR_X
	WR_RAMP__COUNT
};

#define WR_RAMP_ENDS(X)         \
	X(HOLD, "hold")         \
	X(STOP, "stop")

enum wr_ramp_end {
#define WR_X(e, name) WR_RAMP_END_##e,
	WR_RAMP_ENDS(WR_X)
#undef WR_X
	WR_RAMP_END__COUNT
};

/** The YAML name of a ramp shape @p s / end @p e (NULL if unknown). */
const char *wr_ramp_shape_name(enum wr_ramp_shape s);
const char *wr_ramp_end_name(enum wr_ramp_end e);

struct wr_ramp {
	enum wr_ramp_shape shape;
	enum wr_ramp_end at_end;
	uint64_t start_millipps; /**< >= 1 */
	uint64_t end_millipps;   /**< >= 1 */
	uint64_t step_millipps;  /**< >= 1 */
	uint64_t step_ns;        /**< >= 1 */
};

/** One step of a staircase. */
struct wr_ramp_step {
	uint64_t start_ns;
	uint64_t rate_millipps;
};

/**
 * Validate a ramp.
 * @return 0; -EINVAL (a zero rate, step or step_ns, an unknown shape or
 *         end); -ERANGE when the ramp lasts more than 2^64 - 1 ns.
 */
int wr_ramp_check(const struct wr_ramp *r);

/** Number of staircase steps (>= 1) of a checked ramp. */
uint64_t wr_ramp_n_steps(const struct wr_ramp *r);

/**
 * Step @p i of the staircase (also the corners a LINEAR ramp goes through).
 * @return 0, -ERANGE when i >= wr_ramp_n_steps().
 */
int wr_ramp_step(const struct wr_ramp *r, uint64_t i, struct wr_ramp_step *out);

/**
 * How long the ramp lasts before HOLD or STOP applies: n_steps * step_ns
 * for STAIRCASE, ceil(|end - start| * step_ns / step) for LINEAR.
 */
uint64_t wr_ramp_duration_ns(const struct wr_ramp *r);

/**
 * Target rate @p t_ns after the ramp started, for a checked ramp.
 * @return 1 with @p rate_millipps set while the ramp runs or holds; 0 once a
 *         STOP ramp is over (@p rate_millipps set to 0).
 */
int wr_ramp_rate_at(const struct wr_ramp *r, uint64_t t_ns,
		    uint64_t *rate_millipps);

#endif /* WR_SCHED_H */
