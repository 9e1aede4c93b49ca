/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_cc: a connection's sender-side loss recovery: RTT and RTO (RFC 6298), NewReno (RFC 5681, 6582), SACK scoreboard and recovery (RFC 2018, 6675). */
#ifndef WR_TCP_CC_H
#define WR_TCP_CC_H

/**
 * @file
 * Kept apart from the state machine (wr_tcp.c) so that each rule of the
 * RFCs is unit-tested on its own with sequence numbers alone: this file
 * knows nothing of frames, timers or connections.  The engine embeds a
 * struct wr_tcp_cc in each connection (its size counts toward the
 * per-connection budget: doc/tcp.md) and calls:
 *
 *   wr_tcp_cc_rtt()      an RTT sample (timestamps echo, or Karn's rule)
 *   wr_tcp_cc_ack()      every ACK that is not of an old segment
 *   wr_tcp_cc_send_ok()  how much new data the windows allow now
 *   wr_tcp_cc_next()     in recovery: what to send again next
 *   wr_tcp_cc_timeout()  the RTO fired
 *
 * Sequence numbers are 32-bit and compared modulo 2^32 (RFC 9293).
 * The scoreboard keeps the peer's SACK blocks above snd_una merged into at
 * most WR_TCP_CC_SACK_MAX ranges (the highest kept when more come: they
 * are what RFC 6675's IsLost() reads).
 */

#include <stdbool.h>
#include <stdint.h>

#define WR_TCP_CC_SACK_MAX 4

/** a < b modulo 2^32 (RFC 9293 3.4). */
static inline bool
wr_tcp_seq_lt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static inline bool
wr_tcp_seq_leq(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) <= 0;
}

struct wr_tcp_cc_range {
	uint32_t l;             /**< first byte */
	uint32_t r;             /**< one past the last */
};

struct wr_tcp_cc {
	uint32_t cwnd;          /**< bytes */
	uint32_t ssthresh;
	uint32_t recover;       /**< RFC 6582: snd_max when recovery began */
	uint32_t high_rxt;      /**< RFC 6675 HighRxt */
	uint32_t srtt_us8;      /**< SRTT in microseconds, times 8 */
	uint32_t rttvar_us4;    /**< RTTVAR in microseconds, times 4 */
	uint32_t rto_us;        /**< the current RTO, backoff included */
	uint16_t mss;           /**< the sender's MSS (options excluded) */
	uint8_t dupacks;
	uint8_t flags;          /**< WR_TCP_CC_F_* */
	uint8_t n_sack;
	uint8_t backoff;        /**< RTOs in a row (RFC 6298 5.5) */
	uint16_t acked_partial; /**< congestion avoidance: bytes toward one more MSS, in MSS/64 units */
	struct wr_tcp_cc_range sack[WR_TCP_CC_SACK_MAX];
};

#define WR_TCP_CC_F_RECOVERY 0x01u /**< in fast recovery */
#define WR_TCP_CC_F_SACK     0x02u /**< the peer agreed to SACK */
#define WR_TCP_CC_F_RTT      0x04u /**< a first RTT sample was taken */

/** The RTO bounds of a class (struct wr_tcp_opts, in microseconds). */
struct wr_tcp_cc_limits {
	uint32_t rto_init_us;
	uint32_t rto_min_us;
	uint32_t rto_max_us;
};

/** A new connection: cwnd = @p init_cwnd segments (RFC 6928; RFC 5681
 * 3.1's bound when 0), ssthresh "arbitrarily high", RTO = rto_init. */
void wr_tcp_cc_init(struct wr_tcp_cc *cc, uint16_t mss, uint32_t init_cwnd,
		    bool sack, const struct wr_tcp_cc_limits *lim);

/** An RTT sample of @p rtt_us (RFC 6298 2.2, 2.3; the backoff cleared). */
void wr_tcp_cc_rtt(struct wr_tcp_cc *cc, uint32_t rtt_us,
		   const struct wr_tcp_cc_limits *lim);

/** What the engine must do after an ACK. */
enum wr_tcp_cc_act {
	WR_TCP_CC_NONE = 0,
	WR_TCP_CC_RETRANSMIT,   /**< send the segment at snd_una again now
				 *   (recovery entered: fast retransmit) */
};

/**
 * An ACK arrived: @p ack with the connection's @p snd_una (before it) and
 * @p snd_max (highest sequence sent), @p sacks the blocks it carried
 * (@p n_sacks of them, as read from the option), @p dup true when RFC
 * 5681 2's duplicate ACK definition holds (no data, window unchanged, ack
 * == snd_una, data outstanding).  Updates cwnd/ssthresh (slow start,
 * congestion avoidance, recovery's inflation and its partial ACKs, RFC
 * 6582), the scoreboard.
 */
enum wr_tcp_cc_act wr_tcp_cc_ack(struct wr_tcp_cc *cc, uint32_t ack,
				 uint32_t snd_una, uint32_t snd_max,
				 const struct wr_tcp_cc_range *sacks,
				 unsigned int n_sacks, bool dup);

/**
 * New bytes the windows allow beyond @p snd_nxt now: min(cwnd, the
 * peer's window @p rwnd) less what is in flight (RFC 6675's pipe in SACK
 * recovery).  0 when none.
 */
uint32_t wr_tcp_cc_send_ok(const struct wr_tcp_cc *cc, uint32_t snd_una,
			   uint32_t snd_nxt, uint32_t snd_max, uint32_t rwnd);

/**
 * In recovery: the next range to send again (RFC 6675 NextSeg() rule 1
 * with SACK; NewReno: the first unacknowledged segment after a partial
 * ACK).  At most one MSS.  @return false when nothing is to be resent
 * now (then new data, if the window allows).
 */
bool wr_tcp_cc_next(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
		    uint32_t *seq, uint32_t *len);

/** The RTO fired (RFC 6298 5.4-5.7, RFC 5681 (4)): ssthresh from the
 * flight, cwnd one segment, RTO doubled (at most rto_max), recovery and
 * the scoreboard dropped (RFC 6675 5.1's conservative choice). */
void wr_tcp_cc_timeout(struct wr_tcp_cc *cc, uint32_t snd_una,
		       uint32_t snd_max, const struct wr_tcp_cc_limits *lim);

/** True when byte range [seq, seq + len) is covered by the scoreboard
 * (sent again needlessly otherwise). */
bool wr_tcp_cc_sacked(const struct wr_tcp_cc *cc, uint32_t seq, uint32_t len);

#endif /* WR_TCP_CC_H */
