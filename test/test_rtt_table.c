/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the round-trip sweep's sizes and outputs (wr_rtt_table). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_rtt_result.h"
#include "wr_test.h"

static struct wr_rtt_size sz[WR_RTT_SIZES_MAX];

static void
test_study_sweep(void)
{
	unsigned int n, raised, i;

	/* The raw-Ethernet vs UDP study: 50..1500 step 50. */
	CU_ASSERT_EQUAL_FATAL(wr_rtt_sizes(50, 1500, 50, 42, sz,
					   WR_RTT_SIZES_MAX, &n, &raised), 0);
	CU_ASSERT_EQUAL(n, 30);
	CU_ASSERT_EQUAL(raised, 0);
	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(sz[i].payload, 50 + 50 * i);
		CU_ASSERT_EQUAL(sz[i].asked, 50 + 50 * i);
		/* 14 + 20 + 8 headers, 4 FCS. */
		CU_ASSERT_EQUAL(sz[i].frame, 50 + 50 * i + 46);
	}
	CU_ASSERT_EQUAL(sz[29].frame, 1546);

	/* A tag adds 4; the last size need not be reached by the step. */
	CU_ASSERT_EQUAL_FATAL(wr_rtt_sizes(100, 260, 100, 46, sz,
					   WR_RTT_SIZES_MAX, &n, &raised), 0);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(sz[0].frame, 150);
	CU_ASSERT_EQUAL(sz[1].frame, 250);
}

static void
test_small_sizes_raised(void)
{
	unsigned int n, raised;

	/* 0, 10, 20 all become 24 (one size), then 30 .. 60. */
	CU_ASSERT_EQUAL_FATAL(wr_rtt_sizes(0, 60, 10, 42, sz,
					   WR_RTT_SIZES_MAX, &n, &raised), 0);
	CU_ASSERT_EQUAL(raised, 3);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_EQUAL(sz[0].payload, 24);
	CU_ASSERT_EQUAL(sz[0].asked, 0);
	CU_ASSERT_EQUAL(sz[0].frame, 70);
	CU_ASSERT_EQUAL(sz[1].payload, 30);
	CU_ASSERT_EQUAL(sz[4].payload, 60);

	/* One size below the signature. */
	CU_ASSERT_EQUAL_FATAL(wr_rtt_sizes(1, 1, 1, 42, sz,
					   WR_RTT_SIZES_MAX, &n, &raised), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(raised, 1);
	CU_ASSERT_EQUAL(sz[0].frame, 70);
}

static void
test_size_errors(void)
{
	unsigned int n, raised;

	CU_ASSERT_EQUAL(wr_rtt_sizes(50, 100, 0, 42, sz, 10, &n, &raised),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_sizes(100, 50, 1, 42, sz, 10, &n, &raised),
			-EINVAL);
	/* 9018-byte frames at most: 8972 payload bytes, 8968 with a tag. */
	CU_ASSERT_EQUAL(wr_rtt_sizes(8972, 8972, 1, 42, sz, 10, &n,
				     &raised), 0);
	CU_ASSERT_EQUAL(sz[0].frame, 9018);
	CU_ASSERT_EQUAL(wr_rtt_sizes(8973, 8973, 1, 42, sz, 10, &n,
				     &raised), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_sizes(8969, 8969, 1, 46, sz, 10, &n,
				     &raised), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_sizes(50, 1500, 50, 42, sz, 29, &n,
				     &raised), -E2BIG);
}

static void
test_parse_sizes(void)
{
	uint32_t f, t, s;
	char why[128];

	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("50:1500:50", &f, &t, &s, why,
					   sizeof(why)), 0);
	CU_ASSERT(f == 50 && t == 1500 && s == 50);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("100", &f, &t, &s, why,
					   sizeof(why)), 0);
	CU_ASSERT(f == 100 && t == 100 && s == 1);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("50:100", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("50::10", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("1:2:0", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("5:1:1", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "FROM is above TO");
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("1:2:3:4", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("x", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("-5", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(wr_rtt_parse_sizes("", &f, &t, &s, why,
					   sizeof(why)), -EINVAL);
}

static void
rows2(struct wr_rtt_row r[2])
{
	memset(r, 0, 2 * sizeof(*r));
	r[0].size = (struct wr_rtt_size){ .payload = 50, .asked = 50,
					  .frame = 96 };
	r[0].sent = 100;
	r[0].lost = 1;
	r[0].late = 1;
	r[0].rtt = (struct wr_latency_summary){ .n = 99, .min = 10500,
		.avg = 12345, .max = 99000, .p50 = 12000, .p90 = 13000,
		.p99 = 20000, .p999 = 99000, .p9999 = 99000, .jitter_ns = 5.5 };
	r[1].size = (struct wr_rtt_size){ .payload = 24, .asked = 10,
					  .frame = 70 };
}

static char *
slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
test_csv_json(void)
{
	struct wr_rtt_row r[2];
	struct wr_rtt_meta m = {
		.wirerate_version = "0.1.0", .dpdk_version = "DPDK 22.11.11",
		.stream_file = "s\"1.yaml", .stream_name = "udp",
		.config_file = "c.yaml", .device = "net_af_packet0",
		.started_at = "2026-01-01T00:00:00Z", .stop_reason = "done",
		.count = 100, .timeout_ns = 100000000,
	};
	char dir[] = "/tmp/wr_rtt_tableXXXXXX", path[256], *s;

	rows2(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.csv", dir);
	CU_ASSERT_EQUAL(wr_rtt_csv(path, r, 2), 0);
	s = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s,
		"payload_bytes,frame_bytes,sent,round_trips,lost,late,"
		"min_us,avg_us,p50_us,p90_us,p99_us,max_us\n"
		"50,96,100,99,1,1,10.500,12.345,12.000,13.000,20.000,99.000\n"
		"24,70,0,0,0,0,,,,,,\n");
	unlink(path);

	snprintf(path, sizeof(path), "%s/r.json", dir);
	CU_ASSERT_EQUAL(wr_rtt_json(path, &m, r, 2), 0);
	s = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"schema\": \"wirerate-rtt/1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"stream_file\": \"s\\\"1.yaml\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "{\"payload_bytes\": 50, "
		"\"asked_bytes\": 50, \"frame_bytes\": 96, \"sent\": 100, "
		"\"round_trips\": 99, \"lost\": 1, \"late\": 1, \"foreign\": 0, "
		"\"rtt_ns\": {\"n\": 99, \"min\": 10500, \"avg\": 12345, "
		"\"max\": 99000, \"p50\": 12000, \"p90\": 13000, \"p99\": 20000, "
		"\"p999\": 99000, \"p9999\": 99000}, \"jitter_ns\": 5.5}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"asked_bytes\": 10"));
	/* A size with no round trip: no times, not zeros. */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"round_trips\": 0, \"lost\": 0, "
		"\"late\": 0, \"foreign\": 0, \"rtt_ns\": null, "
		"\"jitter_ns\": null}"));
	unlink(path);

	/* No directory: an error, and nothing left behind. */
	snprintf(path, sizeof(path), "%s/none/r.json", dir);
	CU_ASSERT_EQUAL(wr_rtt_json(path, &m, r, 2), -ENOENT);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

/* Side by side: two streams per size, as the raw vs UDP study printed. */
static void
test_compare(void)
{
	struct wr_rtt_row r[2];
	const char *names[] = { "raw", "udp" };
	struct wr_rtt_meta m = {
		.wirerate_version = "0.1.0", .dpdk_version = "DPDK 22.11.11",
		.stream_file = "s.yaml", .stream_name = "raw,udp",
		.started_at = "2026-01-01T00:00:00Z", .stop_reason = "done",
		.count = 100, .timeout_ns = 100000000,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	rows2(r);
	/* One size: r[0] is raw's, r[1] udp's (no round trip). */
	r[1].size.payload = r[0].size.payload;
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(wr_rtt_cmp_csv_write(f, names, 2, r, 1), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
		"payload_bytes,raw_avg_us,udp_avg_us,"
		"raw_frame_bytes,raw_sent,raw_round_trips,raw_lost,raw_late,"
		"raw_min_us,raw_p50_us,raw_p90_us,raw_p99_us,raw_max_us,"
		"udp_frame_bytes,udp_sent,udp_round_trips,udp_lost,udp_late,"
		"udp_min_us,udp_p50_us,udp_p90_us,udp_p99_us,udp_max_us\n"
		"50,12.345,,96,100,99,1,1,10.500,12.000,13.000,20.000,99.000,"
		"70,0,0,0,0,,,,,\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(wr_rtt_cmp_json_write(f, &m, names, 2, r, 1), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"schema\": \"wirerate-rtt-compare/1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"streams\": [\"raw\", \"udp\"]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "{\"payload_bytes\": 50, "
		"\"asked_bytes\": 50, \"raw\": {\"frame_bytes\": 96, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"udp\": {\"frame_bytes\": 70, "
		"\"sent\": 0, \"round_trips\": 0, \"lost\": 0, \"late\": 0, "
		"\"foreign\": 0, \"rtt_ns\": null, \"jitter_ns\": null}}"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	wr_rtt_cmp_header(f, names, 2);
	wr_rtt_cmp_row(f, r, 2);
	fclose(f);
	/* The study's three columns first: octets, raw, udp. */
	CU_ASSERT_EQUAL(strncmp(buf, " #octets       raw (us)       udp (us)", 38), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n      50          12.35              -"));
	free(buf);
}

static CU_TestInfo rtt_tests[] = {
	{ "compare", test_compare },
	{ "study_sweep", test_study_sweep },
	{ "small_sizes_raised", test_small_sizes_raised },
	{ "size_errors", test_size_errors },
	{ "parse_sizes", test_parse_sizes },
	{ "csv_json", test_csv_json },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "rtt_table", .pTests = rtt_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
