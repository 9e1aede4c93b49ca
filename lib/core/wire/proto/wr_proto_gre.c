/* SPDX-License-Identifier: BSD-3-Clause */
/* GRE (RFC 2784, key and sequence number RFC 2890): any EtherType in IPv4/IPv6, with a checksum, a key and a sequence number as the file asks; gre_key always has the key. */
#include <errno.h>
#include <stdio.h>

#include "wr_bytes.h"
#include "wr_proto.h"
#include "wr_wire.h"

/* RFC 2784/2890: the C, K and S flags each add 4 bytes. */
#define GRE_FLAG_C 0x8000
#define GRE_FLAG_K 0x2000
#define GRE_FLAG_S 0x1000
#define GRE_HLEN 4
#define F_C 1            /* fields[] index of c, key, seq */
#define F_KEY 2
#define F_SEQ 3

/* proto first: a stream written before the optional parts draws the same. */
static const struct wr_proto_field fields[] = {
	{ .name = "proto", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_EXP1,
	  .doc = "protocol type (default: the layer above's EtherType)" },
	{ .name = "c", .off = 0, .span = 1, .bits = 1, .shift = 7, .kind = WR_VAL_INT,
	  .doc = "1: a checksum over GRE and its payload (RFC 2784)" },
	{ .name = "key", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "key (given: the K flag and 4 bytes, RFC 2890)" },
	{ .name = "seq", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "sequence number (given: the S flag and 4 bytes, RFC 2890)" },
};

/* Checksum (and reserved), key, sequence number, in that order, each
 * there when the file asks for it (c: 1, a key, a seq), flags to match. */
static int
layout(const struct wr_layer *l, struct wr_layout *lo)
{
	uint16_t at = GRE_HLEN, flags = 0;

	if (l->field[F_C].mode != WR_VARY_FIXED) {
		snprintf(lo->why, sizeof(lo->why),
			 "c decides the header's length: it cannot vary");
		return -EINVAL;
	}
	if (l->field[F_C].value != 0) {
		flags |= GRE_FLAG_C;
		lo->csum = WR_CSUM_PLAIN;
		lo->csum_off = at;
		at += 4;
	}
	lo->off[F_KEY] = l->set[F_KEY] ? at : WR_OFF_NONE;
	if (l->set[F_KEY]) {
		flags |= GRE_FLAG_K;
		at += 4;
	}
	lo->off[F_SEQ] = l->set[F_SEQ] ? at : WR_OFF_NONE;
	if (l->set[F_SEQ]) {
		flags |= GRE_FLAG_S;
		at += 4;
	}
	lo->hlen = at;
	wr_put16(lo->bytes, flags);
	return 0;
}

static const uint8_t key_fixed[8] = { 0x20 }; /* K bit */

static const struct wr_proto_field key_fields[] = {
	{ .name = "proto", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_EXP1,
	  .doc = "protocol type (default: the layer above's EtherType)" },
	{ .name = "key", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "key" },
};

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

/* RFC 2784: with the C flag, a checksum right after the first word over
 * the GRE header and its payload. */
static uint8_t
rx_csum(const uint8_t *h, uint32_t len, uint16_t *off)
{
	*off = GRE_HLEN;
	return len >= GRE_HLEN + 4 && (wr_get16(h) & GRE_FLAG_C) ? WR_CSUM_PLAIN :
		WR_CSUM_NONE;
}

/* rx's rule as data: a word, and one more for each of C, K and S set. */
#define GRE_RX_HLEN { .off = 0, .mask = (GRE_FLAG_C | GRE_FLAG_K | GRE_FLAG_S) >> 8, \
		      .unit = 4, .base = GRE_HLEN, .bits = true }

const struct wr_proto wr_proto_gre = {
	.name = "gre", .title = "GRE", .hlen = GRE_HLEN,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ipproto = WR_IPPROTO_GRE, .len_off = -1,
	.layout = layout, .rx = rx, .rx_csum = rx_csum, .rx_hlen = GRE_RX_HLEN,
};

const struct wr_proto wr_proto_gre_key = {
	.name = "gre_key", .title = "GRE with key", .hlen = 8, .fixed = key_fixed,
	.fields = key_fields,
	.n_fields = sizeof(key_fields) / sizeof(key_fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .ipproto = WR_IPPROTO_GRE, .len_off = -1,
	.rx = rx, .rx_csum = rx_csum, .rx_hlen = GRE_RX_HLEN,
};
