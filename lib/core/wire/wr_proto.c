/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_proto: the table of registered protocol modules. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_proto.h"

#define WR_PROTO(name, file) extern const struct wr_proto wr_proto_##name;
#include "proto/wr_protos.def"
#undef WR_PROTO

const struct wr_proto *const wr_protos[] = {
#define WR_PROTO(name, file) &wr_proto_##name,
#include "proto/wr_protos.def"
#undef WR_PROTO
};
const unsigned int wr_n_protos = sizeof(wr_protos) / sizeof(wr_protos[0]);

const struct wr_proto *
wr_proto_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < wr_n_protos; i++)
		if (strcmp(wr_protos[i]->name, name) == 0)
			return wr_protos[i];
	return NULL;
}

int
wr_proto_field_find(const struct wr_proto *p, const char *name)
{
	unsigned int i;

	for (i = 0; i < p->n_fields; i++)
		if (strcmp(p->fields[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int
wr_proto_rng_tag(const char *key)
{
	const char *dot = strchr(key, '.');
	char name[32];
	const struct wr_proto *p;
	int j;

	if (dot == NULL || (size_t)(dot - key) >= sizeof(name))
		return -ENOENT;
	memcpy(name, key, (size_t)(dot - key));
	name[dot - key] = '\0';
	p = wr_proto_find(name);
	j = p != NULL ? wr_proto_field_find(p, dot + 1) : -ENOENT;
	if (j < 0 || p->fields[j].legacy_tag == 0)
		return -ENOENT;
	return p->fields[j].legacy_tag - 1;
}

int
wr_proto_field_role(const struct wr_proto *p, unsigned int role)
{
	unsigned int i;

	for (i = 0; i < p->n_fields; i++)
		if (p->fields[i].role == role)
			return (int)i;
	return -ENOENT;
}

/* Whether a layer that carries @p kind carries @p above. */
static bool
carries(uint8_t kind, const struct wr_proto *above)
{
	bool raw = above->hlen == 0; /* the layer below says its type */

	switch (kind) {
	case WR_CARRY_ETHERTYPE:
		return above->ethertype != 0 || raw;
	case WR_CARRY_IPPROTO:
		return above->ipproto != 0 || above->ipproto_zero || raw;
	case WR_CARRY_UDP_PORT:
		return above->udp_port != 0 || raw;
	case WR_CARRY_ETH:
		return above->link;
	case WR_CARRY_MPLS:
		return above->over_mpls || raw;
	case WR_CARRY_IP:
		return above->ip_version != 0;
	case WR_CARRY_CHUNK:
		return above->chunk;
	default:
		return false;
	}
}

/* "a, b or c": the registered layers @p kind carries, into buf. */
static void
carried_names(uint8_t kind, char *buf, size_t len)
{
	unsigned int i, n = 0, k = 0;
	size_t at = 0;

	for (i = 0; i < wr_n_protos; i++)
		n += carries(kind, wr_protos[i]);
	buf[0] = '\0';
	for (i = 0; i < wr_n_protos && at < len; i++) {
		if (!carries(kind, wr_protos[i]))
			continue;
		k++;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       k == 1 ? "" : k == n ? " or " : ", ",
				       wr_protos[i]->name);
	}
}

const char *
wr_proto_carry_error(const struct wr_proto *below, const struct wr_proto *above,
		     char *buf, size_t len)
{
	static const char *const what[] = {
		[WR_CARRY_ETHERTYPE] = "a layer with an EtherType",
		[WR_CARRY_IPPROTO] = "a layer with an IP protocol number",
		[WR_CARRY_UDP_PORT] = "a layer with a UDP port",
		[WR_CARRY_ETH] = "the inner frame's link layer",
		[WR_CARRY_MPLS] = "a layer over an MPLS label",
		[WR_CARRY_IP] = "an IP layer",
		[WR_CARRY_CHUNK] = "an SCTP chunk",
	};
	char names[256];

	if (carries(below->carry, above))
		return NULL;
	if (below->carry == WR_CARRY_NOTHING ||
	    below->carry >= sizeof(what) / sizeof(what[0])) {
		snprintf(buf, len, "nothing (the payload follows it)");
		return buf;
	}
	carried_names(below->carry, names, sizeof(names));
	snprintf(buf, len, "%s (%s)", what[below->carry], names);
	return buf;
}

const char *
wr_proto_link_names(char *buf, size_t len)
{
	carried_names(WR_CARRY_ETH, buf, len);
	return buf;
}

const char *
wr_proto_names(void)
{
	static const char names[] =
#define WR_PROTO(name, file) ", " #name
#include "proto/wr_protos.def"
#undef WR_PROTO
		;

	return names + 2; /* past the first ", " */
}

int
wr_proto_layout(const struct wr_layer *l, struct wr_layout *lo)
{
	const struct wr_proto *p = l->proto;
	unsigned int j;

	lo->hlen = p->hlen != 0 ? p->hlen : l->raw_len;
	lo->csum = p->csum;
	lo->csum_off = p->csum_off;
	lo->final_dst = 0;
	lo->computed = 0;
	lo->why[0] = '\0';
	if (lo->hlen > WR_HDR_MAX) {
		snprintf(lo->why, sizeof(lo->why), "more than %u header bytes", WR_HDR_MAX);
		return -EINVAL;
	}
	/* All of it: a module's hook may lengthen the header (GRE's optional
	 * words), and their reserved bytes must read 0, not what the stack
	 * held (the receive decode compares them: wr_dissect). */
	memset(lo->bytes, 0, sizeof(lo->bytes));
	if (p->fixed != NULL)
		memcpy(lo->bytes, p->fixed, lo->hlen);
	else if (p->hlen == 0 && l->raw != NULL)
		memcpy(lo->bytes, l->raw, lo->hlen);
	for (j = 0; j < p->n_fields && j < WR_PROTO_FIELDS_MAX; j++)
		lo->off[j] = p->fields[j].off;
	return p->layout != NULL ? p->layout(l, lo) : 0;
}

/* ---- receive ---- */

/* Who each name a received header may give stands for, built once from
 * the registry before main(): a lookup per layer on the RX path instead
 * of a walk over every module.  The first module in registry order wins. */
static const struct wr_proto *rx_by_ipproto[256];
static const struct wr_proto *rx_link;
/* Names by (carry, value) and each module's next-layer field, in
 * open-addressed tables: a few instructions a layer on the receive path
 * instead of a walk over every name and every field. */
#define RX_SLOTS 256
static struct rx_name {
	const struct wr_proto *p; /* NULL: empty */
	uint8_t carry;
	uint32_t value;
} rx_names[RX_SLOTS];
static struct rx_field {
	const struct wr_proto *p; /* NULL: empty */
	int j;                    /* its carry's NEXT_* field, -ENOENT */
} rx_fields[RX_SLOTS];

static inline unsigned int
rx_name_slot(uint8_t carry, uint32_t value)
{
	return ((value * 0x9e3779b1u) >> 24 ^ carry) & (RX_SLOTS - 1);
}

static inline unsigned int
rx_field_slot(const struct wr_proto *p)
{
	uintptr_t v = (uintptr_t)p;

	return (unsigned int)(v >> 3 ^ v >> 11) & (RX_SLOTS - 1);
}

static void
rx_name_add(uint8_t carry, uint32_t value, const struct wr_proto *p)
{
	unsigned int i, k = rx_name_slot(carry, value);

	/* The first module in registry order keeps a name. */
	for (i = 0; i < RX_SLOTS; i++, k = (k + 1) & (RX_SLOTS - 1)) {
		if (rx_names[k].p == NULL) {
			rx_names[k] = (struct rx_name){ p, carry, value };
			return;
		}
		if (rx_names[k].carry == carry && rx_names[k].value == value)
			return;
	}
}

/* The field that names the next layer, by the carry of @p p. */
static int
rx_field_find(const struct wr_proto *p)
{
	switch (p->carry) {
	case WR_CARRY_ETHERTYPE:
		return wr_proto_field_role(p, WR_ROLE_NEXT_ETHERTYPE);
	case WR_CARRY_IPPROTO:
		return wr_proto_field_role(p, WR_ROLE_NEXT_IPPROTO);
	case WR_CARRY_UDP_PORT:
		return wr_proto_field_role(p, WR_ROLE_NEXT_UDP_PORT);
	default:
		return -ENOENT;
	}
}

static void
rx_field_add(const struct wr_proto *p)
{
	unsigned int i, k = rx_field_slot(p);

	for (i = 0; i < RX_SLOTS; i++, k = (k + 1) & (RX_SLOTS - 1))
		if (rx_fields[k].p == NULL) {
			rx_fields[k] = (struct rx_field){ p, rx_field_find(p) };
			return;
		}
}

static inline int
rx_field(const struct wr_proto *p)
{
	unsigned int i, k = rx_field_slot(p);

	for (i = 0; i < RX_SLOTS && rx_fields[k].p != NULL;
	     i++, k = (k + 1) & (RX_SLOTS - 1))
		if (rx_fields[k].p == p)
			return rx_fields[k].j;
	return rx_field_find(p); /* not in the registry */
}

__attribute__((constructor)) static void
rx_tables(void)
{
	unsigned int i, k;

	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];

		rx_field_add(p);
		if (p->hlen == 0)
			continue; /* raw: nothing on the wire says it is one */
		if (p->link && rx_link == NULL)
			rx_link = p;
		if ((p->ipproto != 0 || p->ipproto_zero) && rx_by_ipproto[p->ipproto] == NULL)
			rx_by_ipproto[p->ipproto] = p;
		if (p->ethertype != 0)
			rx_name_add(WR_CARRY_ETHERTYPE, p->ethertype, p);
		for (k = 0; k < 2; k++)
			if (p->rx_ethertypes[k] != 0)
				rx_name_add(WR_CARRY_ETHERTYPE, p->rx_ethertypes[k], p);
		if (p->udp_port != 0)
			rx_name_add(WR_CARRY_UDP_PORT, p->udp_port, p);
		if (p->ip_version != 0)
			rx_name_add(WR_CARRY_IP, p->ip_version, p);
		if (p->chunk)
			rx_name_add(WR_CARRY_CHUNK, p->chunk_type, p);
	}
}

const struct wr_proto *
wr_proto_link(void)
{
	return rx_link;
}

const struct wr_proto *
wr_proto_rx_next(const struct wr_rx_next *next)
{
	unsigned int i, k;

	switch (next->carry) {
	case WR_CARRY_IPPROTO:
		return next->value < 256 ? rx_by_ipproto[next->value] : NULL;
	case WR_CARRY_ETH:
		return rx_link;
	case WR_CARRY_NOTHING:
		return NULL;
	default:
		for (i = 0, k = rx_name_slot(next->carry, next->value);
		     i < RX_SLOTS && rx_names[k].p != NULL;
		     i++, k = (k + 1) & (RX_SLOTS - 1))
			if (rx_names[k].carry == next->carry &&
			    rx_names[k].value == next->value)
				return rx_names[k].p;
		return NULL;
	}
}

int
wr_proto_rx(const struct wr_proto *p, const uint8_t *h, uint32_t len,
	    struct wr_rx_next *next)
{
	const struct wr_proto_field *pf;
	int j = -ENOENT;

	if (p->rx != NULL)
		return p->rx(h, len, next);
	if (p->hlen == 0 || len < p->hlen)
		return -EINVAL;
	next->carry = WR_CARRY_NOTHING;
	next->value = 0;
	switch (p->carry) {
	case WR_CARRY_ETHERTYPE:
	case WR_CARRY_IPPROTO:
	case WR_CARRY_UDP_PORT:
		j = rx_field(p);
		break;
	case WR_CARRY_ETH:
		next->carry = WR_CARRY_ETH;
		return p->hlen;
	default:
		return p->hlen;
	}
	if (j >= 0) {
		pf = &p->fields[j];
		next->carry = p->carry;
		next->value = (uint32_t)(wr_get_be(h + pf->off, pf->span) >> pf->shift) &
			      (uint32_t)((1ull << pf->bits) - 1);
	}
	return p->hlen;
}

uint8_t
wr_proto_rx_csum(const struct wr_proto *p, const uint8_t *h, uint32_t len,
		 uint16_t *off)
{
	if (p->rx_csum != NULL)
		return p->rx_csum(h, len, off);
	*off = p->csum_off;
	return p->csum;
}

uint32_t
wr_proto_rx_hlen(const struct wr_proto *p, const uint8_t *h, uint32_t len)
{
	const struct wr_rx_hlen *r = &p->rx_hlen;
	uint32_t hl;

	if (r->chain)
		return 0;
	if (r->unit == 0)
		hl = p->hlen;
	else if (len <= r->off)
		return 0;
	else if (r->bits)
		hl = r->base + r->unit * (uint32_t)__builtin_popcount(h[r->off] & r->mask);
	else
		hl = r->base + r->unit * (uint32_t)((h[r->off] & r->mask) >> r->shift);
	return hl <= len ? hl : 0;
}
