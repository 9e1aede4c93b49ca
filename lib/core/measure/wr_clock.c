/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_clock: the TSC calibration and the device-clock to TSC map. */
#include <errno.h>
#include <math.h>

#include "wr_clock.h"

int
wr_clock_fit(struct wr_clock_map *m, const struct wr_clock_pair *a,
	     const struct wr_clock_pair *b)
{
	uint64_t dt = b->tsc - a->tsc, dd = b->dev - a->dev;
	unsigned __int128 q;

	if (b->tsc <= a->tsc || b->dev <= a->dev)
		return -EINVAL;
	/* One division per refit, never per frame.  Rounded to nearest. */
	q = (((unsigned __int128)dt << WR_CLOCK_SHIFT) + dd / 2) / dd;
	if (q == 0 || q > UINT64_MAX)
		return -EINVAL;
	m->mult = (uint64_t)q;
	m->dev0 = b->dev;
	m->tsc0 = b->tsc;
	return 0;
}

/* ---- the TSC's frequency ---- */

#define NS_PER_S 1000000000ull

static const char *const source_names[] = {
#define WR_X(e, name) name,
	WR_TSC_SOURCES(WR_X)
#undef WR_X
};

const char *
wr_tsc_source_name(enum wr_tsc_source s)
{
	return (unsigned int)s < WR_TSC_SOURCE__COUNT ? source_names[s] : NULL;
}

int
wr_tsc_cal_fit(struct wr_tsc_cal *c, const struct wr_tsc_sample *a,
	       const struct wr_tsc_sample *b, uint64_t res_ns, uint64_t eal_hz)
{
	uint64_t dt, dn, off;
	unsigned __int128 hz;
	double err;

	if (a->width == UINT64_MAX || b->width == UINT64_MAX ||
	    b->tsc <= a->tsc || b->ns <= a->ns)
		return -EINVAL;
	dt = b->tsc - a->tsc;
	dn = b->ns - a->ns;
	/* Each midpoint is within half its width of the instant read, plus
	 * the half tick the integer midpoint drops. */
	if (a->width / 2 + b->width / 2 + 1 >= dt)
		return -EINVAL;
	hz = ((unsigned __int128)dt * NS_PER_S + dn / 2) / dn;
	if (hz == 0 || hz > UINT64_MAX)
		return -EINVAL;
	if (eal_hz != 0) {
		off = (uint64_t)hz > eal_hz ? (uint64_t)hz - eal_hz :
			eal_hz - (uint64_t)hz;
		if ((unsigned __int128)off * 1000000u >
		    (unsigned __int128)eal_hz * WR_TSC_SANE_PPM)
			return -ERANGE;
	}
	err = ((double)a->width / 2 + (double)b->width / 2 + 1) / (double)dt +
	      (double)res_ns / (double)dn;
	c->hz = (uint64_t)hz;
	c->err_ppb = (uint64_t)ceil(err * 1e9);
	c->span_ns = dn;
	c->eal_hz = eal_hz;
	c->source = WR_TSC_SOURCE_MONOTONIC_RAW;
	return 0;
}

/* DPDK rounds its measurement to the nearest 10 MHz (eal_timer.c). */
#define WR_TSC_EAL_ROUNDING_HZ 5000000ull

void
wr_tsc_cal_eal(struct wr_tsc_cal *c, uint64_t eal_hz)
{
	c->hz = eal_hz;
	c->err_ppb = eal_hz == 0 ? UINT64_MAX :
		(uint64_t)(((unsigned __int128)WR_TSC_EAL_ROUNDING_HZ * NS_PER_S +
			    eal_hz - 1) / eal_hz);
	c->span_ns = 0;
	c->eal_hz = eal_hz;
	c->source = WR_TSC_SOURCE_EAL;
}

bool
wr_tsc_cal_better(const struct wr_tsc_cal *cur, const struct wr_tsc_cal *cand)
{
	if (cand->source != WR_TSC_SOURCE_MONOTONIC_RAW)
		return false;
	return cur->source != WR_TSC_SOURCE_MONOTONIC_RAW ||
	       cand->err_ppb <= cur->err_ppb;
}

uint64_t
wr_tsc_rescale(uint64_t t, uint64_t anchor, uint64_t old_hz, uint64_t new_hz)
{
	unsigned __int128 d;

	if (t == UINT64_MAX || t <= anchor || old_hz == 0 || old_hz == new_hz)
		return t;
	/* Rounded up: a deadline moved never falls before its time. */
	d = ((unsigned __int128)(t - anchor) * new_hz + old_hz - 1) / old_hz;
	if (d >= (unsigned __int128)(UINT64_MAX - anchor))
		return UINT64_MAX;
	return anchor + (uint64_t)d;
}

void
wr_tsc_cal_json(FILE *out, const struct wr_tsc_cal *c)
{
	fprintf(out, "{\"hz\": %llu, \"source\": \"%s\", \"error_ppm\": %.4f, "
		"\"span_s\": %.3f, \"eal_hz\": %llu}",
		(unsigned long long)c->hz, wr_tsc_source_name(c->source),
		(double)c->err_ppb / 1000.0, (double)c->span_ns / 1e9,
		(unsigned long long)c->eal_hz);
}
