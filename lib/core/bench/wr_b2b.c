/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_b2b: RFC 2544's back-to-back test (section 26.4): the longest lossless burst, by search, repeated. */
#include <errno.h>
#include <string.h>

#include "wr_b2b.h"

static void
repeat_start(struct wr_b2b *s)
{
	s->lo = 0;
	s->hi = s->cfg.max_frames;
	s->lo_pass = false;
	s->n_trials = 0;
	s->burst = s->cfg.max_frames;
}

int
wr_b2b_start(struct wr_b2b *s, const struct wr_b2b_cfg *cfg, uint64_t *frames)
{
	if (s == NULL || cfg == NULL || frames == NULL || cfg->max_frames == 0)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (s->cfg.resolution_frames == 0)
		s->cfg.resolution_frames = 1;
	if (s->cfg.repeats == 0)
		s->cfg.repeats = WR_B2B_REPEATS_DEFAULT;
	if (s->cfg.repeats > WR_B2B_REPEATS_MAX)
		return -ERANGE;
	repeat_start(s);
	*frames = s->burst;
	return 0;
}

int
wr_b2b_report(struct wr_b2b *s, uint64_t sent, uint64_t received,
	      bool short_offer, uint64_t *frames)
{
	struct wr_b2b_trial *t;
	bool at_max = false, end;

	if (s == NULL || frames == NULL || s->done || s->burst == 0 ||
	    s->n_trials >= WR_B2B_TRIALS_MAX)
		return -EINVAL;
	t = &s->trials[s->n_trials++];
	t->frames = s->burst;
	t->sent = sent;
	t->received = received;
	t->short_offer = short_offer;
	t->pass = sent == s->burst && received == sent;
	if (t->pass && short_offer) {
		/* Forwarded whole, but not at the rate: no result. */
		t->pass = false;
		s->gen_limited = true;
		s->gen_burst = s->burst;
		s->done = true;
		s->burst = 0;
		*frames = 0;
		return 1;
	}
	if (t->pass) {
		s->lo = s->burst;
		s->lo_pass = true;
		at_max = s->burst == s->cfg.max_frames;
	} else {
		s->hi = s->burst;
	}
	end = at_max || s->hi - s->lo <= s->cfg.resolution_frames ||
	      s->n_trials >= WR_B2B_TRIALS_MAX;
	if (!end) {
		s->burst = s->lo + (s->hi - s->lo) / 2;
		*frames = s->burst;
		return 0;
	}
	s->values[s->n_values] = s->lo_pass ? s->lo : 0;
	s->at_max[s->n_values] = at_max;
	s->trials_per[s->n_values] = s->n_trials;
	s->n_values++;
	s->repeat++;
	if (s->repeat >= s->cfg.repeats) {
		s->done = true;
		s->burst = 0;
		*frames = 0;
		return 1;
	}
	repeat_start(s);
	*frames = s->burst;
	return 2;
}

int
wr_b2b_result(const struct wr_b2b *s, struct wr_b2b_result *out)
{
	uint64_t sum = 0;
	uint32_t i;

	if (s == NULL || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->n = s->n_values;
	out->values = s->values;
	out->gen_limited = s->gen_limited;
	out->gen_burst = s->gen_burst;
	for (i = 0; i < s->n_values; i++) {
		if (i == 0 || s->values[i] < out->min)
			out->min = s->values[i];
		if (s->values[i] > out->max)
			out->max = s->values[i];
		sum += s->values[i];
		out->n_at_max += s->at_max[i];
	}
	if (s->n_values > 0)
		out->avg = (double)sum / s->n_values;
	return 0;
}
