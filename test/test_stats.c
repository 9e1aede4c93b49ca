/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the L1/L2 arithmetic (wr_stats). */
#include <math.h>

#include "wr_stats.h"
#include "wr_test.h"

static void
test_ostinato_formula(void)
{
	/* Ostinato's table: Mbps = (size + 20) * kpps * 8 / 1000, checked
	 * for every size of the classic set at 1 s. */
	static const uint32_t sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t pkts = 920000 - i * 1000;
		struct wr_rates r = wr_rates_calc(pkts, pkts * sizes[i],
						  1000000000ull);
		double l1 = (sizes[i] + 20) * r.kpps * 8 / 1000;
		double l2 = sizes[i] * r.kpps * 8 / 1000;

		CU_ASSERT_DOUBLE_EQUAL(r.kpps, pkts / 1000.0, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r.mbps_l1, l1, 1e-6);
		CU_ASSERT_DOUBLE_EQUAL(r.mbps_l2, l2, 1e-6);
	}
}

static void
test_mixed_sizes_exact(void)
{
	/* Simple IMIX cycle 7x64 + 4x594 + 1x1518 over 2 s: L1 adds 20
	 * bytes per frame, not per average size. */
	uint64_t pkts = 12, bytes = 7 * 64 + 4 * 594 + 1518;
	struct wr_rates r = wr_rates_calc(pkts, bytes, 2000000000ull);

	CU_ASSERT_EQUAL(wr_l1_bytes(bytes, pkts), bytes + 240);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l2, bytes * 8 / 2.0 / 1e6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l1, (bytes + 240) * 8 / 2.0 / 1e6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 6.0 / 1000, 1e-12);
}

static void
test_zero_interval(void)
{
	struct wr_rates r = wr_rates_calc(100, 6400, 0);

	CU_ASSERT_EQUAL(r.kpps, 0);
	CU_ASSERT_EQUAL(r.mbps_l1, 0);
	CU_ASSERT_EQUAL(r.mbps_l2, 0);
}

static void
test_line_rate(void)
{
	/* 14.88 Mpps is 10GbE at 64 bytes; 812743 pps at 1518. */
	CU_ASSERT_DOUBLE_EQUAL(wr_line_rate_pps(10000, 64), 14880952.38, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(wr_line_rate_pps(10000, 1518), 812743.82, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(wr_line_rate_pps(1000, 64), 1488095.24, 0.01);
}

static void
test_counters_add(void)
{
	struct wr_counters a = { 1, 64, 0, 2 }, b = { 3, 192, 1, 0 }, c;

	wr_counters_add(&a, &b);
	wr_counters_read(&c, &a);
	CU_ASSERT_EQUAL(c.tx_pkts, 4);
	CU_ASSERT_EQUAL(c.tx_bytes, 256);
	CU_ASSERT_EQUAL(c.tx_full, 1);
	CU_ASSERT_EQUAL(c.alloc_fail, 2);
}

static CU_TestInfo stats_tests[] = {
	{ "ostinato_formula", test_ostinato_formula },
	{ "mixed_sizes_exact", test_mixed_sizes_exact },
	{ "zero_interval", test_zero_interval },
	{ "line_rate", test_line_rate },
	{ "counters_add", test_counters_add },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "stats", .pTests = stats_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
