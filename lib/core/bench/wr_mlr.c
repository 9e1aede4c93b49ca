/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_mlr: MLRsearch (RFC 9971): load classification and conditional throughput exactly as specified, and a controller that narrows each goal through longer and longer trials. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "wr_mlr.h"

#define MILLION 1000000u
/* A target's width is never coarser than half the load. */
#define WIDTH_CAP_PPM 500000u

typedef unsigned __int128 u128;

static bool
high_loss(const struct wr_mlr_trial *t, uint32_t loss_ppm)
{
	uint64_t lost = t->sent > t->received ? t->sent - t->received : 0;

	return (u128)lost * MILLION > (u128)loss_ppm * t->sent;
}

/* The trials of @p t (@p n) that count: all, or those at @p load when
 * @p only (a search's log holds every load's). */
static bool
counts(const struct wr_mlr_trial *t, bool only, uint64_t load)
{
	return !only || t->load == load;
}

static enum wr_mlr_class
classify(const struct wr_mlr_goal *g, const struct wr_mlr_trial *t,
	 unsigned int n, bool only, uint64_t load)
{
	uint64_t full_low = 0, full_high = 0, short_low = 0, short_high = 0;
	uint64_t sum = g->sum_ns ? g->sum_ns : g->final_ns;
	u128 e = g->exceed_ppm, f = MILLION - e;
	u128 bal, sh, excess, eff_high, eff_full, eff_whole;
	bool pessimistic, optimistic;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bool full = t[i].duration_ns >= g->final_ns;
		bool high = high_loss(&t[i], g->loss_ppm);

		if (!counts(&t[i], only, load))
			continue;
		if (full && high)
			full_high += t[i].duration_ns;
		else if (full)
			full_low += t[i].duration_ns;
		else if (high)
			short_high += t[i].duration_ns;
		else
			short_low += t[i].duration_ns;
	}
	/* Appendix A, every quantity scaled by (1 - exceed ratio) so that the
	 * exceed coefficient e / (1 - e) needs no division:
	 *   balancing = short_low * e / (1 - e)
	 *   positive_excess = max(0, short_high - balancing)
	 *   effective_high = full_high + positive_excess
	 *   effective_whole = max(full_low + effective_high, goal_sum)
	 *   pessimistic: effective_whole - full_low <= effective_whole * e
	 *   optimistic:  effective_high <= effective_whole * e */
	bal = (u128)short_low * e;
	sh = (u128)short_high * f;
	excess = sh > bal ? sh - bal : 0;
	eff_high = (u128)full_high * f + excess;
	eff_full = (u128)full_low * f + eff_high;
	eff_whole = eff_full > (u128)sum * f ? eff_full : (u128)sum * f;
	pessimistic = (eff_whole - (u128)full_low * f) * MILLION <= e * eff_whole;
	optimistic = eff_high * MILLION <= e * eff_whole;
	if (pessimistic && optimistic)
		return WR_MLR_LOWER;
	if (!pessimistic && !optimistic)
		return WR_MLR_UPPER;
	return WR_MLR_UNDECIDED;
}

enum wr_mlr_class
wr_mlr_classify(const struct wr_mlr_goal *g, const struct wr_mlr_trial *t,
		unsigned int n)
{
	return classify(g, t, n, false, 0);
}

static double
conditional(const struct wr_mlr_goal *g, const struct wr_mlr_trial *t,
	    unsigned int n, bool only, uint64_t load)
{
	double loss[WR_MLR_TRIALS_MAX], dur[WR_MLR_TRIALS_MAX];
	double full_s = 0, whole, remaining, q = -1;
	double sum_s = (double)(g->sum_ns ? g->sum_ns : g->final_ns) / 1e9;
	unsigned int i, j, m = 0;
	bool broke = false;

	for (i = 0; i < n && m < WR_MLR_TRIALS_MAX; i++) {
		uint64_t lost;
		double l, d;

		if (!counts(&t[i], only, load) ||
		    t[i].duration_ns < g->final_ns || t[i].sent == 0)
			continue;
		lost = t[i].sent > t[i].received ? t[i].sent - t[i].received : 0;
		l = (double)lost / (double)t[i].sent;
		d = (double)t[i].duration_ns / 1e9;
		/* Insertion by increasing loss ratio (Appendix B's order). */
		for (j = m; j > 0 && loss[j - 1] > l; j--) {
			loss[j] = loss[j - 1];
			dur[j] = dur[j - 1];
		}
		loss[j] = l;
		dur[j] = d;
		m++;
		full_s += d;
	}
	whole = full_s > sum_s ? full_s : sum_s;
	remaining = whole * (1.0 - (double)g->exceed_ppm / MILLION);
	for (i = 0; i < m; i++) {
		if (q >= 0 && remaining <= 0) {
			broke = true;
			break;
		}
		q = loss[i];
		remaining -= dur[i];
	}
	if (!broke && remaining > 0)
		q = 1.0;
	if (!only)
		load = n > 0 ? t[0].load : 0;
	return (double)load / 1e3 * (1.0 - q);
}

double
wr_mlr_conditional(const struct wr_mlr_goal *g, const struct wr_mlr_trial *t,
		   unsigned int n)
{
	return conditional(g, t, n, false, 0);
}

/* ---- targets ---- */

/* Goal @p g approached at @p level (0 .. phases; phases: the goal itself):
 * trials initial * (final/initial)^(level/phases) long, the duration sum in
 * the goal's proportion, the width doubled per level short of the last. */
static void
target(const struct wr_mlr *s, uint32_t level, uint32_t g,
       struct wr_mlr_goal *t)
{
	const struct wr_mlr_goal *goal = &s->cfg.goals[g];
	uint32_t p = s->phases;
	uint64_t w;

	*t = *goal;
	if (level >= p)
		return;
	t->final_ns = (uint64_t)llround((double)goal->initial_ns *
		pow((double)goal->final_ns / (double)goal->initial_ns,
		    (double)level / (double)p));
	if (t->final_ns == 0)
		t->final_ns = 1;
	t->sum_ns = (uint64_t)((double)goal->sum_ns * (double)t->final_ns /
			       (double)goal->final_ns);
	if (t->sum_ns < t->final_ns)
		t->sum_ns = t->final_ns;
	w = (uint64_t)goal->width_ppm << (p - level);
	t->width_ppm = w > WIDTH_CAP_PPM ? WIDTH_CAP_PPM : (uint32_t)w;
}

/* The distinct loads measured, ascending. */
static unsigned int
loads(const struct wr_mlr *s, uint64_t *out)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < s->n_trials; i++) {
		uint64_t l = s->trials[i].load;

		for (j = 0; j < n && out[j] != l; j++)
			;
		if (j < n)
			continue;
		for (j = n; j > 0 && out[j - 1] > l; j--)
			out[j] = out[j - 1];
		out[j] = l;
		n++;
	}
	return n;
}

/* What a target sees: every measured load's class, the relevant bounds. */
struct view {
	uint64_t load[WR_MLR_TRIALS_MAX];
	enum wr_mlr_class cls[WR_MLR_TRIALS_MAX];
	unsigned int n;
	bool has_upper, has_lower;
	uint64_t upper, lower;
};

static void
survey(const struct wr_mlr *s, const struct wr_mlr_goal *t, struct view *v)
{
	unsigned int i;

	v->n = loads(s, v->load);
	v->has_upper = v->has_lower = false;
	for (i = 0; i < v->n; i++)
		v->cls[i] = classify(t, s->trials, s->n_trials, true,
				     v->load[i]);
	for (i = 0; i < v->n && !v->has_upper; i++)
		if (v->cls[i] == WR_MLR_UPPER) {
			v->has_upper = true;
			v->upper = v->load[i];
		}
	for (i = v->n; i-- > 0;)
		if (v->cls[i] == WR_MLR_LOWER &&
		    (!v->has_upper || v->load[i] < v->upper)) {
			v->has_lower = true;
			v->lower = v->load[i];
			break;
		}
}

/* The lowest forwarding rate the trials at @p load achieved, millipps. */
static uint64_t
forwarding_rate(const struct wr_mlr *s, uint64_t load)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < s->n_trials; i++) {
		const struct wr_mlr_trial *t = &s->trials[i];
		uint64_t rx, fr;

		if (t->load != load || t->duration_ns == 0)
			continue;
		rx = t->received < t->sent ? t->received : t->sent;
		fr = (uint64_t)((u128)rx * 1000000000000ull / t->duration_ns);
		if (fr < best)
			best = fr;
	}
	return best;
}

/* Choose the next trial for the target in hand, moving on to the next
 * target when this one is settled.  @return true with s->next_*, false
 * when every target is settled. */
static bool
plan(struct wr_mlr *s)
{
	struct view v;
	struct wr_mlr_goal t;
	const uint64_t max = s->cfg.max_millipps, min = s->cfg.min_millipps;

	while (s->level <= s->phases) {
		unsigned int i;
		uint64_t cand = 0;

		target(s, s->level, s->goal, &t);
		survey(s, &t, &v);
		/* A load between the bounds not classified yet: measured
		 * again, the smallest first. */
		for (i = 0; i < v.n && cand == 0; i++)
			if (v.cls[i] == WR_MLR_UNDECIDED &&
			    (!v.has_lower || v.load[i] > v.lower) &&
			    (!v.has_upper || v.load[i] < v.upper))
				cand = v.load[i];
		if (cand == 0 && !v.has_upper) {
			bool max_seen = v.n > 0 && v.load[v.n - 1] == max;

			if (!max_seen)
				cand = max;
			/* else: the max is a lower bound, nothing above */
		} else if (cand == 0 && !v.has_lower) {
			if (v.upper > min) {
				/* Below the upper bound: first the rate it
				 * forwarded, then steps doubling away. */
				uint64_t step = (uint64_t)t.width_ppm <<
						(s->expansions < 20 ? s->expansions : 20);
				uint64_t below;

				if (step >= MILLION)
					step = MILLION - MILLION / 16;
				below = (uint64_t)((u128)v.upper * (MILLION - step) /
						   MILLION);
				if (s->expansions == 0) {
					uint64_t fr = forwarding_rate(s, v.upper);

					if (fr < below)
						below = fr;
				}
				if (below < min)
					below = min;
				if (below >= v.upper)
					below = v.upper - 1;
				s->expansions++;
				cand = below;
			}
			/* else: even the min failed */
		} else if (cand == 0) {
			uint64_t mid = v.lower + (v.upper - v.lower) / 2;

			if ((u128)(v.upper - v.lower) * MILLION >
			    (u128)t.width_ppm * v.upper && mid != v.lower)
				cand = mid;
		}
		if (cand != 0) {
			s->next_load = cand;
			s->next_ns = t.final_ns;
			return true;
		}
		/* This target is settled: the next goal, or the next level. */
		s->expansions = 0;
		if (++s->goal == s->cfg.n_goals) {
			s->goal = 0;
			s->level++;
		}
	}
	return false;
}

/* ---- the search ---- */

static uint32_t
auto_phases(const struct wr_mlr_cfg *cfg)
{
	double ratio = 1;
	unsigned int g;
	uint32_t p;

	for (g = 0; g < cfg->n_goals; g++) {
		double r = (double)cfg->goals[g].final_ns /
			   (double)(cfg->goals[g].initial_ns ?
				    cfg->goals[g].initial_ns :
				    cfg->goals[g].final_ns);

		if (r > ratio)
			ratio = r;
	}
	/* A phase per two doublings of the trial duration: 1 s to 60 s in
	 * three intermediate targets (1, 2.8, 7.7, 21.5 s, then 60 s). */
	p = (uint32_t)ceil(log2(ratio) / 2.0);
	return p > WR_MLR_PHASES_MAX ? WR_MLR_PHASES_MAX : p;
}

int
wr_mlr_start(struct wr_mlr *s, const struct wr_mlr_cfg *cfg, uint64_t *load,
	     uint64_t *ns)
{
	unsigned int g;

	memset(s, 0, sizeof(*s));
	if (cfg->n_goals == 0 || cfg->max_millipps == 0)
		return -EINVAL;
	if (cfg->n_goals > WR_MLR_GOALS_MAX || cfg->phases > WR_MLR_PHASES_MAX ||
	    cfg->max_trials > WR_MLR_TRIALS_MAX)
		return -ERANGE;
	s->cfg = *cfg;
	for (g = 0; g < cfg->n_goals; g++) {
		struct wr_mlr_goal *x = &s->cfg.goals[g];

		if (x->loss_ppm >= MILLION || x->exceed_ppm >= MILLION ||
		    x->final_ns == 0 || x->width_ppm == 0 ||
		    x->width_ppm >= MILLION)
			return -EINVAL;
		if (x->sum_ns == 0)
			x->sum_ns = x->final_ns;
		if (x->initial_ns == 0)
			x->initial_ns = x->final_ns;
		if (x->initial_ns > x->final_ns)
			return -EINVAL;
	}
	if (s->cfg.min_millipps == 0)
		s->cfg.min_millipps = s->cfg.max_millipps / 10000 ?
				      s->cfg.max_millipps / 10000 : 1;
	if (s->cfg.min_millipps >= s->cfg.max_millipps)
		return -EINVAL;
	if (s->cfg.max_trials == 0)
		s->cfg.max_trials = WR_MLR_TRIALS_MAX;
	s->phases = cfg->phases ? cfg->phases : auto_phases(&s->cfg);
	if (!plan(s))
		return -EINVAL; /* cannot happen: the max is unmeasured */
	*load = s->next_load;
	*ns = s->next_ns;
	return 0;
}

int
wr_mlr_report(struct wr_mlr *s, uint64_t sent, uint64_t received,
	      uint64_t offered, uint64_t *load, uint64_t *ns)
{
	struct wr_mlr_trial *t;

	if (s->done || sent == 0)
		return -EINVAL;
	t = &s->trials[s->n_trials++];
	t->load = s->next_load;
	t->duration_ns = s->next_ns;
	t->sent = sent;
	t->received = received;
	t->offered = offered;
	t->target = s->level * s->cfg.n_goals + s->goal;
	if (s->n_trials >= s->cfg.max_trials) {
		s->done = s->out_of_trials = true;
		return 1;
	}
	if (!plan(s)) {
		s->done = true;
		return 1;
	}
	*load = s->next_load;
	*ns = s->next_ns;
	return 0;
}

int
wr_mlr_result(const struct wr_mlr *s, unsigned int g, struct wr_mlr_result *out)
{
	const struct wr_mlr_goal *goal;
	struct view v;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (g >= s->cfg.n_goals)
		return -EINVAL;
	goal = &s->cfg.goals[g];
	survey(s, goal, &v);
	out->has_upper = v.has_upper;
	out->upper = v.upper;
	out->has_lower = v.has_lower;
	out->lower = v.lower;
	if (!v.has_upper && v.n > 0 && v.load[v.n - 1] == s->cfg.max_millipps &&
	    v.cls[v.n - 1] == WR_MLR_LOWER) {
		out->max_is_lower = true; /* reported as an effective lower bound */
		out->has_lower = true;
		out->lower = s->cfg.max_millipps;
	}
	out->min_is_upper = v.has_upper && v.upper <= s->cfg.min_millipps;
	out->regular = v.has_upper && v.has_lower &&
		(u128)(v.upper - v.lower) * MILLION <=
		(u128)goal->width_ppm * v.upper;
	if (!out->has_lower)
		return 0;
	out->conditional_pps = conditional(goal, s->trials, s->n_trials, true,
					   out->lower);
	for (i = 0; i < s->n_trials; i++) {
		const struct wr_mlr_trial *t = &s->trials[i];
		uint64_t off = t->offered < t->load ? t->offered : t->load;

		if (t->load == out->lower &&
		    (u128)(t->load - off) * MILLION > (u128)goal->width_ppm * t->load)
			out->short_offer = true;
	}
	return 0;
}

uint32_t
wr_mlr_trials_estimate(const struct wr_mlr_cfg *cfg)
{
	struct wr_mlr s;
	uint32_t n = 0, level;
	unsigned int g;

	if (cfg->n_goals == 0 || cfg->n_goals > WR_MLR_GOALS_MAX)
		return 0;
	memset(&s, 0, sizeof(s));
	s.cfg = *cfg;
	for (g = 0; g < cfg->n_goals; g++) {
		if (s.cfg.goals[g].initial_ns == 0)
			s.cfg.goals[g].initial_ns = s.cfg.goals[g].final_ns;
		if (s.cfg.goals[g].sum_ns == 0)
			s.cfg.goals[g].sum_ns = s.cfg.goals[g].final_ns;
		if (s.cfg.goals[g].final_ns == 0 || s.cfg.goals[g].width_ppm == 0)
			return 0;
	}
	s.phases = cfg->phases ? cfg->phases : auto_phases(&s.cfg);
	/* The first target bisects from the max to its width; each later
	 * one re-measures its two bounds (as often as its duration sum asks)
	 * and halves once; a goal after the first shares most trials. */
	for (g = 0; g < cfg->n_goals; g++)
		for (level = 0; level <= s.phases; level++) {
			struct wr_mlr_goal t;
			uint32_t k, per;

			target(&s, level, g, &t);
			per = (uint32_t)((t.sum_ns + t.final_ns - 1) / t.final_ns);
			k = level == 0 && g == 0 ?
			    2 + (uint32_t)ceil(log2((double)MILLION / t.width_ppm)) :
			    2 * per + 1;
			n += g == 0 ? k : (k + 1) / 2;
		}
	return n;
}
