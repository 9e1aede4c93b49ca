/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_offload: the TX offload decision and the TX-drop counter names. */
#include "wr_offload.h"
#include "wr_test.h"

static void
test_cksum(void)
{
	struct wr_offload_caps c = { .ipv4_cksum = true, .udp_cksum = true };
	struct wr_offload_use u;

	u = wr_offload_choose(&c, 3, true);
	CU_ASSERT_TRUE(u.cksum);
	/* One without the other: the software path. */
	c.udp_cksum = false;
	CU_ASSERT_FALSE(wr_offload_choose(&c, 1, false).cksum);
	c.udp_cksum = true;
	c.ipv4_cksum = false;
	CU_ASSERT_FALSE(wr_offload_choose(&c, 1, false).cksum);
	c.ipv4_cksum = false;
	c.udp_cksum = false;
	CU_ASSERT_FALSE(wr_offload_choose(&c, 1, false).cksum);
}

static void
test_fast_free(void)
{
	struct wr_offload_caps c = { .fast_free = true };

	/* One stream, so one mempool on each TX queue: on. */
	CU_ASSERT_TRUE(wr_offload_choose(&c, 1, false).fast_free);
	/* Two streams share every queue: two pools, off. */
	CU_ASSERT_FALSE(wr_offload_choose(&c, 2, false).fast_free);
	/* The responder sends RX mbufs on a queue: off. */
	CU_ASSERT_FALSE(wr_offload_choose(&c, 1, true).fast_free);
	/* No stream (RX only) needs nothing. */
	CU_ASSERT_FALSE(wr_offload_choose(&c, 0, false).fast_free);
	c.fast_free = false;
	CU_ASSERT_FALSE(wr_offload_choose(&c, 1, false).fast_free);
}

static void
test_xstat_names(void)
{
	static const char *const drops[] = {
		"tx_errors", "tx_dropped", "tx_q0_drop", "tx_q3_errors",
		"mac_tx_errors", "tx_underrun_errors", "out_pkts_discarded",
		"tx_good_failed", "tx_mbuf_alloc_failed", "tx_single_collision_packets",
		"tx_timeout_count", "tx_pp_missed_interrupt_errors",
	};
	static const char *const others[] = {
		"tx_good_packets", "tx_good_bytes", "tx_q0_packets",
		"tx_q0_bytes", "rx_errors", "rx_missed_errors", "rx_q0_errors",
		"rx_tx_drop", "mac_remote_errors", "out_pkts", "", "ipackets",
	};
	unsigned int i;

	for (i = 0; i < sizeof(drops) / sizeof(drops[0]); i++)
		CU_ASSERT_TRUE(wr_xstat_is_tx_drop(drops[i]));
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		CU_ASSERT_FALSE(wr_xstat_is_tx_drop(others[i]));
	CU_ASSERT_FALSE(wr_xstat_is_tx_drop(NULL));
}

static CU_TestInfo offload_tests[] = {
	{ "cksum", test_cksum },
	{ "fast_free", test_fast_free },
	{ "xstat_names", test_xstat_names },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "offload", .pTests = offload_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
