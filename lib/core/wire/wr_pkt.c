/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_pkt: walk a received frame's header stack over the protocol registry. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "wr_pkt.h"
#include "wr_proto.h"

/* The length a hint gives the raw layer @p next names, 0 if none. */
static uint16_t
raw_len(const struct wr_pkt_hints *h, const struct wr_rx_next *next)
{
	uint32_t i;

	for (i = 0; h != NULL && i < h->n; i++)
		if (h->raw[i].carry == next->carry && h->raw[i].value == next->value)
			return h->raw[i].len;
	return 0;
}

static int
walk(const uint8_t *frame, uint32_t len, const struct wr_pkt_hints *hints,
     bool l2_only, struct wr_pkt *out)
{
	const struct wr_proto *p = wr_proto_link();
	bool in_l2 = true;
	struct wr_rx_next next;
	uint32_t off = 0;
	uint16_t rl;
	int hl;

	out->l2_len = 0;
	out->ethertype = 0;
	out->n_tags = 0;
	out->n = 0;
	out->pay_off = 0;
	while (p != NULL && out->n < WR_PKT_LAYERS_MAX) {
		hl = wr_proto_rx(p, frame + off, len - off, &next);
		if (hl < 0) {
			out->pay_off = (uint16_t)off;
			return -EINVAL;
		}
		if (hl == 0)
			break;
		out->proto[out->n] = p;
		out->off[out->n++] = (uint16_t)off;
		off += (uint32_t)hl;
		if (in_l2 && (p->link || p->tag)) {
			out->l2_len = (uint16_t)off;
			out->n_tags += p->tag;
			out->ethertype = next.carry == WR_CARRY_ETHERTYPE ?
					 (uint16_t)next.value : 0;
		}
		p = wr_proto_rx_next(&next);
		in_l2 &= p != NULL && p->tag;
		if (l2_only && !in_l2)
			break;
		if (p == NULL && (rl = raw_len(hints, &next)) != 0 &&
		    off + rl <= len)
			off += rl;
	}
	out->pay_off = (uint16_t)off;
	return 0;
}

int
wr_pkt_parse_l2(const uint8_t *frame, uint32_t len, struct wr_pkt *out)
{
	return walk(frame, len, NULL, true, out);
}

int
wr_pkt_parse(const uint8_t *frame, uint32_t len,
	     const struct wr_pkt_hints *hints, struct wr_pkt *out)
{
	return walk(frame, len, hints, false, out);
}

int
wr_pkt_hints_add(struct wr_pkt_hints *h, const struct wr_pkt_raw *raw)
{
	uint32_t i;

	for (i = 0; i < h->n; i++)
		if (h->raw[i].carry == raw->carry && h->raw[i].value == raw->value &&
		    h->raw[i].len == raw->len)
			return 0;
	if (h->n == WR_PKT_RAW_MAX)
		return -ENOSPC;
	h->raw[h->n++] = *raw;
	return 0;
}
