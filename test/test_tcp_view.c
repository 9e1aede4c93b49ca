/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_tcp_view: a class's counters as JSON (--json, stats.get, tcp.stats), the rates of run's live lines, its summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "wr_tcp_view.h"
#include "wr_test.h"

#define US 1000ull
#define SEC 1000000000ull

static struct wr_tcp_counters ctr[2];
static struct wr_latency hist[2][WR_TCP_HIST__COUNT];

/* Class "web": 1,000 clients opened, 990 established (4 refused, 3 timed
 * out, 2 reset, 1 other), 1 MB out, 64 MB in; its server saw 990. */
static void
fill(struct wr_tcp_view_class *v, bool with_hist)
{
	unsigned int s, i;

	memset(ctr, 0, sizeof(ctr));
	ctr[0].attempted = 1000;
	ctr[0].established = 990;
	ctr[0].failed_refused = 4;
	ctr[0].failed_timeout = 3;
	ctr[0].failed_reset = 2;
	ctr[0].failed_other = 1;
	ctr[0].closed = 980;
	ctr[0].active = 10;
	ctr[0].tx_bytes = 1000000;
	ctr[0].rx_bytes = 64000000;
	ctr[0].rexmit_segs = 7;
	ctr[0].http_status[2] = 970;
	ctr[0].http_status[0] = 1;
	ctr[1].attempted = 990;
	ctr[1].established = 990;
	ctr[1].tx_bytes = 64000000;
	for (s = 0; s < 2; s++)
		for (i = 0; i < WR_TCP_HIST__COUNT; i++) {
			wr_latency_init(&hist[s][i]);
			/* 100 samples: 10 us .. 1 ms, and 50 ms once. */
			for (unsigned int k = 1; k <= 99; k++)
				wr_latency_record(&hist[s][i], k * 10 * US);
			wr_latency_record(&hist[s][i], 50000 * US);
		}
	memset(v, 0, sizeof(*v));
	v->name = "web";
	v->has[0] = true;
	v->has[1] = true;
	v->c = ctr;
	v->hist = with_hist ? hist : NULL;
	v->rate_milli = 2500500;
	v->concurrency = 64;
}

static void
test_class_json(void)
{
	struct wr_tcp_view_class v;
	json_t *j, *c, *h;

	fill(&v, false);
	j = wr_tcp_view_class_json(&v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "name")),
			       "web");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "rate")),
			       2500.5, 1e-9);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "concurrency")),
			64);
	CU_ASSERT(json_is_false(json_object_get(j, "stopped")));
	c = json_object_get(j, "client");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "attempted")),
			1000);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "failed_refused")),
			4);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "rx_bytes")),
			64000000);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "http_2xx")), 970);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c,
					   "http_status_bad")), 1);
	/* Every counter wr_tcp_counters_each names, and nothing else. */
	CU_ASSERT_EQUAL(json_object_size(c), 33);
	CU_ASSERT_PTR_NULL(json_object_get(c, "histograms_ns"));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
		json_object_get(j, "server"), "established")), 990);
	json_decref(j);

	/* A server alone: no client side; histograms when asked. */
	fill(&v, true);
	v.has[0] = false;
	j = wr_tcp_view_class_json(&v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_is_null(json_object_get(j, "client")));
	h = json_object_get(json_object_get(json_object_get(j, "server"),
					    "histograms_ns"), "ttfb");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(h, "n")), 100);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(h, "min")),
			wr_latency_min(&hist[1][WR_TCP_HIST_TTFB]));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(h, "max")),
			wr_latency_max(&hist[1][WR_TCP_HIST_TTFB]));
	{
		uint64_t p99;

		wr_latency_percentile(&hist[1][WR_TCP_HIST_TTFB], 99.0, &p99);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(h, "p99")),
				p99);
	}
	CU_ASSERT_PTR_NOT_NULL(json_object_get(json_object_get(
		json_object_get(j, "server"), "histograms_ns"), "handshake"));
	CU_ASSERT_PTR_NOT_NULL(json_object_get(json_object_get(
		json_object_get(j, "server"), "histograms_ns"), "complete"));
	json_decref(j);
}

static void
test_port_json(void)
{
	struct wr_tcp_port_counters p;
	json_t *j;

	memset(&p, 0, sizeof(p));
	p.rx_frames = 12;
	p.rx_bad = 3;
	p.mem_bytes = 1 << 20;
	j = wr_tcp_view_port_json(1, &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "port")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "rx_frames")), 12);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "rx_bad")), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "mem_bytes")),
			1 << 20);
	/* The port and every field of struct wr_tcp_port_counters. */
	CU_ASSERT_EQUAL(json_object_size(j),
			1 + sizeof(p) / sizeof(uint64_t));
	json_decref(j);
}

static void
test_rates(void)
{
	struct wr_tcp_counters a, b;
	struct wr_tcp_view_rate r;
	char line[512];

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.established = 1000;
	a.attempted = 1100;
	a.tx_bytes = 1000000;
	a.rx_bytes = 5000000;
	a.rexmit_segs = 3;
	b = a;
	b.established += 2500;
	b.attempted += 2600;
	b.tx_bytes += 250000;    /* 2 Mbit in 0.5 s: 4 Mbps */
	b.rx_bytes += 12500000;  /* 100 Mbit in 0.5 s: 200 Mbps */
	b.rexmit_segs += 9;
	b.active = 77;
	b.failed_timeout = 5;
	wr_tcp_view_rates(&a, &b, SEC / 2, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.cps, 5000.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.attempts_ps, 5200.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tx_mbps, 4.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.rx_mbps, 200.0, 1e-9);
	CU_ASSERT_EQUAL(r.rexmit_segs, 9);
	wr_tcp_view_line(line, sizeof(line), "web", WR_TCP_CLIENT, &b, &r);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "web"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "client     5000.0 cps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, " 77 concurrent"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "3500 established, failed 0 "
				      "refused 5 timeout 0 reset 0 other"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "goodput 4.000 Mbps out 200.000 "
				      "Mbps in, 9 retransmits (12 in all)"));
	/* Counters that went back (a clear) count as unchanged; no time:
	 * no rate. */
	wr_tcp_view_rates(&b, &a, SEC, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.cps, 0.0, 1e-12);
	CU_ASSERT_EQUAL(r.rexmit_segs, 0);
	wr_tcp_view_rates(&a, &b, 0, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.cps, 0.0, 1e-12);
	CU_ASSERT_EQUAL(r.rexmit_segs, 9);
}

static void
test_summary(void)
{
	struct wr_tcp_view_class v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fill(&v, true);
	f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(wr_tcp_view_summary(f, &v, 2 * SEC, false), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "tcp web client: 495.0 cps, "
				      "goodput 4.000 Mbps out 256.000 Mbps in "
				      "(averages over 2.000 s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " attempted=1000 established=990 "
				      "failed_refused=4"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " http_2xx=970"));
	/* Zero counters left out without all. */
	CU_ASSERT_PTR_NULL(strstr(buf, "dup_acks="));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "tcp web server:"));
	/* min 10 us, median 500 us (the bucket of the 50th sample), p99
	 * under a ms, max 50 ms. */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    handshake        100: min 10.0 "
				      "us, median "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "max 50000.0 us\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	v.hist = NULL;
	CU_ASSERT_EQUAL(wr_tcp_view_summary(f, &v, 0, true), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "dup_acks=0"));
	CU_ASSERT_PTR_NULL(strstr(buf, "handshake"));
	CU_ASSERT_PTR_NULL(strstr(buf, "cps"));
	free(buf);
}

static CU_TestInfo view_tests[] = {
	{ "class_json", test_class_json },
	{ "port_json", test_port_json },
	{ "rates", test_rates },
	{ "summary", test_summary },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "tcp_view", .pTests = view_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
