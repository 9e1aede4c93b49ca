/* SPDX-License-Identifier: BSD-3-Clause */
/* IEEE 802.1Q / 802.1ad tag: TCI and the EtherType after it; the TPID is the layer below's type. */
#include "wr_proto.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	{ .name = "id", .off = 0, .span = 2, .bits = 12, .kind = WR_VAL_INT,
	  .legacy_tag = 3, .doc = "VLAN id 0..4095" },
	{ .name = "pcp", .off = 0, .span = 1, .bits = 3, .shift = 5,
	  .kind = WR_VAL_INT, .legacy_tag = 4, .doc = "priority 0..7" },
	{ .name = "dei", .off = 0, .span = 1, .bits = 1, .shift = 4,
	  .kind = WR_VAL_INT, .doc = "drop eligible 0..1" },
	/* 0x8100 (802.1Q C-tag); 0x88a8 for an 802.1ad S-tag. */
	{ .name = "tpid", .off = 0, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_MY_ETHERTYPE, .def = WR_ETHERTYPE_VLAN,
	  .doc = "TPID written by the layer below (0x8100, 0x88a8)" },
	{ .name = "type", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_EXP1,
	  .doc = "EtherType after the tag (default: the layer above's)" },
};

const struct wr_proto wr_proto_vlan = {
	.name = "vlan", .title = "802.1Q", .hlen = WR_TAG_HLEN,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ethertype = WR_ETHERTYPE_VLAN, .tag = true,
	.rx_ethertypes = { WR_ETHERTYPE_QINQ, WR_ETHERTYPE_QINQ_OLD },
	.len_off = -1,
};
