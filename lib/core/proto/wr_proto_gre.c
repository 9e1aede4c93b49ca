/* SPDX-License-Identifier: BSD-3-Clause */
/* GRE (RFC 2784, key RFC 2890): IPv4/IPv6 in IPv4/IPv6; gre_key adds the 4-byte key. */
#include <errno.h>

#include "wr_bytes.h"
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

/* RFC 2784/2890: the C, K and S flags each add 4 bytes. */
#define GRE_FLAG_C 0x8000
#define GRE_FLAG_K 0x2000
#define GRE_FLAG_S 0x1000

/* Whatever flags the header has (one module receives every variant). */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	uint16_t flags;
	uint32_t hl;

	if (len < 4)
		return -EINVAL;
	flags = wr_get16(h);
	hl = 4 + ((flags & GRE_FLAG_C) ? 4 : 0) + ((flags & GRE_FLAG_K) ? 4 : 0) +
	     ((flags & GRE_FLAG_S) ? 4 : 0);
	if (len < hl)
		return -EINVAL;
	next->carry = WR_CARRY_ETHERTYPE;
	next->value = wr_get16(h + 2);
	return (int)hl;
}

const struct wr_proto wr_proto_gre = {
	.name = "gre", .title = "GRE", .hlen = 4,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ipproto = WR_IPPROTO_GRE, .len_off = -1,
	.rx = rx,
};

const struct wr_proto wr_proto_gre_key = {
	.name = "gre_key", .title = "GRE with key", .hlen = 8, .fixed = key_fixed,
	.fields = key_fields,
	.n_fields = sizeof(key_fields) / sizeof(key_fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ipproto = WR_IPPROTO_GRE, .len_off = -1,
	.rx = rx,
};
