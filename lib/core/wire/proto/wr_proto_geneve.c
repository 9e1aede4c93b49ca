/* SPDX-License-Identifier: BSD-3-Clause */
/* Geneve (RFC 8926): an 8-byte header and option TLVs over UDP 6081, then the frame it names by EtherType. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_proto.h"
#include "wr_wire.h"

#define GENEVE_HLEN 8
#define OPT_HLEN 4
/* Opt Len is 6 bits of 4-byte words (section 3.4). */
#define OPTS_MAX (63 * 4)
/* An option's Length is 5 bits of 4-byte words (section 3.5). */
#define OPT_DATA_MAX (31 * 4)
#define TYPE_CRITICAL 0x80
#define FLAG_C 0x40

static const struct wr_proto_field fields[] = {
	{ .name = "vni", .off = 4, .span = 3, .bits = 24, .kind = WR_VAL_INT,
	  .def = 1, .doc = "virtual network identifier 0..16777215" },
	{ .name = "oam", .off = 1, .span = 1, .bits = 1, .shift = 7,
	  .kind = WR_VAL_INT, .doc = "O: an OAM frame 0..1" },
	{ .name = "proto", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_ETHERTYPE, .def = WR_ETHERTYPE_TEB,
	  .doc = "protocol type (default: the layer above's EtherType, 0x6558 for eth)" },
};

static const struct wr_proto_field opt_fields[] = {
	{ .name = "class", .bits = 16, .kind = WR_VAL_INT,
	  .doc = "option class (IANA's Geneve option classes)" },
	{ .name = "type", .bits = 8, .kind = WR_VAL_INT,
	  .doc = "type; 0x80 and up: critical" },
};

static const struct wr_proto_opts opts = {
	.key = "options", .fields = opt_fields, .n_fields = 2,
	.data_max = OPT_DATA_MAX, .max = OPTS_MAX / OPT_HLEN,
	.doc = "{class: 0x0102, type: 1, data: \"0001\"} (RFC 8926 options)",
};

/* Each option: class, type, length of its data in words, the data padded
 * with zeros to a word; Opt Len counts them all, C says a critical one is
 * there (section 3.4). */
static int
layout(const struct wr_layer *l, struct wr_layout *lo)
{
	uint16_t at = GENEVE_HLEN, k, words;

	for (k = 0; k < l->n_opts; k++) {
		const struct wr_opt *o = &l->opts[k];

		words = (uint16_t)((o->data_len + 3) / 4);
		if (at + OPT_HLEN + 4 * words > GENEVE_HLEN + OPTS_MAX) {
			snprintf(lo->why, sizeof(lo->why),
				 "options of more than %u bytes (RFC 8926: Opt Len is 6 bits of words)",
				 OPTS_MAX);
			return -EINVAL;
		}
		wr_put16(lo->bytes + at, (uint64_t)o->v[0]);
		lo->bytes[at + 2] = (uint8_t)o->v[1];
		lo->bytes[at + 3] = (uint8_t)words;
		wr_opt_put_data(lo->bytes + at + OPT_HLEN, o);
		if (o->v[1] & TYPE_CRITICAL)
			lo->bytes[1] |= FLAG_C;
		at = (uint16_t)(at + OPT_HLEN + 4 * words);
	}
	lo->hlen = at;
	lo->bytes[0] = (uint8_t)((at - GENEVE_HLEN) / 4); /* version 0 */
	return 0;
}

/* Version 0 only (section 3.4: a receiver drops another); Opt Len words
 * of options; the frame after it named by Protocol Type. */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	uint32_t hl;

	if (len < GENEVE_HLEN)
		return -EINVAL;
	if (h[0] >> 6 != 0)
		return 0;
	hl = GENEVE_HLEN + (uint32_t)(h[0] & 0x3f) * 4;
	if (len < hl)
		return -EINVAL;
	next->carry = WR_CARRY_ETHERTYPE;
	next->value = wr_get16(h + 2);
	return (int)hl;
}

const struct wr_proto wr_proto_geneve = {
	.name = "geneve", .title = "Geneve", .hlen = GENEVE_HLEN,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_ETHERTYPE, .udp_port = WR_UDP_PORT_GENEVE,
	.len_off = -1, .opts = &opts, .layout = layout, .rx = rx,
	/* Opt Len: 4-byte words after the 8 fixed bytes. */
	.rx_hlen = { .off = 0, .mask = 0x3f, .unit = 4, .base = GENEVE_HLEN },
};
