/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the host engine's IPv6 and echo: DAD (success, duplicate), unsolicited NA, NS answered, the IPv6 gateway resolved or failed, ICMP and ICMPv6 echo; golden bytes from Scapy. */
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_host.h"
#include "wr_nd.h"
#include "wr_test.h"

#define MS 1000000ull
#define S 1000000000ull
#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))
#define MAX_CAP 32
#define OURS A6(0x20010db800000000ull, 0x10)
#define PEER A6(0x20010db800000000ull, 0x99)
#define GW A6(0x20010db800000000ull, 0x01)
#define LL A6(0xfe80000000000000ull, 0x001000fffe000001ull)

/* The golden frames: Scapy 2.5.0 wrote them (python3-scapy), e.g.
 * Ether(dst=peer, src=h)/Dot1Q(vlan=100)/IPv6(src="2001:db8::10",
 * dst="2001:db8::99", hlim=255)/ICMPv6ND_NA(R=0, S=1, O=1,
 * tgt="2001:db8::10")/ICMPv6NDOptDstLLAddr(lladdr=h). */
static const uint8_t na_solicited[] = {
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x64, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x20,
	0x3a, 0xff, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x99, 0x88, 0x00,
	0x89, 0xae, 0x60, 0x00, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x02, 0x01,
	0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
};
/* IPv6(src="::", dst="ff02::1:ff00:10", hlim=255)/ICMPv6ND_NS(tgt=...). */
static const uint8_t ns_dad[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x10, 0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x64, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x18,
	0x3a, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x10, 0x87, 0x00,
	0x4c, 0xcf, 0x00, 0x00, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};
/* To ff02::1 (33:33:00:00:00:01), ICMPv6ND_NA(R=0, S=0, O=1). */
static const uint8_t na_unsolicited[] = {
	0x33, 0x33, 0x00, 0x00, 0x00, 0x01, 0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x64, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x20,
	0x3a, 0xff, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x88, 0x00,
	0xf8, 0xfc, 0x20, 0x00, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x02, 0x01,
	0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
};
/* From the link-local fe80::10:ff:fe00:1 for 2001:db8::1, with the source
 * link-layer option. */
static const uint8_t ns_gw[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x01, 0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x64, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x20,
	0x3a, 0xff, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
	0x00, 0xff, 0xfe, 0x00, 0x00, 0x01, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x01, 0x87, 0x00,
	0x4c, 0x41, 0x00, 0x00, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01,
	0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
};
/* IP(src="10.0.0.99", dst="10.0.0.10", id=7)/ICMP(type=8, id=0x1234,
 * seq=5)/b"wirerate", and the reply Scapy builds for it. */
static const uint8_t echo4_req[] = {
	0x02, 0x10, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,
	0x81, 0x00, 0x00, 0x64, 0x08, 0x00, 0x45, 0x00, 0x00, 0x24, 0x00, 0x07,
	0x00, 0x00, 0x40, 0x01, 0x66, 0x66, 0x0a, 0x00, 0x00, 0x63, 0x0a, 0x00,
	0x00, 0x0a, 0x08, 0x00, 0x15, 0x31, 0x12, 0x34, 0x00, 0x05, 0x77, 0x69,
	0x72, 0x65, 0x72, 0x61, 0x74, 0x65,
};
static const uint8_t echo4_rep[] = {
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x64, 0x08, 0x00, 0x45, 0x00, 0x00, 0x24, 0x00, 0x07,
	0x00, 0x00, 0x40, 0x01, 0x66, 0x66, 0x0a, 0x00, 0x00, 0x0a, 0x0a, 0x00,
	0x00, 0x63, 0x00, 0x00, 0x1d, 0x31, 0x12, 0x34, 0x00, 0x05, 0x77, 0x69,
	0x72, 0x65, 0x72, 0x61, 0x74, 0x65,
};
static const uint8_t echo6_req[] = {
	0x02, 0x10, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,
	0x81, 0x00, 0x00, 0x64, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x10,
	0x3a, 0x40, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x99, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x80, 0x00,
	0x40, 0xcb, 0x12, 0x34, 0x00, 0x05, 0x77, 0x69, 0x72, 0x65, 0x72, 0x61,
	0x74, 0x65,
};
static const uint8_t echo6_rep[] = {
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x02, 0x10, 0x00, 0x00, 0x00, 0x01,
	0x81, 0x00, 0x00, 0x64, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x10,
	0x3a, 0x40, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x99, 0x81, 0x00,
	0x3f, 0xcb, 0x12, 0x34, 0x00, 0x05, 0x77, 0x69, 0x72, 0x65, 0x72, 0x61,
	0x74, 0x65,
};

static const uint8_t peer_mac[6] = { 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f };
static const uint8_t h0_mac[6] = { 0x02, 0x10, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t gw_mac[6] = { 0x00, 0x00, 0x5e, 0x00, 0x02, 0x01 };
static const uint8_t vlan100[4] = { 0x81, 0x00, 0x00, 0x64 };

struct cap {
	uint32_t n;
	uint8_t f[MAX_CAP][WR_HOST_FRAME_MAX];
	uint32_t len[MAX_CAP];
};

static int
cap_send(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct cap *c = ctx;

	if (c->n < MAX_CAP) {
		memcpy(c->f[c->n], frame, len);
		c->len[c->n++] = len;
	}
	return 0;
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

/* Host 0 02:10:00:00:00:01 on VLAN 100: 10.0.0.10 and 2001:db8::10,
 * gateway 2001:db8::1 when @p gw6. */
static void
group_v6(struct wr_host_group *g, uint32_t count, bool gw6)
{
	memset(g, 0, sizeof(*g));
	strcpy(g->name, "v6");
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
	g->v6.mode = WR_HOST_ADDR_STATIC;
	g->v6.addr = OURS;
	g->v6.step = 1;
	g->v6.prefix = 64;
	g->v6.has_gateway = gw6;
	g->v6.gateway = GW;
}

static bool
frame_is(const struct cap *c, uint32_t i, const uint8_t *want, uint32_t len)
{
	uint32_t j;

	if (i >= c->n || c->len[i] < len)
		return false;
	for (j = len; j < c->len[i]; j++)
		if (c->f[i][j] != 0)
			return false;   /* padding is zeros */
	return memcmp(c->f[i], want, len) == 0;
}

/* DAD of the link-local and the static address: an NS from :: each at
 * once, PREFERRED one RetransTimer (1 s) later with an unsolicited NA
 * each; then the gateway's NS from the link-local address, its NA,
 * REACHABLE, the host up.  The peer's NS is not answered while the
 * address is tentative, and answered after. */
static void
test_dad_and_gw6(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct cap *c = calloc(1, sizeof(*c));
	struct wr_hosts *hs;
	struct wr_error err;
	const struct wr_host *x;
	uint8_t f[WR_ND_FRAME_MAX];
	uint16_t n;

	group_v6(&g, 1, true);
	g.v4.mode = WR_HOST_ADDR_NONE;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	x = wr_hosts_cget(hs, 0);
	CU_ASSERT_EQUAL_FATAL(x->n_ip6, 2);
	CU_ASSERT_TRUE(x->ip6[0].addr == LL && x->ip6[0].origin == WR_IP6_LINK_LOCAL);
	CU_ASSERT_EQUAL(x->ip6[0].state, WR_IP6_TENTATIVE);
	CU_ASSERT_TRUE(x->ip6[1].addr == OURS);
	CU_ASSERT_EQUAL(x->ip6[1].state, WR_IP6_TENTATIVE);
	CU_ASSERT_EQUAL_FATAL(c->n, 2);
	CU_ASSERT_TRUE(frame_is(c, 1, ns_dad, sizeof(ns_dad)));
	CU_ASSERT_EQUAL(x->gw6_n.state, WR_NEIGH_INCOMPLETE);
	CU_ASSERT_FALSE(wr_hosts_up(hs));
	/* Someone asks for the tentative address: no answer (RFC 4862 5.4). */
	n = wr_nd_build_ns(f, peer_mac, PEER, OURS, vlan100, 4);
	wr_hosts_input(hs, f, n, 500 * MS);
	wr_hosts_tick(hs, 999 * MS);
	CU_ASSERT_EQUAL(c->n, 2);
	wr_hosts_tick(hs, S);
	CU_ASSERT_EQUAL(x->ip6[0].state, WR_IP6_PREFERRED);
	CU_ASSERT_EQUAL(x->ip6[1].state, WR_IP6_PREFERRED);
	CU_ASSERT_EQUAL_FATAL(c->n, 5);
	CU_ASSERT_TRUE(frame_is(c, 3, na_unsolicited, sizeof(na_unsolicited)));
	CU_ASSERT_TRUE(frame_is(c, 4, ns_gw, sizeof(ns_gw)));
	CU_ASSERT_EQUAL(ctr(hs, "dad_ok"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "dad_ns_sent"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "ns_sent"), 1);
	/* Now the peer's NS is answered: golden bytes. */
	n = wr_nd_build_ns(f, peer_mac, PEER, OURS, vlan100, 4);
	wr_hosts_input(hs, f, n, S + 100 * MS);
	CU_ASSERT_EQUAL_FATAL(c->n, 6);
	CU_ASSERT_TRUE(frame_is(c, 5, na_solicited, sizeof(na_solicited)));
	CU_ASSERT_EQUAL(ctr(hs, "ns_answered"), 1);
	/* The router answers to the link-local address. */
	n = wr_nd_build_na(f, gw_mac, h0_mac, GW, LL, GW,
			   WR_ND_NA_R | WR_ND_NA_S | WR_ND_NA_O, vlan100, 4);
	wr_hosts_input(hs, f, n, S + 200 * MS);
	CU_ASSERT_EQUAL(x->gw6_n.state, WR_NEIGH_REACHABLE);
	CU_ASSERT_EQUAL(memcmp(x->gw6_n.mac, gw_mac, 6), 0);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	CU_ASSERT_EQUAL(ctr(hs, "hosts_up"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "gw6_reachable"), 1);
	wr_hosts_free(hs);
	free(c);
}

/* No router: NS at 1, 2, 3 s (after DAD), FAILED at 4 s. */
static void
test_gw6_fail(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct cap *c = calloc(1, sizeof(*c));
	struct wr_hosts *hs;
	struct wr_error err;
	uint64_t t;

	group_v6(&g, 1, true);
	g.v4.mode = WR_HOST_ADDR_NONE;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	for (t = MS; t < 4 * S; t += MS)
		wr_hosts_tick(hs, t);
	CU_ASSERT_EQUAL(ctr(hs, "ns_sent"), 3);
	CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->gw6_n.state, WR_NEIGH_INCOMPLETE);
	CU_ASSERT_FALSE(wr_hosts_up(hs));
	wr_hosts_tick(hs, 4 * S);
	CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->gw6_n.state, WR_NEIGH_FAILED);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	CU_ASSERT_EQUAL(ctr(hs, "hosts_failed"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "gw_failed"), 1);
	wr_hosts_free(hs);
	free(c);
}

/* Another node has the address: its NA, or its own DAD probe (from ::),
 * while ours is tentative: DUPLICATE, never announced nor answered.  Our
 * own probe coming back is no conflict. */
static void
test_dad_duplicate(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct cap *c = calloc(1, sizeof(*c));
	struct wr_host_rx rx = { .n_tags = 1, .tci = { 100 } };
	struct wr_hosts *hs;
	struct wr_error err;
	const struct wr_host *x;
	uint8_t f[WR_ND_FRAME_MAX];
	uint16_t n;

	group_v6(&g, 2, false);
	g.v4.mode = WR_HOST_ADDR_NONE;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	CU_ASSERT_EQUAL(c->n, 4);
	/* Host 0's own DAD probe, looped back: nothing. */
	wr_hosts_input(hs, c->f[1], c->len[1], 10 * MS);
	CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->ip6[1].state, WR_IP6_TENTATIVE);
	/* A peer advertises 2001:db8::10 (host 0's). */
	n = wr_nd_build_na(f, peer_mac, (const uint8_t[6]){ 0x33, 0x33, 0, 0, 0, 1 },
			   OURS, A6(0xff02000000000000ull, 1), OURS, WR_ND_NA_O,
			   vlan100, 4);
	wr_hosts_input(hs, f, n, 100 * MS);
	/* A peer probes host 1's link-local address (from ::). */
	n = wr_nd_build_ns(f, peer_mac, 0, wr_hosts_cget(hs, 1)->ip6[0].addr,
			   vlan100, 4);
	wr_hosts_input(hs, f, n, 200 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "dad_duplicate"), 2);
	wr_hosts_tick(hs, S);
	x = wr_hosts_cget(hs, 0);
	CU_ASSERT_EQUAL(x->ip6[0].state, WR_IP6_PREFERRED);
	CU_ASSERT_EQUAL(x->ip6[1].state, WR_IP6_DUPLICATE);
	x = wr_hosts_cget(hs, 1);
	CU_ASSERT_EQUAL(x->ip6[0].state, WR_IP6_DUPLICATE);
	CU_ASSERT_EQUAL(x->ip6[1].state, WR_IP6_PREFERRED);
	/* Two announced (host 0's link-local, host 1's static), not the
	 * duplicates; the duplicate is found by nobody. */
	CU_ASSERT_EQUAL(ctr(hs, "na_unsolicited_sent"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "ip6_duplicate"), 2);
	CU_ASSERT_EQUAL(wr_hosts_by_ip6(hs, &rx, OURS), -1);
	CU_ASSERT_EQUAL(wr_hosts_by_ip6(hs, &rx, OURS + 1), 1);
	CU_ASSERT_TRUE(wr_hosts_up(hs));
	CU_ASSERT_EQUAL(ctr(hs, "hosts_failed"), 2);
	/* Taken away, the address can be had again. */
	wr_hosts_del_ip6(hs, 0, OURS);
	CU_ASSERT_EQUAL(wr_hosts_cget(hs, 0)->n_ip6, 1);
	CU_ASSERT_EQUAL(wr_hosts_add_ip6(hs, 0, OURS + 7, 64, WR_IP6_DHCP, 100, 50,
					 2 * S), 1);
	CU_ASSERT_EQUAL(wr_hosts_by_ip6(hs, &rx, OURS + 7), 0);
	wr_hosts_free(hs);
	free(c);
}

/* ICMP and ICMPv6 echo to a host: the replies Scapy would build. */
static void
test_echo(void)
{
	struct wr_host_group g;
	struct wr_host_specs sp = { &g, 1 };
	struct cap *c = calloc(1, sizeof(*c));
	struct wr_hosts *hs;
	struct wr_error err;
	uint8_t f[128];

	group_v6(&g, 1, false);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &sp, 0, 1, cap_send, c, &err), 0);
	wr_hosts_start(hs, 0);
	/* Not before DAD is over. */
	c->n = 0;
	wr_hosts_input(hs, echo6_req, sizeof(echo6_req), 500 * MS);
	CU_ASSERT_EQUAL(c->n, 0);
	wr_hosts_tick(hs, S);
	c->n = 0;
	wr_hosts_input(hs, echo4_req, sizeof(echo4_req), S + MS);
	wr_hosts_input(hs, echo6_req, sizeof(echo6_req), S + 2 * MS);
	CU_ASSERT_EQUAL_FATAL(c->n, 2);
	CU_ASSERT_EQUAL(c->len[0], 64);         /* 54, padded: 60 and the tag */
	CU_ASSERT_TRUE(frame_is(c, 0, echo4_rep, sizeof(echo4_rep)));
	CU_ASSERT_TRUE(frame_is(c, 1, echo6_rep, sizeof(echo6_rep)));
	CU_ASSERT_EQUAL(ctr(hs, "echo4_answered"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "echo6_answered"), 1);
	/* To another MAC, or a broken checksum: no reply. */
	memcpy(f, echo4_req, sizeof(echo4_req));
	f[5] = 9;
	wr_hosts_input(hs, f, sizeof(echo4_req), S + 3 * MS);
	memcpy(f, echo6_req, sizeof(echo6_req));
	f[70] ^= 1;
	wr_hosts_input(hs, f, sizeof(echo6_req), S + 4 * MS);
	CU_ASSERT_EQUAL(c->n, 2);
	CU_ASSERT_EQUAL(ctr(hs, "rx_bad_icmp6_csum"), 1);
	wr_hosts_free(hs);
	free(c);
}

static CU_TestInfo nd_tests[] = {
	{ "dad_and_gw6", test_dad_and_gw6 },
	{ "gw6_fail", test_gw6_fail },
	{ "dad_duplicate", test_dad_duplicate },
	{ "echo", test_echo },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "host_nd", .pTests = nd_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
