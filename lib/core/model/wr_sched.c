/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_sched: when streams end, which stream follows, and rate ramps. */
#include <errno.h>
#include <stddef.h>

#include "wr_sched.h"

typedef unsigned __int128 wr_u128;

#define NS_PER_S UINT64_C(1000000000)

static const char *const next_names[] = {
#define WR_X(e, name) [WR_SCHED_NEXT_##e] = name,
	WR_SCHED_NEXTS(WR_X)
#undef WR_X
};

static const char *const shape_names[] = {
#define WR_X(e, name) [WR_RAMP_##e] = name,
	WR_RAMP_SHAPES(WR_X)
#undef WR_X
};

static const char *const end_names[] = {
#define WR_X(e, name) [WR_RAMP_END_##e] = name,
	WR_RAMP_ENDS(WR_X)
#undef WR_X
};

const char *
wr_sched_next_name(enum wr_sched_next n)
{
	return (unsigned int)n < WR_SCHED_NEXT__COUNT ? next_names[n] : NULL;
}

const char *
wr_ramp_shape_name(enum wr_ramp_shape s)
{
	return (unsigned int)s < WR_RAMP__COUNT ? shape_names[s] : NULL;
}

const char *
wr_ramp_end_name(enum wr_ramp_end e)
{
	return (unsigned int)e < WR_RAMP_END__COUNT ? end_names[e] : NULL;
}

int
wr_sched_run_set_end(struct wr_sched_run *r, uint64_t duration_ns,
		     uint64_t tsc_hz, uint64_t start_tsc)
{
	wr_u128 end;

	if (r == NULL || tsc_hz == 0)
		return -EINVAL;
	end = UINT64_MAX;
	if (duration_ns != 0) {
		/* round the duration up to whole ticks: never end early */
		end = start_tsc + ((wr_u128)duration_ns * tsc_hz + NS_PER_S - 1) / NS_PER_S;
		if (end >= UINT64_MAX)
			return -ERANGE;
	}
	r->end_tsc = (uint64_t)end;
	return 0;
}

int
wr_sched_run_start(struct wr_sched_run *r, uint64_t count, uint64_t duration_ns,
		   uint64_t tsc_hz, uint64_t now_tsc)
{
	int rc = wr_sched_run_set_end(r, duration_ns, tsc_hz, now_tsc);

	if (rc != 0)
		return rc;
	if (count == WR_SCHED_NONE)
		r->left = 0;
	else
		r->left = count == 0 ? UINT64_MAX : count;
	return 0;
}

uint64_t
wr_sched_split_count(uint64_t count, unsigned int n_lcores, unsigned int idx)
{
	if (idx >= n_lcores)
		return WR_SCHED_NONE;
	if (count == 0)
		return 0;
	if (idx >= count)
		return WR_SCHED_NONE;
	/* indices idx, idx + K, ... below count */
	return (count - idx - 1) / n_lcores + 1;
}

int
wr_order_init(struct wr_order *s, const enum wr_sched_next *next, uint32_t n,
	    uint64_t loops)
{
	uint32_t i;

	if (s == NULL || next == NULL || n == 0 || n == WR_ORDER_DONE)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if ((unsigned int)next[i] >= WR_SCHED_NEXT__COUNT)
			return -EINVAL;
	s->next = next;
	s->n = n;
	s->active = 0;
	s->loops = loops;
	s->pass = 1;
	return 0;
}

uint32_t
wr_order_end(struct wr_order *s)
{
	if (s->active == WR_ORDER_DONE)
		return WR_ORDER_DONE;
	switch (s->next[s->active]) {
	case WR_SCHED_NEXT_NEXT:
		/* Ostinato: "goto next" on the last stream stops the port */
		s->active = s->active + 1 < s->n ? s->active + 1 : WR_ORDER_DONE;
		break;
	case WR_SCHED_NEXT_FIRST:
		if (s->loops != 0 && s->pass >= s->loops) {
			s->active = WR_ORDER_DONE;
		} else {
			s->pass++;
			s->active = 0;
		}
		break;
	case WR_SCHED_NEXT_STOP:
	default:
		s->active = WR_ORDER_DONE;
		break;
	}
	return s->active;
}

static uint64_t
ramp_delta(const struct wr_ramp *r)
{
	return r->end_millipps >= r->start_millipps ?
		r->end_millipps - r->start_millipps :
		r->start_millipps - r->end_millipps;
}

uint64_t
wr_ramp_n_steps(const struct wr_ramp *r)
{
	uint64_t d = ramp_delta(r);

	/* ceil(d / step) + 1: fits 64 bits for every d but 2^64 - 1, which
	 * wr_ramp_check() refuses */
	return d / r->step_millipps + (d % r->step_millipps != 0) + 1;
}

/* ceil(|end - start| * step_ns / step): when LINEAR reaches end */
static wr_u128
linear_ns(const struct wr_ramp *r)
{
	wr_u128 x = (wr_u128)ramp_delta(r) * r->step_ns;

	return x / r->step_millipps + (x % r->step_millipps != 0);
}

int
wr_ramp_check(const struct wr_ramp *r)
{
	wr_u128 d;

	if (r == NULL || r->start_millipps == 0 || r->end_millipps == 0 ||
	    r->step_millipps == 0 || r->step_ns == 0 ||
	    (unsigned int)r->shape >= WR_RAMP__COUNT ||
	    (unsigned int)r->at_end >= WR_RAMP_END__COUNT)
		return -EINVAL;
	/* see wr_ramp_n_steps(); far beyond any pacer rate anyway */
	if (ramp_delta(r) == UINT64_MAX)
		return -ERANGE;
	if (r->shape == WR_RAMP_STAIRCASE)
		d = (wr_u128)wr_ramp_n_steps(r) * r->step_ns;
	else
		d = linear_ns(r);
	if (d > UINT64_MAX)
		return -ERANGE;
	return 0;
}

uint64_t
wr_ramp_duration_ns(const struct wr_ramp *r)
{
	if (r->shape == WR_RAMP_STAIRCASE)
		return wr_ramp_n_steps(r) * r->step_ns;
	return (uint64_t)linear_ns(r);
}

/* start moved by @p by towards end, clamped to end */
static uint64_t
ramp_move(const struct wr_ramp *r, wr_u128 by)
{
	if (by >= ramp_delta(r))
		return r->end_millipps;
	if (r->end_millipps >= r->start_millipps)
		return r->start_millipps + (uint64_t)by;
	return r->start_millipps - (uint64_t)by;
}

int
wr_ramp_step(const struct wr_ramp *r, uint64_t i, struct wr_ramp_step *out)
{
	if (i >= wr_ramp_n_steps(r))
		return -ERANGE;
	out->start_ns = i * r->step_ns;
	out->rate_millipps = ramp_move(r, (wr_u128)i * r->step_millipps);
	return 0;
}

int
wr_ramp_rate_at(const struct wr_ramp *r, uint64_t t_ns, uint64_t *rate_millipps)
{
	if (t_ns >= wr_ramp_duration_ns(r)) {
		if (r->at_end == WR_RAMP_END_STOP) {
			*rate_millipps = 0;
			return 0;
		}
		*rate_millipps = r->end_millipps;
		return 1;
	}
	if (r->shape == WR_RAMP_STAIRCASE)
		*rate_millipps = ramp_move(r, (wr_u128)(t_ns / r->step_ns) *
					      r->step_millipps);
	else
		*rate_millipps = ramp_move(r, (wr_u128)r->step_millipps * t_ns /
					      r->step_ns);
	return 1;
}
