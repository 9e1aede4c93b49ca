/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 (RFC 791), with options as TLVs (IHL follows); the protocol number is the layer above's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_proto.h"
#include "wr_wire.h"

static const uint8_t fixed[20] = { 0x45 }; /* version 4, 5 words */

static const struct wr_proto_field fields[] = {
	/* The fixed frame model's order (odometer) and defaults: 198.18.0.0/15
	 * is the RFC 2544 benchmarking range. */
	{ .name = "src", .off = 12, .span = 4, .bits = 32, .kind = WR_VAL_IPV4,
	  .role = WR_ROLE_SRC_ADDR, .legacy_tag = 5, .def = 0xc6120001u,
	  .doc = "source address" },
	{ .name = "dst", .off = 16, .span = 4, .bits = 32, .kind = WR_VAL_IPV4,
	  .role = WR_ROLE_DST_ADDR, .legacy_tag = 6, .def = 0xc6130001u,
	  .doc = "destination address" },
	{ .name = "id", .off = 4, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .legacy_tag = 7, .doc = "identification" },
	{ .name = "ttl", .off = 8, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .legacy_tag = 8, .def = 64, .doc = "TTL (Linux's default 64)" },
	{ .name = "dscp", .off = 1, .span = 1, .bits = 6, .shift = 2,
	  .kind = WR_VAL_INT, .legacy_tag = 9, .doc = "DSCP 0..63" },
	{ .name = "ecn", .off = 1, .span = 1, .bits = 2, .kind = WR_VAL_INT,
	  .doc = "ECN 0..3" },
	{ .name = "df", .off = 6, .span = 1, .bits = 1, .shift = 6,
	  .kind = WR_VAL_INT, .def = 1,
	  .doc = "don't fragment 0..1 (default 1, as Linux sets on UDP)" },
	{ .name = "proto", .off = 9, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .role = WR_ROLE_NEXT_IPPROTO, .def = WR_IPPROTO_EXP,
	  .doc = "protocol (default: the layer above's)" },
};

/* RFC 791: at most 40 bytes of options (IHL is 4 bits of 32-bit words). */
#define OPTS_MAX 40
#define OPT_EOL 0
#define OPT_NOP 1

static const struct wr_proto_field opt_fields[] = {
	{ .name = "type", .bits = 8, .kind = WR_VAL_INT,
	  .doc = "option type (copied, class, number): 7 record route, 68 "
		 "timestamp, 148 router alert; 0 end and 1 no-op take no data" },
};

static const struct wr_proto_opts opts = {
	.key = "options", .fields = opt_fields, .n_fields = 1,
	.data_max = OPTS_MAX - 2, .max = OPTS_MAX,
	.doc = "{type: 148, data: \"0000\"}, or {type: 1} (RFC 791 options)",
};

/* The options after the fixed header, each type, length (2 + data) and
 * data but the one-byte end and no-op; padded with end-of-options to a
 * 32-bit word; IHL counts them. */
static int
layout(const struct wr_layer *l, struct wr_layout *lo)
{
	uint16_t at = WR_IPV4_HLEN, k;

	for (k = 0; k < l->n_opts; k++) {
		const struct wr_opt *o = &l->opts[k];
		uint8_t type = (uint8_t)o->v[0];
		uint16_t need = type <= OPT_NOP ? 1 : 2 + o->data_len;

		if (!o->set[0]) {
			snprintf(lo->why, sizeof(lo->why), "options[%u]: give its type", k);
			return -EINVAL;
		}
		if (type <= OPT_NOP && o->data_len != 0) {
			snprintf(lo->why, sizeof(lo->why),
				 "options[%u]: option %u is one byte and has no data", k, type);
			return -EINVAL;
		}
		if (at + need > WR_IPV4_HLEN + OPTS_MAX) {
			snprintf(lo->why, sizeof(lo->why),
				 "options of more than %u bytes (RFC 791: IHL is 15 words at most)",
				 OPTS_MAX);
			return -EINVAL;
		}
		lo->bytes[at] = type;
		if (type > OPT_NOP) {
			lo->bytes[at + 1] = (uint8_t)need;
			wr_opt_put_data(lo->bytes + at + 2, o);
		}
		at = (uint16_t)(at + need);
	}
	while (at % 4 != 0)
		lo->bytes[at++] = OPT_EOL;
	lo->hlen = at;
	lo->bytes[0] = (uint8_t)(0x40 | at / 4);
	return 0;
}

/* Options make the header longer (IHL); a fragment other than the first
 * carries no header of the layer above, and a first one only part of the
 * datagram its checksum covers. */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	uint32_t ihl;

	if (len < WR_IPV4_HLEN || h[0] >> 4 != 4)
		return -EINVAL;
	ihl = (uint32_t)(h[0] & 0xf) * 4;
	if (ihl < WR_IPV4_HLEN || len < ihl)
		return -EINVAL;
	next->carry = (wr_get16(h + 6) & 0x1fff) != 0 ? WR_CARRY_NOTHING :
		      WR_CARRY_IPPROTO;
	next->value = h[9];
	/* MF or an offset: the first fragment's L4 header is here, the
	 * bytes its checksum covers are not all. */
	next->frag = (wr_get16(h + 6) & 0x3fff) != 0;
	return (int)ihl;
}

const struct wr_proto wr_proto_ipv4 = {
	.name = "ipv4", .title = "IPv4", .hlen = WR_IPV4_HLEN, .fixed = fixed,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_IPPROTO, .ethertype = WR_ETHERTYPE_IPV4,
	.ipproto = WR_IPPROTO_IPV4,
	.over_mpls = true, .l3 = true, .offload = WR_OL_IPV4,
	.csum = WR_CSUM_HEADER, .csum_off = 10,
	.len_off = 2, .ip_version = 4, .rx = rx,
	/* IHL: 32-bit words; MF or a fragment offset. */
	.rx_hlen = { .off = 0, .mask = 0x0f, .unit = 4, .frag_off = 6, .frag_mask = 0x3fff }, .opts = &opts, .layout = layout,
};
