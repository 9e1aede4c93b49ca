/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_pkt: walk a received frame's header stack. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_pkt.h"

#define VXLAN_HLEN 8
#define VXLAN_FLAG_I 0x08
#define GRE_FLAG_C 0x8000 /* RFC 2784/2890: checksum, key, sequence present */
#define GRE_FLAG_K 0x2000
#define GRE_FLAG_S 0x1000
/* Tunnels followed before giving up: deeper than any stack wr_frame builds. */
#define DEPTH_MAX 4

static bool
is_tag(uint16_t type)
{
	return type == WR_ETHERTYPE_VLAN || type == WR_ETHERTYPE_QINQ ||
	       type == WR_ETHERTYPE_QINQ_OLD;
}

/* Ethernet + tags at @p off; *type the EtherType after them. */
static int
l2(const uint8_t *p, uint32_t len, uint32_t *off, uint16_t *type, int32_t *tci)
{
	uint32_t o = *off + WR_ETH_HLEN;

	if (len < o)
		return -EINVAL;
	*type = wr_get16(p + o - 2);
	while (is_tag(*type)) {
		if (len < o + WR_TAG_HLEN)
			return -EINVAL;
		if (tci != NULL && *tci == WR_PKT_NO_VLAN)
			*tci = wr_get16(p + o);
		*type = wr_get16(p + o + 2);
		o += WR_TAG_HLEN;
	}
	*off = o;
	return 0;
}

int
wr_pkt_parse_l2(const uint8_t *p, uint32_t len, struct wr_pkt *out)
{
	uint32_t off = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->vlan_tci = WR_PKT_NO_VLAN;
	rc = l2(p, len, &off, &out->ethertype, &out->vlan_tci);
	if (rc < 0)
		return rc;
	out->l2_len = (uint16_t)off;
	out->pay_off = (uint16_t)off;
	return 0;
}

/* From an EtherType at @p off to the innermost L4 header. */
static int
walk(const uint8_t *p, uint32_t len, uint32_t off, uint16_t type,
     struct wr_pkt *out, unsigned int depth)
{
	uint8_t proto;
	uint32_t hl;

	if (depth > DEPTH_MAX)
		return 0;
	if (type == WR_ETHERTYPE_MPLS || type == WR_ETHERTYPE_MPLS_MC) {
		/* Labels to the bottom of stack, then IP by its version. */
		do {
			if (len < off + 4)
				return -EINVAL;
			off += 4;
		} while (!(p[off - 2] & 1));
		if (len < off + 1)
			return -EINVAL;
		type = p[off] >> 4 == 4 ? WR_ETHERTYPE_IPV4 :
		       p[off] >> 4 == 6 ? WR_ETHERTYPE_IPV6 : 0;
		out->pay_off = (uint16_t)off;
	}
	if (type == WR_ETHERTYPE_IPV4) {
		if (len < off + 20 || p[off] >> 4 != 4)
			return -EINVAL;
		hl = (uint32_t)(p[off] & 0xf) * 4;
		if (hl < 20 || len < off + hl)
			return -EINVAL;
		out->l3_off = (uint16_t)off;
		out->l3_type = type;
		/* A later fragment carries no L4 header. */
		if ((wr_get16(p + off + 6) & 0x1fff) != 0)
			return 0;
		proto = p[off + 9];
		off += hl;
	} else if (type == WR_ETHERTYPE_IPV6) {
		if (len < off + 40 || p[off] >> 4 != 6)
			return -EINVAL;
		out->l3_off = (uint16_t)off;
		out->l3_type = type;
		proto = p[off + 6];
		off += 40;
	} else {
		return 0;
	}
	switch (proto) {
	case WR_IPPROTO_UDP:
		if (len < off + 8)
			return -EINVAL;
		out->l4_off = (uint16_t)off;
		out->l4_proto = proto;
		out->pay_off = (uint16_t)(off + 8);
		/* VXLAN: the port, the I flag and zero reserved bytes (RFC
		 * 7348 section 5), so that a datagram that merely goes to
		 * port 4789 (a latency signature starts "WR") is not one. */
		if (wr_get16(p + off + 2) == WR_UDP_PORT_VXLAN &&
		    len >= off + 8 + VXLAN_HLEN + WR_ETH_HLEN &&
		    p[off + 8] == VXLAN_FLAG_I && p[off + 9] == 0 &&
		    p[off + 10] == 0 && p[off + 11] == 0 && p[off + 15] == 0) {
			uint32_t in = off + 8 + VXLAN_HLEN;

			if (l2(p, len, &in, &type, NULL) < 0)
				return 0;
			out->pay_off = (uint16_t)in; /* a raw L2 inner frame's */
			return walk(p, len, in, type, out, depth + 1);
		}
		return 0;
	case WR_IPPROTO_TCP:
		if (len < off + 20)
			return -EINVAL;
		hl = (uint32_t)(p[off + 12] >> 4) * 4;
		if (hl < 20 || len < off + hl)
			return -EINVAL;
		out->l4_off = (uint16_t)off;
		out->l4_proto = proto;
		out->pay_off = (uint16_t)(off + hl);
		return 0;
	case WR_IPPROTO_ICMP:
	case WR_IPPROTO_ICMPV6:
		if (len < off + 8)
			return -EINVAL;
		out->l4_off = (uint16_t)off;
		out->l4_proto = proto;
		out->pay_off = (uint16_t)(off + 8);
		return 0;
	case WR_IPPROTO_GRE: {
		uint16_t flags;

		if (len < off + 4)
			return -EINVAL;
		flags = wr_get16(p + off);
		type = wr_get16(p + off + 2);
		hl = 4 + ((flags & GRE_FLAG_C) ? 4 : 0) + ((flags & GRE_FLAG_K) ? 4 : 0) +
		     ((flags & GRE_FLAG_S) ? 4 : 0);
		if (len < off + hl)
			return -EINVAL;
		return walk(p, len, off + hl, type, out, depth + 1);
	}
	case WR_IPPROTO_IPV4:
		return walk(p, len, off, WR_ETHERTYPE_IPV4, out, depth + 1);
	case WR_IPPROTO_IPV6:
		return walk(p, len, off, WR_ETHERTYPE_IPV6, out, depth + 1);
	default:
		return 0;
	}
}

int
wr_pkt_parse(const uint8_t *p, uint32_t len, struct wr_pkt *out)
{
	int rc = wr_pkt_parse_l2(p, len, out);

	if (rc < 0)
		return rc;
	return walk(p, len, out->l2_len, out->ethertype, out, 0);
}
