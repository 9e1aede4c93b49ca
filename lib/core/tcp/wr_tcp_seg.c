/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_seg: a TCP segment read from a frame (Ethernet, tags, IPv4/IPv6, options) and written from a local's header template. */
#include <string.h>

#include "wr_csum.h"
#include "wr_tcp_priv.h"

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static __uint128_t
rd128(const uint8_t *p)
{
	__uint128_t v = 0;

	for (int i = 0; i < 16; i++)
		v = v << 8 | p[i];
	return v;
}

static void
wr128(uint8_t *p, __uint128_t v)
{
	for (int i = 15; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* Sum of a 128-bit address as 16-bit words (ones' complement). */
static inline uint64_t
sum128(__uint128_t v)
{
	return wr_csum_u64((uint64_t)(v >> 64)) + wr_csum_u64((uint64_t)v);
}

uint32_t
wr_tcp_tsval(uint64_t now)
{
	/* A 1.024 µs clock: RFC 7323 5.4 allows ticks from 59 ns (its
	 * wrap, 73 minutes, stays above the MSL); RTT samples come to the
	 * microsecond, and a new SYN a millisecond after the last one of a
	 * tuple in TIME_WAIT still carries a newer TSval (RFC 6191). */
	return (uint32_t)(now >> 10);
}

/* RFC 9293 3.2's options; a length that runs past the header, a kind's
 * wrong length: malformed (-1). */
static int
parse_opts(const uint8_t *o, uint32_t n, struct wr_tcp_seg *s)
{
	uint32_t i = 0;

	while (i < n) {
		uint8_t kind = o[i];
		uint8_t l;

		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= n)
			return -1;
		l = o[i + 1];
		if (l < 2 || i + l > n)
			return -1;
		switch (kind) {
		case 2:
			if (l != 4)
				return -1;
			s->mss = rd16(o + i + 2);
			break;
		case 3:
			if (l != 3)
				return -1;
			s->ws = o[i + 2] > 14 ? 14 : o[i + 2]; /* RFC 7323 2.3 */
			break;
		case 4:
			if (l != 2)
				return -1;
			s->sack_ok = 1;
			break;
		case 5:
			if (l < 10 || (l - 2) % 8 != 0)
				return -1;
			for (uint32_t k = 0; k < (uint32_t)(l - 2) / 8u && k < 4; k++) {
				s->sack[k].l = rd32(o + i + 2 + 8 * k);
				s->sack[k].r = rd32(o + i + 6 + 8 * k);
				s->n_sack = (uint8_t)(k + 1);
			}
			break;
		case 8:
			if (l != 10)
				return -1;
			s->has_ts = 1;
			s->tsval = rd32(o + i + 2);
			s->tsecr = rd32(o + i + 6);
			break;
		default:
			break;  /* unknown kinds are skipped (RFC 9293 3.1) */
		}
		i += l;
	}
	return 0;
}

static int
parse_tcp(const uint8_t *p, uint32_t n, uint64_t pseudo, struct wr_tcp_seg *s)
{
	uint32_t hl;

	if (n < 20)
		return -1;
	hl = (uint32_t)(p[12] >> 4) * 4u;
	if (hl < 20 || hl > n)
		return -1;
	if (wr_csum_fold(pseudo + wr_csum_sum(p, n)) != 0xffff)
		return -1;
	s->sport = rd16(p);
	s->dport = rd16(p + 2);
	s->seq = rd32(p + 4);
	s->ack = rd32(p + 8);
	s->flags = p[13] & 0x3f;
	s->win = rd16(p + 14);
	s->hdr_len = (uint16_t)hl;
	s->payload = p + hl;
	s->len = n - hl;
	return parse_opts(p + 20, hl - 20, s);
}

/*
 * @return 0 a TCP segment (s filled); 1 not TCP over IP (ARP, ND, ICMP,
 * an IPv6 extension header); -1 malformed (lengths, checksum, options,
 * an IPv4 fragment).
 */
int
wr_tcp_parse(const uint8_t *f, uint32_t len, struct wr_tcp_seg *s)
{
	uint32_t off = 14, ipl;
	uint16_t et;

	memset(s, 0, offsetof(struct wr_tcp_seg, sack));
	s->ws = 0xff;
	if (len < 14)
		return 1;
	s->src_mac = f + 6;
	et = rd16(f + 12);
	for (int k = 0; k < 2 && (et == 0x8100 || et == 0x88a8); k++) {
		if (len < off + 4)
			return 1;
		et = rd16(f + off + 2);
		off += 4;
	}
	if (et == 0x0800) {
		const uint8_t *ip = f + off;
		uint32_t ihl;
		uint64_t ps;

		if (len < off + 20 || (ip[0] >> 4) != 4 || ip[9] != 6)
			return 1;
		ihl = (uint32_t)(ip[0] & 15) * 4u;
		ipl = rd16(ip + 2);
		if (ihl < 20 || ipl < ihl || off + ipl > len)
			return -1;
		if (wr_csum_fold(wr_csum_sum(ip, ihl)) != 0xffff)
			return -1;
		if ((rd16(ip + 6) & 0x3fff) != 0)
			return -1;  /* a fragment: we send none, take none */
		s->src = rd32(ip + 12);
		s->dst = rd32(ip + 16);
		ps = (uint64_t)rd32(ip + 12) + rd32(ip + 16) + 6 + (ipl - ihl);
		return parse_tcp(ip + ihl, ipl - ihl, ps, s);
	}
	if (et == 0x86dd) {
		const uint8_t *ip = f + off;
		uint64_t ps;

		if (len < off + 40 || (ip[0] >> 4) != 6 || ip[6] != 6)
			return 1;
		ipl = rd16(ip + 4);
		if (off + 40 + ipl > len)
			return -1;
		s->v6 = 1;
		s->src = rd128(ip + 8);
		s->dst = rd128(ip + 24);
		ps = sum128(s->src) + sum128(s->dst) + 6 + ipl;
		return parse_tcp(ip + 40, ipl, ps, s);
	}
	return 1;
}

void
wr_tcp_tmpl_init(struct wr_tcp_tmpl *tp, const struct wr_tcp_local *l, bool v6)
{
	uint8_t *b = tp->b;
	uint32_t o = 12;

	memset(tp, 0, sizeof(*tp));
	memcpy(b, l->nh_mac, 6);
	memcpy(b + 6, l->mac, 6);
	for (unsigned int k = 0; k < l->n_tags && k < 2; k++) {
		wr16(b + o, l->tpid[k] ? l->tpid[k] : 0x8100);
		wr16(b + o + 2, l->tci[k]);
		o += 4;
	}
	wr16(b + o, v6 ? 0x86dd : 0x0800);
	tp->l2_len = (uint8_t)(o + 2);
	tp->v6 = v6;
	tp->ip = l->ip;
	b += tp->l2_len;
	if (v6) {
		tp->l3_len = 40;
		b[0] = 0x60;
		b[6] = 6;
		b[7] = 64;
		wr128(b + 8, l->ip);
	} else {
		tp->l3_len = 20;
		b[0] = 0x45;
		wr16(b + 6, 0x4000);    /* DF: ID 0 is then fine (RFC 6864) */
		b[8] = 64;
		b[9] = 6;
		wr32(b + 12, (uint32_t)l->ip);
		tp->ip4_sum = 0x4500 + 0x4000 + (64 << 8 | 6) +
			      (uint32_t)wr_csum_u64((uint32_t)l->ip);
	}
}

/* The options after the 20-byte header; @return their length (a multiple of 4). */
static uint32_t
build_opts(uint8_t *o, const struct wr_tcp_txseg *g)
{
	uint32_t n = 0;

	if (g->syn_opts) {
		o[n] = 2;
		o[n + 1] = 4;
		wr16(o + n + 2, g->mss);
		n += 4;
		if (g->ws != 0xff) {
			o[n] = 1;
			o[n + 1] = 3;
			o[n + 2] = 3;
			o[n + 3] = g->ws;
			n += 4;
		}
		if (g->sack_ok && !g->ts) {
			memcpy(o + n, "\x01\x01\x04\x02", 4);
			n += 4;
		}
	}
	if (g->ts) {
		/* Linux's layout: SACK-permitted in the timestamps' NOPs. */
		if (g->syn_opts && g->sack_ok)
			memcpy(o + n, "\x04\x02", 2);
		else
			memcpy(o + n, "\x01\x01", 2);
		o[n + 2] = 8;
		o[n + 3] = 10;
		wr32(o + n + 4, g->tsval);
		wr32(o + n + 8, g->tsecr);
		n += 12;
	}
	if (g->n_sack > 0) {
		unsigned int k, m = g->ts ? 3 : 4;  /* 40 bytes of options */

		o[n] = 1;
		o[n + 1] = 1;
		o[n + 2] = 5;
		m = g->n_sack < m ? g->n_sack : m;
		o[n + 3] = (uint8_t)(2 + 8 * m);
		for (k = 0; k < m; k++) {
			wr32(o + n + 4 + 8 * k, g->sack[k].l);
			wr32(o + n + 8 + 8 * k, g->sack[k].r);
		}
		n += 4 + 8 * m;
	}
	return n;
}

/*
 * One frame into @p buf: the template's headers, then TCP.  @return its
 * length; @p l3 / @p l4: where IP and TCP start.
 */
uint32_t
wr_tcp_build(uint8_t *buf, const struct wr_tcp_tmpl *tp, __uint128_t dst,
	     uint16_t sport, uint16_t dport, const struct wr_tcp_txseg *g,
	     bool offload, uint16_t *l3, uint16_t *l4)
{
	uint32_t l2 = tp->l2_len, hl, tl;
	uint8_t *ip = buf + l2, *th;
	uint64_t sum, ps;
	uint32_t psum = 0;

	memcpy(buf, tp->b, l2 + tp->l3_len);
	th = ip + tp->l3_len;
	wr16(th, sport);
	wr16(th + 2, dport);
	wr32(th + 4, g->seq);
	wr32(th + 8, g->ack);
	hl = 20 + build_opts(th + 20, g);
	th[12] = (uint8_t)(hl << 2);
	th[13] = g->flags;
	wr16(th + 14, g->win);
	wr32(th + 16, 0);
	if (g->len > 0)
		psum = wr_tcp_app_fill(g->app, g->off, th + hl, g->len);
	tl = hl + g->len;
	if (tp->v6) {
		wr16(ip + 4, (uint16_t)tl);
		wr128(ip + 24, dst);
		ps = sum128(tp->ip) + sum128(dst) + 6 + tl;
	} else {
		wr16(ip + 2, (uint16_t)(tl + 20));
		wr32(ip + 16, (uint32_t)dst);
		ps = (uint64_t)(uint32_t)tp->ip + (uint32_t)dst + 6 + tl;
		if (!offload)
			wr16(ip + 10, wr_csum_ipv4(tp->ip4_sum + tl + 20 +
						   wr_csum_u64((uint32_t)dst)));
	}
	if (offload) {
		wr16(th + 16, wr_csum_fold(ps));
	} else {
		sum = ps + wr_csum_sum(th, hl) + psum;
		wr16(th + 16, (uint16_t)~wr_csum_fold(sum));
	}
	*l3 = (uint16_t)l2;
	*l4 = (uint16_t)(l2 + tp->l3_len);
	return l2 + tp->l3_len + tl;
}
