/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_slaac: router solicitations' timing and bytes, RAs validated and taken (RFC 4861, RFC 4862 5.5.3), on a test clock. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_slaac.h"
#include "wr_test_hosts6.h"
#include "wr_ytree.h"

#define ID WR_HOST_PROTO_slaac
#define RTR_LL A6(0xfe80000000000000ull, 0x0800000000000001ull)
#define PFX A6(0x20010db800010000ull, 0)
#define PFX2 A6(0x20010db800020000ull, 0)
#define RS_TYPE 133

static const uint8_t rtr_mac[6] = { 0x0a, 0, 0, 0, 0, 0x01 };
static const uint8_t all_nodes_mac[6] = { 0x33, 0x33, 0, 0, 0, 1 };

/* The EUI-64 address of host @p k (MAC 02:00:00:00:01:00 + k) in
 * @p prefix, written out by hand: 02 -> 00 (U/L bit), ff:fe between. */
static __uint128_t
eui(__uint128_t prefix, uint32_t k)
{
	uint32_t low = 0x000100 + k;

	return prefix | ((uint64_t)0x000000fffe000000ull |
			 (uint64_t)(low & 0xffffff));
}

struct pio {
	__uint128_t prefix;
	uint8_t len, flags;
	uint32_t valid, pref;
};

struct ra {
	uint8_t flags;
	uint16_t lifetime;
	int n;
	struct pio p[3];
	uint8_t hops;           /* IPv6 hop limit; 0: 255 */
	__uint128_t src;        /* 0: RTR_LL */
	int zero_opt;           /* an option of length 0 */
	int short_pio;          /* a PIO of 3 units */
};

/* An RA to all nodes (or to @p dmac), as radvd sends it. */
static uint32_t
ra_frame(uint8_t *f, const struct ra *r, const uint8_t *dmac)
{
	uint8_t m[256] = { 0 }, *o = m + 16;
	int i;

	m[0] = 134;
	m[4] = 64;
	m[5] = r->flags;
	wr_put16(m + 6, r->lifetime);
	o[0] = 1;               /* source link-layer address */
	o[1] = 1;
	memcpy(o + 2, rtr_mac, 6);
	o += 8;
	for (i = 0; i < r->n; i++) {
		o[0] = 3;
		o[1] = r->short_pio ? 3 : 4;
		o[2] = r->p[i].len;
		o[3] = r->p[i].flags;
		wr_put32(o + 4, r->p[i].valid);
		wr_put32(o + 8, r->p[i].pref);
		wr_put128(o + 16, r->p[i].prefix);
		o += o[1] * 8;
	}
	if (r->zero_opt) {
		o[0] = 5;
		o[1] = 0;
		o += 8;
	}
	return t6_frame(f, dmac ? dmac : all_nodes_mac, rtr_mac,
			r->src ? r->src : RTR_LL,
			A6(0xff02000000000000ull, 1), WR_IPPROTO_ICMPV6,
			r->hops ? r->hops : 255, m, (uint16_t)(o - m), 2);
}

static void
send_ra(struct t6 *t, const struct ra *r)
{
	uint8_t f[512];
	uint32_t n = ra_frame(f, r, NULL);

	wr_hosts_input(t->hs, f, n, t->now);
}

static struct wr_slaac_cfg *
cfg(uint8_t rs)
{
	struct wr_slaac_cfg *c = calloc(1, sizeof(*c));

	c->solicitations = rs;
	return c;
}

static const struct wr_host_ip6 *
ip6_of(const struct t6 *t, uint32_t h, __uint128_t a)
{
	int s = t6_has_ip6(t, h, a);

	return s < 0 ? NULL : &wr_hosts_cget(t->hs, h)->ip6[s];
}

/* ---- Config ---- */

static int
parse_text(const char *text, char *msg, size_t cap, uint8_t *rs)
{
	char doc[256];
	struct wr_ynode *root = NULL;
	struct wr_error err;
	struct wr_ywalk w;
	struct wr_host_group g = { 0 };
	struct wr_slaac_cfg *c = NULL;
	int rc;

	snprintf(doc, sizeof(doc), "ipv6: %s\n", text);
	wr_error_clear(&err);
	CU_ASSERT_EQUAL_FATAL(wr_ytree_parse("h.yaml", doc, strlen(doc), &root, &err), 0);
	wr_ywalk_init(&w, "h.yaml", &err);
	wr_ywalk_push_key(&w, "hosts[0].ipv6");
	rc = wr_host_proto_slaac.parse(&w, wr_ynode_get(root, "ipv6"), &g,
				       (void **)&c);
	msg[0] = 0;
	if (rc != 0)
		wr_error_format(&err, msg, cap);
	else
		*rs = c->solicitations;
	free(c);
	wr_ytree_free(root);
	return rc;
}

static void
test_config(void)
{
	char msg[512];
	uint8_t rs = 0;

	CU_ASSERT_EQUAL(parse_text("slaac", msg, sizeof(msg), &rs), 0);
	CU_ASSERT_EQUAL(rs, 3);
	CU_ASSERT_EQUAL(parse_text("{solicitations: 0}", msg, sizeof(msg), &rs), 0);
	CU_ASSERT_EQUAL(rs, 0);
	CU_ASSERT_EQUAL(parse_text("{solicitations: 11}", msg, sizeof(msg), &rs), -EINVAL);
	CU_ASSERT_EQUAL(strncmp(msg, "h.yaml:1:23: hosts[0].ipv6.solicitations: ", 42), 0);
	CU_ASSERT_EQUAL(parse_text("{rs: 2}", msg, sizeof(msg), &rs), -EINVAL);
	CU_ASSERT_EQUAL(strncmp(msg, "h.yaml:1:8: hosts[0].ipv6.rs: ", 30), 0);
	CU_ASSERT_EQUAL(parse_text("slac", msg, sizeof(msg), &rs), -EINVAL);
	CU_ASSERT_EQUAL(strncmp(msg, "h.yaml:1:7: hosts[0].ipv6: expected slaac", 41), 0);
}

/* ---- Pure parts ---- */

static void
test_addr(void)
{
	/* RFC 4291 appendix A's example: 34-56-78-9A-BC-DE gives
	 * 3656:78ff:fe9a:bcde. */
	static const uint8_t mac[6] = { 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde };

	CU_ASSERT_TRUE(wr_slaac_addr(PFX | 0xffff, mac) ==
		       (PFX | 0x365678fffe9abcdeull));
}

/* ---- Router solicitation ---- */

static void
test_rs(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_SLAAC, ID, cfg(3));
	const uint8_t *ip;
	uint64_t at[3];
	uint32_t i, k;

	wr_hosts_start(t->hs, t->now);
	t6_run(t, t->now + 20 * T6_S);
	for (k = 0; k < 3; k++) {
		ip = t6_next(t, 0, RS_TYPE, &i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ip);
		at[k] = t->at[i];
		/* From the link-local address to ff02::2 (33:33:00:00:00:02),
		 * hop limit 255, code 0, the source link-layer option. */
		CU_ASSERT_EQUAL(memcmp(t->f[i], "\x33\x33\x00\x00\x00\x02", 6), 0);
		CU_ASSERT_TRUE(wr_get128(ip + 8) == A6(0xfe80000000000000ull, 0x000000fffe000100ull));
		CU_ASSERT_TRUE(wr_get128(ip + 24) == A6(0xff02000000000000ull, 2));
		CU_ASSERT_EQUAL(ip[7], 255);
		CU_ASSERT_EQUAL(wr_get16(ip + 4), 16);
		CU_ASSERT_EQUAL(ip[41], 0);
		CU_ASSERT_EQUAL(ip[48], 1);
		CU_ASSERT_EQUAL(ip[49], 1);
		CU_ASSERT_EQUAL(memcmp(ip + 50, "\x02\x00\x00\x00\x01\x00", 6), 0);
		CU_ASSERT_TRUE(t6_l4_ok(ip));
		/* RFC 4861 6.3.7: RTR_SOLICITATION_INTERVAL (4 s) apart. */
		if (k > 0) {
			CU_ASSERT_EQUAL(at[k] - at[k - 1], 4 * T6_S);
		}
	}
	CU_ASSERT_PTR_NULL(t6_next(t, 0, RS_TYPE, &i));
	/* After the last interval: no router, bring-up failed. */
	CU_ASSERT_TRUE(wr_hosts_up(t->hs));
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rs_tx"), 3);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "fail_no_ra"), 1);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "no_router");
	/* An unsolicited RA later still configures it. */
	{
		struct ra r = { .lifetime = 1800, .n = 1,
				.p = { { PFX, 64, 0xc0, 86400, 14400 } } };

		send_ra(t, &r);
		CU_ASSERT_PTR_NOT_NULL(ip6_of(t, 0, eui(PFX, 0)));
	}
	t6_free(t);
}

/* ---- Router advertisements ---- */

static void
test_ra(void)
{
	enum { N = 5 };
	struct t6 *t = t6_new(N, WR_HOST_ADDR_SLAAC, ID, cfg(3));
	struct ra r = { .flags = 0xc0, .lifetime = 1800, .n = 3,
			.p = { { PFX, 64, 0xc0, 86400, 14400 },
			       { PFX2, 64, 0x80, 86400, 14400 },  /* no A */
			       { PFX2, 48, 0xc0, 86400, 14400 } } }; /* not /64 */
	const struct wr_host_ip6 *a;
	uint32_t h;

	wr_hosts_start(t->hs, t->now);
	t6_run(t, t->now + 3 * T6_S);
	CU_ASSERT_FALSE(wr_hosts_up(t->hs));
	send_ra(t, &r);
	for (h = 0; h < N; h++) {
		a = ip6_of(t, h, eui(PFX, h));
		CU_ASSERT_PTR_NOT_NULL_FATAL(a);
		CU_ASSERT_EQUAL(a->origin, WR_IP6_SLAAC);
		CU_ASSERT_EQUAL(a->prefix, 64);
		CU_ASSERT_EQUAL(a->valid_s, 86400);
		CU_ASSERT_EQUAL(a->preferred_s, 14400);
		CU_ASSERT_PTR_NULL(ip6_of(t, h, eui(PFX2, h)));
		/* The RA's source is the default router. */
		CU_ASSERT_TRUE(wr_hosts_cget(t->hs, h)->gw6 == RTR_LL);
		CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, h, ID),
				       "configured M O");
	}
	CU_ASSERT_EQUAL(t6_counter(t, ID, "ra_rx"), 1);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "ra_taken"), N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "addr_added"), N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "pio_ignored"), 2 * N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "router_set"), N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "state_configured"), N);
	/* No more RS once configured. */
	t6_run(t, t->now + 10 * T6_S);
	CU_ASSERT_TRUE(t6_counter(t, ID, "rs_tx") <= N);
	CU_ASSERT_TRUE(wr_hosts_up(t->hs));
	t6_free(t);
}

/* RFC 4861 6.1.2: RAs that fail validation are counted and not taken. */
static void
test_bad_ra(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_SLAAC, ID, cfg(3));
	struct ra good = { .lifetime = 1800, .n = 1,
			   .p = { { PFX, 64, 0xc0, 86400, 14400 } } }, r;
	uint8_t f[512];
	uint32_t n;

	wr_hosts_start(t->hs, t->now);
	t6_run(t, t->now + 3 * T6_S);
	r = good;
	r.hops = 64;
	send_ra(t, &r);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_bad_hop_limit"), 1);
	r = good;
	r.src = A6(0x20010db800000000ull, 1);
	send_ra(t, &r);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_bad_source"), 1);
	r = good;
	r.zero_opt = 1;
	send_ra(t, &r);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_bad_option"), 1);
	r = good;
	r.short_pio = 1;
	send_ra(t, &r);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_bad_pio"), 1);
	n = ra_frame(f, &good, NULL);
	f[n - 1] ^= 1;
	wr_hosts_input(t->hs, f, n, t->now);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_bad_csum"), 1);
	n = ra_frame(f, &good, NULL);
	wr_hosts_input(t->hs, f, 14 + 40 + 12, t->now);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "ra_taken"), 0);
	CU_ASSERT_PTR_NULL(ip6_of(t, 0, eui(PFX, 0)));
	CU_ASSERT_TRUE(wr_hosts_cget(t->hs, 0)->gw6 == 0);
	/* The good one, unicast to the host. */
	n = ra_frame(f, &good, (const uint8_t *)"\x02\x00\x00\x00\x01\x00");
	wr_hosts_input(t->hs, f, n, t->now);
	CU_ASSERT_PTR_NOT_NULL(ip6_of(t, 0, eui(PFX, 0)));
	t6_free(t);
}

/* RFC 4862 5.5.3 (e): lifetimes updated, the two-hour rule; addresses
 * and the router expire. */
static void
test_lifetimes(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_SLAAC, ID, cfg(3));
	struct ra r = { .lifetime = 600, .n = 1,
			.p = { { PFX, 64, 0xc0, 10000, 5000 } } };
	const struct wr_host_ip6 *a;
	uint64_t t0;

	wr_hosts_start(t->hs, t->now);
	t6_run(t, t->now + 3 * T6_S);
	send_ra(t, &r);
	t0 = t->now;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ip6_of(t, 0, eui(PFX, 0)));
	/* 100 s offered while 10000 are left: held at two hours. */
	r.p[0].valid = 100;
	r.p[0].pref = 50;
	send_ra(t, &r);
	a = ip6_of(t, 0, eui(PFX, 0));
	CU_ASSERT_EQUAL(a->valid_s, 7200);
	CU_ASSERT_EQUAL(a->preferred_s, 50);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "two_hour_rule"), 1);
	/* More than two hours is taken as offered. */
	r.p[0].valid = 9000;
	r.p[0].pref = 8000;
	send_ra(t, &r);
	CU_ASSERT_EQUAL(ip6_of(t, 0, eui(PFX, 0))->valid_s, 9000);
	/* The preferred lifetime (8000 s) over: deprecated (RFC 4862
	 * 5.5.4), still held. */
	t6_run(t, t0 + 7999 * T6_S);
	CU_ASSERT_EQUAL(ip6_of(t, 0, eui(PFX, 0))->state, WR_IP6_PREFERRED);
	t6_run(t, t0 + 8000 * T6_S);
	CU_ASSERT_EQUAL(ip6_of(t, 0, eui(PFX, 0))->state, WR_IP6_DEPRECATED);
	/* With less than two hours left, a shorter offer is ignored; the
	 * preferred lifetime is taken (preferred again). */
	r.p[0].valid = 100;
	r.p[0].pref = 50;
	send_ra(t, &r);
	CU_ASSERT_EQUAL(ip6_of(t, 0, eui(PFX, 0))->valid_s, 1000);
	CU_ASSERT_EQUAL(ip6_of(t, 0, eui(PFX, 0))->state, WR_IP6_PREFERRED);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "two_hour_rule"), 2);
	/* The router's lifetime (600 s, last refreshed at +8000 s) ran
	 * out at +8600. */
	CU_ASSERT_TRUE(wr_hosts_cget(t->hs, 0)->gw6 == RTR_LL);
	t6_run(t, t0 + 8601 * T6_S);
	CU_ASSERT_TRUE(wr_hosts_cget(t->hs, 0)->gw6 == 0);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "router_expired"), 2);
	/* The address's valid lifetime ends at +9000 s. */
	CU_ASSERT_PTR_NOT_NULL(ip6_of(t, 0, eui(PFX, 0)));
	t6_run(t, t0 + 9000 * T6_S);
	CU_ASSERT_PTR_NULL(ip6_of(t, 0, eui(PFX, 0)));
	CU_ASSERT_EQUAL(t6_counter(t, ID, "addr_expired"), 1);
	t6_free(t);
}

static CU_TestInfo slaac_tests[] = {
	{ "config", test_config },
	{ "addr", test_addr },
	{ "rs", test_rs },
	{ "ra", test_ra },
	{ "bad_ra", test_bad_ra },
	{ "lifetimes", test_lifetimes },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "slaac", .pTests = slaac_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
