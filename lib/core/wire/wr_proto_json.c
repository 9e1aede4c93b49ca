/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_proto_json: the protocol registry as JSON, the table tools outside the C library read (python/wirerate/trex/registry.json). */
#include <stdarg.h>
#include <stdio.h>

#include "wr_proto.h"

static const char *const carries[] = {
	[WR_CARRY_NOTHING] = "nothing", [WR_CARRY_ETHERTYPE] = "ethertype",
	[WR_CARRY_IPPROTO] = "ipproto", [WR_CARRY_UDP_PORT] = "udp_port",
	[WR_CARRY_ETH] = "eth", [WR_CARRY_MPLS] = "mpls", [WR_CARRY_IP] = "ip",
	[WR_CARRY_CHUNK] = "chunk",
};
static const char *const rules[] = {
	[WR_CSUM_NONE] = "none", [WR_CSUM_HEADER] = "header",
	[WR_CSUM_PSEUDO] = "pseudo", [WR_CSUM_PLAIN] = "plain",
	[WR_CSUM_CRC32C] = "crc32c",
};
static const char *const roles[] = {
	[WR_ROLE_PLAIN] = "plain", [WR_ROLE_NEXT_ETHERTYPE] = "next_ethertype",
	[WR_ROLE_NEXT_IPPROTO] = "next_ipproto",
	[WR_ROLE_NEXT_UDP_PORT] = "next_udp_port", [WR_ROLE_SRC_ADDR] = "src_addr",
	[WR_ROLE_DST_ADDR] = "dst_addr", [WR_ROLE_MY_ETHERTYPE] = "my_ethertype",
	[WR_ROLE_BOTTOM] = "bottom", [WR_ROLE_LINK_DST] = "link_dst",
	[WR_ROLE_LINK_SRC] = "link_src",
};

struct out {
	char *buf;
	size_t len, n;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(o->n < o->len ? o->buf + o->n : NULL,
		      o->n < o->len ? o->len - o->n : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n += (size_t)k;
}

static const char *
tf(bool b)
{
	return b ? "true" : "false";
}

size_t
wr_proto_json(char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };
	unsigned int i, j;

	if (len > 0)
		buf[0] = '\0';
	put(&o, "{\"protocols\": [\n");
	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];

		put(&o, "  {\"name\": \"%s\", \"title\": \"%s\", \"hlen\": %u,\n"
		    "   \"carry\": \"%s\", \"ethertype\": %u, \"rx_ethertypes\": [%u, %u],"
		    " \"ipproto\": %u, \"ipproto_zero\": %s, \"udp_port\": %u,\n"
		    "   \"link\": %s, \"tag\": %s, \"l3\": %s, \"ip_version\": %u,"
		    " \"over_mpls\": %s, \"ext_of\": %u, \"chunk\": %s, \"chunk_type\": %u,\n"
		    "   \"csum\": \"%s\", \"csum_off\": %u, \"csum_ffff\": %s,"
		    " \"l4_csum_required\": %s, \"pseudo_len\": %s, \"len_off\": %d,"
		    " \"len_base\": %u,\n   \"rx_hlen\": {\"off\": %u, \"mask\": %u,"
		    " \"shift\": %u, \"unit\": %u, \"base\": %u, \"bits\": %s,"
		    " \"chain\": %s, \"frag_off\": %u, \"frag_mask\": %u},\n"
		    "   \"fields\": [",
		    p->name, p->title, p->hlen, carries[p->carry], p->ethertype,
		    p->rx_ethertypes[0], p->rx_ethertypes[1], p->ipproto,
		    tf(p->ipproto_zero), p->udp_port, tf(p->link), tf(p->tag),
		    tf(p->l3), p->ip_version, tf(p->over_mpls), p->ext_of,
		    tf(p->chunk), p->chunk_type, rules[p->csum], p->csum_off,
		    tf(p->csum_ffff), tf(p->l4_csum_required), tf(p->pseudo_len),
		    p->len_off, p->len_base, p->rx_hlen.off, p->rx_hlen.mask,
		    p->rx_hlen.shift, p->rx_hlen.unit, p->rx_hlen.base,
		    tf(p->rx_hlen.bits), tf(p->rx_hlen.chain), p->rx_hlen.frag_off,
		    p->rx_hlen.frag_mask);
		for (j = 0; j < p->n_fields; j++) {
			const struct wr_proto_field *f = &p->fields[j];

			put(&o, "%s\n    {\"name\": \"%s\", \"off\": %u, \"span\": %u,"
			    " \"bits\": %u, \"shift\": %u, \"role\": \"%s\"}",
			    j ? "," : "", f->name, f->off, f->span, f->bits,
			    f->shift, roles[f->role]);
		}
		put(&o, "]}%s\n", i + 1 < wr_n_protos ? "," : "");
	}
	put(&o, "]}\n");
	return o.n;
}
