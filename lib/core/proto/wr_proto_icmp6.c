/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMPv6 echo request (RFC 4443): checksum with the IPv6 pseudo-header. */
#include "wr_proto.h"

static const struct wr_proto_field fields[] = {
	{ .name = "type", .off = 0, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = 128, .doc = "type (128: echo request)" },
	{ .name = "code", .off = 1, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .doc = "code" },
	{ .name = "id", .off = 4, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 1, .doc = "identifier" },
	{ .name = "seq", .off = 6, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "sequence number" },
};

const struct wr_proto wr_proto_icmp6 = {
	.name = "icmp6", .title = "ICMPv6 echo", .hlen = 8,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_NOTHING, .ipproto = 58, .l4 = true,
	.csum = WR_CSUM_PSEUDO, .csum_off = 2, .len_off = -1, .pseudo_len = true,
};
