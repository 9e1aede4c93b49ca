/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_floss: RFC 2544's frame loss rate test (section 26.3): which rate each step runs, when to stop. */
#include <errno.h>
#include <string.h>

#include "wr_floss.h"
#include "wr_throughput.h"

#define PPM UINT64_C(1000000)
/* "SHOULD be 10 % or less"; below 1 % a test would run 100+ steps. */
#define STEP_PPM_MIN 10000

static uint64_t
step_rate(const struct wr_floss *s, uint32_t k, uint32_t *pct_ppm)
{
	uint64_t down = (uint64_t)k * s->cfg.step_ppm;

	if (down >= PPM)
		return 0;
	*pct_ppm = (uint32_t)(PPM - down);
	return (uint64_t)((unsigned __int128)s->cfg.max_millipps * (PPM - down) /
			  PPM);
}

int
wr_floss_start(struct wr_floss *s, const struct wr_floss_cfg *cfg,
	       uint64_t *rate)
{
	if (s == NULL || cfg == NULL || rate == NULL || cfg->max_millipps == 0)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (s->cfg.step_ppm == 0)
		s->cfg.step_ppm = WR_FLOSS_STEP_PPM_DEFAULT;
	if (s->cfg.step_ppm < STEP_PPM_MIN || s->cfg.step_ppm > PPM)
		return -EINVAL;
	if (s->cfg.clean == 0)
		s->cfg.clean = WR_FLOSS_CLEAN_DEFAULT;
	s->rate = s->cfg.max_millipps;
	*rate = s->rate;
	return 0;
}

int
wr_floss_set_reverse(struct wr_floss *s, uint64_t sent, uint64_t received)
{
	if (s == NULL || s->done || s->rate == 0)
		return -EINVAL;
	s->rev_set = true;
	s->rev_sent = sent;
	s->rev_received = received;
	return 0;
}

int
wr_floss_report(struct wr_floss *s, uint64_t sent, uint64_t received,
		uint64_t offered, uint64_t *rate)
{
	struct wr_floss_step *st;
	uint32_t pct = 0;

	if (s == NULL || rate == NULL || s->done || s->rate == 0 || sent == 0 ||
	    s->n_steps >= WR_FLOSS_STEPS_MAX)
		return -EINVAL;
	st = &s->steps[s->n_steps];
	st->rate_millipps = s->rate;
	step_rate(s, s->n_steps, &st->pct_ppm);
	s->n_steps++;
	st->offered_millipps = offered;
	st->short_offer = wr_rfc2544_short(s->rate, offered,
					   s->cfg.resolution_millipps);
	st->sent = sent;
	st->received = received;
	if (received > sent) {
		st->excess = received - sent;
		st->loss_pct = 0;
		s->clean_run = 0;  /* frames made up: not a clean step */
	} else {
		st->lost = sent - received;
		st->loss_pct = (double)st->lost * 100.0 / (double)sent;
		s->clean_run = st->lost == 0 ? s->clean_run + 1 : 0;
	}
	if (s->rev_set) {
		st->bidir = true;
		st->rev_sent = s->rev_sent;
		st->rev_received = s->rev_received;
		if (s->rev_received > s->rev_sent || s->rev_sent == 0) {
			s->clean_run = 0;
		} else {
			st->rev_lost = s->rev_sent - s->rev_received;
			st->rev_loss_pct = (double)st->rev_lost * 100.0 /
					   (double)s->rev_sent;
			if (st->rev_lost != 0)
				s->clean_run = 0;
		}
		s->rev_set = false;
	}
	if (s->clean_run >= s->cfg.clean) {
		s->stopped_clean = true;
		s->done = true;
	} else {
		s->rate = step_rate(s, s->n_steps, &pct);
		if (s->rate == 0 || s->n_steps >= WR_FLOSS_STEPS_MAX)
			s->done = true;
	}
	if (s->done)
		s->rate = 0;
	*rate = s->rate;
	return s->done ? 1 : 0;
}
