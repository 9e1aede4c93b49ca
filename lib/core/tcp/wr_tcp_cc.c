/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_cc: RTT and RTO (RFC 6298), NewReno (RFC 5681, 6582), the SACK scoreboard and recovery (RFC 2018, 6675). */
#include <string.h>

#include "wr_tcp_cc.h"

/* RFC 6298 2.1: the RTO before a first sample, when the class gives none. */
#define RTO_INIT_US 1000000u
/* RFC 6298 5.7: the RTO once the SYN had to be sent again. */
#define RTO_SYN_LOST_US 3000000u

static inline uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint32_t
max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/* Bytes from @p a up to @p b, 0 when b is not after a (mod 2^32). */
static inline uint32_t
span(uint32_t a, uint32_t b)
{
	return wr_tcp_seq_lt(a, b) ? b - a : 0;
}

static uint32_t
cwnd_add(uint32_t cwnd, uint32_t inc)
{
	uint64_t c = (uint64_t)cwnd + inc;

	return c > WR_TCP_CC_CWND_MAX ? WR_TCP_CC_CWND_MAX : (uint32_t)c;
}

/* RFC 5681 equation (4): ssthresh = max(FlightSize / 2, 2 * SMSS). */
static uint32_t
half_flight(const struct wr_tcp_cc *cc, uint32_t flight)
{
	return max_u32(flight / 2, 2u * cc->mss);
}

static uint32_t
rto_clamp(uint64_t rto, const struct wr_tcp_cc_limits *lim)
{
	if (rto < lim->rto_min_us)
		rto = lim->rto_min_us;
	if (lim->rto_max_us != 0 && rto > lim->rto_max_us)
		rto = lim->rto_max_us;
	return rto > UINT32_MAX ? UINT32_MAX : (uint32_t)rto;
}

void
wr_tcp_cc_init(struct wr_tcp_cc *cc, uint16_t mss, uint32_t init_cwnd,
	       bool sack, const struct wr_tcp_cc_limits *lim)
{
	uint64_t iw;

	memset(cc, 0, sizeof(*cc));
	/* RFC 9293 3.7.1: 536 is the send MSS when none was agreed. */
	cc->mss = mss != 0 ? mss : 536;
	if (init_cwnd != 0)
		iw = (uint64_t)init_cwnd * cc->mss; /* RFC 6928, or what the class asks */
	else if (cc->mss > 2190)                    /* RFC 5681 3.1 equation (1) */
		iw = 2u * cc->mss;
	else if (cc->mss > 1095)
		iw = 3u * cc->mss;
	else
		iw = 4u * cc->mss;
	cc->cwnd = iw > WR_TCP_CC_CWND_MAX ? WR_TCP_CC_CWND_MAX : (uint32_t)iw;
	iw = cc->cwnd / cc->mss;
	cc->iw_segs = iw > UINT16_MAX ? UINT16_MAX : (uint16_t)iw;
	/* RFC 5681 3.1: "arbitrarily high" (the peer's window bounds it). */
	cc->ssthresh = UINT32_MAX;
	cc->rto_us = lim->rto_init_us != 0 ? lim->rto_init_us : RTO_INIT_US;
	if (sack)
		cc->flags |= WR_TCP_CC_F_SACK;
}

void
wr_tcp_cc_syn_lost(struct wr_tcp_cc *cc)
{
	cc->cwnd = cc->mss;
	cc->acked_partial = 0;
	cc->ssthresh = UINT32_MAX;
	cc->flags &= (uint8_t)~(WR_TCP_CC_F_RECOVER | WR_TCP_CC_F_RTO);
	if (!(cc->flags & WR_TCP_CC_F_RTT) && cc->rto_us < RTO_SYN_LOST_US)
		cc->rto_us = RTO_SYN_LOST_US;
}

void
wr_tcp_cc_idle(struct wr_tcp_cc *cc)
{
	/* RFC 5681 4.1: RW = min(IW, cwnd), IW as at the start (the
	 * class's init_cwnd, or equation (1)'s). */
	cc->cwnd = min_u32(cc->cwnd, (uint32_t)cc->iw_segs * cc->mss);
	cc->acked_partial = 0;
}

/*
 * RFC 6298 2.2 and 2.3 in the fixed point of the struct: srtt_us8 is
 * 8 * SRTT and rttvar_us4 is 4 * RTTVAR, so that alpha = 1/8 and
 * beta = 1/4 are shifts and K * RTTVAR (K = 4) is rttvar_us4 itself.
 * Karn's rule (RFC 6298 3) is the engine's: it passes only samples of
 * segments not sent again, or timestamp echoes (RFC 7323 4.1), which
 * are valid for any segment.
 */
void
wr_tcp_cc_rtt(struct wr_tcp_cc *cc, uint32_t rtt_us,
	      const struct wr_tcp_cc_limits *lim)
{
	uint32_t r = min_u32(rtt_us, WR_TCP_CC_RTT_MAX_US);
	uint64_t r8 = (uint64_t)r * 8, diff8;

	if (!(cc->flags & WR_TCP_CC_F_RTT)) {
		/* 2.2: SRTT = R, RTTVAR = R / 2. */
		cc->srtt_us8 = (uint32_t)r8;
		cc->rttvar_us4 = r * 2;
		cc->flags |= WR_TCP_CC_F_RTT;
	} else {
		/* 2.3: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'| with the old
		 * SRTT, then SRTT = 7/8 SRTT + 1/8 R'.  In the struct's
		 * units: rttvar4 = 3/4 rttvar4 + |SRTT - R'|. */
		diff8 = cc->srtt_us8 > r8 ? cc->srtt_us8 - r8 : r8 - cc->srtt_us8;
		cc->rttvar_us4 = cc->rttvar_us4 - cc->rttvar_us4 / 4 +
				 (uint32_t)(diff8 / 8);
		cc->srtt_us8 = cc->srtt_us8 - cc->srtt_us8 / 8 + r;
	}
	/* 2.2/2.3: RTO = SRTT + max(G, K * RTTVAR), 2.4/2.5: the bounds;
	 * a new sample ends the backoff (5.5 doubles until one comes). */
	cc->backoff = 0;
	cc->rto_us = rto_clamp((uint64_t)cc->srtt_us8 / 8 +
			       max_u32(WR_TCP_CC_G_US, cc->rttvar_us4), lim);
}

/* ---- the scoreboard (RFC 2018, RFC 6675 4's Update()) ---- */

/*
 * Ranges are kept sorted and disjoint (not even adjacent) above the
 * cumulative ACK; offsets from @p base (the cumulative ACK) order them,
 * which is what comparing modulo 2^32 means within a window.
 */
static void
sb_trim(struct wr_tcp_cc *cc, uint32_t ack)
{
	unsigned int i, n = 0;

	for (i = 0; i < cc->n_sack; i++) {
		struct wr_tcp_cc_range g = cc->sack[i];

		/* All acknowledged: RFC 6675 4, Update().  A range the ACK
		 * cuts (or starts at) says the peer holds the byte at the ACK
		 * it did not acknowledge: it reneged (RFC 2018 8) or is wrong;
		 * the range goes too, so the byte at snd_una is never SACKed. */
		if (!wr_tcp_seq_lt(ack, g.l))
			continue;
		cc->sack[n++] = g;
	}
	cc->n_sack = (uint8_t)n;
}

static void
sb_add(struct wr_tcp_cc *cc, uint32_t base, uint32_t l, uint32_t r)
{
	struct wr_tcp_cc_range t[WR_TCP_CC_SACK_MAX + 1];
	uint32_t lo = l - base, hi = r - base;
	unsigned int i, n = 0;
	bool placed = false;

	for (i = 0; i < cc->n_sack; i++) {
		uint32_t el = cc->sack[i].l - base, er = cc->sack[i].r - base;

		if (er < lo) {          /* wholly below, a gap between */
			t[n++] = cc->sack[i];
		} else if (el > hi) {   /* wholly above */
			if (!placed) {
				t[n].l = base + lo;
				t[n++].r = base + hi;
				placed = true;
			}
			t[n++] = cc->sack[i];
		} else {                /* overlapping or adjacent: merged */
			lo = el < lo ? el : lo;
			hi = er > hi ? er : hi;
		}
	}
	if (!placed) {
		t[n].l = base + lo;
		t[n++].r = base + hi;
	}
	/* Full: the lowest range goes.  The highest are what IsLost() reads
	 * for every hole below them, and the peer repeats its newest blocks
	 * first (RFC 2018 4), so a lost low range comes back. */
	i = n > WR_TCP_CC_SACK_MAX ? n - WR_TCP_CC_SACK_MAX : 0;
	memcpy(cc->sack, t + i, (n - i) * sizeof(t[0]));
	cc->n_sack = (uint8_t)(n - i);
}

static void
sb_update(struct wr_tcp_cc *cc, uint32_t ack, uint32_t snd_max,
	  const struct wr_tcp_cc_range *sacks, unsigned int n_sacks)
{
	unsigned int i;

	sb_trim(cc, ack);
	for (i = 0; i < n_sacks; i++) {
		uint32_t l = sacks[i].l, r = sacks[i].r;

		/* RFC 2018 4: blocks of data never sent or empty are bogus;
		 * a block below the ACK (a D-SACK, RFC 2883) says nothing
		 * about the holes; one holding the byte at the ACK cannot be
		 * (the peer would have acknowledged it). */
		if (!wr_tcp_seq_lt(l, r) || wr_tcp_seq_lt(snd_max, r) ||
		    !wr_tcp_seq_lt(ack, l))
			continue;
		sb_add(cc, ack, l, r);
	}
}

bool
wr_tcp_cc_sacked(const struct wr_tcp_cc *cc, uint32_t seq, uint32_t len)
{
	unsigned int i;

	if (len == 0)
		return false;
	for (i = 0; i < cc->n_sack; i++)
		if (wr_tcp_seq_leq(cc->sack[i].l, seq) &&
		    wr_tcp_seq_leq(seq + len, cc->sack[i].r) &&
		    len <= cc->sack[i].r - cc->sack[i].l)
			return true;
	return false;
}

/* IsLost(): bytes with sequence numbers greater than @p seq SACKed,
 * and ranges wholly above it ("discontiguous SACKed sequences"). */
bool
wr_tcp_cc_lost(const struct wr_tcp_cc *cc, uint32_t seq)
{
	uint64_t bytes = 0;
	unsigned int i, ranges = 0;

	for (i = 0; i < cc->n_sack; i++) {
		const struct wr_tcp_cc_range *g = &cc->sack[i];

		if (wr_tcp_seq_lt(seq, g->l)) {
			bytes += g->r - g->l;
			ranges++;
		} else if (wr_tcp_seq_lt(seq + 1, g->r)) {
			bytes += g->r - (seq + 1);
		}
	}
	return ranges >= WR_TCP_CC_DUPTHRESH ||
	       bytes > (uint64_t)(WR_TCP_CC_DUPTHRESH - 1) * cc->mss;
}

/* The highest byte sent again in this recovery, plus one (snd_una when
 * none, or out of recovery). */
static uint32_t
high_rxt(const struct wr_tcp_cc *cc, uint32_t snd_una)
{
	if ((cc->flags & WR_TCP_CC_F_RECOVERY) &&
	    wr_tcp_seq_lt(snd_una, cc->high_rxt))
		return cc->high_rxt;
	return snd_una;
}

/* SetPipe() over the hole [a, b): once if not lost, once more for the
 * part below HighRxt (sent again). */
static uint64_t
pipe_hole(const struct wr_tcp_cc *cc, uint32_t a, uint32_t b, uint32_t hr)
{
	uint32_t n = span(a, b);

	if (n == 0)
		return 0;
	return (wr_tcp_cc_lost(cc, a) ? 0 : n) + min_u32(span(a, hr), n);
}

uint32_t
wr_tcp_cc_pipe(const struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max)
{
	uint32_t pos = snd_una, hr = high_rxt(cc, snd_una);
	uint64_t pipe = 0;
	unsigned int i;

	/* Every byte of a hole has the same SACKed bytes above it, so IsLost()
	 * is asked once per hole, not per byte (RFC 6675 4 asks per octet). */
	for (i = 0; i < cc->n_sack; i++) {
		const struct wr_tcp_cc_range *g = &cc->sack[i];

		if (wr_tcp_seq_leq(g->r, pos))
			continue;
		if (wr_tcp_seq_lt(snd_max, g->l))
			break;
		pipe += pipe_hole(cc, pos, g->l, hr);
		pos = g->r;
	}
	pipe += pipe_hole(cc, pos, snd_max, hr);
	return pipe > UINT32_MAX ? UINT32_MAX : (uint32_t)pipe;
}

/* ---- ACKs ---- */

/* RFC 5681 3.1: slow start, cwnd += min(N, SMSS) per ACK (equation (2),
 * appropriate byte counting with L = 1 SMSS as RFC 5681 7 recommends;
 * RFC 3465's experimental L = 2 SMSS is not used); congestion avoidance
 * by byte counting (RFC 3465 2.1, allowed by RFC 5681 3.1): one SMSS
 * per cwnd of bytes acknowledged. */
static void
grow(struct wr_tcp_cc *cc, uint32_t acked)
{
	if (cc->cwnd < cc->ssthresh) {
		cc->cwnd = cwnd_add(cc->cwnd, min_u32(acked, cc->mss));
		return;
	}
	/* Below cwnd (<= 2^30) plus an ACK within 2^31: no overflow. */
	cc->acked_partial += acked;
	if (cc->acked_partial >= cc->cwnd) {
		cc->acked_partial -= cc->cwnd;
		cc->cwnd = cwnd_add(cc->cwnd, cc->mss);
		/* At most one SMSS per window (RFC 5681 3.1): a stretch ACK of
		 * several windows does not bank the rest. */
		if (cc->acked_partial >= cc->cwnd)
			cc->acked_partial = cc->cwnd - 1;
	}
}

/* RFC 5681 3.2 steps 2-3 with RFC 6582 3.2 step 2, or RFC 6675 5 (4). */
static void
enter_recovery(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max)
{
	uint32_t flight = span(snd_una, snd_max);
	uint32_t lt = 0;

	/* RFC 5681 3.2 step 2: what limited transmit sent (since the first
	 * duplicate ACK, high_rxt marked snd_max then) is not in FlightSize. */
	if (cc->dupacks > 0)
		lt = min_u32(span(cc->high_rxt, snd_max), 2u * cc->mss);
	cc->ssthresh = half_flight(cc, flight - min_u32(lt, flight));
	cc->recover = snd_max;
	cc->flags |= WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_RECOVER;
	cc->flags &= (uint8_t)~WR_TCP_CC_F_REXMIT;
	cc->acked_partial = 0;
	if (cc->flags & WR_TCP_CC_F_SACK)
		cc->cwnd = cc->ssthresh;                 /* RFC 6675 5 (4.2) */
	else
		cc->cwnd = cwnd_add(cc->ssthresh, 3u * cc->mss); /* 5681 step 3 */
	/* The segment at snd_una goes now (RETRANSMIT): RFC 6675 (4.3) sets
	 * HighRxt to its end. */
	cc->high_rxt = snd_una + min_u32(cc->mss, flight);
}

/* RFC 6582 3.2 step 3: an ACK in fast recovery. */
static void
recovery_ack(struct wr_tcp_cc *cc, uint32_t ack, uint32_t snd_max,
	     uint32_t acked, bool dup)
{
	bool sack = cc->flags & WR_TCP_CC_F_SACK;

	if (wr_tcp_seq_leq(cc->recover, ack)) {
		/* A full ACK: recovery ends.  NewReno deflates to
		 * min(ssthresh, max(FlightSize, SMSS) + SMSS) (option 1, so no
		 * burst follows); RFC 6675 leaves cwnd at ssthresh (A). */
		if (!sack)
			cc->cwnd = min_u32(cc->ssthresh,
					   max_u32(span(ack, snd_max), cc->mss) + cc->mss);
		cc->flags &= (uint8_t)~(WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_REXMIT);
		if (wr_tcp_seq_lt(cc->recover, ack))
			cc->flags &= (uint8_t)~WR_TCP_CC_F_RECOVER;
		cc->dupacks = 0;
		return;
	}
	if (acked > 0) {
		/* RFC 6675 (B): the scoreboard and pipe say it all, unless it
		 * is empty: a peer that agreed to SACK and sends no blocks (a
		 * middlebox strips them) gets NewReno's retransmission of the
		 * segment a partial ACK points at, or would wait for the RTO. */
		if (sack) {
			if (cc->n_sack == 0)
				cc->flags |= WR_TCP_CC_F_REXMIT;
			return;
		}
		/* A partial ACK: deflate by what it acknowledged, add one SMSS
		 * back when that was at least one, and send the first
		 * unacknowledged segment again (wr_tcp_cc_next()).  Never below
		 * one segment, RFC 5681's loss window. */
		cc->cwnd = cc->cwnd > acked ? cc->cwnd - acked : 0;
		if (acked >= cc->mss)
			cc->cwnd = cwnd_add(cc->cwnd, cc->mss);
		cc->cwnd = max_u32(cc->cwnd, cc->mss);
		cc->flags |= WR_TCP_CC_F_REXMIT;
		return;
	}
	if (dup) {
		if (cc->dupacks < UINT8_MAX)
			cc->dupacks++;
		/* RFC 5681 3.2 step 4: a segment left the network. */
		if (!sack)
			cc->cwnd = cwnd_add(cc->cwnd, cc->mss);
	}
}

enum wr_tcp_cc_act
wr_tcp_cc_ack(struct wr_tcp_cc *cc, uint32_t ack, uint32_t snd_una,
	      uint32_t snd_max, const struct wr_tcp_cc_range *sacks,
	      unsigned int n_sacks, bool dup)
{
	uint32_t acked;
	bool enter;

	/* An ACK of what was never sent is the engine's to refuse (RFC 9293
	 * 3.10.7.4); one of old data changes nothing. */
	if (wr_tcp_seq_lt(snd_max, ack) || wr_tcp_seq_lt(ack, snd_una))
		return WR_TCP_CC_NONE;
	acked = ack - snd_una;
	if (cc->flags & WR_TCP_CC_F_SACK)
		sb_update(cc, ack, snd_max, sacks, n_sacks);
	if (acked > 0)
		cc->flags &= (uint8_t)~WR_TCP_CC_F_RTO;
	if (cc->flags & WR_TCP_CC_F_RECOVERY) {
		recovery_ack(cc, ack, snd_max, acked, dup);
		return WR_TCP_CC_NONE;
	}
	/* RFC 6582 3.2 step 2: the ACK "covers more than recover" when
	 * ack - 1 > recover, recover being the highest byte sent (ours is
	 * one past it: snd_max), so when ack > our recover: one byte beyond
	 * what was out when the recovery or RTO began.  Past that, recover
	 * is not compared again (no 2^31-old value ever is). */
	if ((cc->flags & WR_TCP_CC_F_RECOVER) && wr_tcp_seq_lt(cc->recover, ack))
		cc->flags &= (uint8_t)~WR_TCP_CC_F_RECOVER;
	if (acked > 0) {
		cc->dupacks = 0;
		grow(cc, acked);
		return WR_TCP_CC_NONE;
	}
	if (dup) {
		if (cc->dupacks == 0)
			cc->high_rxt = snd_max; /* limited transmit starts here */
		if (cc->dupacks < UINT8_MAX)
			cc->dupacks++;
	}
	/* RFC 5681 3.2 step 2 (the third duplicate ACK); with SACK RFC 6675 5
	 * (1) DupAcks >= DupThresh or (2) IsLost(HighACK + 1). */
	enter = dup && cc->dupacks >= WR_TCP_CC_DUPTHRESH;
	if ((cc->flags & WR_TCP_CC_F_SACK) && n_sacks > 0 &&
	    wr_tcp_seq_lt(snd_una, snd_max) && wr_tcp_cc_lost(cc, snd_una))
		enter = true;
	/* RFC 6582 3.2 step 2 / RFC 6675 5 ("beyond the last value of
	 * RecoveryPoint"): not while the ACK is at or below recover (the
	 * duplicate ACKs an RTO's go-back-N draws, or those that needless
	 * retransmissions of a recovery just left draw). */
	if (!enter || (cc->flags & WR_TCP_CC_F_RECOVER))
		return WR_TCP_CC_NONE;
	enter_recovery(cc, snd_una, snd_max);
	return WR_TCP_CC_RETRANSMIT;
}

uint32_t
wr_tcp_cc_send_ok(const struct wr_tcp_cc *cc, uint32_t snd_una,
		  uint32_t snd_nxt, uint32_t snd_max, uint32_t rwnd)
{
	uint32_t room_rwnd = span(snd_nxt, snd_una + rwnd);
	uint32_t room_cwnd, flight, pipe;
	uint64_t w = cc->cwnd; /* + 2 SMSS: within 32 bits, cwnd <= 2^30 */

	if ((cc->flags & (WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_SACK)) ==
	    (WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_SACK)) {
		/* RFC 6675 5 (C): only while cwnd - pipe >= 1 SMSS. */
		pipe = wr_tcp_cc_pipe(cc, snd_una, snd_max);
		room_cwnd = cc->cwnd > pipe ? cc->cwnd - pipe : 0;
		if (room_cwnd < cc->mss)
			room_cwnd = 0;
		return min_u32(room_cwnd, room_rwnd);
	}
	/* FlightSize: after an RTO the engine goes back to snd_una
	 * (snd_nxt), and what lies between snd_nxt and snd_max is taken as
	 * lost.  NewReno's recovery sends new data when the inflated cwnd
	 * allows (RFC 5681 3.2 step 4, RFC 6582 3.2 step 3). */
	flight = span(snd_una, snd_nxt);
	/* RFC 3042 (RFC 5681 3.2 step 1): on the first two duplicate ACKs,
	 * up to two segments beyond cwnd. */
	if (!(cc->flags & WR_TCP_CC_F_RECOVERY) && cc->dupacks > 0 &&
	    cc->dupacks < WR_TCP_CC_DUPTHRESH)
		w += (uint64_t)cc->dupacks * cc->mss;
	room_cwnd = w > flight ? (uint32_t)(w - flight) : 0;
	return min_u32(room_cwnd, room_rwnd);
}

/*
 * NextSeg() rules 1 (@p lost: IsLost() asked) and 3 (not): the lowest
 * unSACKed S2 >= HighRxt (1.a: HighRxt here is one past the last byte
 * sent again), below the highest SACKed byte (1.b).  A higher hole has
 * fewer bytes SACKed above it, so under rule 1 the first hole not lost
 * ends the search.  Only while cwnd - pipe >= 1 SMSS (RFC 6675 5 (C)).
 */
static bool
next_seg(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
	 bool lost, uint32_t *seq, uint32_t *len)
{
	uint32_t s2, pipe;
	unsigned int i;

	pipe = wr_tcp_cc_pipe(cc, snd_una, snd_max);
	if (cc->cwnd < pipe || cc->cwnd - pipe < cc->mss)
		return false;
	s2 = high_rxt(cc, snd_una);
	for (i = 0; i < cc->n_sack; i++) {
		const struct wr_tcp_cc_range *g = &cc->sack[i];

		if (wr_tcp_seq_leq(g->r, s2))
			continue;
		if (wr_tcp_seq_leq(g->l, s2)) {
			s2 = g->r;
			continue;
		}
		if (lost && !wr_tcp_cc_lost(cc, s2))
			return false;
		*seq = s2;
		*len = min_u32(cc->mss, g->l - s2);
		cc->high_rxt = s2 + *len;                /* RFC 6675 5 (C.2) */
		return true;
	}
	return false;
}

bool
wr_tcp_cc_next(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
	       uint32_t *seq, uint32_t *len)
{
	if (!(cc->flags & WR_TCP_CC_F_RECOVERY) || !wr_tcp_seq_lt(snd_una, snd_max))
		return false;
	if (!(cc->flags & WR_TCP_CC_F_SACK) || (cc->flags & WR_TCP_CC_F_REXMIT)) {
		/* NewReno: once per partial ACK (RFC 6582 3.2 step 3). */
		if (!(cc->flags & WR_TCP_CC_F_REXMIT))
			return false;
		cc->flags &= (uint8_t)~WR_TCP_CC_F_REXMIT;
		*seq = snd_una;
		*len = min_u32(cc->mss, snd_max - snd_una);
		/* Not into a range SACKed since the partial ACK. */
		if (cc->n_sack > 0)
			*len = min_u32(*len, cc->sack[0].l - snd_una);
		cc->high_rxt = snd_una + *len;
		return true;
	}
	/* Rule 2 (new data) is wr_tcp_cc_send_ok()'s, rule 3
	 * wr_tcp_cc_next_idle()'s; rule 4 (the rescue) is not done. */
	return next_seg(cc, snd_una, snd_max, true, seq, len);
}

bool
wr_tcp_cc_next_idle(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
		    uint32_t *seq, uint32_t *len)
{
	if ((cc->flags & (WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_SACK)) !=
	    (WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_SACK) ||
	    !wr_tcp_seq_lt(snd_una, snd_max))
		return false;
	return next_seg(cc, snd_una, snd_max, false, seq, len);
}

/* RFC 6298 5.4-5.7 and RFC 5681 3.1 equation (4), RFC 6582 3.2 step 4,
 * RFC 6675 5.1. */
void
wr_tcp_cc_timeout(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
		  const struct wr_tcp_cc_limits *lim)
{
	uint64_t rto = (uint64_t)cc->rto_us * 2;

	/* A segment an RTO already sent again is lost again: ssthresh stays
	 * (RFC 5681 3.1, after (4)). */
	if (!(cc->flags & WR_TCP_CC_F_RTO))
		cc->ssthresh = half_flight(cc, span(snd_una, snd_max));
	cc->cwnd = cc->mss;                     /* the loss window */
	cc->recover = snd_max;
	cc->high_rxt = snd_una;
	cc->flags |= WR_TCP_CC_F_RECOVER | WR_TCP_CC_F_RTO;
	cc->flags &= (uint8_t)~(WR_TCP_CC_F_RECOVERY | WR_TCP_CC_F_REXMIT);
	cc->dupacks = 0;
	cc->acked_partial = 0;
	/* RFC 2018 8: after an RTO the SACKed bits are turned off (the peer
	 * may have dropped what it held: reneging). */
	cc->n_sack = 0;
	if (cc->backoff < UINT8_MAX)
		cc->backoff++;
	/* 5.5: back off the timer; 2.5: at most the maximum. */
	if (lim->rto_max_us != 0 && rto > lim->rto_max_us)
		rto = lim->rto_max_us;
	cc->rto_us = rto > UINT32_MAX ? UINT32_MAX : (uint32_t)rto;
}
