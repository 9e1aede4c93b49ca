/* SPDX-License-Identifier: BSD-3-Clause */
/* Ethernet II (IEEE 802.3 clause 3.2.6): any EtherType; alone, a raw L2 frame; inside a tunnel, EtherType 0x6558. */
#include "wr_proto.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	/* src before dst: the odometer order of the fixed frame model. */
	{ .name = "src", .off = 6, .span = 6, .bits = 48, .kind = WR_VAL_MAC,
	  .role = WR_ROLE_LINK_SRC, .legacy_tag = 1, .def = 0x020000000001ull, .doc = "source MAC" },
	{ .name = "dst", .off = 0, .span = 6, .bits = 48, .kind = WR_VAL_MAC,
	  .role = WR_ROLE_LINK_DST, .legacy_tag = 2, .def = 0x020000000002ull, .doc = "destination MAC" },
	/* IEEE 802 "Local Experimental Ethertype 1": a raw L2 frame's default. */
	{ .name = "type", .off = 12, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_EXP1,
	  .doc = "EtherType (default: the layer above's, 0x88b5 for raw L2)" },
};

const struct wr_proto wr_proto_eth = {
	.name = "eth", .title = "Ethernet II", .hlen = WR_ETH_HLEN,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	/* Inside GRE or Geneve, an Ethernet frame is "transparent Ethernet
	 * bridging" (RFC 1701's 0x6558, RFC 8926 section 3.4). */
	.carry = WR_CARRY_ETHERTYPE, .ethertype = WR_ETHERTYPE_TEB, .link = true,
	.len_off = -1,
};
