/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of counts, durations, bursts, sequencing and ramps (wr_sched). */
#include <errno.h>

#include "wr_rate.h"
#include "wr_sched.h"
#include "wr_test.h"

#define MPPS(x) ((uint64_t)(x) * 1000000000ull) /* Mpps -> millipps */
#define GHZ_1 1000000000ull
#define GHZ_2_5 2500000000ull
#define MS 1000000ull /* ns */

static void
test_run_count(void)
{
	struct wr_sched_run r;

	CU_ASSERT_EQUAL_FATAL(wr_sched_run_start(&r, 100, 0, GHZ_2_5, 5), 0);
	CU_ASSERT_EQUAL(r.end_tsc, UINT64_MAX);
	CU_ASSERT_FALSE(wr_sched_run_done(&r, UINT64_MAX - 1));
	CU_ASSERT_EQUAL(wr_sched_run_clip(&r, 64), 64);
	wr_sched_run_sent(&r, 64);
	CU_ASSERT_EQUAL(wr_sched_run_clip(&r, 64), 36);
	wr_sched_run_sent(&r, 30); /* the NIC took 30 of 36 */
	CU_ASSERT_FALSE(wr_sched_run_done(&r, 6));
	CU_ASSERT_EQUAL(wr_sched_run_clip(&r, 64), 6);
	wr_sched_run_sent(&r, 6);
	CU_ASSERT_TRUE(wr_sched_run_done(&r, 6));
	CU_ASSERT_EQUAL(wr_sched_run_clip(&r, 64), 0);

	/* no count: never done by count */
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 0, 0, GHZ_2_5, 0), 0);
	wr_sched_run_sent(&r, 512);
	CU_ASSERT_EQUAL(wr_sched_run_clip(&r, 512), 512);
	CU_ASSERT_FALSE(wr_sched_run_done(&r, 1ull << 62));
	/* an lcore with no share of the count is done at once */
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, WR_SCHED_NONE, 0, GHZ_2_5, 0), 0);
	CU_ASSERT_TRUE(wr_sched_run_done(&r, 0));
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 1, 0, 0, 0), -EINVAL);
}

static void
test_run_duration(void)
{
	struct wr_sched_run r;
	uint64_t t0 = 1000;

	/* 1 ms at 2.5 GHz: 2.5e6 ticks */
	CU_ASSERT_EQUAL_FATAL(wr_sched_run_start(&r, 0, MS, GHZ_2_5, t0), 0);
	CU_ASSERT_FALSE(wr_sched_run_done(&r, t0 + 2499999));
	CU_ASSERT_TRUE(wr_sched_run_done(&r, t0 + 2500000));
	/* 1 ns is 2.5 ticks: rounded up, never early */
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 0, 1, GHZ_2_5, t0), 0);
	CU_ASSERT_FALSE(wr_sched_run_done(&r, t0 + 2));
	CU_ASSERT_TRUE(wr_sched_run_done(&r, t0 + 3));
	/* count and duration: whichever comes first */
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 10, MS, GHZ_2_5, t0), 0);
	wr_sched_run_sent(&r, 10);
	CU_ASSERT_TRUE(wr_sched_run_done(&r, t0));
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 10, MS, GHZ_2_5, t0), 0);
	wr_sched_run_sent(&r, 9);
	CU_ASSERT_TRUE(wr_sched_run_done(&r, t0 + 2500000));
	/* an end beyond the 64-bit TSC */
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 0, UINT64_MAX, GHZ_2_5, t0), -ERANGE);
	/* A refined TSC frequency moves the end, the count stays: 1 ms from
	 * t0 at 2 GHz, with 3 of 10 frames left. */
	CU_ASSERT_EQUAL(wr_sched_run_start(&r, 10, MS, GHZ_2_5, t0), 0);
	wr_sched_run_sent(&r, 7);
	CU_ASSERT_EQUAL(wr_sched_run_set_end(&r, MS, 2000000000ull, t0), 0);
	CU_ASSERT_EQUAL(r.end_tsc, t0 + 2000000);
	CU_ASSERT_EQUAL(r.left, 3);
	CU_ASSERT_EQUAL(wr_sched_run_set_end(&r, 0, 2000000000ull, t0), 0);
	CU_ASSERT_EQUAL(r.end_tsc, UINT64_MAX);
	CU_ASSERT_EQUAL(wr_sched_run_set_end(&r, MS, 0, t0), -EINVAL);
}

static void
test_split_count(void)
{
	uint64_t count, k, j, sum, idx, share;

	/* against enumerating the indices j, j + K, ... < count */
	for (count = 1; count <= 40; count++) {
		for (k = 1; k <= 9; k++) {
			sum = 0;
			for (j = 0; j < k; j++) {
				uint64_t n = 0;

				for (idx = j; idx < count; idx += k)
					n++;
				share = wr_sched_split_count(count, (unsigned int)k,
							     (unsigned int)j);
				if (n == 0) {
					CU_ASSERT_EQUAL(share, WR_SCHED_NONE);
				} else {
					CU_ASSERT_EQUAL(share, n);
				}
				sum += n == 0 ? 0 : share;
			}
			CU_ASSERT_EQUAL(sum, count);
		}
	}
	CU_ASSERT_EQUAL(wr_sched_split_count(0, 4, 3), 0); /* no limit */
	CU_ASSERT_EQUAL(wr_sched_split_count(10, 4, 4), WR_SCHED_NONE);
}

static void
test_bursts_paced(void)
{
	/* Trains of 5 frames at 10 Mpps (100 ticks at 1 GHz), 10 us from the
	 * last frame of a train to the first of the next: frame i of train j
	 * leaves at j * (4 * 100 + 10000) + i * 100. */
	struct wr_pacer_cfg cfg = {
		.rate_millipps = MPPS(10), .tsc_hz = GHZ_1, .burst = 8,
		.burst_frames = 5, .burst_gap_ns = 10000,
	};
	struct wr_pacer p;
	struct wr_sched_run r;
	uint64_t t0 = 50, now, times[64];
	unsigned int n = 0, i;
	int bad = 0;

	CU_ASSERT_EQUAL_FATAL(wr_pacer_init_cfg(&p, &cfg, t0), 0);
	/* stop after 10 trains */
	CU_ASSERT_EQUAL_FATAL(wr_sched_run_start(&r, 50, 0, GHZ_1, t0), 0);
	for (now = t0; !wr_sched_run_done(&r, now); now++) {
		uint32_t d = wr_sched_run_clip(&r, wr_pacer_due(&p, now));

		if (d > 1)
			bad++; /* never two at once: all deadlines differ */
		for (i = 0; i < d && n < 64; i++)
			times[n++] = now;
		wr_sched_run_sent(&r, d);
		wr_pacer_sent(&p, d, d);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL_FATAL(n, 50);
	for (i = 0; i < 50; i++)
		CU_ASSERT_EQUAL(times[i] - t0, (i / 5) * 10400ull + (i % 5) * 100);
}

static void
test_bursts_back_to_back(void)
{
	/* Trains of 8 frames as fast as the port goes, TX burst 4, a 333 ns
	 * gap at 2.5 GHz (832.5 ticks): train j at floor(j * 832.5), with no
	 * drift after 1000 trains. */
	struct wr_pacer_cfg cfg = {
		.rate_millipps = WR_RATE_UNPACED, .tsc_hz = GHZ_2_5, .burst = 4,
		.cap = 8, .burst_frames = 8, .burst_gap_ns = 333,
	};
	struct wr_pacer p;
	uint64_t t0 = 10, j, at;
	int bad = 0;

	CU_ASSERT_EQUAL_FATAL(wr_pacer_init_cfg(&p, &cfg, t0), 0);
	for (j = 0; j <= 1000; j++) {
		at = t0 + j * 8325 / 10;
		if (j > 0 && wr_pacer_due(&p, at - 1) != 0)
			bad++;
		if (wr_pacer_due(&p, at) != 4 || wr_pacer_due(&p, at) != 4 ||
		    wr_pacer_due(&p, at) != 0)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(wr_pacer_released(&p), 1001 * 8);
	CU_ASSERT_EQUAL(p.skipped, 0);
	/* after a stall of 10 trains: one train (the cap), not ten */
	at = t0 + 1011 * 8325 / 10;
	CU_ASSERT_EQUAL(wr_pacer_due(&p, at), 4);
	CU_ASSERT_EQUAL(wr_pacer_due(&p, at), 4);
	CU_ASSERT_EQUAL(wr_pacer_due(&p, at), 0);
	CU_ASSERT_EQUAL(p.skipped, 80);
	CU_ASSERT_EQUAL(wr_pacer_due(&p, t0 + 1012 * 8325 / 10 - 1), 0);
	CU_ASSERT_EQUAL(wr_pacer_due(&p, t0 + 1012 * 8325 / 10), 4);
}

static void
test_seq_next_first(void)
{
	static const enum wr_sched_next next[] = {
		WR_SCHED_NEXT_NEXT, WR_SCHED_NEXT_NEXT, WR_SCHED_NEXT_FIRST,
	};
	static const uint32_t order[] = { 0, 1, 2, 0, 1, 2, 0, 1, 2, WR_ORDER_DONE };
	struct wr_order s;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(wr_order_init(&s, next, 3, 3), 0);
	CU_ASSERT_EQUAL(wr_order_active(&s), 0);
	CU_ASSERT_EQUAL(s.pass, 1);
	for (i = 1; i < sizeof(order) / sizeof(order[0]); i++) {
		CU_ASSERT_EQUAL(wr_order_end(&s), order[i]);
		CU_ASSERT_EQUAL(wr_order_active(&s), order[i]);
		if (order[i] != WR_ORDER_DONE) {
			CU_ASSERT_EQUAL(s.pass, i / 3 + 1);
		}
	}
	CU_ASSERT_EQUAL(wr_order_end(&s), WR_ORDER_DONE); /* stays done */

	/* loops 0: for ever */
	CU_ASSERT_EQUAL_FATAL(wr_order_init(&s, next, 3, 0), 0);
	for (i = 0; i < 3000; i++)
		wr_order_end(&s);
	CU_ASSERT_EQUAL(wr_order_active(&s), 0);
	CU_ASSERT_EQUAL(s.pass, 1001);

	/* one stream looping on itself, loops 1: runs once */
	CU_ASSERT_EQUAL_FATAL(wr_order_init(&s, &next[2], 1, 1), 0);
	CU_ASSERT_EQUAL(wr_order_end(&s), WR_ORDER_DONE);
}

static void
test_seq_stop(void)
{
	static const enum wr_sched_next stop[] = {
		WR_SCHED_NEXT_NEXT, WR_SCHED_NEXT_STOP, WR_SCHED_NEXT_FIRST,
	};
	static const enum wr_sched_next last_next[] = {
		WR_SCHED_NEXT_NEXT, WR_SCHED_NEXT_NEXT,
	};
	enum wr_sched_next bad[] = { WR_SCHED_NEXT_NEXT, WR_SCHED_NEXT__COUNT };
	struct wr_order s;

	/* stop ends the sequence even with loops left; stream 2 never runs */
	CU_ASSERT_EQUAL_FATAL(wr_order_init(&s, stop, 3, 5), 0);
	CU_ASSERT_EQUAL(wr_order_end(&s), 1);
	CU_ASSERT_EQUAL(wr_order_end(&s), WR_ORDER_DONE);
	/* next on the last stream stops, it does not loop */
	CU_ASSERT_EQUAL_FATAL(wr_order_init(&s, last_next, 2, 0), 0);
	CU_ASSERT_EQUAL(wr_order_end(&s), 1);
	CU_ASSERT_EQUAL(wr_order_end(&s), WR_ORDER_DONE);

	CU_ASSERT_EQUAL(wr_order_init(&s, stop, 0, 1), -EINVAL);
	CU_ASSERT_EQUAL(wr_order_init(&s, NULL, 1, 1), -EINVAL);
	CU_ASSERT_EQUAL(wr_order_init(&s, bad, 2, 1), -EINVAL);
	CU_ASSERT_STRING_EQUAL(wr_sched_next_name(WR_SCHED_NEXT_FIRST), "first");
	CU_ASSERT_STRING_EQUAL(wr_sched_next_name(WR_SCHED_NEXT_STOP), "stop");
	CU_ASSERT_PTR_NULL(wr_sched_next_name(WR_SCHED_NEXT__COUNT));
}

/* What a TX lcore does: the active stream's pacer and limits under a fake
 * clock, then the next action.  Stream A: 10 frames at 1 Mpps then next;
 * stream B: 5 us at 2 Mpps then first; two passes. */
static void
test_seq_driven(void)
{
	static const enum wr_sched_next next[] = {
		WR_SCHED_NEXT_NEXT, WR_SCHED_NEXT_FIRST,
	};
	static const uint64_t count[] = { 10, 0 };
	static const uint64_t dur_ns[] = { 0, 5000 };
	static const uint64_t rate[] = { MPPS(1), MPPS(2) };
	uint64_t sent[4] = { 0 }, start[4] = { 0 };
	struct wr_pacer p;
	struct wr_sched_run r;
	struct wr_order s;
	uint64_t now = 0;
	unsigned int act = 0;
	uint32_t cur;

	CU_ASSERT_EQUAL_FATAL(wr_order_init(&s, next, 2, 2), 0);
	cur = wr_order_active(&s);
	CU_ASSERT_EQUAL_FATAL(wr_pacer_init(&p, rate[cur], GHZ_1, 32, now), 0);
	CU_ASSERT_EQUAL_FATAL(wr_sched_run_start(&r, count[cur], dur_ns[cur], GHZ_1, now), 0);
	while (act < 4) {
		uint32_t d = wr_sched_run_clip(&r, wr_pacer_due(&p, now));

		wr_pacer_sent(&p, d, d);
		wr_sched_run_sent(&r, d);
		sent[act] += d;
		now += 10;
		if (!wr_sched_run_done(&r, now))
			continue;
		cur = wr_order_end(&s);
		act++;
		if (cur == WR_ORDER_DONE)
			break;
		CU_ASSERT_FATAL(act < 4);
		start[act] = now;
		CU_ASSERT_EQUAL_FATAL(wr_pacer_init(&p, rate[cur], GHZ_1, 32, now), 0);
		CU_ASSERT_EQUAL_FATAL(wr_sched_run_start(&r, count[cur], dur_ns[cur],
							 GHZ_1, now), 0);
	}
	CU_ASSERT_EQUAL(act, 4);
	CU_ASSERT_EQUAL(wr_order_active(&s), WR_ORDER_DONE);
	/* A: 10 frames 1 us apart, done when the 10th leaves at 9 us */
	CU_ASSERT_EQUAL(sent[0], 10);
	CU_ASSERT_EQUAL(sent[2], 10);
	CU_ASSERT_EQUAL(start[1], 9010);
	/* B: frames at 0, 0.5, ... 4.5 us of its 5 us: 10 */
	CU_ASSERT_EQUAL(sent[1], 10);
	CU_ASSERT_EQUAL(sent[3], 10);
	CU_ASSERT_EQUAL(start[2], 9010 + 5000);
}

static void
test_ramp_staircase(void)
{
	struct wr_ramp up = {
		.shape = WR_RAMP_STAIRCASE, .at_end = WR_RAMP_END_HOLD,
		.start_millipps = MPPS(1), .end_millipps = MPPS(6),
		.step_millipps = MPPS(2), .step_ns = MS,
	};
	struct wr_ramp down = {
		.shape = WR_RAMP_STAIRCASE, .at_end = WR_RAMP_END_STOP,
		.start_millipps = MPPS(10), .end_millipps = MPPS(1),
		.step_millipps = MPPS(4), .step_ns = 2 * MS,
	};
	static const uint64_t up_rates[] = { MPPS(1), MPPS(3), MPPS(5), MPPS(6) };
	static const uint64_t down_rates[] = { MPPS(10), MPPS(6), MPPS(2), MPPS(1) };
	struct wr_ramp_step st;
	uint64_t rate, i;

	CU_ASSERT_EQUAL_FATAL(wr_ramp_check(&up), 0);
	CU_ASSERT_EQUAL(wr_ramp_n_steps(&up), 4);
	CU_ASSERT_EQUAL(wr_ramp_duration_ns(&up), 4 * MS);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(wr_ramp_step(&up, i, &st), 0);
		CU_ASSERT_EQUAL(st.start_ns, i * MS);
		CU_ASSERT_EQUAL(st.rate_millipps, up_rates[i]);
	}
	CU_ASSERT_EQUAL(wr_ramp_step(&up, 4, &st), -ERANGE);
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&up, 0, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(1));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&up, MS - 1, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(1));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&up, MS, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(3));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&up, 3 * MS + MS / 2, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(6));
	/* hold: the end rate for ever */
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&up, 4 * MS, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(6));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&up, UINT64_MAX, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(6));

	CU_ASSERT_EQUAL_FATAL(wr_ramp_check(&down), 0);
	CU_ASSERT_EQUAL(wr_ramp_n_steps(&down), 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(wr_ramp_rate_at(&down, i * 2 * MS + 1, &rate), 1);
		CU_ASSERT_EQUAL(rate, down_rates[i]);
	}
	/* stop: the last step runs its full duration, then it is over */
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&down, 8 * MS - 1, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(1));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&down, 8 * MS, &rate), 0);
	CU_ASSERT_EQUAL(rate, 0);

	/* a flat ramp is one step */
	down.end_millipps = down.start_millipps;
	CU_ASSERT_EQUAL(wr_ramp_check(&down), 0);
	CU_ASSERT_EQUAL(wr_ramp_n_steps(&down), 1);
	CU_ASSERT_EQUAL(wr_ramp_duration_ns(&down), 2 * MS);
}

static void
test_ramp_linear(void)
{
	struct wr_ramp r = {
		.shape = WR_RAMP_LINEAR, .at_end = WR_RAMP_END_STOP,
		.start_millipps = MPPS(1), .end_millipps = MPPS(6),
		.step_millipps = MPPS(2), .step_ns = MS,
	};
	uint64_t rate;

	CU_ASSERT_EQUAL_FATAL(wr_ramp_check(&r), 0);
	/* 5 Mpps at 2 Mpps per ms: 2.5 ms */
	CU_ASSERT_EQUAL(wr_ramp_duration_ns(&r), 2500000);
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 0, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(1));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, MS / 2, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(2));
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, MS, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(3)); /* through the staircase's corner */
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 1234567, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(1) + 2469134000ull);
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 2499999, &rate), 1);
	CU_ASSERT_EQUAL(rate, 5999998000ull);
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 2500000, &rate), 0);
	CU_ASSERT_EQUAL(rate, 0);
	r.at_end = WR_RAMP_END_HOLD;
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 2500000, &rate), 1);
	CU_ASSERT_EQUAL(rate, MPPS(6));

	/* down, rounded towards the start: 3 pps to 1 pps by 1 pps per 3 ns */
	r = (struct wr_ramp){ .shape = WR_RAMP_LINEAR, .at_end = WR_RAMP_END_HOLD,
			      .start_millipps = 3000, .end_millipps = 1000,
			      .step_millipps = 1000, .step_ns = 3 };
	CU_ASSERT_EQUAL_FATAL(wr_ramp_check(&r), 0);
	CU_ASSERT_EQUAL(wr_ramp_duration_ns(&r), 6);
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 1, &rate), 1);
	CU_ASSERT_EQUAL(rate, 3000 - 333);
	CU_ASSERT_EQUAL(wr_ramp_rate_at(&r, 5, &rate), 1);
	CU_ASSERT_EQUAL(rate, 3000 - 1666);
}

static void
test_ramp_errors(void)
{
	struct wr_ramp ok = {
		.shape = WR_RAMP_STAIRCASE, .at_end = WR_RAMP_END_HOLD,
		.start_millipps = 1000, .end_millipps = MPPS(100),
		.step_millipps = 1000, .step_ns = MS,
	};
	struct wr_ramp r;

	CU_ASSERT_EQUAL(wr_ramp_check(&ok), 0);
	r = ok, r.start_millipps = 0;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -EINVAL);
	r = ok, r.end_millipps = 0;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -EINVAL);
	r = ok, r.step_millipps = 0;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -EINVAL);
	r = ok, r.step_ns = 0;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -EINVAL);
	r = ok, r.shape = WR_RAMP__COUNT;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -EINVAL);
	r = ok, r.at_end = WR_RAMP_END__COUNT;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -EINVAL);
	/* 1e8 steps of 1e12 ns: beyond 2^64 ns */
	r = ok, r.step_ns = 1000000000000ull;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -ERANGE);
	r.shape = WR_RAMP_LINEAR;
	CU_ASSERT_EQUAL(wr_ramp_check(&r), -ERANGE);
	CU_ASSERT_STRING_EQUAL(wr_ramp_shape_name(WR_RAMP_LINEAR), "linear");
	CU_ASSERT_STRING_EQUAL(wr_ramp_end_name(WR_RAMP_END_HOLD), "hold");
	CU_ASSERT_PTR_NULL(wr_ramp_end_name(WR_RAMP_END__COUNT));
}

static void
test_ramp_drives_pacer(void)
{
	/* A staircase 1, 2, 3 Mpps of 1 ms each at 1 GHz applied with
	 * wr_pacer_set_rate() at each step: each step sends its rate * 1 ms
	 * within one frame (the frame straddling the boundary). */
	struct wr_ramp ramp = {
		.shape = WR_RAMP_STAIRCASE, .at_end = WR_RAMP_END_STOP,
		.start_millipps = MPPS(1), .end_millipps = MPPS(3),
		.step_millipps = MPPS(1), .step_ns = MS,
	};
	uint64_t per_step[3] = { 0 }, now, rate, cur;
	struct wr_pacer p;
	int i;

	CU_ASSERT_EQUAL_FATAL(wr_ramp_check(&ramp), 0);
	CU_ASSERT_EQUAL_FATAL(wr_ramp_rate_at(&ramp, 0, &cur), 1);
	CU_ASSERT_EQUAL_FATAL(wr_pacer_init(&p, cur, GHZ_1, 32, 0), 0);
	for (now = 0; wr_ramp_rate_at(&ramp, now, &rate) == 1; now += 100) {
		if (rate != cur) {
			CU_ASSERT_EQUAL_FATAL(wr_pacer_set_rate(&p, rate, now), 0);
			cur = rate;
		}
		per_step[now / MS] += wr_pacer_due(&p, now);
	}
	CU_ASSERT_EQUAL(now, 3 * MS);
	for (i = 0; i < 3; i++)
		CU_ASSERT_TRUE(per_step[i] + 1 >= (i + 1) * 1000ull &&
			       per_step[i] <= (i + 1) * 1000ull + 1);
}

static CU_TestInfo limit_tests[] = {
	{ "count", test_run_count },
	{ "duration", test_run_duration },
	{ "split_count", test_split_count },
	{ "bursts_paced", test_bursts_paced },
	{ "bursts_back_to_back", test_bursts_back_to_back },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo seq_tests[] = {
	{ "next_first", test_seq_next_first },
	{ "stop", test_seq_stop },
	{ "driven", test_seq_driven },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo ramp_tests[] = {
	{ "staircase", test_ramp_staircase },
	{ "linear", test_ramp_linear },
	{ "errors", test_ramp_errors },
	{ "drives_pacer", test_ramp_drives_pacer },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "limits", .pTests = limit_tests },
	{ .pName = "sequence", .pTests = seq_tests },
	{ .pName = "ramp", .pTests = ramp_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
