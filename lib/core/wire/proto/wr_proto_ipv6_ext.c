/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv6 extension headers (RFC 8200): hop-by-hop and destination options, fragment, and the segment routing header (SRv6, RFC 8754). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_proto.h"
#include "wr_wire.h"

/* RFC 8200 section 4.1's order, as ranks (wr_frame's ext_order). */
#define RANK_HOP 1
#define RANK_DST 2
#define RANK_ROUTING 3
#define RANK_FRAGMENT 4
#define RANK_DST_LAST 5

#define EXT_UNIT 8        /* Hdr Ext Len counts 8-octet units past the first */
#define OPT_PAD1 0        /* RFC 8200 section 4.2 */
#define OPT_PADN 1
#define FRAG_HLEN 8
#define SRH_HLEN 8
#define SRH_TYPE 4        /* RFC 8754: routing type 4 */
#define SEG_LEN 16
#define SEGS_MAX ((WR_HDR_MAX - SRH_HLEN) / SEG_LEN)

/* The first byte of each is the layer above's protocol number. */
#define NEXT_FIELD                                                           \
	{ .name = "next", .off = 0, .span = 1, .bits = 8, .kind = WR_VAL_INT, \
	  .role = WR_ROLE_NEXT_IPPROTO, .def = WR_IPPROTO_NONE,               \
	  .doc = "next header (default: the layer above's)" }

static const struct wr_proto_field opt_hdr_fields[] = { NEXT_FIELD };

static const struct wr_proto_field opt_fields[] = {
	{ .name = "type", .bits = 8, .kind = WR_VAL_INT,
	  .doc = "option type (0: Pad1, which has no data)" },
};

static const struct wr_proto_opts options = {
	.key = "options", .fields = opt_fields, .n_fields = 1,
	.data_max = 255, .max = 32,
	.doc = "{type: 0x1e, data: \"0102\"} (RFC 8200 section 4.2 options)",
};

/* Options after next header and length: each type, length of its data,
 * the data (Pad1 one byte), then Pad1 or PadN to a multiple of 8 bytes;
 * Hdr Ext Len counts the 8-byte units past the first. */
static int
opt_layout(const struct wr_layer *l, struct wr_layout *lo)
{
	uint16_t at = 2, k, pad;

	for (k = 0; k < l->n_opts; k++) {
		const struct wr_opt *o = &l->opts[k];
		uint8_t type = (uint8_t)o->v[0];
		uint16_t need = type == OPT_PAD1 ? 1 : 2 + o->data_len;

		if (!o->set[0] || (type == OPT_PAD1 && o->data_len != 0)) {
			snprintf(lo->why, sizeof(lo->why),
				 "options[%u]: give its type (Pad1, 0, has no data)", k);
			return -EINVAL;
		}
		if (at + need > WR_HDR_MAX) {
			snprintf(lo->why, sizeof(lo->why), "options of more than %u bytes",
				 WR_HDR_MAX - 2);
			return -EINVAL;
		}
		lo->bytes[at] = type;
		if (type != OPT_PAD1) {
			lo->bytes[at + 1] = (uint8_t)o->data_len;
			wr_opt_put_data(lo->bytes + at + 2, o);
		}
		at = (uint16_t)(at + need);
	}
	pad = (uint16_t)((EXT_UNIT - at % EXT_UNIT) % EXT_UNIT);
	if (at + pad > WR_HDR_MAX) {
		snprintf(lo->why, sizeof(lo->why), "options of more than %u bytes",
			 WR_HDR_MAX - 2);
		return -EINVAL;
	}
	if (pad == 1) {
		lo->bytes[at] = OPT_PAD1;
	} else if (pad > 1) {
		lo->bytes[at] = OPT_PADN;
		lo->bytes[at + 1] = (uint8_t)(pad - 2);
		memset(lo->bytes + at + 2, 0, pad - 2u);
	}
	lo->hlen = (uint16_t)(at + pad);
	lo->bytes[1] = (uint8_t)(lo->hlen / EXT_UNIT - 1);
	return 0;
}

/* Hop-by-hop, destination options and routing headers: Hdr Ext Len
 * 8-byte units past the first. */
static int
ext_rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	uint32_t hl;

	if (len < 2)
		return -EINVAL;
	hl = ((uint32_t)h[1] + 1) * EXT_UNIT;
	if (len < hl)
		return -EINVAL;
	next->carry = WR_CARRY_IPPROTO;
	next->value = h[0];
	return (int)hl;
}

/* Hdr Ext Len: 8-byte units past the first (ext_rx's rule as data). */
#define EXT_HLEN { .off = 1, .mask = 0xff, .unit = EXT_UNIT, .base = EXT_UNIT }

const struct wr_proto wr_proto_ipv6_hbh = {
	.name = "ipv6_hbh", .title = "IPv6 hop-by-hop options", .hlen = EXT_UNIT,
	.fields = opt_hdr_fields, .n_fields = 1,
	.carry = WR_CARRY_IPPROTO, .ipproto = WR_IPPROTO_HOPOPTS, .ipproto_zero = true,
	.ext_of = 6, .ext_ranks = WR_EXT_RANK(RANK_HOP), .len_off = -1,
	.opts = &options, .layout = opt_layout, .rx = ext_rx,
	.rx_hlen = EXT_HLEN,
};

const struct wr_proto wr_proto_ipv6_dst = {
	.name = "ipv6_dst", .title = "IPv6 destination options", .hlen = EXT_UNIT,
	.fields = opt_hdr_fields, .n_fields = 1,
	.carry = WR_CARRY_IPPROTO, .ipproto = WR_IPPROTO_DSTOPTS,
	.ext_of = 6, .ext_ranks = WR_EXT_RANK(RANK_DST) | WR_EXT_RANK(RANK_DST_LAST),
	.len_off = -1, .opts = &options, .layout = opt_layout, .rx = ext_rx,
	.rx_hlen = EXT_HLEN,
};

static const struct wr_proto_field frag_fields[] = {
	NEXT_FIELD,
	{ .name = "offset", .off = 2, .span = 2, .bits = 13, .shift = 3,
	  .kind = WR_VAL_INT, .doc = "fragment offset in 8-byte units" },
	{ .name = "m", .off = 3, .span = 1, .bits = 1, .kind = WR_VAL_INT,
	  .doc = "more fragments 0..1 (0 and offset 0: an atomic fragment, RFC 6946)" },
	{ .name = "id", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 1, .doc = "identification" },
};

/* A fragment other than the first carries no header of the layer above;
 * a first one only part of what that header's checksum covers. */
static int
frag_rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	if (len < FRAG_HLEN)
		return -EINVAL;
	next->carry = (wr_get16(h + 2) & 0xfff8) != 0 ? WR_CARRY_NOTHING :
		      WR_CARRY_IPPROTO;
	next->value = h[0];
	/* An atomic fragment (offset 0, M 0, RFC 6946) is the whole datagram. */
	next->frag = (wr_get16(h + 2) & 0xfff9) != 0;
	return FRAG_HLEN;
}

const struct wr_proto wr_proto_ipv6_frag = {
	.name = "ipv6_frag", .title = "IPv6 fragment header", .hlen = FRAG_HLEN,
	.fields = frag_fields, .n_fields = sizeof(frag_fields) / sizeof(frag_fields[0]),
	.carry = WR_CARRY_IPPROTO, .ipproto = WR_IPPROTO_FRAGMENT,
	.ext_of = 6, .ext_ranks = WR_EXT_RANK(RANK_FRAGMENT), .len_off = -1,
	.rx = frag_rx,
	/* An offset or M: not atomic. */
	.rx_hlen = { .frag_off = 2, .frag_mask = 0xfff9 },
};

/* RFC 8754 section 2: routing type 4, segments left, last entry, flags,
 * tag, then the segment list, the last segment of the path first. */
static const uint8_t srh_fixed[SRH_HLEN] = { 0, 0, SRH_TYPE };
#define F_LEFT 1

static const struct wr_proto_field srh_fields[] = {
	NEXT_FIELD,
	{ .name = "left", .off = 3, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .doc = "segments left (default: the number of segments - 1, the first is active)" },
	{ .name = "flags", .off = 5, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .doc = "flags" },
	{ .name = "tag", .off = 6, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "tag" },
};

static const struct wr_proto_field seg_fields[] = {
	{ .name = "segment", .bits = 128, .kind = WR_VAL_IPV6,
	  .doc = "an SRv6 segment (a SID)" },
};

static const struct wr_proto_opts segments = {
	.key = "segments", .fields = seg_fields, .n_fields = 1, .bare = true,
	.max = SEGS_MAX,
	.doc = "IPv6 addresses in the order of the path: [\"2001:db8::a\", \"2001:db8::b\"]",
};

/* The segments in reverse (Segment List[0] is the path's last: RFC 8754
 * section 2), Hdr Ext Len 2 a segment, Last Entry and by default Segments
 * Left the index of the path's first; the pseudo-header's destination is
 * the path's last (RFC 8200 section 8.1). */
static int
srh_layout(const struct wr_layer *l, struct wr_layout *lo)
{
	uint16_t n = l->n_opts, k;

	if (n == 0) {
		snprintf(lo->why, sizeof(lo->why),
			 "a segment routing header needs segments: [\"2001:db8::1\", ...]");
		return -EINVAL;
	}
	for (k = 0; k < n; k++)
		wr_put128(lo->bytes + SRH_HLEN + SEG_LEN * k, l->opts[n - 1 - k].v[0]);
	lo->hlen = (uint16_t)(SRH_HLEN + SEG_LEN * n);
	lo->bytes[1] = (uint8_t)(2 * n);
	lo->bytes[3] = (uint8_t)(n - 1);
	lo->bytes[4] = (uint8_t)(n - 1);
	lo->computed = 1u << F_LEFT;
	lo->final_dst = SRH_HLEN;
	return 0;
}

const struct wr_proto wr_proto_srh = {
	.name = "srh", .title = "IPv6 segment routing header (SRv6)", .hlen = SRH_HLEN,
	.fixed = srh_fixed,
	.fields = srh_fields, .n_fields = sizeof(srh_fields) / sizeof(srh_fields[0]),
	.carry = WR_CARRY_IPPROTO, .ipproto = WR_IPPROTO_ROUTING,
	.ext_of = 6, .ext_ranks = WR_EXT_RANK(RANK_ROUTING), .len_off = -1,
	.opts = &segments, .layout = srh_layout, .rx = ext_rx,
	.rx_hlen = EXT_HLEN,
};
