/* SPDX-License-Identifier: BSD-3-Clause */
/* ARP (RFC 826) for IPv4 over Ethernet as a stream layer: requests and replies at rate. */
#include "wr_proto.h"
#include "wr_wire.h"

#define ARP_LEN 28

/* Hardware type 1 (Ethernet), protocol type IPv4, address lengths 6 and 4. */
static const uint8_t fixed[ARP_LEN] = { 0, 1, 0x08, 0x00, 6, 4 };

static const struct wr_proto_field fields[] = {
	{ .name = "op", .off = 6, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 1, .doc = "operation (1: request, 2: reply)" },
	{ .name = "sha", .off = 8, .span = 6, .bits = 48, .kind = WR_VAL_MAC,
	  .def = 0x020000000001ull, .doc = "sender hardware address" },
	{ .name = "spa", .off = 14, .span = 4, .bits = 32, .kind = WR_VAL_IPV4,
	  .def = 0xc6120001u, .doc = "sender protocol address" },
	{ .name = "tha", .off = 18, .span = 6, .bits = 48, .kind = WR_VAL_MAC,
	  .doc = "target hardware address (0 in a request)" },
	{ .name = "tpa", .off = 24, .span = 4, .bits = 32, .kind = WR_VAL_IPV4,
	  .def = 0xc6130001u, .doc = "target protocol address" },
};

/* Nothing after it: the frame is padded to 60 bytes with zeros. */
const struct wr_proto wr_proto_arp = {
	.name = "arp", .title = "ARP", .hlen = ARP_LEN, .fixed = fixed,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_NOTHING, .ethertype = WR_ETHERTYPE_ARP, .len_off = -1,
};
