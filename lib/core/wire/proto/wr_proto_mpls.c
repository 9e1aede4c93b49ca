/* SPDX-License-Identifier: BSD-3-Clause */
/* MPLS label stack entry (RFC 3032): label, TC, bottom of stack (set by position), TTL. */
#include <errno.h>

#include "wr_proto.h"
#include "wr_wire.h"

static const struct wr_proto_field fields[] = {
	{ .name = "label", .off = 0, .span = 3, .bits = 20, .shift = 4,
	  .kind = WR_VAL_INT, .def = 16, .doc = "label 0..1048575 (16: first unreserved)" },
	{ .name = "tc", .off = 2, .span = 1, .bits = 3, .shift = 1,
	  .kind = WR_VAL_INT, .doc = "traffic class 0..7" },
	{ .name = "s", .off = 2, .span = 1, .bits = 1, .kind = WR_VAL_INT,
	  .role = WR_ROLE_BOTTOM, .doc = "bottom of stack (automatic)" },
	{ .name = "ttl", .off = 3, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = 64, .doc = "TTL 0..255" },
};

/* Another label until the bottom of stack, then IP by its version. */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	if (len < 4 || ((h[2] & 1) && len < 5))
		return -EINVAL;
	next->carry = (h[2] & 1) ? WR_CARRY_IP : WR_CARRY_ETHERTYPE;
	next->value = (h[2] & 1) ? h[4] >> 4 : WR_ETHERTYPE_MPLS;
	return 4;
}

const struct wr_proto wr_proto_mpls = {
	.name = "mpls", .title = "MPLS", .hlen = 4,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_MPLS, .ethertype = WR_ETHERTYPE_MPLS, .over_mpls = true,
	.len_off = -1, .rx = rx,
};
