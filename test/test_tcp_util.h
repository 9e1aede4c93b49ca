/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the TCP engine's tests: hand-made frames (checksums by an RFC 1071 loop of their own), two engines wired back to back through a lossy link with a fake clock. */
#ifndef TEST_TCP_UTIL_H
#define TEST_TCP_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_priv.h"

/* ---- hand-made frames ---- */

struct tt_hdr {
	bool v6;
	unsigned int n_tags;
	__uint128_t src, dst;
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t win;
	uint16_t frag;          /* IPv4 flags + offset */
	uint8_t ip_proto;
};

static inline struct tt_hdr
tt_hdr_v4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
	struct tt_hdr h = { .src = src, .dst = dst, .sport = sport,
			    .dport = dport, .win = 8192, .frag = 0x4000,
			    .ip_proto = 6 };
	return h;
}

static inline struct tt_hdr
tt_hdr_v6(uint64_t src_lo, uint64_t dst_lo, uint16_t sport, uint16_t dport)
{
	struct tt_hdr h = { .v6 = true, .sport = sport, .dport = dport,
			    .win = 8192, .ip_proto = 6 };

	h.src = (__uint128_t)0xfd00000000000000ull << 64 | src_lo;
	h.dst = (__uint128_t)0xfd00000000000000ull << 64 | dst_lo;
	return h;
}

/* RFC 1071, byte by byte: not the engine's wr_csum. */
static inline uint32_t
tt_acc(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0;

	for (uint32_t i = 0; i < n; i++)
		s += (i & 1) ? p[i] : (uint32_t)p[i] << 8;
	return s;
}

static inline uint16_t
tt_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static inline uint16_t
tt_sum(const uint8_t *p, uint32_t n)
{
	return tt_fold(tt_acc(p, n));
}

static inline uint16_t
tt_pseudo_v4(uint32_t src, uint32_t dst, uint32_t tcp_len)
{
	return tt_fold((src >> 16) + (src & 0xffff) + (dst >> 16) +
		       (dst & 0xffff) + 6 + tcp_len);
}

/* The TCP checksum check of the segment after the IP header at @p ip. */
static inline uint16_t
tt_tcp_sum(const uint8_t *ip, bool v6)
{
	uint32_t s, n;

	if (v6) {
		n = (uint32_t)(ip[4] << 8 | ip[5]);
		s = tt_acc(ip + 8, 32) + 6 + n + tt_acc(ip + 40, n);
	} else {
		uint32_t ihl = (ip[0] & 15u) * 4;

		n = (uint32_t)(ip[2] << 8 | ip[3]) - ihl;
		s = tt_acc(ip + 12, 8) + 6 + n + tt_acc(ip + ihl, n);
	}
	return tt_fold(s);
}

static inline void
tt_put(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* A frame to the engine: Ethernet (02:00:00:00:00:02), tags, IP, TCP. */
static inline uint32_t
tt_frame(uint8_t *f, const struct tt_hdr *h, const uint8_t *opt, uint32_t on,
	 const uint8_t *pl, uint32_t pn)
{
	uint32_t o = 12, hl = 20 + ((on + 3) & ~3u), ip, th;
	uint16_t ck;

	memset(f, 0, 14 + 8 + 40 + hl);
	memcpy(f, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	for (unsigned int k = 0; k < h->n_tags; k++, o += 4)
		tt_put(f + o, (uint64_t)(k ? 0x8100 : 0x88a8) << 16 | 7, 4);
	tt_put(f + o, h->v6 ? 0x86dd : 0x0800, 2);
	ip = o + 2;
	if (h->v6) {
		f[ip] = 0x60;
		tt_put(f + ip + 4, hl + pn, 2);
		f[ip + 6] = h->ip_proto;
		f[ip + 7] = 64;
		tt_put(f + ip + 8, (uint64_t)(h->src >> 64), 8);
		tt_put(f + ip + 16, (uint64_t)h->src, 8);
		tt_put(f + ip + 24, (uint64_t)(h->dst >> 64), 8);
		tt_put(f + ip + 32, (uint64_t)h->dst, 8);
		th = ip + 40;
	} else {
		f[ip] = 0x45;
		tt_put(f + ip + 2, 20 + hl + pn, 2);
		tt_put(f + ip + 6, h->frag, 2);
		f[ip + 8] = 64;
		f[ip + 9] = h->ip_proto;
		tt_put(f + ip + 12, (uint32_t)h->src, 4);
		tt_put(f + ip + 16, (uint32_t)h->dst, 4);
		ck = (uint16_t)~tt_sum(f + ip, 20);
		tt_put(f + ip + 10, ck, 2);
		th = ip + 20;
	}
	tt_put(f + th, h->sport, 2);
	tt_put(f + th + 2, h->dport, 2);
	tt_put(f + th + 4, h->seq, 4);
	tt_put(f + th + 8, h->ack, 4);
	f[th + 12] = (uint8_t)(hl << 2);
	f[th + 13] = h->flags;
	tt_put(f + th + 14, h->win, 2);
	if (on)
		memcpy(f + th + 20, opt, on);
	if (pn)
		memcpy(f + th + hl, pl, pn);
	ck = (uint16_t)~tt_tcp_sum(f + ip, h->v6);
	tt_put(f + th + 16, ck, 2);
	return th + hl + pn;
}

/* ---- two engines back to back ---- */

#define TT_OUT_MAX 4096
#define TT_FRAME 2048
#define TT_LINK_MAX 16384

struct tt_out {
	uint32_t n;
	uint8_t (*f)[TT_FRAME];
	uint32_t len[TT_OUT_MAX];
};

struct tt_msg {
	uint64_t due;
	uint32_t len;
	uint8_t to;             /* 0 client, 1 server */
	uint8_t f[1600];
};

struct tt_pair {
	struct wr_tcp_class spec;
	struct wr_tcp_local cl_loc, sv_loc;
	__uint128_t srv_ip;
	struct wr_tcp_class_rt rt_c, rt_s;
	struct wr_tcp *cli, *srv;
	uint32_t srv_max, cli_max;
	struct tt_out out[2];
	struct tt_msg *link;
	uint32_t n_link;
	/* the link's schedule, per thousand frames */
	uint32_t drop, dup, reorder;
	uint64_t rng;
	uint64_t now;
	uint64_t lost, duped, reordered;
	unsigned int f0;        /* CUnit's failures before the test */
};

static inline uint8_t *
tt_io_frame(void *ctx, uint32_t room)
{
	struct tt_out *o = ctx;

	if (o->n == TT_OUT_MAX || room > TT_FRAME)
		return NULL;
	return o->f[o->n];
}

static inline void
tt_io_send(void *ctx, uint32_t len, uint16_t l3, uint16_t l4)
{
	struct tt_out *o = ctx;

	(void)l3;
	(void)l4;
	o->len[o->n++] = len;
}

static inline void
tt_pair_fini(struct tt_pair *p)
{
	wr_tcp_free(p->cli);
	wr_tcp_free(p->srv);
	p->cli = p->srv = NULL;
	free(p->out[0].f);
	free(p->out[1].f);
	free(p->link);
}

static inline void
tt_pair_create(struct tt_pair *p)
{
	struct wr_tcp_cfg c = { .n_lanes = 1, .seed = 1234 };
	struct wr_error err;

	wr_tcp_free(p->cli);
	wr_tcp_free(p->srv);
	p->cli = p->srv = NULL;
	p->rt_c = (struct wr_tcp_class_rt){ .spec = &p->spec,
		.clients = &p->cl_loc, .n_clients = 1, .servers = &p->srv_ip,
		.n_servers = 1 };
	p->rt_s = (struct wr_tcp_class_rt){ .spec = &p->spec,
		.listen = &p->sv_loc, .n_listen = 1 };
	c.classes = &p->rt_c;
	c.n_classes = 1;
	c.max_conns = p->cli_max;
	c.io = (struct wr_tcp_io){ .ctx = &p->out[0], .frame = tt_io_frame,
				   .send = tt_io_send };
	if (p->spec.count > 0 || p->spec.duration_ns > 0)
		CU_ASSERT_EQUAL_FATAL(wr_tcp_create(&p->cli, &c, &err), 0);
	c.classes = &p->rt_s;
	c.max_conns = p->srv_max;
	c.seed = 99;
	c.io.ctx = &p->out[1];
	CU_ASSERT_EQUAL_FATAL(wr_tcp_create(&p->srv, &c, &err), 0);
	p->out[0].n = p->out[1].n = 0;
	p->n_link = 0;
}

/* A raw program: the client sends @p c2s bytes, the server @p s2c, the
 * client closes. */
static inline void
tt_class_program(struct tt_pair *p, uint64_t c2s, uint64_t s2c)
{
	struct wr_tcp_class *s = &p->spec;

	s->is_http = false;
	s->n_steps = 3;
	s->steps[0] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND,
		.by = WR_TCP_CLIENT, .bytes = c2s };
	s->steps[1] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND,
		.by = WR_TCP_SERVER, .bytes = s2c };
	s->steps[2] = (struct wr_tcp_step){ .op = WR_TCP_OP_CLOSE,
		.by = WR_TCP_CLIENT };
}

static inline void
tt_pair_init(struct tt_pair *p, uint64_t count, uint32_t conc,
	     uint32_t srv_max)
{
	memset(p, 0, sizeof(*p));
	p->f0 = CU_get_number_of_failures();
	wr_tcp_class_defaults(&p->spec);
	strcpy(p->spec.name, "t");
	p->spec.client.present = p->spec.server.present = true;
	p->spec.count = count;
	p->spec.concurrency = conc ? conc : 1;
	p->spec.tcp.window = 64 * 1024;
	tt_class_program(p, 100, 100);
	p->cl_loc.ip = 0x0a000001;
	memcpy(p->cl_loc.mac, "\x02\0\0\0\0\x01", 6);
	memcpy(p->cl_loc.nh_mac, "\x02\0\0\0\0\x02", 6);
	p->sv_loc.ip = 0x0a000002;
	memcpy(p->sv_loc.mac, "\x02\0\0\0\0\x02", 6);
	memcpy(p->sv_loc.nh_mac, "\x02\0\0\0\0\x01", 6);
	p->srv_ip = 0x0a000002;
	p->srv_max = srv_max;
	p->cli_max = (uint32_t)count + 16;
	p->rng = 0x9e3779b97f4a7c15ull;
	p->out[0].f = malloc((size_t)TT_OUT_MAX * TT_FRAME);
	p->out[1].f = malloc((size_t)TT_OUT_MAX * TT_FRAME);
	p->link = malloc(sizeof(*p->link) * TT_LINK_MAX);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->link);
	tt_pair_create(p);
}

static inline uint64_t
tt_rand(struct tt_pair *p)
{
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return p->rng;
}

static inline void
tt_link_put(struct tt_pair *p, uint8_t to, const uint8_t *f, uint32_t len,
	    uint64_t delay)
{
	struct tt_msg *m;

	if (p->n_link == TT_LINK_MAX || len > sizeof(m->f)) {
		p->lost++;
		return;
	}
	m = &p->link[p->n_link++];
	m->due = p->now + delay;
	m->len = len;
	m->to = to;
	memcpy(m->f, f, len);
}

/* What the engines sent, onto the link by the seeded schedule. */
static inline void
tt_drain(struct tt_pair *p)
{
	for (uint8_t side = 0; side < 2; side++) {
		struct tt_out *o = &p->out[side];

		for (uint32_t k = 0; k < o->n; k++) {
			uint32_t r = (uint32_t)(tt_rand(p) % 1000);
			uint64_t d = 30000;

			if (r < p->drop) {
				p->lost++;
				continue;
			}
			if (r < p->drop + p->dup) {
				p->duped++;
				tt_link_put(p, side ^ 1, o->f[k], o->len[k], d + 7000);
			} else if (r < p->drop + p->dup + p->reorder) {
				p->reordered++;
				d += 150000;
			}
			tt_link_put(p, side ^ 1, o->f[k], o->len[k], d);
		}
		o->n = 0;
	}
}

static inline bool
tt_done(struct tt_pair *p)
{
	return (p->cli == NULL || wr_tcp_done(p->cli)) && wr_tcp_done(p->srv) &&
	       p->n_link == 0;
}

/* Run until both sides are done and the link is empty, or @p max_ns. */
static inline void
tt_run(struct tt_pair *p, uint64_t max_ns, void (*each)(struct tt_pair *))
{
	p->now = 1000000;
	if (p->cli != NULL)
		wr_tcp_start(p->cli, p->now);
	wr_tcp_start(p->srv, p->now);
	for (; p->now < max_ns; p->now += 10000) {
		uint32_t k = 0;

		for (uint32_t j = 0; j < p->n_link; j++) {
			struct tt_msg *m = &p->link[j];

			if (m->due > p->now) {
				if (k != j)
					p->link[k] = *m;
				k++;
				continue;
			}
			wr_tcp_input(m->to ? p->srv : p->cli, m->f, m->len,
				     p->now);
		}
		p->n_link = k;
		tt_drain(p);
		if (p->cli != NULL)
			wr_tcp_poll(p->cli, p->now);
		wr_tcp_poll(p->srv, p->now);
		tt_drain(p);
		if (each != NULL)
			each(p);
		if (tt_done(p))
			break;
	}
}

static inline void
tt_put_ctr(void *ctx, const char *name, uint64_t v)
{
	if (v != 0)
		fprintf(stderr, " %s=%llu", name, (unsigned long long)v);
	(void)ctx;
}

/* On a failure: both sides' counters. */
static inline void
tt_dump(const struct tt_pair *p)
{
	struct wr_tcp_counters c;
	struct wr_tcp_port_counters pc;

	for (int s = 0; s < 2; s++) {
		const struct wr_tcp *t = s ? p->srv : p->cli;

		if (t == NULL)
			continue;
		wr_tcp_counters(t, 0, (enum wr_tcp_side)s, &c);
		wr_tcp_port_counters(t, &pc);
		fprintf(stderr, "\n%s:", s ? "server" : "client");
		wr_tcp_counters_each(&c, tt_put_ctr, NULL);
		fprintf(stderr, " | rx_bad=%llu no_conn=%llu rst=%llu nobuf=%llu "
			"busy=%llu syn_dropped=%llu", (unsigned long long)pc.rx_bad,
			(unsigned long long)pc.rx_no_conn,
			(unsigned long long)pc.rst_sent_no_conn,
			(unsigned long long)pc.tx_nobuf,
			(unsigned long long)pc.ports_busy,
			(unsigned long long)pc.syn_dropped);
	}
	fprintf(stderr, "\nlink: now=%llu lost=%llu duped=%llu reordered=%llu "
		"pending=%u\n", (unsigned long long)p->now,
		(unsigned long long)p->lost, (unsigned long long)p->duped,
		(unsigned long long)p->reordered, p->n_link);
}

#endif /* TEST_TCP_UTIL_H */
