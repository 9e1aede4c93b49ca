/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rate: rate conversions, port load check, lcore split and the TSC pacer. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "wr_rate.h"

typedef unsigned __int128 wr_u128;

#define NS_PER_S UINT64_C(1000000000)
#define BPS_PER_MBPS UINT64_C(1000000)
#define PPM UINT64_C(1000000)

/* a * b, -ERANGE when it does not fit 128 bits. */
static int
mul128(wr_u128 a, wr_u128 b, wr_u128 *out)
{
	if (__builtin_mul_overflow(a, b, out))
		return -ERANGE;
	return 0;
}

/* A computed packet rate must be a pacer rate: 1..WR_RATE_MAX_MILLIPPS. */
static int
rate_out(wr_u128 q, uint64_t *millipps)
{
	if (q == 0 || q > WR_RATE_MAX_MILLIPPS)
		return -ERANGE;
	*millipps = (uint64_t)q;
	return 0;
}

static int
avg_ok(const struct wr_size_avg *avg)
{
	if (avg == NULL || avg->bytes == 0 || avg->frames == 0)
		return -EINVAL;
	/* bytes + 20 * frames must not wrap (a frame is far below 2^32 bytes) */
	if (avg->frames > (UINT64_MAX - avg->bytes) / WR_L1_OVERHEAD)
		return -ERANGE;
	return 0;
}

static uint64_t
l1_bytes(const struct wr_size_avg *avg)
{
	return avg->bytes + (uint64_t)WR_L1_OVERHEAD * avg->frames;
}

int
wr_size_avg_of(const struct wr_size_spec *s, struct wr_size_avg *avg)
{
	uint64_t n, bytes = 0, frames = 0;
	uint32_t i;

	if (s == NULL || avg == NULL)
		return -EINVAL;
	switch (s->mode) {
	case WR_SIZE_FIXED:
		if (s->fixed == 0)
			return -EINVAL;
		bytes = s->fixed;
		frames = 1;
		break;
	case WR_SIZE_INC:
		if (s->from == 0 || s->from > s->to || s->step == 0)
			return -EINVAL;
		/* arithmetic series from, from + step, ... (n terms <= to) */
		n = (uint64_t)(s->to - s->from) / s->step + 1;
		bytes = n * s->from + (uint64_t)s->step * (n * (n - 1) / 2);
		frames = n;
		break;
	case WR_SIZE_RANDOM:
		if (s->from == 0 || s->from > s->to)
			return -EINVAL;
		/* the mean of a uniform draw in [from, to] is (from + to) / 2 */
		bytes = (uint64_t)s->from + s->to;
		frames = 2;
		break;
	case WR_SIZE_MIX:
		if (s->mix == NULL || s->n_mix == 0)
			return -EINVAL;
		for (i = 0; i < s->n_mix; i++) {
			if (s->mix[i].size == 0 || s->mix[i].weight == 0)
				return -EINVAL;
			bytes += (uint64_t)s->mix[i].size * s->mix[i].weight;
			frames += s->mix[i].weight;
		}
		break;
	default:
		return -EINVAL;
	}
	avg->bytes = bytes;
	avg->frames = frames;
	return 0;
}

/* floor(bps * frames * 1000 / (8 * bytes_per_cycle)) */
static int
bps_to_millipps(uint64_t bps, uint64_t frames, uint64_t cycle_bytes,
		uint64_t *millipps)
{
	wr_u128 num;
	int rc;

	rc = mul128((wr_u128)bps * WR_RATE_MILLI, frames, &num);
	if (rc != 0)
		return rc;
	return rate_out(num / ((wr_u128)cycle_bytes * 8), millipps);
}

int
wr_rate_millipps(const struct wr_rate_spec *spec, const struct wr_size_avg *avg,
		 uint32_t link_mbps, uint64_t *millipps)
{
	int rc;

	if (spec == NULL || millipps == NULL)
		return -EINVAL;
	if (spec->unit == WR_RATE_MAX) {
		*millipps = WR_RATE_UNPACED;
		return 0;
	}
	if (spec->value == 0)
		return -EINVAL;
	if (spec->unit == WR_RATE_PPS)
		return rate_out(spec->value, millipps);
	rc = avg_ok(avg);
	if (rc != 0)
		return rc;
	switch (spec->unit) {
	case WR_RATE_BPS_L2:
		return bps_to_millipps(spec->value, avg->frames, avg->bytes,
				       millipps);
	case WR_RATE_BPS_L1:
		return bps_to_millipps(spec->value, avg->frames, l1_bytes(avg),
				       millipps);
	case WR_RATE_PERCENT:
		if (link_mbps == 0)
			return -EINVAL;
		/* millionths of link_mbps * 1e6 bits/s: link_mbps * value bits/s,
		 * exact, at most 2^32 * 2^64 so checked in 128 bits */
		{
			wr_u128 l1 = (wr_u128)link_mbps * spec->value, num;

			rc = mul128(l1 * WR_RATE_MILLI, avg->frames, &num);
			if (rc != 0)
				return rc;
			return rate_out(num / ((wr_u128)l1_bytes(avg) * 8),
					millipps);
		}
	default:
		return -EINVAL;
	}
}

int
wr_rate_line_millipps(uint32_t link_mbps, const struct wr_size_avg *avg,
		      uint64_t *millipps)
{
	struct wr_rate_spec all = { .unit = WR_RATE_PERCENT, .value = PPM };

	if (link_mbps == 0)
		return -EINVAL;
	return wr_rate_millipps(&all, avg, link_mbps, millipps);
}

static int
u64_out(wr_u128 v, uint64_t *out)
{
	if (v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int
wr_rate_l1_bps(const struct wr_rate_spec *spec, const struct wr_size_avg *avg,
	       uint32_t link_mbps, uint64_t *l1_bps)
{
	wr_u128 num, den;
	int rc;

	if (spec == NULL || l1_bps == NULL)
		return -EINVAL;
	switch (spec->unit) {
	case WR_RATE_MAX:
		if (link_mbps == 0)
			return -EINVAL;
		*l1_bps = (uint64_t)link_mbps * BPS_PER_MBPS;
		return 0;
	case WR_RATE_PERCENT:
		if (link_mbps == 0 || spec->value == 0)
			return -EINVAL;
		return u64_out((wr_u128)link_mbps * spec->value, l1_bps);
	case WR_RATE_BPS_L1:
		if (spec->value == 0)
			return -EINVAL;
		*l1_bps = spec->value;
		return 0;
	case WR_RATE_BPS_L2:
	case WR_RATE_PPS:
		break;
	default:
		return -EINVAL;
	}
	if (spec->value == 0)
		return -EINVAL;
	rc = avg_ok(avg);
	if (rc != 0)
		return rc;
	if (spec->unit == WR_RATE_BPS_L2) {
		/* L2 bits scaled by (bytes + 20 * frames) / bytes */
		rc = mul128(spec->value, l1_bytes(avg), &num);
		den = avg->bytes;
	} else {
		/* pps * 8 * L1 bytes per frame: millipps * 8 * l1 / (1000 * frames) */
		rc = mul128((wr_u128)spec->value * 8, l1_bytes(avg), &num);
		den = (wr_u128)avg->frames * WR_RATE_MILLI;
	}
	if (rc != 0 || num > ~(wr_u128)0 - den / 2)
		return -ERANGE;
	return u64_out((num + den / 2) / den, l1_bps);
}

struct wr_rate_load
wr_rate_load(const uint64_t *l1_bps, unsigned int n, uint32_t link_mbps)
{
	struct wr_rate_load l = { 0, 0, 0, false };
	wr_u128 sum = 0, ratio;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += l1_bps[i]; /* n < 2^32 terms below 2^64: no wrap */
	l.sum_l1_bps = sum > UINT64_MAX ? UINT64_MAX : (uint64_t)sum;
	if (link_mbps == 0)
		return l;
	l.link_bps = (uint64_t)link_mbps * BPS_PER_MBPS;
	ratio = sum * PPM / l.link_bps;
	l.ratio_ppm = ratio > UINT64_MAX ? UINT64_MAX : (uint64_t)ratio;
	l.over = sum > l.link_bps;
	return l;
}

/* "12.4 Gbps": the largest SI unit not above the value, one decimal that is
 * left out when it is 0. */
static void
fmt_bps(uint64_t bps, char *buf, size_t len)
{
	static const struct {
		uint64_t div;
		const char *name;
	} units[] = {
		{ UINT64_C(1000000000), "Gbps" },
		{ UINT64_C(1000000), "Mbps" },
		{ UINT64_C(1000), "kbps" },
		{ 1, "bps" },
	};
	unsigned int u = 0;
	uint64_t tenths;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && bps < units[u].div)
		u++;
	tenths = (uint64_t)(((wr_u128)bps * 10 + units[u].div / 2) / units[u].div);
	if (tenths % 10 == 0)
		snprintf(buf, len, "%" PRIu64 " %s", tenths / 10, units[u].name);
	else
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " %s", tenths / 10,
			 tenths % 10, units[u].name);
}

int
wr_rate_load_format(const struct wr_rate_load *l, unsigned int port,
		    char *buf, size_t len)
{
	char ask[32], link[32];
	uint64_t tenths; /* of a percent: ppm / 1000, rounded */

	fmt_bps(l->sum_l1_bps, ask, sizeof(ask));
	if (l->link_bps == 0)
		return snprintf(buf, len, "port %u: streams ask %s L1, link speed unknown",
				port, ask);
	fmt_bps(l->link_bps, link, sizeof(link));
	tenths = l->ratio_ppm / 1000 + (l->ratio_ppm % 1000 >= 500);
	if (tenths % 10 == 0)
		return snprintf(buf, len, "port %u: streams ask %s L1, link is %s (%" PRIu64 " %%)",
				port, ask, link, tenths / 10);
	return snprintf(buf, len, "port %u: streams ask %s L1, link is %s (%" PRIu64 ".%" PRIu64 " %%)",
			port, ask, link, tenths / 10, tenths % 10);
}

uint64_t
wr_rate_split(uint64_t total_millipps, unsigned int n_lcores, unsigned int idx)
{
	if (idx >= n_lcores)
		return 0;
	if (total_millipps == WR_RATE_UNPACED)
		return WR_RATE_UNPACED;
	return total_millipps / n_lcores + (idx < total_millipps % n_lcores);
}

uint64_t
wr_rate_train_millipps(uint64_t millipps, uint32_t frames, uint64_t gap_ns)
{
	/* A train every (N - 1) * 10^12 / millipps + gap ns: in units of
	 * ns * millipps, (N - 1) * 10^12 + gap * millipps. */
	const unsigned __int128 ps = (unsigned __int128)NS_PER_S * WR_RATE_MILLI;
	unsigned __int128 every;

	if (frames == 0 || millipps == WR_RATE_UNPACED || millipps == 0)
		return millipps;
	every = (unsigned __int128)(frames - 1) * ps +
		(unsigned __int128)gap_ns * millipps;
	if (every == 0)
		return millipps;
	return (uint64_t)((unsigned __int128)frames * ps * millipps / every);
}

/* ---- pacer ---- */

/* Set the within-train spacing for a rate: period = num / den ticks. */
static int
pacer_period(struct wr_pacer *p, uint64_t rate_millipps)
{
	if (rate_millipps == WR_RATE_UNPACED) {
		p->num = 0;
		p->den = 1;
	} else {
		if (rate_millipps == 0)
			return -EINVAL;
		if (rate_millipps > WR_RATE_MAX_MILLIPPS)
			return -ERANGE;
		p->num = p->tsc_hz * WR_RATE_MILLI;
		p->den = rate_millipps;
	}
	p->qp = p->num / p->den;
	p->rpi = p->num % p->den;
	return 0;
}

/*
 * Closed form of the schedule at packet k (relative to t0): the integer
 * and remainder parts the incremental wr_pacer_advance_() would hold.
 * Packet k = j * N + i has m = j * (N - 1) + i spacings and j gaps before it.
 * Returns the deadline, UINT64_MAX when it is beyond the TSC's range.
 */
static uint64_t
pacer_closed(const struct wr_pacer *p, uint64_t k, uint64_t *ip, uint64_t *rp,
	     uint64_t *ig, uint64_t *rg, uint32_t *in_train)
{
	wr_u128 j, m, x, gq, gr, dl;
	uint32_t i = 0;

	if (p->train_frames != 0) {
		j = k / p->train_frames;
		i = (uint32_t)(k % p->train_frames);
		m = j * (p->train_frames - 1) + i;
	} else {
		j = 0;
		m = k;
	}
	x = m * p->num; /* both below 2^64 */
	gr = j * p->rgi; /* rgi < 1e9 */
	gq = j * p->qg + gr / NS_PER_S;
	dl = (wr_u128)p->t0 + x / p->den + (x % p->den != 0) + gq;
	if (ip != NULL) {
		*ip = x / p->den > UINT64_MAX ? UINT64_MAX : (uint64_t)(x / p->den);
		*rp = (uint64_t)(x % p->den);
		*ig = gq > UINT64_MAX ? UINT64_MAX : (uint64_t)gq;
		*rg = (uint64_t)(gr % NS_PER_S);
		*in_train = i;
	}
	return dl > UINT64_MAX ? UINT64_MAX : (uint64_t)dl;
}

int
wr_pacer_init_cfg(struct wr_pacer *p, const struct wr_pacer_cfg *cfg,
		  uint64_t now_tsc)
{
	struct wr_pacer n = { 0 };
	wr_u128 g;
	int rc;

	if (p == NULL || cfg == NULL || cfg->tsc_hz == 0 || cfg->burst == 0)
		return -EINVAL;
	if (cfg->tsc_hz > UINT64_MAX / WR_RATE_MILLI)
		return -ERANGE;
	n.burst = cfg->burst;
	n.cap = cfg->cap == 0 ? cfg->burst : cfg->cap;
	if (n.cap < n.burst)
		return -EINVAL;
	n.tsc_hz = cfg->tsc_hz;
	rc = pacer_period(&n, cfg->rate_millipps);
	if (rc != 0)
		return rc;
	n.train_frames = cfg->burst_frames;
	n.gap_ns = cfg->burst_gap_ns;
	if (n.train_frames != 0) {
		if (cfg->rate_millipps == WR_RATE_UNPACED && n.gap_ns == 0)
			return -EINVAL; /* every deadline at t0: say "max" instead */
		g = (wr_u128)n.gap_ns * n.tsc_hz;
		if (g / NS_PER_S > UINT64_MAX)
			return -ERANGE;
		n.qg = (uint64_t)(g / NS_PER_S);
		n.rgi = (uint64_t)(g % NS_PER_S);
	}
	n.unpaced = cfg->rate_millipps == WR_RATE_UNPACED && n.train_frames == 0;
	n.t0 = now_tsc;
	n.next_tsc = now_tsc;
	*p = n;
	return 0;
}

int
wr_pacer_init(struct wr_pacer *p, uint64_t rate_millipps, uint64_t tsc_hz,
	      uint32_t burst, uint64_t now_tsc)
{
	struct wr_pacer_cfg cfg = {
		.rate_millipps = rate_millipps,
		.tsc_hz = tsc_hz,
		.burst = burst,
	};

	return wr_pacer_init_cfg(p, &cfg, now_tsc);
}

int
wr_pacer_set_rate(struct wr_pacer *p, uint64_t rate_millipps, uint64_t now_tsc)
{
	struct wr_pacer n;
	uint64_t origin, first;
	int rc;

	if (p == NULL)
		return -EINVAL;
	if (p->train_frames != 0)
		return -ENOTSUP;
	n = *p;
	rc = pacer_period(&n, rate_millipps);
	if (rc != 0)
		return rc;
	n.unpaced = rate_millipps == WR_RATE_UNPACED;
	/* Re-base the lattice: its packet 0 is the pending packet, at its old
	 * deadline or one new period from now, whichever comes first. */
	first = now_tsc + n.qp + (n.rpi != 0);
	if (p->unpaced || p->next_tsc <= now_tsc)
		origin = now_tsc;
	else
		origin = p->next_tsc < first ? p->next_tsc : first;
	n.k_base += n.k;
	n.k = 0;
	n.t0 = origin;
	n.next_tsc = origin;
	n.ip = n.rp = 0;
	*p = n;
	return 0;
}

int
wr_pacer_set_hz(struct wr_pacer *p, uint64_t tsc_hz)
{
	struct wr_pacer n;
	uint64_t off, relaid, move, room;
	wr_u128 g;

	if (p == NULL || tsc_hz == 0)
		return -EINVAL;
	if (tsc_hz > UINT64_MAX / WR_RATE_MILLI)
		return -ERANGE;
	if (tsc_hz == p->tsc_hz)
		return 0;
	n = *p;
	n.tsc_hz = tsc_hz;
	if (n.num != 0) {
		n.num = tsc_hz * WR_RATE_MILLI;
		n.qp = n.num / n.den;
		n.rpi = n.num % n.den;
	}
	if (n.train_frames != 0) {
		g = (wr_u128)n.gap_ns * tsc_hz;
		if (g / NS_PER_S > UINT64_MAX)
			return -ERANGE;
		n.qg = (uint64_t)(g / NS_PER_S);
		n.rgi = (uint64_t)(g % NS_PER_S);
	}
	if (!n.unpaced) {
		/* Re-laid from its origin at the new spacing, the schedule
		 * is the rate on the better clock since t0: a duration of D
		 * then holds exactly ceil(rate * D) deadlines, however the
		 * figure moved during it (the end moves with it).  A
		 * refinement moves packet k's deadline by a few periods at
		 * most: later, it waits; earlier, what fell due is owed.
		 * A larger move (a run started on DPDK's rounded figure)
		 * would be a pause or a burst: then packet k keeps its
		 * deadline and the new spacing runs from it. */
		relaid = pacer_closed(&n, n.k, NULL, NULL, NULL, NULL, NULL);
		room = n.cap > n.owed ? (n.cap - n.owed) / 2 : 0;
		move = relaid > p->next_tsc ? relaid - p->next_tsc :
					      p->next_tsc - relaid;
		if (relaid == UINT64_MAX ||
		    (wr_u128)move > (wr_u128)room * n.qp) {
			n.t0 = 0;
			off = pacer_closed(&n, n.k, NULL, NULL, NULL, NULL,
					   NULL);
			if (off == UINT64_MAX || off > p->next_tsc)
				return -ERANGE;
			n.t0 = p->next_tsc - off;
		}
		n.next_tsc = pacer_closed(&n, n.k, &n.ip, &n.rp, &n.ig, &n.rg,
					  &n.in_train);
	}
	*p = n;
	return 0;
}

/* Steps taken one by one before the search: being a few packets late is
 * common (a slow tx_burst), a long stall is not. */
#define FORGIVE_LINEAR 64

void
wr_pacer_forgive_(struct wr_pacer *p, uint64_t now_tsc)
{
	uint64_t lo, hi, step, mid, start = p->k;
	unsigned int i;

	for (i = 0; i < FORGIVE_LINEAR && p->next_tsc <= now_tsc; i++)
		wr_pacer_advance_(p);
	if (p->next_tsc <= now_tsc) {
		/* Galloping then binary search for the first packet whose
		 * deadline is in the future; deadlines never decrease. */
		lo = p->k;
		step = FORGIVE_LINEAR;
		for (;;) {
			hi = lo > UINT64_MAX - step ? UINT64_MAX : lo + step;
			if (hi == UINT64_MAX ||
			    pacer_closed(p, hi, NULL, NULL, NULL, NULL, NULL) > now_tsc)
				break;
			lo = hi;
			if (step <= UINT64_MAX / 2)
				step *= 2;
		}
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (pacer_closed(p, mid, NULL, NULL, NULL, NULL, NULL) <= now_tsc)
				lo = mid;
			else
				hi = mid;
		}
		p->k = hi;
		p->next_tsc = pacer_closed(p, hi, &p->ip, &p->rp, &p->ig, &p->rg,
					   &p->in_train);
	}
	p->skipped += p->k - start;
}

uint64_t
wr_pacer_close(struct wr_pacer *p, uint64_t end_tsc, uint64_t limit)
{
	uint64_t added;

	if (p->unpaced)
		return 0;
	added = wr_pacer_reach(p, end_tsc);
	if (limit != 0 && added > limit) {
		p->skipped -= added - limit;
		added = limit;
	}
	return added;
}
