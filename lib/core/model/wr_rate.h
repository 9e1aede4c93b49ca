/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rate: rate conversions, port load check, lcore split and the TSC pacer. */
#ifndef WR_RATE_H
#define WR_RATE_H

/**
 * @file
 * Rates inside wirerate are packet rates in milli-packets per second
 * ("millipps"): 1 pps = 1000, 14.88 Mpps = 14880952380.  An integer with
 * that unit holds a 1 pps stream to 0.1 % and 100 GbE at 64 bytes
 * (1.5 * 10^11) with room to spare in 64 bits.
 *
 * Conversion (wr_rate_millipps()).  A stream's frame sizes are summarised by
 * a struct wr_size_avg: bytes and frames per cycle (a fixed size is
 * {size, 1}; simple IMIX is {7*64 + 4*594 + 1518, 12}), so a bit rate turns
 * into a packet rate with one exact division:
 *
 *     PPS      millipps = value
 *     BPS_L2   millipps = floor(value * frames * 1000 / (8 * bytes))
 *     BPS_L1   millipps = floor(value * frames * 1000 / (8 * (bytes + 20 * frames)))
 *     PERCENT  as BPS_L1 with value = link_mbps * 1e6 * (value / 1e6)
 *     MAX      WR_RATE_UNPACED (as fast as the port takes frames)
 *
 * PERCENT above 100 % converts as asked: wr_rate_load() is where an
 * oversubscribed port is reported.
 * 20 is the IEEE 802.3 per-frame overhead on the wire (preamble, SFD,
 * inter-frame gap), as in wr_stats.h.  The result is rounded *down*, so a
 * stream never asks more than the user wrote (error < 1 millipps), and
 * streams summing to 100 % never exceed the link.  Products are computed in
 * 128 bits; nothing is rounded before the final division.
 *
 * Pacer (struct wr_pacer).  One per (TX lcore, stream).  Packet k of the
 * schedule (k = 0, 1, ...) has the deadline
 *
 *     t0 + ceil(k * 1000 * tsc_hz / rate_millipps)        [TSC ticks]
 *
 * kept incrementally as an integer part and a remainder over rate_millipps
 * (a Bresenham accumulator): no floating point, no division per packet, no
 * drift however long the run.  Polled at time t with every grant taken, the
 * packets released (granted minus refunded) plus those forgiven after
 * stalls equal floor(rate * (t - t0)) + 1 exactly: packet 0 leaves at once.
 *
 * wr_pacer_due() grants at most `burst` packets per call.  Packets whose
 * deadline passed but that were not granted yet are "owed"; at most `cap`
 * of them are kept (cap >= burst).  When more are owed, the pacer drops the
 * excess (counted in `skipped`) and keeps its lattice, so after a stall of
 * any length the port sees at most `cap` packets back to back, then the
 * normal spacing.  cap == burst (the default) means "one burst".
 *
 * Bursts mode (wr_pacer_cfg.burst_frames = N > 0, as TRex multi-burst):
 * trains of N frames spaced at the stream's rate (back to back with
 * WR_RATE_UNPACED), and burst_gap_ns from the deadline of a train's last
 * frame to that of the next train's first frame.  Train j starts at
 * t0 + j * ((N - 1) * period + gap), again exact.
 *
 * Threads: a pacer belongs to one lcore; nothing here locks.  The
 * conversion functions are pure and may be called from any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_stream.h"

/** Rate of a MAX stream: no spacing at all. */
#define WR_RATE_UNPACED UINT64_MAX
/** Millipps per pps. */
#define WR_RATE_MILLI 1000u
/**
 * Largest paced rate: 2^62 millipps.  Keeps the pacer's remainder sum
 * (two values below the rate) under 2^64; 3 * 10^7 times a 100 GbE line rate.
 */
#define WR_RATE_MAX_MILLIPPS (UINT64_C(1) << 62)

/** Frame sizes of a stream as bytes (FCS included) per frames of a cycle. */
struct wr_size_avg {
	uint64_t bytes;
	uint64_t frames;
};

/**
 * Bytes and frames per cycle of a stream's size spec.
 * FIXED {size, 1}; INC the sum of from, from+step, ... <= to and their
 * count; RANDOM {from + to, 2} (the mean of the uniform draw); MIX
 * {sum(size * weight), sum(weight)}.
 * @return 0, or -EINVAL for an inconsistent spec (size 0, from > to,
 *         step 0, empty mix, weight 0).
 */
int wr_size_avg_of(const struct wr_size_spec *s, struct wr_size_avg *avg);

/**
 * Target packet rate of a rate spec.
 * @param spec       the stream's rate
 * @param avg        the stream's sizes (wr_size_avg_of()); unused for PPS and MAX
 * @param link_mbps  the port's link speed, 0 if unknown
 * @param millipps   out: the rate, WR_RATE_UNPACED for MAX
 * @return 0; -EINVAL for a zero value, an empty @p avg, or PERCENT with an
 *         unknown link; -ERANGE when the rate is below 1 millipps or above
 *         WR_RATE_MAX_MILLIPPS.
 */
int wr_rate_millipps(const struct wr_rate_spec *spec,
		     const struct wr_size_avg *avg, uint32_t link_mbps,
		     uint64_t *millipps);

/**
 * Line rate of a link for the sizes @p avg (100 % of the link at L1),
 * rounded down.  10 GbE at 64 bytes: 14880952380.
 * @return 0, -EINVAL (link 0, empty avg), -ERANGE.
 */
int wr_rate_line_millipps(uint32_t link_mbps, const struct wr_size_avg *avg,
			  uint64_t *millipps);

/**
 * L1 bit rate a stream asks for, for the port load check.  BPS_L1 and
 * PERCENT are exact; PPS and BPS_L2 are rounded to the nearest bit/s.  MAX
 * asks for the whole link.
 * @return 0; -EINVAL as wr_rate_millipps(), or MAX with an unknown link;
 *         -ERANGE above 2^64 - 1 bits/s.
 */
int wr_rate_l1_bps(const struct wr_rate_spec *spec,
		   const struct wr_size_avg *avg, uint32_t link_mbps,
		   uint64_t *l1_bps);

/** What the streams of one port ask of its link. */
struct wr_rate_load {
	uint64_t sum_l1_bps; /**< sum of the streams' L1 rates, saturated */
	uint64_t link_bps;   /**< 0 when the link speed is unknown */
	uint64_t ratio_ppm;  /**< sum / link in millionths (1240000 = 124 %), 0 if unknown */
	bool over;           /**< sum > link (false when the link is unknown) */
};

/**
 * Sum @p n streams' L1 rates (wr_rate_l1_bps()) against a link.
 * @p l1_bps may be NULL when n is 0.
 */
struct wr_rate_load wr_rate_load(const uint64_t *l1_bps, unsigned int n,
				 uint32_t link_mbps);

/**
 * Render a load as one line, e.g.
 * "port 0: streams ask 12.4 Gbps L1, link is 10 Gbps (124 %)"
 * or "port 1: streams ask 400 Mbps L1, link speed unknown".
 * @return the number of characters written, as snprintf.
 */
int wr_rate_load_format(const struct wr_rate_load *l, unsigned int port,
			char *buf, size_t len);

/**
 * Share of TX lcore @p idx of @p n_lcores in a stream's rate: lcore j sends
 * indices j, j + K, ... (wr_frame.h), so every lcore gets total / K and the
 * first total % K lcores one millipps more: the shares sum to @p total.
 * WR_RATE_UNPACED stays unpaced.  Returns 0 when idx >= n_lcores.
 */
uint64_t wr_rate_split(uint64_t total_millipps, unsigned int n_lcores,
		       unsigned int idx);

/**
 * The average rate of a stream sent in trains (wr_pacer_cfg.burst_frames):
 * @p frames frames every (frames - 1) periods of @p millipps plus
 * @p gap_ns, the schedule of the file comment, rounded down.  This, not
 * the within-train rate, is what the stream's frames over its time come
 * to.  @p frames 0 (no trains) returns @p millipps; WR_RATE_UNPACED trains
 * (back to back) have no average the schedule alone fixes: WR_RATE_UNPACED.
 */
uint64_t wr_rate_train_millipps(uint64_t millipps, uint32_t frames,
				uint64_t gap_ns);

/** Pacer set-up; see the file comment. */
struct wr_pacer_cfg {
	uint64_t rate_millipps; /**< 1..WR_RATE_MAX_MILLIPPS, or WR_RATE_UNPACED */
	uint64_t tsc_hz;        /**< TSC frequency, >= 1 */
	uint32_t burst;         /**< most packets one wr_pacer_due() grants, >= 1 */
	uint32_t cap;           /**< most packets owed after a stall; 0 = burst */
	uint32_t burst_frames;  /**< bursts mode: frames per train; 0 = continuous */
	uint64_t burst_gap_ns;  /**< bursts mode: gap between trains */
};

/**
 * A pacer.  Fields are internal except the statistics at the end, which
 * the owning lcore may read.
 */
struct wr_pacer {
	uint64_t next_tsc;  /* deadline of packet k */
	uint32_t owed;      /* due (or refunded), not granted yet; <= cap */
	uint32_t last;      /* the last grant, until wr_pacer_sent() */
	uint32_t burst;
	uint32_t cap;
	uint32_t train_frames; /* N, 0 = continuous */
	uint32_t in_train;     /* k % N */
	bool unpaced;
	uint64_t t0;
	uint64_t k;          /* index of the next packet, from t0 */
	uint64_t k_base;     /* packets scheduled before the last re-base */
	/* within-train spacing: ip + rp / den ticks, step qp + rpi / den */
	uint64_t ip, rp, qp, rpi, den, num;
	/* gaps between trains: ig + rg / 1e9 ticks, step qg + rgi / 1e9 */
	uint64_t ig, rg, qg, rgi;
	uint64_t gap_ns;
	uint64_t tsc_hz;
	/* statistics */
	uint64_t granted;   /**< packets granted by wr_pacer_due() */
	uint64_t refunded;  /**< packets handed back by wr_pacer_sent() */
	uint64_t skipped;   /**< packets forgiven because more than cap were owed */
};

/**
 * Start a pacer at @p now_tsc: packet 0 is due at once.
 * @return 0; -EINVAL (rate 0, tsc_hz 0, burst 0, cap < burst, bursts mode
 *         without a gap when unpaced); -ERANGE (rate above
 *         WR_RATE_MAX_MILLIPPS, a period or gap beyond 2^64 ticks).
 */
int wr_pacer_init_cfg(struct wr_pacer *p, const struct wr_pacer_cfg *cfg,
		      uint64_t now_tsc);

/** Continuous pacer with cap = burst: wr_pacer_init_cfg() shorthand.
 * @return as wr_pacer_init_cfg(): 0, -EINVAL or -ERANGE. */
int wr_pacer_init(struct wr_pacer *p, uint64_t rate_millipps, uint64_t tsc_hz,
		  uint32_t burst, uint64_t now_tsc);

/**
 * Change the rate of a continuous pacer (a ramp step) at @p now_tsc.  The
 * next packet keeps its deadline if that comes before one new period from
 * now; then the new spacing applies.  Owed packets and statistics are kept.
 * @return 0, errors as wr_pacer_init_cfg(), -ENOTSUP in bursts mode.
 */
int wr_pacer_set_rate(struct wr_pacer *p, uint64_t rate_millipps,
		      uint64_t now_tsc);

/**
 * Give the pacer a new TSC frequency (a refined calibration, wr_clock.h).
 * The lattice is laid again from t0 at @p tsc_hz, so that packet k's
 * deadline is k periods of the better clock from the start: with the end
 * of a duration moved the same way, the run holds ceil(rate * duration)
 * deadlines whatever the figure did meanwhile.  The pending packet's
 * deadline moves by at most (cap - owed) / 2 periods that way (later: it
 * waits; earlier: the packets that fell due are owed, up to the cap).  A
 * larger move keeps the pending packet's deadline instead and spaces the
 * packets after it at @p tsc_hz: nothing owed is lost or added, and the
 * rate is right from then on.  Works in both modes.
 * @return 0; -EINVAL (tsc_hz 0, NULL); -ERANGE (a period or gap beyond
 *         the TSC's range).  The pacer is unchanged on error.
 */
int wr_pacer_set_hz(struct wr_pacer *p, uint64_t tsc_hz);

/** Slow path of wr_pacer_due(): drop what exceeds the cap.  Internal. */
void wr_pacer_forgive_(struct wr_pacer *p, uint64_t now_tsc);

static inline void
wr_pacer_advance_(struct wr_pacer *p)
{
	p->k++;
	if (p->train_frames != 0 && ++p->in_train == p->train_frames) {
		p->in_train = 0;
		p->ig += p->qg;
		p->rg += p->rgi;
		if (p->rg >= UINT64_C(1000000000)) {
			p->rg -= UINT64_C(1000000000);
			p->ig++;
		}
	} else {
		p->ip += p->qp;
		p->rp += p->rpi;
		if (p->rp >= p->den) {
			p->rp -= p->den;
			p->ip++;
		}
	}
	p->next_tsc = p->t0 + p->ip + (p->rp != 0) + p->ig;
}

/**
 * Take a paced pacer's schedule to @p t_tsc, granting nothing: the packets
 * due by then are owed, up to cap; beyond it they are skipped (a stall).
 * wr_pacer_due() is this and a grant; alone it closes a step of a ramp or
 * an activation at the time it should have ended, however late the lcore
 * came to it, so that each step's packets are its own.
 * @return the packets it added to skipped.
 */
static inline uint64_t
wr_pacer_reach(struct wr_pacer *p, uint64_t t_tsc)
{
	uint64_t skipped = p->skipped;

	while (p->owed < p->cap && p->next_tsc <= t_tsc) {
		wr_pacer_advance_(p);
		p->owed++;
	}
	if (__builtin_expect(p->next_tsc <= t_tsc, 0))
		wr_pacer_forgive_(p, t_tsc);
	return p->skipped - skipped;
}

/**
 * The activation ends at @p end_tsc (its time is up): wr_pacer_reach() of
 * the end, so that a stall just before it counts its frames as skipped
 * like any other stall instead of losing them (up to cap stay owed: the
 * one burst a turn on time would have sent), at most @p limit of them
 * (the frames a count still allowed; 0 = no count).
 * @return the packets added to skipped (0 for an unpaced pacer).
 */
uint64_t wr_pacer_close(struct wr_pacer *p, uint64_t end_tsc, uint64_t limit);

/**
 * How many packets may be sent now: 0..burst.  The caller sends up to that
 * many and reports with wr_pacer_sent().  No division, no float; loops once
 * per packet it grants.
 */
static inline uint32_t
wr_pacer_due(struct wr_pacer *p, uint64_t now_tsc)
{
	uint32_t n;

	if (p->unpaced) {
		p->granted += p->burst;
		p->last = p->burst;
		return p->burst;
	}
	wr_pacer_reach(p, now_tsc);
	n = p->owed < p->burst ? p->owed : p->burst;
	p->owed -= n;
	p->granted += n;
	p->last = n;
	return n;
}

/**
 * Report what the NIC took of the @p n_wanted packets last granted: the
 * @p n_wanted - @p n_sent it refused are owed again and go out first at the
 * next wr_pacer_due().  At most the last grant is refunded, once: a second
 * report, or n_wanted above the grant, refunds nothing more.
 */
static inline void
wr_pacer_sent(struct wr_pacer *p, uint32_t n_sent, uint32_t n_wanted)
{
	uint32_t back = n_sent < n_wanted ? n_wanted - n_sent : 0;

	/* a grant is reported once, and never refunds more than it gave */
	if (back > p->last)
		back = p->last;
	p->last = 0;
	p->refunded += back;
	if (!p->unpaced)
		p->owed += back; /* <= cap: owed was <= cap - last after the grant */
}

/**
 * Packets the schedule of a paced pacer has made due so far (granted, owed
 * or skipped): released + owed + skipped always equals this.  0 for an
 * unpaced one.
 */
static inline uint64_t
wr_pacer_scheduled(const struct wr_pacer *p)
{
	return p->k_base + p->k;
}

/** Packets released so far: granted minus refunded. */
static inline uint64_t
wr_pacer_released(const struct wr_pacer *p)
{
	return p->granted - p->refunded;
}

#endif /* WR_RATE_H */
