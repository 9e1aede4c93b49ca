/* SPDX-License-Identifier: BSD-3-Clause */
/* ICMPv4 echo request (RFC 792): checksum over the message, no pseudo-header. */
#include "wr_proto_echo.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	WR_PROTO_ECHO_FIELDS(8, "type (8: echo request)"),
};

const struct wr_proto wr_proto_icmp = {
	.name = "icmp", .title = "ICMPv4 echo", .hlen = 8,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_NOTHING, .ipproto = WR_IPPROTO_ICMP,
	.csum = WR_CSUM_PLAIN, .csum_off = 2, .len_off = -1,
};
