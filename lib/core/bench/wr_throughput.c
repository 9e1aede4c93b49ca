/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_throughput: the RFC 2544 throughput search, with NDR and PDR in one search, without the traffic. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "wr_rate.h"
#include "wr_throughput.h"

typedef unsigned __int128 wr_u128;

#define PPM UINT64_C(1000000)

int
wr_rfc2544_start(struct wr_rfc2544 *s, const struct wr_rfc2544_cfg *cfg,
		 uint64_t *rate)
{
	struct wr_size_avg avg;
	unsigned int k;
	uint64_t ref;
	int rc;

	if (s == NULL || cfg == NULL || rate == NULL)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (cfg->frame_size < WR_FRAME_MIN || cfg->frame_size > WR_FRAME_MAX ||
	    cfg->loss_ppm > PPM || cfg->pdr_loss_ppm > PPM ||
	    (cfg->pdr_loss_ppm != 0 && cfg->pdr_loss_ppm <= cfg->loss_ppm))
		return -EINVAL;
	if (s->cfg.phases == 0)
		s->cfg.phases = 1;
	if (s->cfg.phases > WR_RFC2544_PHASES_MAX)
		return -ERANGE;
	if (s->cfg.phases > 1 &&
	    (cfg->trial_ns == 0 || cfg->first_trial_ns == 0 ||
	     cfg->first_trial_ns > cfg->trial_ns))
		return -EINVAL;
	if (cfg->link_mbps != 0) {
		avg.bytes = cfg->frame_size;
		avg.frames = 1;
		rc = wr_rate_line_millipps(cfg->link_mbps, &avg, &s->line_millipps);
		if (rc != 0)
			return rc;
		if (s->cfg.max_millipps == 0)
			s->cfg.max_millipps = s->line_millipps;
		else if (s->cfg.max_millipps > s->line_millipps)
			return -ERANGE;
	} else if (cfg->max_millipps == 0) {
		return -EINVAL;
	}
	if (s->cfg.min_millipps > s->cfg.max_millipps)
		return -EINVAL;
	if (s->cfg.max_trials == 0)
		s->cfg.max_trials = WR_RFC2544_TRIALS_MAX;
	if (s->cfg.max_trials > WR_RFC2544_TRIALS_MAX)
		return -ERANGE;
	if (s->cfg.resolution_ppm == 0)
		s->cfg.resolution_ppm = WR_RFC2544_RESOLUTION_PPM;
	s->resolution = s->cfg.resolution_millipps;
	if (s->resolution == 0) {
		ref = s->line_millipps != 0 ? s->line_millipps : s->cfg.max_millipps;
		s->resolution = (uint64_t)((wr_u128)ref * s->cfg.resolution_ppm / PPM);
		if (s->resolution == 0)
			s->resolution = 1; /* 1 millipps: bisecting finer is moot */
	}
	s->n_targets = cfg->pdr_loss_ppm != 0 ? 2 : 1;
	for (k = 0; k < s->n_targets; k++) {
		struct wr_rfc2544_target *t = &s->t[k];

		t->loss_ppm = k == WR_RFC2544_NDR ? cfg->loss_ppm :
			      cfg->pdr_loss_ppm;
		t->lo = s->cfg.min_millipps;
		t->lo_state = WR_LO_ASSUMED;
		t->lo_phase = -1;
		t->hi = s->cfg.max_millipps;
		t->hi_phase = -1;
	}
	s->rate = s->cfg.max_millipps;
	*rate = s->rate;
	return 0;
}

uint64_t
wr_rfc2544_trial_ns(const struct wr_rfc2544 *s)
{
	uint32_t last = s->cfg.phases - 1;
	double f;

	if (s->phase >= last)
		return s->cfg.trial_ns;
	/* Geometric between the first and the last phase's lengths, as
	 * MLRsearch's intermediate phases are. */
	f = (double)s->cfg.first_trial_ns *
	    pow((double)s->cfg.trial_ns / (double)s->cfg.first_trial_ns,
		(double)s->phase / (double)last);
	return (uint64_t)(f + 0.5);
}

/* The width a target must reach in the current phase: the resolution in
 * the last, doubled for each phase before it. */
static uint64_t
phase_width(const struct wr_rfc2544 *s)
{
	uint32_t shift = s->cfg.phases - 1 - s->phase;
	uint64_t w = s->resolution;

	while (shift-- > 0 && w < UINT64_MAX / 2)
		w *= 2;
	return w;
}

/* The rate target @p t wants measured next in this phase, 0 if none. */
static uint64_t
target_next(struct wr_rfc2544 *s, struct wr_rfc2544_target *t)
{
	int32_t p = (int32_t)s->phase;

	if (t->done || t->gen_limited)
		return 0;
	/* A lo from shorter trials, or a new candidate below a failure. */
	if (t->lo_state == WR_LO_CANDIDATE ||
	    (t->lo_state == WR_LO_PASSED && t->lo_phase < p))
		return t->lo;
	if (t->top) {
		t->done = true;
		return 0;
	}
	if (t->hi_phase < p)
		return t->hi;
	if (t->hi - t->lo > phase_width(s))
		return t->lo + (t->hi - t->lo) / 2;
	if (t->lo_state == WR_LO_ASSUMED && s->cfg.min_millipps != 0 &&
	    !t->floor_tested)
		return s->cfg.min_millipps; /* does even the floor fail? */
	t->done = true;
	return 0;
}

/* Choose what follows the trial just logged. */
static uint64_t
next_rate(struct wr_rfc2544 *s)
{
	unsigned int k;
	uint64_t r;

	for (;;) {
		for (k = 0; k < s->n_targets; k++) {
			r = target_next(s, &s->t[k]);
			if (r != 0)
				goto found;
		}
		if (s->phase + 1 >= s->cfg.phases) {
			s->converged = true;
			for (k = 0; k < s->n_targets; k++)
				if (s->t[k].gen_limited)
					s->converged = false;
			s->done = true;
			s->rate = 0;
			return 0;
		}
		s->phase++;
		for (k = 0; k < s->n_targets; k++) {
			s->t[k].done = false;
			s->t[k].floor_tested = false;
		}
	}
found:
	s->rate = r;
	if (s->n_trials >= s->cfg.max_trials) {
		s->done = true;
		s->rate = 0;
	}
	return s->rate;
}

uint64_t
wr_rfc2544_offered_millipps(uint64_t sent, uint64_t duration_ns)
{
	wr_u128 v;

	if (duration_ns == 0)
		return 0;
	v = (wr_u128)sent * UINT64_C(1000000000000) / duration_ns;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

bool
wr_rfc2544_short(uint64_t rate, uint64_t offered, uint64_t resolution)
{
	return offered < rate && rate - offered > resolution;
}

uint64_t
wr_rfc2544_short_width(uint64_t rate, uint64_t resolution)
{
	uint64_t w = (uint64_t)((wr_u128)rate * WR_RFC2544_OFFER_PPM / PPM);

	if (w == 0)
		w = 1;
	return w < resolution ? w : resolution;
}

/* A lossy trial at @p r (the offered rate when the generator fell short). */
static void
target_fail(struct wr_rfc2544 *s, struct wr_rfc2544_target *t, uint64_t r)
{
	int32_t p = (int32_t)s->phase;
	uint64_t w, min = s->cfg.min_millipps;

	if (r == min && t->lo_state == WR_LO_ASSUMED) {
		t->floor_tested = true;
		if (r < t->hi || t->hi_phase < p) {
			t->hi = r;
			t->hi_phase = p;
		}
		return;
	}
	if (t->lo_state != WR_LO_ASSUMED && r <= t->lo) {
		/* lo no longer holds (longer trials): below it, twice the
		 * width away, is the next candidate. */
		w = t->hi > t->lo ? t->hi - t->lo : s->resolution;
		w = w * 2 > s->resolution ? w * 2 : s->resolution;
		t->hi = r;
		t->hi_phase = p;
		t->top = false;
		if (r > min && r - min > w) {
			t->lo = r - w;
			t->lo_state = WR_LO_CANDIDATE;
		} else {
			t->lo = min;
			t->lo_state = WR_LO_ASSUMED;
		}
		t->lo_phase = -1;
		return;
	}
	if (r < t->hi || t->hi_phase < p) {
		t->hi = r;
		t->hi_phase = p;
	}
}

/* A trial at @p r that kept within the target's tolerance, having offered
 * @p offered (within the short width of @p r): the search goes on from r,
 * the figure reported is what was offered if lower. */
static void
target_pass(struct wr_rfc2544 *s, struct wr_rfc2544_target *t, uint64_t r,
	    uint64_t offered)
{
	int32_t p = (int32_t)s->phase;
	uint64_t w, max = s->cfg.max_millipps;

	if (r >= t->hi) {
		/* hi (from shorter trials) passes now: above it, twice the
		 * width away, is the next hi to try. */
		w = t->hi > t->lo ? t->hi - t->lo : s->resolution;
		w = w * 2 > s->resolution ? w * 2 : s->resolution;
		t->lo = r;
		t->lo_offered = offered < r ? offered : r;
		t->lo_state = WR_LO_PASSED;
		t->lo_phase = p;
		if (r >= max) {
			t->top = true;
			t->hi = max;
		} else {
			t->hi = max - r > w ? r + w : max;
			t->hi_phase = -1;
		}
		return;
	}
	/* Keep the highest rate passing in this phase (a pass below a lo
	 * from shorter trials replaces it: only this phase's trials count). */
	if (t->lo_state == WR_LO_PASSED && t->lo_phase == p && r < t->lo)
		return;
	t->lo = r;
	t->lo_offered = offered < r ? offered : r;
	t->lo_state = WR_LO_PASSED;
	t->lo_phase = p;
}

int
wr_rfc2544_report(struct wr_rfc2544 *s, uint64_t sent, uint64_t received,
		  uint64_t offered, uint64_t *rate)
{
	return wr_rfc2544_report_rx(s, sent, received, offered, 0, rate);
}

int
wr_rfc2544_report_rx(struct wr_rfc2544 *s, uint64_t sent, uint64_t received,
		     uint64_t offered, uint64_t rx_missed, uint64_t *rate)
{
	struct wr_rfc2544_trial *t;
	unsigned int k;

	if (s == NULL || rate == NULL || s->done || s->rate == 0 || sent == 0 ||
	    s->n_trials >= WR_RFC2544_TRIALS_MAX)
		return -EINVAL;
	t = &s->trials[s->n_trials++];
	t->rate_millipps = s->rate;
	t->trial_ns = wr_rfc2544_trial_ns(s);
	t->phase = s->phase;
	t->offered_millipps = offered;
	t->short_offer = wr_rfc2544_short(s->rate, offered,
		wr_rfc2544_short_width(s->rate, s->resolution));
	t->sent = sent;
	t->received = received;
	t->rx_missed = rx_missed;
	if (received > sent) {
		t->excess = received - sent;
		t->lost = 0;
		t->loss_ratio = 0;
		t->pass = false;
		if (s->n_trials >= s->cfg.max_trials) {
			s->done = true;
			s->rate = 0;
		}
		*rate = s->rate;
		return -EBADMSG;
	}
	t->lost = sent - received;
	t->loss_ratio = (double)t->lost / (double)sent;
	for (k = 0; k < s->n_targets; k++) {
		struct wr_rfc2544_target *g = &s->t[k];
		bool pass = (wr_u128)t->lost * PPM <= (wr_u128)g->loss_ppm * sent;
		/* The device's own loss may be as low as this. */
		uint64_t dev = t->lost > rx_missed ? t->lost - rx_missed : 0;
		bool dev_pass = (wr_u128)dev * PPM <= (wr_u128)g->loss_ppm * sent;

		if (k == WR_RFC2544_NDR)
			t->pass = pass;
		else
			t->pdr_pass = pass;
		if (g->gen_limited)
			continue;
		if (!pass && dev_pass) {
			/* Whether the device passed depends on frames
			 * wirerate missed: nothing above is known. */
			g->gen_limited = true;
			if (g->lo_state == WR_LO_PASSED &&
			    g->lo_offered > g->gen_millipps)
				g->gen_millipps = g->lo_offered;
			continue;
		}
		if (t->short_offer && pass) {
			/* Within the tolerance at what the generator could
			 * offer, untested at the rate asked: any rate above
			 * is beyond what this generator can show, so this
			 * target ends here without a rate. */
			g->gen_limited = true;
			if (offered > g->gen_millipps)
				g->gen_millipps = offered;
			continue;
		}
		if (t->short_offer) {
			/* The device lost frames at the rate it was offered:
			 * a failure there, if it keeps the interval. */
			target_fail(s, g, offered > g->lo || g->lo_state !=
				    WR_LO_PASSED ? offered : s->rate);
			continue;
		}
		if (pass)
			target_pass(s, g, s->rate, offered);
		else
			target_fail(s, g, s->rate);
	}
	*rate = next_rate(s);
	return s->done ? 1 : 0;
}

void
wr_rfc2544_rate_set(struct wr_rfc2544_rate *out, uint64_t millipps,
		    uint16_t frame_size)
{
	out->millipps = millipps;
	/* bits/s = millipps * bytes * 8 / 1000, rounded to nearest */
	out->l2_bps = (uint64_t)(((wr_u128)millipps * frame_size * 8 + 500) /
				 1000);
	out->l1_bps = (uint64_t)(((wr_u128)millipps *
				  (frame_size + WR_L1_OVERHEAD) * 8 + 500) / 1000);
}

static void
rate_of(const struct wr_rfc2544 *s, const struct wr_rfc2544_target *t,
	struct wr_rfc2544_rate *out)
{
	uint64_t r = 0;

	/* Only a rate that passed the last phase's (full-length) trials. */
	if (!t->gen_limited && t->lo_state == WR_LO_PASSED &&
	    t->lo_phase == (int32_t)s->cfg.phases - 1)
		r = t->lo_offered < t->lo ? t->lo_offered : t->lo;
	wr_rfc2544_rate_set(out, r, s->cfg.frame_size);
	out->gen_limited = t->gen_limited;
	out->gen_millipps = t->gen_millipps;
	out->loss_ppm = t->loss_ppm;
}

int
wr_rfc2544_result(const struct wr_rfc2544 *s, struct wr_rfc2544_result *out)
{
	if (s == NULL || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	rate_of(s, &s->t[WR_RFC2544_NDR], &out->ndr);
	out->has_pdr = s->n_targets > 1;
	if (out->has_pdr)
		rate_of(s, &s->t[WR_RFC2544_PDR], &out->pdr);
	out->throughput_millipps = out->ndr.millipps;
	out->l2_bps = out->ndr.l2_bps;
	out->l1_bps = out->ndr.l1_bps;
	out->gen_limited = out->ndr.gen_limited;
	out->gen_millipps = out->ndr.gen_millipps;
	out->line_millipps = s->line_millipps;
	out->resolution_millipps = s->resolution;
	out->phases = s->cfg.phases;
	out->n_trials = s->n_trials;
	out->done = s->done;
	out->converged = s->converged;
	out->trials = s->trials;
	return 0;
}
