/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_proto: the table of registered protocol modules. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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
		return above->ipproto != 0 || raw;
	case WR_CARRY_UDP_PORT:
		return above->udp_port != 0 || raw;
	case WR_CARRY_ETH:
		return above->link;
	case WR_CARRY_MPLS:
		return above->over_mpls || raw;
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
