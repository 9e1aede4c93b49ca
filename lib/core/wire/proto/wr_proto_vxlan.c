/* SPDX-License-Identifier: BSD-3-Clause */
/* VXLAN (RFC 7348): an 8-byte header over UDP 4789, then a whole inner Ethernet frame. */
#include "wr_proto.h"
#include "wr_wire.h"

static const uint8_t fixed[8] = { 0x08 }; /* I flag: the VNI is valid */

static const struct wr_proto_field fields[] = {
	{ .name = "vni", .off = 4, .span = 3, .bits = 24, .kind = WR_VAL_INT,
	  .def = 1, .doc = "VXLAN network identifier 0..16777215" },
};

/* The I flag and zero reserved bytes (RFC 7348 section 5), and room for
 * an inner Ethernet header: a datagram that merely goes to port 4789 (a
 * latency signature starts "WR") is not VXLAN. */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	if (len < 8 + WR_ETH_HLEN || h[0] != 0x08 || h[1] != 0 || h[2] != 0 ||
	    h[3] != 0 || h[7] != 0)
		return 0;
	next->carry = WR_CARRY_ETH;
	return 8;
}

const struct wr_proto wr_proto_vxlan = {
	.name = "vxlan", .title = "VXLAN", .hlen = 8, .fixed = fixed,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_ETH, .udp_port = WR_UDP_PORT_VXLAN, .zero_udp_csum_below = true,
	.len_off = -1, .rx = rx,
};
