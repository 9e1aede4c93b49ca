/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_jsonl and wr_out: interval lines, rates, the final line, JSON strings, output checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_jsonl.h"
#include "wr_out.h"
#include "wr_test.h"

static char *
slurp(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	if (s != NULL && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		return NULL;
	}
	return s;
}

static void
setup(struct wr_report_row *port, struct wr_report_row *st,
      struct wr_report_view *v)
{
	memset(port, 0, sizeof(*port));
	memset(st, 0, sizeof(*st));
	memset(v, 0, sizeof(*v));
	strcpy(port->name, "net_null0");
	strcpy(st->name, "udp-64");
	v->ports = port;
	v->n_ports = 1;
	v->streams = st;
	v->n_streams = 1;
}

static void
test_lines(void)
{
	struct wr_report_row port, st;
	struct wr_report_view v;
	struct wr_jsonl j;
	FILE *f = tmpfile();
	char *out, *l2, *l3;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	setup(&port, &st, &v);
	CU_ASSERT_EQUAL_FATAL(wr_jsonl_open_stream(&j, f, 1, 1), 0);
	/* 1 s: 1000 frames of 64 B: 1 Kpps, 0.512 Mbps L2, 0.672 L1. */
	v.elapsed_ns = 1000000000ull;
	st.total.tx_pkts = port.total.tx_pkts = 1000;
	st.total.tx_bytes = port.total.tx_bytes = 64000;
	CU_ASSERT_EQUAL(wr_jsonl_write(&j, &v, 1795392000123456789ull, false), 0);
	/* 2 s: 3000 more in the second interval of 0.5 s: 6 Kpps. */
	v.elapsed_ns = 1500000000ull;
	st.total.tx_pkts = port.total.tx_pkts = 4000;
	st.total.tx_bytes = port.total.tx_bytes = 256000;
	CU_ASSERT_EQUAL(wr_jsonl_write(&j, &v, 1795392000623456789ull, false), 0);
	/* Final: whole-run rates over each row's duration. */
	st.duration_ns = port.duration_ns = 2000000000ull;
	st.has_rx = true;
	st.rx_pkts = 3990;
	st.lost = 10;
	st.lat.jitter_ns = 1.5;
	port.has_nic = true;
	port.nic_opackets = 4001;
	v.elapsed_ns = 2000000000ull;
	CU_ASSERT_EQUAL(wr_jsonl_write(&j, &v, 1795392001123456789ull, true), 0);
	out = slurp(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	l2 = strchr(out, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(l2);
	*l2++ = '\0';
	l3 = strchr(l2, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(l3);
	*l3++ = '\0';
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{\"t\": 1795392000.123456, "
				      "\"elapsed_s\": 1.000000, \"interval_s\": "
				      "1.000000, \"final\": false"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"kpps\": 1.000, \"mbps_l2\": 0.512, "
				      "\"mbps_l1\": 0.672, \"tx_pkts\": 1000, "
				      "\"tx_bytes\": 64000, \"tx_bytes_l1\": 84000, "
				      "\"tx_full\": 0, \"alloc_fail\": 0, "
				      "\"pacer_skipped\": 0}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(l2, "\"interval_s\": 0.500000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(l2, "\"kpps\": 6.000, \"mbps_l2\": 3.072, "
				      "\"mbps_l1\": 4.032, \"tx_pkts\": 4000, "
				      "\"tx_bytes\": 256000, \"tx_bytes_l1\": 336000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(l3, "\"final\": true"));
	CU_ASSERT_PTR_NOT_NULL(strstr(l3, "\"duration_s\": 2.000000000, "
				      "\"kpps\": 2.000, \"mbps_l2\": 1.024, "
				      "\"mbps_l1\": 1.344, \"tx_pkts\": 4000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(l3, "\"rx_pkts\": 3990, \"lost\": 10, "
				      "\"reordered\": 0, \"duplicated\": 0, "
				      "\"jitter_ns\": 1.500, \"latency_ns\": {"));
	/* The union of the writers: the device's own counts as the results
	 * JSON has them (the log had neither them, jitter_ns nor tx_bytes_l1). */
	CU_ASSERT_PTR_NOT_NULL(strstr(l3, "\"nic\": {\"opackets\": 4001, "
				      "\"obytes\": 0, \"oerrors\": 0, "
				      "\"ipackets\": 0, \"ibytes\": 0, \"imissed\": 0, "
				      "\"ierrors\": 0, \"rx_nombuf\": 0}"));
	/* Three lines, each ended by a newline, nothing after. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(strchr(l3, '\n'));
	CU_ASSERT_EQUAL(strchr(l3, '\n')[1], '\0');
	free(out);
	CU_ASSERT_EQUAL(wr_jsonl_close(&j), 0);
	fclose(f);
}

static void
test_open_fails(void)
{
	struct wr_jsonl j;

	CU_ASSERT_EQUAL(wr_jsonl_open(&j, "/nonexistent-dir/x.jsonl", 1, 1),
			-ENOENT);
}

static void
json_str_is(const char *in, const char *want)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	wr_out_json_str(f, in);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, want);
}

static void
test_json_str(void)
{
	json_str_is("a\"b\\c\n", "\"a\\\"b\\\\c\\u000a\"");
	/* Well-formed UTF-8 passes; invalid bytes become \u00XX. */
	json_str_is("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	json_str_is("x\xff\xfey", "\"x\\u00ff\\u00fey\"");
	json_str_is("\xc3(", "\"\\u00c3(\"");          /* truncated */
	json_str_is("\xc0\xaf", "\"\\u00c0\\u00af\""); /* overlong */
	json_str_is("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\""); /* surrogate */
	json_str_is("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
	/* Line separators a line reader would split on. */
	json_str_is("a\xe2\x80\xa8" "b\xe2\x80\xa9", "\"a\\u2028b\\u2029\"");
	json_str_is(NULL, "null");
}

static void
test_out_check(void)
{
	CU_ASSERT_EQUAL(wr_out_check("/nonexistent-dir/x.json"), -ENOENT);
	CU_ASSERT_EQUAL(wr_out_check("/tmp"), -EISDIR);
	CU_ASSERT_EQUAL(wr_out_check(""), -ENOENT);
	CU_ASSERT_EQUAL(wr_out_check("/tmp/wr-out-check.json"), 0);
}

static CU_TestInfo jsonl_tests[] = {
	{ "json_str", test_json_str },
	{ "out_check", test_out_check },
	{ "lines", test_lines },
	{ "open_fails", test_open_fails },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "jsonl", .pTests = jsonl_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
