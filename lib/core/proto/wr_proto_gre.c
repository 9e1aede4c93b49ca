/* SPDX-License-Identifier: BSD-3-Clause */
/* GRE (RFC 2784, key RFC 2890): IPv4/IPv6 in IPv4/IPv6; gre_key adds the 4-byte key. */
#include "wr_proto.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	{ .name = "proto", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_EXP1,
	  .doc = "protocol type (default: the layer above's EtherType)" },
};

static const uint8_t key_fixed[8] = { 0x20 }; /* K bit */

static const struct wr_proto_field key_fields[] = {
	{ .name = "proto", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_EXP1,
	  .doc = "protocol type (default: the layer above's EtherType)" },
	{ .name = "key", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "key" },
};

const struct wr_proto wr_proto_gre = {
	.name = "gre", .title = "GRE", .hlen = 4,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ipproto = WR_IPPROTO_GRE, .len_off = -1,
};

const struct wr_proto wr_proto_gre_key = {
	.name = "gre_key", .title = "GRE with key", .hlen = 8, .fixed = key_fixed,
	.fields = key_fields,
	.n_fields = sizeof(key_fields) / sizeof(key_fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ipproto = WR_IPPROTO_GRE, .len_off = -1,
};
