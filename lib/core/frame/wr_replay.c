/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay: lanes, limits and the capture-timing schedule of replayed streams. */
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_pkt_csum.h"
#include "wr_replay.h"
#include "wr_rng.h"

#define NS_PER_S 1000000000ull

void
wr_replay_spec_seed(struct wr_replay_spec *r, uint64_t seed)
{
	uint32_t k;
	unsigned int i;

	if (!r->from_frame) {
		wr_capture_rewrite(&r->cap, r->rewrite, r->field, seed);
		return;
	}
	for (k = 0; k < r->cap.n; k++) {
		uint8_t *b = wr_capture_frame(&r->cap, k);

		for (i = 0; i < r->n_frame_fields; i++) {
			const struct wr_replay_field *f = &r->frame_field[i];

			/* Random tags past the header fields' and the size's. */
			wr_put_be(b + f->offset, wr_field_value_at(
				&f->spec, wr_rng_key(seed, 0x200 + i), k),
				f->width);
		}
		wr_pkt_fix_csums(b, r->cap.len[k]);
	}
}

void
wr_replay_spec_free(struct wr_replay_spec *r)
{
	unsigned int i;

	if (r == NULL)
		return;
	for (i = 0; i < WR_REWRITE__COUNT; i++)
		free(r->field[i].list);
	for (i = 0; i < r->n_frame_fields; i++)
		free(r->frame_field[i].spec.list);
	wr_capture_free(&r->cap);
	free(r);
}

uint32_t
wr_replay_lane_frames(uint32_t n, uint32_t k, uint32_t j)
{
	return j < n ? (n - j + k - 1) / k : 0;
}

/* Frames i < r of one pass that lane j of k sends. */
static uint64_t
lane_below(uint64_t r, uint32_t k, uint32_t j)
{
	return r > j ? (r - j + k - 1) / k : 0;
}

uint64_t
wr_replay_lane_limit(uint32_t n, uint64_t loops, uint64_t count, uint32_t k,
		     uint32_t j)
{
	uint64_t m = wr_replay_lane_frames(n, k, j);
	uint64_t by_count = UINT64_MAX, by_loops = UINT64_MAX;

	if (m == 0)
		return 0;
	if (count != 0)
		by_count = (count / n) * m + lane_below(count % n, k, j);
	if (loops != 0 && (unsigned __int128)loops * m < UINT64_MAX)
		by_loops = loops * m;
	return by_count < by_loops ? by_count : by_loops;
}

uint64_t
wr_replay_pass_ns(const struct wr_capture *c, uint64_t speedup_ppm)
{
	uint64_t span;
	unsigned __int128 p;

	if (c->n < 2 || speedup_ppm == 0)
		return 0;
	span = c->ts_ns[c->n - 1] - c->ts_ns[0];
	if (span == 0)
		return 0;
	p = (unsigned __int128)(span + span / (c->n - 1)) *
		WR_REPLAY_SPEEDUP_ONE / speedup_ppm;
	return p > UINT64_MAX ? UINT64_MAX : (uint64_t)p;
}

void
wr_replay_lane_deadlines(const struct wr_capture *c, uint64_t speedup_ppm,
			 uint64_t hz, uint32_t k, uint32_t j, uint64_t *out)
{
	uint32_t i, m = wr_replay_lane_frames(c->n, k, j);

	for (i = 0; i < m; i++) {
		unsigned __int128 ns = (unsigned __int128)
			(c->ts_ns[j + (uint64_t)i * k] - c->ts_ns[0]) *
			WR_REPLAY_SPEEDUP_ONE / speedup_ppm;

		out[i] = (uint64_t)((ns * hz + NS_PER_S - 1) / NS_PER_S);
	}
}

uint64_t
wr_replay_capture_millipps(const struct wr_capture *c, uint64_t speedup_ppm)
{
	uint64_t pass = wr_replay_pass_ns(c, speedup_ppm);

	if (pass == 0)
		return 0;
	return (uint64_t)((unsigned __int128)c->n * NS_PER_S * 1000 / pass);
}

void
wr_replay_sched_start(struct wr_replay_sched *s, const uint64_t *dl,
		      uint32_t m, uint64_t pass_ns, uint64_t hz, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	s->dl = dl;
	s->m = m;
	s->pass_ns = pass_ns;
	s->hz = hz;
	s->start = s->base = now;
	s->catchup = (uint64_t)((unsigned __int128)WR_REPLAY_CATCHUP_NS * hz /
				NS_PER_S);
}
