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
 *   wr_tcp_cc_next_idle() the same when no new data can go (rule 3)
 *   wr_tcp_cc_timeout()  the RTO fired
 *   wr_tcp_cc_syn_lost() established after the SYN/SYN-ACK went twice
 *   wr_tcp_cc_idle()     sending again after more than an RTO idle
 *
 * All on the connection's lcore; no call allocates or fails, and the
 * only loops are over the WR_TCP_CC_SACK_MAX ranges.  The state is a plain struct: a
 * zeroed one is not valid, wr_tcp_cc_init() makes it so.
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
	uint16_t iw_segs;       /**< the initial window in segments (idle restart) */
	/** Congestion avoidance: bytes acknowledged toward the next SMSS of
	 * cwnd (RFC 3465 2.1's bytes_acked; always below cwnd).  32 bits:
	 * a 16-bit count in MSS/64 units overflowed above 1024 segments. */
	uint32_t acked_partial;
	struct wr_tcp_cc_range sack[WR_TCP_CC_SACK_MAX];
};

#define WR_TCP_CC_F_RECOVERY 0x01u /**< in fast recovery */
#define WR_TCP_CC_F_SACK     0x02u /**< the peer agreed to SACK */
#define WR_TCP_CC_F_RTT      0x04u /**< a first RTT sample was taken */
/** @c recover holds a value duplicate ACKs are checked against (RFC 6582
 * 3.2 step 2, the careful variant): set by a recovery or an RTO, cleared
 * once the cumulative ACK passes it (ack > recover: recover is snd_max,
 * one past the RFC's "highest sequence number transmitted"), so that a
 * value 2^31 bytes old is never compared: sequence numbers would wrap. */
#define WR_TCP_CC_F_RECOVER  0x08u
/** NewReno: a partial ACK owes a retransmission of the segment at
 * snd_una (RFC 6582 3.2 step 3), wr_tcp_cc_next() hands it out; also in
 * SACK recovery when the scoreboard is empty (a peer that agreed to SACK
 * but sends no blocks). */
#define WR_TCP_CC_F_REXMIT   0x10u
/** An RTO's retransmission is not yet acknowledged: a second RTO keeps
 * ssthresh (RFC 5681 3.1, after equation (4)). */
#define WR_TCP_CC_F_RTO      0x20u

/** RFC 6675's DupThresh. */
#define WR_TCP_CC_DUPTHRESH 3u
/** RFC 6298's G, the clock granularity: samples are microseconds.  The
 * engine's timer wheel is coarser, but rto_min (200 ms by default) is
 * far above both, so G never decides an RTO in practice. */
#define WR_TCP_CC_G_US 1u
/** cwnd never grows beyond this: the largest window a peer can offer
 * (65535 << 14, RFC 7323 2.3) rounded up, so sums stay in 32 bits. */
#define WR_TCP_CC_CWND_MAX (1u << 30)
/** RTT samples above this are taken as this (RFC 6298 2.5 allows an RTO
 * bound of 60 s; 268 s keeps SRTT * 8 within 32 bits). */
#define WR_TCP_CC_RTT_MAX_US (1u << 28)

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
	WR_TCP_CC_RETRANSMIT,   /**< send the segment at snd_una again now,
				 *   min(mss, snd_max - snd_una) bytes
				 *   (recovery entered: fast retransmit;
				 *   HighRxt is already past it) */
};

/**
 * An ACK arrived: @p ack with the connection's @p snd_una (before it) and
 * @p snd_max (highest sequence sent), @p sacks the blocks it carried
 * (@p n_sacks of them, as read from the option), @p dup true when RFC
 * 5681 2's duplicate ACK definition holds (no data, window unchanged, ack
 * == snd_una, data outstanding).  Updates cwnd/ssthresh (slow start,
 * congestion avoidance, recovery's inflation and its partial ACKs, RFC
 * 6582), the scoreboard.  With SACK, a non-advancing ACK whose blocks make
 * IsLost(snd_una) true enters recovery too (RFC 6675 5 (2)).  An ACK
 * below snd_una or above snd_max changes nothing.  RTT samples are
 * wr_tcp_cc_rtt()'s, not taken here.
 */
enum wr_tcp_cc_act wr_tcp_cc_ack(struct wr_tcp_cc *cc, uint32_t ack,
				 uint32_t snd_una, uint32_t snd_max,
				 const struct wr_tcp_cc_range *sacks,
				 unsigned int n_sacks, bool dup);

/**
 * New bytes the windows allow beyond @p snd_nxt now: min(cwnd, the
 * peer's window @p rwnd) less what is in flight, snd_nxt - snd_una (after
 * an RTO the engine sets snd_nxt back to snd_una).  On the first two
 * duplicate ACKs cwnd + that many segments (limited transmit, RFC 3042);
 * in NewReno recovery the inflated cwnd; in SACK recovery cwnd - pipe,
 * and 0 when that is below one MSS (RFC 6675 5 (C)), the peer's window
 * still bounding it.  0 when none.
 */
uint32_t wr_tcp_cc_send_ok(const struct wr_tcp_cc *cc, uint32_t snd_una,
			   uint32_t snd_nxt, uint32_t snd_max, uint32_t rwnd);

/**
 * In recovery: the next range to send again (RFC 6675 NextSeg() rule 1
 * with SACK, while cwnd - pipe >= 1 MSS; NewReno: the first
 * unacknowledged segment, once after each partial ACK).  At most one MSS,
 * never SACKed bytes.  HighRxt is advanced past it: the engine sends it
 * (or counts it as sent: a later RTO covers a send that failed).  Call
 * until false, then send new data as wr_tcp_cc_send_ok() allows.
 * @return false when nothing is to be resent now.
 */
bool wr_tcp_cc_next(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
		    uint32_t *seq, uint32_t *len);

/** The RTO fired (RFC 6298 5.4-5.7, RFC 5681 (4)): ssthresh from the
 * flight, cwnd one segment, RTO doubled (at most rto_max), recovery and
 * the scoreboard dropped (RFC 6675 5.1's conservative choice). */
void wr_tcp_cc_timeout(struct wr_tcp_cc *cc, uint32_t snd_una,
		       uint32_t snd_max, const struct wr_tcp_cc_limits *lim);

/** True when byte range [seq, seq + len) is covered by the scoreboard
 * (sent again needlessly otherwise).  False when @p len is 0. */
bool wr_tcp_cc_sacked(const struct wr_tcp_cc *cc, uint32_t seq, uint32_t len);

/**
 * In SACK recovery, when wr_tcp_cc_next() returned false and no new data
 * can go (none left to send, or the peer's window is full): RFC 6675
 * NextSeg() rule 3, the lowest unSACKed range above HighRxt and below
 * the highest SACKed byte, lost or not, while cwnd - pipe >= 1 MSS.  At
 * most one MSS; HighRxt advanced past it.  Without it a transfer's last
 * holes, too few SACKed above them to be lost, wait for the RTO.
 */
bool wr_tcp_cc_next_idle(struct wr_tcp_cc *cc, uint32_t snd_una,
			 uint32_t snd_max, uint32_t *seq, uint32_t *len);

/** The connection sent nothing for more than an RTO and is about to
 * send again: cwnd = min(IW, cwnd) (RFC 5681 4.1's restart window; the
 * engine measures the idle time, as Linux's tcp_slow_start_after_idle). */
void wr_tcp_cc_idle(struct wr_tcp_cc *cc);

/** RFC 6675 4's IsLost(@p seq): DupThresh discontiguous SACKed ranges
 * above @p seq, or more than (DupThresh - 1) * SMSS bytes SACKed above it. */
bool wr_tcp_cc_lost(const struct wr_tcp_cc *cc, uint32_t seq);

/** RFC 6675 4's SetPipe(): bytes in [@p snd_una, @p snd_max) not SACKed,
 * counted once if not lost and once more if sent again (below HighRxt in
 * recovery). */
uint32_t wr_tcp_cc_pipe(const struct wr_tcp_cc *cc, uint32_t snd_una,
			uint32_t snd_max);

/** The handshake is complete and its SYN (client) or SYN-ACK (server)
 * had to be sent again (call it then, before any data): the initial
 * window is one segment (RFC 5681 3.1, last paragraph), an RTO below 3 s
 * is 3 s until a sample (RFC 6298 5.7), and what wr_tcp_cc_timeout() did
 * to ssthresh for the SYN is undone: a FlightSize of one sequence number
 * says nothing of the path (ssthresh back to "arbitrarily high", as
 * Linux's tcp_init_transfer() starts every connection). */
void wr_tcp_cc_syn_lost(struct wr_tcp_cc *cc);

#endif /* WR_TCP_CC_H */
