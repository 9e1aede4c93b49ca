/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_nd: Neighbor Solicitation/Advertisement and ICMPv6 echo reply, and the IPv6 addresses a port answers for. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_nd.h"
#include "wr_pkt.h"
#include "wr_proto.h"

#define ND_HLEN 24        /* type, code, checksum, flags, target */
#define ND_OPT_LEN 8      /* a link-layer address option (RFC 4861 4.6.1) */
#define ND_OPT_SRC_LL 1
#define ND_OPT_TGT_LL 2
#define ND_HOP_LIMIT 255  /* RFC 4861 7.1.1: ND is link-local only */
#define ECHO_HOP_LIMIT 64

int
wr_nd_stream_sources(const struct wr_stream *s, struct wr_addrs *v4,
		     struct wr_addrs *v6)
{
	const struct wr_field_spec *a4 = wr_stream_addr(s, WR_VAL_IPV4, WR_ROLE_SRC_ADDR);
	const struct wr_field_spec *a6 = wr_stream_addr(s, WR_VAL_IPV6, WR_ROLE_SRC_ADDR);
	int rc = 0;

	if (a4 != NULL)
		rc = wr_addrs_add_field(v4, a4);
	if (rc == 0 && a6 != NULL)
		rc = wr_addrs_add_field(v6, a6);
	return rc;
}

/* ICMPv6 checksum sum (not complemented) of the message at @p ip6 + 40. */
static uint64_t
icmp6_sum(const uint8_t *ip6, uint16_t plen)
{
	return (uint64_t)wr_csum_sum(ip6 + 8, 32) + plen + WR_IPPROTO_ICMPV6 +
	       wr_csum_sum(ip6 + WR_IPV6_HLEN, plen);
}

/* The IPv6 header of an ND message at @p ip. */
static void
nd_ip6(uint8_t *ip, __uint128_t src, __uint128_t dst, uint16_t plen)
{
	memset(ip, 0, WR_IPV6_HLEN);
	ip[0] = 0x60;
	wr_put16(ip + 4, plen);
	ip[6] = WR_IPPROTO_ICMPV6;
	ip[7] = ND_HOP_LIMIT;
	wr_put128(ip + 8, src);
	wr_put128(ip + 24, dst);
}

static uint16_t
finish(uint8_t *ip, uint16_t plen, uint32_t l3)
{
	wr_put16(ip + WR_IPV6_HLEN + 2, 0);
	wr_put16(ip + WR_IPV6_HLEN + 2, (uint16_t)~wr_csum_fold(icmp6_sum(ip, plen)));
	return (uint16_t)(l3 + WR_IPV6_HLEN + plen);
}

uint16_t
wr_nd_build_ns(uint8_t *buf, const uint8_t mac[6], __uint128_t src,
	       __uint128_t target, const uint8_t *tags, uint16_t tags_len)
{
	/* RFC 4291 2.7.1: ff02::1:ffXX:XXXX, and RFC 2464 7: 33:33 + its
	 * last 32 bits. */
	__uint128_t snm = ((__uint128_t)0xff02000000000000ull << 64) |
			  0x00000001ff000000ull | (target & 0xffffff);
	uint8_t dmac[6] = { 0x33, 0x33, 0xff, (uint8_t)(target >> 16),
			    (uint8_t)(target >> 8), (uint8_t)target };
	/* From :: (duplicate address detection) without the source
	 * link-layer option: RFC 4861 4.3 forbids it there. */
	const uint16_t plen = src == 0 ? ND_HLEN : ND_HLEN + ND_OPT_LEN;
	uint32_t l3;
	uint8_t *m;

	memset(buf, 0, WR_ND_FRAME_MAX);
	l3 = wr_arp_l2_head(buf, dmac, mac, tags, tags_len, WR_ETHERTYPE_IPV6);
	nd_ip6(buf + l3, src, snm, plen);
	m = buf + l3 + WR_IPV6_HLEN;
	m[0] = WR_ICMP6_NS;
	wr_put128(m + 8, target);
	if (src != 0) {
		m[24] = ND_OPT_SRC_LL;
		m[25] = 1;
		memcpy(m + 26, mac, 6);
	}
	return finish(buf + l3, plen, l3);
}

/* An NA's IPv6 header and message at @p l3 of @p p (RFC 4861 4.4), with
 * the target link-layer option; @return the frame's length. */
static uint16_t
na_body(uint8_t *p, uint32_t l3, const uint8_t mac[6], __uint128_t src,
	__uint128_t dst, __uint128_t target, uint8_t flags)
{
	uint8_t *m = p + l3 + WR_IPV6_HLEN;

	nd_ip6(p + l3, src, dst, ND_HLEN + ND_OPT_LEN);
	memset(m, 0, ND_HLEN + ND_OPT_LEN);
	m[0] = WR_ICMP6_NA;
	m[4] = flags;
	wr_put128(m + 8, target);
	m[24] = ND_OPT_TGT_LL;
	m[25] = 1;
	memcpy(m + 26, mac, 6);
	return finish(p + l3, ND_HLEN + ND_OPT_LEN, l3);
}

uint16_t
wr_nd_build_na(uint8_t *buf, const uint8_t mac[6], const uint8_t eth_dst[6],
	       __uint128_t src, __uint128_t dst, __uint128_t target,
	       uint8_t flags, const uint8_t *tags, uint16_t tags_len)
{
	uint32_t l3;

	memset(buf, 0, WR_ND_FRAME_MAX);
	l3 = wr_arp_l2_head(buf, eth_dst, mac, tags, tags_len, WR_ETHERTYPE_IPV6);
	return na_body(buf, l3, mac, src, dst, target, flags);
}

enum wr_nd_verdict
wr_nd_answer(uint8_t *p, uint32_t *len, uint32_t cap, const uint8_t mac[6],
	     const struct wr_addrs *ours, struct wr_nd_pkt *pkt)
{
	struct wr_pkt k;
	uint8_t *ip, *m, peer[6];
	uint16_t plen;
	__uint128_t src, dst, target;
	uint64_t sum;

	if (wr_pkt_parse_l2(p, *len, &k) < 0 ||
	    k.ethertype != WR_ETHERTYPE_IPV6 || *len < k.l2_len + WR_IPV6_HLEN + 8u)
		return WR_ND_IGNORE;
	ip = p + k.l2_len;
	plen = wr_get16(ip + 4);
	if (ip[0] >> 4 != 6 || ip[6] != WR_IPPROTO_ICMPV6 ||
	    *len < k.l2_len + WR_IPV6_HLEN + (uint32_t)plen || plen < 8)
		return WR_ND_IGNORE;
	m = ip + WR_IPV6_HLEN;
	if (m[1] != 0 || wr_csum_fold(icmp6_sum(ip, plen)) != 0xffff)
		return WR_ND_IGNORE;
	src = wr_get128(ip + 8);
	dst = wr_get128(ip + 24);
	memcpy(peer, p + 6, 6);
	switch (m[0]) {
	case WR_ICMP6_ECHO_REQUEST:
		if (!wr_addrs_has(ours, dst))
			return WR_ND_IGNORE;
		memcpy(p, peer, 6);
		memcpy(p + 6, mac, 6);
		wr_put128(ip + 8, dst);
		wr_put128(ip + 24, src);
		ip[7] = ECHO_HOP_LIMIT;
		/* RFC 1624 eqn. 3: only the type word changes (the address
		 * swap leaves the pseudo-header's sum as it was). */
		m[0] = WR_ICMP6_ECHO_REPLY;
		sum = (uint64_t)(uint16_t)~wr_get16(m + 2) +
		      (uint16_t)~(WR_ICMP6_ECHO_REQUEST << 8) +
		      (WR_ICMP6_ECHO_REPLY << 8);
		wr_put16(m + 2, (uint16_t)~wr_csum_fold(sum));
		return WR_ND_ANSWER_ECHO;
	case WR_ICMP6_NA:
		if (ip[7] != ND_HOP_LIMIT || plen < ND_HLEN)
			return WR_ND_IGNORE;
		if (pkt != NULL) {
			pkt->target = wr_get128(m + 8);
			/* The target link-layer option if there is one, else
			 * the frame's source. */
			memcpy(pkt->mac, peer, 6);
			if (plen >= ND_HLEN + ND_OPT_LEN && m[24] == ND_OPT_TGT_LL &&
			    m[25] == 1)
				memcpy(pkt->mac, m + 26, 6);
		}
		return WR_ND_GOT_NA;
	case WR_ICMP6_NS: {
		const uint32_t l3 = k.l2_len;
		__uint128_t to;
		bool dad = src == 0;

		if (ip[7] != ND_HOP_LIMIT || plen < ND_HLEN ||
		    l3 + WR_IPV6_HLEN + ND_HLEN + ND_OPT_LEN > cap)
			return WR_ND_IGNORE;
		target = wr_get128(m + 8);
		if (!wr_addrs_has(ours, target))
			return WR_ND_IGNORE;
		/* A duplicate address detection probe (from ::) is answered
		 * to all nodes, unsolicited (RFC 4861 7.2.4). */
		if (dad) {
			static const uint8_t all_nodes[6] = { 0x33, 0x33, 0, 0, 0, 1 };

			memcpy(peer, all_nodes, 6);
		}
		to = dad ? ((__uint128_t)0xff02000000000000ull << 64) | 1 : src;
		/* In place: the request's tags and EtherType stay. */
		memcpy(p, peer, 6);
		memcpy(p + 6, mac, 6);
		*len = na_body(p, l3, mac, target, to, target,
			       (uint8_t)((dad ? 0 : WR_ND_NA_S) | WR_ND_NA_O));
		return WR_ND_ANSWER_NS;
	}
	default:
		return WR_ND_IGNORE;
	}
}
