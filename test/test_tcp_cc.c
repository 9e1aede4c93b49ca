/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of a connection's loss recovery (wr_tcp_cc): each rule of RFC 6298, 5681, 6582, 2018 and 6675 with exact numbers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_cc.h"
#include "wr_test.h"

/* SMSS 1000 keeps the arithmetic readable; RFC 6298's 1 s initial RTO,
 * Linux's 200 ms floor, a 60 s ceiling (RFC 6298 2.5). */
#define MSS 1000u
static const struct wr_tcp_cc_limits lim = {
	.rto_init_us = 1000000,
	.rto_min_us = 200000,
	.rto_max_us = 60000000,
};
static const uint32_t RWND = 1u << 20;

static struct wr_tcp_cc cc;

static uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void
fresh(bool sack)
{
	memset(&cc, 0xa5, sizeof(cc)); /* init owes nothing to what was there */
	wr_tcp_cc_init(&cc, MSS, 10, sack, &lim);
}

static enum wr_tcp_cc_act
dupack(uint32_t una, uint32_t max)
{
	return wr_tcp_cc_ack(&cc, una, una, max, NULL, 0, true);
}

static enum wr_tcp_cc_act
sack_dup(uint32_t una, uint32_t max, uint32_t l, uint32_t r)
{
	struct wr_tcp_cc_range g = { .l = l, .r = r };

	return wr_tcp_cc_ack(&cc, una, una, max, &g, 1, true);
}

static void
test_init(void)
{
	fresh(true);
	CU_ASSERT_EQUAL(cc.cwnd, 10000);        /* RFC 6928 */
	CU_ASSERT_EQUAL(cc.ssthresh, UINT32_MAX);
	CU_ASSERT_EQUAL(cc.rto_us, 1000000);
	CU_ASSERT_EQUAL(cc.flags, WR_TCP_CC_F_SACK);
	CU_ASSERT_EQUAL(cc.n_sack, 0);
	CU_ASSERT_EQUAL(cc.backoff, 0);
	CU_ASSERT_EQUAL(cc.acked_partial, 0);
	/* RFC 5681 3.1 equation (1) when the class says 0. */
	wr_tcp_cc_init(&cc, 1460, 0, false, &lim);
	CU_ASSERT_EQUAL(cc.cwnd, 4380);
	CU_ASSERT_EQUAL(cc.flags, 0);
	wr_tcp_cc_init(&cc, 2190, 0, false, &lim);
	CU_ASSERT_EQUAL(cc.cwnd, 6570);
	wr_tcp_cc_init(&cc, 2191, 0, false, &lim);
	CU_ASSERT_EQUAL(cc.cwnd, 4382);
	wr_tcp_cc_init(&cc, 1095, 0, false, &lim);
	CU_ASSERT_EQUAL(cc.cwnd, 4380);
	wr_tcp_cc_init(&cc, 1096, 0, false, &lim);
	CU_ASSERT_EQUAL(cc.cwnd, 3288);
	/* An unset MSS is RFC 9293's 536; an absurd IW is capped. */
	wr_tcp_cc_init(&cc, 0, 1, false, &lim);
	CU_ASSERT_EQUAL(cc.mss, 536);
	CU_ASSERT_EQUAL(cc.cwnd, 536);
	wr_tcp_cc_init(&cc, 9000, 1000000, false, &lim);
	CU_ASSERT_EQUAL(cc.cwnd, WR_TCP_CC_CWND_MAX);
}

static void
test_rtt(void)
{
	fresh(false);
	/* RFC 6298 2.2: SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR. */
	wr_tcp_cc_rtt(&cc, 100000, &lim);
	CU_ASSERT_EQUAL(cc.srtt_us8, 800000);
	CU_ASSERT_EQUAL(cc.rttvar_us4, 200000);
	CU_ASSERT_EQUAL(cc.rto_us, 300000);
	CU_ASSERT(cc.flags & WR_TCP_CC_F_RTT);
	/* 2.3: RTTVAR = 3/4 50000 + 1/4 |100000 - 200000| = 62500,
	 * SRTT = 7/8 100000 + 1/8 200000 = 112500, RTO = 362500. */
	wr_tcp_cc_rtt(&cc, 200000, &lim);
	CU_ASSERT_EQUAL(cc.srtt_us8, 900000);
	CU_ASSERT_EQUAL(cc.rttvar_us4, 250000);
	CU_ASSERT_EQUAL(cc.rto_us, 362500);
	/* RTTVAR = 3/4 62500 + 1/4 12500 = 50000, SRTT = 110937.5. */
	wr_tcp_cc_rtt(&cc, 100000, &lim);
	CU_ASSERT_EQUAL(cc.srtt_us8, 887500);
	CU_ASSERT_EQUAL(cc.rttvar_us4, 200000);
	CU_ASSERT_EQUAL(cc.rto_us, 310937);
	/* 2.4: a 1 ms path still waits rto_min. */
	fresh(false);
	wr_tcp_cc_rtt(&cc, 1000, &lim);
	CU_ASSERT_EQUAL(cc.rto_us, 200000);
	/* 2.5: and a 100 s one at most rto_max. */
	fresh(false);
	wr_tcp_cc_rtt(&cc, 100000000, &lim);
	CU_ASSERT_EQUAL(cc.srtt_us8, 800000000);
	CU_ASSERT_EQUAL(cc.rto_us, 60000000);
	/* Samples beyond 2^28 us are taken as 2^28 (32-bit fixed point). */
	fresh(false);
	wr_tcp_cc_rtt(&cc, UINT32_MAX, &lim);
	CU_ASSERT_EQUAL(cc.srtt_us8, (uint32_t)WR_TCP_CC_RTT_MAX_US * 8);
	wr_tcp_cc_rtt(&cc, 0, &lim);
	CU_ASSERT_EQUAL(cc.srtt_us8, 7 * WR_TCP_CC_RTT_MAX_US);
	/* RTTVAR 0 (equal samples): G is the floor of K * RTTVAR. */
	{
		struct wr_tcp_cc_limits l0 = { .rto_init_us = 0 };

		wr_tcp_cc_init(&cc, MSS, 10, false, &l0);
		CU_ASSERT_EQUAL(cc.rto_us, 1000000); /* 2.1 when unset */
		wr_tcp_cc_rtt(&cc, 40, &l0);
		CU_ASSERT_EQUAL(cc.rto_us, 120);
		cc.rttvar_us4 = 0;
		cc.srtt_us8 = 320;
		wr_tcp_cc_rtt(&cc, 40, &l0);
		CU_ASSERT_EQUAL(cc.rttvar_us4, 0);
		CU_ASSERT_EQUAL(cc.rto_us, 40 + WR_TCP_CC_G_US);
	}
}

static void
test_backoff(void)
{
	static const uint32_t want[] = {
		2000000, 4000000, 8000000, 16000000, 32000000, 60000000, 60000000,
	};
	unsigned int i;

	fresh(false);
	/* RFC 6298 5.5: doubled on each timeout, up to rto_max. */
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
		CU_ASSERT_EQUAL(cc.rto_us, want[i]);
		CU_ASSERT_EQUAL(cc.backoff, i + 1);
	}
	/* A new sample ends the backoff: RTO from SRTT and RTTVAR again. */
	wr_tcp_cc_rtt(&cc, 100000, &lim);
	CU_ASSERT_EQUAL(cc.backoff, 0);
	CU_ASSERT_EQUAL(cc.rto_us, 300000);
	wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
	CU_ASSERT_EQUAL(cc.rto_us, 600000);
	wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
	CU_ASSERT_EQUAL(cc.rto_us, 1200000);
	/* The counter saturates. */
	for (i = 0; i < 300; i++)
		wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
	CU_ASSERT_EQUAL(cc.backoff, UINT8_MAX);
	CU_ASSERT_EQUAL(cc.rto_us, 60000000);
}

static void
test_syn_lost(void)
{
	fresh(false);
	/* The SYN's RTO as the engine takes it: one sequence number out. */
	wr_tcp_cc_timeout(&cc, 5000, 5001, &lim);
	CU_ASSERT_EQUAL(cc.ssthresh, 2000);
	CU_ASSERT_EQUAL(cc.rto_us, 2000000);
	wr_tcp_cc_syn_lost(&cc);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);          /* RFC 5681 3.1 */
	CU_ASSERT_EQUAL(cc.rto_us, 3000000);    /* RFC 6298 5.7 */
	CU_ASSERT_EQUAL(cc.ssthresh, UINT32_MAX);
	CU_ASSERT_FALSE(cc.flags & (WR_TCP_CC_F_RECOVER | WR_TCP_CC_F_RTO));
	/* Slow start from one segment; three duplicates work at once. */
	wr_tcp_cc_ack(&cc, 6001, 5001, 7001, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 2000);
	dupack(6001, 8001);
	dupack(6001, 8001);
	CU_ASSERT_EQUAL(dupack(6001, 8001), WR_TCP_CC_RETRANSMIT);
	/* Two SYN timeouts: 4 s stays 4 s. */
	fresh(false);
	wr_tcp_cc_timeout(&cc, 5000, 5001, &lim);
	wr_tcp_cc_timeout(&cc, 5000, 5001, &lim);
	wr_tcp_cc_syn_lost(&cc);
	CU_ASSERT_EQUAL(cc.rto_us, 4000000);
	fresh(false);
	wr_tcp_cc_rtt(&cc, 100000, &lim);       /* a sample (timestamps) decides */
	wr_tcp_cc_syn_lost(&cc);
	CU_ASSERT_EQUAL(cc.rto_us, 300000);
}

static void
test_idle(void)
{
	uint32_t una = 1000, k;

	fresh(false);
	for (k = 0; k < 20; k++, una += 1000)
		wr_tcp_cc_ack(&cc, una + 1000, una, una + 40000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 30000);
	wr_tcp_cc_idle(&cc);                    /* RFC 5681 4.1 */
	CU_ASSERT_EQUAL(cc.cwnd, 10000);
	CU_ASSERT_EQUAL(cc.ssthresh, UINT32_MAX);
	/* Below IW it stays; equation (1)'s IW counts too. */
	wr_tcp_cc_timeout(&cc, una, una + 5000, &lim);
	wr_tcp_cc_idle(&cc);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);
	wr_tcp_cc_init(&cc, 1460, 0, false, &lim);
	CU_ASSERT_EQUAL(cc.iw_segs, 3);
	cc.cwnd = 100000;
	wr_tcp_cc_idle(&cc);
	CU_ASSERT_EQUAL(cc.cwnd, 4380);
}

static void
test_slow_start(void)
{
	uint32_t una = 1000, k;

	fresh(false);
	/* RFC 5681 3.1 (2): cwnd += min(N, SMSS) per ACK. */
	for (k = 0; k < 5; k++) {
		CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, una + 1000, una, una + 20000,
					      NULL, 0, false), WR_TCP_CC_NONE);
		una += 1000;
	}
	CU_ASSERT_EQUAL(cc.cwnd, 15000);
	/* A stretch ACK of 2.5 segments: one SMSS (L = 1 SMSS). */
	wr_tcp_cc_ack(&cc, una + 2500, una, una + 20000, NULL, 0, false);
	una += 2500;
	CU_ASSERT_EQUAL(cc.cwnd, 16000);
	/* Half a segment: half a segment. */
	wr_tcp_cc_ack(&cc, una + 500, una, una + 20000, NULL, 0, false);
	una += 500;
	CU_ASSERT_EQUAL(cc.cwnd, 16500);
	CU_ASSERT_EQUAL(cc.acked_partial, 0);
	/* An ACK of old data, or of data never sent, changes nothing. */
	wr_tcp_cc_ack(&cc, una - 1000, una, una + 20000, NULL, 0, false);
	wr_tcp_cc_ack(&cc, una + 20001, una, una + 20000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 16500);
	/* A window update (neither new data nor a duplicate) neither. */
	wr_tcp_cc_ack(&cc, una, una, una + 20000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 16500);
	CU_ASSERT_EQUAL(cc.dupacks, 0);
}

static void
test_congestion_avoidance(void)
{
	uint32_t una = 1000, k;

	fresh(false);
	cc.ssthresh = 10000; /* cwnd == ssthresh: avoidance (RFC 5681 3.1 allows either) */
	/* Byte counting: one SMSS per cwnd of bytes acknowledged. */
	for (k = 0; k < 9; k++) {
		wr_tcp_cc_ack(&cc, una + 1000, una, una + 30000, NULL, 0, false);
		una += 1000;
	}
	CU_ASSERT_EQUAL(cc.cwnd, 10000);
	CU_ASSERT_EQUAL(cc.acked_partial, 9000);
	wr_tcp_cc_ack(&cc, una + 1000, una, una + 30000, NULL, 0, false);
	una += 1000;
	CU_ASSERT_EQUAL(cc.cwnd, 11000);
	CU_ASSERT_EQUAL(cc.acked_partial, 0);
	/* The next SMSS takes 11 ACKs of one segment. */
	for (k = 0; k < 10; k++) {
		wr_tcp_cc_ack(&cc, una + 1000, una, una + 30000, NULL, 0, false);
		una += 1000;
	}
	CU_ASSERT_EQUAL(cc.cwnd, 11000);
	wr_tcp_cc_ack(&cc, una + 1000, una, una + 30000, NULL, 0, false);
	una += 1000;
	CU_ASSERT_EQUAL(cc.cwnd, 12000);
	/* A stretch ACK of 30000 bytes: still one SMSS (at most one per
	 * window), the rest not banked beyond one window. */
	wr_tcp_cc_ack(&cc, una + 30000, una, una + 30000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 13000);
	CU_ASSERT_EQUAL(cc.acked_partial, 12999);
}

static void
test_three_dupacks(void)
{
	fresh(false);
	/* Flight 10000 (cwnd full).  Duplicate ACKs 1 and 2: limited
	 * transmit (RFC 3042) lets one more segment go for each. */
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 11000, 11000, RWND), 0);
	CU_ASSERT_EQUAL(dupack(1000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 11000, 11000, RWND), 1000);
	CU_ASSERT_EQUAL(dupack(1000, 12000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 12000, 12000, RWND), 1000);
	CU_ASSERT_EQUAL(cc.cwnd, 10000);        /* limited transmit leaves cwnd */
	/* The third: ssthresh = max(FlightSize / 2, 2 SMSS) with the two
	 * limited-transmit segments left out of FlightSize (RFC 5681 3.2
	 * step 2), cwnd = ssthresh + 3 SMSS (step 3), recover = snd_max. */
	CU_ASSERT_EQUAL(dupack(1000, 13000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	CU_ASSERT_EQUAL(cc.cwnd, 8000);
	CU_ASSERT_EQUAL(cc.recover, 13000);
	CU_ASSERT(cc.flags & WR_TCP_CC_F_RECOVERY);
	/* The fast retransmit was the RETRANSMIT itself: next() owes none. */
	{
		uint32_t seq, len;

		CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 1000, 13000, &seq, &len));
	}
	/* ssthresh is at least 2 SMSS. */
	fresh(false);
	dupack(1000, 4000);
	dupack(1000, 4000);
	CU_ASSERT_EQUAL(dupack(1000, 4000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.ssthresh, 2000);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	/* Not duplicates (dup false: data, a window change): no count. */
	fresh(false);
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, NULL, 0, false);
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, NULL, 0, false);
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.dupacks, 0);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	/* A new ACK between resets the count (RFC 5681 3.2). */
	dupack(1000, 11000);
	dupack(1000, 11000);
	wr_tcp_cc_ack(&cc, 2000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.dupacks, 0);
	CU_ASSERT_EQUAL(dupack(2000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(dupack(2000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(dupack(2000, 11000), WR_TCP_CC_RETRANSMIT);
}

static void
test_newreno_recovery(void)
{
	uint32_t seq = 0, len = 0;

	fresh(false);
	dupack(1000, 11000);
	dupack(1000, 11000);
	CU_ASSERT_EQUAL(dupack(1000, 11000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	CU_ASSERT_EQUAL(cc.cwnd, 8000);
	/* RFC 5681 3.2 step 4: each further duplicate inflates by SMSS. */
	dupack(1000, 11000);
	dupack(1000, 11000);
	CU_ASSERT_EQUAL(cc.cwnd, 10000);
	/* ...and new data goes when the inflated window allows it. */
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 11000, 11000, RWND), 0);
	dupack(1000, 11000);
	CU_ASSERT_EQUAL(cc.cwnd, 11000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 11000, 11000, RWND), 1000);
	/* A partial ACK of 3000 (RFC 6582 3.2 step 3): deflate by 3000, add
	 * SMSS back, and the first unacknowledged segment goes again. */
	CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, 4000, 1000, 11000, NULL, 0, false),
			WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(cc.cwnd, 9000);
	CU_ASSERT(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 4000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 4000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 4000, 11000, &seq, &len));
	/* A partial ACK of less than SMSS: no SMSS added back. */
	wr_tcp_cc_ack(&cc, 4500, 4000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 8500);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 4500, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 4500);
	CU_ASSERT_EQUAL(len, 1000);
	/* A last segment shorter than SMSS. */
	wr_tcp_cc_ack(&cc, 10800, 4500, 11000, NULL, 0, false);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 10800, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 10800);
	CU_ASSERT_EQUAL(len, 200);
	CU_ASSERT_EQUAL(cc.cwnd, 3200);         /* 8500 - 6300 + 1000 */
	/* The full ACK (recover = 11000): cwnd = min(ssthresh,
	 * max(FlightSize, SMSS) + SMSS) with FlightSize 0. */
	CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, 11000, 10800, 11000, NULL, 0, false),
			WR_TCP_CC_NONE);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.cwnd, 2000);
	CU_ASSERT_EQUAL(cc.dupacks, 0);
	/* With 2500 in flight (new data sent in recovery): 3500. */
	fresh(false);
	dupack(1000, 11000);
	dupack(1000, 11000);
	dupack(1000, 11000);
	wr_tcp_cc_ack(&cc, 11000, 1000, 13500, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 3500);
	/* With much in flight: ssthresh. */
	fresh(false);
	dupack(1000, 11000);
	dupack(1000, 11000);
	dupack(1000, 11000);
	wr_tcp_cc_ack(&cc, 11000, 1000, 30000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	/* Back in congestion avoidance (cwnd == ssthresh). */
	wr_tcp_cc_ack(&cc, 16000, 11000, 30000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 6000);
	/* Partial ACKs never take cwnd below one segment. */
	fresh(false);
	dupack(1000, 11000);
	dupack(1000, 11000);
	dupack(1000, 11000);
	wr_tcp_cc_ack(&cc, 10000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);          /* 8000 - 9000 -> 0, + 1000 */
	wr_tcp_cc_ack(&cc, 10500, 10000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);          /* 1000 - 500, floored */
}

static void
test_careful(void)
{
	fresh(false);
	/* RFC 6582 3.2 step 2, the careful variant: after an RTO, recover =
	 * snd_max; the duplicate ACKs the go-back-N draws do not start a
	 * recovery. */
	wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);
	CU_ASSERT_EQUAL(cc.recover, 11000);
	wr_tcp_cc_ack(&cc, 3000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(dupack(3000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(dupack(3000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(dupack(3000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(dupack(3000, 11000), WR_TCP_CC_NONE);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	/* An ACK at recover does not cover more than it (ack - 1 > the
	 * highest byte sent, RFC 6582 3.2 step 2): still none. */
	wr_tcp_cc_ack(&cc, 11000, 3000, 21000, NULL, 0, false);
	CU_ASSERT(cc.flags & WR_TCP_CC_F_RECOVER);
	dupack(11000, 21000);
	dupack(11000, 21000);
	CU_ASSERT_EQUAL(dupack(11000, 21000), WR_TCP_CC_NONE);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	/* One byte beyond it, three duplicates do. */
	wr_tcp_cc_ack(&cc, 11001, 11000, 21000, NULL, 0, false);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVER);
	dupack(11001, 21000);
	dupack(11001, 21000);
	CU_ASSERT_EQUAL(dupack(11001, 21000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.recover, 21000);
	/* A recovery ends at an ACK of recover (all of it: step 3), but the
	 * duplicates there start no new one; past it they do. */
	wr_tcp_cc_ack(&cc, 21000, 11001, 21000, NULL, 0, false);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	dupack(21000, 31000);
	dupack(21000, 31000);
	CU_ASSERT_EQUAL(dupack(21000, 31000), WR_TCP_CC_NONE);
	wr_tcp_cc_ack(&cc, 22000, 21000, 31000, NULL, 0, false);
	dupack(22000, 31000);
	dupack(22000, 31000);
	CU_ASSERT_EQUAL(dupack(22000, 31000), WR_TCP_CC_RETRANSMIT);
}

static void
test_timeout(void)
{
	fresh(true);
	sack_dup(1000, 11000, 2000, 5000);
	CU_ASSERT(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.n_sack, 1);
	/* RFC 5681 (4), RFC 6675 5.1, RFC 2018 8: FlightSize 10000. */
	wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.n_sack, 0);
	CU_ASSERT_EQUAL(cc.dupacks, 0);
	/* The go-back-N: snd_nxt back at snd_una, one segment allowed. */
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 1000, 11000, RWND), 1000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 2000, 11000, RWND), 0);
	/* Lost again: ssthresh held (not 2000 from the flight). */
	wr_tcp_cc_timeout(&cc, 1000, 2000, &lim);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	/* Its ACK: slow start from one segment; a later RTO halves again. */
	wr_tcp_cc_ack(&cc, 2000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 2000);
	wr_tcp_cc_timeout(&cc, 2000, 6000, &lim);
	CU_ASSERT_EQUAL(cc.ssthresh, 2000);
	CU_ASSERT_EQUAL(cc.cwnd, MSS);
}

static void
test_send_ok(void)
{
	fresh(false);
	/* min(cwnd, rwnd) - flight. */
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 1000, 1000, RWND), 10000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 1000, 1000, 4000), 4000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 3000, 3000, 4000), 2000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 6000, 6000, RWND), 5000);
	/* Never negative: a window that shrank, a flight above cwnd. */
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 6000, 6000, 4000), 0);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 12000, 12000, RWND), 0);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 1000, 1000, 0), 0);
}

static void
test_scoreboard(void)
{
	struct wr_tcp_cc_range b[4];

	fresh(true);
	/* Two blocks, then the one between: one range (RFC 6675 Update()). */
	b[0] = (struct wr_tcp_cc_range){ 3000, 4000 };
	b[1] = (struct wr_tcp_cc_range){ 5000, 6000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 2, true);
	CU_ASSERT_EQUAL(cc.n_sack, 2);
	CU_ASSERT_TRUE(wr_tcp_cc_sacked(&cc, 3000, 1000));
	CU_ASSERT_FALSE(wr_tcp_cc_sacked(&cc, 3000, 1001));
	CU_ASSERT_FALSE(wr_tcp_cc_sacked(&cc, 4000, 1000));
	CU_ASSERT_FALSE(wr_tcp_cc_sacked(&cc, 3000, 0));
	b[0] = (struct wr_tcp_cc_range){ 4000, 5000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 1, true);
	CU_ASSERT_EQUAL(cc.n_sack, 1);
	CU_ASSERT_EQUAL(cc.sack[0].l, 3000);
	CU_ASSERT_EQUAL(cc.sack[0].r, 6000);
	/* Overlapping blocks, one covering two ranges. */
	b[0] = (struct wr_tcp_cc_range){ 7000, 8000 };
	b[1] = (struct wr_tcp_cc_range){ 9000, 10000 };
	b[2] = (struct wr_tcp_cc_range){ 7500, 9500 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 3, true);
	CU_ASSERT_EQUAL(cc.n_sack, 2);
	CU_ASSERT_EQUAL(cc.sack[1].l, 7000);
	CU_ASSERT_EQUAL(cc.sack[1].r, 10000);
	/* Bogus blocks: empty, reversed, beyond snd_max, at or below the
	 * ACK (a D-SACK, RFC 2883). */
	b[0] = (struct wr_tcp_cc_range){ 6500, 6500 };
	b[1] = (struct wr_tcp_cc_range){ 6800, 6600 };
	b[2] = (struct wr_tcp_cc_range){ 10500, 11001 };
	b[3] = (struct wr_tcp_cc_range){ 500, 1000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 4, false);
	CU_ASSERT_EQUAL(cc.n_sack, 2);
	/* The cumulative ACK drops what it covers. */
	wr_tcp_cc_ack(&cc, 2000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.n_sack, 2);
	CU_ASSERT_EQUAL(cc.sack[0].l, 3000);
	wr_tcp_cc_ack(&cc, 6000, 2000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.n_sack, 1);
	CU_ASSERT_EQUAL(cc.sack[0].l, 7000);
	CU_ASSERT_EQUAL(cc.sack[0].r, 10000);
	/* A block holding the byte at the ACK is bogus (it would be
	 * acknowledged); an ACK inside a range drops it (reneging). */
	fresh(true);
	b[0] = (struct wr_tcp_cc_range){ 500, 2000 };
	b[1] = (struct wr_tcp_cc_range){ 1000, 2000 };
	b[2] = (struct wr_tcp_cc_range){ 3000, 4000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 3, false);
	CU_ASSERT_EQUAL(cc.n_sack, 1);
	CU_ASSERT_EQUAL(cc.sack[0].l, 3000);
	wr_tcp_cc_ack(&cc, 3500, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.n_sack, 0);
	/* Full: five disjoint ranges, the four highest kept. */
	fresh(true);
	for (unsigned int i = 0; i < 5; i++) {
		b[0] = (struct wr_tcp_cc_range){ 2000 + 2000 * i, 3000 + 2000 * i };
		wr_tcp_cc_ack(&cc, 1000, 1000, 20000, b, 1, false);
	}
	CU_ASSERT_EQUAL(cc.n_sack, WR_TCP_CC_SACK_MAX);
	CU_ASSERT_EQUAL(cc.sack[0].l, 4000);
	CU_ASSERT_EQUAL(cc.sack[3].l, 10000);
	CU_ASSERT_EQUAL(cc.sack[3].r, 11000);
	/* A low one coming back when full goes again; one that joins two
	 * makes room. */
	b[0] = (struct wr_tcp_cc_range){ 2000, 3000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 20000, b, 1, false);
	CU_ASSERT_EQUAL(cc.sack[0].l, 4000);
	b[0] = (struct wr_tcp_cc_range){ 5000, 6000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 20000, b, 1, false);
	CU_ASSERT_EQUAL(cc.n_sack, 3);
	CU_ASSERT_EQUAL(cc.sack[0].l, 4000);
	CU_ASSERT_EQUAL(cc.sack[0].r, 7000);
	/* Without SACK agreed, blocks are ignored. */
	fresh(false);
	b[0] = (struct wr_tcp_cc_range){ 2000, 3000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 1, false);
	CU_ASSERT_EQUAL(cc.n_sack, 0);
}

static void
test_is_lost(void)
{
	struct wr_tcp_cc_range b[3];

	fresh(true);
	/* 2 SMSS SACKed above: not more than (DupThresh - 1) SMSS. */
	b[0] = (struct wr_tcp_cc_range){ 2000, 4000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 1, false);
	CU_ASSERT_FALSE(wr_tcp_cc_lost(&cc, 1000));
	b[0] = (struct wr_tcp_cc_range){ 4000, 4001 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 1, false);
	CU_ASSERT_TRUE(wr_tcp_cc_lost(&cc, 1000));
	CU_ASSERT_TRUE(wr_tcp_cc_lost(&cc, 1999));
	/* Inside the range: bytes above 2000 only, 2000 of them. */
	CU_ASSERT_FALSE(wr_tcp_cc_lost(&cc, 2000));
	CU_ASSERT_FALSE(wr_tcp_cc_lost(&cc, 4001));
	/* Three discontiguous ranges of 100 bytes: DupThresh of them. */
	fresh(true);
	b[0] = (struct wr_tcp_cc_range){ 2000, 2100 };
	b[1] = (struct wr_tcp_cc_range){ 3000, 3100 };
	b[2] = (struct wr_tcp_cc_range){ 4000, 4100 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 3, false);
	CU_ASSERT_TRUE(wr_tcp_cc_lost(&cc, 1000));
	CU_ASSERT_FALSE(wr_tcp_cc_lost(&cc, 2500));
}

static void
test_sack_enter(void)
{
	uint32_t seq = 0, len = 0;

	fresh(true);
	/* One segment SACKed per duplicate (RFC 6675 5 (1)): the third
	 * enters; cwnd = ssthresh (4.2); HighRxt the retransmission's end. */
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 3000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 4000), WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 5000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.dupacks, 3);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	CU_ASSERT_EQUAL(cc.recover, 11000);
	CU_ASSERT_EQUAL(cc.high_rxt, 2000);
	/* pipe: the hole sent again (1000), the tail (6000). */
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 1000, 11000), 7000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 1000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 11000, 11000, RWND), 0);
	/* (2): IsLost(HighACK + 1) before DupThresh: the first duplicate
	 * SACKing three segments enters. */
	fresh(true);
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 5000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.dupacks, 1);
	/* Small segments: three duplicates of 100 bytes each (1). */
	fresh(true);
	sack_dup(1000, 11000, 2000, 2100);
	sack_dup(1000, 11000, 2000, 2200);
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 2300), WR_TCP_CC_RETRANSMIT);
	/* Not again before the ACK passes RecoveryPoint (RFC 6675 5). */
	fresh(true);
	wr_tcp_cc_timeout(&cc, 1000, 11000, &lim);
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 5000), WR_TCP_CC_NONE);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
}

static void
test_next_seg(void)
{
	struct wr_tcp_cc_range b[3] = {
		{ 2000, 3000 }, { 4000, 5000 }, { 6000, 9000 },
	};
	uint32_t seq = 0, len = 0;

	fresh(true);
	/* Holes [1000,2000) [3000,4000) [5000,6000) all lost (more than
	 * 2 SMSS SACKed above each); the tail [9000,11000) is not. */
	CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 3, true),
			WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 1000, 11000), 3000);
	/* Rule 1: the lowest lost hole above HighRxt; cwnd - pipe >= SMSS. */
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 1000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 3000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_EQUAL(cc.high_rxt, 4000);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 1000, 11000), 4000);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 1000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 5000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 1000, 11000), 5000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 1000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 1000, 11000, 11000, RWND), 0);
	/* Its ACK: the first hole filled, [2000,3000) SACKed, so 3000; pipe
	 * 4000, room for one new segment; nothing below the highest SACK to
	 * resend (the tail is not lost). */
	CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, 3000, 1000, 11000, b, 3, false),
			WR_TCP_CC_NONE);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);         /* RFC 6675 (B): unchanged */
	CU_ASSERT_EQUAL(cc.n_sack, 2);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 3000, 11000), 4000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 3000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 3000, 11000, 11000, RWND), 1000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, 3000, 11000, 11000, 8500), 500);
	/* A new SACK above the tail makes [9000,11000) lost: two segments,
	 * one at a time, as pipe allows.  12000 sent (send_ok's). */
	b[0] = (struct wr_tcp_cc_range){ 11000, 12000 };
	wr_tcp_cc_ack(&cc, 3000, 3000, 12000, b, 1, true);
	/* Holes: [3000,4000) [5000,6000) lost and sent again (1000 each);
	 * [9000,11000) has 1000 SACKed above it, one range: not lost, 2000. */
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 3000, 12000), 4000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 3000, 12000, &seq, &len));
	/* Two more segments SACKed above: now lost. */
	b[0] = (struct wr_tcp_cc_range){ 12000, 14000 };
	wr_tcp_cc_ack(&cc, 3000, 3000, 14000, b, 1, true);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 3000, 14000), 2000);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 3000, 14000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 9000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 3000, 14000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 10000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 3000, 14000), 4000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 3000, 14000, &seq, &len));
	/* Everything arrives: the ACK beyond RecoveryPoint ends it (A),
	 * cwnd stays ssthresh. */
	wr_tcp_cc_ack(&cc, 14000, 3000, 14000, NULL, 0, false);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	CU_ASSERT_EQUAL(cc.n_sack, 0);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 14000, 14000, &seq, &len));
	/* An ACK of RecoveryPoint itself ends it too; ranges above stay. */
	fresh(true);
	CU_ASSERT_EQUAL(sack_dup(1000, 11000, 2000, 5000), WR_TCP_CC_RETRANSMIT);
	sack_dup(1000, 15000, 12000, 13000);
	wr_tcp_cc_ack(&cc, 11000, 1000, 15000, NULL, 0, false);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.n_sack, 1);
	CU_ASSERT_EQUAL(cc.sack[0].l, 12000);
	CU_ASSERT_EQUAL(cc.sack[0].r, 13000);
}

static void
test_sack_no_blocks(void)
{
	uint32_t seq = 0, len = 0;

	fresh(true);
	dupack(1000, 11000);
	dupack(1000, 11000);
	CU_ASSERT_EQUAL(dupack(1000, 11000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);         /* RFC 6675's, not inflated */
	dupack(1000, 11000);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 1000, 11000, &seq, &len));
	/* A partial ACK and no block: the segment it points at goes. */
	wr_tcp_cc_ack(&cc, 5000, 1000, 11000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 5000);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, 5000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 5000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_EQUAL(cc.high_rxt, 6000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 5000, 11000, &seq, &len));
	/* With blocks, the scoreboard decides (no such retransmission). */
	{
		struct wr_tcp_cc_range b = { 8000, 9000 };

		wr_tcp_cc_ack(&cc, 6000, 5000, 11000, &b, 1, false);
		CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 6000, 11000, &seq, &len));
	}
}

static void
test_next_seg_rule3(void)
{
	struct wr_tcp_cc_range b[2] = { { 2000, 9000 }, { 10000, 11000 } };
	uint32_t seq = 0, len = 0;

	fresh(true);
	CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 2, true),
			WR_TCP_CC_RETRANSMIT);
	/* [9000,10000) has one segment SACKed above: not lost, so rule 1
	 * has nothing; rule 3 sends it when no new data can go. */
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 1000, 11000), 2000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, 1000, 11000, &seq, &len));
	CU_ASSERT_TRUE(wr_tcp_cc_next_idle(&cc, 1000, 11000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 9000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_EQUAL(cc.high_rxt, 10000);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, 1000, 11000), 3000);
	CU_ASSERT_FALSE(wr_tcp_cc_next_idle(&cc, 1000, 11000, &seq, &len));
	/* Nothing above the highest SACKed byte (1.b). */
	fresh(true);
	b[0] = (struct wr_tcp_cc_range){ 2000, 5000 };
	wr_tcp_cc_ack(&cc, 1000, 1000, 11000, b, 1, true);
	CU_ASSERT(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_FALSE(wr_tcp_cc_next_idle(&cc, 1000, 11000, &seq, &len));
	/* Not in recovery, or without SACK: never. */
	fresh(true);
	CU_ASSERT_FALSE(wr_tcp_cc_next_idle(&cc, 1000, 11000, &seq, &len));
	fresh(false);
	dupack(1000, 11000);
	dupack(1000, 11000);
	dupack(1000, 11000);
	CU_ASSERT_FALSE(wr_tcp_cc_next_idle(&cc, 1000, 11000, &seq, &len));
}

static void
test_wrap(void)
{
	const uint32_t u = 0xfffff000u;         /* 4096 bytes below 2^32 */
	struct wr_tcp_cc_range b[2];
	uint32_t seq = 0, len = 0;

	CU_ASSERT_TRUE(wr_tcp_seq_lt(0xffffffffu, 0));
	CU_ASSERT_TRUE(wr_tcp_seq_leq(0xffffffffu, 0xffffffffu));
	CU_ASSERT_FALSE(wr_tcp_seq_lt(5, 0xfffffff0u));
	/* NewReno across the wrap: snd_max = u + 10000 = 5904. */
	fresh(false);
	dupack(u, u + 10000);
	dupack(u, u + 10000);
	CU_ASSERT_EQUAL(dupack(u, u + 10000), WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.recover, 5904);
	CU_ASSERT_EQUAL(cc.ssthresh, 5000);
	wr_tcp_cc_ack(&cc, u + 5000, u, u + 10000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 4000);         /* 8000 - 5000 + 1000 */
	CU_ASSERT_TRUE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, u + 5000, u + 10000, &seq, &len));
	CU_ASSERT_EQUAL(seq, 904);
	wr_tcp_cc_ack(&cc, 5904, u + 5000, 5904, NULL, 0, false);
	CU_ASSERT_FALSE(cc.flags & WR_TCP_CC_F_RECOVERY);
	CU_ASSERT_EQUAL(cc.cwnd, 2000);
	/* Growth across it. */
	fresh(false);
	wr_tcp_cc_ack(&cc, u + 5000, u, u + 10000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.cwnd, 11000);
	CU_ASSERT_EQUAL(wr_tcp_cc_send_ok(&cc, u + 5000, u + 10000, u + 10000, RWND),
			6000);
	/* SACK blocks straddling 2^32. */
	fresh(true);
	b[0] = (struct wr_tcp_cc_range){ u + 2000, u + 5000 };   /* 0xfffff7d0..904 */
	b[1] = (struct wr_tcp_cc_range){ u + 6000, u + 7000 };
	CU_ASSERT_EQUAL(wr_tcp_cc_ack(&cc, u, u, u + 10000, b, 2, true),
			WR_TCP_CC_RETRANSMIT);
	CU_ASSERT_EQUAL(cc.n_sack, 2);
	CU_ASSERT_EQUAL(cc.sack[0].l, u + 2000);
	CU_ASSERT_EQUAL(cc.sack[0].r, 904);
	CU_ASSERT_TRUE(wr_tcp_cc_sacked(&cc, 0xfffffff0u, 0x20));
	CU_ASSERT_TRUE(wr_tcp_cc_lost(&cc, u));
	CU_ASSERT_FALSE(wr_tcp_cc_lost(&cc, 904)); /* 1000 above, one range */
	CU_ASSERT_EQUAL(cc.high_rxt, u + 1000);
	/* pipe: hole [u, u+2000) lost, its first 1000 sent again; hole
	 * [904, 1904) not lost, counted; the tail [2904, 5904). */
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, u, u + 10000), 1000 + 1000 + 3000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, u, u + 10000, &seq, &len));
	/* Its ACK: pipe 4000, the rest of the first hole goes. */
	wr_tcp_cc_ack(&cc, u + 1000, u, u + 10000, NULL, 0, false);
	CU_ASSERT_EQUAL(wr_tcp_cc_pipe(&cc, u + 1000, u + 10000), 4000);
	CU_ASSERT_TRUE(wr_tcp_cc_next(&cc, u + 1000, u + 10000, &seq, &len));
	CU_ASSERT_EQUAL(seq, u + 1000);
	CU_ASSERT_EQUAL(len, 1000);
	CU_ASSERT_FALSE(wr_tcp_cc_next(&cc, u + 1000, u + 10000, &seq, &len));
	/* The hole filled: the cumulative ACK past 2^32 drops the range. */
	wr_tcp_cc_ack(&cc, 904, u + 1000, u + 10000, NULL, 0, false);
	CU_ASSERT_EQUAL(cc.n_sack, 1);
	CU_ASSERT_EQUAL(cc.sack[0].l, 1904);
	CU_ASSERT_EQUAL(cc.sack[0].r, 2904);
	CU_ASSERT_TRUE(cc.flags & WR_TCP_CC_F_RECOVERY);
}

/* ---- a transfer through a lossy link, end to end ---- */

/*
 * One sender (this module and the engine's part of it, as wr_tcp_out.c
 * does it) and one receiver that SACKs (RFC 2018 4: the block of the
 * segment just received first), a link of fixed delay, segments dropped
 * on their first sending by a rule.  Time in microseconds.
 */
#define SIM_DELAY 10000u
#define SIM_EV_MAX 4096
#define SIM_OOO_MAX 64

struct sim_ev {
	uint64_t at;
	uint32_t order;
	bool data;              /* data to the receiver, else an ACK back */
	uint32_t seq, len;      /* data; ack in seq */
	uint64_t echo;          /* send time echoed (timestamps, RFC 7323) */
	uint8_t n_sack;
	struct wr_tcp_cc_range sack[3];
};

struct sim {
	bool use_sack;
	bool no_blocks;         /* SACK agreed, yet no blocks come (a middlebox) */
	uint32_t iss, end;      /* sequence numbers of the first byte and one past the last */
	uint32_t una, nxt, max;
	uint64_t now, rto_at;   /* rto_at 0: the timer stopped */
	struct sim_ev ev[SIM_EV_MAX];
	unsigned int n_ev;
	uint32_t order;
	/* receiver */
	uint32_t rcv_nxt;
	struct wr_tcp_cc_range ooo[SIM_OOO_MAX];
	unsigned int n_ooo;
	/* what happened */
	unsigned int sent, rexmit, dropped, rto, recoveries;
	bool (*drop)(struct sim *s, uint32_t off, bool first);
	uint64_t rng;
	uint8_t *seen;          /* offsets sent once already */
};

static void
sim_push(struct sim *s, const struct sim_ev *e)
{
	CU_ASSERT_FATAL(s->n_ev < SIM_EV_MAX);
	s->ev[s->n_ev] = *e;
	s->ev[s->n_ev].order = s->order++;
	s->n_ev++;
}

static void
sim_xmit(struct sim *s, uint32_t seq, uint32_t len)
{
	uint32_t off = seq - s->iss;
	bool first = !s->seen[off / MSS];
	struct sim_ev e = { .at = s->now + SIM_DELAY, .data = true,
			    .seq = seq, .len = len, .echo = s->now };

	s->seen[off / MSS] = 1;
	s->sent++;
	if (!first)
		s->rexmit++;
	if (s->rto_at == 0)
		s->rto_at = s->now + cc.rto_us;   /* RFC 6298 5.1 */
	if (s->drop(s, off, first)) {
		s->dropped++;
		return;
	}
	sim_push(s, &e);
}

/* The receiver: merge, advance, ACK with blocks (the newest first). */
static void
sim_receive(struct sim *s, const struct sim_ev *d)
{
	struct sim_ev a = { .at = s->now + SIM_DELAY, .echo = d->echo };
	uint32_t l = d->seq, r = d->seq + d->len;
	unsigned int i, j, n = 0;
	struct wr_tcp_cc_range t[SIM_OOO_MAX + 1];
	int newest = -1;

	if (wr_tcp_seq_lt(s->rcv_nxt, r)) {
		if (wr_tcp_seq_lt(l, s->rcv_nxt))
			l = s->rcv_nxt;
		for (i = 0; i < s->n_ooo; i++) {
			struct wr_tcp_cc_range g = s->ooo[i];

			if (wr_tcp_seq_lt(g.r, l) || wr_tcp_seq_lt(r, g.l)) {
				t[n++] = g;
				continue;
			}
			if (wr_tcp_seq_lt(g.l, l))
				l = g.l;
			if (wr_tcp_seq_lt(r, g.r))
				r = g.r;
		}
		/* sorted insert */
		for (i = 0; i < n && wr_tcp_seq_lt(t[i].l, l); i++)
			;
		for (j = n; j > i; j--)
			t[j] = t[j - 1];
		t[i].l = l;
		t[i].r = r;
		n++;
		if (t[0].l == s->rcv_nxt) {
			s->rcv_nxt = t[0].r;
			memmove(t, t + 1, (n - 1) * sizeof(t[0]));
			n--;
			i = UINT32_MAX;
		}
		CU_ASSERT_FATAL(n <= SIM_OOO_MAX);
		memcpy(s->ooo, t, n * sizeof(t[0]));
		s->n_ooo = n;
		newest = (int)i;
	}
	a.seq = s->rcv_nxt;
	if (s->use_sack && !s->no_blocks) {
		if (newest >= 0 && (unsigned int)newest < s->n_ooo)
			a.sack[a.n_sack++] = s->ooo[newest];
		for (i = s->n_ooo; i-- > 0 && a.n_sack < 3;)
			if ((int)i != newest)
				a.sack[a.n_sack++] = s->ooo[i];
	}
	sim_push(s, &a);
}

/* What the engine does after an ACK or a timeout: recovery's segments
 * first, then new data (whole segments, or the last), then rule 3. */
static void
sim_pump(struct sim *s, enum wr_tcp_cc_act act)
{
	uint32_t seq, len, ok, n;

	if (act == WR_TCP_CC_RETRANSMIT) {
		s->recoveries++;
		sim_xmit(s, s->una, min_u32(MSS, s->max - s->una));
	}
	while (wr_tcp_cc_next(&cc, s->una, s->max, &seq, &len))
		sim_xmit(s, seq, len);
	for (;;) {
		n = min_u32(MSS, s->end - s->nxt);
		ok = wr_tcp_cc_send_ok(&cc, s->una, s->nxt, s->max, 1u << 20);
		if (n == 0 || ok < n)
			break;
		sim_xmit(s, s->nxt, n);
		s->nxt += n;
		if (wr_tcp_seq_lt(s->max, s->nxt))
			s->max = s->nxt;
	}
	if (s->nxt == s->end)
		while (wr_tcp_cc_next_idle(&cc, s->una, s->max, &seq, &len))
			sim_xmit(s, seq, len);
}

static void
sim_ack(struct sim *s, const struct sim_ev *a)
{
	bool dup = a->seq == s->una && s->una != s->max;
	enum wr_tcp_cc_act act;

	if (wr_tcp_seq_lt(s->max, a->seq) || wr_tcp_seq_lt(a->seq, s->una))
		return;
	act = wr_tcp_cc_ack(&cc, a->seq, s->una, s->max, a->sack, a->n_sack, dup);
	if (a->seq != s->una) {
		wr_tcp_cc_rtt(&cc, (uint32_t)(s->now - a->echo), &lim);
		s->una = a->seq;
		if (wr_tcp_seq_lt(s->nxt, s->una))
			s->nxt = s->una;
		s->rto_at = s->una == s->max ? 0 : s->now + cc.rto_us; /* 5.2, 5.3 */
	}
	sim_pump(s, act);
	CU_ASSERT(cc.cwnd >= MSS);
}

/* Run until every byte is acknowledged (or 100 simulated seconds). */
static void
sim_run(struct sim *s, bool sack, uint32_t iss, uint32_t bytes)
{
	unsigned int i, k;

	s->use_sack = sack;
	s->iss = s->una = s->nxt = s->max = s->rcv_nxt = iss;
	s->end = iss + bytes;
	s->seen = calloc(bytes / MSS + 1, 1);
	CU_ASSERT_FATAL(s->seen != NULL);
	wr_tcp_cc_init(&cc, MSS, 10, sack, &lim);
	sim_pump(s, WR_TCP_CC_NONE);
	while (s->una != s->end && s->now < 100000000) {
		k = UINT32_MAX;
		for (i = 0; i < s->n_ev; i++)
			if (k == UINT32_MAX || s->ev[i].at < s->ev[k].at ||
			    (s->ev[i].at == s->ev[k].at && s->ev[i].order < s->ev[k].order))
				k = i;
		if (s->rto_at != 0 && (k == UINT32_MAX || s->rto_at <= s->ev[k].at)) {
			s->now = s->rto_at;
			s->rto++;
			wr_tcp_cc_timeout(&cc, s->una, s->max, &lim);
			s->nxt = s->una;                  /* go back (RFC 5681 3.1) */
			s->rto_at = s->now + cc.rto_us;   /* 5.5, 5.6 */
			sim_pump(s, WR_TCP_CC_NONE);
			continue;
		}
		CU_ASSERT_FATAL(k != UINT32_MAX);
		struct sim_ev e = s->ev[k];

		s->ev[k] = s->ev[--s->n_ev];
		s->now = e.at;
		if (e.data)
			sim_receive(s, &e);
		else
			sim_ack(s, &e);
	}
	CU_ASSERT_EQUAL(s->una, s->end);
	CU_ASSERT_EQUAL(s->rcv_nxt, s->end);
	free(s->seen);
}

/* Segments 30, 80, 81 and 150 lost once. */
static bool
drop_set(struct sim *s, uint32_t off, bool first)
{
	(void)s;
	return first && (off == 30 * MSS || off == 80 * MSS ||
			 off == 81 * MSS || off == 150 * MSS);
}

static bool
drop_last(struct sim *s, uint32_t off, bool first)
{
	return first && off == s->end - s->iss - MSS;
}

/* 5 % of every sending, retransmissions too (xorshift64). */
static bool
drop_random(struct sim *s, uint32_t off, bool first)
{
	(void)off;
	(void)first;
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng % 100 < 5;
}

static struct sim sim;

static void
test_transfer(void)
{
	static const uint32_t isss[] = { 1, 0xfffe0000u };
	unsigned int i, j;
	bool sack;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			sack = j == 1;
			/* Three losses apart and two together: each sent again
			 * once, three recoveries (the pair in one: partial ACK
			 * or the scoreboard), no RTO. */
			memset(&sim, 0, sizeof(sim));
			sim.drop = drop_set;
			sim_run(&sim, sack, isss[i], 200 * MSS);
			CU_ASSERT_EQUAL(sim.dropped, 4);
			CU_ASSERT_EQUAL(sim.rexmit, 4);
			CU_ASSERT_EQUAL(sim.recoveries, 3);
			CU_ASSERT_EQUAL(sim.rto, 0);
			/* The last segment lost: no duplicate ACK, the RTO. */
			memset(&sim, 0, sizeof(sim));
			sim.drop = drop_last;
			sim_run(&sim, sack, isss[i], 200 * MSS);
			CU_ASSERT_EQUAL(sim.rexmit, 1);
			CU_ASSERT_EQUAL(sim.recoveries, 0);
			CU_ASSERT_EQUAL(sim.rto, 1);
		}
	}
	/* SACK agreed, no blocks: NewReno's partial ACKs still recover. */
	memset(&sim, 0, sizeof(sim));
	sim.drop = drop_set;
	sim.no_blocks = true;
	sim_run(&sim, true, 1, 200 * MSS);
	CU_ASSERT_EQUAL(sim.rexmit, 4);
	CU_ASSERT_EQUAL(sim.recoveries, 3);
	CU_ASSERT_EQUAL(sim.rto, 0);
	/* 5 % loss, retransmissions lost too: every byte arrives. */
	for (i = 0; i < 20; i++) {
		memset(&sim, 0, sizeof(sim));
		sim.drop = drop_random;
		sim.rng = 0x9e3779b97f4a7c15ull * (i + 1);
		sim_run(&sim, i % 2 == 1, isss[i / 2 % 2], 300 * MSS);
		CU_ASSERT(sim.rexmit >= sim.dropped);
	}
}

/* ---- any sequence of calls keeps the state sound ---- */

static uint64_t rnd_state;

static uint32_t
rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 16);
}

static void
check_state(uint32_t una, uint32_t max, uint32_t rwnd)
{
	unsigned int i;

	CU_ASSERT(cc.cwnd >= cc.mss && cc.cwnd <= WR_TCP_CC_CWND_MAX);
	CU_ASSERT(cc.ssthresh >= 2u * cc.mss);
	CU_ASSERT(cc.acked_partial < cc.cwnd);
	CU_ASSERT(cc.n_sack <= WR_TCP_CC_SACK_MAX);
	for (i = 0; i < cc.n_sack; i++) {
		/* Ranges sorted, apart, above snd_una, sent. */
		CU_ASSERT(wr_tcp_seq_lt(cc.sack[i].l, cc.sack[i].r));
		CU_ASSERT(wr_tcp_seq_lt(una, cc.sack[i].l));
		CU_ASSERT(wr_tcp_seq_leq(cc.sack[i].r, max));
		if (i > 0)
			CU_ASSERT(wr_tcp_seq_lt(cc.sack[i - 1].r, cc.sack[i].l));
	}
	CU_ASSERT(wr_tcp_cc_send_ok(&cc, una, max, max, rwnd) <= rwnd);
	CU_ASSERT(wr_tcp_cc_pipe(&cc, una, max) <= 2 * (max - una));
}

static void
test_random_calls(void)
{
	struct wr_tcp_cc_range b[4];
	uint32_t una, max, ack, seq, len, rwnd, run, step, i, n, k;
	bool dup;

	for (run = 0; run < 400; run++) {
		rnd_state = 0x2545f4914f6cdd1dull * (run + 1);
		una = max = rnd() << 8;         /* anywhere, 2^32 included */
		rwnd = 1000 + rnd() % 100000;
		fresh(run % 2 == 1);
		for (step = 0; step < 300; step++) {
			switch (rnd() % 9) {
			case 0: case 1: case 2:         /* new data sent */
				if (max - una < (1u << 20))
					max += rnd() % 5000;
				break;
			case 3: case 4:                 /* an ACK, SACK blocks in and out of range */
				k = rnd() % 4;
				ack = k == 0 ? una + rnd() % (max - una + 1) :
				      k == 1 ? max + rnd() % 3 : una;
				n = rnd() % 5;
				for (i = 0; i < n; i++) {
					b[i].l = una - 2000 + rnd() % (max - una + 4000);
					b[i].r = b[i].l + rnd() % 4000 - 200;
				}
				dup = ack == una && una != max && rnd() % 4 != 0;
				wr_tcp_cc_ack(&cc, ack, una, max, b, n, dup);
				if (wr_tcp_seq_lt(una, ack) && wr_tcp_seq_leq(ack, max))
					una = ack;
				break;
			case 5:
				if (rnd() % 8 == 0)
					wr_tcp_cc_timeout(&cc, una, max, &lim);
				else if (rnd() % 8 == 0)
					wr_tcp_cc_idle(&cc);
				break;
			case 6:
				wr_tcp_cc_rtt(&cc, rnd() % 2000000, &lim);
				CU_ASSERT(cc.rto_us >= lim.rto_min_us && cc.rto_us <= lim.rto_max_us);
				break;
			default:                        /* what goes again */
				for (k = 0; k < 64 && wr_tcp_cc_next(&cc, una, max, &seq, &len); k++) {
					CU_ASSERT(wr_tcp_seq_leq(una, seq) &&
						  wr_tcp_seq_leq(seq + len, max));
					CU_ASSERT(len > 0 && len <= MSS);
					CU_ASSERT_FALSE(wr_tcp_cc_sacked(&cc, seq, 1));
				}
				CU_ASSERT(k < 64);
				for (k = 0; k < 64 && wr_tcp_cc_next_idle(&cc, una, max, &seq, &len); k++) {
					CU_ASSERT(wr_tcp_seq_leq(una, seq) &&
						  wr_tcp_seq_leq(seq + len, max));
					CU_ASSERT(len > 0 && len <= MSS);
					CU_ASSERT_FALSE(wr_tcp_cc_sacked(&cc, seq, 1));
				}
				CU_ASSERT(k < 64);
				break;
			}
			check_state(una, max, rwnd);
		}
	}
}

static CU_TestInfo tcp_cc_tests[] = {
	{ "init", test_init },
	{ "rtt", test_rtt },
	{ "backoff", test_backoff },
	{ "syn_lost", test_syn_lost },
	{ "slow_start", test_slow_start },
	{ "idle", test_idle },
	{ "congestion_avoidance", test_congestion_avoidance },
	{ "three_dupacks", test_three_dupacks },
	{ "newreno_recovery", test_newreno_recovery },
	{ "careful", test_careful },
	{ "timeout", test_timeout },
	{ "send_ok", test_send_ok },
	{ "scoreboard", test_scoreboard },
	{ "is_lost", test_is_lost },
	{ "sack_enter", test_sack_enter },
	{ "next_seg", test_next_seg },
	{ "next_seg_rule3", test_next_seg_rule3 },
	{ "sack_no_blocks", test_sack_no_blocks },
	{ "wrap", test_wrap },
	{ "transfer", test_transfer },
	{ "random_calls", test_random_calls },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "tcp_cc", .pTests = tcp_cc_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
