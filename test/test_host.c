/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the host engine (wr_host): lookups, ARP/NS/echo answered, GARP, DAD, gateways' resolution and aging, bring-up pacing, malformed frames. */
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_host.h"
#include "wr_host_priv.h"
#include "wr_nd.h"
#include "wr_test.h"

#define MS 1000000ull
#define S 1000000000ull
#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))
#define MAX_CAP 64

/* What the engine sent. */
struct cap {
	uint32_t n;
	uint32_t total;
	uint8_t f[MAX_CAP][WR_HOST_FRAME_MAX];
	uint32_t len[MAX_CAP];
};

static int
cap_send(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct cap *c = ctx;

	c->total++;
	if (c->n < MAX_CAP) {
		memcpy(c->f[c->n], frame, len);
		c->len[c->n++] = len;
	}
	return 0;
}

static struct cap *
cap_new(void)
{
	return calloc(1, sizeof(struct cap));
}

struct ctr_find {
	const char *name;
	uint64_t v;
	int found;
};

static void
ctr_put(void *ctx, const char *name, uint64_t v)
{
	struct ctr_find *f = ctx;

	if (strcmp(f->name, name) == 0) {
		f->v = v;
		f->found++;
	}
}

static uint64_t
ctr(const struct wr_hosts *hs, const char *name)
{
	struct ctr_find f = { name, 0, 0 };

	wr_hosts_counters(hs, ctr_put, &f);
	CU_ASSERT_EQUAL(f.found, 1);
	return f.v;
}

static const uint8_t peer_mac[6] = { 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f };
static const uint8_t h0_mac[6] = { 0x02, 0x10, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t vlan100[4] = { 0x81, 0x00, 0x00, 0x64 };

/* One group: @p count hosts from 02:10:00:00:00:01 on VLAN 100, IPv4
 * 10.0.0.10 up by one, gateway 10.0.0.1 when @p gw4. */
static void
group_v4(struct wr_host_group *g, uint32_t count, bool gw4)
{
	memset(g, 0, sizeof(*g));
	strcpy(g->name, "clients");
	g->count = count;
	g->mac = 0x021000000001ull;
	g->mac_step = 1;
	g->n_tags = 1;
	g->tpid[0] = 0x8100;
	g->vlan[0] = 100;
	g->v4.mode = WR_HOST_ADDR_STATIC;
	g->v4.addr = 0x0a00000a;
	g->v4.step = 1;
	g->v4.prefix = 24;
	g->v4.has_gateway = gw4;
	g->v4.gateway = 0x0a000001;
}

static void
test_lookups(void)
{
	struct wr_host_group g[2];
	struct wr_host_specs sp = { g, 2 };
	struct wr_host_rx rx = { .n_tags = 1, .tci = { 100 } };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint8_t mac[6];

	group_v4(&g[0], 10, false);
	group_v4(&g[1], 5, false);
	strcpy(g[1].name, "servers");
	g[1].mac = 0x021000000100ull;
	g[1].vlan[0] = 200;
	g[1].v4.addr = 0x0a00000a;      /* the same addresses, another VLAN */
	CU_ASSERT_EQUAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	CU_ASSERT_EQUAL(wr_hosts_n(hs), 15);
	wr_hosts_start(hs, 1 * S);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	wr_mac_to_bytes(0x021000000005ull, mac);
	CU_ASSERT_EQUAL(wr_hosts_by_mac(hs, mac), 4);
	wr_mac_to_bytes(0x021000000102ull, mac);
	CU_ASSERT_EQUAL(wr_hosts_by_mac(hs, mac), 12);
	wr_mac_to_bytes(0x021000000099ull, mac);
	CU_ASSERT_EQUAL(wr_hosts_by_mac(hs, mac), -1);
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a00000c), 2);
	rx.tci[0] = 200;
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a00000c), 12);
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a000010), -1);  /* only 5 there */
	rx.tci[0] = 300;
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a00000c), -1);
	rx.n_tags = 0;
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a00000c), -1);
	/* An address taken away is no longer found; given back, it is. */
	CU_ASSERT_EQUAL(wr_hosts_set_ip4(hs, 2, 0, 24, 0, 2 * S), 0);
	rx.n_tags = 1;
	rx.tci[0] = 100;
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a00000c), -1);
	CU_ASSERT_EQUAL(wr_hosts_set_ip4(hs, 2, 0x0a000063, 24, 0, 2 * S), 0);
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a000063), 2);
	CU_ASSERT_EQUAL(wr_hosts_by_ip4(hs, &rx, 0x0a00000d), 3);
	wr_hosts_free(hs);
	/* Two groups with one MAC: refused. */
	g[1].mac = 0x021000000009ull;
	CU_ASSERT_EQUAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), -EINVAL);
	CU_ASSERT_PTR_NULL(hs);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "one MAC"));
	free(c);
}

/* 100,000 hosts on a port: created, started at once, each found by its MAC
 * and by its addresses (IPv4 and its two IPv6 ones). */
static void
test_many(void)
{
	const uint32_t n = 100000;
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_host_rx rx = { .n_tags = 1, .tci = { 100 } };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint32_t h, bad = 0;
	uint8_t mac[6];

	group_v4(&g, n, false);
	g.v6.mode = WR_HOST_ADDR_STATIC;
	g.v6.addr = A6(0x20010db800000000ull, 0x1000);
	g.v6.step = 1;
	g.v6.prefix = 64;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	/* 1024 a tick (the service stays responsive), each tick asking for
	 * the next at once. */
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 1024);
	while (ctr(hs, "hosts_started") < n) {
		uint64_t next = wr_hosts_tick(hs, 0);

		if (ctr(hs, "hosts_started") < n)
			CU_ASSERT_EQUAL(next, 0);
	}
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), n);
	CU_ASSERT_EQUAL(c->total, 3 * n);        /* GARP, two DAD NS */
	for (h = 0; h < n; h++) {
		wr_mac_to_bytes(0x021000000001ull + h, mac);
		bad += wr_hosts_by_mac(hs, mac) != h;
		bad += wr_hosts_by_ip4(hs, &rx, 0x0a00000a + h) != h;
		bad += wr_hosts_by_ip6(hs, &rx, A6(0x20010db800000000ull, 0x1000 + h)) != h;
		bad += wr_hosts_by_ip6(hs, &rx, wr_hosts_cget(hs, h)->ip6[0].addr) != h;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* DAD over: every address preferred, announced, the hosts up. */
	wr_hosts_tick(hs, S);
	CU_ASSERT_EQUAL(ctr(hs, "dad_ok"), 2 * n);
	CU_ASSERT_EQUAL(ctr(hs, "na_unsolicited_sent"), 2 * n);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	CU_ASSERT_EQUAL(ctr(hs, "hosts_up"), n);
	/* doc/hosts.md's figure: 352 bytes of table, 4-byte index entries
	 * (MAC 2^18, IPv4 2^18, IPv6 2^20 for 100,000), 12 a timer. */
	printf("\n%u hosts: %zu bytes, %.1f a host\n", n, wr_hosts_mem(hs),
	       (double)wr_hosts_mem(hs) / n);
	CU_ASSERT_EQUAL(wr_hosts_mem(hs), ctr(hs, "mem_bytes"));
	CU_ASSERT(wr_hosts_mem(hs) > 352u * n && wr_hosts_mem(hs) < 440u * n);
	wr_hosts_free(hs);
	free(c);
}

/* Golden bytes: the peer on VLAN 100 asks who has 10.0.0.11; host 1
 * (02:10:00:00:00:02) answers, tagged as asked. */
static void
test_arp_answer(void)
{
	static const uint8_t want[64] = {
		0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,  0x02, 0x10, 0x00, 0x00, 0x00, 0x02,
		0x81, 0x00, 0x00, 0x64,  0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02,
		0x02, 0x10, 0x00, 0x00, 0x00, 0x02,  0x0a, 0x00, 0x00, 0x0b,
		0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,  0x0a, 0x00, 0x00, 0x63,
	};
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint8_t f[128];
	uint16_t n;

	group_v4(&g, 4, false);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	c->n = 0;
	n = wr_arp_build(f, WR_ARP_OP_REQUEST, wr_eth_broadcast, peer_mac,
			 0x0a000063, (const uint8_t[6]){ 0 }, 0x0a00000b, vlan100, 4);
	wr_hosts_input(hs, f, n, 10 * MS);
	CU_ASSERT_EQUAL_FATAL(c->n, 1);
	CU_ASSERT_EQUAL(c->len[0], 64);
	CU_ASSERT_EQUAL(memcmp(c->f[0], want, 64), 0);
	CU_ASSERT_EQUAL(ctr(hs, "arp_answered"), 1);
	/* Not on VLAN 100, or not a host's address: not answered. */
	n = wr_arp_build(f, WR_ARP_OP_REQUEST, wr_eth_broadcast, peer_mac,
			 0x0a000063, (const uint8_t[6]){ 0 }, 0x0a00000b, NULL, 0);
	wr_hosts_input(hs, f, n, 11 * MS);
	n = wr_arp_build(f, WR_ARP_OP_REQUEST, wr_eth_broadcast, peer_mac,
			 0x0a000063, (const uint8_t[6]){ 0 }, 0x0a00000f, vlan100, 4);
	wr_hosts_input(hs, f, n, 12 * MS);
	CU_ASSERT_EQUAL(c->n, 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_ignored"), 2);
	/* A truncated ARP body: counted, dropped. */
	wr_hosts_input(hs, f, 14 + 4 + 10, 13 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "rx_bad_arp"), 1);
	CU_ASSERT_EQUAL(c->n, 1);
	wr_hosts_free(hs);
	free(c);
}

/* RFC 5227's announcement when the address comes up: golden bytes. */
static void
test_garp(void)
{
	static const uint8_t want[64] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
		0x81, 0x00, 0x00, 0x64,  0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
		0x02, 0x10, 0x00, 0x00, 0x00, 0x01,  0x0a, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  0x0a, 0x00, 0x00, 0x0a,
	};
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;

	group_v4(&g, 1, false);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 5 * S);
	CU_ASSERT_EQUAL_FATAL(c->n, 1);
	CU_ASSERT_EQUAL(c->len[0], 64);
	CU_ASSERT_EQUAL(memcmp(c->f[0], want, 64), 0);
	CU_ASSERT_EQUAL(ctr(hs, "garp_sent"), 1);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	wr_hosts_free(hs);
	free(c);
}

static bool
is_arp_request_for(const uint8_t *f, uint32_t tpa)
{
	struct wr_arp_pkt a;

	return wr_arp_parse(f, 64, &a) == 0 && a.op == WR_ARP_OP_REQUEST &&
	       a.tpa == tpa && a.spa == 0x0a00000a;
}

/* No answer: requests at 0, 1 and 2 s (one a second, RFC 1122), FAILED at
 * 3 s; the host is then no longer pending, and counted failed. */
static void
test_gw_fail(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint64_t t;

	group_v4(&g, 1, true);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	CU_ASSERT_EQUAL(c->n, 2);                /* GARP, first request */
	CU_ASSERT_TRUE(is_arp_request_for(c->f[1], 0x0a000001));
	CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->gw4_n.state, WR_NEIGH_INCOMPLETE);
	CU_ASSERT_FALSE(wr_hosts_up(hs));
	for (t = 0; t <= 4 * S; t += MS) {
		wr_hosts_tick(hs, t);
		if (t == S - MS || t == 2 * S - MS)
			CU_ASSERT_EQUAL(c->n, t < S ? 2 : 3);
		if (t == S || t == 2 * S)
			CU_ASSERT_EQUAL(c->n, t == S ? 3 : 4);
		if (t == 3 * S - MS)
			CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->gw4_n.state,
					WR_NEIGH_INCOMPLETE);
		if (t == 3 * S)
			CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->gw4_n.state,
					WR_NEIGH_FAILED);
	}
	CU_ASSERT_EQUAL(c->n, 4);
	CU_ASSERT_TRUE(is_arp_request_for(c->f[2], 0x0a000001));
	CU_ASSERT_TRUE(is_arp_request_for(c->f[3], 0x0a000001));
	CU_ASSERT_EQUAL(ctr(hs, "arp_requests_sent"), 3);
	CU_ASSERT_EQUAL(ctr(hs, "gw_failed"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "gw4_failed"), 1);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	CU_ASSERT_EQUAL(ctr(hs, "hosts_failed"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_up"), 0);
	wr_hosts_free(hs);
	free(c);
}

/* Answered on the second try: REACHABLE, then STALE 30 s later; a
 * request from the gateway teaches its MAC too (STALE). */
static void
test_gw_resolve(void)
{
	static const uint8_t gw_mac[6] = { 0x00, 0x00, 0x5e, 0x00, 0x01, 0x01 };
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 2 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	const struct wr_host *x;
	uint8_t f[128];
	uint64_t t;
	uint16_t n;

	group_v4(&g, 2, true);
	sp.n = 1;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	wr_hosts_tick(hs, S);
	CU_ASSERT_EQUAL(ctr(hs, "arp_requests_sent"), 4);
	n = wr_arp_build(f, WR_ARP_OP_REPLY, h0_mac, gw_mac, 0x0a000001, h0_mac,
			 0x0a00000a, vlan100, 4);
	wr_hosts_input(hs, f, n, S + 500 * MS);
	x = wr_hosts_cget(hs, 0);
	CU_ASSERT_EQUAL(x->gw4_n.state, WR_NEIGH_REACHABLE);
	CU_ASSERT_EQUAL(memcmp(x->gw4_n.mac, gw_mac, 6), 0);
	CU_ASSERT_EQUAL(x->gw4_n.updated_ns, S + 500 * MS);
	/* Host 1 hears the gateway ask for it. */
	n = wr_arp_build(f, WR_ARP_OP_REQUEST, wr_eth_broadcast, gw_mac,
			 0x0a000001, (const uint8_t[6]){ 0 }, 0x0a00000b, vlan100, 4);
	wr_hosts_input(hs, f, n, S + 600 * MS);
	CU_ASSERT_EQUAL(wr_hosts_cget(hs, 1)->gw4_n.state, WR_NEIGH_STALE);
	CU_ASSERT_EQUAL(memcmp(wr_hosts_cget(hs, 1)->gw4_n.mac, gw_mac, 6), 0);
	CU_ASSERT_EQUAL(ctr(hs, "gw_resolved"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "gw_learned_from_request"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "arp_answered"), 1);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	CU_ASSERT_EQUAL(ctr(hs, "hosts_up"), 2);
	/* No more requests went out; REACHABLE until 31.5 s. */
	for (t = 2 * S; t < 32 * S; t += 10 * MS) {
		wr_hosts_tick(hs, t);
		if (t == 31 * S + 490 * MS)
			CU_ASSERT_EQUAL(x->gw4_n.state, WR_NEIGH_REACHABLE);
	}
	CU_ASSERT_EQUAL(x->gw4_n.state, WR_NEIGH_STALE);
	CU_ASSERT_EQUAL(ctr(hs, "gw_stale"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "arp_requests_sent"), 4);
	wr_hosts_free(hs);
	free(c);
}

/* Peers beside the gateways (wr_hosts_peers()): one answered on the
 * second request (REACHABLE, its MAC), one never (FAILED after three
 * requests a second apart), one whose host has no address (FAILED at
 * once); the gateways' counters untouched. */
static void
test_peers(void)
{
	static const uint8_t srv_mac[6] = { 0x02, 0x99, 0, 0, 0, 0x02 };
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_host_peer p[3];
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint8_t f[128];
	uint64_t t;
	uint16_t n;
	uint32_t k, asked2 = 0, asked3 = 0;

	group_v4(&g, 2, false);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	wr_hosts_tick(hs, MS);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	memset(p, 0, sizeof(p));
	p[0].host = 0;
	p[0].n.ip = 0x0a000002;
	p[1].host = 1;
	p[1].n.ip = 0x0a000003;
	p[2].host = 7;          /* no such host */
	p[2].n.ip = 0x0a000004;
	c->n = 0;
	wr_hosts_peers(hs, p, 3, 2 * MS);
	CU_ASSERT_EQUAL(p[2].n.state, WR_NEIGH_FAILED);
	for (t = 2 * MS; t <= 5 * S; t += MS) {
		wr_hosts_tick(hs, t);
		if (t == S + 100 * MS) {
			n = wr_arp_build(f, WR_ARP_OP_REPLY, h0_mac, srv_mac,
					 0x0a000002, h0_mac, 0x0a00000a,
					 vlan100, 4);
			wr_hosts_input(hs, f, n, t);
			CU_ASSERT_EQUAL(p[0].n.state, WR_NEIGH_REACHABLE);
			CU_ASSERT_EQUAL(memcmp(p[0].n.mac, srv_mac, 6), 0);
		}
	}
	for (k = 0; k < c->n; k++) {
		struct wr_arp_pkt a;

		/* Each asked by its own host. */
		if (wr_arp_parse(c->f[k], 64, &a) != 0 ||
		    a.op != WR_ARP_OP_REQUEST)
			continue;
		asked2 += a.tpa == 0x0a000002 && a.spa == 0x0a00000a;
		asked3 += a.tpa == 0x0a000003 && a.spa == 0x0a00000b;
	}
	CU_ASSERT_EQUAL(c->n, 5);
	CU_ASSERT_EQUAL(asked2, 2);
	CU_ASSERT_EQUAL(asked3, 3);
	CU_ASSERT_EQUAL(p[0].n.state, WR_NEIGH_REACHABLE);
	CU_ASSERT_EQUAL(p[1].n.state, WR_NEIGH_FAILED);
	CU_ASSERT_EQUAL(ctr(hs, "peer_resolved"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "peer_failed"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "gw_resolved"), 0);
	CU_ASSERT_EQUAL(ctr(hs, "gw_failed"), 0);
	wr_hosts_free(hs);
	free(c);
}

/* Starts at t0 + k / rate exactly: rate 100/s, 10 hosts, ticks a
 * millisecond apart: host k starts at k * 10 ms, not a tick sooner; a rate
 * of 3/s puts the second at 333.333... ms, so at the 334 ms tick. */
static void
test_pacing_rate(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint64_t t, next;
	uint32_t bad = 0;

	group_v4(&g, 10, false);
	g.bringup_rate = 100;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 7 * S);
	for (t = 7 * S; t <= 7 * S + 200 * MS; t += MS) {
		uint64_t want = (t - 7 * S) / (10 * MS) + 1;

		next = wr_hosts_tick(hs, t);
		bad += ctr(hs, "hosts_started") != (want > 10 ? 10 : want);
		/* The next tick the engine asks for is the next start. */
		if (want < 10)
			bad += next != 7 * S + want * 10 * MS;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	wr_hosts_free(hs);
	g.bringup_rate = 3;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	CU_ASSERT_EQUAL(wr_hosts_tick(hs, 333 * MS), 333333334);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 1);
	wr_hosts_tick(hs, 334 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 2);
	wr_hosts_tick(hs, 666 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 2);
	wr_hosts_tick(hs, 667 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 3);
	wr_hosts_free(hs);
	free(c);
}

/* At most `outstanding` pending: 4 hosts wait for their gateway, the rest
 * wait for them.  One answered at 100 ms: exactly one more starts then
 * (no burst for the time the cap held them); the first failures at 3 s
 * each let one more start. */
static void
test_pacing_cap(void)
{
	static const uint8_t gw_mac[6] = { 0x00, 0x00, 0x5e, 0x00, 0x01, 0x01 };
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint8_t f[128];
	uint64_t t;
	uint32_t bad = 0;
	uint16_t n;

	group_v4(&g, 20, true);
	g.bringup_rate = 1000;
	g.outstanding = 4;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	for (t = 0; t < 100 * MS; t += MS) {
		wr_hosts_tick(hs, t);
		bad += ctr(hs, "hosts_started") != (t / MS + 1 < 4 ? t / MS + 1 : 4);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_pending"), 4);
	n = wr_arp_build(f, WR_ARP_OP_REPLY, h0_mac, gw_mac, 0x0a000001, h0_mac,
			 0x0a00000a, vlan100, 4);
	wr_hosts_input(hs, f, n, 100 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_up"), 1);
	wr_hosts_tick(hs, 100 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 5);
	for (t = 101 * MS; t < 3 * S; t += MS)
		wr_hosts_tick(hs, t);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 5);
	/* Hosts 1, 2, 3 started at 1, 2, 3 ms: they fail at 3.001, 3.002,
	 * 3.003 s, and one starts in each place. */
	wr_hosts_tick(hs, 3 * S + MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_failed"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 6);
	wr_hosts_tick(hs, 3 * S + 2 * MS);
	wr_hosts_tick(hs, 3 * S + 3 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_failed"), 3);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_started"), 8);
	CU_ASSERT_EQUAL(ctr(hs, "hosts_pending"), 4);
	CU_ASSERT_FALSE(wr_hosts_up(hs));
	wr_hosts_free(hs);
	free(c);
}

/* What the wire brings that no host can take: counted by reason. */
static void
test_malformed(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint8_t f[2048] = { 0 }, *ip;

	group_v4(&g, 1, false);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	c->n = 0;
	memcpy(f, h0_mac, 6);
	memcpy(f + 6, peer_mac, 6);
	wr_hosts_input(hs, f, 10, MS);                    /* no link header */
	wr_put16(f + 12, 0x8100);
	wr_put16(f + 16, 0x8100);
	wr_put16(f + 20, 0x8100);
	wr_put16(f + 24, 0x0800);
	wr_hosts_input(hs, f, 64, MS);                    /* three tags */
	wr_hosts_input(hs, f, sizeof(f), MS);             /* over 1536 bytes */
	memset(f + 12, 0, 64);
	wr_put16(f + 12, 0x0800);
	ip = f + 14;
	ip[0] = 0x45;
	wr_put16(ip + 2, 28);
	ip[9] = 17;
	wr_put32(ip + 16, 0x0a00000a);
	wr_hosts_input(hs, f, 60, MS);                    /* checksum 0 */
	wr_put16(ip + 10, wr_csum_ipv4(wr_csum_sum(ip, 20)));
	wr_put16(ip + 24, 9);                             /* UDP length 9 > 8 */
	wr_hosts_input(hs, f, 60, MS);
	wr_put16(ip + 2, 200);                            /* past the frame */
	wr_hosts_input(hs, f, 60, MS);
	wr_put16(ip + 2, 28);
	wr_put16(ip + 6, 0x2000);                         /* MF: a fragment */
	wr_put16(ip + 10, 0);
	wr_put16(ip + 10, wr_csum_ipv4(wr_csum_sum(ip, 20)));
	wr_hosts_input(hs, f, 60, MS);
	wr_put16(f + 12, 0x86dd);
	ip[0] = 0x60;
	wr_put16(ip + 4, 100);                            /* past the frame */
	wr_hosts_input(hs, f, 60, MS);
	wr_put16(f + 12, 0x88cc);                         /* LLDP: nobody's */
	wr_hosts_input(hs, f, 60, MS);
	CU_ASSERT_EQUAL(ctr(hs, "rx_frames"), 9);
	CU_ASSERT_EQUAL(ctr(hs, "rx_short"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_tags"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_too_long"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_bad_ip4_csum"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_bad_udp"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_bad_ip4"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_ip4_frag"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_bad_ip6"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "rx_ignored"), 1);
	CU_ASSERT_EQUAL(c->n, 0);
	wr_hosts_free(hs);
	free(c);
}

static uint32_t fired[8];
static uint64_t fired_at[8];
static uint32_t n_fired;

static void
wheel_fire(struct wr_hosts *hs, uint32_t id, uint64_t now)
{
	(void)hs;
	if (n_fired < 8) {
		fired[n_fired] = id;
		fired_at[n_fired++] = now;
	}
}

/* The wheel alone: timers never early, replaced and cancelled in O(1),
 * several turns (8.192 s) ahead kept until their turn. */
static void
test_wheel(void)
{
	struct wr_host_wheel w = { 0 };
	uint64_t t, next;

	CU_ASSERT_EQUAL_FATAL(wr_host_wheel_init(&w, 4, 1), 0);
	w.based = true;
	w.base_ns = 1 * S;
	wr_host_wheel_set(&w, 0, S + 5 * MS);
	wr_host_wheel_set(&w, 1, S + 20 * S);
	wr_host_wheel_set(&w, 2, S + 5 * MS);
	wr_host_wheel_set(&w, 2, S + 7 * MS + 1);   /* replaced: 8 ms, rounded up */
	wr_host_wheel_set(&w, 3, S + 3 * MS);
	wr_host_wheel_set(&w, 3, 0);                /* cancelled */
	CU_ASSERT_EQUAL(w.armed, 3);
	next = wr_host_wheel_run(&w, S + 4 * MS, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 0);
	CU_ASSERT_EQUAL(next, S + 5 * MS);
	wr_host_wheel_run(&w, S + 5 * MS, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 1);
	CU_ASSERT_EQUAL(fired[0], 0);
	wr_host_wheel_run(&w, S + 7 * MS, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 1);
	wr_host_wheel_run(&w, S + 8 * MS, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 2);
	CU_ASSERT_EQUAL(fired[1], 2);
	for (t = S + 9 * MS; t < 21 * S; t += 7 * MS)
		wr_host_wheel_run(&w, t, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 2);
	/* A late tick fires it then (at the first tick at or after 21 s). */
	wr_host_wheel_run(&w, 21 * S + 3 * MS, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 3);
	CU_ASSERT_EQUAL(fired[2], 1);
	CU_ASSERT_EQUAL(fired_at[2], 21 * S + 3 * MS);
	CU_ASSERT_EQUAL(w.armed, 0);
	CU_ASSERT_EQUAL(wr_host_wheel_run(&w, 22 * S, NULL, wheel_fire), UINT64_MAX);
	/* Set for the past: the next slot, not lost. */
	wr_host_wheel_set(&w, 3, 2 * S);
	wr_host_wheel_run(&w, 22 * S, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 3);
	wr_host_wheel_run(&w, 22 * S + MS, NULL, wheel_fire);
	CU_ASSERT_EQUAL(n_fired, 4);
	CU_ASSERT_EQUAL(fired[3], 3);
	wr_host_wheel_free(&w);
}

/* The indexes under churn: addresses given, changed and taken away at
 * random (Knuth's deletion moving entries back), every lookup checked
 * against the hosts' own fields after each step. */
static void
test_index_churn(void)
{
	const uint32_t n = 2000;
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct wr_host_rx rx = { .n_tags = 1, .tci = { 100 } };
	struct wr_hosts *hs;
	struct cap *c = cap_new();
	struct wr_error err;
	uint32_t i, h, bad = 0, rng = 12345;
	uint64_t t = S;

	group_v4(&g, n, false);
	g.v6.mode = WR_HOST_ADDR_STATIC;
	g.v6.addr = A6(0x20010db800000000ull, 0x1000);
	g.v6.step = 1;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	for (i = 0; i < 20000; i++) {
		__uint128_t a6;

		rng = rng * 1103515245u + 12345u;
		h = (rng >> 8) % n;
		/* Addresses from a set of 4,096: many moves, some clashes
		 * (the first holder is found then, as documented). */
		if (i % 3 == 0)
			wr_hosts_set_ip4(hs, h, (rng >> 20) % 5 == 0 ? 0 :
					 0x0b000000 + (rng >> 8) % 4096, 24, 0, t);
		a6 = A6(0x20010db900000000ull, (rng >> 4) % 4096);
		if (i % 3 == 1 && wr_hosts_cget(hs, h)->n_ip6 < WR_HOST_IP6_MAX)
			wr_hosts_add_ip6(hs, h, a6, 64, WR_IP6_DHCP, 100, 100, t);
		if (i % 3 == 2 && wr_hosts_cget(hs, h)->n_ip6 > 2)
			wr_hosts_del_ip6(hs, h, wr_hosts_cget(hs, h)->ip6[2].addr);
		t += MS;
	}
	for (h = 0; h < n; h++) {
		const struct wr_host *x = wr_hosts_cget(hs, h);
		int64_t o;
		uint8_t s;

		if (x->ip4_state == WR_IP4_UP) {
			o = wr_hosts_by_ip4(hs, &rx, x->ip4);
			bad += o < 0 || wr_hosts_cget(hs, (uint32_t)o)->ip4 != x->ip4;
		}
		for (s = 0; s < x->n_ip6; s++) {
			o = wr_hosts_by_ip6(hs, &rx, x->ip6[s].addr);
			bad += o < 0;
		}
	}
	/* And nothing is found that no host holds. */
	for (i = 0; i < 4096; i++) {
		int64_t o = wr_hosts_by_ip4(hs, &rx, 0x0b000000 + i);

		bad += o >= 0 && wr_hosts_cget(hs, (uint32_t)o)->ip4 != 0x0b000000 + i;
		o = wr_hosts_by_ip6(hs, &rx, A6(0x20010db900000000ull, i));
		if (o >= 0) {
			const struct wr_host *x = wr_hosts_cget(hs, (uint32_t)o);
			uint8_t s, has = 0;

			for (s = 0; s < x->n_ip6; s++)
				has |= x->ip6[s].addr == A6(0x20010db900000000ull, i);
			bad += !has;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	wr_hosts_free(hs);
	free(c);
}

static CU_TestInfo host_tests[] = {
	{ "lookups", test_lookups },
	{ "many", test_many },
	{ "arp_answer", test_arp_answer },
	{ "garp", test_garp },
	{ "gw_fail", test_gw_fail },
	{ "gw_resolve", test_gw_resolve },
	{ "peers", test_peers },
	{ "pacing_rate", test_pacing_rate },
	{ "pacing_cap", test_pacing_cap },
	{ "malformed", test_malformed },
	{ "wheel", test_wheel },
	{ "index_churn", test_index_churn },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "host", .pTests = host_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
