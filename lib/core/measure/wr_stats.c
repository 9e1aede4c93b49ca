/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stats: the L1/L2 rate arithmetic and the spread of repeated measurements. */
#include <stdlib.h>

#include "wr_stats.h"

void
wr_counters_add(struct wr_counters *a, const struct wr_counters *b)
{
	a->tx_pkts += b->tx_pkts;
	a->tx_bytes += b->tx_bytes;
	a->tx_full += b->tx_full;
	a->alloc_fail += b->alloc_fail;
}

void
wr_thread_usage_add(struct wr_thread_usage *a, const struct wr_thread_usage *b)
{
	a->wall_ns += b->wall_ns;
	a->user_ns += b->user_ns;
	a->sys_ns += b->sys_ns;
	a->nvcsw += b->nvcsw;
	a->nivcsw += b->nivcsw;
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

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct wr_spread
wr_spread_of(double *v, uint32_t n)
{
	struct wr_spread s = { 0, 0, 0 };

	if (n == 0)
		return s;
	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

void
wr_spread_print(FILE *out, const struct wr_spread *s)
{
	fprintf(out, " %10.3f %10.3f %10.3f", s->min, s->median, s->max);
}

void
wr_spread_json(FILE *out, const char *key, const struct wr_spread *s)
{
	fprintf(out, ", \"%s\": {\"min\": %.3f, \"median\": %.3f, "
		"\"max\": %.3f}", key, s->min, s->median, s->max);
}
