/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of OTG flows as wirerate streams (wr_otg_flow, wr_otg_hdr, wr_otg_pat): the frames the stream-file loader and the frame generator make from a flow, byte by byte against what the config says. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "wr_otg_priv.h"
#include "wr_test.h"
#include "wr_test_frame.h"
#include "wr_yaml.h"

/*
 * Each case writes an OTG flow as snappi sends it (JSON), turns it into a
 * stream with wr_otg_flow_stream(), loads that stream with the stream-file
 * loader (the one way every stream is read) and generates its first frames
 * with the frame generator (what `wirerate dump` and the TX lcores send).
 * The frames are then read here from their bytes, at the offsets of the
 * RFCs' layouts, and the checksums recomputed by wr_test_frame.h's checker,
 * which shares no code with lib/core.
 */

#define FRAMES_MAX 64

struct frames {
	unsigned int n;
	uint16_t len[FRAMES_MAX];
	uint8_t b[FRAMES_MAX][9018];
	uint64_t count;          /* the stream's count (0: unlimited) */
	char yaml[65536];
};

static struct wr_otg_port ports[2];
static struct wr_otg_plan plan;

static void
plan_init(void)
{
	memset(ports, 0, sizeof(ports));
	memset(&plan, 0, sizeof(plan));
	snprintf(ports[0].name, sizeof(ports[0].name), "p1");
	snprintf(ports[1].name, sizeof(ports[1].name), "p2");
	ports[0].line_mbps = 10000;
	ports[1].line_mbps = 10000;
	plan.ports = ports;
	plan.n_ports = 2;
}

/* The flow in @p json (flows[0] of a config) through to its frames.
 * @return wr_otg_flow_stream()'s; -EIO when the loader or generator
 * refused what it made (then printed). */
static int
flow_frames(const char *json, unsigned int n, struct frames *fr,
	    struct wr_otg_flow *fl, struct wr_otg_err *err)
{
	struct wr_stream_file file;
	struct wr_frame_tmpl *t = NULL;
	struct wr_frame_gen g;
	struct wr_error e;
	json_error_t je;
	json_t *flow, *stream = NULL, *doc;
	char *txt;
	unsigned int k;
	int rc;

	plan_init();
	wr_otg_err_init(err);
	flow = json_loads(json, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(flow);
	rc = wr_otg_flow_stream(flow, "flows[0]", 0, &plan, fl, &stream, err);
	json_decref(flow);
	if (rc != 0)
		return rc;
	doc = json_pack("{s:i, s:[o]}", "version", 1, "streams", stream);
	txt = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	snprintf(fr->yaml, sizeof(fr->yaml), "%s", txt);
	free(txt);
	memset(&file, 0, sizeof(file));
	if (wr_yaml_load_streams_buf("otg.yaml", fr->yaml, strlen(fr->yaml),
				     &file, &e) != 0) {
		fprintf(stderr, "load: %s\n%s\n", e.msg, fr->yaml);
		return -EIO;
	}
	if (getenv("WR_TEST_SHOW") != NULL)
		fprintf(stderr, "%s\n", fr->yaml);
	fr->count = file.streams[0].count;
	if (wr_frame_tmpl_create(&file.streams[0], 0, &t, &e) != 0) {
		fprintf(stderr, "tmpl: %s\n", e.msg);
		wr_stream_file_free(&file);
		return -EIO;
	}
	wr_frame_gen_init(&g, t, 0, 1);
	fr->n = n;
	for (k = 0; k < n; k++) {
		memcpy(fr->b[k], wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
		fr->len[k] = wr_frame_gen_next(&g, fr->b[k]);
	}
	wr_frame_tmpl_free(t);
	wr_stream_file_free(&file);
	return 0;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
ip4(const char *t)
{
	struct in_addr a;

	CU_ASSERT_EQUAL_FATAL(inet_pton(AF_INET, t, &a), 1);
	return ntohl(a.s_addr);
}

static bool
mac_is(const uint8_t *p, const char *t)
{
	unsigned int m[6], i;

	if (sscanf(t, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
		   &m[5]) != 6)
		return false;
	for (i = 0; i < 6; i++)
		if (p[i] != m[i])
			return false;
	return true;
}

/* The first error's text, "" none. */
static const char *
err0(const struct wr_otg_err *e)
{
	const char *s = json_string_value(json_array_get(e->errors, 0));

	return s != NULL ? s : "";
}

#define ETH_IP4_UDP(eth, ip, udp, rest) \
	"{\"name\": \"f 1\", \"tx_rx\": {\"choice\": \"port\", \"port\": " \
	"{\"tx_name\": \"p1\", \"rx_names\": [\"p2\"]}}, \"packet\": [" \
	"{\"choice\": \"ethernet\", \"ethernet\": {" eth "}}, " \
	"{\"choice\": \"ipv4\", \"ipv4\": {" ip "}}, " \
	"{\"choice\": \"udp\", \"udp\": {" udp "}}]" rest "}"

/* Every field given a value: each at its place in every frame. */
static void
test_values(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	unsigned int k;
	int rc;

	rc = flow_frames(ETH_IP4_UDP(
		"\"dst\": {\"choice\": \"value\", \"value\": \"00:11:22:33:44:55\"},"
		"\"src\": {\"choice\": \"value\", \"value\": \"00:aa:bb:cc:dd:ee\"}",
		"\"src\": {\"choice\": \"value\", \"value\": \"10.1.2.3\"},"
		"\"dst\": {\"choice\": \"value\", \"value\": \"192.0.2.9\"},"
		"\"time_to_live\": {\"choice\": \"value\", \"value\": 17},"
		"\"identification\": {\"choice\": \"value\", \"value\": 4660},"
		"\"dont_fragment\": {\"choice\": \"value\", \"value\": 1}",
		"\"src_port\": {\"choice\": \"value\", \"value\": 5000},"
		"\"dst_port\": {\"choice\": \"value\", \"value\": 53}",
		", \"size\": {\"choice\": \"fixed\", \"fixed\": 128},"
		"\"rate\": {\"choice\": \"pps\", \"pps\": \"2000\"},"
		"\"duration\": {\"choice\": \"fixed_packets\", "
		"\"fixed_packets\": {\"packets\": 1000}}"), 4, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(fl.name, "f 1");
	CU_ASSERT_STRING_EQUAL(fl.stream, "f0-f_1");
	CU_ASSERT_EQUAL(fl.tx_port, 0);
	CU_ASSERT_EQUAL(fl.rx_ports, 2);
	CU_ASSERT_EQUAL(fl.size_fixed, 128);
	CU_ASSERT_EQUAL(fl.packets, 1000);
	CU_ASSERT_EQUAL(fr.count, 1000);
	CU_ASSERT_PTR_NOT_NULL(strstr(fr.yaml, "\"rate\":\"2000 pps\""));
	for (k = 0; k < fr.n; k++) {
		const uint8_t *f = fr.b[k];

		CU_ASSERT_EQUAL(fr.len[k], 124); /* 128 with the FCS */
		CU_ASSERT(mac_is(f, "00:11:22:33:44:55"));
		CU_ASSERT(mac_is(f + 6, "00:aa:bb:cc:dd:ee"));
		CU_ASSERT_EQUAL(be16(f + 12), 0x0800);
		CU_ASSERT_EQUAL(f[14], 0x45);
		CU_ASSERT_EQUAL(be16(f + 16), 124 - 14);
		CU_ASSERT_EQUAL(be16(f + 18), 4660);
		CU_ASSERT_EQUAL(be16(f + 20), 0x4000); /* DF, offset 0 */
		CU_ASSERT_EQUAL(f[22], 17);
		CU_ASSERT_EQUAL(f[23], 17); /* UDP: auto */
		CU_ASSERT_EQUAL(be32(f + 26), ip4("10.1.2.3"));
		CU_ASSERT_EQUAL(be32(f + 30), ip4("192.0.2.9"));
		CU_ASSERT_EQUAL(be16(f + 34), 5000);
		CU_ASSERT_EQUAL(be16(f + 36), 53);
		CU_ASSERT_EQUAL(be16(f + 38), 124 - 34);
		CU_ASSERT_EQUAL(ref_check(f, fr.len[k]), 0);
	}
}

/* Absent fields take the model's defaults, not wirerate's: source MAC
 * and addresses 0, DF 0, ports 0; dst MAC auto without devices is the
 * model's auto value (0); the default size 64, continuous. */
static void
test_defaults(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	int rc;

	rc = flow_frames(ETH_IP4_UDP("", "", "", ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fr.len[0], 60);
	CU_ASSERT(mac_is(fr.b[0], "00:00:00:00:00:00"));
	CU_ASSERT(mac_is(fr.b[0] + 6, "00:00:00:00:00:00"));
	CU_ASSERT_EQUAL(be16(fr.b[0] + 20), 0x0000);
	CU_ASSERT_EQUAL(fr.b[0][22], 64);
	CU_ASSERT_EQUAL(be32(fr.b[0] + 26), 0);
	CU_ASSERT_EQUAL(be32(fr.b[0] + 30), 0);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 34), 0);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 36), 0);
	CU_ASSERT_EQUAL(ref_check(fr.b[0], fr.len[0]), 0);
	CU_ASSERT_EQUAL(fr.count, 0);
	CU_ASSERT_EQUAL(fl.packets, 0);
	/* The model's default rate: 1000 pps. */
	CU_ASSERT_PTR_NOT_NULL(strstr(fr.yaml, "\"rate\":\"1000 pps\""));
}

/* increment, decrement and values: frame k has each field's k-th value
 * (each with its own period), as the model's counters count. */
static void
test_counters(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	static const uint32_t src[] = { 1, 3, 5 };          /* .1 +2, 3 values */
	static const uint16_t sport[] = { 100, 90, 80, 70 }; /* 100 -10, 4 */
	static const uint16_t dport[] = { 7, 9 };
	unsigned int k;
	int rc;

	rc = flow_frames(ETH_IP4_UDP(
		"\"src\": {\"choice\": \"increment\", \"increment\": "
		"{\"start\": \"00:00:00:00:00:fe\", \"step\": \"00:00:00:00:00:01\", "
		"\"count\": 4}}",
		"\"src\": {\"choice\": \"increment\", \"increment\": "
		"{\"start\": \"10.0.0.1\", \"step\": \"0.0.0.2\", \"count\": 3}},"
		"\"dst\": {\"choice\": \"decrement\", \"decrement\": "
		"{\"start\": \"10.0.1.0\", \"step\": \"0.0.0.1\", \"count\": 2}}",
		"\"src_port\": {\"choice\": \"decrement\", \"decrement\": "
		"{\"start\": 100, \"step\": 10, \"count\": 4}},"
		"\"dst_port\": {\"choice\": \"values\", \"values\": [7, 9]}",
		""), 24, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0; k < fr.n; k++) {
		const uint8_t *f = fr.b[k];
		uint8_t mac[6] = { 0, 0, 0, 0, 0, 0 };
		unsigned int m = 0xfe + k % 4; /* carries into the next byte */

		mac[4] = (uint8_t)(m >> 8);
		mac[5] = (uint8_t)m;
		CU_ASSERT_EQUAL(memcmp(f + 6, mac, 6), 0);
		CU_ASSERT_EQUAL(be32(f + 26), ip4("10.0.0.0") + src[k % 3]);
		CU_ASSERT_EQUAL(be32(f + 30), ip4("10.0.1.0") - k % 2);
		CU_ASSERT_EQUAL(be16(f + 34), sport[k % 4]);
		CU_ASSERT_EQUAL(be16(f + 36), dport[k % 2]);
		CU_ASSERT_EQUAL(ref_check(f, fr.len[k]), 0);
	}
}

/* A counter that passes the field's top wraps to 0 (the field's width),
 * and one that goes below 0 wraps to the top. */
static void
test_wrap(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	static const uint16_t sport[] = { 65534, 65535, 0, 1 };
	static const uint32_t ttl[] = { 1, 0, 255 };
	unsigned int k;
	int rc;

	rc = flow_frames(ETH_IP4_UDP("",
		"\"time_to_live\": {\"choice\": \"decrement\", \"decrement\": "
		"{\"start\": 1, \"step\": 1, \"count\": 3}}",
		"\"src_port\": {\"choice\": \"increment\", \"increment\": "
		"{\"start\": 65534, \"step\": 1, \"count\": 4}}",
		""), 12, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0; k < fr.n; k++) {
		CU_ASSERT_EQUAL(be16(fr.b[k] + 34), sport[k % 4]);
		CU_ASSERT_EQUAL(fr.b[k][22], ttl[k % 3]);
		CU_ASSERT_EQUAL(ref_check(fr.b[k], fr.len[k]), 0);
	}
}

/* Refusals name the JSON path and what was expected. */
static void
test_refusals(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	int rc;

	rc = flow_frames(ETH_IP4_UDP("",
		"\"src\": {\"choice\": \"increment\", \"increment\": "
		"{\"start\": \"10.0.0.1\", \"step\": \"0.0.0.1\", \"count\": 0}}",
		"", ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[1].ipv4.src.increment"
			       ".count: expected an integer >= 1, got 0");
	wr_otg_err_free(&err);

	rc = flow_frames(ETH_IP4_UDP("",
		"\"total_length\": {\"choice\": \"value\", \"value\": 50}", "", ""),
		1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[1].ipv4.total_length: "
			       "computed by wirerate on every frame (auto): no "
			       "value can be given");
	wr_otg_err_free(&err);

	rc = flow_frames(ETH_IP4_UDP("",
		"\"version\": {\"choice\": \"value\", \"value\": 5}", "", ""),
		1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[1].ipv4.version: "
			       "wirerate writes 4 here: no other value can be "
			       "sent");
	wr_otg_err_free(&err);

	rc = flow_frames(ETH_IP4_UDP("", "",
		"\"src_port\": {\"choice\": \"value\", \"value\": 1, "
		"\"metric_tags\": [{\"name\": \"sp\"}]}", ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[2].udp.src_port."
			       "metric_tags: not supported: wirerate counts a "
			       "flow as a whole, not per value of a field");
	wr_otg_err_free(&err);

	rc = flow_frames(ETH_IP4_UDP("", "", "",
		", \"rate\": {\"choice\": \"pps\", \"pps\": 0}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].rate: pps: expected an "
			       "integer >= 1, got 0");
	wr_otg_err_free(&err);

	rc = flow_frames("{\"name\": \"x\", \"tx_rx\": {\"choice\": \"port\", "
			 "\"port\": {\"tx_name\": \"nope\"}}, \"packet\": "
			 "[{\"choice\": \"ethernet\"}, {\"choice\": \"lacp\", "
			 "\"lacp\": {}}]}", 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].tx_rx.port: tx_name: no "
			       "port named \"nope\"");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 1)),
			       "flows[0].packet[1].lacp: not supported: "
			       "wirerate has no LACP layer");
	wr_otg_err_free(&err);
}

static CU_TestInfo flow_tests[] = {
	{ "values", test_values },
	{ "defaults", test_defaults },
	{ "counters", test_counters },
	{ "wrap", test_wrap },
	{ "refusals", test_refusals },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "otg_flow", .pTests = flow_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
