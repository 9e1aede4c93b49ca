/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_bench: option values, sweep rows, trial validity, tables, CSV, JSON and atomic writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_bench_result.h"
#include "wr_bench_opts.h"
#include "wr_eta.h"
#include "wr_out.h"
#include "wr_test.h"

static void
test_parse_sizes(void)
{
	uint16_t s[WR_BENCH_SIZES_MAX];
	unsigned int n = 0;
	char why[192];

	CU_ASSERT_EQUAL(wr_bench_parse_sizes("64,128,1518", s, 64, &n, why,
					     sizeof(why)), 0);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT(s[0] == 64 && s[1] == 128 && s[2] == 1518);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("9018", s, 64, &n, NULL, 0), 0);
	CU_ASSERT_EQUAL(n, 1);
	n = 7;
	/* Out of range, empty items, duplicates, junk, too many: refused,
	 * and the output is untouched. */
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("63", s, 64, &n, why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "64..9018"));
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("9019", s, 64, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("64,,128", s, 64, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("64,", s, 64, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("", s, 64, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("64,64", s, 64, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("64 ,128", s, 64, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_sizes("64,128,256", s, 2, &n, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(n, 7);
}

static void
test_parse_ppm(void)
{
	uint32_t p = 77;

	CU_ASSERT_EQUAL(wr_bench_parse_ppm("0", &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(p, 0);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("0.1", &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(p, 1000);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("0.1%", &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(p, 1000);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("0.0001", &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(p, 1);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("100", &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(p, 1000000);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("2.5", &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(p, 25000);
	p = 77;
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("100.0001", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("101", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("0.00001", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm(".5", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("1.", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("-1", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("1%%", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_ppm("", &p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(p, 77);
}

static void
test_sweep_row(void)
{
	struct wr_sweep_row r;

	/* 1488095 frames of 64 bytes in 1 s on 1 GbE: line rate. */
	wr_sweep_row_calc(&r, 64, 1488095, 1000000000ull, 1000, NULL);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 1488.095, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l2, 64 * 1488.095 * 8 / 1000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l1, 84 * 1488.095 * 8 / 1000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.line_pct, 99.99998, 1e-5);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "line");
	/* 0.1 % below the line is still the line; more is the generator */
	wr_sweep_row_calc(&r, 64, 1486608, 1000000000ull, 1000, NULL);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "line");
	wr_sweep_row_calc(&r, 64, 1486606, 1000000000ull, 1000, NULL);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "generator");
	/* Above the line by more than the resolution is never the line:
	 * the port's speed is not the wire's (net_null at 978 % of its
	 * 10 Gbps); just above it still is. */
	wr_sweep_row_calc(&r, 64, 1489583, 1000000000ull, 1000, NULL);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "line");
	wr_sweep_row_calc(&r, 64, 1489586, 1000000000ull, 1000, NULL);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "generator");
	wr_sweep_row_calc(&r, 64, 145535714, 1000000000ull, 10000, NULL);
	CU_ASSERT_DOUBLE_EQUAL(r.line_pct, 978.0, 1e-4);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "generator");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.limit_why, "not the wire's"));
	/* Ostinato's 1518-byte row: 80 Kpps is 984 Mbps L1. */
	wr_sweep_row_calc(&r, 1518, 40000, 500000000ull, 0, NULL);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 80.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l1, 984.32, 1e-9);
	CU_ASSERT_EQUAL(r.link_mbps, 0);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "generator");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.limit_why, "no line rate"));
	wr_sweep_row_calc(&r, 128, 0, 0, 10000, NULL);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 0, 0);
}

static void
test_link_placeholder(void)
{
	CU_ASSERT_TRUE(wr_txlimit_placeholder("net_null"));
	CU_ASSERT_TRUE(wr_txlimit_placeholder("net_memif"));
	CU_ASSERT_TRUE(wr_txlimit_placeholder("net_af_packet"));
	CU_ASSERT_FALSE(wr_txlimit_placeholder("net_ice"));
	CU_ASSERT_FALSE(wr_txlimit_placeholder("mlx5_pci"));
	CU_ASSERT_FALSE(wr_txlimit_placeholder(NULL));
	CU_ASSERT_EQUAL(wr_txlimit_line_mbps("net_null", 10000), 0);
	CU_ASSERT_EQUAL(wr_txlimit_line_mbps("net_ice", 25000), 25000);
}

/* The limit a trial's counters name: the af_packet trial of issue 17
 * (the lcore in the kernel), a port whose ring is full, a CPU another
 * thread takes, an lcore flat out, and the pacer. */
static void
test_limit_of(void)
{
	struct wr_txlimit_tx t = { .sent = 189417, .pacer_skipped = 209983,
				 .burst = 32,
				 .usage = { .wall_ns = 500000000,
					    .user_ns = 60000000,
					    .sys_ns = 430000000,
					    .nvcsw = 3, .nivcsw = 40 } };
	struct wr_sweep_row r;
	char why[160];

	CU_ASSERT_EQUAL(wr_txlimit_of(&t, why, sizeof(why)),
			WR_TXLIMIT_PORT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "87 % of its CPU time in the kernel"));
	CU_ASSERT_STRING_EQUAL(wr_txlimit_name(WR_TXLIMIT_PORT), "port");
	/* A port that refuses 1 % of the bursts or more: its ring is full. */
	t.usage = (struct wr_thread_usage){ .wall_ns = 500000000,
					    .user_ns = 499000000 };
	t.sent = 320000;
	t.tx_full = 100;   /* 100 x 32 = 1 % of 320000 */
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, why, sizeof(why)),
			WR_TXLIMIT_PORT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "100 bursts refused"));
	t.tx_full = 99;
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, NULL, 0), WR_TXLIMIT_CPU);
	t.tx_full = 0;
	/* Off its CPU 20 % of the time, preempted: another thread. */
	t.usage = (struct wr_thread_usage){ .wall_ns = 500000000,
					    .user_ns = 400000000,
					    .nvcsw = 2, .nivcsw = 120 };
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, why, sizeof(why)),
			WR_TXLIMIT_CPU);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "preempted 120 times"));
	/* ... or waiting in the kernel: a PMD that blocks until the port
	 * has room. */
	t.usage.nvcsw = 500;
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, why, sizeof(why)),
			WR_TXLIMIT_PORT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "500 waits"));
	/* Preempted, and at its pace on the CPU it would have sent all that
	 * fell due: the CPU, even with the port's system calls. */
	t.pacer_skipped = 20000;
	t.usage = (struct wr_thread_usage){ .wall_ns = 500000000,
					    .user_ns = 100000000,
					    .sys_ns = 300000000,
					    .nvcsw = 2, .nivcsw = 120 };
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, why, sizeof(why)),
			WR_TXLIMIT_CPU);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "CPU was taken: off it 20 %"));
	/* ... not so with more due: the kernel's share makes it the port. */
	t.pacer_skipped = 209983;
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, NULL, 0), WR_TXLIMIT_PORT);
	/* On its CPU all along, frames skipped: it could not keep up. */
	t.usage = (struct wr_thread_usage){ .wall_ns = 500000000,
					    .user_ns = 499000000 };
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, why, sizeof(why)),
			WR_TXLIMIT_CPU);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "209983 frames late"));
	/* Nothing skipped, nothing refused: the schedule itself. */
	t.pacer_skipped = 0;
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, NULL, 0), WR_TXLIMIT_PACER);
	/* No usage known: the counters alone. */
	memset(&t.usage, 0, sizeof(t.usage));
	t.pacer_skipped = 5;
	CU_ASSERT_EQUAL(wr_txlimit_of(&t, NULL, 0), WR_TXLIMIT_CPU);
	/* A sweep row: below the line, the port's evidence makes it "port". */
	t.usage = (struct wr_thread_usage){ .wall_ns = 500000000,
					    .user_ns = 50000000,
					    .sys_ns = 440000000 };
	wr_sweep_row_calc(&r, 64, 290752, 500000000ull, 0, &t);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "port");
	CU_ASSERT_EQUAL(r.usage.sys_ns, 440000000);
	t.usage.sys_ns = 10000000;
	wr_sweep_row_calc(&r, 64, 290752, 500000000ull, 0, &t);
	CU_ASSERT_STRING_EQUAL(r.limited_by, "generator");
	(void)why;
}

static void
test_stop_print(void)
{
	static const uint16_t left[] = { 128, 256, 512 };
	struct wr_bench_meta m = { .stop_reason = "link-down",
				   .stopped_in = 128, .not_measured = left,
				   .n_not_measured = 3 };
	struct wr_sweep_stat st = { .echo = true, .tx_pkts = 10,
				    .limited_by = "generator" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	wr_bench_stop_print(f, &m);
	m.stop_reason = "done";
	wr_bench_stop_print(f, &m);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "stopped: a port's link went down during "
			       "the 128-byte trial (link-down); not measured: "
			       "128, 256, 512 bytes\n");
	free(buf);
	/* Exit status 3 only for a size that sent and lost nothing with
	 * the TX lcore as the limit. */
	CU_ASSERT_TRUE(wr_sweep_stat_gen_limited(&st));
	st.limited_by = "port";
	CU_ASSERT_FALSE(wr_sweep_stat_gen_limited(&st));
	st.limited_by = "generator";
	st.tx_pkts = 0;
	CU_ASSERT_FALSE(wr_sweep_stat_gen_limited(&st));
	st.tx_pkts = 10;
	st.lost = 1;
	CU_ASSERT_FALSE(wr_sweep_stat_gen_limited(&st));
}

static void
test_port_rate_checks(void)
{
	static const uint16_t sizes[] = { 64, 1518 };
	struct wr_rate_spec lo = { WR_RATE_PPS, 20000000 };
	struct wr_rate_spec hi = { WR_RATE_PPS, 10000000 };
	char why[128];

	CU_ASSERT_EQUAL(wr_bench_port_check(0, 1, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_bench_port_check(31, 0, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_bench_port_check(5, 1, why, sizeof(why)), -ENODEV);
	CU_ASSERT_STRING_EQUAL(why, "expected a port index 0..0 (there is 1 port)");
	CU_ASSERT_EQUAL(wr_bench_port_check(2, 2, why, sizeof(why)), -ENODEV);
	CU_ASSERT_STRING_EQUAL(why, "expected a port index 0..1 (there are 2 ports)");
	/* One unit: as written, whatever the link. */
	CU_ASSERT_EQUAL(wr_bench_rate_order(&lo, &hi, sizes, 2, 0, why,
					    sizeof(why)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "expected at most --max-rate (10000.0000 "
			       "pps), got 20000.0000 pps");
	CU_ASSERT_EQUAL(wr_bench_rate_order(&hi, &lo, sizes, 2, 0, NULL, 0), 0);
	/* 1 Gbps L1 is above 100 kpps at 64 bytes, below at 1518. */
	lo = (struct wr_rate_spec){ WR_RATE_BPS_L1, 1000000000 };
	hi = (struct wr_rate_spec){ WR_RATE_PPS, 100000000 };
	CU_ASSERT_EQUAL(wr_bench_rate_order(&lo, &hi, sizes, 2, 0, why,
					    sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "(100000.000 pps at 64 bytes), got "
				      "1488095.238 pps"));
	CU_ASSERT_EQUAL(wr_bench_rate_order(&lo, &hi, sizes + 1, 1, 0, NULL, 0), 0);
	/* A percentage against pps: only once the link is known. */
	lo = (struct wr_rate_spec){ WR_RATE_PERCENT, 500000 };
	CU_ASSERT_EQUAL(wr_bench_rate_order(&lo, &hi, sizes, 1, 0, NULL, 0), 0);
	CU_ASSERT_EQUAL(wr_bench_rate_order(&lo, &hi, sizes, 1, 10000, NULL, 0),
			-EINVAL);
	hi.unit = WR_RATE_MAX;
	CU_ASSERT_EQUAL(wr_bench_rate_order(&lo, &hi, sizes, 1, 10000, NULL, 0), 0);
}

static void
test_trial_valid(void)
{
	CU_ASSERT_TRUE(wr_bench_trial_valid(1000000, 0));
	CU_ASSERT_TRUE(wr_bench_trial_valid(999000, 1000));  /* 0.1 % exactly */
	CU_ASSERT_FALSE(wr_bench_trial_valid(998999, 1001));
	CU_ASSERT_FALSE(wr_bench_trial_valid(0, 1));
	CU_ASSERT_TRUE(wr_bench_trial_valid(UINT64_MAX, UINT64_MAX / 2000));
}

static char *
render(int (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fn(f, arg), 0);
	fclose(f);
	return buf;
}

struct sweep_arg {
	const struct wr_bench_meta *m;
	const struct wr_sweep_row *rows;
	unsigned int n;
};

static int
sweep_csv(FILE *f, const void *a)
{
	const struct sweep_arg *s = a;

	return wr_sweep_csv_write(f, s->rows, s->n);
}

static int
sweep_json(FILE *f, const void *a)
{
	const struct sweep_arg *s = a;

	return wr_sweep_json_write(f, s->m, s->rows, s->n);
}

static void
test_sweep_outputs(void)
{
	struct wr_sweep_row rows[2];
	struct wr_bench_meta m = {
		.wirerate_version = "0.1.0", .dpdk_version = "DPDK 22.11.11",
		.stream_file = "s\"q.yaml", .stream = "udp-64", .config_file = "",
		.tx_device = "net_null0", .tx_driver = "net_null",
		.stop_reason = "done", .duration_ns = 2000000000ull,
	};
	struct sweep_arg a = { &m, rows, 2 };
	char *csv, *json, *table = NULL;
	size_t len = 0;
	FILE *f;

	wr_sweep_row_calc(&rows[0], 64, 2000, 1000000000ull, 0, NULL);
	wr_sweep_row_calc(&rows[1], 1518, 1000, 1000000000ull, 0, NULL);
	csv = render(sweep_csv, &a);
	CU_ASSERT_STRING_EQUAL(csv,
		"frame_size,kpps,mbps_l1,mbps_l2,line_pct,tx_pkts,duration_s,pacer_skipped,"
		"limited_by,cut_short,tx_full,alloc_fail\n"
		"64,2.000,1.344,1.024,,2000,1.000000000,0,generator,0,0,0\n"
		"1518,1.000,12.304,12.144,,1000,1.000000000,0,generator,0,0,0\n");
	json = render(sweep_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"schema\": \"wirerate-sweep/1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"stream_file\": \"s\\\"q.yaml\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"line_pct\": null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"duration_per_size_s\": 2.000000000"));
	f = open_memstream(&table, &len);
	wr_sweep_print(f, rows, 2);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(table, "       n/a"));
	CU_ASSERT_PTR_NOT_NULL(strstr(table, "      1518        1.000       12.304       12.144"));
	CU_ASSERT_PTR_NULL(strstr(table, "cut short"));
	rows[1].cut_short = true;
	free(table);
	table = NULL;
	f = open_memstream(&table, &len);
	wr_sweep_print(f, rows, 2);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(table, "generator  (cut short by a signal: not a full"));
	free(json);
	json = render(sweep_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"cut_short\": true"));
	rows[1].cut_short = false;
	free(csv);
	free(json);
	free(table);
	/* With a link: the share of the line rate. */
	wr_sweep_row_calc(&rows[0], 64, 744048, 1000000000ull, 1000, NULL);
	a.n = 1;
	csv = render(sweep_csv, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",50.0000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",generator,0,0,0\n"));
	free(csv);
}

struct rfc_arg {
	const struct wr_bench_meta *m;
	const struct wr_rfc2544_row *rows;
	unsigned int n;
};

static int
rfc_csv(FILE *f, const void *a)
{
	const struct rfc_arg *r = a;

	return wr_rfc2544_csv_write(f, r->rows, r->n);
}

static int
rfc_json(FILE *f, const void *a)
{
	const struct rfc_arg *r = a;

	return wr_rfc2544_json_write(f, r->m, r->rows, r->n);
}

static void
test_rfc2544_outputs(void)
{
	static struct wr_rfc2544_row row;
	struct wr_bench_meta m = {
		.wirerate_version = "0.1.0", .dpdk_version = "d", .stream_file = "s",
		.stream = "x", .config_file = "c", .tx_device = "a", .tx_driver = "b",
		.rx_device = "r", .stop_reason = "done", .duration_ns = 1000000000ull,
		.loss_ppm = 1000,
	};
	struct rfc_arg a = { &m, &row, 1 };
	char *csv, *json;

	row.size = 128;
	row.has_throughput = true;
	row.link_mbps = 1000;
	row.res.ndr.millipps = 20000000;   /* 20 kpps */
	row.res.ndr.l1_bps = 20000ull * 148 * 8;
	row.res.ndr.l2_bps = 20000ull * 128 * 8;
	row.res.converged = true;
	row.n_trials = 2;
	row.trials[0] = (struct wr_bench_trial){ .rate_millipps = 40000000,
		.sent = 40000, .received = 20000, .duration_ns = 1000000000,
		.rx_frames = 20000, .valid = true, .counted = true };
	row.trials[1] = (struct wr_bench_trial){ .rate_millipps = 20000000,
		.sent = 20000, .received = 20000, .duration_ns = 1000000000,
		.rx_frames = 20000, .valid = true, .counted = true, .pass = true };
	csv = render(rfc_csv, &a);
	CU_ASSERT_STRING_EQUAL(csv,
		"frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,limited_by,"
		"at_least_pps,trials,converged\n"
		"128,20000.000,23.680000,20.480000,2.3680,device,,2,true\n");
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"schema\": \"wirerate-rfc2544/1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"loss_tolerance_pct\": 0.1000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"limited_by\": \"device\", "
				  "\"at_least_pps\": null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "{\"rate_pps\": 40000.000, "
				  "\"phase\": 0, \"trial_s\": 0.000000000, "
				  "\"offered_pps\": 0.000, \"short_offer\": false, "
				  "\"sent\": 40000, \"received\": 20000, \"lost\": 20000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"counted\": true, \"pass\": true, "
				  "\"pdr_pass\": null, \"tx_full\": 0, "
				  "\"alloc_fail\": 0, \"tx_lcore\": null, "
				  "\"short_by\": null, \"limit_detail\": null, "
				  "\"reverse\": null}]}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"pdr\": null"));
	free(csv);
	free(json);

	/* With a PDR at 0.5 %: its own columns and object. */
	row.res.has_pdr = true;
	row.res.pdr.millipps = 30000000;
	row.res.pdr.l1_bps = 30000ull * 148 * 8;
	row.res.pdr.l2_bps = 30000ull * 128 * 8;
	row.res.pdr.loss_ppm = 5000;
	row.trials[0].pdr_pass = true;
	m.pdr_ppm = 5000;
	m.phases = 3;
	csv = render(rfc_csv, &a);
	CU_ASSERT_STRING_EQUAL(csv,
		"frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,limited_by,"
		"at_least_pps,trials,converged,pdr_pps,pdr_mbps_l1,pdr_mbps_l2,"
		"pdr_line_pct,pdr_limited_by,pdr_at_least_pps,pdr_loss_pct\n"
		"128,20000.000,23.680000,20.480000,2.3680,device,,2,true,"
		"30000.000,35.520000,30.720000,3.5520,device,,0.5000\n");
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"pdr\": {\"loss_tolerance_pct\": "
				  "0.5000, \"pps\": 30000.000, \"mbps_l1\": 35.520000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"pdr_loss_tolerance_pct\": 0.5000, "
				  "\"phases\": 3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"pass\": false, \"pdr_pass\": true, "
				  "\"tx_full\": 0"));
	free(csv);
	free(json);
}

static void
test_rfc2544_gen_limited(void)
{
	/* The case: trials asked 4528985 pps, the generator offered
	 * 232 kpps and the device lost nothing: no figure in any output. */
	static struct wr_rfc2544_row row;
	struct wr_bench_meta m = {
		.wirerate_version = "0.1.0", .dpdk_version = "d", .stream_file = "s",
		.stream = "x", .config_file = "c", .tx_device = "a", .tx_driver = "b",
		.rx_device = "r", .stop_reason = "done",
	};
	struct rfc_arg a = { &m, &row, 1 };
	char *csv, *json, *txt;
	size_t len;
	FILE *f;

	row.size = 256;
	row.has_throughput = true;
	row.link_mbps = 10000;
	row.res.ndr.gen_limited = true;
	row.res.ndr.gen_millipps = 232000000;
	row.n_trials = 1;
	row.trials[0] = (struct wr_bench_trial){ .rate_millipps = 4528985507ull,
		.offered_millipps = 232000000, .short_offer = true,
		.sent = 232000, .received = 232000, .duration_ns = 1000000000,
		.valid = false, .counted = true, .pass = true,
		/* af_packet: the TX lcore in the kernel, sending for the port */
		.tx = { .sent = 232000, .pacer_skipped = 4000000, .burst = 32,
			.usage = { .wall_ns = 1000000000, .user_ns = 30000000,
				   .sys_ns = 950000000 } } };
	CU_ASSERT_TRUE(wr_rfc2544_row_gen_limited(&row));
	csv = render(rfc_csv, &a);
	CU_ASSERT_STRING_EQUAL(csv,
		"frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,limited_by,"
		"at_least_pps,trials,converged\n"
		"256,,,,,generator,232000.000,1,false\n");
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"throughput_pps\": null, "
				  "\"mbps_l1\": null, \"mbps_l2\": null, "
				  "\"line_pct\": null, \"limited_by\": \"generator\", "
				  "\"at_least_pps\": 232000.000"));
	CU_ASSERT_PTR_NULL(strstr(json, "4528985.507, \"mbps"));
	f = open_memstream(&txt, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	wr_rfc2544_print(f, &row, 1);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "       256 >= 232000.000 pps: the "
				  "device lost nothing; the generator could not "
				  "offer more"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, " short     port\n"));
	/* The limit is named from the counters, not assumed to be the CPU. */
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "offer more (the TX port took the TX "
				  "lcore's time: 96 % of its CPU time in the kernel"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"generator_limit\": \"port\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"short_by\": \"port\""));
	row.trials[0].tx.usage.sys_ns = 0;
	row.trials[0].tx.usage.user_ns = 990000000;
	CU_ASSERT_STRING_EQUAL(wr_bench_trial_short_by(&row.trials[0], NULL, 0),
			       "cpu");
	free(txt);
	free(csv);
	free(json);
}

static int
write_hello(FILE *f, const void *arg)
{
	fputs(arg, f);
	return 0;
}

static int
write_fail(FILE *f, const void *arg)
{
	(void)arg;
	fputs("partial", f);
	return -EIO;
}

static void
test_write_atomic(void)
{
	char dir[] = "/tmp/wrbenchXXXXXX", path[64], buf[16] = "";
	struct stat st;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	CU_ASSERT_EQUAL(wr_out_atomic(path, write_hello, "hello"), 0);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof(buf), f));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "hello");
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0644);
	/* A failing writer leaves the old file and no temporary behind. */
	CU_ASSERT_EQUAL(wr_out_atomic(path, write_fail, NULL), -EIO);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof(buf), f));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "hello");
	unlink(path);
	CU_ASSERT_EQUAL(rmdir(dir), 0);  /* empty: no temporary left */
	snprintf(path, sizeof(path), "%s/none/out.csv", dir);
	CU_ASSERT_EQUAL(wr_out_atomic(path, write_hello, "x"), -ENOENT);
}

static void
test_parse_tests(void)
{
	char why[160];
	uint32_t t = 0;

	CU_ASSERT_EQUAL(wr_bench_parse_tests("throughput", &t, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(t, WR_BENCH_TEST_THROUGHPUT);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("b2b,loss", &t, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(t, WR_BENCH_TEST_B2B | WR_BENCH_TEST_LOSS);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("all", &t, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(t, WR_BENCH_TEST_THROUGHPUT | WR_BENCH_TEST_LOSS |
			WR_BENCH_TEST_B2B | WR_BENCH_TEST_LATENCY);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("latency", &t, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(t, WR_BENCH_TEST_LATENCY);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("loss,loss", &t, why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("", &t, why, sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("latency2", &t, why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_tests("loss,", &t, why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "throughput, latency, loss, b2b"));
}

static void
test_rfc2544_loss_b2b_outputs(void)
{
	static struct wr_rfc2544_row row;
	struct wr_bench_meta m = {
		.wirerate_version = "0.1.0", .dpdk_version = "d", .stream_file = "s",
		.stream = "x", .config_file = "c", .tx_device = "a", .tx_driver = "b",
		.rx_device = "r", .stop_reason = "done",
	};
	struct wr_floss_cfg fc = { .max_millipps = 10000000 };
	struct wr_b2b_cfg bc = { .max_frames = 100, .repeats = 2 };
	struct rfc_arg a = { &m, &row, 1 };
	uint64_t rate, n;
	char *csv, *json;

	memset(&row, 0, sizeof(row));
	row.size = 512;
	row.has_floss = true;
	CU_ASSERT_EQUAL_FATAL(wr_floss_start(&row.floss, &fc, &rate), 0);
	CU_ASSERT_EQUAL(wr_floss_report(&row.floss, 1000, 750, rate, &rate), 0);
	CU_ASSERT_EQUAL(wr_floss_report(&row.floss, 900, 900, rate, &rate), 0);
	CU_ASSERT_EQUAL(wr_floss_report(&row.floss, 800, 800, rate, &rate), 1);
	row.has_b2b = true;
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&row.b2b, &bc, &n), 0);
	while (wr_b2b_report(&row.b2b, n, n <= 40 ? n : 40, false, &n) != 1)
		;
	row.b2b_offered_min = 300000000;
	row.has_lat = true;
	row.lat.skipped = "no timestamp signature (18 bytes at least) fits "
			  "this frame size";
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"latency\": {\"skipped\": \"no timestamp "
				  "signature (18 bytes at least) fits this frame size\", "
				  "\"rate_pps\": 0.000, \"rate_at_least\": false, "
				  "\"trials\": [], \"overall\": null}"));
	free(json);
	/* two timed trials: each one's figures, the overall ones */
	row.lat.skipped = NULL;
	row.lat.rate_millipps = 100000000;
	row.lat.n_trials = 2;
	row.lat.sent[0] = 40000;
	row.lat.offered[0] = 99999000;
	row.lat.short_offer[1] = true;
	row.lat.trial[0] = (struct wr_latency_summary){ .n = 40000, .min = 400,
		.avg = 900, .max = 9000, .p50 = 800, .p99 = 2000, .p999 = 4000,
		.p9999 = 8000, .jitter_ns = 12.5 };
	row.lat.overall = row.lat.trial[0];
	row.lat.jitter_max_ns = 20;
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"trials\": [\n      {\"frames\": 40000, "
				  "\"min_ns\": 400, \"avg_ns\": 900, \"max_ns\": 9000, "
				  "\"p50_ns\": 800, \"p90_ns\": 0, \"p99_ns\": 2000, \"p99_9_ns\": 4000, "
				  "\"p99_99_ns\": 8000, \"jitter_ns\": 12.500, \"sent\": "
				  "40000, \"lost\": 0, \"offered_pps\": 99999.000, "
				  "\"short_offer\": false}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"short_offer\": true}], \"overall\": "
				  "{\"frames\": 40000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"jitter_max_ns\": 20.000}"));
	free(json);
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"frame_loss\": {\"max_rate_pps\": "
				  "10000.000, \"step_pct\": 10.0000, "
				  "\"stopped_clean\": true"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "{\"rate_pct\": 100.0000, \"rate_pps\": "
				  "10000.000, \"offered_pps\": 10000.000, "
				  "\"short_offer\": false, \"sent\": 1000, "
				  "\"received\": 750, \"lost\": 250, \"excess\": 0, "
				  "\"loss_pct\": 25.000000, \"reverse\": null}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"rate_pct\": 80.0000, \"rate_pps\": 8000.000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"back_to_back\": {\"rate_pps\": null, "
				  "\"asked_rate_pps\": null, "
				  "\"min_offered_pps\": 300000.000, \"first_burst\": 100, "
				  "\"resolution_frames\": 1, \"repeats\": 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"min\": 40, \"avg\": 40.000, \"max\": 40, "
				  "\"generator_limited\": false, \"generator_burst\": null, "
				  "\"generator_offered_pps\": null, \"generator_limit\": null, "
				  "\"generator_limit_detail\": null, "
				  "\"at_first_burst\": 0, \"values\": [40, 40]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"throughput_pps\": null, "
				  "\"limited_by\": null"));
	/* no throughput: no CSV row */
	csv = render(rfc_csv, &a);
	CU_ASSERT_STRING_EQUAL(csv, "frame_size,throughput_pps,mbps_l1,mbps_l2,"
			       "line_pct,limited_by,at_least_pps,trials,"
			       "converged\n");
	CU_ASSERT_FALSE(wr_rfc2544_row_gen_limited(&row));
	free(csv);
	free(json);
	/* Issue 17: the first burst asked at 30 kpps went out at 2.5 kpps
	 * (the lcore's CPU taken) and came back whole: no value, no figure,
	 * the cause named, and the row generator-limited (exit status 3). */
	CU_ASSERT_EQUAL_FATAL(wr_b2b_start(&row.b2b, &bc, &n), 0);
	CU_ASSERT_EQUAL(wr_b2b_report(&row.b2b, n, n, true, &n), 1);
	row.b2b_rate_millipps = row.b2b_asked_millipps = 30000000;
	row.b2b_offered_min = row.b2b_gen_offered = 2500000;
	row.b2b_gen_tx = (struct wr_txlimit_tx){ .sent = 100, .burst = 32,
		.usage = { .wall_ns = 40000000, .user_ns = 3000000,
			   .nivcsw = 9 } };
	CU_ASSERT_TRUE(wr_rfc2544_row_gen_limited(&row));
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"repeats\": 0, \"bursts\": 0, "
				  "\"min\": null, \"avg\": null, \"max\": null, "
				  "\"generator_limited\": true, \"generator_burst\": 100, "
				  "\"generator_offered_pps\": 2500.000, "
				  "\"generator_limit\": \"cpu\""));
	free(json);
	{
		char *txt = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&txt, &len);

		wr_rfc2544_print(f, &row, 1);
		fclose(f);
		CU_ASSERT_PTR_NOT_NULL(strstr(txt, "  -              -            -"));
		CU_ASSERT_PTR_NOT_NULL(strstr(txt, "generator-limited: a burst of 100 "
					  "frames not offered at 30000.000 pps"));
		CU_ASSERT_PTR_NOT_NULL(strstr(txt, "it went out at 2500.000 pps: the "
					  "TX lcore's CPU was taken"));
		free(txt);
	}
}

static void
test_sweep_stat(void)
{
	/* Three repeats of 1 s at 1518 B: 80, 81 and 79 Kpps (seed 002's
	 * spread), echoes 80000, 80000 and 78000 back. */
	struct wr_sweep_row rows[3];
	struct wr_sweep_echo echo[3] = {
		{ 80000, 80000, 80000ull * 1514, 80000ull * 1514 },
		{ 81000, 81000, 81000ull * 1514, 81000ull * 1514 },
		{ 78000, 78000, 78000ull * 1514, 78000ull * 1514 } };
	struct wr_sweep_stat st;
	char why[160];

	wr_sweep_row_calc(&rows[0], 1518, 80000, 1000000000ull, 1000, NULL);
	wr_sweep_row_calc(&rows[1], 1518, 81000, 1000000000ull, 1000, NULL);
	wr_sweep_row_calc(&rows[2], 1518, 79000, 1000000000ull, 1000, NULL);
	CU_ASSERT_EQUAL(wr_sweep_stat_calc(&st, rows, echo, 3, 42), 0);
	CU_ASSERT_EQUAL(st.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.min, 79.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.median, 80.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.max, 81.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.mbps_l1.median, 80.0 * 1538 * 8 / 1000, 1e-9);
	/* goodput: 1518 - 4 FCS - 42 header bytes = 1472 payload bytes */
	CU_ASSERT_DOUBLE_EQUAL(st.goodput_mbps.median, 80.0 * 1472 * 8 / 1000, 1e-9);
	CU_ASSERT_TRUE(st.echo);
	CU_ASSERT_EQUAL(st.tx_pkts, 240000);
	CU_ASSERT_EQUAL(st.rx_pkts, 239000);
	CU_ASSERT_EQUAL(st.lost, 1000);
	CU_ASSERT_DOUBLE_EQUAL(st.loss_pct.max, 1000.0 * 100 / 79000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.loss_pct.min, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(st.rx_kpps.median, 80.0, 1e-9);
	/* bytes back are summed as measured, per second per repeat */
	CU_ASSERT_EQUAL(st.rx_bytes, 239000ull * 1514);
	CU_ASSERT_EQUAL(st.rx_nic_bytes, 239000ull * 1514);
	CU_ASSERT_DOUBLE_EQUAL(st.rx_bytes_ps.min, 78000.0 * 1514, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(st.rx_bytes_ps.median, 80000.0 * 1514, 1e-6);
	CU_ASSERT_STRING_EQUAL(st.limited_by, "generator");
	/* an even count: the median is the middle two's mean */
	CU_ASSERT_EQUAL(wr_sweep_stat_calc(&st, rows, NULL, 2, 42), 0);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.median, 80.5, 1e-9);
	CU_ASSERT_FALSE(st.echo);
	/* no UDP/TCP header (a raw L2 stream): no goodput */
	CU_ASSERT_EQUAL(wr_sweep_stat_calc(&st, rows, NULL, 2, -1), 0);
	CU_ASSERT_EQUAL(st.payload_off, -1);
	CU_ASSERT_DOUBLE_EQUAL(st.goodput_mbps.max, 0, 0);
	/* headers larger than the frame */
	CU_ASSERT_EQUAL(wr_sweep_stat_calc(&st, rows, NULL, 2, 1515), -EINVAL);
	CU_ASSERT_EQUAL(wr_sweep_stat_calc(&st, rows, NULL, 0, 42), -EINVAL);
	rows[1].size = 64;
	CU_ASSERT_EQUAL(wr_sweep_stat_calc(&st, rows, NULL, 2, 42), -EINVAL);

	/* Frames that do not fit a port are refused, naming the limit. */
	CU_ASSERT_EQUAL(wr_bench_frame_fits(1518, 1500, 1518, 2048, why,
					    sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_bench_frame_fits(1519, 1500, 0, 0, why, sizeof(why)),
			-EMSGSIZE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "MTU 1500"));
	CU_ASSERT_EQUAL(wr_bench_frame_fits(9018, 9000, 9014, 0, why,
					    sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_bench_frame_fits(9018, 9000, 9000, 0, why,
					    sizeof(why)), -EMSGSIZE);
	/* memif's default 2048-byte buffers */
	CU_ASSERT_EQUAL(wr_bench_frame_fits(2052, 0, 0, 2048, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_bench_frame_fits(2053, 0, 0, 2048, why, sizeof(why)),
			-EMSGSIZE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "2048-byte buffers"));
}

static void
test_progress(void)
{
	struct wr_bench_plan p = { .tests = WR_BENCH_TEST_THROUGHPUT,
				   .n_sizes = 7, .width_ratio = 1000 };
	char buf[128];

	/* RFC 2544 defaults: 1 + ceil(log2(1000)) = 11 trials a size */
	CU_ASSERT_EQUAL(wr_bench_trials_estimate(&p), 77);
	p.pdr = true;
	p.phases = 3;
	CU_ASSERT_EQUAL(wr_bench_trials_estimate(&p), 7 * 2 * (11 + 4));
	p.tests = WR_BENCH_TEST_LOSS | WR_BENCH_TEST_LATENCY | WR_BENCH_TEST_B2B;
	p.n_sizes = 1;
	p.lat_trials = 20;
	p.b2b_repeats = 50;
	p.b2b_ratio = 1024;
	CU_ASSERT_EQUAL(wr_bench_trials_estimate(&p), 10 + 20 + 50 * 11);
	wr_bench_progress_text(buf, sizeof(buf), "throughput", 512, 7, 42, 185);
	CU_ASSERT_STRING_EQUAL(buf, "throughput 512 B: trial 7 of ~42, ETA 3m05s");
	wr_bench_progress_text(buf, sizeof(buf), "latency", 64, 50, 42, 7300);
	CU_ASSERT_STRING_EQUAL(buf, "latency 64 B: trial 50 of ~50, ETA 2h01m");
	wr_bench_progress_text(buf, sizeof(buf), "b2b", 64, 1, 9, -1);
	CU_ASSERT_STRING_EQUAL(buf, "b2b 64 B: trial 1 of ~9, ETA unknown");
}

static void
test_time_estimate(void)
{
	/* The README's example: 7 sizes, RFC 2544's 60 s trials and 2 s
	 * drains, 11 trials a size: 77 x 62 s. */
	struct wr_bench_plan p = { .tests = WR_BENCH_TEST_THROUGHPUT,
				   .n_sizes = 7, .width_ratio = 1000,
				   .trial_ns = 60000000000ull,
				   .drain_ns = 2000000000ull };
	char buf[32];
	uint64_t per;

	CU_ASSERT_EQUAL(wr_bench_time_estimate_ns(&p), 77 * 62000000000ull);
	wr_bench_duration_text(buf, sizeof(buf), wr_bench_time_estimate_ns(&p));
	CU_ASSERT_STRING_EQUAL(buf, "1h19m");
	/* NDR and PDR, 3 phases from 1 s: the first bisects 1000 / 4 (9
	 * trials of 1 s), the others re-measure both bounds and halve once
	 * (3 trials) at sqrt(60) s and 60 s; two targets. */
	p.pdr = true;
	p.phases = 3;
	p.first_trial_ns = 1000000000ull;
	per = 2 * (9 * 3000000000ull + 3 * (7745966692ull + 2000000000ull) +
		   3 * 62000000000ull);
	CU_ASSERT_TRUE(llabs((long long)wr_bench_time_estimate_ns(&p) -
			     (long long)(7 * per)) < 100);
	/* Latency, loss at 10 % steps and back-to-back, one size. */
	memset(&p, 0, sizeof(p));
	p.tests = WR_BENCH_TEST_LATENCY | WR_BENCH_TEST_LOSS | WR_BENCH_TEST_B2B;
	p.n_sizes = 1;
	p.lat_trials = 20;
	p.lat_trial_ns = 120000000000ull;
	p.trial_ns = 60000000000ull;
	p.drain_ns = 2000000000ull;
	p.b2b_repeats = 50;
	p.b2b_ratio = 1024;
	p.b2b_trial_ns = 2000000000ull;
	CU_ASSERT_EQUAL(wr_bench_time_estimate_ns(&p),
			20 * 122000000000ull + 10 * 62000000000ull +
			50 * 11 * 4000000000ull);
	wr_bench_duration_text(buf, sizeof(buf), 185000000000ull);
	CU_ASSERT_STRING_EQUAL(buf, "3m05s");
}

/* A size whose throughput search a signal stopped: no throughput, the
 * highest rate passed and offered so far as "at least". */
static void
test_incomplete_row(void)
{
	static struct wr_rfc2544_row row;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&row, 0, sizeof(row));
	row.size = 64;
	row.has_throughput = true;
	row.cut = "throughput";
	row.n_trials = 3;
	row.trials[0] = (struct wr_bench_trial){ .rate_millipps = 100000000,
		.offered_millipps = 99950000, .counted = true, .pass = true };
	/* a pass the generator did not offer: not counted as passed */
	row.trials[1] = (struct wr_bench_trial){ .rate_millipps = 200000000,
		.offered_millipps = 150000000, .counted = true, .pass = true,
		.short_offer = true };
	row.trials[2] = (struct wr_bench_trial){ .rate_millipps = 150000000,
		.offered_millipps = 150000000, .counted = false, .pass = true };
	CU_ASSERT_EQUAL(wr_rfc2544_row_passed_millipps(&row, false), 99950000);
	CU_ASSERT_EQUAL(wr_rfc2544_row_passed_millipps(&row, true), 0);
	CU_ASSERT_FALSE(wr_rfc2544_row_gen_limited(&row));
	f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(wr_rfc2544_csv_write(f, &row, 1), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n64,,,,,incomplete,99950.000,3,false\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	wr_rfc2544_print(f, &row, 1);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "64 >= 99950.000 pps: incomplete, "
				      "stopped by a signal after 3 trials"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "incomplete: 64 bytes (port 0 -> "
				      "port 0): a signal stopped its "
				      "throughput test"));
	free(buf);
}

static void
test_parse_pairs(void)
{
	uint16_t pairs[4][2];
	unsigned int n = 0;
	char why[160];

	CU_ASSERT_EQUAL(wr_bench_parse_pairs("0:1,1:0,2:2", pairs, 4, &n, why,
					     sizeof(why)), 0);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(pairs[1][0], 1);
	CU_ASSERT_EQUAL(pairs[1][1], 0);
	CU_ASSERT_EQUAL(pairs[2][1], 2);
	CU_ASSERT_EQUAL(wr_bench_parse_pairs("0:1,0:1", pairs, 4, &n, why,
					     sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_pairs("0:32", pairs, 4, &n, why,
					     sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_pairs("0", pairs, 4, &n, why,
					     sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_pairs("0:1,", pairs, 4, &n, why,
					     sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_parse_pairs("0:1,1:2,2:3,3:4,4:5", pairs, 4, &n,
					     why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "TX:RX"));
}

/* One parser for the command line and bench.start: names, values, errors. */
static void
test_opts(void)
{
	static const char *const known[] = {
		"b2b-repeats", "b2b-resolution", "b2b-trial", "burst", "count",
		"drain", "duration", "duration-sum", "exceed-ratio",
		"first-trial", "latency-trial", "latency-trials", "loss-step",
		"loss-tolerance", "max-rate", "min-rate", "pairs", "pdr",
		"phases", "repeat", "resolution", "reverse-stream", "rx-port",
		"search", "sizes", "stream", "tests", "timeout", "trial",
		"tx-port",
	};
	struct wr_bench_opts o;
	struct wr_error err;
	unsigned int i, k;

	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "tx-port", "1", &err), 0);
	CU_ASSERT(o.tx_port == 1 && o.tx_port_set);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "sizes", "64,1518", &err), 0);
	CU_ASSERT(o.n_sizes == 2 && o.sizes[1] == 1518);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "trial", "500ms", &err), 0);
	CU_ASSERT_EQUAL(o.trial_ns, 500000000ull);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "pdr", "0.5%", &err), 0);
	CU_ASSERT_EQUAL(o.pdr_ppm, 5000);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "max-rate", "1 Mpps", &err), 0);
	CU_ASSERT_EQUAL(o.max_rate.value, 1000000000ull);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "search", "mlr", &err), 0);
	CU_ASSERT_EQUAL(o.search, WR_BENCH_SEARCH_MLR);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "exceed-ratio", "50%", &err), 0);
	CU_ASSERT_EQUAL(o.exceed_ppm, 500000);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "pairs", "0:1,1:0", &err), 0);
	CU_ASSERT_EQUAL(o.n_pairs, 2);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RTT, "sizes", "50:1500:50", &err), 0);
	CU_ASSERT(o.rtt_from == 50 && o.rtt_to == 1500 && o.rtt_step == 50);
	/* The command line's error lines. */
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "tx-port", "99", &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.path, "--tx-port");
	CU_ASSERT_STRING_EQUAL(err.msg, "expected a port index 0..31, got \"99\"");
	/* A refused value leaves the option as it was. */
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "exceed-ratio", "100%", &err), -EINVAL);
	CU_ASSERT_EQUAL(o.exceed_ppm, 500000);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "pdr", "0", &err), -EINVAL);
	CU_ASSERT_EQUAL(o.pdr_ppm, 5000);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "search", "linear", &err), -EINVAL);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "trial", "0", &err), -EINVAL);
	CU_ASSERT_EQUAL(o.trial_ns, 500000000ull);
	CU_ASSERT_EQUAL(wr_bench_opt(&o, WR_BENCH_RFC2544, "bogus", "1", &err), -ENOENT);
	/* Every name it lists, each kind takes (with some value), and the
	 * list is the options the command line and bench.start know. */
	for (i = 0; wr_bench_opt_name(i) != NULL; i++) {
		CU_ASSERT_STRING_EQUAL(wr_bench_opt_name(i), known[i]);
		for (k = WR_BENCH_SWEEP; k <= WR_BENCH_RTT; k++)
			CU_ASSERT_NOT_EQUAL(wr_bench_opt(&o, (enum wr_bench_kind)k,
							 wr_bench_opt_name(i),
							 "x", &err), -ENOENT);
	}
	CU_ASSERT_EQUAL(i, sizeof(known) / sizeof(known[0]));
}


#define S_NS 1000000000ull

/* A made-up benchmark: 3 units of 2 phases, phase 0 taking 4 s and phase
 * 1 taking 2 s in every unit (weights 1): what is left at each instant is
 * known exactly. */
static void
test_eta_exact(void)
{
	struct wr_eta e;
	uint64_t t = 100 * S_NS;
	uint32_t u;

	wr_eta_start(&e, 3, NULL, NULL);
	wr_eta_unit(&e, 0, t);
	wr_eta_phase(&e, 0, t);
	/* No unit done: unknown. */
	CU_ASSERT(wr_eta_left(&e, t + S_NS) < 0);
	wr_eta_phase(&e, 1, t + 4 * S_NS);
	t += 6 * S_NS;
	wr_eta_unit_done(&e, t);
	/* Right at the unit's end: two units of 6 s. */
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 12.0, 1e-9);
	for (u = 1; u < 3; u++) {
		wr_eta_unit(&e, u, t);
		wr_eta_phase(&e, 0, t);
		/* 1 s into phase 0: 3 s of it, 2 of phase 1, 6 per unit after. */
		CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + S_NS),
				       5.0 + 6.0 * (2 - u), 1e-9);
		wr_eta_phase(&e, 1, t + 4 * S_NS);
		/* Phase 0 done: it leaves nothing; 1 s into phase 1. */
		CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + 5 * S_NS),
				       1.0 + 6.0 * (2 - u), 1e-9);
		t += 6 * S_NS;
		wr_eta_unit_done(&e, t);
		CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 6.0 * (2 - u), 1e-9);
	}
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 0.0, 1e-9);
}

/* A phase running longer than its estimate has nothing left (never a
 * negative time), and what a unit's later phases cost still counts. */
static void
test_eta_overrun(void)
{
	struct wr_eta e;
	uint64_t t = 0;

	wr_eta_start(&e, 2, NULL, NULL);
	wr_eta_unit(&e, 0, t);
	wr_eta_phase(&e, 0, t);
	wr_eta_phase(&e, 1, t + 2 * S_NS);
	t += 3 * S_NS;
	wr_eta_unit_done(&e, t);
	wr_eta_unit(&e, 1, t);
	wr_eta_phase(&e, 0, t);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + 5 * S_NS), 1.0, 1e-9);
}

/* Weights read when the time left is asked, not when a unit ended: a
 * weight's input learnt later (rfc2544's fastest burst) moves the time
 * per weight of the units done as well as the estimates of those left. */
static double eta_test_w[4];
static double
eta_test_weight(const void *ctx, unsigned int phase, uint32_t u)
{
	(void)ctx;
	(void)phase;
	return eta_test_w[u];
}

static void
test_eta_weights(void)
{
	struct wr_eta e;
	uint64_t t = 0;

	eta_test_w[0] = 1;
	eta_test_w[1] = 1;
	eta_test_w[2] = 1;
	eta_test_w[3] = 1;
	wr_eta_start(&e, 4, eta_test_weight, NULL);
	wr_eta_unit(&e, 0, t);
	wr_eta_phase(&e, 3, t);
	t += 8 * S_NS;
	wr_eta_unit_done(&e, t);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 24.0, 1e-9);
	/* Unit 0 now weighs 2, the later ones 1, 0.5, 0.5: 4 s per weight. */
	eta_test_w[0] = 2;
	eta_test_w[2] = 0.5;
	eta_test_w[3] = 0.5;
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 8.0, 1e-9);
	wr_eta_unit(&e, 1, t);
	wr_eta_phase(&e, 3, t);
	t += 4 * S_NS;
	wr_eta_unit_done(&e, t);
	/* 12 s over weights 3: 4 s per weight, 0.5 + 0.5 left. */
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 4.0, 1e-9);
}

/* A phase of like parts (back-to-back's repeats): once one is done, the
 * rest at what it took in this unit, whatever the units done said; the
 * time after the last part counts down. */
static void
test_eta_parts(void)
{
	struct wr_eta e;
	uint64_t t = 0;

	wr_eta_start(&e, 2, NULL, NULL);
	wr_eta_unit(&e, 0, t);
	wr_eta_phase(&e, 3, t);
	wr_eta_phase_done(&e, 1, 2, t + S_NS);
	t += 2 * S_NS;
	wr_eta_unit_done(&e, t);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t), 2.0, 1e-9);
	wr_eta_unit(&e, 1, t);
	wr_eta_phase(&e, 3, t);
	/* Before a part ends: the units done's 2 s, less what has run. */
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + S_NS / 2), 1.5, 1e-9);
	/* The first repeat took 1.2 s: the second at as much (the units
	 * done said 0.8 s left). */
	wr_eta_phase_done(&e, 1, 2, t + 1200 * 1000000ull);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + 1200 * 1000000ull), 1.2,
			       1e-9);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + 2 * S_NS), 0.4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_left(&e, t + 3 * S_NS), 0.0, 1e-9);
	/* A new phase forgets the parts. */
	wr_eta_phase(&e, 2, t + 3 * S_NS);
	CU_ASSERT(wr_eta_left(&e, t + 3 * S_NS) >= 0);
}

/* The slope drawn towards the prior until the points span enough. */
static void
test_eta_fit(void)
{
	struct wr_eta_fit f;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_slope(&f, 0.7, 90000), 0.7, 1e-12);
	wr_eta_fit_add(&f, 96, 2000);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_slope(&f, 0.7, 90000), 0.7, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_mean_x(&f), 96, 1e-12);
	/* Two points 50 bytes apart, 7.2 ns a byte: Sxx 1250, the fit
	 * weighs 1250 / 91250. */
	wr_eta_fit_add(&f, 146, 2360);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_slope(&f, 0.7, 90000),
			       (1250 * 7.2 + 90000 * 0.7) / 91250, 1e-9);
	/* Without a prior's weight: the least squares slope, which noise
	 * placed alike at both ends does not tilt. */
	memset(&f, 0, sizeof(f));
	for (i = 0; i < 30; i++)
		wr_eta_fit_add(&f, 96 + 50 * i, 2000 + 0.5 * 50 * i +
			       (i == 0 || i == 29 ? 40 : 0));
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_slope(&f, 0.7, 0), 0.5, 1e-9);
	/* With it: the fit weighs Sxx / (Sxx + k). */
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_slope(&f, 0.7, 90000),
			       (0.5 * 50 * 50 * 30 * (30 * 30 - 1) / 12 +
				0.7 * 90000) / (50 * 50 * 30 * (30 * 30 - 1) /
						12.0 + 90000), 1e-9);
	/* A falling fit is no negative time per byte. */
	memset(&f, 0, sizeof(f));
	wr_eta_fit_add(&f, 0, 10);
	wr_eta_fit_add(&f, 1000, 0);
	CU_ASSERT_DOUBLE_EQUAL(wr_eta_fit_slope(&f, 0.7, 0), 0.0, 1e-12);
}

static CU_TestInfo bench_tests[] = {
	{ "opts", test_opts },
	{ "parse_pairs", test_parse_pairs },
	{ "progress", test_progress },
	{ "time_estimate", test_time_estimate },
	{ "incomplete_row", test_incomplete_row },
	{ "sweep_stat", test_sweep_stat },
	{ "parse_tests", test_parse_tests },
	{ "rfc2544_loss_b2b_outputs", test_rfc2544_loss_b2b_outputs },
	{ "parse_sizes", test_parse_sizes },
	{ "parse_ppm", test_parse_ppm },
	{ "sweep_row", test_sweep_row },
	{ "trial_valid", test_trial_valid },
	{ "port_rate_checks", test_port_rate_checks },
	{ "link_placeholder", test_link_placeholder },
	{ "limit_of", test_limit_of },
	{ "stop_print", test_stop_print },
	{ "sweep_outputs", test_sweep_outputs },
	{ "rfc2544_outputs", test_rfc2544_outputs },
	{ "rfc2544_gen_limited", test_rfc2544_gen_limited },
	{ "write_atomic", test_write_atomic },
	{ "eta_exact", test_eta_exact },
	{ "eta_overrun", test_eta_overrun },
	{ "eta_weights", test_eta_weights },
	{ "eta_parts", test_eta_parts },
	{ "eta_fit", test_eta_fit },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "bench", .pTests = bench_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
