/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stats: the L1/L2 rate arithmetic. */
#include "wr_stats.h"

void
wr_counters_add(struct wr_counters *a, const struct wr_counters *b)
{
	a->tx_pkts += b->tx_pkts;
	a->tx_bytes += b->tx_bytes;
	a->tx_full += b->tx_full;
	a->alloc_fail += b->alloc_fail;
}

struct wr_rates
wr_rates_calc(uint64_t pkts, uint64_t bytes, uint64_t ns)
{
	struct wr_rates r = { 0, 0, 0 };
	double s;

	if (ns == 0)
		return r;
	s = (double)ns / 1e9;
	r.kpps = (double)pkts / s / 1e3;
	r.mbps_l2 = (double)bytes * 8.0 / s / 1e6;
	r.mbps_l1 = (double)wr_l1_bytes(bytes, pkts) * 8.0 / s / 1e6;
	return r;
}

double
wr_line_rate_pps(uint32_t link_mbps, uint32_t size)
{
	if (size == 0)
		return 0;
	return (double)link_mbps * 1e6 /
	       ((double)(size + WR_L1_OVERHEAD) * 8.0);
}
