/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_igmp: the `igmp:` key, queries parsed, joins, answers within max response time, v2 compatibility and suppression, leaves; scapy decodes the reports. */
#include <errno.h>

#include "wr_igmp.h"
#include "wr_test_mcast.h"

static const struct wr_host_proto *P = &wr_host_proto_igmp;

/* ---- the key ---- */

static void
test_cfg(void)
{
	struct wr_mcast_cfg *c = NULL;
	char e[512];

	CU_ASSERT_EQUAL(parse_key(P, "igmp:\n  groups:\n"
		"    - {group: 239.1.1.1, count: 10, step: 0.0.1.0}\n"
		"    - {group: 232.1.1.1, sources: [10.9.9.1, 10.9.9.2]}\n",
		(void **)&c, e, sizeof(e)), 0);
	CU_ASSERT_STRING_EQUAL(e, "");
	if (!c)
		return;
	CU_ASSERT_EQUAL(c->version, 3);
	CU_ASSERT_EQUAL(c->robustness, 2);
	CU_ASSERT_EQUAL(c->unsolicited_ms, 1000);
	CU_ASSERT_EQUAL(c->per_host, WR_MCAST_PER_HOST_ALL);
	CU_ASSERT_EQUAL(c->n_ranges, 2);
	CU_ASSERT_EQUAL(c->n_groups, 11);
	CU_ASSERT_TRUE(c->r[0].group == 0xef010101u);
	CU_ASSERT_TRUE(c->r[0].step == 0x100);
	CU_ASSERT_EQUAL(c->r[0].mode, WR_MCAST_EXCLUDE);
	CU_ASSERT_EQUAL(c->r[1].mode, WR_MCAST_INCLUDE);
	CU_ASSERT_EQUAL(c->r[1].n_src, 2);
	CU_ASSERT_TRUE(c->r[1].src[1] == 0x0a090902u);
	free(c);
	c = NULL;
	CU_ASSERT_EQUAL(parse_key(P, "igmp: {version: 2, per_host: one, "
		"robustness: 3, unsolicited_interval: 500ms, groups: "
		"[{group: 239.0.0.1, count: 1000}]}\n", (void **)&c, e,
		sizeof(e)), 0);
	if (!c)
		return;
	CU_ASSERT_EQUAL(c->version, 2);
	CU_ASSERT_EQUAL(c->robustness, 3);
	CU_ASSERT_EQUAL(c->unsolicited_ms, 500);
	CU_ASSERT_EQUAL(c->per_host, WR_MCAST_PER_HOST_ONE);
	free(c);
	c = NULL;
	/* v2's default interval is RFC 2236's 10 s. */
	CU_ASSERT_EQUAL(parse_key(P, "igmp: {version: 2, groups: "
		"[{group: 239.0.0.1}]}\n", (void **)&c, e, sizeof(e)), 0);
	if (c)
		CU_ASSERT_EQUAL(c->unsolicited_ms, 10000);
	free(c);
}

/* Every wrong value refused at its line and column. */
static void
test_cfg_errors(void)
{
	static const struct {
		const char *yaml;
		const char *err;
	} bad[] = {
		{ "igmp: {groups: [{group: 10.0.0.1}]}\n",
		  "h.yaml:1:25: igmp.groups[0].group: expected a multicast group (224.0.0.0/4, not 224.0.0.1), got \"10.0.0.1\"" },
		{ "igmp: {groups: [{group: 224.0.0.1}]}\n",
		  "h.yaml:1:25: igmp.groups[0].group: expected a multicast group (224.0.0.0/4, not 224.0.0.1), got \"224.0.0.1\"" },
		{ "igmp: {version: 4, groups: [{group: 239.0.0.1}]}\n",
		  "h.yaml:1:17: igmp.version:" },
		{ "igmp:\n  groups:\n    - group: 239.255.255.255\n      count: 2\n",
		  "h.yaml:4:14: igmp.groups[0].count: expected a count whose groups stay multicast" },
		{ "igmp: {version: 2, groups: [{group: 232.1.1.1, sources: [10.0.0.1]}]}\n",
		  "h.yaml:1:57: igmp.groups[0].sources: sources need version 3 (IGMPv2 cannot name sources)" },
		{ "igmp: {groups: [{group: 232.1.1.1, mode: include}]}\n",
		  "h.yaml:1:42: igmp.groups[0].mode: mode include needs sources" },
		{ "igmp: {groups: [{group: 232.1.1.1, mode: any}]}\n",
		  "h.yaml:1:42: igmp.groups[0].mode: expected include or exclude, got \"any\"" },
		{ "igmp: {groups: [{group: 232.1.1.1, sources: [239.1.1.1]}]}\n",
		  "h.yaml:1:46: igmp.groups[0].sources[0]: expected a unicast source address, got \"239.1.1.1\"" },
		{ "igmp: {groups: [{group: 232.1.1.1, sources: [10.0.0.1, 10.0.0.1]}]}\n",
		  "h.yaml:1:56: igmp.groups[0].sources[1]: source listed twice" },
		{ "igmp: {groups: [{group: 239.0.0.1, count: 17}]}\n",
		  "h.yaml:1:16: igmp.groups: per_host: all makes each host a member of 17 groups, at most 16" },
		{ "igmp: {per_host: some, groups: [{group: 239.0.0.1}]}\n",
		  "h.yaml:1:18: igmp.per_host: expected all (every host joins every group) or one" },
		{ "igmp: {robustness: 0, groups: [{group: 239.0.0.1}]}\n",
		  "h.yaml:1:20: igmp.robustness:" },
		{ "igmp: {unsolicited_interval: 0, groups: [{group: 239.0.0.1}]}\n",
		  "h.yaml:1:30: igmp.unsolicited_interval: expected a whole number of ms from 1ms to 1h" },
		{ "igmp: {version: 3}\n",
		  "h.yaml:1:7: igmp: missing" },
		{ "igmp: {groups: [{group: 239.0.0.1, port: 1}]}\n",
		  "h.yaml:1:36: igmp.groups[0].port:" },
		{ "igmp: {groups: [{group: 239.0.0.1, count: 0}]}\n",
		  "h.yaml:1:43: igmp.groups[0].count:" },
		{ "igmp: {groups: []}\n",
		  "h.yaml:1:16: igmp.groups: expected a list of 1 to 16 groups" },
		{ "igmp: 3\n",
		  "h.yaml:1:7: igmp: expected a mapping" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *c = NULL;
		char e[512];

		CU_ASSERT_EQUAL(parse_key(P, bad[i].yaml, &c, e, sizeof(e)),
				-EINVAL);
		CU_ASSERT_PTR_NULL(c);
		if (strncmp(e, bad[i].err, strlen(bad[i].err)) != 0) {
			fprintf(stderr, "\n  case %zu: got  %s\n  want %s\n", i,
				e, bad[i].err);
			CU_FAIL("error message");
		}
	}
}

/* ---- messages ---- */

static uint32_t
msg_q(uint8_t *m, uint8_t code, uint32_t group, const uint32_t *src,
      uint16_t n_src, bool v3)
{
	uint32_t len = v3 ? 12u + 4u * n_src : 8;
	uint16_t c;

	memset(m, 0, len);
	m[0] = 0x11;
	m[1] = code;
	for (int i = 0; i < 4; i++)
		m[4 + i] = (uint8_t)(group >> (24 - 8 * i));
	if (v3) {
		m[8] = 2;       /* QRV */
		m[9] = 125;     /* QQIC */
		m[10] = (uint8_t)(n_src >> 8);
		m[11] = (uint8_t)n_src;
		for (uint16_t j = 0; j < n_src; j++)
			for (int i = 0; i < 4; i++)
				m[12 + 4 * j + i] =
					(uint8_t)(src[j] >> (24 - 8 * i));
	}
	c = (uint16_t)~wr_csum_sum(m, len);
	m[2] = (uint8_t)(c >> 8);
	m[3] = (uint8_t)c;
	return len;
}

static void
test_codes(void)
{
	/* RFC 3376 section 4.1.1: below 128 as is; 1|exp|mant: (mant |
	 * 0x10) << (exp + 3). */
	CU_ASSERT_EQUAL(wr_mcast_code8(100), 100);
	CU_ASSERT_EQUAL(wr_mcast_code8(127), 127);
	CU_ASSERT_EQUAL(wr_mcast_code8(0x80), 128);
	CU_ASSERT_EQUAL(wr_mcast_code8(0x8a), 208);
	CU_ASSERT_EQUAL(wr_mcast_code8(0xff), 31744);
	/* RFC 3810 section 5.1.3: 16 bits, (mant | 0x1000) << (exp + 3). */
	CU_ASSERT_EQUAL(wr_mcast_code16(10000), 10000);
	CU_ASSERT_EQUAL(wr_mcast_code16(0x8000), 32768);
	CU_ASSERT_EQUAL(wr_mcast_code16(0xffff), 8387584);
}

static void
test_parse(void)
{
	static const uint32_t src[2] = {0x0a090901, 0x0a090902};
	struct wr_mcast_query q;
	enum wr_mcast_counter bad = 0;
	__uint128_t g = 0;
	uint8_t m[64];
	uint32_t len;

	len = msg_q(m, 0, 0, NULL, 0, false);
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), WR_MCAST_MSG_QUERY);
	CU_ASSERT_EQUAL(q.version, WR_MCAST_V1);
	CU_ASSERT_EQUAL(q.max_resp_ms, 10000);
	len = msg_q(m, 50, 0xef010101, NULL, 0, false);
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), WR_MCAST_MSG_QUERY);
	CU_ASSERT_EQUAL(q.version, WR_MCAST_V2);
	CU_ASSERT_EQUAL(q.max_resp_ms, 5000);
	CU_ASSERT_TRUE(q.group == 0xef010101u);
	len = msg_q(m, 0x8a, 0xe8010101, src, 2, true);
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), WR_MCAST_MSG_QUERY);
	CU_ASSERT_EQUAL(q.version, WR_MCAST_V3);
	CU_ASSERT_EQUAL(q.max_resp_ms, 20800);
	CU_ASSERT_EQUAL(q.n_src, 2);
	CU_ASSERT_PTR_EQUAL(q.src, m + 12);
	/* Malformed: each reason its counter. */
	CU_ASSERT_EQUAL(wr_igmp_parse(m, 7, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_short);
	m[3] ^= 1;
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_checksum);
	len = msg_q(m, 100, 0, NULL, 0, true);
	len = 10;
	m[2] = m[3] = 0;
	{
		uint16_t c = (uint16_t)~wr_csum_sum(m, len);

		m[2] = (uint8_t)(c >> 8);
		m[3] = (uint8_t)c;
	}
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_length);
	/* 3 sources said, 2 there. */
	len = msg_q(m, 100, 0xe8010101, src, 2, true);
	m[11] = 3;
	m[2] = m[3] = 0;
	{
		uint16_t c = (uint16_t)~wr_csum_sum(m, len);

		m[2] = (uint8_t)(c >> 8);
		m[3] = (uint8_t)c;
	}
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_short);
	len = msg_q(m, 100, 0x0a000001, NULL, 0, true);
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_group);
	/* Another host's v2 report. */
	len = msg_q(m, 0, 0xef010102, NULL, 0, false);
	m[0] = 0x16;
	m[2] = m[3] = 0;
	{
		uint16_t c = (uint16_t)~wr_csum_sum(m, len);

		m[2] = (uint8_t)(c >> 8);
		m[3] = (uint8_t)c;
	}
	CU_ASSERT_EQUAL(wr_igmp_parse(m, len, &q, &g, &bad), WR_MCAST_MSG_REPORT);
	CU_ASSERT_TRUE(g == 0xef010102u);
}

/* ---- hosts ---- */

/* A query frame from the querier 10.0.0.1 (02:aa:00:00:00:01) to @p dst
 * with the router alert option, TTL 1. */
static uint32_t
frame_q(uint8_t *f, uint32_t dst, const uint8_t *m, uint32_t mlen)
{
	static const uint8_t smac[6] = {0x02, 0xaa, 0, 0, 0, 1};
	uint8_t *ip = f + 14;
	uint16_t c;

	f[0] = 0x01;
	f[1] = 0x00;
	f[2] = 0x5e;
	f[3] = (uint8_t)((dst >> 16) & 0x7f);
	f[4] = (uint8_t)(dst >> 8);
	f[5] = (uint8_t)dst;
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, 24);
	ip[0] = 0x46;
	ip[1] = 0xc0;
	ip[2] = (uint8_t)((24 + mlen) >> 8);
	ip[3] = (uint8_t)(24 + mlen);
	ip[8] = 1;
	ip[9] = 2;
	ip[12] = 10;
	ip[15] = 1;
	for (int i = 0; i < 4; i++)
		ip[16 + i] = (uint8_t)(dst >> (24 - 8 * i));
	ip[20] = 0x94;
	ip[21] = 4;
	c = (uint16_t)~wr_csum_sum(ip, 24);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	memcpy(ip + 24, m, mlen);
	return 14 + 24 + mlen;
}

static void
query(struct wr_hosts *hs, uint8_t code, uint32_t group, const uint32_t *src,
      uint16_t n_src, bool v3)
{
	uint8_t m[128], f[256];
	uint32_t mlen = msg_q(m, code, group, src, n_src, v3);

	inject(hs, f, frame_q(f, group ? group : 0xe0000001u, m, mlen));
}

static const uint8_t *
igmp_of(uint32_t i, uint32_t *len)
{
	const uint8_t *ip = sent[i].f + 14;
	uint32_t ihl = (ip[0] & 0xf) * 4u;

	*len = (uint32_t)(ip[2] << 8 | ip[3]) - ihl;
	return ip + ihl;
}

static uint32_t
ip4_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* A sent frame in words: "h2 v3 [TO_EX 239.1.1.1] [ALLOW 232.1.1.1 10.9.9.1
 * 10.9.9.2]", "h0 v2 239.1.1.1", "h1 leave 239.1.1.1", after checking what
 * every IGMP frame must be (TTL 1, router alert, checksums, MAC of the
 * destination). */
static void
words(uint32_t i, char *out, size_t cap)
{
	static const char *const rt[] = {"?", "IS_IN", "IS_EX", "TO_IN",
					 "TO_EX", "ALLOW", "BLOCK"};
	const uint8_t *f = sent[i].f, *ip = f + 14, *m;
	uint32_t len, dst = ip4_at(ip + 16);
	size_t o;

	CU_ASSERT_EQUAL(ip[0], 0x46);
	CU_ASSERT_EQUAL(ip[8], 1);
	CU_ASSERT_EQUAL(ip[20], 0x94);
	CU_ASSERT_EQUAL(ip[21], 4);
	CU_ASSERT_EQUAL(wr_csum_sum(ip, 24), 0xffff);
	CU_ASSERT_TRUE(f[0] == 1 && f[1] == 0 && f[2] == 0x5e &&
		       f[3] == ((dst >> 16) & 0x7f) && f[5] == (dst & 0xff));
	m = igmp_of(i, &len);
	CU_ASSERT_EQUAL(wr_csum_sum(m, len), 0xffff);
	/* Source: the host's address, 10.0.0.10 + k. */
	o = (size_t)snprintf(out, cap, "h%u", ip4_at(ip + 12) - 0x0a00000a);
	if (m[0] == 0x22) {
		uint32_t nrec = (uint32_t)(m[6] << 8 | m[7]), p = 8;

		CU_ASSERT_EQUAL(dst, 0xe0000016u);
		o += (size_t)snprintf(out + o, cap - o, " v3");
		for (uint32_t r = 0; r < nrec && p + 8 <= len; r++) {
			uint32_t ns = (uint32_t)(m[p + 2] << 8 | m[p + 3]);
			uint32_t g = ip4_at(m + p + 4);

			o += (size_t)snprintf(out + o, cap - o,
				" [%s %u.%u.%u.%u", m[p] < 7 ? rt[m[p]] : "?",
				g >> 24, (g >> 16) & 255, (g >> 8) & 255, g & 255);
			for (uint32_t s = 0; s < ns; s++) {
				uint32_t a = ip4_at(m + p + 8 + 4 * s);

				o += (size_t)snprintf(out + o, cap - o,
					" %u.%u.%u.%u", a >> 24,
					(a >> 16) & 255, (a >> 8) & 255,
					a & 255);
			}
			o += (size_t)snprintf(out + o, cap - o, "]");
			p += 8 + 4 * ns;
		}
		CU_ASSERT_EQUAL(p, len);
		return;
	}
	{
		uint32_t g = ip4_at(m + 4);

		CU_ASSERT_EQUAL(len, 8);
		CU_ASSERT_TRUE(m[0] == 0x17 ? dst == 0xe0000002u : dst == g);
		snprintf(out + o, cap - o, " %s %u.%u.%u.%u",
			 m[0] == 0x12 ? "v1" : m[0] == 0x16 ? "v2" :
			 m[0] == 0x17 ? "leave" : "?", g >> 24,
			 (g >> 16) & 255, (g >> 8) & 255, g & 255);
	}
}

static bool
is_igmp(uint32_t i)
{
	const uint8_t *f = sent[i].f;

	return f[12] == 0x08 && f[13] == 0x00 && f[14 + 9] == 2;
}

/* The IGMP frames sent since index @p from, in words, one per line. */
static void
igmp_since(uint32_t from, char *out, size_t cap)
{
	size_t o = 0;

	out[0] = 0;
	for (uint32_t i = from; i < n_sent && o < cap; i++) {
		char w[512];

		if (!is_igmp(i))
			continue;
		words(i, w, sizeof(w));
		o += (size_t)snprintf(out + o, cap - o, "%s\n", w);
	}
}

static void *
cfg_of_text(const char *yaml)
{
	void *c = NULL;
	char e[512];

	CU_ASSERT_EQUAL(parse_key(P, yaml, &c, e, sizeof(e)), 0);
	if (e[0])
		fprintf(stderr, "%s\n", e);
	return c;
}

#define V3_CFG "igmp:\n  groups:\n" \
	"    - {group: 239.1.1.1, count: 2}\n" \
	"    - {group: 232.1.1.1, sources: [10.9.9.1, 10.9.9.2]}\n"

static void
test_v3_join_answer_leave(void)
{
	static const uint32_t asked[2] = {0x0a090902, 0x0a090907};
	static const uint32_t other[1] = {0x0a090907};
	struct wr_hosts *hs = port_of(2, WR_HOST_PROTO_igmp, cfg_of_text(V3_CFG));
	char out[4096];
	uint32_t from, idx[64], n;
	uint64_t t0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 5 * MS);
	igmp_since(0, out, sizeof(out));
	/* The join: TO_EX({}) for any-source groups, ALLOW(S) for
	 * source-specific ones (RFC 3376 section 5.1). */
	CU_ASSERT_STRING_EQUAL(out,
		"h0 v3 [TO_EX 239.1.1.1] [TO_EX 239.1.1.2] [ALLOW 232.1.1.1 10.9.9.1 10.9.9.2]\n"
		"h1 v3 [TO_EX 239.1.1.1] [TO_EX 239.1.1.2] [ALLOW 232.1.1.1 10.9.9.1 10.9.9.2]\n");
	CU_ASSERT_STRING_EQUAL(P->state(hs, 0), "member of 3");
	/* Robustness 2: one more each within the unsolicited interval (1 s),
	 * then nothing. */
	from = n_sent;
	t0 = clk;
	run_to(hs, clk + 5000 * MS);
	n = sent_of(from, 0x0800, 2, idx, 64);
	CU_ASSERT_EQUAL(n, 2);
	for (uint32_t i = 0; i < n && i < 64; i++)
		CU_ASSERT_TRUE(sent[idx[i]].at > t0 && sent[idx[i]].at <= t0 + 1000 * MS);
	CU_ASSERT_EQUAL(ctr(hs, P, "reports_sent"), 4);

	/* A general query, Max Resp Code 0x8a: 20.8 s; each host answers
	 * once with its current state, within it. */
	from = n_sent;
	t0 = clk;
	query(hs, 0x8a, 0, NULL, 0, true);
	run_to(hs, clk + 25000 * MS);
	n = sent_of(from, 0x0800, 2, idx, 64);
	CU_ASSERT_EQUAL(n, 2);
	for (uint32_t i = 0; i < n && i < 64; i++)
		CU_ASSERT_TRUE(sent[idx[i]].at <= t0 + 20800 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v3 [IS_EX 239.1.1.1] [IS_EX 239.1.1.2] [IS_IN 232.1.1.1 10.9.9.1 10.9.9.2]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h1 v3 [IS_EX 239.1.1.1] [IS_EX 239.1.1.2] [IS_IN 232.1.1.1 10.9.9.1 10.9.9.2]\n"));
	CU_ASSERT_EQUAL(ctr(hs, P, "queries_general"), 1);
	CU_ASSERT_EQUAL(ctr(hs, P, "answered_general"), 2);

	/* Group-specific, 1 s: that group's record alone. */
	from = n_sent;
	t0 = clk;
	query(hs, 10, 0xef010102, NULL, 0, true);
	run_to(hs, clk + 2000 * MS);
	n = sent_of(from, 0x0800, 2, idx, 64);
	CU_ASSERT_EQUAL(n, 2);
	for (uint32_t i = 0; i < n && i < 64; i++)
		CU_ASSERT_TRUE(sent[idx[i]].at <= t0 + 1000 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v3 [IS_EX 239.1.1.2]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h1 v3 [IS_EX 239.1.1.2]\n"));
	CU_ASSERT_EQUAL(ctr(hs, P, "answered_group"), 2);

	/* Group-and-source-specific: IS_IN of the asked sources the host
	 * includes; a query for none of them goes unanswered. */
	from = n_sent;
	t0 = clk;
	query(hs, 10, 0xe8010101, asked, 2, true);
	run_to(hs, clk + 2000 * MS);
	query(hs, 10, 0xe8010101, other, 1, true);
	run_to(hs, clk + 2000 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v3 [IS_IN 232.1.1.1 10.9.9.2]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h1 v3 [IS_IN 232.1.1.1 10.9.9.2]\n"));
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 64), 2);
	CU_ASSERT_EQUAL(ctr(hs, P, "queries_group_source"), 2);
	CU_ASSERT_EQUAL(ctr(hs, P, "answered_group_source"), 2);
	/* A query for a group nobody joined: nothing. */
	from = n_sent;
	query(hs, 10, 0xef090909, NULL, 0, true);
	run_to(hs, clk + 2000 * MS);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 64), 0);

	/* Stop: TO_IN({}) and BLOCK(S). */
	from = n_sent;
	wr_hosts_stop(hs, clk);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out,
		"h0 v3 [TO_IN 239.1.1.1] [TO_IN 239.1.1.2] [BLOCK 232.1.1.1 10.9.9.1 10.9.9.2]\n"
		"h1 v3 [TO_IN 239.1.1.1] [TO_IN 239.1.1.2] [BLOCK 232.1.1.1 10.9.9.1 10.9.9.2]\n");
	CU_ASSERT_EQUAL(ctr(hs, P, "leaves_sent"), 2);
	CU_ASSERT_STRING_EQUAL(P->state(hs, 0), "left");
	wr_hosts_free(hs);
}

/* RFC 3376 section 5.2's rules: a group-specific query while a general
 * answer is due sooner adds nothing; two source queries merge. */
static void
test_v3_merge(void)
{
	static const uint32_t s1[1] = {0x0a090901};
	static const uint32_t s2[1] = {0x0a090902};
	struct wr_hosts *hs = port_of(1, WR_HOST_PROTO_igmp, cfg_of_text(V3_CFG));
	char out[4096];
	uint32_t from;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 3000 * MS);
	from = n_sent;
	query(hs, 10, 0xe8010101, s1, 1, true);
	query(hs, 10, 0xe8010101, s2, 1, true);
	run_to(hs, clk + 1100 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "h0 v3 [IS_IN 232.1.1.1 10.9.9.1 10.9.9.2]\n");
	/* A source query then a group query: the whole group. */
	from = n_sent;
	query(hs, 10, 0xe8010101, s1, 1, true);
	query(hs, 10, 0xe8010101, NULL, 0, true);
	run_to(hs, clk + 1100 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "h0 v3 [IS_IN 232.1.1.1 10.9.9.1 10.9.9.2]\n");
	/* General with 0.1 s pending, then a group query of 10 s: the
	 * general answer covers it (rule 1). */
	from = n_sent;
	query(hs, 1, 0, NULL, 0, true);
	query(hs, 100, 0xef010101, NULL, 0, true);
	run_to(hs, clk + 11000 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "h0 v3 [IS_EX 239.1.1.1] [IS_EX 239.1.1.2] [IS_IN 232.1.1.1 10.9.9.1 10.9.9.2]\n");
	wr_hosts_free(hs);
}

/* A v3 host hearing a v2 querier: v2 reports per group, to the group,
 * within the v2 query's max response time (RFC 3376 section 7.2.1). */
static void
test_v3_compat_v2(void)
{
	struct wr_hosts *hs = port_of(1, WR_HOST_PROTO_igmp, cfg_of_text(
		"igmp: {groups: [{group: 239.1.1.1, count: 2}]}\n"));
	char out[4096];
	uint32_t from, idx[16], n;
	uint64_t t0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 3000 * MS);
	from = n_sent;
	t0 = clk;
	query(hs, 30, 0, NULL, 0, false);
	run_to(hs, clk + 4000 * MS);
	n = sent_of(from, 0x0800, 2, idx, 16);
	CU_ASSERT_EQUAL(n, 2);
	for (uint32_t i = 0; i < n && i < 16; i++)
		CU_ASSERT_TRUE(sent[idx[i]].at <= t0 + 3000 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v2 239.1.1.1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v2 239.1.1.2\n"));
	CU_ASSERT_EQUAL(ctr(hs, P, "compat_changes"), 1);
	/* Leaving in v2 mode: leaves to 224.0.0.2. */
	from = n_sent;
	wr_hosts_stop(hs, clk);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "h0 leave 239.1.1.1\nh0 leave 239.1.1.2\n");
	wr_hosts_free(hs);
}

/* An IGMPv2 host (RFC 2236): reports to the group, repeated after the
 * unsolicited interval; another host's report suppresses its answer; a v1
 * querier makes its reports v1 and its leave silent. */
static void
test_v2(void)
{
	struct wr_hosts *hs = port_of(2, WR_HOST_PROTO_igmp, cfg_of_text(
		"igmp: {version: 2, groups: [{group: 239.1.1.1, count: 2}]}\n"));
	char out[4096];
	uint32_t from, idx[16], n;
	uint8_t m[16], f[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 5 * MS);
	igmp_since(0, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "h0 v2 239.1.1.1\nh0 v2 239.1.1.2\n"
			       "h1 v2 239.1.1.1\nh1 v2 239.1.1.2\n");
	/* Repeated once, 10 s later (RFC 2236 section 8.10). */
	from = n_sent;
	run_to(hs, clk + 9990 * MS);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 16), 0);
	run_to(hs, clk + 20 * MS);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 16), 4);
	run_to(hs, clk + 20000 * MS);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 16), 4);

	/* A group query of 10 s, and at once another host's report for it:
	 * no host answers (section 3: "stop its timer"). */
	from = n_sent;
	query(hs, 100, 0xef010102, NULL, 0, false);
	n = msg_q(m, 0, 0xef010102, NULL, 0, false);
	m[0] = 0x16;
	m[2] = m[3] = 0;
	{
		uint16_t c = (uint16_t)~wr_csum_sum(m, n);

		m[2] = (uint8_t)(c >> 8);
		m[3] = (uint8_t)c;
	}
	inject(hs, f, frame_q(f, 0xef010102, m, n));
	run_to(hs, clk + 11000 * MS);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 16), 0);
	CU_ASSERT_EQUAL(ctr(hs, P, "suppressed"), 2);

	/* A v1 query (code 0: 10 s): v1 reports, and no leave after. */
	from = n_sent;
	query(hs, 0, 0, NULL, 0, false);
	run_to(hs, clk + 10100 * MS);
	igmp_since(from, out, sizeof(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v1 239.1.1.1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h1 v1 239.1.1.2\n"));
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 16), 4);
	from = n_sent;
	wr_hosts_stop(hs, clk);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 16), 0);
	wr_hosts_free(hs);
}

/* per_host: one: host k joins group k mod n. */
static void
test_per_host_one(void)
{
	struct wr_hosts *hs = port_of(4, WR_HOST_PROTO_igmp, cfg_of_text(
		"igmp: {version: 2, per_host: one, groups: "
		"[{group: 239.1.1.1, count: 2}, {group: 239.2.2.2}]}\n"));
	char out[4096];

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 5 * MS);
	igmp_since(0, out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "h0 v2 239.1.1.1\nh1 v2 239.1.1.2\n"
			       "h2 v2 239.2.2.2\nh3 v2 239.1.1.1\n");
	CU_ASSERT_STRING_EQUAL(P->state(hs, 3), "member of 1");
	wr_hosts_free(hs);
}

/* Malformed queries from the wire: counted, dropped, nothing answered. */
static void
test_malformed(void)
{
	struct wr_hosts *hs = port_of(2, WR_HOST_PROTO_igmp, cfg_of_text(V3_CFG));
	uint8_t m[64], f[128];
	uint32_t from, len, idx[8];

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 3000 * MS);
	from = n_sent;
	len = msg_q(m, 10, 0, NULL, 0, true);
	m[3] ^= 0x55;
	inject(hs, f, frame_q(f, 0xe0000001, m, len));
	len = msg_q(m, 10, 0, NULL, 0, true);
	inject(hs, f, frame_q(f, 0xe0000001, m, 10));
	inject(hs, f, frame_q(f, 0xe0000001, m, 4));
	run_to(hs, clk + 2000 * MS);
	CU_ASSERT_EQUAL(sent_of(from, 0x0800, 2, idx, 8), 0);
	CU_ASSERT_EQUAL(ctr(hs, P, "bad_checksum"), 1);
	CU_ASSERT_EQUAL(ctr(hs, P, "bad_short") + ctr(hs, P, "bad_length"), 2);
	CU_ASSERT_EQUAL(ctr(hs, P, "queries_general"), 0);
	wr_hosts_free(hs);
}

/* The reports as scapy (an IGMPv3 decoder we did not write) reads them. */
static void
test_scapy(void)
{
	static const uint32_t asked[1] = {0x0a090901};
	static const char script[] =
		"import sys\n"
		"from scapy.all import rdpcap, IP\n"
		"from scapy.contrib.igmpv3 import IGMPv3, IGMPv3mr\n"
		"for p in rdpcap(sys.argv[1]):\n"
		"    ip = p[IP]\n"
		"    q = IP(bytes(ip))\n"
		"    del q.chksum\n"
		"    del q[IGMPv3].chksum\n"
		"    q = IP(bytes(q))\n"
		"    ok = q.chksum == ip.chksum and q[IGMPv3].chksum == p[IGMPv3].chksum\n"
		"    print(ip.src, ip.dst, ip.ttl, [o.__class__.__name__ for o in ip.options], p[IGMPv3].type, ok,\n"
		"          [(r.rtype, r.maddr, list(r.srcaddrs)) for r in p[IGMPv3mr].records])\n";
	static const char want[] =
		"10.0.0.10 224.0.0.22 1 ['IPOption_Router_Alert'] 34 True [(4, '239.1.1.1', []), (4, '239.1.1.2', []), (5, '232.1.1.1', ['10.9.9.1', '10.9.9.2'])]\n"
		"10.0.0.10 224.0.0.22 1 ['IPOption_Router_Alert'] 34 True [(4, '239.1.1.1', []), (4, '239.1.1.2', []), (5, '232.1.1.1', ['10.9.9.1', '10.9.9.2'])]\n"
		"10.0.0.10 224.0.0.22 1 ['IPOption_Router_Alert'] 34 True [(1, '232.1.1.1', ['10.9.9.1'])]\n"
		"10.0.0.10 224.0.0.22 1 ['IPOption_Router_Alert'] 34 True [(3, '239.1.1.1', []), (3, '239.1.1.2', []), (6, '232.1.1.1', ['10.9.9.1', '10.9.9.2'])]\n";
	struct wr_hosts *hs = port_of(1, WR_HOST_PROTO_igmp, cfg_of_text(V3_CFG));
	char out[4096], path[] = "/tmp/wr-test-igmp-XXXXXX";
	uint32_t idx[16], n;
	int fd, rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 1500 * MS);
	query(hs, 10, 0xe8010101, asked, 1, true);
	run_to(hs, clk + 1100 * MS);
	wr_hosts_stop(hs, clk);
	n = sent_of(0, 0x0800, 2, idx, 16);
	CU_ASSERT_EQUAL(n, 4);
	fd = mkstemp(path);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL(write_pcap(path, idx, n), 0);
	rc = scapy_run(script, path, out, sizeof(out));
	unlink(path);
	wr_hosts_free(hs);
	if (rc == -1) {
		fprintf(stderr, "\n  scapy not installed (apt-get install python3-scapy): not decoded\n");
		return;
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(out, want);
	if (strcmp(out, want))
		fprintf(stderr, "\n  scapy says:\n%s", out);
}

static CU_TestInfo igmp_tests[] = {
	{ "cfg", test_cfg },
	{ "cfg_errors", test_cfg_errors },
	{ "codes", test_codes },
	{ "parse", test_parse },
	{ "v3_join_answer_leave", test_v3_join_answer_leave },
	{ "v3_merge", test_v3_merge },
	{ "v3_compat_v2", test_v3_compat_v2 },
	{ "v2", test_v2 },
	{ "per_host_one", test_per_host_one },
	{ "malformed", test_malformed },
	{ "scapy", test_scapy },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "igmp", .pTests = igmp_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	int rc = wr_test_main(argc, argv, suites);

	wr_host_specs_free(&specs);
	return rc;
}
