/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_eta: a benchmark's time left from what its units (sizes) and their phases (tests) took. */
#include <string.h>

#include "wr_eta.h"

void
wr_eta_start(struct wr_eta *e, uint32_t units,
	     double (*weight)(const void *ctx, unsigned int phase, uint32_t u),
	     const void *ctx)
{
	memset(e, 0, sizeof(*e));
	e->units = units;
	e->phase = -1;
	e->weight = weight;
	e->ctx = ctx;
}

static double
eta_w(const struct wr_eta *e, unsigned int phase, uint32_t u)
{
	return e->weight != NULL ? e->weight(e->ctx, phase, u) : 1.0;
}

/* The phase running's time so far into the unit's. */
static void
eta_close(struct wr_eta *e, uint64_t now_ns)
{
	if (e->phase >= 0 && now_ns > e->phase_t0_ns)
		e->cur_ns[e->phase] += now_ns - e->phase_t0_ns;
	e->phase = -1;
}

void
wr_eta_unit(struct wr_eta *e, uint32_t u, uint64_t now_ns)
{
	(void)now_ns;
	memset(e->cur_ns, 0, sizeof(e->cur_ns));
	e->phase = -1;
	e->unit = u;
}

void
wr_eta_phase(struct wr_eta *e, unsigned int phase, uint64_t now_ns)
{
	if (phase >= WR_ETA_PHASES)
		return;
	eta_close(e, now_ns);
	e->phase = (int)phase;
	e->phase_t0_ns = now_ns;
	e->part_done = e->part_of = 0;
}

void
wr_eta_phase_done(struct wr_eta *e, uint32_t done, uint32_t of,
		  uint64_t now_ns)
{
	if (e->phase < 0 || done > of)
		return;
	e->part_done = done;
	e->part_of = of;
	e->part_ns = now_ns;
}

/* The phase running's time left by its own parts: the parts left at the
 * time the done ones took, less what has passed since the last ended.
 * The other sizes' time for this phase was 40-60 % off for back-to-back
 * on memif (the time of one size swings 8 to 18 s from run to run), so
 * its last burst was said 0.8 s and took 1.2 s: the first repeat of the
 * same size knows better.  < 0: no part done. */
static double
eta_parts_left(const struct wr_eta *e, uint64_t now_ns)
{
	double took, end;

	if (e->part_of == 0 || e->part_done == 0 || e->part_ns < e->phase_t0_ns)
		return -1;
	took = (double)(e->part_ns - e->phase_t0_ns) / 1e9;
	end = took * e->part_of / e->part_done;
	end -= (double)(now_ns - e->phase_t0_ns) / 1e9;
	return end > 0 ? end : 0;
}

void
wr_eta_unit_done(struct wr_eta *e, uint64_t now_ns)
{
	unsigned int i;

	eta_close(e, now_ns);
	for (i = 0; i < WR_ETA_PHASES; i++)
		e->sum_ns[i] += e->cur_ns[i];
	e->units_done++;
}

/* A phase's seconds per weight over the units done; 0: it never ran.
 * The weights are summed now, not as each unit ended: their inputs may
 * have moved since (rfc2544's fastest burst), and a time per weight
 * that mixed old and new weights would scale every unit left by the
 * difference.  Units run in order, and every unit runs the same phases,
 * so the units done are 0 .. units_done - 1. */
static double
eta_per(const struct wr_eta *e, unsigned int phase)
{
	double w = 0;
	uint32_t u;

	if (e->sum_ns[phase] == 0)
		return 0;
	for (u = 0; u < e->units_done; u++)
		w += eta_w(e, phase, u);
	return w > 0 ? (double)e->sum_ns[phase] / w / 1e9 : 0;
}

double
wr_eta_left(const struct wr_eta *e, uint64_t now_ns)
{
	int cur = e->phase;
	double left = 0;
	unsigned int i;
	uint32_t u;

	if (e->units_done == 0 || e->units == 0)
		return -1;
	for (i = 0; i < WR_ETA_PHASES; i++) {
		double per = eta_per(e, i);
		double spent = (double)e->cur_ns[i] / 1e9, est;

		if (per == 0)
			continue;
		if (cur == (int)i && now_ns > e->phase_t0_ns)
			spent += (double)(now_ns - e->phase_t0_ns) / 1e9;
		/* The unit running: a phase done (time spent, not running)
		 * has nothing left; the one running what its estimate has
		 * left (about nothing when it runs longer); those to come
		 * their estimates.  After the unit's done (units_done past
		 * it), only the units after it. */
		est = per * eta_w(e, i, e->unit);
		if (e->units_done <= e->unit && cur == (int)i &&
		    eta_parts_left(e, now_ns) >= 0)
			left += eta_parts_left(e, now_ns);
		else if (e->units_done <= e->unit &&
			 (spent == 0 || cur == (int)i) && est > spent)
			left += est - spent;
		for (u = e->unit + 1; u < e->units; u++)
			left += per * eta_w(e, i, u);
	}
	return left;
}

void
wr_eta_fit_add(struct wr_eta_fit *f, double x, double y)
{
	f->n += 1;
	f->sx += x;
	f->sy += y;
	f->sxx += x * x;
	f->sxy += x * y;
}

double
wr_eta_fit_mean_x(const struct wr_eta_fit *f)
{
	return f->n > 0 ? f->sx / f->n : 0;
}

double
wr_eta_fit_slope(const struct wr_eta_fit *f, double prior, double k)
{
	double sxx, sxy, w, s;

	if (f->n < 2)
		return prior;
	sxx = f->sxx - f->sx * f->sx / f->n;
	sxy = f->sxy - f->sx * f->sy / f->n;
	if (sxx <= 0)
		return prior;
	w = sxx / (sxx + k);
	s = w * (sxy / sxx) + (1 - w) * prior;
	return s > 0 ? s : 0;
}
