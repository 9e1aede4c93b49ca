/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_proto: the table of registered protocol modules. */
#include <errno.h>
#include <string.h>

#include "wr_proto.h"

/* One line per module (lib/core/proto/wr_proto_<name>.c). */
#define WR_PROTOS(X) \
	X(eth)       \
	X(vlan)      \
	X(mpls)      \
	X(ipv4)      \
	X(ipv6)      \
	X(udp)       \
	X(tcp)       \
	X(icmp)      \
	X(icmp6)     \
	X(vxlan)     \
	X(gre)       \
	X(gre_key)   \
	X(raw)

#define WR_X(n) extern const struct wr_proto wr_proto_##n;
WR_PROTOS(WR_X)
#undef WR_X

const struct wr_proto *const wr_protos[] = {
#define WR_X(n) &wr_proto_##n,
	WR_PROTOS(WR_X)
#undef WR_X
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

const char *
wr_proto_names(void)
{
	static const char names[] =
#define WR_X(n) ", " #n
		WR_PROTOS(WR_X)
#undef WR_X
		;

	return names + 2; /* past the first ", " */
}
