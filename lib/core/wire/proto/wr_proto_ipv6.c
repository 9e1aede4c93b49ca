/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 (RFC 8200) without extension headers; next header is the layer above's. */
#include <errno.h>

#include "wr_proto.h"
#include "wr_wire.h"

static const uint8_t fixed[40] = { 0x60 }; /* version 6 */

static const struct wr_proto_field fields[] = {
	/* 2001:2::/48 is the IPv6 benchmarking range (RFC 5180). */
	{ .name = "src", .off = 8, .span = 16, .bits = 128, .kind = WR_VAL_IPV6,
	  .role = WR_ROLE_SRC_ADDR, .def_hi = 0x2001000200000000ull, .def = 1,
	  .doc = "source address" },
	{ .name = "dst", .off = 24, .span = 16, .bits = 128, .kind = WR_VAL_IPV6,
	  .role = WR_ROLE_DST_ADDR, .def_hi = 0x2001000200000001ull, .def = 1,
	  .doc = "destination address" },
	{ .name = "tc", .off = 0, .span = 2, .bits = 8, .shift = 4,
	  .kind = WR_VAL_INT, .doc = "traffic class 0..255" },
	{ .name = "flow", .off = 1, .span = 3, .bits = 20, .kind = WR_VAL_INT,
	  .doc = "flow label 0..1048575" },
	{ .name = "hop", .off = 7, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = 64, .doc = "hop limit" },
	{ .name = "next", .off = 6, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_IPPROTO, .def = WR_IPPROTO_NONE,
	  .doc = "next header (default: the layer above's)" },
};

static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	if (len < WR_IPV6_HLEN || h[0] >> 4 != 6)
		return -EINVAL;
	next->carry = WR_CARRY_IPPROTO;
	next->value = h[6];
	return WR_IPV6_HLEN;
}

const struct wr_proto wr_proto_ipv6 = {
	.name = "ipv6", .title = "IPv6", .hlen = WR_IPV6_HLEN, .fixed = fixed,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_IPPROTO, .ethertype = WR_ETHERTYPE_IPV6,
	.ipproto = WR_IPPROTO_IPV6,
	.over_mpls = true, .l3 = true, .offload = WR_OL_IPV6, .len_off = 4, .len_base = WR_IPV6_HLEN,
	.l4_csum_required = true, .ip_version = 6, .rx = rx,
};
