/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_eta: a benchmark's time left from what its units (sizes) and their phases (tests) took. */
#ifndef WR_ETA_H
#define WR_ETA_H

/**
 * @file
 * A benchmark runs @c units units in order (rfc2544: each size on each
 * pair; rtt: each payload size), each unit its phases in index order
 * (rfc2544's four tests; rtt one).  Once a unit is done, the time left is:
 *
 *   - the phase running: when it is made of like parts whose count is known
 *     (rfc2544's latency trials, back-to-back's repeats) and some are done
 *     (wr_eta_phase_done()), the parts left at the time the done ones took
 *     in this very phase, counted from when the last one ended; else its
 *     expected time less what it has spent (nothing once it runs longer);
 *   - the phases after it in this unit, and every phase of the units left,
 *     at their expected times.
 *
 * A phase's expected time in unit u is its time per weight over the units
 * done (weights recomputed at each call from the caller's function, whose
 * inputs may change as the benchmark learns: rfc2544's fastest burst)
 * times its weight in u.  Time is passed in (@p now_ns, any monotonic
 * clock): no clock is read here, so the model is tested with made-up times.
 *
 * Threads: one caller at a time per struct.
 */

#include <stdbool.h>
#include <stdint.h>

#define WR_ETA_PHASES 4

struct wr_eta {
	uint32_t units, units_done;
	uint32_t unit;          /* the one running (or last done) */
	int phase;              /* the phase running, -1 none */
	uint64_t phase_t0_ns;
	/* The phase running's parts: done of of, the last done at part_ns
	 * (wr_eta_phase_done(); of 0: not said). */
	uint32_t part_done, part_of;
	uint64_t part_ns;
	uint64_t sum_ns[WR_ETA_PHASES];  /* units done */
	uint64_t cur_ns[WR_ETA_PHASES];  /* the unit running, phases ended */
	/* A phase's relative cost in unit @p u (NULL: 1 for every unit). */
	double (*weight)(const void *ctx, unsigned int phase, uint32_t u);
	const void *ctx;
};

/** Start a benchmark of @p units units. */
void wr_eta_start(struct wr_eta *e, uint32_t units,
		  double (*weight)(const void *ctx, unsigned int phase,
				   uint32_t u),
		  const void *ctx);
/** Unit @p u begins (units run in order: 0, 1, ...). */
void wr_eta_unit(struct wr_eta *e, uint32_t u, uint64_t now_ns);
/** Phase @p phase of the unit running begins (the one before it ends). */
void wr_eta_phase(struct wr_eta *e, unsigned int phase, uint64_t now_ns);
/** @p done of the phase running's @p of like parts are done (at @p now_ns). */
void wr_eta_phase_done(struct wr_eta *e, uint32_t done, uint32_t of,
		       uint64_t now_ns);
/** The unit running is done: its phases' times count from now on. */
void wr_eta_unit_done(struct wr_eta *e, uint64_t now_ns);
/** Seconds left at @p now_ns; < 0 while no unit is done. */
double wr_eta_left(const struct wr_eta *e, uint64_t now_ns);

/**
 * A slope of y on x (rtt: a size's round-trip time on its frame's bytes)
 * from the points added, drawn towards a prior as a normal prior would:
 * the fit weighs Sxx / (Sxx + @p k), Sxx the points' sum of squared
 * distances from their mean x (the fit's precision over y's noise), and
 * a slope below 0 is taken as 0.
 */
struct wr_eta_fit {
	double n, sx, sy, sxx, sxy;
};
void wr_eta_fit_add(struct wr_eta_fit *f, double x, double y);
/** The slope (@p prior while fewer than 2 distinct x). */
double wr_eta_fit_slope(const struct wr_eta_fit *f, double prior, double k);
/** The mean x of the points (0: none). */
double wr_eta_fit_mean_x(const struct wr_eta_fit *f);

#endif /* WR_ETA_H */
