/* SPDX-License-Identifier: BSD-3-Clause */
/* TCP (RFC 9293) segment without options: stateless, any flags. */
#include <errno.h>

#include "wr_proto.h"
#include "wr_wire.h"

static const uint8_t fixed[20] = { [12] = 0x50 }; /* data offset 5 words */

static const struct wr_proto_field fields[] = {
	{ .name = "src", .off = 0, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 1024, .doc = "source port" },
	{ .name = "dst", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 80, .doc = "destination port" },
	{ .name = "seq", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 1, .doc = "sequence number" },
	{ .name = "ack", .off = 8, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "acknowledgement number" },
	/* FIN 0x01 SYN 0x02 RST 0x04 PSH 0x08 ACK 0x10 URG 0x20 ECE 0x40 CWR 0x80 */
	{ .name = "flags", .off = 13, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = 0x02, .doc = "flags (FIN 1 SYN 2 RST 4 PSH 8 ACK 16 ...; default SYN)" },
	{ .name = "window", .off = 14, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 65535, .doc = "window" },
	{ .name = "urg", .off = 18, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "urgent pointer" },
};

/* Options make the header longer (data offset). */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	uint32_t hl;

	if (len < 20)
		return -EINVAL;
	hl = (uint32_t)(h[12] >> 4) * 4;
	if (hl < 20 || len < hl)
		return -EINVAL;
	next->carry = WR_CARRY_NOTHING;
	return (int)hl;
}

const struct wr_proto wr_proto_tcp = {
	.name = "tcp", .title = "TCP", .hlen = 20, .fixed = fixed,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_NOTHING, .ipproto = WR_IPPROTO_TCP, .goodput = true,
	.offload = WR_OL_TCP,
	.csum = WR_CSUM_PSEUDO, .csum_off = 16, .len_off = -1, .pseudo_len = true,
	.rx = rx,
	/* Data offset: 32-bit words. */
	.rx_hlen = { .off = 12, .mask = 0xf0, .shift = 4, .unit = 4 },
};
