/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_rx: a frame received for hosts parsed once for the engine and every module; what is malformed is counted by reason and dropped. */
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_host_priv.h"
#include "wr_pkt.h"

#define IP4_OPT_EOL 0
#define IP4_OPT_NOP 1
#define IP4_OPT_RA 148          /* router alert (RFC 2113) */
#define IP6_OPT_PAD1 0
#define IP6_OPT_RA 5            /* router alert (RFC 2711) */
#define UDP_HLEN 8

/* IPv4 options (RFC 791 3.1): the router alert IGMP carries (RFC 2236). */
static bool
ip4_router_alert(const uint8_t *o, uint32_t n)
{
	uint32_t i = 0;

	while (i < n && o[i] != IP4_OPT_EOL) {
		if (o[i] == IP4_OPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= n || o[i + 1] < 2)
			return false;
		if (o[i] == IP4_OPT_RA)
			return true;
		i += o[i + 1];
	}
	return false;
}

/* The options of a hop-by-hop header (RFC 8200 4.2): MLD's router alert. */
static bool
ip6_router_alert(const uint8_t *o, uint32_t n)
{
	uint32_t i = 2;

	while (i < n) {
		if (o[i] == IP6_OPT_PAD1) {
			i++;
			continue;
		}
		if (i + 1 >= n)
			return false;
		if (o[i] == IP6_OPT_RA)
			return true;
		i += 2u + o[i + 1];
	}
	return false;
}

static int
l4(struct wr_hosts *hs, struct wr_host_rx *rx)
{
	const uint8_t *p = rx->frame + rx->l4_off;

	if (rx->l4_proto == WR_IPPROTO_UDP) {
		uint16_t ulen;

		if (rx->l4_len < UDP_HLEN) {
			hs->c.rx_bad_udp++;
			return -1;
		}
		ulen = wr_get16(p + 4);
		if (ulen < UDP_HLEN || ulen > rx->l4_len) {
			hs->c.rx_bad_udp++;
			return -1;
		}
		rx->sport = wr_get16(p);
		rx->dport = wr_get16(p + 2);
	} else if (rx->l4_proto == WR_IPPROTO_ICMP ||
		   rx->l4_proto == WR_IPPROTO_ICMPV6) {
		/* Type, code, checksum at least. */
		if (rx->l4_len < 4) {
			if (rx->ip_version == 4)
				hs->c.rx_bad_ip4++;
			else
				hs->c.rx_bad_ip6++;
			return -1;
		}
		rx->icmp_type = p[0];
	}
	return 0;
}

static int
ip4(struct wr_hosts *hs, struct wr_host_rx *rx)
{
	const uint8_t *ip = rx->frame + rx->l3_off;
	uint32_t ihl, tot;

	if (rx->len < rx->l3_off + WR_IPV4_HLEN) {
		hs->c.rx_short++;
		return -1;
	}
	ihl = (ip[0] & 0xfu) * 4;
	tot = wr_get16(ip + 2);
	if (ip[0] >> 4 != 4 || ihl < WR_IPV4_HLEN || tot < ihl ||
	    rx->l3_off + tot > rx->len) {
		hs->c.rx_bad_ip4++;
		return -1;
	}
	if (wr_csum_sum(ip, ihl) != 0xffff) {
		hs->c.rx_bad_ip4_csum++;
		return -1;
	}
	/* No module takes a fragment: nothing here reassembles. */
	if ((wr_get16(ip + 6) & 0x3fff) != 0) {
		hs->c.rx_ip4_frag++;
		return -1;
	}
	rx->ip_version = 4;
	rx->l4_proto = ip[9];
	rx->hop_limit = ip[8];
	rx->router_alert = ip4_router_alert(ip + WR_IPV4_HLEN, ihl - WR_IPV4_HLEN);
	rx->src_ip = wr_get32(ip + 12);
	rx->dst_ip = wr_get32(ip + 16);
	rx->l4_off = rx->l3_off + ihl;
	rx->l4_len = tot - ihl;
	return l4(hs, rx);
}

static int
ip6(struct wr_hosts *hs, struct wr_host_rx *rx)
{
	const uint8_t *ip = rx->frame + rx->l3_off;
	uint32_t plen, off = WR_IPV6_HLEN;

	if (rx->len < rx->l3_off + WR_IPV6_HLEN) {
		hs->c.rx_short++;
		return -1;
	}
	plen = wr_get16(ip + 4);
	if (ip[0] >> 4 != 6 || rx->l3_off + WR_IPV6_HLEN + plen > rx->len) {
		hs->c.rx_bad_ip6++;
		return -1;
	}
	rx->ip_version = 6;
	rx->l4_proto = ip[6];
	rx->hop_limit = ip[7];
	rx->src_ip = wr_get128(ip + 8);
	rx->dst_ip = wr_get128(ip + 24);
	if (rx->l4_proto == WR_IPPROTO_HOPOPTS) {
		uint32_t hlen;

		if (plen < 8 || (hlen = (ip[41] + 1u) * 8) > plen) {
			hs->c.rx_bad_ip6++;
			return -1;
		}
		rx->router_alert = ip6_router_alert(ip + off, hlen);
		rx->l4_proto = ip[off];
		off += hlen;
	}
	rx->l4_off = rx->l3_off + off;
	rx->l4_len = WR_IPV6_HLEN + plen - off;
	return l4(hs, rx);
}

int
wr_hosts_parse(struct wr_hosts *hs, const uint8_t *frame, uint32_t len,
	       struct wr_host_rx *rx)
{
	struct wr_pkt k;
	uint8_t i;

	memset(rx, 0, sizeof(*rx));
	rx->frame = frame;
	rx->len = len;
	if (len > WR_HOST_FRAME_MAX) {
		hs->c.rx_too_long++;
		return -1;
	}
	if (wr_pkt_parse_l2(frame, len, &k) < 0) {
		hs->c.rx_short++;
		return -1;
	}
	if (k.n_tags > WR_HOST_TAGS_MAX) {
		hs->c.rx_tags++;
		return -1;
	}
	rx->dst_mac = frame;
	rx->src_mac = frame + 6;
	rx->n_tags = k.n_tags;
	for (i = 0; i < k.n_tags; i++) {
		rx->tpid[i] = wr_get16(frame + 12 + 4 * i);
		rx->tci[i] = wr_get16(frame + 14 + 4 * i);
	}
	rx->ethertype = k.ethertype;
	rx->l3_off = k.l2_len;
	switch (k.ethertype) {
	case WR_ETHERTYPE_ARP:
		return 0;
	case WR_ETHERTYPE_IPV4:
		return ip4(hs, rx);
	case WR_ETHERTYPE_IPV6:
		return ip6(hs, rx);
	default:
		hs->c.rx_ignored++;
		return -1;
	}
}
