/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the device-clock to TSC map (wr_clock). */
#include <errno.h>
#include <math.h>
#include <pthread.h>

#include "wr_clock.h"
#include "wr_test.h"

/* A simulated pair of oscillators: the TSC at tsc_hz, the NIC at dev_hz
 * with its own origin; both as exact functions of true time in ns. */
struct osc {
	double tsc_hz, dev_hz;
	uint64_t tsc_origin, dev_origin;
	double drift_per_s; /* the NIC's relative frequency change per second */
};

static struct wr_clock_pair
read_pair(const struct osc *o, double t_ns)
{
	double t = t_ns / 1e9;
	/* A frequency that changes linearly (a warming crystal): its
	 * integral is hz * (t + drift * t^2 / 2). */
	struct wr_clock_pair p = {
		o->tsc_origin + (uint64_t)llround(t * o->tsc_hz),
		o->dev_origin + (uint64_t)llround(o->dev_hz *
					(t + o->drift_per_s * t * t / 2)),
	};
	return p;
}

static void
test_fit_and_map(void)
{
	/* A 2.6 GHz TSC against NIC clocks of 1 GHz (mlx5-like), 156.25 MHz,
	 * 10 kHz, and one 50 ppm off nominal; fitted over 100 ms, the map
	 * must place a stamp within 2 ticks of the truth up to 1 s on. */
	static const double dev_hz[] = { 1e9, 156.25e6, 1e4, 1e9 * (1 + 50e-6) };
	unsigned int i, k;

	for (i = 0; i < sizeof(dev_hz) / sizeof(dev_hz[0]); i++) {
		struct osc o = { 2.6e9, dev_hz[i], 123456789012ull,
				 987654321ull * (i + 1), 0 };
		struct wr_clock_pair a = read_pair(&o, 0), b = read_pair(&o, 1e8);
		struct wr_clock_map m;

		CU_ASSERT_EQUAL_FATAL(wr_clock_fit(&m, &a, &b), 0);
		for (k = 0; k <= 100; k++) {
			double t = 1e8 + k * 1e7; /* up to 1.1 s */
			struct wr_clock_pair p = read_pair(&o, t);
			/* One device tick is up to 260000 TSC ticks at
			 * 10 kHz: the bound scales with the tick. */
			double tick = o.tsc_hz / o.dev_hz;
			double err = fabs((double)wr_clock_to_tsc(&m, p.dev) -
					  (double)p.tsc);

			CU_ASSERT_TRUE(err <= 2 * tick + 2);
			if (err > 2 * tick + 2)
				fprintf(stderr, "dev_hz %g t %g: err %g\n",
					o.dev_hz, t, err);
		}
		/* A stamp taken before the anchor maps back in time. */
		{
			struct wr_clock_pair p = read_pair(&o, 5e7);
			double err = fabs((double)wr_clock_to_tsc(&m, p.dev) -
					  (double)p.tsc);

			CU_ASSERT_TRUE(err <= 2 * o.tsc_hz / o.dev_hz + 2);
		}
	}
}

static void
test_refit_follows_drift(void)
{
	/* The NIC runs 80 ppm fast and its frequency moves by 1 ppm a
	 * second: refitting every second from the last anchor keeps every
	 * stamp within 1 us over a minute, where the first fit alone drifts
	 * by 0.5e-6 * 60^2 s = 1.8 ms. */
	struct osc o = { 3e9, 1e9 * (1 + 80e-6), 1000, 5, 1e-6 };
	struct wr_clock_pair prev = read_pair(&o, 0), cur;
	struct wr_clock_map m, first;
	unsigned int s;
	double worst = 0;

	cur = read_pair(&o, 1e8);
	CU_ASSERT_EQUAL_FATAL(wr_clock_fit(&m, &prev, &cur), 0);
	first = m;
	prev = cur;
	for (s = 1; s <= 60; s++) {
		struct wr_clock_pair p = read_pair(&o, s * 1e9 - 5e8);
		double err = fabs((double)wr_clock_to_tsc(&m, p.dev) - (double)p.tsc);

		if (err > worst)
			worst = err;
		cur = read_pair(&o, s * 1e9);
		CU_ASSERT_EQUAL_FATAL(wr_clock_fit(&m, &prev, &cur), 0);
		prev = cur;
	}
	CU_ASSERT_TRUE(worst < 3e3); /* 1 us at 3 GHz */
	/* The first fit alone is off by milliseconds by then: the refit is
	 * what keeps the map right. */
	{
		struct wr_clock_pair p = read_pair(&o, 60e9);
		double err = fabs((double)wr_clock_to_tsc(&first, p.dev) -
				  (double)p.tsc);

		CU_ASSERT_TRUE(err > 1e6);
	}
}

static void
test_fit_errors(void)
{
	struct wr_clock_pair a = { 100, 100 }, b = { 100, 200 }, c = { 200, 100 };
	struct wr_clock_pair d = { 1, 0 }, e = { 2, UINT64_MAX };
	struct wr_clock_map m;

	CU_ASSERT_EQUAL(wr_clock_fit(&m, &a, &b), -EINVAL); /* TSC still */
	CU_ASSERT_EQUAL(wr_clock_fit(&m, &a, &c), -EINVAL); /* device still */
	CU_ASSERT_EQUAL(wr_clock_fit(&m, &b, &a), -EINVAL); /* backwards */
	/* 1 TSC tick for 2^64 device ticks: the ratio rounds to 0. */
	CU_ASSERT_EQUAL(wr_clock_fit(&m, &d, &e), -EINVAL);
}

static struct wr_clock_pub pub;
static volatile int done;

static void *
writer(void *arg)
{
	struct wr_clock_map m;
	uint64_t i;

	(void)arg;
	/* Every map published keeps tsc0 = 3 * dev0 and mult = dev0: a
	 * torn read would mix two maps and break one of the relations. */
	for (i = 1; i <= 200000; i++) {
		m.dev0 = i;
		m.tsc0 = 3 * i;
		m.mult = i;
		wr_clock_pub_set(&pub, &m);
	}
	done = 1;
	return NULL;
}

static void
test_publish_no_torn_reads(void)
{
	struct wr_clock_map m;
	pthread_t th;
	unsigned long reads = 0, torn = 0;

	CU_ASSERT_EQUAL(wr_clock_pub_get(&pub, &m), -1); /* nothing yet */
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, writer, NULL), 0);
	while (!done) {
		if (wr_clock_pub_get(&pub, &m) == 0) {
			reads++;
			torn += m.tsc0 != 3 * m.dev0 || m.mult != m.dev0;
		}
	}
	pthread_join(th, NULL);
	CU_ASSERT_EQUAL(torn, 0);
	CU_ASSERT_EQUAL(wr_clock_pub_get(&pub, &m), 0);
	CU_ASSERT_EQUAL(m.dev0, 200000);
	(void)reads;
}

static CU_TestInfo clock_tests[] = {
	{ "fit_and_map", test_fit_and_map },
	{ "refit_follows_drift", test_refit_follows_drift },
	{ "fit_errors", test_fit_errors },
	{ "publish_no_torn_reads", test_publish_no_torn_reads },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "clock", .pTests = clock_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
