/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMPv4 echo request (RFC 792): checksum over the message, no pseudo-header. */
#include "wr_proto.h"

static const struct wr_proto_field fields[] = {
	{ .name = "type", .off = 0, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = 8, .doc = "type (8: echo request)" },
	{ .name = "code", .off = 1, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .doc = "code" },
	{ .name = "id", .off = 4, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 1, .doc = "identifier" },
	{ .name = "seq", .off = 6, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "sequence number" },
};

const struct wr_proto wr_proto_icmp = {
	.name = "icmp", .title = "ICMPv4 echo", .hlen = 8,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_NOTHING, .ipproto = 1, .l4 = true,
	.csum = WR_CSUM_PLAIN, .csum_off = 2, .len_off = -1,
};
