/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_bench: option values, sweep rows, trial validity, tables, CSV, JSON and atomic writes. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_bench.h"
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
	wr_sweep_row_calc(&r, 64, 1488095, 1000000000ull, 1000);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 1488.095, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l2, 64 * 1488.095 * 8 / 1000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l1, 84 * 1488.095 * 8 / 1000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.line_pct, 99.99998, 1e-5);
	/* Ostinato's 1518-byte row: 80 Kpps is 984 Mbps L1. */
	wr_sweep_row_calc(&r, 1518, 40000, 500000000ull, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 80.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.mbps_l1, 984.32, 1e-9);
	CU_ASSERT_EQUAL(r.link_mbps, 0);
	wr_sweep_row_calc(&r, 128, 0, 0, 10000);
	CU_ASSERT_DOUBLE_EQUAL(r.kpps, 0, 0);
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

	wr_sweep_row_calc(&rows[0], 64, 2000, 1000000000ull, 0);
	wr_sweep_row_calc(&rows[1], 1518, 1000, 1000000000ull, 0);
	csv = render(sweep_csv, &a);
	CU_ASSERT_STRING_EQUAL(csv,
		"frame_size,kpps,mbps_l1,mbps_l2,line_pct,tx_pkts,duration_s,pacer_skipped,cut_short\n"
		"64,2.000,1.344,1.024,,2000,1.000000000,0,0\n"
		"1518,1.000,12.304,12.144,,1000,1.000000000,0,0\n");
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
	CU_ASSERT_PTR_NOT_NULL(strstr(table, "1000  (cut short by a signal or a lost link"));
	free(json);
	json = render(sweep_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"cut_short\": true"));
	rows[1].cut_short = false;
	free(csv);
	free(json);
	free(table);
	/* With a link: the share of the line rate. */
	wr_sweep_row_calc(&rows[0], 64, 744048, 1000000000ull, 1000);
	a.n = 1;
	csv = render(sweep_csv, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",50.0000,"));
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
	row.link_mbps = 1000;
	row.res.throughput_millipps = 20000000;   /* 20 kpps */
	row.res.l1_bps = 20000ull * 148 * 8;
	row.res.l2_bps = 20000ull * 128 * 8;
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
		"frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,trials,converged\n"
		"128,20000.000,23.680000,20.480000,2.3680,2,true\n");
	json = render(rfc_json, &a);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"schema\": \"wirerate-rfc2544/1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"loss_tolerance_pct\": 0.1000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "{\"rate_pps\": 40000.000, \"sent\": 40000, "
				  "\"received\": 20000, \"lost\": 20000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"counted\": true, \"pass\": true}]}"));
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

static CU_TestInfo bench_tests[] = {
	{ "parse_sizes", test_parse_sizes },
	{ "parse_ppm", test_parse_ppm },
	{ "sweep_row", test_sweep_row },
	{ "trial_valid", test_trial_valid },
	{ "sweep_outputs", test_sweep_outputs },
	{ "rfc2544_outputs", test_rfc2544_outputs },
	{ "write_atomic", test_write_atomic },
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
