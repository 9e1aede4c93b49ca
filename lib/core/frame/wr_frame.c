/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame: frame templates from any source (wr_frame_src.h), and what they tell the data path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame_priv.h"

void
wr_frame_tmpl_free(struct wr_frame_tmpl *t)
{
	if (t == NULL)
		return;
	if (t->src.ops != NULL)
		t->src.ops->free(&t->src);
	free(t);
}

/*
 * The template sources, tried in order: the first that wants a stream
 * builds it (wr_frame_src.h).  The stack takes every stream: it stays last.
 */
static const struct wr_frame_src_ops *const srcs[] = {
	&wr_frame_src_fe,
	&wr_frame_src_stack,
};

int
wr_frame_tmpl_create(const struct wr_stream *s, uint32_t stream_id,
		     struct wr_frame_tmpl **out, struct wr_error *err)
{
	const struct wr_frame_src_ops *ops = NULL;
	struct wr_frame_tmpl *t;
	size_t i;
	int rc;

	*out = NULL;
	for (i = 0; ops == NULL; i++)
		if (srcs[i]->wants(s))
			ops = srcs[i];
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->src.ops = ops;
	t->stream_id = stream_id;
	rc = ops->build(&t->src, s, err);
	if (rc < 0) {
		wr_frame_tmpl_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

const uint8_t *
wr_frame_tmpl_bytes(const struct wr_frame_tmpl *t)
{
	return t->src.bytes;
}

uint16_t
wr_frame_tmpl_max_len(const struct wr_frame_tmpl *t)
{
	return t->src.max_len;
}

bool
wr_frame_tmpl_is_static(const struct wr_frame_tmpl *t)
{
	return t->src.is_static;
}

bool
wr_frame_tmpl_size_varies(const struct wr_frame_tmpl *t)
{
	return t->src.size_varies;
}

uint16_t
wr_frame_tmpl_sig_off(const struct wr_frame_tmpl *t)
{
	return t->sig_off;
}

int
wr_frame_tmpl_sig_kind(const struct wr_frame_tmpl *t)
{
	return t->sig_off != 0 ? t->sig_kind : -1;
}

const struct wr_frame_offload *
wr_frame_tmpl_offload(const struct wr_frame_tmpl *t)
{
	return &t->offload;
}

uint32_t
wr_frame_tmpl_layers(const struct wr_frame_tmpl *t,
		     const struct wr_proto **proto, uint16_t *off)
{
	uint32_t i;

	for (i = 0; i < t->n_layers; i++) {
		if (proto != NULL)
			proto[i] = t->proto[i];
		if (off != NULL)
			off[i] = t->layer_off[i];
	}
	return t->n_layers;
}

int
wr_frame_tmpl_rx_hint(const struct wr_frame_tmpl *t, struct wr_pkt_raw *out)
{
	const struct wr_proto *below;
	uint32_t i;
	int j;

	for (i = 1; i < t->n_layers; i++) {
		if (t->proto[i]->hlen != 0)
			continue;
		below = t->proto[i - 1];
		j = below->carry == WR_CARRY_ETHERTYPE ?
		    wr_proto_field_role(below, WR_ROLE_NEXT_ETHERTYPE) :
		    below->carry == WR_CARRY_IPPROTO ?
		    wr_proto_field_role(below, WR_ROLE_NEXT_IPPROTO) :
		    below->carry == WR_CARRY_UDP_PORT ?
		    wr_proto_field_role(below, WR_ROLE_NEXT_UDP_PORT) : -ENOENT;
		if (j < 0)
			return -ENOENT;
		out->carry = below->carry;
		out->value = (uint32_t)(wr_get_be(t->bytes + t->layer_off[i - 1] +
						  below->fields[j].off,
						  below->fields[j].span) >>
					below->fields[j].shift) &
			     (uint32_t)((1ull << below->fields[j].bits) - 1);
		out->len = t->layer_len[i];
		return 0;
	}
	return -ENOENT;
}

int
wr_frame_l2_tags(const struct wr_stream *s, uint8_t *tags, uint16_t cap)
{
	struct wr_frame_tmpl *t;
	struct wr_error err;
	uint32_t i;
	uint16_t end;
	int rc;

	rc = wr_frame_tmpl_create(s, 0, &t, &err);
	if (rc < 0)
		return rc;
	for (i = 1; i < t->n_layers && t->proto[i]->tag; i++)
		;
	/* From the link header's EtherType to the last tag's TCI: every
	 * byte of the L2 header but the MACs and the final EtherType. */
	end = (uint16_t)(t->layer_off[i - 1] + t->layer_len[i - 1] - 2);
	rc = end - 2 * 6;
	if (rc > cap)
		rc = -ENOSPC;
	else if (rc > 0)
		memcpy(tags, t->bytes + 12, (size_t)rc);
	wr_frame_tmpl_free(t);
	return rc;
}

int
wr_frame_tmpl_payload_off(const struct wr_frame_tmpl *t)
{
	uint32_t i = t->n_layers;

	/* The innermost UDP or TCP header: a tunnel's outer UDP (VXLAN)
	 * carries the inner frame, which is not the application's data. */
	while (i-- > 0)
		if (t->proto[i]->goodput)
			return t->layer_off[i] + t->layer_len[i];
	return -ENOENT;
}

/* ---- sizes ---- */

uint16_t
wr_frame_size_at(const struct wr_frame_tmpl *t, uint64_t index)
{
	return t->src.ops->size_at(&t->src, index);
}

int
wr_frame_sig_offset(const uint8_t *p, uint32_t len,
		    const struct wr_pkt_hints *hints)
{
	struct wr_pkt k;

	/* Where tmpl_build puts it: after the last layer. */
	if (wr_pkt_parse(p, len, hints, &k) < 0 ||
	    len < (uint32_t)k.pay_off + WR_SIG_SHORT_LEN)
		return -1;
	return k.pay_off;
}
