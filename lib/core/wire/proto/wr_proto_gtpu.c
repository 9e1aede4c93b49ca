/* SPDX-License-Identifier: BSD-3-Clause */
/* GTP-U v1 (3GPP TS 29.281) over UDP 2152: the G-PDU header, its optional sequence number and extension headers, then IPv4 or IPv6. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_proto.h"
#include "wr_wire.h"

#define GTPU_HLEN 8
#define OPT_LEN 4          /* sequence number, N-PDU number, next extension type */
#define FLAGS_V1_GTP 0x30  /* version 1, protocol type GTP */
#define FLAG_E 0x04
#define FLAG_S 0x02
#define FLAG_PN 0x01
#define MSG_GPDU 255
#define EXT_MAX 16
#define F_SEQ 2            /* fields[] index of seq, npdu */
#define F_NPDU 3

/* TS 29.281 section 5.1: version 1, PT 1, then E, S and PN as the file
 * gives a sequence number, an N-PDU number or extension headers. */
static const uint8_t fixed[GTPU_HLEN] = { FLAGS_V1_GTP, MSG_GPDU };

static const struct wr_proto_field fields[] = {
	{ .name = "teid", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 1, .doc = "tunnel endpoint identifier" },
	{ .name = "type", .off = 1, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = MSG_GPDU, .doc = "message type (255: G-PDU, a user packet)" },
	{ .name = "seq", .off = 8, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "sequence number (given: the S flag and the optional part)" },
	{ .name = "npdu", .off = 10, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .doc = "N-PDU number (given: the PN flag and the optional part)" },
};

static const struct wr_proto_field ext_fields[] = {
	{ .name = "type", .bits = 8, .kind = WR_VAL_INT,
	  .doc = "extension header type (0x85: PDU session container)" },
};

static const struct wr_proto_opts exts = {
	.key = "ext", .fields = ext_fields, .n_fields = 1,
	.data_max = 4 * 255 - 2, .max = EXT_MAX,
	.doc = "{type: 0x85, data: \"0001\"} (TS 29.281 extension headers)",
};

/* The optional part (sequence number, N-PDU number, first extension's
 * type) is there when any of E, S, PN is; each extension header is its
 * length in words, its content padded to fill them, the next one's type. */
static int
layout(const struct wr_layer *l, struct wr_layout *lo)
{
	uint8_t flags = (l->set[F_SEQ] ? FLAG_S : 0) | (l->set[F_NPDU] ? FLAG_PN : 0) |
			(l->n_opts > 0 ? FLAG_E : 0);
	uint16_t at = GTPU_HLEN + OPT_LEN, k, words;

	if (flags == 0) {
		lo->off[F_SEQ] = lo->off[F_NPDU] = WR_OFF_NONE;
		return 0;
	}
	lo->bytes[0] |= flags;
	for (k = 0; k < l->n_opts; k++) {
		const struct wr_opt *o = &l->opts[k];

		/* Length byte and next type around the content: a word each
		 * 4 bytes, the content padded to fill them. */
		words = (uint16_t)((o->data_len + 2 + 3) / 4);
		if (!o->set[0]) {
			snprintf(lo->why, sizeof(lo->why), "ext[%u]: give its type", k);
			return -EINVAL;
		}
		if (at + 4 * words > WR_HDR_MAX) {
			snprintf(lo->why, sizeof(lo->why),
				 "extension headers of more than %u bytes", WR_HDR_MAX - at);
			return -EINVAL;
		}
		lo->bytes[at - 1] = (uint8_t)o->v[0]; /* the previous one's next type */
		lo->bytes[at] = (uint8_t)words;
		wr_opt_put_data(lo->bytes + at + 1, o);
		at = (uint16_t)(at + 4 * words);
	}
	lo->hlen = at;
	return 0;
}

/* The optional part when E, S or PN says so, the extension headers the
 * types chain, then a G-PDU's user packet, IPv4 or IPv6 by its version. */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	uint32_t hl = GTPU_HLEN;
	uint8_t type;

	if (len < GTPU_HLEN)
		return -EINVAL;
	if ((h[0] & 0xf0) != FLAGS_V1_GTP)
		return 0;
	if (h[0] & (FLAG_E | FLAG_S | FLAG_PN)) {
		hl += OPT_LEN;
		if (len < hl)
			return -EINVAL;
		for (type = (h[0] & FLAG_E) ? h[hl - 1] : 0; type != 0; type = h[hl - 1]) {
			if (len < hl + 1 || h[hl] == 0 || len < hl + 4u * h[hl])
				return -EINVAL;
			hl += 4u * h[hl];
		}
	}
	next->carry = h[1] == MSG_GPDU && len > hl ? WR_CARRY_IP : WR_CARRY_NOTHING;
	next->value = len > hl ? h[hl] >> 4 : 0;
	return (int)hl;
}

/* The length counts what follows the mandatory 8 bytes (section 5.1). */
const struct wr_proto wr_proto_gtpu = {
	.name = "gtpu", .title = "GTP-U", .hlen = GTPU_HLEN, .fixed = fixed,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_IP, .udp_port = WR_UDP_PORT_GTPU,
	.len_off = 2, .len_base = GTPU_HLEN, .opts = &exts, .layout = layout, .rx = rx,
	.rx_hlen = { .chain = true }, /* extension headers, each its own length */
};
