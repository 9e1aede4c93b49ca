/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_mld: the `mld:` key, queries parsed, joins with solicited-node groups, answers within max response time, MLDv1 compatibility, dones; scapy decodes the reports. */
#include <arpa/inet.h>
#include <errno.h>

#include "wr_mld.h"
#include "wr_test_mcast.h"

static const struct wr_host_proto *P = &wr_host_proto_mld;

#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))
#define QUERIER A6(0xfe80000000000000ull, 1)
#define ALL_NODES A6(0xff02000000000000ull, 1)

static void
put128(uint8_t *p, __uint128_t a)
{
	for (int i = 15; i >= 0; i--, a >>= 8)
		p[i] = (uint8_t)a;
}

static __uint128_t
get128(const uint8_t *p)
{
	__uint128_t a = 0;

	for (int i = 0; i < 16; i++)
		a = (a << 8) | p[i];
	return a;
}

static void
ntop(__uint128_t a, char *s)
{
	uint8_t b[16];

	put128(b, a);
	inet_ntop(AF_INET6, b, s, INET6_ADDRSTRLEN);
}

static void
test_cfg(void)
{
	struct wr_mcast_cfg *c = NULL;
	char e[512];

	CU_ASSERT_EQUAL(parse_key(P, "mld:\n  groups:\n"
		"    - {group: 'ff3e::8000:1', count: 3}\n"
		"    - {group: 'ff3e::1', sources: ['2001:db8::1'], mode: include}\n",
		(void **)&c, e, sizeof(e)), 0);
	CU_ASSERT_STRING_EQUAL(e, "");
	if (!c)
		return;
	CU_ASSERT_EQUAL(c->version, 2);
	CU_ASSERT_EQUAL(c->unsolicited_ms, 1000);
	CU_ASSERT_EQUAL(c->n_groups, 4);
	CU_ASSERT_TRUE(c->r[0].group == A6(0xff3e000000000000ull, 0x80000001));
	CU_ASSERT_TRUE(c->r[1].src[0] == A6(0x20010db800000000ull, 1));
	free(c);
	c = NULL;
	CU_ASSERT_EQUAL(parse_key(P, "mld: {version: 1, groups: [{group: 'ff05::1:3'}]}\n",
				  (void **)&c, e, sizeof(e)), 0);
	if (c) {
		CU_ASSERT_EQUAL(c->version, 1);
		CU_ASSERT_EQUAL(c->unsolicited_ms, 10000);
	}
	free(c);
}

static void
test_cfg_errors(void)
{
	static const struct {
		const char *yaml;
		const char *err;
	} bad[] = {
		{ "mld: {groups: [{group: 'ff02::1'}]}\n",
		  "h.yaml:1:24: mld.groups[0].group: expected a multicast group (ff00::/8 of link scope or wider, not ff02::1)" },
		{ "mld: {groups: [{group: 'ff01::5'}]}\n",
		  "h.yaml:1:24: mld.groups[0].group: expected a multicast group" },
		{ "mld: {groups: [{group: 239.1.1.1}]}\n",
		  "h.yaml:1:24: mld.groups[0].group:" },
		{ "mld: {version: 3, groups: [{group: 'ff3e::1'}]}\n",
		  "h.yaml:1:16: mld.version:" },
		{ "mld: {version: 1, groups: [{group: 'ff3e::1', sources: ['2001:db8::1']}]}\n",
		  "h.yaml:1:56: mld.groups[0].sources: sources need version 2 (MLDv1 cannot name sources)" },
		{ "mld: {groups: [{group: 'ff3e::1', sources: ['ff3e::2']}]}\n",
		  "h.yaml:1:45: mld.groups[0].sources[0]: expected a unicast source address" },
		{ "mld:\n  groups:\n    - group: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'\n      count: 2\n",
		  "h.yaml:4:14: mld.groups[0].count: expected a count whose groups stay multicast" },
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

static void
test_solicited_node(void)
{
	/* RFC 4291 section 2.7.1: ff02::1:ff and the low 24 bits. */
	CU_ASSERT_TRUE(wr_mld_solicited_node(A6(0x20010db800000000ull,
		0x0123456789abcdefull)) == A6(0xff02000000000000ull,
		0x00000001ffabcdefull));
}

/* A query message (v1: 24 bytes, v2: 28 + 16 a source); @p csum: the
 * checksum over the pseudo-header from @p src to @p dst. */
static uint32_t
msg_q(uint8_t *m, uint16_t code, __uint128_t group, const __uint128_t *srcs,
      uint16_t n_src, bool v2, __uint128_t src, __uint128_t dst)
{
	uint32_t len = v2 ? 28u + 16u * n_src : 24;
	uint8_t ph[40];
	uint16_t c;

	memset(m, 0, len);
	m[0] = 130;
	m[4] = (uint8_t)(code >> 8);
	m[5] = (uint8_t)code;
	put128(m + 8, group);
	if (v2) {
		m[24] = 2;
		m[25] = 125;
		m[26] = (uint8_t)(n_src >> 8);
		m[27] = (uint8_t)n_src;
		for (uint16_t j = 0; j < n_src; j++)
			put128(m + 28 + 16 * j, srcs[j]);
	}
	put128(ph, src);
	put128(ph + 16, dst);
	memset(ph + 32, 0, 8);
	ph[34] = (uint8_t)(len >> 8);
	ph[35] = (uint8_t)len;
	ph[39] = 58;
	c = (uint16_t)~wr_csum_fold((uint64_t)wr_csum_sum(ph, 40) +
				    wr_csum_sum(m, len));
	m[2] = (uint8_t)(c >> 8);
	m[3] = (uint8_t)c;
	return len;
}

static void
test_parse(void)
{
	static const __uint128_t srcs[1] = {A6(0x20010db800000000ull, 1)};
	__uint128_t grp = A6(0xff3e000000000000ull, 1), g = 0;
	struct wr_mcast_query q;
	enum wr_mcast_counter bad = 0;
	uint8_t m[128];
	uint32_t len;

	len = msg_q(m, 1000, 0, NULL, 0, false, QUERIER, ALL_NODES);
	CU_ASSERT_EQUAL(wr_mld_parse(m, len, QUERIER, ALL_NODES, 1, &q, &g, &bad),
			WR_MCAST_MSG_QUERY);
	CU_ASSERT_EQUAL(q.version, WR_MCAST_V2);
	CU_ASSERT_EQUAL(q.max_resp_ms, 1000);
	len = msg_q(m, 0x8000, grp, srcs, 1, true, QUERIER, grp);
	CU_ASSERT_EQUAL(wr_mld_parse(m, len, QUERIER, grp, 1, &q, &g, &bad),
			WR_MCAST_MSG_QUERY);
	CU_ASSERT_EQUAL(q.version, WR_MCAST_V3);
	CU_ASSERT_EQUAL(q.max_resp_ms, 32768);
	CU_ASSERT_EQUAL(q.n_src, 1);
	CU_ASSERT_TRUE(q.group == grp);
	/* The checksum covers the pseudo-header: another destination breaks it. */
	CU_ASSERT_EQUAL(wr_mld_parse(m, len, QUERIER, ALL_NODES, 1, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_checksum);
	CU_ASSERT_EQUAL(wr_mld_parse(m, len, QUERIER, grp, 2, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_hop_limit);
	len = msg_q(m, 1000, 0, NULL, 0, true, srcs[0], ALL_NODES);
	CU_ASSERT_EQUAL(wr_mld_parse(m, len, srcs[0], ALL_NODES, 1, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_source);
	len = msg_q(m, 1000, 0, NULL, 0, false, QUERIER, ALL_NODES);
	CU_ASSERT_EQUAL(wr_mld_parse(m, 20, QUERIER, ALL_NODES, 1, &q, &g, &bad), -EINVAL);
	CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_short);
	memset(m + 24, 0, 2);
	len = msg_q(m, 1000, 0, NULL, 0, false, QUERIER, ALL_NODES);
	{
		/* 26 bytes: neither version (RFC 3810 section 8.1). */
		uint8_t m2[26];

		memcpy(m2, m, 24);
		m2[24] = m2[25] = 0;
		len = 26;
		msg_q(m, 1000, 0, NULL, 0, true, QUERIER, ALL_NODES);
		memcpy(m2, m, 26);
		m2[2] = m2[3] = 0;
		{
			uint8_t ph[40] = {0};
			uint16_t c;

			put128(ph, QUERIER);
			put128(ph + 16, ALL_NODES);
			ph[35] = 26;
			ph[39] = 58;
			c = (uint16_t)~wr_csum_fold((uint64_t)wr_csum_sum(ph, 40) +
						    wr_csum_sum(m2, 26));
			m2[2] = (uint8_t)(c >> 8);
			m2[3] = (uint8_t)c;
		}
		CU_ASSERT_EQUAL(wr_mld_parse(m2, len, QUERIER, ALL_NODES, 1, &q, &g, &bad), -EINVAL);
		CU_ASSERT_EQUAL(bad, WR_MCAST_C_bad_length);
	}
}

/* ---- hosts ---- */

static uint32_t
frame_q(uint8_t *f, __uint128_t dst, const uint8_t *m, uint32_t mlen,
	uint8_t hop_limit)
{
	static const uint8_t smac[6] = {0x02, 0xaa, 0, 0, 0, 1};
	uint8_t *ip = f + 14;

	f[0] = 0x33;
	f[1] = 0x33;
	f[2] = (uint8_t)(dst >> 24);
	f[3] = (uint8_t)(dst >> 16);
	f[4] = (uint8_t)(dst >> 8);
	f[5] = (uint8_t)dst;
	memcpy(f + 6, smac, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	memset(ip, 0, 48);
	ip[0] = 0x60;
	ip[4] = (uint8_t)((8 + mlen) >> 8);
	ip[5] = (uint8_t)(8 + mlen);
	ip[6] = 0;
	ip[7] = hop_limit;
	put128(ip + 8, QUERIER);
	put128(ip + 24, dst);
	ip[40] = 58;
	ip[42] = 5;
	ip[43] = 2;
	ip[46] = 1;
	memcpy(ip + 48, m, mlen);
	return 14 + 48 + mlen;
}

static void
query(struct wr_hosts *hs, uint16_t code, __uint128_t group,
      const __uint128_t *srcs, uint16_t n_src, bool v2)
{
	__uint128_t dst = group ? group : ALL_NODES;
	uint8_t m[256], f[512];
	uint32_t mlen = msg_q(m, code, group, srcs, n_src, v2, QUERIER, dst);

	inject(hs, f, frame_q(f, dst, m, mlen, 1));
}

static bool
is_mld(uint32_t i)
{
	const uint8_t *f = sent[i].f;

	return f[12] == 0x86 && f[13] == 0xdd && f[14 + 6] == 0 &&
	       f[14 + 40] == 58;
}

/* A sent MLD frame in words ("h0 v2 [TO_EX ff3e::1] ...", "h1 v1 ff3e::1",
 * "h0 done ff3e::1"), its source into @p src, after the checks every MLD
 * frame must pass (hop limit 1, hop-by-hop router alert 0, ICMPv6
 * checksum, 33:33 MAC of the destination). */
static void
words(uint32_t i, char *out, size_t cap, __uint128_t *src)
{
	static const char *const rt[] = {"?", "IS_IN", "IS_EX", "TO_IN",
					 "TO_EX", "ALLOW", "BLOCK"};
	const uint8_t *f = sent[i].f, *ip = f + 14, *m = ip + 48;
	uint32_t len = (uint32_t)(ip[4] << 8 | ip[5]) - 8;
	__uint128_t dst = get128(ip + 24);
	char a[INET6_ADDRSTRLEN];
	uint64_t sum;
	size_t o;

	*src = get128(ip + 8);
	CU_ASSERT_EQUAL(ip[7], 1);
	CU_ASSERT_TRUE(ip[41] == 0 && ip[42] == 5 && ip[43] == 2 &&
		       ip[44] == 0 && ip[45] == 0);
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + len + 58 +
	      wr_csum_sum(m, len);
	CU_ASSERT_EQUAL(wr_csum_fold(sum), 0xffff);
	CU_ASSERT_TRUE(f[0] == 0x33 && f[1] == 0x33 &&
		       f[5] == (uint8_t)dst && f[2] == (uint8_t)(dst >> 24));
	o = (size_t)snprintf(out, cap, "h%u", f[11]);
	if (m[0] == 143) {
		uint32_t nrec = (uint32_t)(m[6] << 8 | m[7]), p = 8;

		CU_ASSERT_TRUE(dst == A6(0xff02000000000000ull, 0x16));
		o += (size_t)snprintf(out + o, cap - o, " v2");
		for (uint32_t r = 0; r < nrec && p + 20 <= len; r++) {
			uint32_t ns = (uint32_t)(m[p + 2] << 8 | m[p + 3]);

			ntop(get128(m + p + 4), a);
			o += (size_t)snprintf(out + o, cap - o, " [%s %s",
					      m[p] < 7 ? rt[m[p]] : "?", a);
			for (uint32_t s = 0; s < ns; s++) {
				ntop(get128(m + p + 20 + 16 * s), a);
				o += (size_t)snprintf(out + o, cap - o, " %s", a);
			}
			o += (size_t)snprintf(out + o, cap - o, "]");
			p += 20 + 16 * ns;
		}
		CU_ASSERT_EQUAL(p, len);
		return;
	}
	CU_ASSERT_EQUAL(len, 24);
	ntop(get128(m + 8), a);
	CU_ASSERT_TRUE(m[0] == 132 ? dst == A6(0xff02000000000000ull, 2) :
		       dst == get128(m + 8));
	snprintf(out + o, cap - o, " %s %s", m[0] == 131 ? "v1" :
		 m[0] == 132 ? "done" : "?", a);
}

static void
mld_since(uint32_t from, char *out, size_t cap, __uint128_t *last_src)
{
	size_t o = 0;

	out[0] = 0;
	for (uint32_t i = from; i < n_sent && o < cap; i++) {
		char w[1024];

		if (!is_mld(i))
			continue;
		words(i, w, sizeof(w), last_src);
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

#define V2_CFG "mld:\n  groups:\n" \
	"    - {group: 'ff3e::8000:1', count: 2}\n" \
	"    - {group: 'ff3e::1', sources: ['2001:db8::1', '2001:db8::2']}\n"

/* MAC 02:00:00:00:01:00 + k: link-local fe80::ff:fe00:100 + k (EUI-64,
 * RFC 4291 appendix A); static 2001:db8::10 + k. */
static void
test_v2_join_answer_done(void)
{
	static const __uint128_t asked[1] = {A6(0x20010db800000000ull, 2)};
	struct wr_hosts *hs = port_of(2, WR_HOST_PROTO_mld, cfg_of_text(V2_CFG));
	char out[8192];
	uint32_t from, idx[64], n;
	__uint128_t src = 0;
	uint64_t t0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 5 * MS);
	mld_since(0, out, sizeof(out), &src);
	/* The join: TO_EX({}) and ALLOW(S) as IGMPv3's, and the
	 * solicited-node groups of the static and link-local addresses. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v2 [TO_EX ff3e::8000:1] [TO_EX ff3e::8000:2] [ALLOW ff3e::1 2001:db8::1 2001:db8::2]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h1 v2 [TO_EX ff3e::8000:1] [TO_EX ff3e::8000:2] [ALLOW ff3e::1 2001:db8::1 2001:db8::2]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[TO_EX ff02::1:ff00:10]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[TO_EX ff02::1:ff00:11]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[TO_EX ff02::1:ff00:100]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[TO_EX ff02::1:ff00:101]"));
	CU_ASSERT_EQUAL(sent_of(0, 0x86dd, 58, idx, 64), 2);
	run_to(hs, clk + 5000 * MS);
	CU_ASSERT_EQUAL(ctr(hs, P, "reports_sent"), 4);

	/* General query, 2 s: answered within, from the link-local
	 * address now that DAD is through. */
	from = n_sent;
	t0 = clk;
	query(hs, 2000, 0, NULL, 0, true);
	run_to(hs, clk + 3000 * MS);
	n = sent_of(from, 0x86dd, 58, idx, 64);
	CU_ASSERT_EQUAL(n, 2);
	for (uint32_t i = 0; i < n && i < 64; i++)
		CU_ASSERT_TRUE(sent[idx[i]].at <= t0 + 2000 * MS);
	mld_since(from, out, sizeof(out), &src);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v2 [IS_EX ff3e::8000:1] [IS_EX ff3e::8000:2] [IS_IN ff3e::1 2001:db8::1 2001:db8::2]"));
	CU_ASSERT_TRUE((src >> 64) == 0xfe80000000000000ull);
	CU_ASSERT_EQUAL(ctr(hs, P, "answered_general"), 2);

	/* Group-and-source-specific: IS_IN of the asked source. */
	from = n_sent;
	query(hs, 500, A6(0xff3e000000000000ull, 1), asked, 1, true);
	run_to(hs, clk + 1000 * MS);
	mld_since(from, out, sizeof(out), &src);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v2 [IS_IN ff3e::1 2001:db8::2]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h1 v2 [IS_IN ff3e::1 2001:db8::2]\n"));

	/* A query with hop limit 2 is no MLD query (RFC 3810 section 5). */
	{
		uint8_t m[64], f[256];
		uint32_t ml = msg_q(m, 100, 0, NULL, 0, true, QUERIER, ALL_NODES);

		from = n_sent;
		inject(hs, f, frame_q(f, ALL_NODES, m, ml, 2));
		run_to(hs, clk + 500 * MS);
		CU_ASSERT_EQUAL(sent_of(from, 0x86dd, 58, idx, 64), 0);
		CU_ASSERT_EQUAL(ctr(hs, P, "bad_hop_limit"), 1);
	}

	from = n_sent;
	wr_hosts_stop(hs, clk);
	mld_since(from, out, sizeof(out), &src);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v2 [TO_IN ff3e::8000:1] [TO_IN ff3e::8000:2] [BLOCK ff3e::1 2001:db8::1 2001:db8::2]"));
	CU_ASSERT_EQUAL(ctr(hs, P, "leaves_sent"), 2);
	wr_hosts_free(hs);
}

/* An MLDv1 querier: v1 reports to each group within its max response
 * delay; dones to ff02::2 at the end (RFC 2710). */
static void
test_v1_compat(void)
{
	struct wr_hosts *hs = port_of(1, WR_HOST_PROTO_mld, cfg_of_text(
		"mld: {groups: [{group: 'ff3e::8000:1'}]}\n"));
	char out[4096];
	uint32_t from, idx[16], n;
	__uint128_t src;
	uint64_t t0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 3000 * MS);
	from = n_sent;
	t0 = clk;
	query(hs, 1500, 0, NULL, 0, false);
	run_to(hs, clk + 2000 * MS);
	n = sent_of(from, 0x86dd, 58, idx, 16);
	/* ff3e::8000:1 and the two solicited-node groups. */
	CU_ASSERT_EQUAL(n, 3);
	for (uint32_t i = 0; i < n && i < 16; i++)
		CU_ASSERT_TRUE(sent[idx[i]].at <= t0 + 1500 * MS);
	mld_since(from, out, sizeof(out), &src);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v1 ff3e::8000:1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 v1 ff02::1:ff00:10\n"));
	CU_ASSERT_EQUAL(ctr(hs, P, "compat_changes"), 1);
	from = n_sent;
	wr_hosts_stop(hs, clk);
	mld_since(from, out, sizeof(out), &src);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "h0 done ff3e::8000:1\n"));
	wr_hosts_free(hs);
}

static void
test_scapy(void)
{
	static const char script[] =
		"import sys\n"
		"from scapy.all import rdpcap\n"
		"from scapy.layers.inet6 import IPv6, IPv6ExtHdrHopByHop, ICMPv6MLReport2, ICMPv6MLDMultAddrRec, in6_chksum\n"
		"for p in rdpcap(sys.argv[1]):\n"
		"    ip = p[IPv6]\n"
		"    hbh = p[IPv6ExtHdrHopByHop]\n"
		"    r = p[ICMPv6MLReport2]\n"
		"    raw = bytearray(bytes(r))\n"
		"    raw[2:4] = b\"\\0\\0\"\n"
		"    ok = in6_chksum(58, hbh, bytes(raw)) == r.cksum\n"
		"    recs = []\n"
		"    x = r.records[0] if r.records else None\n"
		"    while isinstance(x, ICMPv6MLDMultAddrRec):\n"
		"        recs.append((x.rtype, x.dst, list(x.sources)))\n"
		"        x = x.payload\n"
		"    print(ip.dst, ip.hlim, [(o.otype, o.value) for o in hbh.options if o.otype == 5], ok,\n"
		"          r.records_number, recs)\n";
	static const char want[] =
		"ff02::16 1 [(5, 0)] True 5 [(4, 'ff3e::8000:1', []), (4, 'ff3e::8000:2', []), (5, 'ff3e::1', ['2001:db8::1', '2001:db8::2']), (4, 'ff02::1:ff00:100', []), (4, 'ff02::1:ff00:10', [])]\n"
		"ff02::16 1 [(5, 0)] True 5 [(4, 'ff3e::8000:1', []), (4, 'ff3e::8000:2', []), (5, 'ff3e::1', ['2001:db8::1', '2001:db8::2']), (4, 'ff02::1:ff00:100', []), (4, 'ff02::1:ff00:10', [])]\n"
		"ff02::16 1 [(5, 0)] True 5 [(3, 'ff3e::8000:1', []), (3, 'ff3e::8000:2', []), (6, 'ff3e::1', ['2001:db8::1', '2001:db8::2']), (3, 'ff02::1:ff00:100', []), (3, 'ff02::1:ff00:10', [])]\n";
	struct wr_hosts *hs = port_of(1, WR_HOST_PROTO_mld, cfg_of_text(V2_CFG));
	char out[4096], path[] = "/tmp/wr-test-mld-XXXXXX";
	uint32_t idx[16], n;
	int fd, rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hs);
	wr_hosts_start(hs, clk);
	run_to(hs, clk + 2000 * MS);
	wr_hosts_stop(hs, clk);
	n = sent_of(0, 0x86dd, 58, idx, 16);
	CU_ASSERT_EQUAL(n, 3);
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

static CU_TestInfo mld_tests[] = {
	{ "cfg", test_cfg },
	{ "cfg_errors", test_cfg_errors },
	{ "solicited_node", test_solicited_node },
	{ "parse", test_parse },
	{ "v2_join_answer_done", test_v2_join_answer_done },
	{ "v1_compat", test_v1_compat },
	{ "scapy", test_scapy },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "mld", .pTests = mld_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	int rc = wr_test_main(argc, argv, suites);

	wr_host_specs_free(&specs);
	return rc;
}
