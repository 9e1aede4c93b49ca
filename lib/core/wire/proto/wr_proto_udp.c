/* SPDX-License-Identifier: BSD-3-Clause */
/* UDP (RFC 768); a checksum that computes to 0 is sent as 0xffff. */
#include "wr_proto.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	{ .name = "src", .off = 0, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .legacy_tag = 10, .def = 1024, .doc = "source port" },
	{ .name = "dst", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_UDP_PORT, .legacy_tag = 11, .def = 1024,
	  .doc = "destination port (default 1024, 4789 under vxlan)" },
};

const struct wr_proto wr_proto_udp = {
	.name = "udp", .title = "UDP", .hlen = WR_UDP_HLEN,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_UDP_PORT, .ipproto = WR_IPPROTO_UDP, .goodput = true,
	.offload = WR_OL_UDP,
	.csum = WR_CSUM_PSEUDO, .csum_off = 6, .len_off = 4, .pseudo_len = true,
	.csum_ffff = true,
};
