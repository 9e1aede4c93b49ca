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
	uint64_t duration_ns, isg_ns, train_gap_ns;
	uint32_t train_frames;
	struct wr_rate_spec rate;
	uint16_t sig_off;        /* the signature's offset, 0 none */
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

/* The first error's text, "" none. */
static const char *
err0(const struct wr_otg_err *e)
{
	const char *s = json_string_value(json_array_get(e->errors, 0));

	return s != NULL ? s : "";
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
	if (rc != 0) {
		if (getenv("WR_TEST_SHOW") != NULL)
			fprintf(stderr, "%s\n", err0(err));
		return rc;
	}
	wr_otg_err_free(err); /* none: nothing to keep */
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
	fr->duration_ns = file.streams[0].duration_ns;
	fr->isg_ns = file.streams[0].isg_ns;
	fr->train_frames = file.streams[0].train_frames;
	fr->train_gap_ns = file.streams[0].train_gap_ns;
	fr->rate = file.streams[0].rate;
	if (wr_frame_tmpl_create(&file.streams[0], 0, &t, &e) != 0) {
		fprintf(stderr, "tmpl: %s\n", e.msg);
		wr_stream_file_free(&file);
		return -EIO;
	}
	wr_frame_gen_init(&g, t, 0, 1);
	fr->sig_off = wr_frame_tmpl_sig_off(t);
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


#define FLOW(packet, rest) \
	"{\"name\": \"f\", \"tx_rx\": {\"choice\": \"port\", \"port\": " \
	"{\"tx_name\": \"p2\"}}, \"packet\": [" packet "]" rest "}"
#define V(x) "{\"choice\": \"value\", \"value\": " #x "}"
#define VS(x) "{\"choice\": \"value\", \"value\": \"" x "\"}"

/* RFC 1071 over the IPv6 pseudo-header (RFC 8200 section 8.1) and the
 * L4 segment at @p l4 of @p len bytes: 0 when its checksum is right. */
static uint16_t
sum6(const uint8_t *ip6, const uint8_t *l4, unsigned int len, uint8_t proto)
{
	uint8_t ph[40];
	uint16_t s;

	memcpy(ph, ip6 + 8, 32);
	ph[32] = (uint8_t)(len >> 24);
	ph[33] = (uint8_t)(len >> 16);
	ph[34] = (uint8_t)(len >> 8);
	ph[35] = (uint8_t)len;
	ph[36] = ph[37] = ph[38] = 0;
	ph[39] = proto;
	s = ref_sum(ph, 40, 0);
	return (uint16_t)~ref_sum(l4, len, s);
}

/* vlan, ipv6 and tcp: the tag's bits, IPv6's traffic class, flow label
 * (random: count values from the seed, in turn) and addresses, TCP's
 * flag bits in one byte, each moving with its own period. */
static void
test_vlan_ipv6_tcp(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	uint32_t labels[5];
	unsigned int k;
	int rc;

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\", \"ethernet\": {\"dst\": "
		VS("02:00:00:00:00:02") "}},"
		"{\"choice\": \"vlan\", \"vlan\": {\"priority\": " V(5) ", \"cfi\": "
		V(1) ", \"id\": {\"choice\": \"increment\", \"increment\": "
		"{\"start\": 100, \"step\": 1, \"count\": 3}}}},"
		"{\"choice\": \"ipv6\", \"ipv6\": {\"traffic_class\": " V(184) ","
		"\"flow_label\": {\"choice\": \"random\", \"random\": {\"min\": 1000,"
		" \"max\": 1009, \"seed\": 7, \"count\": 5}},"
		"\"hop_limit\": " V(9) ", \"src\": " VS("2001:db8::1") ","
		"\"dst\": {\"choice\": \"increment\", \"increment\": {\"start\": "
		"\"2001:db8::ffff:ffff\", \"step\": \"::1\", \"count\": 2}}}},"
		"{\"choice\": \"tcp\", \"tcp\": {\"src_port\": " V(1234) ","
		"\"dst_port\": {\"choice\": \"values\", \"values\": [80, 443, 8080]},"
		"\"seq_num\": " V(7) ", \"ack_num\": " V(9) ", \"ctl_syn\": " V(1) ","
		"\"ctl_ack\": {\"choice\": \"values\", \"values\": [0, 1]},"
		"\"window\": " V(100) "}}",
		", \"size\": {\"choice\": \"fixed\", \"fixed\": 100}"), 30, &fr,
		&fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fl.tx_port, 1);
	CU_ASSERT_EQUAL(fl.rx_ports, 0);
	for (k = 0; k < fr.n; k++) {
		const uint8_t *f = fr.b[k], *ip = f + 18, *tcp = f + 58;
		static const uint16_t dport[] = { 80, 443, 8080 };
		uint32_t vtf = be32(ip);

		CU_ASSERT_EQUAL(fr.len[k], 96);
		CU_ASSERT_EQUAL(be16(f + 12), 0x8100);
		CU_ASSERT_EQUAL(be16(f + 14), 5 << 13 | 1 << 12 | (100 + k % 3));
		CU_ASSERT_EQUAL(be16(f + 16), 0x86dd);
		CU_ASSERT_EQUAL(vtf >> 28, 6);
		CU_ASSERT_EQUAL((vtf >> 20) & 0xff, 184);
		if (k < 5)
			labels[k] = vtf & 0xfffff;
		CU_ASSERT_EQUAL(vtf & 0xfffff, labels[k % 5]);
		CU_ASSERT((vtf & 0xfffff) >= 1000 && (vtf & 0xfffff) <= 1009);
		CU_ASSERT_EQUAL(be16(ip + 4), 96 - 58);
		CU_ASSERT_EQUAL(ip[6], 6);
		CU_ASSERT_EQUAL(ip[7], 9);
		CU_ASSERT_EQUAL(be32(ip + 8), 0x20010db8);
		CU_ASSERT_EQUAL(be32(ip + 20), 1);
		/* ::ffff:ffff + 1 carries into the next word */
		CU_ASSERT_EQUAL(be32(ip + 24 + 8), k % 2 ? 1 : 0);
		CU_ASSERT_EQUAL(be32(ip + 24 + 12), k % 2 ? 0 : 0xffffffff);
		CU_ASSERT_EQUAL(be16(tcp), 1234);
		CU_ASSERT_EQUAL(be16(tcp + 2), dport[k % 3]);
		CU_ASSERT_EQUAL(be32(tcp + 4), 7);
		CU_ASSERT_EQUAL(be32(tcp + 8), 9);
		CU_ASSERT_EQUAL(tcp[12], 5 << 4);
		CU_ASSERT_EQUAL(tcp[13], k % 2 ? 0x12 : 0x02);
		CU_ASSERT_EQUAL(be16(tcp + 14), 100);
		CU_ASSERT_EQUAL(sum6(ip, tcp, 96 - 58, 6), 0);
	}
	/* Five draws of the seed, not all the same. */
	CU_ASSERT(labels[0] != labels[1] || labels[1] != labels[2] ||
		  labels[2] != labels[3]);
}

/* mpls (bottom of stack auto), ipv4 with TOS bits and a router alert,
 * icmp echo with a counting sequence number. */
static void
test_mpls_icmp(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	unsigned int k;
	int rc;

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\"},"
		"{\"choice\": \"mpls\", \"mpls\": {\"label\": " V(1000) ", "
		"\"traffic_class\": " V(3) ", \"time_to_live\": " V(5) "}},"
		"{\"choice\": \"ipv4\", \"ipv4\": {\"priority\": {\"choice\": "
		"\"tos\", \"tos\": {\"precedence\": " V(5) ", \"delay\": " V(1)
		", \"monetary\": {\"choice\": \"values\", \"values\": [0, 1]}}},"
		"\"options\": [{\"choice\": \"router_alert\"}],"
		"\"src\": " VS("10.0.0.1") ", \"dst\": " VS("10.0.0.2") "}},"
		"{\"choice\": \"icmp\", \"icmp\": {\"echo\": {\"identifier\": "
		V(77) ", \"sequence_number\": {\"choice\": \"increment\", "
		"\"increment\": {\"start\": 1, \"step\": 1, \"count\": 1000}}}}}",
		""), 8, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0; k < fr.n; k++) {
		const uint8_t *f = fr.b[k], *ip = f + 18, *ic = f + 42;

		CU_ASSERT_EQUAL(be16(f + 12), 0x8847);
		CU_ASSERT_EQUAL(be32(f + 14), 1000u << 12 | 3 << 9 | 1 << 8 | 5);
		CU_ASSERT_EQUAL(ip[0], 0x46); /* IHL 6: 4 bytes of options */
		CU_ASSERT_EQUAL(ip[1], 0xa0 | 0x10 | (k % 2 ? 0x02 : 0));
		CU_ASSERT_EQUAL(ip[9], 1);
		CU_ASSERT_EQUAL(be32(ip + 20), 0x94040000); /* RFC 2113 */
		CU_ASSERT_EQUAL(ref_sum(ip, 24, 0), 0xffff);
		CU_ASSERT_EQUAL(ic[0], 8);
		CU_ASSERT_EQUAL(ic[1], 0);
		CU_ASSERT_EQUAL(be16(ic + 4), 77);
		CU_ASSERT_EQUAL(be16(ic + 6), 1 + k);
		CU_ASSERT_EQUAL(ref_sum(ic, fr.len[k] - 42, 0), 0xffff);
	}
}

/* arp: every address at its place; eth alone's type auto: the model's
 * value when nothing names one (0xFFFF), and custom bytes after it. */
static void
test_arp_custom(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	unsigned int k;
	int rc;

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\", \"ethernet\": {\"dst\": "
		VS("ff:ff:ff:ff:ff:ff") "}},"
		"{\"choice\": \"arp\", \"arp\": {\"operation\": " V(2) ", "
		"\"sender_hardware_addr\": " VS("02:00:00:00:00:aa") ", "
		"\"sender_protocol_addr\": {\"choice\": \"increment\", "
		"\"increment\": {\"start\": \"10.0.1.1\", \"step\": \"0.0.0.1\", "
		"\"count\": 254}}, \"target_protocol_addr\": " VS("10.0.0.1") "}}",
		""), 4, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0; k < fr.n; k++) {
		const uint8_t *a = fr.b[k] + 14;

		CU_ASSERT_EQUAL(be16(fr.b[k] + 12), 0x0806);
		CU_ASSERT_EQUAL(be32(a), 0x00010800);
		CU_ASSERT_EQUAL(be16(a + 4), 0x0604);
		CU_ASSERT_EQUAL(be16(a + 6), 2);
		CU_ASSERT(mac_is(a + 8, "02:00:00:00:00:aa"));
		CU_ASSERT_EQUAL(be32(a + 14), ip4("10.0.1.1") + k);
		CU_ASSERT(mac_is(a + 18, "00:00:00:00:00:00"));
		CU_ASSERT_EQUAL(be32(a + 24), ip4("10.0.0.1"));
	}
	rc = flow_frames(FLOW("{\"choice\": \"ethernet\"}", ""), 1, &fr, &fl,
			 &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 12), 0xffff);
	/* A tag with nothing after it: vlan.tpid's default, 0xFFFF; given,
	 * the EtherType after the tag (ethernet.ether_type is the tag's). */
	rc = flow_frames(FLOW("{\"choice\": \"ethernet\"}, {\"choice\": \"vlan\"}",
			      ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 12), 0x8100);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 16), 0xffff);
	rc = flow_frames(FLOW("{\"choice\": \"ethernet\", \"ethernet\": "
			      "{\"ether_type\": " V(34984) "}}, {\"choice\": "
			      "\"vlan\", \"vlan\": {\"id\": " V(10) ", \"tpid\": "
			      V(24583) "}}", ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 12), 0x88a8);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 14), 10);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 16), 0x6007);
	rc = flow_frames(FLOW("{\"choice\": \"ethernet\", \"ethernet\": "
			      "{\"ether_type\": " V(34998) "}},"
			      "{\"choice\": \"custom\", \"custom\": {\"bytes\": "
			      "\"0xDE AD:be ef 01\"}}", ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(be16(fr.b[0] + 12), 0x88b6);
	CU_ASSERT_EQUAL(be32(fr.b[0] + 14), 0xdeadbeef);
	CU_ASSERT_EQUAL(fr.b[0][18], 0x01);
}

/* Tunnels: gre (protocol auto: the inner IPv4's EtherType), vxlan (vni,
 * an inner frame), gtpv1 (teid, S and its sequence number). */
static void
test_tunnels(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	const uint8_t *f;
	int rc;

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\"}, {\"choice\": \"ipv4\"},"
		"{\"choice\": \"gre\"}, {\"choice\": \"ipv4\", \"ipv4\": {\"dst\": "
		VS("192.0.2.1") "}}, {\"choice\": \"udp\"}", ""), 1, &fr, &fl, &err);
	/* The loader's refusal, at the flow's path. */
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].size: 64 bytes cannot hold "
			       "eth 14 + ipv4 20 + gre 4 + ipv4 20 + udp 8 + FCS "
			       "4: need at least 70");
	wr_otg_err_free(&err);
	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\"}, {\"choice\": \"ipv4\"},"
		"{\"choice\": \"gre\"}, {\"choice\": \"ipv4\", \"ipv4\": {\"dst\": "
		VS("192.0.2.1") "}}, {\"choice\": \"udp\"}", ", \"size\": "
		"{\"choice\": \"fixed\", \"fixed\": 70}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	f = fr.b[0];
	CU_ASSERT_EQUAL(f[23], 47);
	CU_ASSERT_EQUAL(be32(f + 34), 0x00000800);
	CU_ASSERT_EQUAL(be32(f + 38 + 16), ip4("192.0.2.1"));
	CU_ASSERT_EQUAL(f[38 + 9], 17);

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\"}, {\"choice\": \"ipv4\"},"
		"{\"choice\": \"udp\", \"udp\": {\"dst_port\": " V(4789) "}},"
		"{\"choice\": \"vxlan\", \"vxlan\": {\"vni\": " V(5001) "}},"
		"{\"choice\": \"ethernet\", \"ethernet\": {\"src\": "
		VS("02:00:00:00:00:33") "}}, {\"choice\": \"ipv4\"},"
		"{\"choice\": \"udp\", \"udp\": {\"src_port\": " V(9) "}}",
		", \"size\": {\"choice\": \"fixed\", \"fixed\": 128}"), 1, &fr,
		&fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	f = fr.b[0];
	CU_ASSERT_EQUAL(be16(f + 36), 4789);
	CU_ASSERT_EQUAL(be32(f + 42), 0x08000000);
	CU_ASSERT_EQUAL(be32(f + 46), 5001u << 8);
	CU_ASSERT(mac_is(f + 50 + 6, "02:00:00:00:00:33"));
	CU_ASSERT_EQUAL(be16(f + 50 + 12), 0x0800);
	CU_ASSERT_EQUAL(be16(f + 64 + 20), 9);
	CU_ASSERT_EQUAL(ref_check(f + 50, fr.len[0] - 50), 0);

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\"}, {\"choice\": \"ipv4\"},"
		"{\"choice\": \"udp\", \"udp\": {\"dst_port\": " V(2152) "}},"
		"{\"choice\": \"gtpv1\", \"gtpv1\": {\"teid\": " V(4660) ", "
		"\"message_type\": " V(255) ", \"s_flag\": " V(1) ", "
		"\"squence_number\": {\"choice\": \"increment\", \"increment\": "
		"{\"start\": 10, \"step\": 5, \"count\": 100}}}},"
		"{\"choice\": \"ipv4\"}, {\"choice\": \"udp\"}",
		", \"size\": {\"choice\": \"fixed\", \"fixed\": 128}"), 3, &fr,
		&fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (unsigned int k = 0; k < fr.n; k++) {
		f = fr.b[k] + 42;
		CU_ASSERT_EQUAL(f[0], 0x32); /* version 1, PT 1, S */
		CU_ASSERT_EQUAL(f[1], 255);
		CU_ASSERT_EQUAL(be16(f + 2), fr.len[k] - 42 - 8);
		CU_ASSERT_EQUAL(be32(f + 4), 4660);
		CU_ASSERT_EQUAL(be16(f + 8), 10 + 5 * k);
		CU_ASSERT_EQUAL(f[12] >> 4, 4);
		CU_ASSERT_EQUAL(ref_check(f + 12 - 14, fr.len[k] - 42 - 12 + 14) &
				~REF_BAD_ETHERTYPE, 0);
	}
}

/* ipv6_extension_header: a segment routing header, the model's list
 * (Segment[0] the last) as it is on the wire. */
static void
test_srh(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	const uint8_t *f, *srh;
	uint8_t fin[40];
	int rc;

	rc = flow_frames(FLOW(
		"{\"choice\": \"ethernet\"}, {\"choice\": \"ipv6\", \"ipv6\": "
		"{\"dst\": " VS("2001:db8:1::1") "}},"
		"{\"choice\": \"ipv6_extension_header\", \"ipv6_extension_header\":"
		" {\"choice\": \"routing\", \"routing\": {\"choice\": "
		"\"segment_routing\", \"segment_routing\": {\"tag\": " V(7) ", "
		"\"segment_list\": [{\"segment\": " VS("2001:db8:2::2") "}, "
		"{\"segment\": " VS("2001:db8:1::1") "}]}}}},"
		"{\"choice\": \"udp\"}", ", \"size\": {\"choice\": \"fixed\", "
		"\"fixed\": 160}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	f = fr.b[0];
	srh = f + 54;
	CU_ASSERT_EQUAL(f[20], 43);
	CU_ASSERT_EQUAL(srh[0], 17);
	CU_ASSERT_EQUAL(srh[1], 4);  /* 2 segments: 4 units of 8 bytes */
	CU_ASSERT_EQUAL(srh[2], 4);
	CU_ASSERT_EQUAL(srh[3], 1);  /* segments left: the first active */
	CU_ASSERT_EQUAL(srh[4], 1);  /* last entry */
	CU_ASSERT_EQUAL(be16(srh + 6), 7);
	CU_ASSERT_EQUAL(be32(srh + 8), 0x20010db8);
	CU_ASSERT_EQUAL(be16(srh + 12), 2);
	CU_ASSERT_EQUAL(be16(srh + 24 + 4), 1);
	/* UDP's pseudo-header: the final destination, Segment[0]. */
	memcpy(fin, f + 14, 40);
	memcpy(fin + 24, srh + 8, 16);
	CU_ASSERT_EQUAL(sum6(fin, srh + 40, fr.len[0] - 94, 17), 0);
}


/* The first @p n frames of stream @p s, as the generator makes them. */
static void
stream_frames(const struct wr_stream *s, unsigned int n, struct frames *fr)
{
	struct wr_frame_tmpl *t = NULL;
	struct wr_frame_gen g;
	struct wr_error e;
	unsigned int k;

	if (wr_frame_tmpl_create(s, 0, &t, &e) != 0)
		fprintf(stderr, "tmpl: %s\n", e.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	wr_frame_gen_init(&g, t, 0, 1);
	fr->n = n;
	fr->count = s->count;
	fr->rate = s->rate;
	fr->train_frames = s->train_frames;
	fr->sig_off = wr_frame_tmpl_sig_off(t);
	for (k = 0; k < n; k++) {
		memcpy(fr->b[k], wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
		fr->len[k] = wr_frame_gen_next(&g, fr->b[k]);
	}
	wr_frame_tmpl_free(t);
}

/* Devices as snappi's b2b examples have them, d1 and d2 back to back
 * (each the other's gateway), d3 behind a router: d1 with IPv4
 * and IPv6 and gateways to resolve, d2 with its gateway's MAC given. */
#define DEV_CONFIG(flows) \
	"{\"ports\": [{\"name\": \"p1\", \"location\": \"0\"}," \
	"  {\"name\": \"p2\", \"location\": \"1\"}]," \
	"\"devices\": [{\"name\": \"d1\", \"ethernets\": [{\"name\": \"d1.eth\"," \
	"  \"connection\": {\"choice\": \"port_name\", \"port_name\": \"p1\"}," \
	"  \"mac\": \"02:00:00:00:01:01\", \"mtu\": 1500," \
	"  \"ipv4_addresses\": [{\"name\": \"d1.ip4\", \"address\": \"10.0.0.1\"," \
	"     \"gateway\": \"10.0.0.2\", \"prefix\": 24}]," \
	"  \"ipv6_addresses\": [{\"name\": \"d1.ip6\", \"address\": \"2001:db8::1\"," \
	"     \"gateway\": \"2001:db8::2\", \"prefix\": 64}]}]}," \
	" {\"name\": \"d2\", \"ethernets\": [{\"name\": \"d2.eth\"," \
	"  \"connection\": {\"choice\": \"port_name\", \"port_name\": \"p2\"}," \
	"  \"mac\": \"02:00:00:00:02:01\", \"mtu\": 1500," \
	"  \"ipv4_addresses\": [{\"name\": \"d2.ip4\", \"address\": \"10.0.0.2\"," \
	"     \"gateway\": \"10.0.0.1\", \"prefix\": 24," \
	"     \"gateway_mac\": {\"choice\": \"value\", \"value\": \"02:00:00:00:01:01\"}}]}]}," \
	" {\"name\": \"d3\", \"ethernets\": [{\"name\": \"d3.eth\"," \
	"  \"connection\": {\"choice\": \"port_name\", \"port_name\": \"p1\"}," \
	"  \"mac\": \"02:00:00:00:03:01\", \"mtu\": 1500," \
	"  \"ipv4_addresses\": [{\"name\": \"d3.ip4\", \"address\": \"10.0.3.1\"," \
	"     \"gateway\": \"10.0.3.254\", \"prefix\": 24}]}]}]," \
	"\"flows\": [" flows "]}"
#define DEV_FLOW(name, tx, rx, l3) \
	"{\"name\": \"" name "\", \"tx_rx\": {\"choice\": \"device\", \"device\": " \
	"{\"tx_names\": [\"" tx "\"], \"rx_names\": [\"" rx "\"]}}, " \
	"\"packet\": [{\"choice\": \"ethernet\"}, {\"choice\": \"" l3 "\"}, " \
	"{\"choice\": \"udp\"}], \"size\": {\"choice\": \"fixed\", \"fixed\": 128}}"

static const struct wr_otg_env dev_env = {
	.n_ports = 2,
	.ports = {
		{ .device = "net_memif0", .mac = { 2, 0, 0, 0, 0, 0xa },
		  .mtu = 1500, .mtu_max = 9000, .tx_ok = true, .rx_ok = true },
		{ .device = "net_memif1", .mac = { 2, 0, 0, 0, 0, 0xb },
		  .mtu = 1500, .mtu_max = 9000, .tx_ok = true, .rx_ok = true },
	},
};

/* tx_rx device: each flow on its transmit device's port, received on the
 * other's; ethernet.dst auto: the gateway resolved (ARP, ND) when the run
 * starts, the gateway_mac given, or the receiving ethernet's MAC. */
static void
test_devices(void)
{
	static const int port_map[2] = { 0, 1 };
	static struct frames fr;
	struct wr_stream_file file;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	struct wr_error e;
	json_error_t je;
	json_t *cfg;
	char *yaml = NULL;
	int rc;

	cfg = json_loads(DEV_CONFIG(
		DEV_FLOW("v4", "d1.ip4", "d2.ip4", "ipv4") ","
		DEV_FLOW("v4 back", "d2.ip4", "d1.ip4", "ipv4") ","
		DEV_FLOW("v6", "d1.ip6", "d2.ip4", "ipv6") ","
		DEV_FLOW("l2", "d1.eth", "d2.eth", "ipv4") ","
		DEV_FLOW("via a router", "d3.ip4", "d2.ip4", "ipv4")), 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	rc = wr_otg_check(cfg, "Config", &err);
	if (rc == 0)
		rc = wr_otg_plan_build(cfg, &dev_env, &p, &err);
	if (rc != 0)
		fprintf(stderr, "\n%s\n", err0(&err));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(p.n_flows, 5);
	CU_ASSERT_EQUAL(p.flows[0].tx_port, 0);
	CU_ASSERT_EQUAL(p.flows[0].rx_ports, 2);
	CU_ASSERT_EQUAL(p.flows[1].tx_port, 1);
	CU_ASSERT_EQUAL(p.flows[1].rx_ports, 1);
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, port_map, &yaml), 0);
	memset(&file, 0, sizeof(file));
	rc = wr_yaml_load_streams_buf("plan.yaml", yaml, strlen(yaml), &file, &e);
	if (rc != 0)
		fprintf(stderr, "\n%s\n%s\n", e.msg, yaml);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(file.n_streams, 5);
	/* d1's gateway is d2 (back to back): its MAC, known, not asked
	 * for from the port (which would teach d2 the port's MAC for
	 * d1's address). */
	CU_ASSERT(!file.streams[0].dst_arp);
	CU_ASSERT_EQUAL(file.streams[0].port, 0);
	stream_frames(&file.streams[0], 1, &fr);
	CU_ASSERT(mac_is(fr.b[0], "02:00:00:00:02:01"));
	/* d3's is a router no device is: asked by ARP when the run starts. */
	CU_ASSERT(file.streams[4].dst_arp);
	CU_ASSERT(!file.streams[4].dst_nd);
	CU_ASSERT_EQUAL(file.streams[4].gateway, ip4("10.0.3.254"));
	CU_ASSERT_EQUAL(file.streams[4].port, 0);
	CU_ASSERT(!file.streams[1].dst_arp);
	CU_ASSERT_EQUAL(file.streams[1].port, 1);
	CU_ASSERT(file.streams[2].dst_arp && file.streams[2].dst_nd);
	CU_ASSERT(file.streams[2].gateway6 == ((__uint128_t)0x20010db8 << 96 | 2));
	CU_ASSERT(!file.streams[3].dst_arp);
	wr_stream_file_free(&file);
	/* The given and the receiving MACs, in the frames. */
	CU_ASSERT_PTR_NOT_NULL(strstr(yaml, "02:00:00:00:01:01"));
	CU_ASSERT_PTR_NOT_NULL(strstr(yaml, "02:00:00:00:02:01"));
	free(yaml);
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
	json_decref(cfg);

	/* Refused by path: an unknown device, two transmitters. */
	cfg = json_loads(DEV_CONFIG(
		DEV_FLOW("x", "nope", "d2.ip4", "ipv4") ","
		"{\"name\": \"y\", \"tx_rx\": {\"choice\": \"device\", \"device\": "
		"{\"tx_names\": [\"d1.ip4\", \"d2.ip4\"], \"rx_names\": [\"d2.ip4\"]}}}"),
		0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	CU_ASSERT_EQUAL(wr_otg_check(cfg, "Config", &err), 0);
	CU_ASSERT_EQUAL(wr_otg_plan_build(cfg, &dev_env, &p, &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].tx_rx.device.tx_names[0]: "
			       "no device ethernet, ipv4 or ipv6 named \"nope\"");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 1)),
			       "flows[1].tx_rx.device.tx_names: expected one "
			       "transmit device (a flow is one stream, from one "
			       "port to one next hop), got 2");
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
	json_decref(cfg);
}


/* PATCH /config: the named flows' rate and size, in their streams and
 * the config; an unknown flow or a size refused leaves the plan as it
 * was. */
static void
test_update(void)
{
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_error_t je;
	json_t *cfg, *upd, *before;
	bool changed[4] = { true, true, true, true };
	int rc;

	cfg = json_loads(DEV_CONFIG(
		DEV_FLOW("a", "d1.ip4", "d2.ip4", "ipv4") ","
		DEV_FLOW("b", "d2.ip4", "d1.ip4", "ipv4")), 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	rc = wr_otg_check(cfg, "Config", &err);
	if (rc == 0)
		rc = wr_otg_plan_build(cfg, &dev_env, &p, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	upd = json_loads("{\"choice\": \"flows\", \"flows\": {\"property_names\": "
			 "[\"rate\", \"size\"], \"flows\": [{\"name\": \"b\", "
			 "\"tx_rx\": {\"choice\": \"port\", \"port\": {\"tx_name\": "
			 "\"p1\"}}, \"rate\": {\"choice\": \"mbps\", \"mbps\": 50}, "
			 "\"size\": {\"choice\": \"fixed\", \"fixed\": 256}}]}}",
			 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(upd);
	CU_ASSERT_EQUAL(wr_otg_check(upd, "Config.Update", &err), 0);
	CU_ASSERT_EQUAL_FATAL(wr_otg_update(&p, upd, changed, &err), 0);
	CU_ASSERT(!changed[0]);
	CU_ASSERT(changed[1]);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
		json_array_get(p.streams, 1), "rate")), "50 Mbps L1");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
		json_array_get(p.streams, 1), "size")), 256);
	CU_ASSERT_EQUAL(p.flows[1].size_fixed, 256);
	/* Only rate and size: the port (tx_rx) of the update is not read. */
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
		json_array_get(p.streams, 1), "port")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(
		json_array_get(json_object_get(p.config, "flows"), 1), "size"),
		"fixed")), 256);
	json_decref(upd);

	before = json_deep_copy(p.streams);
	upd = json_loads("{\"choice\": \"flows\", \"flows\": {\"property_names\": "
			 "[\"size\"], \"flows\": [{\"name\": \"a\", \"tx_rx\": {}, "
			 "\"size\": {\"choice\": \"fixed\", \"fixed\": 40}}, "
			 "{\"name\": \"zz\", \"tx_rx\": {}}]}}", 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(upd);
	CU_ASSERT_EQUAL(wr_otg_update(&p, upd, changed, &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows.flows[0].size: fixed: "
			       "expected a frame size in 64..9018 (with its FCS), "
			       "got 40");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 1)),
			       "flows.flows[1]: name: no flow named \"zz\" in the "
			       "config");
	CU_ASSERT(json_equal(before, p.streams));
	json_decref(before);
	json_decref(upd);
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
	json_decref(cfg);
}


#define UDP_FLOW(rest) FLOW("{\"choice\": \"ethernet\"}, {\"choice\": " \
	"\"ipv4\"}, {\"choice\": \"udp\"}", rest)

/* size: increment, random, weight_pairs (the model's IMIX: 64:7 570:4
 * 1518:1, each exactly in every cycle of 12), custom weights. */
static void
test_sizes(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	unsigned int k, n64 = 0, n570 = 0, n1518 = 0;
	int rc;

	rc = flow_frames(UDP_FLOW(", \"size\": {\"choice\": \"increment\", "
		"\"increment\": {\"start\": 64, \"end\": 128, \"step\": 32}}"),
		6, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fl.size_fixed, 0);
	for (k = 0; k < 6; k++) {
		CU_ASSERT_EQUAL(fr.len[k], 60 + 32 * (k % 3));
		CU_ASSERT_EQUAL(ref_check(fr.b[k], fr.len[k]), 0);
	}
	rc = flow_frames(UDP_FLOW(", \"size\": {\"choice\": \"random\", "
		"\"random\": {\"min\": 100, \"max\": 200}}"), 64, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0; k < 64; k++)
		CU_ASSERT(fr.len[k] >= 96 && fr.len[k] <= 196);
	rc = flow_frames(UDP_FLOW(", \"size\": {\"choice\": \"weight_pairs\", "
		"\"weight_pairs\": {\"choice\": \"predefined\", \"predefined\": "
		"\"imix\"}}"), 24, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0; k < 24; k++) {
		n64 += fr.len[k] == 60;
		n570 += fr.len[k] == 566;
		n1518 += fr.len[k] == 1514;
	}
	CU_ASSERT_EQUAL(n64, 14);
	CU_ASSERT_EQUAL(n570, 8);
	CU_ASSERT_EQUAL(n1518, 2);
	rc = flow_frames(UDP_FLOW(", \"size\": {\"choice\": \"weight_pairs\", "
		"\"weight_pairs\": {\"choice\": \"custom\", \"custom\": ["
		"{\"size\": 128, \"weight\": 1.5}, {\"size\": 256, \"weight\": 0.5}]}}"),
		8, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (k = 0, n64 = 0; k < 8; k++)
		n64 += fr.len[k] == 124;
	CU_ASSERT_EQUAL(n64, 6);
	rc = flow_frames(UDP_FLOW(", \"size\": {\"choice\": \"weight_pairs\", "
		"\"weight_pairs\": {\"choice\": \"predefined\", \"predefined\": "
		"\"ipv6_imix\"}}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].size.weight_pairs.predefined:"
			       " size: expected a frame size in 64..9018 (with its "
			       "FCS), got 60");
	wr_otg_err_free(&err);
}

/* rate: pps, the bit rates (L1) and a percentage of the line, as the
 * loader reads them. */
static void
test_rates(void)
{
	static const struct {
		const char *json;
		enum wr_rate_unit unit;
		uint64_t value;
	} c[] = {
		{ UDP_FLOW(", \"rate\": {\"choice\": \"pps\", \"pps\": \"250000\"}"),
		  WR_RATE_PPS, 250000000ull },
		{ UDP_FLOW(", \"rate\": {\"choice\": \"bps\", \"bps\": 672}"),
		  WR_RATE_BPS_L1, 672 },
		{ UDP_FLOW(", \"rate\": {\"choice\": \"kbps\", \"kbps\": 3}"),
		  WR_RATE_BPS_L1, 3000 },
		{ UDP_FLOW(", \"rate\": {\"choice\": \"mbps\", \"mbps\": 800}"),
		  WR_RATE_BPS_L1, 800000000ull },
		{ UDP_FLOW(", \"rate\": {\"choice\": \"gbps\", \"gbps\": 10}"),
		  WR_RATE_BPS_L1, 10000000000ull },
		{ UDP_FLOW(", \"rate\": {\"choice\": \"percentage\", "
			   "\"percentage\": 12.5}"), WR_RATE_PERCENT, 125000 },
	};
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(flow_frames(c[i].json, 1, &fr, &fl, &err), 0);
		CU_ASSERT_EQUAL(fr.rate.unit, c[i].unit);
		CU_ASSERT_EQUAL(fr.rate.value, c[i].value);
	}
	/* Above the port's line (10 Gb/s here): refused. */
	CU_ASSERT_EQUAL(flow_frames(UDP_FLOW(", \"rate\": {\"choice\": \"gbps\", "
				    "\"gbps\": 11}"), 1, &fr, &fl, &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].rate.gbps: above the line: "
			       "16369048 frames/s of 64 bytes, the port's 10000 "
			       "Mb/s carries at most 14880952");
	wr_otg_err_free(&err);
	/* 14,880,952 frames of 64 bytes fill 10 Gb/s (84 bytes on the line
	 * each): one more is above it. */
	CU_ASSERT_EQUAL(flow_frames(UDP_FLOW(", \"rate\": {\"choice\": \"pps\", "
				    "\"pps\": 14880952}"), 1, &fr, &fl, &err), 0);
	CU_ASSERT_EQUAL(flow_frames(UDP_FLOW(", \"rate\": {\"choice\": \"pps\", "
				    "\"pps\": 14880953}"), 1, &fr, &fl, &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].rate.pps: above the line: "
			       "14880953 frames/s of 64 bytes, the port's 10000 "
			       "Mb/s carries at most 14880952");
	wr_otg_err_free(&err);
}

/* duration: fixed_packets, fixed_seconds, bursts (count, trains with the
 * gap added to the period), delays; metrics; payload. */
static void
test_schedule(void)
{
	static struct frames fr;
	struct wr_otg_flow fl;
	struct wr_otg_err err;
	unsigned int k;
	int rc;

	rc = flow_frames(UDP_FLOW(", \"duration\": {\"choice\": \"fixed_seconds\","
		" \"fixed_seconds\": {\"seconds\": 2.5, \"delay\": {\"choice\": "
		"\"nanoseconds\", \"nanoseconds\": 1500}}}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fr.duration_ns, 2500000000ull);
	CU_ASSERT_EQUAL(fr.isg_ns, 1500);
	CU_ASSERT_EQUAL(fr.count, 0);
	/* 3 bursts of 10 at 1000 pps, 5 us more between them: trains of
	 * 10 with 1 ms + 5 us from a train's last frame to the next's. */
	rc = flow_frames(UDP_FLOW(", \"rate\": {\"choice\": \"pps\", \"pps\": 1000},"
		" \"duration\": {\"choice\": \"burst\", \"burst\": {\"bursts\": 3, "
		"\"packets\": 10, \"inter_burst_gap\": {\"choice\": \"microseconds\","
		" \"microseconds\": 5}}}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fr.count, 30);
	CU_ASSERT_EQUAL(fl.packets, 30);
	CU_ASSERT_EQUAL(fr.train_frames, 10);
	CU_ASSERT_EQUAL(fr.train_gap_ns, 1005000);
	/* In bytes: beyond the 12-byte inter-frame gap, at the line rate
	 * (10 Gbps: 112 bytes more is 89.6 ns, 90). */
	rc = flow_frames(UDP_FLOW(", \"rate\": {\"choice\": \"pps\", \"pps\": 1000},"
		" \"duration\": {\"choice\": \"burst\", \"burst\": {\"packets\": 4,"
		" \"inter_burst_gap\": {\"choice\": \"bytes\", \"bytes\": 124}}}"),
		1, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fr.count, 0);
	CU_ASSERT_EQUAL(fr.train_frames, 4);
	CU_ASSERT_EQUAL(fr.train_gap_ns, 1000090);
	rc = flow_frames(UDP_FLOW(", \"duration\": {\"choice\": \"continuous\","
		" \"continuous\": {\"gap\": 20}}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].duration.continuous: gap: "
			       "wirerate keeps the standard inter-frame gap, 12 "
			       "bytes, got 20");
	wr_otg_err_free(&err);

	rc = flow_frames(UDP_FLOW(", \"metrics\": {\"enable\": true, \"loss\": "
		"true, \"timestamps\": true, \"latency\": {\"enable\": true, "
		"\"mode\": \"cut_through\"}}, \"size\": {\"choice\": \"fixed\", "
		"\"fixed\": 128}, \"payload\": {\"choice\": \"increment_byte\"}"),
		2, &fr, &fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT(fl.metrics && fl.loss && fl.timestamps && fl.latency &&
		  fl.cut_through);
	CU_ASSERT_EQUAL(fr.sig_off, 42); /* right after UDP */
	/* The instrumentation (the 24-byte signature) first, then the
	 * payload: byte k of it is k (where instrumentation goes is the
	 * implementation's, the model says). */
	for (k = 42 + 24; k < fr.len[0]; k++)
		CU_ASSERT_EQUAL(fr.b[0][k], (k - 66) & 0xff);
	rc = flow_frames(UDP_FLOW(", \"payload\": {\"choice\": \"fixed\", "
		"\"fixed\": {\"pattern\": \"abcd\", \"repeat\": true}}"), 1, &fr,
		&fl, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fr.sig_off, 0);
	CU_ASSERT_EQUAL(fl.metrics, false);
	for (k = 42; k < fr.len[0]; k++)
		CU_ASSERT_EQUAL(fr.b[0][k], (k - 42) % 2 ? 0xcd : 0xab);
	rc = flow_frames(UDP_FLOW(", \"payload\": {\"choice\": \"decrement_byte\"},"
		" \"metrics\": {\"enable\": true, \"rx_tx_ratio\": {\"choice\": "
		"\"value\", \"value\": 2}}"), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].metrics: rx_tx_ratio: only 1 "
			       "(every frame sent is expected once)");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 1)),
			       "flows[0].payload.decrement_byte: not supported: "
			       "wirerate's payloads are zeros, a repeated pattern "
			       "or increment_byte");
	wr_otg_err_free(&err);
}


/* A config snappi 1.61.0 serialised (test/fixtures/otg_flow_snappi.py
 * writes it): checked, planned, its stream file loaded, and every field
 * of the first frames of each flow where the config puts it. */
static void
test_snappi(void)
{
	static const int port_map[2] = { 0, 1 };
	static struct frames fr;
	struct wr_stream_file file;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	struct wr_error e;
	json_error_t je;
	json_t *cfg;
	char *yaml = NULL;
	unsigned int k, n64 = 0;
	uint16_t sport[8];
	int rc;

	cfg = json_load_file(WR_FIXTURES "/otg_flow_snappi.json", 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	rc = wr_otg_check(cfg, "Config", &err);
	if (rc == 0)
		rc = wr_otg_plan_build(cfg, &dev_env, &p, &err);
	if (rc != 0)
		fprintf(stderr, "\n%s\n", err0(&err));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, port_map, &yaml), 0);
	memset(&file, 0, sizeof(file));
	rc = wr_yaml_load_streams_buf("plan.yaml", yaml, strlen(yaml), &file, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(file.n_streams, 2);

	CU_ASSERT_EQUAL(p.flows[0].packets, 100);
	CU_ASSERT_EQUAL(file.streams[0].port, 0);
	CU_ASSERT_EQUAL(p.flows[0].rx_ports, 2);
	stream_frames(&file.streams[0], 40, &fr);
	CU_ASSERT_EQUAL(fr.count, 100);
	CU_ASSERT_EQUAL(fr.rate.unit, WR_RATE_PPS);
	CU_ASSERT_EQUAL(fr.rate.value, 5000000);
	CU_ASSERT_EQUAL(fr.sig_off, 58);
	for (k = 0; k < fr.n; k++) {
		const uint8_t *f = fr.b[k], *ip = f + 18, *tcp = f + 38;
		uint8_t ph[12];
		uint16_t sum;

		CU_ASSERT_EQUAL(fr.len[k], 252);
		CU_ASSERT(mac_is(f, "02:00:00:00:00:99"));
		CU_ASSERT_EQUAL(f[11], 1 + k % 5);
		CU_ASSERT_EQUAL(be16(f + 12), 0x8100);
		CU_ASSERT_EQUAL(be16(f + 14), k % 2 ? 20 : 10);
		CU_ASSERT_EQUAL(be16(f + 16), 0x0800);
		CU_ASSERT_EQUAL(ip[1], 46 << 2 | 1);
		CU_ASSERT_EQUAL(ip[9], 6);
		CU_ASSERT_EQUAL(be32(ip + 12), ip4("10.0.0.1") + k % 4);
		CU_ASSERT_EQUAL(be32(ip + 16), ip4("10.1.0.10") - 2 * (k % 3));
		CU_ASSERT_EQUAL(ref_sum(ip, 20, 0), 0xffff);
		if (k < 8)
			sport[k] = be16(tcp);
		CU_ASSERT_EQUAL(be16(tcp), sport[k % 8]);
		CU_ASSERT(be16(tcp) >= 1000 && be16(tcp) <= 2000);
		CU_ASSERT_EQUAL(be16(tcp + 2), 443);
		CU_ASSERT_EQUAL(tcp[13], 0x02);
		memcpy(ph, ip + 12, 8);
		ph[8] = 0;
		ph[9] = 6;
		ph[10] = (uint8_t)((252 - 38) >> 8);
		ph[11] = (uint8_t)(252 - 38);
		sum = ref_sum(ph, 12, 0);
		CU_ASSERT_EQUAL(ref_sum(tcp, 252 - 38, sum), 0xffff);
	}
	CU_ASSERT(sport[0] != sport[1] || sport[1] != sport[2]);

	CU_ASSERT_EQUAL(file.streams[1].port, 1);
	CU_ASSERT_EQUAL(p.flows[1].packets, 24);
	stream_frames(&file.streams[1], 24, &fr);
	CU_ASSERT_EQUAL(fr.count, 24);
	CU_ASSERT_EQUAL(fr.rate.unit, WR_RATE_PERCENT);
	CU_ASSERT_EQUAL(fr.rate.value, 100000);
	CU_ASSERT_EQUAL(fr.train_frames, 0);
	for (k = 0; k < fr.n; k++) {
		const uint8_t *f = fr.b[k], *ip = f + 14;

		n64 += fr.len[k] == 124;
		CU_ASSERT(fr.len[k] == 124 || fr.len[k] == 566 || fr.len[k] == 1514);
		CU_ASSERT(mac_is(f, "00:00:00:00:00:00"));
		CU_ASSERT(mac_is(f + 6, "02:00:00:00:00:02"));
		CU_ASSERT_EQUAL(be32(ip) & 0xfffff, 7 + k % 3);
		CU_ASSERT_EQUAL(be16(ip + 40), 4000);
		CU_ASSERT_EQUAL(be16(ip + 42), 5000 + k % 4);
		CU_ASSERT_EQUAL(sum6(ip, ip + 40, fr.len[k] - 54, 17), 0);
	}
	CU_ASSERT_EQUAL(n64, 14);
	wr_stream_file_free(&file);
	free(yaml);
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
	json_decref(cfg);
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

	/* The one value the stack always writes is taken. */
	rc = flow_frames(ETH_IP4_UDP("", "\"header_length\": " V(5), "", ""), 1,
			 &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, 0);
	rc = flow_frames(ETH_IP4_UDP("", "\"header_length\": " V(6), "", ""), 1,
			 &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[1].ipv4.header_length: "
			       "computed by wirerate on every frame (auto): no "
			       "value can be given but the one it computes");
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
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].tx_rx.port.tx_name: no "
			       "port named \"nope\"");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 1)),
			       "flows[0].packet[1].lacp: not supported: "
			       "wirerate has no LACP layer");
	wr_otg_err_free(&err);

	rc = flow_frames(FLOW("{\"choice\": \"ipv4\"}, {\"choice\": \"udp\"}", ""),
			 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[0]: ipv4: wirerate's "
			       "frames start with an ethernet header");
	wr_otg_err_free(&err);

	/* GTPv1's optional fields without their flags: 0 (as snappi writes
	 * them) is taken, another value refused. */
	rc = flow_frames(FLOW("{\"choice\": \"ethernet\"}, {\"choice\": \"ipv4\"},"
			      "{\"choice\": \"udp\"}, {\"choice\": \"gtpv1\", "
			      "\"gtpv1\": {\"squence_number\": " V(0) ", "
			      "\"n_pdu_number\": " V(3) "}}", ""), 1, &fr, &fl, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(err0(&err), "flows[0].packet[3].gtpv1.n_pdu_number: "
			       "sent only with pn_flag 1 (else 0)");
	CU_ASSERT_EQUAL(json_array_size(err.errors), 1);
	wr_otg_err_free(&err);
}

static CU_TestInfo flow_tests[] = {
	{ "values", test_values },
	{ "defaults", test_defaults },
	{ "counters", test_counters },
	{ "wrap", test_wrap },
	{ "vlan_ipv6_tcp", test_vlan_ipv6_tcp },
	{ "mpls_icmp", test_mpls_icmp },
	{ "arp_custom", test_arp_custom },
	{ "tunnels", test_tunnels },
	{ "srh", test_srh },
	{ "sizes", test_sizes },
	{ "rates", test_rates },
	{ "schedule", test_schedule },
	{ "devices", test_devices },
	{ "update", test_update },
	{ "snappi", test_snappi },
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
