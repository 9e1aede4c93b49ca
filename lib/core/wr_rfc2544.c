/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rfc2544: the RFC 2544 throughput binary search, without the traffic. */
#include <errno.h>
#include <string.h>

#include "wr_rate.h"
#include "wr_rfc2544.h"

typedef unsigned __int128 wr_u128;

#define PPM UINT64_C(1000000)

int
wr_rfc2544_start(struct wr_rfc2544 *s, const struct wr_rfc2544_cfg *cfg,
		 uint64_t *rate)
{
	struct wr_size_avg avg;
	uint64_t ref;
	int rc;

	if (s == NULL || cfg == NULL || rate == NULL)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (cfg->frame_size < WR_FRAME_MIN || cfg->frame_size > WR_FRAME_MAX ||
	    cfg->loss_ppm > PPM)
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
	s->lo = s->cfg.min_millipps;
	s->hi = s->cfg.max_millipps;
	s->rate = s->cfg.max_millipps;
	*rate = s->rate;
	return 0;
}

/* Choose what follows the trial just logged. */
static uint64_t
next_rate(struct wr_rfc2544 *s)
{
	if (s->hi - s->lo > s->resolution) {
		s->rate = s->lo + (s->hi - s->lo) / 2;
	} else if (!s->lo_pass && s->cfg.min_millipps != 0 && !s->min_tested) {
		s->rate = s->cfg.min_millipps; /* does even the floor fail? */
	} else {
		s->converged = true;
		s->done = true;
		s->rate = 0;
	}
	if (!s->done && s->n_trials >= s->cfg.max_trials) {
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

int
wr_rfc2544_report(struct wr_rfc2544 *s, uint64_t sent, uint64_t received,
		  uint64_t offered, uint64_t *rate)
{
	struct wr_rfc2544_trial *t;

	if (s == NULL || rate == NULL || s->done || s->rate == 0 || sent == 0 ||
	    s->n_trials >= WR_RFC2544_TRIALS_MAX)
		return -EINVAL;
	t = &s->trials[s->n_trials++];
	t->rate_millipps = s->rate;
	t->offered_millipps = offered;
	t->short_offer = wr_rfc2544_short(s->rate, offered, s->resolution);
	t->sent = sent;
	t->received = received;
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
	t->pass = (wr_u128)t->lost * PPM <= (wr_u128)s->cfg.loss_ppm * sent;
	if (s->rate == s->cfg.min_millipps)
		s->min_tested = true;
	if (t->short_offer && t->pass) {
		/* Lossless at what the generator could offer, untested at the
		 * rate asked: any rate above is beyond what this generator can
		 * show, so the search ends here without a throughput. */
		s->gen_limited = true;
		if (offered > s->gen_millipps)
			s->gen_millipps = offered;
		s->done = true;
		s->rate = 0;
		*rate = 0;
		return 1;
	}
	if (t->short_offer) {
		/* The device lost frames at the rate it was offered: a
		 * failure there (above lo, or the interval would invert). */
		if (offered > s->lo && offered < s->hi)
			s->hi = offered;
		else if (s->rate < s->hi)
			s->hi = s->rate;
	} else if (t->pass) {
		/* only the floor trial can pass below lo; keep the highest */
		if (!s->lo_pass || s->rate > s->lo)
			s->lo = s->rate;
		s->lo_pass = true;
	} else if (s->rate < s->hi) {
		s->hi = s->rate;
	}
	*rate = next_rate(s);
	return s->done ? 1 : 0;
}

int
wr_rfc2544_result(const struct wr_rfc2544 *s, struct wr_rfc2544_result *out)
{
	uint64_t tp;

	if (s == NULL || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	tp = s->lo_pass && !s->gen_limited ? s->lo : 0;
	out->throughput_millipps = tp;
	out->gen_limited = s->gen_limited;
	out->gen_millipps = s->gen_millipps;
	/* bits/s = millipps * bytes * 8 / 1000, rounded to nearest */
	out->l2_bps = (uint64_t)(((wr_u128)tp * s->cfg.frame_size * 8 + 500) / 1000);
	out->l1_bps = (uint64_t)(((wr_u128)tp * (s->cfg.frame_size + WR_L1_OVERHEAD) * 8 +
				  500) / 1000);
	out->line_millipps = s->line_millipps;
	out->resolution_millipps = s->resolution;
	out->n_trials = s->n_trials;
	out->done = s->done;
	out->converged = s->converged;
	out->trials = s->trials;
	return 0;
}
