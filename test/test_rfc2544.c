/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the RFC 2544 throughput search against simulated DUTs (wr_rfc2544). */
#include <errno.h>

#include "wr_b2b.h"
#include "wr_floss.h"
#include "wr_throughput.h"
#include "wr_test.h"

#define KPPS(x) ((uint64_t)(x) * 1000000ull) /* kpps -> millipps */
#define LINE_10G_64 14880952380ull          /* 1e13 / 672, rounded down */
#define TRIAL_FRAMES 1000000ull

/* A simulated DUT: forwards everything up to `limit` millipps, beyond it
 * only its share limit / rate; and loses `floor_ppm` of every trial. */
struct dut {
	uint64_t limit;
	uint64_t floor_ppm;
};

static uint64_t
dut_received(const struct dut *d, uint64_t rate, uint64_t sent)
{
	uint64_t rx = sent;

	if (rate > d->limit)
		rx = (uint64_t)((unsigned __int128)sent * d->limit / rate);
	return rx - rx * d->floor_ppm / 1000000;
}

static int run_capped(const struct wr_rfc2544_cfg *cfg, const struct dut *d,
		      uint64_t cap, struct wr_rfc2544 *s,
		      struct wr_rfc2544_result *res);

/* Run a whole search; return the last wr_rfc2544_report() code. */
static int
run(const struct wr_rfc2544_cfg *cfg, const struct dut *d,
    struct wr_rfc2544 *s, struct wr_rfc2544_result *res)
{
	int rc = run_capped(cfg, d, UINT64_MAX, s, res);

	CU_ASSERT_TRUE(res->done);
	return rc;
}

/* Replay the log with an independent bisection: every trial's rate is the
 * one the method prescribes, every count is exact, the verdicts follow the
 * tolerance, and the answer is the highest passing rate. */
static void
check_log(const struct wr_rfc2544_result *res, uint64_t max, uint64_t min,
	  uint64_t loss_ppm)
{
	uint64_t lo = min, hi = max, best = 0, want;
	uint32_t i;

	for (i = 0; i < res->n_trials; i++) {
		const struct wr_rfc2544_trial *t = &res->trials[i];

		if (i == 0)
			want = max;
		else if (hi - lo > res->resolution_millipps)
			want = lo + (hi - lo) / 2;
		else
			want = min; /* the floor trial */
		CU_ASSERT_EQUAL(t->rate_millipps, want);
		CU_ASSERT_EQUAL(t->sent, TRIAL_FRAMES);
		CU_ASSERT_EQUAL(t->lost, t->sent - t->received);
		CU_ASSERT_EQUAL(t->excess, 0);
		CU_ASSERT_DOUBLE_EQUAL(t->loss_ratio,
				       (double)t->lost / (double)t->sent, 1e-15);
		CU_ASSERT_EQUAL(t->pass, t->lost * 1000000 <= loss_ppm * t->sent);
		if (t->pass) {
			lo = t->rate_millipps;
			best = t->rate_millipps > best ? t->rate_millipps : best;
		} else {
			hi = t->rate_millipps;
		}
	}
	CU_ASSERT_EQUAL(res->throughput_millipps, best);
}

/* Trials of a search that fails at max: 1 + the halvings of max - min down
 * to the resolution, counted on the same integer midpoints. */
static uint32_t
halvings(uint64_t width, uint64_t res, int pass_low)
{
	uint32_t n = 0;

	/* passing keeps the upper half (hi - mid), failing the lower */
	while (width > res) {
		width = pass_low ? width - width / 2 : width / 2;
		n++;
	}
	return n;
}

static void
test_drop_above(void)
{
	/* 10 GbE, 64 B, a DUT that forwards 10 Mpps: default resolution 0.1 %
	 * of the line rate (14880952 millipps), so 1 + ceil(log2(1000)) = 11 */
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 10000 };
	struct dut d = { .limit = KPPS(10000) };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;

	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.line_millipps, LINE_10G_64);
	CU_ASSERT_EQUAL(res.resolution_millipps, 14880952);
	CU_ASSERT_TRUE(res.converged);
	CU_ASSERT_EQUAL(res.n_trials, 11);
	CU_ASSERT_FALSE(res.trials[0].pass);
	CU_ASSERT_EQUAL(res.trials[0].rate_millipps, LINE_10G_64);
	CU_ASSERT_TRUE(res.throughput_millipps <= d.limit);
	CU_ASSERT_TRUE(d.limit - res.throughput_millipps <= res.resolution_millipps);
	check_log(&res, LINE_10G_64, 0, 0);
	/* L2 = pps * 64 * 8, L1 = pps * 84 * 8 */
	CU_ASSERT_EQUAL(res.l2_bps,
			(res.throughput_millipps * 512 + 500) / 1000);
	CU_ASSERT_EQUAL(res.l1_bps,
			(res.throughput_millipps * 672 + 500) / 1000);
}

static void
test_power_of_two(void)
{
	/* 1024 kpps ceiling, 1 kpps resolution, no link: exactly 10 halvings,
	 * and the answer is the 1 kpps grid point below 700.5 kpps */
	struct wr_rfc2544_cfg cfg = {
		.frame_size = 1518, .max_millipps = KPPS(1024),
		.resolution_millipps = KPPS(1),
	};
	struct dut d = { .limit = 700500000ull };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	unsigned int i, passes = 0;

	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.n_trials, 11);
	CU_ASSERT_EQUAL(res.throughput_millipps, KPPS(700));
	CU_ASSERT_EQUAL(res.line_millipps, 0);
	for (i = 0; i < res.n_trials; i++)
		passes += res.trials[i].pass;
	CU_ASSERT_TRUE(passes > 0 && passes < res.n_trials);
	check_log(&res, KPPS(1024), 0, 0);
}

static void
test_sweep_limits(void)
{
	/* many DUT limits at 1518 B on 10 GbE: always within one resolution
	 * below the limit, and never more than 1 + ceil(log2(line / res)) */
	struct wr_rfc2544_cfg cfg = { .frame_size = 1518, .link_mbps = 10000,
				      .resolution_ppm = 100 };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	uint64_t lim;
	uint32_t most;

	for (lim = 1000; lim < 812743823ull; lim = lim * 3 + 12345) {
		struct dut d = { .limit = lim };

		CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
		most = 1 + halvings(res.line_millipps, res.resolution_millipps, 1);
		CU_ASSERT_TRUE(res.n_trials >= 1 + halvings(res.line_millipps,
							    res.resolution_millipps, 0));
		CU_ASSERT_TRUE(res.n_trials <= most);
		CU_ASSERT_TRUE(res.throughput_millipps <= lim);
		CU_ASSERT_TRUE(lim - res.throughput_millipps <= res.resolution_millipps);
		check_log(&res, res.line_millipps, 0, 0);
	}
}

static void
test_pass_at_max(void)
{
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 1000 };
	struct dut d = { .limit = UINT64_MAX };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;

	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.n_trials, 1);
	CU_ASSERT_EQUAL(res.throughput_millipps, 1488095238ull);
	CU_ASSERT_TRUE(res.converged);
	CU_ASSERT_TRUE(res.trials[0].pass);
}

static void
test_drop_all(void)
{
	/* a DUT that loses frames at every rate: throughput 0 */
	struct wr_rfc2544_cfg cfg = {
		.frame_size = 64, .max_millipps = KPPS(1024),
		.resolution_millipps = KPPS(1),
	};
	struct dut d = { .limit = 0 };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	unsigned int i;

	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	CU_ASSERT_EQUAL(res.l1_bps, 0);
	CU_ASSERT_EQUAL(res.n_trials, 1 + 10);
	for (i = 0; i < res.n_trials; i++)
		CU_ASSERT_FALSE(res.trials[i].pass);
	CU_ASSERT_EQUAL(res.trials[10].rate_millipps, KPPS(1));
	check_log(&res, KPPS(1024), 0, 0);

	/* with a floor, the floor itself is tried last: still 0 */
	cfg.min_millipps = KPPS(100);
	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	CU_ASSERT_EQUAL(res.n_trials, 1 + halvings(KPPS(924), KPPS(1), 0) + 1);
	CU_ASSERT_EQUAL(res.trials[res.n_trials - 1].rate_millipps, KPPS(100));
	CU_ASSERT_TRUE(res.converged);
	check_log(&res, KPPS(1024), KPPS(100), 0);

	/* and when only the floor passes, the floor is the answer */
	d.limit = KPPS(100) + 500;
	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.throughput_millipps, KPPS(100));
	CU_ASSERT_TRUE(res.trials[res.n_trials - 1].pass);
	check_log(&res, KPPS(1024), KPPS(100), 0);
}

static void
test_loss_floor(void)
{
	/* a DUT losing 0.01 % at every rate and everything above 5 Mpps */
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 10000 };
	struct dut d = { .limit = KPPS(5000), .floor_ppm = 100 };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;

	/* RFC 2544 proper (no loss tolerated): no rate passes */
	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	/* at line rate: 10^6 * 5e9 / 14880952380 = 336000 forwarded, less
	 * 0.01 % of them (33): 664033 lost */
	CU_ASSERT_EQUAL(res.trials[0].lost, 664033);
	check_log(&res, LINE_10G_64, 0, 0);

	/* tolerating 0.01 % (100 ppm of sent): converges to 5 Mpps */
	cfg.loss_ppm = 100;
	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_TRUE(res.throughput_millipps <= d.limit);
	CU_ASSERT_TRUE(d.limit - res.throughput_millipps <= res.resolution_millipps);
	CU_ASSERT_EQUAL(res.n_trials, 11);
	check_log(&res, LINE_10G_64, 0, 100);

	/* 99 ppm is just short of the floor: 0 again */
	cfg.loss_ppm = 99;
	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	check_log(&res, LINE_10G_64, 0, 99);
}

static void
test_excess_and_limits(void)
{
	struct wr_rfc2544_cfg cfg = {
		.frame_size = 64, .max_millipps = KPPS(1024),
		.resolution_millipps = KPPS(1), .max_trials = 4,
	};
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	uint64_t rate;

	CU_ASSERT_EQUAL_FATAL(wr_rfc2544_start(&s, &cfg, &rate), 0);
	CU_ASSERT_EQUAL(rate, KPPS(1024));
	/* more frames back than sent: logged, failed, the same rate again */
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 1000, 1003, rate, &rate), -EBADMSG);
	CU_ASSERT_EQUAL(rate, KPPS(1024));
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 0, 0, rate, &rate), -EINVAL);
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 1000, 999, rate, &rate), 0);
	CU_ASSERT_EQUAL(rate, KPPS(512));
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 1000, 1000, rate, &rate), 0);
	CU_ASSERT_EQUAL(rate, KPPS(768));
	/* the fourth trial is the last allowed: done, not converged */
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 1000, 1000, rate, &rate), 1);
	CU_ASSERT_EQUAL(rate, 0);
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 1000, 1000, rate, &rate), -EINVAL);
	CU_ASSERT_EQUAL(wr_rfc2544_result(&s, &res), 0);
	CU_ASSERT_TRUE(res.done);
	CU_ASSERT_FALSE(res.converged);
	CU_ASSERT_EQUAL(res.n_trials, 4);
	CU_ASSERT_EQUAL(res.throughput_millipps, KPPS(768));
	CU_ASSERT_EQUAL(res.trials[0].excess, 3);
	CU_ASSERT_EQUAL(res.trials[0].lost, 0);
	CU_ASSERT_FALSE(res.trials[0].pass);
	CU_ASSERT_EQUAL(res.trials[1].lost, 1);
	CU_ASSERT_DOUBLE_EQUAL(res.trials[1].loss_ratio, 0.001, 1e-15);
}

/* A generator that cannot offer more than `cap`: what the search says. */
static int
run_capped(const struct wr_rfc2544_cfg *cfg, const struct dut *d, uint64_t cap,
	   struct wr_rfc2544 *s, struct wr_rfc2544_result *res)
{
	uint64_t rate, offered;
	int rc, guard = 0;

	CU_ASSERT_EQUAL_FATAL(wr_rfc2544_start(s, cfg, &rate), 0);
	do {
		offered = rate < cap ? rate : cap;
		rc = wr_rfc2544_report(s, TRIAL_FRAMES,
				       dut_received(d, offered, TRIAL_FRAMES),
				       offered, &rate);
		CU_ASSERT_FATAL(++guard <= WR_RFC2544_TRIALS_MAX);
	} while (rc == 0);
	CU_ASSERT_EQUAL(wr_rfc2544_result(s, res), 0);
	return rc;
}

static void
test_generator_limited(void)
{
	/* The case: a router faster than af_packet.  10 GbE at 256 B
	 * asks 4528985 pps; the generator offers 232 kpps, all forwarded:
	 * no throughput, "at least 232 kpps", after one trial. */
	struct wr_rfc2544_cfg cfg = { .frame_size = 256, .link_mbps = 10000 };
	struct dut fast = { .limit = UINT64_MAX };
	struct dut slow = { .limit = KPPS(150) };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	uint32_t i;

	CU_ASSERT_EQUAL(run_capped(&cfg, &fast, KPPS(232), &s, &res), 1);
	CU_ASSERT_TRUE(res.done);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_FALSE(res.converged);
	CU_ASSERT_EQUAL(res.gen_millipps, KPPS(232));
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	CU_ASSERT_EQUAL(res.l1_bps, 0);
	CU_ASSERT_EQUAL(res.n_trials, 1);
	CU_ASSERT_TRUE(res.trials[0].short_offer);
	CU_ASSERT_TRUE(res.trials[0].pass);
	CU_ASSERT_EQUAL(res.trials[0].offered_millipps, KPPS(232));

	/* With --max-rate 300 kpps (the second case): the same. */
	cfg.max_millipps = KPPS(300);
	CU_ASSERT_EQUAL(run_capped(&cfg, &fast, KPPS(232), &s, &res), 1);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_EQUAL(res.gen_millipps, KPPS(232));
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);

	/* A device slower than the generator: the short lossy first trial
	 * is a failure at the offered 232 kpps, then an ordinary search
	 * below it finds 150 kpps within the resolution. */
	CU_ASSERT_EQUAL(run_capped(&cfg, &slow, KPPS(232), &s, &res), 1);
	CU_ASSERT_FALSE(res.gen_limited);
	CU_ASSERT_TRUE(res.converged);
	CU_ASSERT_TRUE(res.trials[0].short_offer);
	CU_ASSERT_FALSE(res.trials[0].pass);
	for (i = 1; i < res.n_trials; i++) {
		CU_ASSERT_FALSE(res.trials[i].short_offer);
		CU_ASSERT_TRUE(res.trials[i].rate_millipps < KPPS(232));
	}
	CU_ASSERT_TRUE(res.throughput_millipps <= slow.limit);
	CU_ASSERT_TRUE(slow.limit - res.throughput_millipps <=
		       res.resolution_millipps);

	/* Short by no more than the resolution (1 kpps here) and 0.1 % of
	 * the rate (300 pps): a pass, reported at what was offered. */
	cfg.max_millipps = KPPS(300);
	cfg.resolution_millipps = KPPS(1);
	CU_ASSERT_EQUAL(run_capped(&cfg, &fast, KPPS(300) - 300000, &s, &res), 1);
	CU_ASSERT_FALSE(res.gen_limited);
	CU_ASSERT_EQUAL(res.throughput_millipps, KPPS(300) - 300000);
	CU_ASSERT_FALSE(res.trials[0].short_offer);
	/* ... and by one millipps more than it, a limit. */
	CU_ASSERT_EQUAL(run_capped(&cfg, &fast, KPPS(300) - 300001, &s, &res), 1);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_EQUAL(res.gen_millipps, KPPS(300) - 300001);
	/* Within the resolution but 1 kpps short of 300 kpps (0.33 %): the
	 * rate was not offered, a limit (it used to be an NDR of 300 kpps). */
	CU_ASSERT_EQUAL(run_capped(&cfg, &fast, KPPS(299), &s, &res), 1);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	CU_ASSERT_EQUAL(res.gen_millipps, KPPS(299));
}

/* A fake generator: offers min(rate, cap), less `short_ppm` of it. */
struct fake_gen {
	uint64_t cap;
	uint32_t short_ppm;
};

static uint64_t
fake_offer(const struct fake_gen *g, uint64_t rate)
{
	uint64_t o = rate < g->cap ? rate : g->cap;

	return o - (uint64_t)((unsigned __int128)o * g->short_ppm / 1000000);
}

/* A search against a DUT, a trial at a time through the fake generator:
 * every trial's count as the DUT forwards at the rate offered. */
static int
run_gen(const struct wr_rfc2544_cfg *cfg, const struct dut *d,
	const struct fake_gen *g, struct wr_rfc2544 *s,
	struct wr_rfc2544_result *res)
{
	uint64_t rate, offered;
	int rc, guard = 0;

	CU_ASSERT_EQUAL_FATAL(wr_rfc2544_start(s, cfg, &rate), 0);
	do {
		offered = fake_offer(g, rate);
		rc = wr_rfc2544_report(s, TRIAL_FRAMES,
				       dut_received(d, offered, TRIAL_FRAMES),
				       offered, &rate);
		CU_ASSERT_FATAL(++guard <= WR_RFC2544_TRIALS_MAX);
	} while (rc == 0);
	CU_ASSERT_EQUAL(wr_rfc2544_result(s, res), 0);
	return rc;
}

/* What a result claims was offered: a counted trial that passed offered at
 * least that much. */
static bool
offered_by_a_pass(const struct wr_rfc2544_result *res, uint64_t v, bool pdr)
{
	uint32_t i;

	for (i = 0; i < res->n_trials; i++)
		if ((pdr ? res->trials[i].pdr_pass : res->trials[i].pass) &&
		    res->trials[i].offered_millipps >= v)
			return true;
	return false;
}

static void
test_never_above_offered(void)
{
	/* Issue 31: --resolution 2 % of a placeholder 100 Gbps at 64 B is
	 * 2.976 Mpps; --max-rate 3 Mpps offered 1.80 Mpps and lost nothing,
	 * which was within the resolution: an NDR of 3 Mpps, exit 0.  It is
	 * "at least 1.80 Mpps", the generator's limit. */
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 100000,
				      .max_millipps = KPPS(3000),
				      .resolution_ppm = 20000 };
	struct dut fast = { .limit = UINT64_MAX };
	struct fake_gen gen = { .cap = KPPS(1800) };
	static const uint32_t res_ppm[] = { 0, 100, 1000, 20000, 100000 };
	static const uint32_t shorts[] = { 0, 300, 999, 1000, 5000 };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	unsigned int a, b, c;
	uint64_t lim;

	CU_ASSERT_EQUAL(run_gen(&cfg, &fast, &gen, &s, &res), 1);
	CU_ASSERT_EQUAL(res.resolution_millipps, 2976190476ull);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	CU_ASSERT_EQUAL(res.gen_millipps, KPPS(1800));
	CU_ASSERT_TRUE(res.trials[0].short_offer);

	/* Every combination of resolution, generator cap and shortfall, DUT
	 * limit, with and without a PDR: no rate reported above what a
	 * passing trial offered, no "at least" above what any offered. */
	cfg.max_millipps = 0;
	cfg.link_mbps = 10000;
	for (a = 0; a < sizeof(res_ppm) / sizeof(res_ppm[0]); a++)
		for (b = 0; b < sizeof(shorts) / sizeof(shorts[0]); b++)
			for (c = 0; c < 2; c++)
				for (lim = KPPS(700); lim < KPPS(20000);
				     lim = lim * 2 + 12345) {
					struct dut d = { .limit = lim,
							 .floor_ppm = 0 };

					cfg.resolution_ppm = res_ppm[a];
					cfg.pdr_loss_ppm = c ? 5000 : 0;
					cfg.phases = c ? 3 : 1;
					cfg.trial_ns = c ? 60000000000ull : 0;
					cfg.first_trial_ns = c ? 1000000000ull : 0;
					gen.cap = KPPS(9000);
					gen.short_ppm = shorts[b];
					run_gen(&cfg, &d, &gen, &s, &res);
					CU_ASSERT_TRUE(res.throughput_millipps == 0 ||
						       offered_by_a_pass(&res, res.throughput_millipps, false));
					CU_ASSERT_TRUE(res.throughput_millipps <= lim);
					CU_ASSERT_TRUE(!res.gen_limited ||
						       res.gen_millipps <= KPPS(9000));
					if (c) {
						CU_ASSERT_TRUE(res.pdr.millipps == 0 ||
							       offered_by_a_pass(&res, res.pdr.millipps, true));
					}
					/* Short by less than 0.1 % and the
					 * resolution (not 0.01 % of the line,
					 * 1488 pps): the DUT, below the cap, is
					 * found, not the generator's limit. */
					if (lim < KPPS(9000) && (shorts[b] == 0 ||
					    (shorts[b] < 1000 && res_ppm[a] != 100)))
						CU_ASSERT_FALSE(res.gen_limited);
				}
}

/* Frames the RX port dropped because wirerate did not take them: never
 * the device's loss. */
static void
test_rx_missed(void)
{
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 10000 };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	uint64_t rate;

	/* Every frame lost was one wirerate missed: the first trial (at the
	 * line rate) ends the search, generator-limited, with no rate. */
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &rate), 0);
	CU_ASSERT_EQUAL(wr_rfc2544_report_rx(&s, 1000, 900, rate, 100, &rate),
			1);
	wr_rfc2544_result(&s, &res);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_EQUAL(res.gen_millipps, 0);
	CU_ASSERT_EQUAL(res.throughput_millipps, 0);
	CU_ASSERT_EQUAL(res.trials[0].rx_missed, 100);
	CU_ASSERT_FALSE(res.trials[0].pass);

	/* More lost than missed: the device lost at least 50, a failure;
	 * the search goes on below. */
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &rate), 0);
	CU_ASSERT_EQUAL(wr_rfc2544_report_rx(&s, 1000, 850, rate, 100, &rate),
			0);
	CU_ASSERT_TRUE(rate < LINE_10G_64);
	/* A pass below, then a trial above whose loss only the misses
	 * explain: at least the rate that passed. */
	CU_ASSERT_EQUAL(wr_rfc2544_report(&s, 1000, 1000, rate, &rate), 0);
	{
		uint64_t passed = s.trials[1].rate_millipps;

		CU_ASSERT_EQUAL(wr_rfc2544_report_rx(&s, 1000, 990, rate, 10,
						     &rate), 1);
		wr_rfc2544_result(&s, &res);
		CU_ASSERT_TRUE(res.gen_limited);
		CU_ASSERT_EQUAL(res.gen_millipps, passed);
	}

	/* Misses but nothing lost (the frames came back through another
	 * path): an ordinary pass. */
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &rate), 0);
	CU_ASSERT_EQUAL(wr_rfc2544_report_rx(&s, 1000, 1000, rate, 7, &rate),
			1);
	wr_rfc2544_result(&s, &res);
	CU_ASSERT_FALSE(res.gen_limited);
	CU_ASSERT_EQUAL(res.throughput_millipps, LINE_10G_64);
}

static void
test_offered(void)
{
	CU_ASSERT_EQUAL(wr_rfc2544_offered_millipps(1000, 1000000000ull),
			1000000);
	/* 232001 frames in 1.000004 s: 232000.0712 pps, rounded down */
	CU_ASSERT_EQUAL(wr_rfc2544_offered_millipps(232001, 1000004000ull),
			232000071);
	CU_ASSERT_EQUAL(wr_rfc2544_offered_millipps(5, 0), 0);
	CU_ASSERT_EQUAL(wr_rfc2544_offered_millipps(UINT64_MAX, 1), UINT64_MAX);
	CU_ASSERT_FALSE(wr_rfc2544_short(1000, 900, 100));
	CU_ASSERT_TRUE(wr_rfc2544_short(1000, 899, 100));
	CU_ASSERT_FALSE(wr_rfc2544_short(1000, 2000, 100));
	/* The short width: the resolution, at most 0.1 % of the rate. */
	CU_ASSERT_EQUAL(wr_rfc2544_short_width(KPPS(3000), 2976190476ull),
			KPPS(3));
	CU_ASSERT_EQUAL(wr_rfc2544_short_width(KPPS(3000), 1000), 1000);
	CU_ASSERT_EQUAL(wr_rfc2544_short_width(999, 5), 1);
}

/* A DUT whose limit shrinks with the trial's length (a buffer that hides
 * overload for a while): limit(d) = base + slack_ns_pps / d. */
struct dut_t {
	uint64_t base;
	uint64_t slack;   /* millipps x seconds */
};

static uint64_t
dut_t_received(const struct dut_t *d, uint64_t rate, uint64_t sent,
	       uint64_t trial_ns)
{
	struct dut x = { .limit = d->base + d->slack * 1000000000ull / trial_ns };

	return dut_received(&x, rate, sent);
}

static int
run_timed(const struct wr_rfc2544_cfg *cfg, const struct dut_t *d,
	  struct wr_rfc2544 *s, struct wr_rfc2544_result *res)
{
	uint64_t rate;
	int rc, guard = 0;

	CU_ASSERT_EQUAL_FATAL(wr_rfc2544_start(s, cfg, &rate), 0);
	do {
		uint64_t ns = wr_rfc2544_trial_ns(s);

		rc = wr_rfc2544_report(s, TRIAL_FRAMES,
				       dut_t_received(d, rate, TRIAL_FRAMES, ns),
				       rate, &rate);
		CU_ASSERT_FATAL(++guard <= WR_RFC2544_TRIALS_MAX);
	} while (rc == 0);
	CU_ASSERT_EQUAL(wr_rfc2544_result(s, res), 0);
	CU_ASSERT_TRUE(res->done);
	return rc;
}

static void
test_ndr_pdr_one_search(void)
{
	/* Lossless up to 4 Mpps, beyond it losing (rate - 4 Mpps) / rate:
	 * NDR 4 Mpps, PDR at 0.5 % 4 Mpps / 0.995 = 4020.100 kpps. */
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 10000,
				      .pdr_loss_ppm = 5000 };
	struct dut d = { .limit = KPPS(4000) };
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	uint64_t pdr = 4020100502ull, ndr_trials = 0;
	uint32_t i;

	CU_ASSERT_EQUAL(run(&cfg, &d, &s, &res), 1);
	CU_ASSERT_TRUE(res.converged);
	CU_ASSERT_TRUE(res.has_pdr);
	CU_ASSERT_EQUAL(res.pdr.loss_ppm, 5000);
	CU_ASSERT_TRUE(res.ndr.millipps <= d.limit);
	CU_ASSERT_TRUE(d.limit - res.ndr.millipps <= res.resolution_millipps);
	CU_ASSERT_EQUAL(res.throughput_millipps, res.ndr.millipps);
	CU_ASSERT_TRUE(res.pdr.millipps <= pdr);
	CU_ASSERT_TRUE(pdr - res.pdr.millipps <= res.resolution_millipps);
	CU_ASSERT_EQUAL(res.pdr.l1_bps, (res.pdr.millipps * 672 + 500) / 1000);
	/* Verdicts against both tolerances, on integers. */
	for (i = 0; i < res.n_trials; i++) {
		const struct wr_rfc2544_trial *t = &res.trials[i];

		CU_ASSERT_EQUAL(t->pass, t->lost == 0);
		CU_ASSERT_EQUAL(t->pdr_pass, t->lost * 1000000 <= 5000 * t->sent);
		ndr_trials += t->pass;
	}
	/* One search, fewer trials than two: NDR alone takes 11 here. */
	CU_ASSERT_TRUE(res.n_trials < 2 * 11);
	CU_ASSERT_TRUE(ndr_trials > 0);

	/* PDR's tolerance must be above NDR's. */
	cfg.loss_ppm = 5000;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &pdr), -EINVAL);
}

static void
test_phases(void)
{
	/* MLRsearch's shape: 1 s trials first, 60 s trials last, three
	 * phases.  The DUT forwards 3 Mpps for ever and 200 kpps more in a
	 * 1 s trial (a buffer): the answer is the 60 s one. */
	struct wr_rfc2544_cfg cfg = { .frame_size = 64, .link_mbps = 10000,
				      .pdr_loss_ppm = 5000, .phases = 3,
				      .trial_ns = 60000000000ull,
				      .first_trial_ns = 1000000000ull };
	struct dut_t d = { .base = KPPS(3000), .slack = KPPS(200) };
	uint64_t limit60 = KPPS(3000) + KPPS(200) / 60;
	uint64_t pdr60 = (uint64_t)((double)limit60 / 0.995);
	struct wr_rfc2544_result res;
	static struct wr_rfc2544 s;
	uint32_t i, full = 0, last_phase = 0;

	CU_ASSERT_EQUAL(run_timed(&cfg, &d, &s, &res), 1);
	CU_ASSERT_TRUE(res.converged);
	CU_ASSERT_EQUAL(res.phases, 3);
	CU_ASSERT_TRUE(res.ndr.millipps <= limit60);
	CU_ASSERT_TRUE(limit60 - res.ndr.millipps <= res.resolution_millipps);
	CU_ASSERT_TRUE(res.pdr.millipps <= pdr60 + 1);
	CU_ASSERT_TRUE(pdr60 - res.pdr.millipps <= res.resolution_millipps);
	for (i = 0; i < res.n_trials; i++) {
		const struct wr_rfc2544_trial *t = &res.trials[i];
		static const uint64_t len[3] = { 1000000000ull, 7745966692ull,
						 60000000000ull };

		/* phases in order, lengths geometric: 1 s, sqrt(60) s, 60 s */
		CU_ASSERT_TRUE(t->phase >= last_phase);
		last_phase = t->phase;
		CU_ASSERT_EQUAL(t->trial_ns, len[t->phase]);
		full += t->phase == 2;
	}
	CU_ASSERT_EQUAL(last_phase, 2);
	/* the bisection ran on short trials: few full-length ones (a
	 * one-phase search needs 11 for NDR alone, every one 60 s) */
	CU_ASSERT_TRUE(full <= 10);
	CU_ASSERT_TRUE(full >= 4); /* both bounds of both targets */

	/* The answer is the same as a one-phase search at 60 s. */
	cfg.phases = 1;
	CU_ASSERT_EQUAL(run_timed(&cfg, &d, &s, &res), 1);
	for (i = 0; i < res.n_trials; i++)
		CU_ASSERT_EQUAL(res.trials[i].trial_ns, 60000000000ull);
	CU_ASSERT_TRUE(limit60 - res.ndr.millipps <= res.resolution_millipps);

	/* Bad phase settings. */
	cfg.phases = 3;
	cfg.first_trial_ns = cfg.trial_ns + 1;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &pdr60), -EINVAL);
	cfg.first_trial_ns = 0;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &pdr60), -EINVAL);
	cfg.first_trial_ns = 1;
	cfg.phases = WR_RFC2544_PHASES_MAX + 1;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &cfg, &pdr60), -ERANGE);
}

static void
test_config_errors(void)
{
	struct wr_rfc2544_cfg ok = { .frame_size = 64, .link_mbps = 10000 };
	struct wr_rfc2544_cfg c;
	static struct wr_rfc2544 s;
	uint64_t rate;

	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &ok, &rate), 0);
	c = ok, c.frame_size = 63;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -EINVAL);
	c = ok, c.frame_size = 9019;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -EINVAL);
	c = ok, c.max_millipps = LINE_10G_64 + 1;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -ERANGE);
	c = ok, c.max_millipps = LINE_10G_64;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), 0);
	c = ok, c.link_mbps = 0;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -EINVAL);
	c = ok, c.min_millipps = LINE_10G_64 + 1;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -EINVAL);
	c = ok, c.loss_ppm = 1000001;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -EINVAL);
	c = ok, c.max_trials = WR_RFC2544_TRIALS_MAX + 1;
	CU_ASSERT_EQUAL(wr_rfc2544_start(&s, &c, &rate), -ERANGE);
}

static CU_TestInfo search_tests[] = {
	{ "drop_above", test_drop_above },
	{ "power_of_two", test_power_of_two },
	{ "sweep_limits", test_sweep_limits },
	{ "pass_at_max", test_pass_at_max },
	{ "drop_all", test_drop_all },
	{ "loss_floor", test_loss_floor },
	{ "excess_and_limits", test_excess_and_limits },
	{ "config_errors", test_config_errors },
	{ "generator_limited", test_generator_limited },
	{ "never_above_offered", test_never_above_offered },
	{ "offered", test_offered },
	{ "rx_missed", test_rx_missed },
	{ "ndr_pdr_one_search", test_ndr_pdr_one_search },
	{ "phases", test_phases },
	CU_TEST_INFO_NULL,
};

/* Frame loss rate (section 26.3) against the rate-limited DUT. */
static void
test_floss_steps(void)
{
	/* max 1000 kpps, 10 % steps, a DUT forwarding 650 kpps: steps at
	 * 100, 90, 80, 70 % lose, 60 and 50 % do not, and the test stops. */
	struct wr_floss_cfg cfg = { .max_millipps = KPPS(1000),
				    .resolution_millipps = KPPS(1) };
	struct dut d = { .limit = KPPS(650) };
	static struct wr_floss s;
	uint64_t rate;
	uint32_t i;
	int rc;

	CU_ASSERT_EQUAL_FATAL(wr_floss_start(&s, &cfg, &rate), 0);
	CU_ASSERT_EQUAL(rate, KPPS(1000));
	do {
		rc = wr_floss_report(&s, TRIAL_FRAMES,
				     dut_received(&d, rate, TRIAL_FRAMES), rate,
				     &rate);
	} while (rc == 0);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_TRUE(s.stopped_clean);
	CU_ASSERT_EQUAL(s.n_steps, 6);
	for (i = 0; i < s.n_steps; i++) {
		const struct wr_floss_step *st = &s.steps[i];

		CU_ASSERT_EQUAL(st->rate_millipps, KPPS(1000 - 100 * i));
		CU_ASSERT_EQUAL(st->pct_ppm, 1000000 - 100000 * i);
		CU_ASSERT_EQUAL(st->lost, st->sent - st->received);
		/* RFC 2544: ((input - output) * 100) / input */
		CU_ASSERT_DOUBLE_EQUAL(st->loss_pct, (double)st->lost * 100 /
				       (double)st->sent, 1e-12);
		CU_ASSERT_EQUAL(st->lost == 0, i >= 4);
		CU_ASSERT_FALSE(st->short_offer);
	}
	/* at 100 %: 650/1000 forwarded, 35 % lost */
	CU_ASSERT_DOUBLE_EQUAL(s.steps[0].loss_pct, 35.0, 1e-9);
	CU_ASSERT_EQUAL(wr_floss_report(&s, 1, 1, 1, &rate), -EINVAL);

	/* A DUT losing at every rate: all ten steps, down to 10 %. */
	d.limit = 0;
	CU_ASSERT_EQUAL_FATAL(wr_floss_start(&s, &cfg, &rate), 0);
	do {
		rc = wr_floss_report(&s, TRIAL_FRAMES, TRIAL_FRAMES - 1, rate,
				     &rate);
	} while (rc == 0);
	CU_ASSERT_EQUAL(s.n_steps, 10);
	CU_ASSERT_FALSE(s.stopped_clean);
	CU_ASSERT_EQUAL(s.steps[9].rate_millipps, KPPS(100));

	/* 25 % steps, 3 clean in a row, a generator stuck at 300 kpps. */
	cfg.step_ppm = 250000;
	cfg.clean = 3;
	CU_ASSERT_EQUAL_FATAL(wr_floss_start(&s, &cfg, &rate), 0);
	do {
		uint64_t off = rate < KPPS(300) ? rate : KPPS(300);

		rc = wr_floss_report(&s, TRIAL_FRAMES, TRIAL_FRAMES, off, &rate);
	} while (rc == 0);
	CU_ASSERT_EQUAL(s.n_steps, 3);
	/* 100, 75 and 50 %: every one above what the generator offered */
	CU_ASSERT_TRUE(s.steps[0].short_offer);
	CU_ASSERT_TRUE(s.steps[1].short_offer);
	CU_ASSERT_TRUE(s.steps[2].short_offer);
	CU_ASSERT_EQUAL(s.steps[2].rate_millipps, KPPS(500));
	CU_ASSERT_EQUAL(s.steps[2].offered_millipps, KPPS(300));

	/* Both directions: each one's loss, lossless only when both are. */
	cfg.step_ppm = 0;
	cfg.clean = 0;
	CU_ASSERT_EQUAL_FATAL(wr_floss_start(&s, &cfg, &rate), 0);
	CU_ASSERT_EQUAL(wr_floss_set_reverse(&s, 1000, 900), 0);
	CU_ASSERT_EQUAL(wr_floss_report(&s, 1000, 1000, rate, &rate), 0);
	CU_ASSERT_EQUAL(wr_floss_set_reverse(&s, 1000, 1000), 0);
	CU_ASSERT_EQUAL(wr_floss_report(&s, 1000, 1000, rate, &rate), 0);
	CU_ASSERT_EQUAL(wr_floss_report(&s, 1000, 1000, rate, &rate), 1);
	CU_ASSERT_TRUE(s.steps[0].bidir);
	CU_ASSERT_EQUAL(s.steps[0].lost, 0);
	CU_ASSERT_EQUAL(s.steps[0].rev_lost, 100);
	CU_ASSERT_DOUBLE_EQUAL(s.steps[0].rev_loss_pct, 10.0, 1e-12);
	CU_ASSERT_TRUE(s.steps[1].bidir);
	CU_ASSERT_FALSE(s.steps[2].bidir);
	CU_ASSERT_EQUAL(s.n_steps, 3);  /* the first step was not clean */
	CU_ASSERT_EQUAL(wr_floss_set_reverse(&s, 1, 1), -EINVAL);

	cfg.step_ppm = 9999;
	CU_ASSERT_EQUAL(wr_floss_start(&s, &cfg, &rate), -EINVAL);
	cfg.step_ppm = 1000001;
	CU_ASSERT_EQUAL(wr_floss_start(&s, &cfg, &rate), -EINVAL);
	cfg.step_ppm = 0;
	cfg.max_millipps = 0;
	CU_ASSERT_EQUAL(wr_floss_start(&s, &cfg, &rate), -EINVAL);
}

/* A DUT with a buffer of `buf` frames: a burst of n frames at line rate
 * loses n - buf frames beyond it. */
static void
test_b2b_search(void)
{
	struct wr_b2b_cfg cfg = { .max_frames = 1000000, .repeats = 5 };
	struct wr_b2b_result res;
	static struct wr_b2b s;
	uint64_t n, buf = 12345;
	int rc, repeats_ended = 0, guard = 0;

	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&s, &cfg, &n), 0);
	CU_ASSERT_EQUAL(n, 1000000);
	do {
		rc = wr_b2b_report(&s, n, n <= buf ? n : buf, false, &n);
		repeats_ended += rc == 2;
		CU_ASSERT_FATAL(++guard < 5 * WR_B2B_TRIALS_MAX);
	} while (rc == 0 || rc == 2);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_EQUAL(repeats_ended, 4);
	CU_ASSERT_EQUAL(wr_b2b_result(&s, &res), 0);
	CU_ASSERT_EQUAL(res.n, 5);
	/* exactly the buffer, with a 1-frame resolution: 1 + 20 bursts */
	CU_ASSERT_EQUAL(res.min, buf);
	CU_ASSERT_EQUAL(res.max, buf);
	CU_ASSERT_DOUBLE_EQUAL(res.avg, (double)buf, 1e-9);
	CU_ASSERT_EQUAL(res.n_at_max, 0);
	CU_ASSERT_EQUAL(s.trials_per[0], 1 + 20);

	/* A varying buffer: min/avg/max of the repeats. */
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&s, &cfg, &n), 0);
	buf = 1000;
	do {
		rc = wr_b2b_report(&s, n, n <= buf ? n : buf, false, &n);
		if (rc == 2)
			buf += 1000;
	} while (rc == 0 || rc == 2);
	CU_ASSERT_EQUAL(wr_b2b_result(&s, &res), 0);
	CU_ASSERT_EQUAL(res.min, 1000);
	CU_ASSERT_EQUAL(res.max, 5000);
	CU_ASSERT_DOUBLE_EQUAL(res.avg, 3000.0, 1e-9);

	/* Everything forwarded: "at least" the first burst, one trial. */
	cfg.repeats = 2;
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&s, &cfg, &n), 0);
	CU_ASSERT_EQUAL(wr_b2b_report(&s, n, n, false, &n), 2);
	CU_ASSERT_EQUAL(wr_b2b_report(&s, n, n, false, &n), 1);
	CU_ASSERT_EQUAL(wr_b2b_result(&s, &res), 0);
	CU_ASSERT_EQUAL(res.n_at_max, 2);
	CU_ASSERT_EQUAL(res.min, 1000000);

	/* A burst the generator cut short is no pass; nothing passes: 0. */
	cfg.repeats = 1;
	cfg.resolution_frames = 1000;
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&s, &cfg, &n), 0);
	do {
		rc = wr_b2b_report(&s, n - 1, n - 1, false, &n);
	} while (rc == 0);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_EQUAL(wr_b2b_result(&s, &res), 0);
	CU_ASSERT_EQUAL(res.max, 0);
	CU_ASSERT_EQUAL(wr_b2b_report(&s, 1, 1, false, &n), -EINVAL);

	/* Issue 17: bursts offered below the rate asked and forwarded whole
	 * are not passes.  Repeat 1 is measured (12345); in repeat 2 the
	 * generator falls short on the first burst: the search ends there,
	 * generator-limited, repeat 1's value kept, none for repeat 2. */
	cfg.repeats = 3;
	cfg.resolution_frames = 0;
	buf = 12345;
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&s, &cfg, &n), 0);
	do {
		rc = wr_b2b_report(&s, n, n <= buf ? n : buf, false, &n);
	} while (rc == 0);
	CU_ASSERT_EQUAL_FATAL(rc, 2);
	CU_ASSERT_EQUAL(wr_b2b_report(&s, n, n, true, &n), 1);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(wr_b2b_result(&s, &res), 0);
	CU_ASSERT_TRUE(res.gen_limited);
	CU_ASSERT_EQUAL(res.gen_burst, 1000000);
	CU_ASSERT_EQUAL(res.n, 1);
	CU_ASSERT_EQUAL(res.max, buf);
	CU_ASSERT_EQUAL(res.n_at_max, 0);
	CU_ASSERT_EQUAL(wr_b2b_report(&s, 1, 1, false, &n), -EINVAL);
	/* A short burst that lost frames is a real failure: the search goes
	 * on (it halves), and finds the buffer. */
	cfg.repeats = 1;
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&s, &cfg, &n), 0);
	CU_ASSERT_EQUAL(wr_b2b_report(&s, n, buf, true, &n), 0);
	CU_ASSERT_EQUAL(n, 500000);
	do {
		rc = wr_b2b_report(&s, n, n <= buf ? n : buf, false, &n);
	} while (rc == 0);
	CU_ASSERT_EQUAL(wr_b2b_result(&s, &res), 0);
	CU_ASSERT_FALSE(res.gen_limited);
	CU_ASSERT_EQUAL(res.max, buf);

	cfg.repeats = WR_B2B_REPEATS_MAX + 1;
	CU_ASSERT_EQUAL(wr_b2b_start(&s, &cfg, &n), -ERANGE);
	cfg.repeats = 1;
	cfg.max_frames = 0;
	CU_ASSERT_EQUAL(wr_b2b_start(&s, &cfg, &n), -EINVAL);
}

static CU_TestInfo floss_tests[] = {
	{ "steps", test_floss_steps },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo b2b_tests[] = {
	{ "search", test_b2b_search },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "rfc2544", .pTests = search_tests },
	{ .pName = "frame_loss_rate", .pTests = floss_tests },
	{ .pName = "back_to_back", .pTests = b2b_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
