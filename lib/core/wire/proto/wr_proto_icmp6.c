/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMPv6 echo request (RFC 4443): checksum with the IPv6 pseudo-header. */
#include "wr_proto_echo.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	WR_PROTO_ECHO_FIELDS(128, "type (128: echo request)"),
};

const struct wr_proto wr_proto_icmp6 = {
	.name = "icmp6", .title = "ICMPv6 echo", .hlen = 8,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_NOTHING, .ipproto = WR_IPPROTO_ICMPV6,
	.csum = WR_CSUM_PSEUDO, .csum_off = 2, .len_off = -1, .pseudo_len = true,
};
