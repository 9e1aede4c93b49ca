/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_pkt_csum: a received frame's checksums, where its protocol modules say they are. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_pkt.h"
#include "wr_pkt_csum.h"
#include "wr_proto.h"

/* Where the IP datagram of the IP header @p ipp at @p ip (@p hl bytes)
 * ends, by its length field; 0 when it says less than its header or more
 * than the frame holds (a datagram we do not hold whole). */
static uint32_t
datagram_end(const struct wr_proto *ipp, const uint8_t *buf, uint16_t len,
	     uint16_t ip, uint32_t hl)
{
	uint32_t end;

	if (ipp->len_off < 0)
		return len;
	end = (uint32_t)ip + ipp->len_base + wr_get16(buf + ip + ipp->len_off);
	return end < ip + hl || end > len ? 0 : end;
}

/* The region of the checksum of rule @p rule at @p co in @p p's header at
 * @p at, its datagram the IP header @p ipp at @p ip, ending at @p end.
 * @return 0, or -EINVAL when the field does not fit or the IP layer has
 * no pseudo-header to give. */
static int
region(const struct wr_proto *p, uint8_t rule, uint16_t co, uint16_t at,
       uint32_t end, const struct wr_proto *ipp, uint16_t ip,
       struct wr_csum_region *r)
{
	uint32_t w = rule == WR_CSUM_CRC32C ? 4 : 2;

	memset(r, 0, sizeof(*r));
	if ((uint32_t)at + co + w > end)
		return -EINVAL;
	r->proto = p;
	r->rule = rule;
	r->ffff = p->csum_ffff;
	r->ip = ip;
	r->start = at;
	r->end = (uint16_t)end;
	r->csum = (uint16_t)(at + co);
	if (rule == WR_CSUM_PSEUDO) {
		int s = wr_proto_field_role(ipp, WR_ROLE_SRC_ADDR);
		int d = wr_proto_field_role(ipp, WR_ROLE_DST_ADDR);
		int n = wr_proto_field_role(ipp, WR_ROLE_NEXT_IPPROTO);

		if (s < 0 || d < 0 || n < 0 ||
		    ipp->fields[d].off != ipp->fields[s].off + ipp->fields[s].span)
			return -EINVAL;
		r->ipproto = p->ipproto;
		r->addr = (uint16_t)(ip + ipp->fields[s].off);
		r->addr_end = (uint16_t)(ip + ipp->fields[d].off + ipp->fields[d].span);
		r->proto_at = (uint16_t)(ip + ipp->fields[n].off);
	}
	return 0;
}

unsigned int
wr_pkt_csums(const uint8_t *buf, uint16_t len, unsigned int rules,
	     struct wr_csum_region *out, unsigned int max)
{
	const struct wr_proto *ipp = NULL;
	struct wr_rx_next nx;
	uint32_t end = 0;
	unsigned int i, n = 0;
	uint16_t ip = 0;
	unsigned int whole = WR_PKT_LAYERS_MAX; /* layers outside a fragment */
	struct wr_pkt pk;

	/* A frame cut inside a header: the checksums of those before it. */
	(void)wr_pkt_parse(buf, len, NULL, &pk);
	for (i = 0; i < pk.n && n < max; i++) {
		const struct wr_proto *p = pk.proto[i];
		uint16_t at = pk.off[i], co = 0;
		uint32_t hl = (uint32_t)(i + 1 < pk.n ? pk.off[i + 1] : pk.pay_off) - at;
		uint8_t rule = wr_proto_rx_csum(p, buf + at, len - at, &co);

		if (p->l3) {
			ipp = p;
			ip = at;
			end = datagram_end(p, buf, len, at, hl);
		}
		/* Headers after a fragmenting one are in a fragment. */
		nx.frag = false;
		if (whole == WR_PKT_LAYERS_MAX &&
		    wr_proto_rx(p, buf + at, len - at, &nx) > 0 && nx.frag)
			whole = i + 1;
		if (rule == WR_CSUM_NONE || !(rules & WR_PKT_CSUM_RULE(rule)))
			continue;
		if (rule == WR_CSUM_HEADER) {
			if (region(p, rule, co, at, at + hl, p, at, &out[n]) == 0)
				n++;
			continue;
		}
		/* Over the rest of a datagram: one held whole. */
		if (ipp == NULL || end == 0 || i >= whole ||
		    region(p, rule, co, at, end, ipp, ip, &out[n]) != 0)
			continue;
		/* A 0 that means "no checksum", where the IP layer allows it. */
		if (p->csum_ffff && !ipp->l4_csum_required &&
		    wr_get16(buf + out[n].csum) == 0)
			continue;
		n++;
	}
	return n;
}

int
wr_pkt_csum_at(const uint8_t *buf, uint16_t len, const struct wr_proto *p,
	       uint16_t off, uint16_t ip, struct wr_csum_region *r)
{
	struct wr_rx_next nx = { .carry = WR_CARRY_IP };
	const struct wr_proto *ipp;
	uint32_t end;
	uint16_t co;
	uint8_t rule;
	int hl;

	if (ip >= len || off >= len)
		return -EINVAL;
	nx.value = buf[ip] >> 4;
	ipp = wr_proto_rx_next(&nx);
	if (ipp == NULL || !ipp->l3)
		return -EINVAL;
	hl = wr_proto_rx(ipp, buf + ip, len - ip, &nx);
	if (hl <= 0)
		return -EINVAL;
	rule = wr_proto_rx_csum(p, buf + off, len - off, &co);
	if (rule == WR_CSUM_HEADER)
		return p == ipp && off == ip ?
			region(p, rule, co, off, off + (uint32_t)hl, p, ip, r) : -EINVAL;
	if (rule == WR_CSUM_NONE)
		return -EINVAL;
	/* The datagram as its header says, within the frame. */
	end = ipp->len_off < 0 ? len : (uint32_t)ip + ipp->len_base +
	      wr_get16(buf + ip + ipp->len_off);
	if (end > len)
		end = len;
	if (off < ip + (uint32_t)hl || off >= end)
		return -EINVAL;
	/* Right after the IP header, that header names it. */
	if (off == ip + (uint32_t)hl && nx.value != p->ipproto)
		return -ENOENT;
	return region(p, rule, co, off, end, ipp, ip, r);
}

const struct wr_proto *
wr_pkt_csum_kind(unsigned int k)
{
	unsigned int i, seen = 0;

	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];

		if (p->csum != WR_CSUM_NONE &&
		    (WR_PKT_CSUM_SUM16 & WR_PKT_CSUM_RULE(p->csum)) && seen++ == k)
			return p;
	}
	return NULL;
}

const char *
wr_pkt_csum_kind_names(char *buf, size_t len)
{
	const struct wr_proto *p;
	unsigned int k;
	size_t at = 0;

	buf[0] = '\0';
	for (k = 0; (p = wr_pkt_csum_kind(k)) != NULL && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", k ? ", " : "",
				       p->name);
	return buf;
}

uint64_t
wr_pkt_pseudo_sum(const uint8_t *buf, const struct wr_csum_region *r)
{
	if (r->rule != WR_CSUM_PSEUDO)
		return 0;
	return (uint64_t)wr_csum_sum(buf + r->addr, (uint32_t)(r->addr_end - r->addr)) +
	       r->ipproto + (r->proto->pseudo_len ? (uint64_t)(r->end - r->start) : 0);
}

void
wr_pkt_csum_fix(uint8_t *buf, const struct wr_csum_region *r)
{
	uint32_t crc;
	uint16_t c;

	if (r->rule == WR_CSUM_CRC32C) {
		/* RFC 9260 section 6.8: over the field as 0, carried
		 * little-endian. */
		memset(buf + r->csum, 0, 4);
		crc = wr_crc32c(buf + r->start, (size_t)(r->end - r->start));
		buf[r->csum] = (uint8_t)crc;
		buf[r->csum + 1] = (uint8_t)(crc >> 8);
		buf[r->csum + 2] = (uint8_t)(crc >> 16);
		buf[r->csum + 3] = (uint8_t)(crc >> 24);
		return;
	}
	wr_put16(buf + r->csum, 0);
	c = (uint16_t)~wr_csum_fold(wr_pkt_pseudo_sum(buf, r) +
				    wr_csum_sum(buf + r->start,
						(uint32_t)(r->end - r->start)));
	if (r->ffff && c == 0)
		c = 0xffff;
	wr_put16(buf + r->csum, c);
}

void
wr_pkt_fix_csums(uint8_t *buf, uint16_t len)
{
	struct wr_csum_region r[WR_PKT_CSUMS_MAX];
	unsigned int n = wr_pkt_csums(buf, len, WR_PKT_CSUM_ALL, r, WR_PKT_CSUMS_MAX);

	while (n-- > 0)
		wr_pkt_csum_fix(buf, &r[n]);
}
