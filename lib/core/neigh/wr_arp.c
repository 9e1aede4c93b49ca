/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_arp: ARP requests and replies, ICMP echo replies, and the set of addresses a port answers for. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_bytes.h"
#include "wr_csum.h"

/* Ethernet header offsets (IEEE 802.3) and ARP fields (RFC 826). */
#define ETH_DST_OFF 0
#define ETH_SRC_OFF 6
#define ETH_TYPE_OFF 12
#define ARP_HTYPE_ETHER 1
#define ARP_HLEN 6
#define ARP_PLEN 4
/* RFC 1700's default TTL for hosts; Linux uses 64 too. */
#define ICMP_REPLY_TTL 64
#define ICMP_HLEN 8

const uint8_t wr_eth_broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

void
wr_mac_to_bytes(uint64_t v, uint8_t b[6])
{
	int i;

	for (i = 5; i >= 0; i--) {
		b[i] = (uint8_t)v;
		v >>= 8;
	}
}

uint64_t
wr_mac_from_bytes(const uint8_t b[6])
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | b[i];
	return v;
}

void
wr_addrs_init(struct wr_addrs *a)
{
	memset(a, 0, sizeof(*a));
}

void
wr_addrs_free(struct wr_addrs *a)
{
	if (a == NULL)
		return;
	free(a->r);
	memset(a, 0, sizeof(*a));
}

int
wr_addrs_add(struct wr_addrs *a, __uint128_t lo, __uint128_t hi)
{
	const __uint128_t top = ~(__uint128_t)0;
	uint32_t i, j;

	if (lo > hi)
		return -EINVAL;
	/* First range that ends at or after lo - 1 (adjacent ranges merge). */
	for (i = 0; i < a->n; i++)
		if (a->r[i].hi >= lo || (lo > 0 && a->r[i].hi == lo - 1))
			break;
	/* Ranges i..j-1 touch [lo, hi]: merge them into one. */
	for (j = i; j < a->n; j++) {
		if (hi < top && a->r[j].lo > hi + 1)
			break;
		if (a->r[j].lo < lo)
			lo = a->r[j].lo;
		if (a->r[j].hi > hi)
			hi = a->r[j].hi;
	}
	if (j == i) {
		if (a->n == a->cap) {
			uint32_t cap = a->cap ? a->cap * 2 : 8;
			struct wr_addr_range *r = realloc(a->r, cap * sizeof(*r));

			if (r == NULL)
				return -ENOMEM;
			a->r = r;
			a->cap = cap;
		}
		memmove(&a->r[i + 1], &a->r[i], (a->n - i) * sizeof(*a->r));
		a->n++;
	} else if (j > i + 1) {
		memmove(&a->r[i + 1], &a->r[j], (a->n - j) * sizeof(*a->r));
		a->n -= j - i - 1;
	}
	a->r[i].lo = lo;
	a->r[i].hi = hi;
	return 0;
}

int
wr_addrs_add_field(struct wr_addrs *a, const struct wr_field_spec *fs)
{
	uint32_t i;
	int rc = 0;

	switch (fs->mode) {
	case WR_VARY_INC:
	case WR_VARY_RANDOM:
		return wr_addrs_add(a, fs->from, fs->to);
	case WR_VARY_DEC:
		return wr_addrs_add(a, fs->to, fs->from);
	case WR_VARY_LIST:
		for (i = 0; i < fs->list_len && rc == 0; i++)
			rc = wr_addrs_add(a, fs->list[i], fs->list[i]);
		return rc;
	case WR_VARY_FIXED:
	default:
		return wr_addrs_add(a, fs->value, fs->value);
	}
}

bool
wr_addrs_has(const struct wr_addrs *a, __uint128_t ip)
{
	uint32_t lo = 0, hi = a->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ip < a->r[mid].lo)
			hi = mid;
		else if (ip > a->r[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

uint32_t
wr_arp_l2_head(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
	       const uint8_t *tags, uint16_t tags_len, uint16_t type)
{
	memcpy(buf + ETH_DST_OFF, dst, 6);
	memcpy(buf + ETH_SRC_OFF, src, 6);
	if (tags_len > 0)
		memcpy(buf + ETH_TYPE_OFF, tags, tags_len);
	wr_put16(buf + ETH_TYPE_OFF + tags_len, type);
	return WR_ETH_HLEN + tags_len;
}

/* The L3 header's offset behind the tags, and its EtherType; -1 when the
 * frame is too short for its link header. */
static int
l3_off(const uint8_t *p, uint32_t len, uint16_t *type)
{
	struct wr_pkt k;

	if (wr_pkt_parse_l2(p, len, &k) < 0)
		return -1;
	*type = k.ethertype;
	return k.l2_len;
}

/* RFC 826's body for IPv4 over Ethernet. */
static void
arp_body(uint8_t *a, uint16_t op, const uint8_t sha[6], uint32_t spa,
	 const uint8_t tha[6], uint32_t tpa)
{
	wr_put16(a, ARP_HTYPE_ETHER);
	wr_put16(a + 2, WR_ETHERTYPE_IPV4);
	a[4] = ARP_HLEN;
	a[5] = ARP_PLEN;
	wr_put16(a + 6, op);
	memcpy(a + 8, sha, 6);
	wr_put32(a + 14, spa);
	memcpy(a + 18, tha, 6);
	wr_put32(a + 24, tpa);
}

/* A frame with @p l2 bytes of link header: 60 bytes at least, and 4 a tag
 * (a tagged frame keeps 60 after a bridge strips its tags). */
static uint32_t
padded_len(uint32_t l2, uint32_t len)
{
	uint32_t min = WR_ETH_MIN_LEN + (l2 - WR_ETH_HLEN);

	return len < min ? min : len;
}

int
wr_arp_parse_at(const uint8_t *p, uint32_t len, uint32_t l3,
		struct wr_arp_pkt *out)
{
	const uint8_t *a;

	if (len < l3 + WR_ARP_LEN)
		return -EINVAL;
	a = p + l3;
	if (wr_get16(a) != ARP_HTYPE_ETHER || wr_get16(a + 2) != WR_ETHERTYPE_IPV4 ||
	    a[4] != ARP_HLEN || a[5] != ARP_PLEN)
		return -EINVAL;
	out->op = wr_get16(a + 6);
	memcpy(out->sha, a + 8, 6);
	out->spa = wr_get32(a + 14);
	memcpy(out->tha, a + 18, 6);
	out->tpa = wr_get32(a + 24);
	return 0;
}

int
wr_arp_parse(const uint8_t *p, uint32_t len, struct wr_arp_pkt *out)
{
	uint16_t type;
	int off = l3_off(p, len, &type);

	if (off < 0 || type != WR_ETHERTYPE_ARP)
		return -EINVAL;
	return wr_arp_parse_at(p, len, (uint32_t)off, out);
}

uint32_t
wr_arp_reply_at(uint8_t *frame, uint32_t l2, uint32_t cap, const uint8_t mac[6],
		const struct wr_arp_pkt *req)
{
	uint32_t n = padded_len(l2, l2 + WR_ARP_LEN);

	if (n > cap)
		return 0;
	/* In place: the request's tags and EtherType stay. */
	memcpy(frame + ETH_DST_OFF, req->sha, 6);
	memcpy(frame + ETH_SRC_OFF, mac, 6);
	arp_body(frame + l2, WR_ARP_OP_REPLY, mac, req->tpa, req->sha, req->spa);
	memset(frame + l2 + WR_ARP_LEN, 0, n - l2 - WR_ARP_LEN);
	return n;
}

uint16_t
wr_arp_build(uint8_t *buf, uint16_t op, const uint8_t eth_dst[6],
	     const uint8_t sha[6], uint32_t spa, const uint8_t tha[6],
	     uint32_t tpa, const uint8_t *tags, uint16_t tags_len)
{
	uint32_t l2;

	memset(buf, 0, WR_ETH_MIN_LEN + tags_len);
	l2 = wr_arp_l2_head(buf, eth_dst, sha, tags, tags_len, WR_ETHERTYPE_ARP);
	arp_body(buf + l2, op, sha, spa, tha, tpa);
	return (uint16_t)padded_len(l2, l2 + WR_ARP_LEN);
}

bool
wr_icmp_echo_reply(uint8_t *p, uint32_t len, const uint8_t mac[6],
		   const struct wr_addrs *ours)
{
	uint16_t type, tot, csum;
	uint32_t ihl, src, dst;
	uint8_t *ip, *icmp, tmp[6];
	int off = l3_off(p, len, &type);
	uint64_t sum;

	if (off < 0 || type != WR_ETHERTYPE_IPV4 ||
	    len < (uint32_t)off + WR_IPV4_HLEN)
		return false;
	ip = p + off;
	ihl = (uint32_t)(ip[0] & 0xf) * 4;
	tot = wr_get16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < WR_IPV4_HLEN || ip[9] != WR_IPPROTO_ICMP ||
	    tot < ihl + ICMP_HLEN || len < (uint32_t)off + tot)
		return false;
	/* Fragments are not reassembled: only a whole datagram is answered
	 * (MF clear, offset 0). */
	if ((wr_get16(ip + 6) & 0x3fff) != 0)
		return false;
	if (wr_csum_sum(ip, ihl) != 0xffff)
		return false;
	icmp = ip + ihl;
	dst = wr_get32(ip + 16);
	if (icmp[0] != WR_ICMP_ECHO_REQUEST || icmp[1] != 0 ||
	    !wr_addrs_has(ours, dst))
		return false;

	memcpy(tmp, p + ETH_SRC_OFF, 6);
	memcpy(p + ETH_DST_OFF, tmp, 6);
	memcpy(p + ETH_SRC_OFF, mac, 6);
	src = wr_get32(ip + 12);
	wr_put32(ip + 12, dst);
	wr_put32(ip + 16, src);
	ip[8] = ICMP_REPLY_TTL;
	wr_put16(ip + 10, 0);
	wr_put16(ip + 10, wr_csum_ipv4(wr_csum_sum(ip, ihl)));
	/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), m the type/code word
	 * 0x0800 becoming 0x0000. */
	icmp[0] = WR_ICMP_ECHO_REPLY;
	csum = wr_get16(icmp + 2);
	sum = (uint64_t)(uint16_t)~csum + (uint16_t)~(WR_ICMP_ECHO_REQUEST << 8);
	wr_put16(icmp + 2, (uint16_t)~wr_csum_fold(sum));
	return true;
}

enum wr_arp_verdict
wr_arp_answer(uint8_t *frame, uint32_t *len, uint32_t cap, const uint8_t mac[6],
	      const struct wr_addrs *ours, struct wr_arp_pkt *pkt)
{
	struct wr_arp_pkt a;
	uint16_t type;
	uint32_t l2, n;

	if (wr_arp_parse(frame, *len, &a) == 0) {
		if (a.op == WR_ARP_OP_REPLY) {
			if (pkt != NULL)
				*pkt = a;
			return WR_ARP_GOT_REPLY;
		}
		if (a.op != WR_ARP_OP_REQUEST || !wr_addrs_has(ours, a.tpa))
			return WR_ARP_IGNORE;
		l2 = (uint32_t)l3_off(frame, *len, &type);
		n = wr_arp_reply_at(frame, l2, cap, mac, &a);
		if (n == 0)
			return WR_ARP_IGNORE;
		if (pkt != NULL)
			*pkt = a;
		*len = n;
		return WR_ARP_ANSWER_ARP;
	}
	if (wr_icmp_echo_reply(frame, *len, mac, ours))
		return WR_ARP_ANSWER_ICMP;
	return WR_ARP_IGNORE;
}
