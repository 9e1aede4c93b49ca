/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_dhcp6: its config, its messages, and its exchanges against a scripted server on a test clock. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_dhcp6.h"
#include "wr_test_hosts6.h"
#include "wr_ytree.h"

#define ID WR_HOST_PROTO_dhcp6
#define LL_SERVER A6(0xfe80000000000000ull, 0x1)
#define NA1 A6(0x20010db800000000ull, 0x1000)
#define PD1 A6(0x20010db801000000ull, 0)

static const uint8_t srv_mac[6] = { 0x0a, 0, 0, 0, 0, 0x01 };

/* ---- The client's messages, decoded here by the book (RFC 8415) ---- */

struct cmsg {
	uint8_t type;
	uint32_t xid;
	uint8_t cid[WR_DHCP6_DUID_MAX];
	uint16_t cid_len;
	uint8_t sid[WR_DHCP6_DUID_MAX];
	uint16_t sid_len;
	int elapsed;            /* -1: absent */
	int rapid;
	int n_oro;
	uint16_t oro[8];
	int na, pd;             /* IA present */
	uint32_t na_iaid, pd_iaid;
	int na_addr, pd_pfx;    /* its IAADDR / IAPREFIX */
	__uint128_t na_a, pd_p;
	uint8_t pd_len;
	uint32_t na_pref, na_valid, pd_pref, pd_valid;
	__uint128_t src;        /* IPv6 source */
	__uint128_t dst;
	uint8_t hops;
	uint8_t smac[6];
};

static void
cparse(const struct t6 *t, uint32_t i, struct cmsg *c)
{
	const uint8_t *ip = t6_ip6(t, i), *u = ip + 40, *m = u + 8;
	uint16_t ulen = (uint16_t)wr_get16(u + 4);
	uint32_t off = 4, mlen = ulen - 8u;

	memset(c, 0, sizeof(*c));
	c->elapsed = -1;
	memcpy(c->smac, t->f[i] + 6, 6);
	c->src = wr_get128(ip + 8);
	c->dst = wr_get128(ip + 24);
	c->hops = ip[7];
	CU_ASSERT_EQUAL(wr_get16(u), 546);
	CU_ASSERT_EQUAL(wr_get16(u + 2), 547);
	CU_ASSERT_EQUAL(wr_get16(ip + 4), ulen);
	CU_ASSERT_TRUE(t6_l4_ok(ip));
	c->type = m[0];
	c->xid = (uint32_t)wr_get24(m + 1);
	while (off + 4 <= mlen) {
		uint16_t code = (uint16_t)wr_get16(m + off);
		uint16_t len = (uint16_t)wr_get16(m + off + 2);
		const uint8_t *v = m + off + 4;
		int k;

		CU_ASSERT_FATAL(off + 4 + len <= mlen);
		switch (code) {
		case 1:
			memcpy(c->cid, v, len);
			c->cid_len = len;
			break;
		case 2:
			memcpy(c->sid, v, len);
			c->sid_len = len;
			break;
		case 6:
			for (k = 0; k < len / 2 && k < 8; k++)
				c->oro[c->n_oro++] = (uint16_t)wr_get16(v + 2 * k);
			break;
		case 8:
			CU_ASSERT_EQUAL(len, 2);
			c->elapsed = (int)wr_get16(v);
			break;
		case 14:
			c->rapid = 1;
			break;
		case 3:
			c->na = 1;
			c->na_iaid = (uint32_t)wr_get32(v);
			if (len >= 12 + 28 && wr_get16(v + 12) == 5) {
				c->na_addr = 1;
				c->na_a = wr_get128(v + 16);
				c->na_pref = (uint32_t)wr_get32(v + 32);
				c->na_valid = (uint32_t)wr_get32(v + 36);
			}
			break;
		case 25:
			c->pd = 1;
			c->pd_iaid = (uint32_t)wr_get32(v);
			if (len >= 12 + 29 && wr_get16(v + 12) == 26) {
				c->pd_pfx = 1;
				c->pd_pref = (uint32_t)wr_get32(v + 16);
				c->pd_valid = (uint32_t)wr_get32(v + 20);
				c->pd_len = v[24];
				c->pd_p = wr_get128(v + 25);
			}
			break;
		default:
			break;
		}
		off += 4u + len;
	}
	CU_ASSERT_EQUAL(off, mlen);
}

/* The next message the client sent, decoded; 0 when there is none. */
static int
next_msg(struct t6 *t, struct cmsg *c)
{
	uint32_t i;

	if (t6_next(t, 547, 0, &i) == NULL)
		return 0;
	cparse(t, i, c);
	return 1;
}

/* ---- A scripted server ---- */

struct lease {
	int pref;               /* PREFERENCE option; -1: none */
	int rapid;
	int status;             /* top-level STATUS_CODE; -1: none */
	uint8_t server;         /* its DUID's last byte: two servers */
	int na;
	__uint128_t na_a;
	uint32_t t1, t2, na_pref, na_valid;
	int na_status;          /* -1: none */
	int pd;
	__uint128_t pd_p;
	uint8_t pd_len;
	uint32_t pd_t1, pd_t2, pd_pref, pd_valid;
	int pd_status;
	uint32_t xid_delta;     /* answer another transaction */
};

static uint8_t *
put_opt(uint8_t *p, uint16_t code, uint16_t len)
{
	wr_put16(p, code);
	wr_put16(p + 2, len);
	return p + 4;
}

static uint8_t *
put_status(uint8_t *p, int st)
{
	p = put_opt(p, 13, 2 + 2);
	wr_put16(p, (uint16_t)st);
	memcpy(p + 2, "no", 2);
	return p + 4;
}

/* The server's @p type answer to @p c, as a frame into @p f. */
static uint32_t
server_frame(uint8_t *f, const struct cmsg *c, uint8_t type,
	     const struct lease *l)
{
	uint8_t u[1024] = { 0 }, *m = u + 8, *p = m + 4, *ia;
	uint16_t ulen;

	m[0] = type;
	wr_put24(m + 1, (c->xid + l->xid_delta) & 0xffffff);
	p = put_opt(p, 1, c->cid_len);
	memcpy(p, c->cid, c->cid_len);
	p += c->cid_len;
	/* DUID-EN (type 2) of enterprise 32473 (RFC 5612, documentation). */
	p = put_opt(p, 2, 10);
	wr_put16(p, 2);
	wr_put32(p + 2, 32473);
	memcpy(p + 6, "srv", 3);
	p[9] = l->server;
	p += 10;
	if (l->pref >= 0) {
		p = put_opt(p, 7, 1);
		*p++ = (uint8_t)l->pref;
	}
	if (l->rapid)
		p = put_opt(p, 14, 0);
	if (l->status >= 0)
		p = put_status(p, l->status);
	if (l->na) {
		ia = p;
		p = put_opt(p, 3, 0);
		wr_put32(p, c->na_iaid);
		wr_put32(p + 4, l->t1);
		wr_put32(p + 8, l->t2);
		p += 12;
		if (l->na_status >= 0) {
			p = put_status(p, l->na_status);
		} else {
			p = put_opt(p, 5, 24);
			wr_put128(p, l->na_a);
			wr_put32(p + 16, l->na_pref);
			wr_put32(p + 20, l->na_valid);
			p += 24;
		}
		wr_put16(ia + 2, (uint16_t)(p - ia - 4));
	}
	if (l->pd) {
		ia = p;
		p = put_opt(p, 25, 0);
		wr_put32(p, c->pd_iaid);
		wr_put32(p + 4, l->pd_t1);
		wr_put32(p + 8, l->pd_t2);
		p += 12;
		if (l->pd_status >= 0) {
			p = put_status(p, l->pd_status);
		} else {
			p = put_opt(p, 26, 25);
			wr_put32(p, l->pd_pref);
			wr_put32(p + 4, l->pd_valid);
			p[8] = l->pd_len;
			wr_put128(p + 9, l->pd_p);
			p += 25;
		}
		wr_put16(ia + 2, (uint16_t)(p - ia - 4));
	}
	ulen = (uint16_t)(p - u);
	wr_put16(u, 547);
	wr_put16(u + 2, 546);
	wr_put16(u + 4, ulen);
	return t6_frame(f, c->smac, srv_mac, LL_SERVER, c->src, WR_IPPROTO_UDP,
			64, u, ulen, 6);
}

static void
answer(struct t6 *t, const struct cmsg *c, uint8_t type, const struct lease *l)
{
	uint8_t f[2048];
	uint32_t n = server_frame(f, c, type, l);

	wr_hosts_input(t->hs, f, n, t->now);
}

/* A lease of NA1 (and PD1/56), T1 100 s, T2 160 s, valid 300 s. */
static struct lease
lease1(void)
{
	struct lease l = {
		.pref = -1, .status = -1, .server = 1,
		.na = 1, .na_a = NA1, .t1 = 100, .t2 = 160,
		.na_pref = 200, .na_valid = 300, .na_status = -1,
		.pd = 1, .pd_p = PD1, .pd_len = 56, .pd_t1 = 100, .pd_t2 = 160,
		.pd_pref = 200, .pd_valid = 300, .pd_status = -1,
	};

	return l;
}

static struct wr_dhcp6_cfg *
cfg(int ia_na, int ia_pd, int rapid, uint16_t retries)
{
	struct wr_dhcp6_cfg *c = calloc(1, sizeof(*c));

	c->ia_na = ia_na;
	c->ia_pd = ia_pd;
	c->rapid_commit = rapid;
	c->retries = retries;
	c->duid_type = 3;
	return c;
}

/* ---- Config ---- */

/* Parse `ipv6: {dhcp: TEXT}` as the loader would hand it; @return the
 * rc, the config in *out, the error text in @p msg. */
static int
parse_text(const char *text, struct wr_dhcp6_cfg **out, char *msg, size_t cap)
{
	char doc[512];
	struct wr_ynode *root = NULL;
	struct wr_error err;
	struct wr_ywalk w;
	struct wr_host_group g = { 0 };
	void *c = NULL;
	int rc;

	snprintf(doc, sizeof(doc), "dhcp: %s\n", text);
	wr_error_clear(&err);
	rc = wr_ytree_parse("h.yaml", doc, strlen(doc), &root, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	wr_ywalk_init(&w, "h.yaml", &err);
	wr_ywalk_push_key(&w, "hosts[0].ipv6.dhcp");
	rc = wr_host_proto_dhcp6.parse(&w, wr_ynode_get(root, "dhcp"), &g, &c);
	msg[0] = 0;
	if (rc != 0)
		wr_error_format(&err, msg, cap);
	*out = c;
	wr_ytree_free(root);
	return rc;
}

static void
test_config(void)
{
	static const struct {
		const char *text;
		const char *msg;  /* NULL: accepted */
	} cases[] = {
		{ "dhcp", NULL },
		{ "{ia_na: true, ia_pd: {prefix_len: 56}, rapid_commit: true, retries: 7, duid: llt}", NULL },
		{ "{ia_na: false, ia_pd: true}", NULL },
		{ "{ia_na: maybe}", "h.yaml:1:15: hosts[0].ipv6.dhcp.ia_na: expected" },
		{ "{iana: true}", "h.yaml:1:8: hosts[0].ipv6.dhcp.iana: " },
		{ "{ia_pd: {prefix_len: 0}}", "h.yaml:1:28: hosts[0].ipv6.dhcp.ia_pd.prefix_len: expected an integer in 1..127" },
		{ "{ia_pd: {prefix_len: 128}}", "h.yaml:1:28: " },
		{ "{ia_pd: {length: 56}}", "h.yaml:1:16: hosts[0].ipv6.dhcp.ia_pd.length: " },
		{ "{ia_na: false}", "h.yaml:1:7: hosts[0].ipv6.dhcp: ia_na and ia_pd both off" },
		{ "{retries: 0}", "h.yaml:1:17: hosts[0].ipv6.dhcp.retries: " },
		{ "{duid: en}", "h.yaml:1:14: hosts[0].ipv6.dhcp.duid: expected ll or llt" },
		{ "[1, 2]", "h.yaml:1:7: hosts[0].ipv6.dhcp: expected dhcp or a mapping" },
		{ "stateful", "h.yaml:1:7: hosts[0].ipv6.dhcp: expected dhcp or a mapping" },
		{ "{ia_na: true, ia_na: false}", "h.yaml:1:21: " },
	};
	struct wr_dhcp6_cfg *c;
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse_text(cases[i].text, &c, msg, sizeof(msg));

		if (cases[i].msg == NULL) {
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_PTR_NOT_NULL(c);
		} else {
			CU_ASSERT_EQUAL(rc, -EINVAL);
			CU_ASSERT_PTR_NULL(c);
			if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)) != 0)
				fprintf(stderr, "\n%s: got \"%s\"\n", cases[i].text, msg);
			CU_ASSERT_EQUAL(strncmp(msg, cases[i].msg, strlen(cases[i].msg)), 0);
		}
		free(c);
	}
	CU_ASSERT_EQUAL(parse_text("dhcp", &c, msg, sizeof(msg)), 0);
	CU_ASSERT_TRUE(c->ia_na && !c->ia_pd && !c->rapid_commit);
	CU_ASSERT_EQUAL(c->retries, 4);
	CU_ASSERT_EQUAL(c->duid_type, 3);
	free(c);
	CU_ASSERT_EQUAL(parse_text("{ia_na: true, ia_pd: {prefix_len: 56}, rapid_commit: true, retries: 7, duid: llt}",
				   &c, msg, sizeof(msg)), 0);
	CU_ASSERT_TRUE(c->ia_na && c->ia_pd && c->rapid_commit);
	CU_ASSERT_EQUAL(c->pd_len, 56);
	CU_ASSERT_EQUAL(c->retries, 7);
	CU_ASSERT_EQUAL(c->duid_type, 1);
	free(c);
}

/* ---- Pure parts ---- */

static void
test_next_rt(void)
{
	uint32_t r, rt;

	/* Section 15: the first RT in IRT * [0.9, 1.1], a SOLICIT's in
	 * (1.0, 1.1]; each next in 2 RT * ... ; capped at MRT * [0.9, 1.1]. */
	for (r = 0; r < 4000; r += 7) {
		uint32_t x = r * 2654435761u;

		rt = wr_dhcp6_next_rt(0, 1000, 3600000, x, true);
		CU_ASSERT_TRUE(rt > 1000 && rt <= 1100);
		rt = wr_dhcp6_next_rt(0, 10000, 600000, x, false);
		CU_ASSERT_TRUE(rt >= 9000 && rt <= 11000);
		rt = wr_dhcp6_next_rt(1050, 1000, 3600000, x, true);
		CU_ASSERT_TRUE(rt >= 1995 && rt <= 2205);
		rt = wr_dhcp6_next_rt(20000, 1000, 30000, x, false);
		CU_ASSERT_TRUE(rt >= 27000 && rt <= 33000);
	}
}

static void
test_parse_bad(void)
{
	/* REPLY xid 0x010203, CLIENTID (DUID-LL), SERVERID, IA_NA with an
	 * IAADDR whose length is cut in the tests below. */
	uint8_t m[] = {
		7, 1, 2, 3,
		0, 1, 0, 10, 0, 3, 0, 1, 2, 0, 0, 0, 1, 0,
		0, 2, 0, 4, 0, 2, 0, 9,
		0, 3, 0, 40, 0, 0, 1, 0, 0, 0, 0, 100, 0, 0, 0, 160,
		0, 5, 0, 24, 0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0,
		0, 0, 0, 200, 0, 0, 1, 44,
	};
	struct wr_dhcp6_msg msg;

	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, sizeof(m), &msg), WR_DHCP6_OK);
	CU_ASSERT_EQUAL(msg.xid, 0x010203);
	CU_ASSERT_TRUE(msg.na.present && msg.na.has_lease);
	CU_ASSERT_TRUE(msg.na.addr == NA1);
	CU_ASSERT_EQUAL(msg.na.valid_s, 300);
	CU_ASSERT_EQUAL(msg.na.t2, 160);
	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, 3, &msg), WR_DHCP6_BAD_SHORT);
	/* Cut inside the IA: the IA_NA's length overruns the message. */
	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, sizeof(m) - 1, &msg), WR_DHCP6_BAD_OPTION);
	/* Cut the IAADDR to 20 bytes (IA and message lengths to match). */
	m[29] = 36;
	m[45] = 20;
	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, sizeof(m) - 4, &msg), WR_DHCP6_BAD_IA);
	m[29] = 40;
	m[45] = 24;
	m[0] = 1;       /* a SOLICIT to the client */
	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, sizeof(m), &msg), WR_DHCP6_BAD_TYPE);
	m[0] = 7;
	m[18] = 0x77;   /* SERVERID becomes an unknown option */
	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, sizeof(m), &msg), WR_DHCP6_BAD_NO_SERVERID);
	m[18] = 0;
	m[7] = 0;       /* CLIENTID of length 0 */
	CU_ASSERT_EQUAL(wr_dhcp6_parse(m, 8, &msg), WR_DHCP6_BAD_DUID);
}

/* ---- Exchanges ---- */

/* Run to the first SOLICIT: it comes after the link-local address's DAD
 * and the random delay of section 18.2.1. */
static void
first_solicit(struct t6 *t, struct cmsg *c)
{
	uint64_t end = t->now + 3 * T6_S;
	int got = 0;

	while (!got && t->now < end) {
		t6_run(t, t->now + T6_MS);
		got = next_msg(t, c);
	}
	CU_ASSERT_FATAL(got);
	CU_ASSERT_EQUAL(c->type, WR_DHCP6_SOLICIT);
}

static void
test_exchange(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_DHCP, ID, cfg(1, 1, 0, 4));
	const struct wr_host *hst;
	struct wr_dhcp6_lease ls;
	struct lease l = lease1(), l2;
	struct cmsg c, r;
	uint64_t t0, sol_at;
	int slot;

	wr_hosts_start(t->hs, t->now);
	CU_ASSERT_FALSE(wr_hosts_up(t->hs));
	first_solicit(t, &c);
	hst = wr_hosts_cget(t->hs, 0);
	/* From the link-local address (EUI-64 of 02:00:00:00:01:00) to
	 * ff02::1:2 and 33:33:00:01:00:02; hop limit 1. */
	CU_ASSERT_TRUE(c.src == A6(0xfe80000000000000ull, 0x000000fffe000100ull));
	CU_ASSERT_TRUE(c.dst == A6(0xff02000000000000ull, 0x10002));
	CU_ASSERT_EQUAL(memcmp(t->f[t->seen - 1], "\x33\x33\x00\x01\x00\x02", 6), 0);
	CU_ASSERT_EQUAL(c.hops, 1);
	/* DUID-LL: type 3, hardware 1, the MAC; IAID the MAC's last 4. */
	CU_ASSERT_EQUAL(c.cid_len, 10);
	CU_ASSERT_EQUAL(memcmp(c.cid, "\x00\x03\x00\x01\x02\x00\x00\x00\x01\x00", 10), 0);
	CU_ASSERT_TRUE(c.na && c.pd && !c.na_addr && !c.pd_pfx);
	CU_ASSERT_EQUAL(c.na_iaid, 0x00000100);
	CU_ASSERT_EQUAL(c.pd_iaid, 0x00000100);
	CU_ASSERT_EQUAL(c.elapsed, 0);
	CU_ASSERT_EQUAL(c.sid_len, 0);
	CU_ASSERT_EQUAL(c.rapid, 0);
	CU_ASSERT_EQUAL(c.n_oro, 2);
	CU_ASSERT_EQUAL(c.oro[0], 23);
	CU_ASSERT_EQUAL(c.oro[1], 82);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "soliciting");
	sol_at = t->at[t->seen - 1];
	/* Server 1 advertises at preference 0: kept, the client waits out
	 * the first RT for better; server 2 at preference 7 is better. */
	t6_run(t, sol_at + 100 * T6_MS);
	l.pref = 0;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	t6_run(t, sol_at + 500 * T6_MS);
	CU_ASSERT_FALSE(next_msg(t, &r));
	l2 = l;
	l2.pref = 7;
	l2.server = 2;
	l2.na_a = NA1 + 1;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l2);
	CU_ASSERT_FALSE(next_msg(t, &r));
	CU_ASSERT_EQUAL(t6_counter(t, ID, "advertise_rx"), 2);
	t6_run(t, sol_at + 1200 * T6_MS);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_REQUEST);
	/* Section 18.2.1: the REQUEST after the first RT, which is in
	 * (1.0, 1.1] s. */
	CU_ASSERT_TRUE(t->at[t->seen - 1] > sol_at + 1000 * T6_MS);
	CU_ASSERT_TRUE(t->at[t->seen - 1] <= sol_at + 1100 * T6_MS);
	CU_ASSERT_NOT_EQUAL(r.xid, c.xid);
	CU_ASSERT_EQUAL(r.sid_len, 10);
	CU_ASSERT_EQUAL(r.sid[9], 2);
	CU_ASSERT_TRUE(r.na_addr && r.na_a == NA1 + 1);
	CU_ASSERT_TRUE(r.pd_pfx && r.pd_p == PD1 && r.pd_len == 56);
	CU_ASSERT_EQUAL(r.elapsed, 0);
	/* The REPLY binds: the address on the host, origin DHCP. */
	t->now += 5 * T6_MS;
	l2.pref = -1;
	answer(t, &r, WR_DHCP6_REPLY, &l2);
	t0 = t->now;
	slot = t6_has_ip6(t, 0, NA1 + 1);
	CU_ASSERT_FATAL(slot >= 0);
	CU_ASSERT_EQUAL(hst->ip6[slot].origin, WR_IP6_DHCP);
	CU_ASSERT_EQUAL(hst->ip6[slot].valid_s, 300);
	CU_ASSERT_EQUAL(hst->ip6[slot].preferred_s, 200);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "bound pd");
	CU_ASSERT_EQUAL(wr_dhcp6_lease(t->hs, 0, &ls), 0);
	CU_ASSERT_TRUE(ls.has_addr && ls.addr == NA1 + 1);
	CU_ASSERT_TRUE(ls.has_prefix && ls.prefix == PD1 && ls.prefix_len == 56);
	CU_ASSERT_EQUAL(ls.prefix_valid_s, 300);
	CU_ASSERT_EQUAL(ls.t1_s, 100);
	CU_ASSERT_EQUAL(ls.t2_s, 160);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "bound"), 1);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "pd_bound"), 1);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "state_bound"), 1);
	/* DAD of the new address passes with nobody answering. */
	t6_run(t, t0 + 5 * T6_S);
	CU_ASSERT_TRUE(wr_hosts_up(t->hs));
	/* RENEW at T1 (100 s), to server 2, with what the host holds. */
	t6_run(t, t0 + 99 * T6_S);
	CU_ASSERT_FALSE(next_msg(t, &r));
	t6_run(t, t0 + 100 * T6_S);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_RENEW);
	CU_ASSERT_EQUAL(t->at[t->seen - 1], t0 + 100 * T6_S);
	CU_ASSERT_EQUAL(r.sid[9], 2);
	CU_ASSERT_TRUE(r.na_a == NA1 + 1 && r.na_valid == 300 && r.na_pref == 200);
	CU_ASSERT_TRUE(r.pd_p == PD1 && r.pd_valid == 300);
	/* Unanswered: retransmitted REN_TIMEOUT (10 s) +- 10 % later. */
	t6_run(t, t0 + 112 * T6_S);
	CU_ASSERT_FATAL(next_msg(t, &c));
	CU_ASSERT_EQUAL(c.type, WR_DHCP6_RENEW);
	CU_ASSERT_EQUAL(c.xid, r.xid);
	CU_ASSERT_TRUE(c.elapsed >= 900 && c.elapsed <= 1100);
	/* At T2 (160 s): REBIND, to any server (no SERVERID). */
	t6_run(t, t0 + 160 * T6_S);
	while (next_msg(t, &r) && r.type == WR_DHCP6_RENEW)
		;
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_REBIND);
	CU_ASSERT_EQUAL(r.sid_len, 0);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "rebinding pd");
	l2.t1 = 1000;
	l2.t2 = 1600;
	l2.na_valid = 3000;
	l2.na_pref = 2000;
	l2.pd_valid = 3000;
	l2.pd_pref = 2000;
	answer(t, &r, WR_DHCP6_REPLY, &l2);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rebound"), 1);
	CU_ASSERT_EQUAL(hst->ip6[t6_has_ip6(t, 0, NA1 + 1)].valid_s, 3000);
	/* Stop: a RELEASE to server 2 naming the lease; the address goes. */
	wr_hosts_stop(t->hs, t->now);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_RELEASE);
	CU_ASSERT_EQUAL(r.sid[9], 2);
	CU_ASSERT_TRUE(r.na_addr && r.na_a == NA1 + 1);
	CU_ASSERT_TRUE(r.pd_pfx && r.pd_p == PD1);
	CU_ASSERT_EQUAL(t6_has_ip6(t, 0, NA1 + 1), -1);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "releasing");
	CU_ASSERT_EQUAL(wr_dhcp6_lease(t->hs, 0, &ls), -ENOENT);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "release_tx"), 1);
	t6_free(t);
}

/* A server that never answers: SOLICITs at section 15's times, bring-up
 * failed after `retries`, counted by reason. */
static void
test_silent_server(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_DHCP, ID, cfg(1, 0, 0, 3));
	struct cmsg c[6];
	uint64_t at[6], rt_prev = 0;
	int i;

	wr_hosts_start(t->hs, t->now);
	t6_run(t, t->now + 40 * T6_S);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_FATAL(next_msg(t, &c[i]));
		at[i] = t->at[t->seen - 1];
		CU_ASSERT_EQUAL(c[i].type, WR_DHCP6_SOLICIT);
		CU_ASSERT_EQUAL(c[i].xid, c[0].xid);
		if (i > 0) {
			uint64_t rt = at[i] - at[i - 1];

			if (i == 1) {
				CU_ASSERT_TRUE(rt > 1000 * T6_MS && rt <= 1100 * T6_MS);
			} else {
				CU_ASSERT_TRUE(rt >= rt_prev * 19 / 10 &&
					       rt <= rt_prev * 21 / 10 + T6_MS);
			}
			rt_prev = rt;
			/* Elapsed time: hundredths since the first. */
			CU_ASSERT_EQUAL((uint64_t)c[i].elapsed,
					(at[i] - at[0]) / (10 * T6_MS));
		}
	}
	CU_ASSERT_TRUE(wr_hosts_up(t->hs));     /* done: failed */
	CU_ASSERT_EQUAL(t6_counter(t, ID, "fail_no_advertise"), 1);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "solicit_tx"), 6);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "retransmit"), 5);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "soliciting");
	t6_free(t);
}

/* Preference 255 is taken at once; rapid commit binds on the SOLICIT. */
static void
test_pref255_rapid(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_DHCP, ID, cfg(1, 0, 0, 4));
	struct lease l = lease1();
	struct cmsg c, r;

	l.pd = 0;
	wr_hosts_start(t->hs, t->now);
	first_solicit(t, &c);
	l.pref = 255;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_REQUEST);
	CU_ASSERT_EQUAL(t->at[t->seen - 1], t->now);
	CU_ASSERT_FALSE(r.pd);
	t6_free(t);

	t = t6_new(1, WR_HOST_ADDR_DHCP, ID, cfg(1, 0, 1, 4));
	wr_hosts_start(t->hs, t->now);
	first_solicit(t, &c);
	CU_ASSERT_EQUAL(c.rapid, 1);
	/* A REPLY without the rapid commit option is not an answer to a
	 * SOLICIT. */
	l.pref = -1;
	answer(t, &c, WR_DHCP6_REPLY, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_stale_xid"), 1);
	CU_ASSERT_EQUAL(t6_has_ip6(t, 0, NA1), -1);
	l.rapid = 1;
	answer(t, &c, WR_DHCP6_REPLY, &l);
	CU_ASSERT_TRUE(t6_has_ip6(t, 0, NA1) >= 0);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "bound");
	CU_ASSERT_EQUAL(t6_counter(t, ID, "request_tx"), 0);
	t6_free(t);
}

/* DUID-LLT (type 1, time 0): sent, and the server's answers naming it
 * taken; a DUID-LL of the same MAC is not this host's. */
static void
test_duid_llt(void)
{
	struct wr_dhcp6_cfg *c = cfg(1, 0, 0, 4);
	struct lease l = lease1();
	struct cmsg m, r, ll;
	struct t6 *t;

	c->duid_type = 1;
	t = t6_new(1, WR_HOST_ADDR_DHCP, ID, c);
	l.pd = 0;
	l.pref = 255;
	wr_hosts_start(t->hs, t->now);
	first_solicit(t, &m);
	CU_ASSERT_EQUAL(m.cid_len, 14);
	CU_ASSERT_EQUAL(memcmp(m.cid, "\x00\x01\x00\x01\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00", 14), 0);
	ll = m;
	ll.cid_len = wr_dhcp6_duid(ll.cid, 3, (const uint8_t *)"\x02\x00\x00\x00\x01\x00");
	answer(t, &ll, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_not_ours"), 1);
	answer(t, &m, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_REQUEST);
	CU_ASSERT_EQUAL(r.cid_len, 14);
	t6_free(t);
}

/* Failures by reason: no addresses, and the lease expiring unrenewed. */
static void
test_failures(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_DHCP, ID, cfg(1, 0, 0, 4));
	struct lease l = lease1();
	struct cmsg c, r;
	uint64_t t0;

	l.pd = 0;
	wr_hosts_start(t->hs, t->now);
	first_solicit(t, &c);
	l.pref = 255;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_FATAL(next_msg(t, &r));
	l.pref = -1;
	l.na_status = 2;        /* NoAddrsAvail */
	answer(t, &r, WR_DHCP6_REPLY, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "fail_no_addrs"), 1);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "soliciting");
	/* SOLICIT again at once; an ADVERTISE that leases nothing is
	 * ignored (section 18.2.9). */
	t6_run(t, t->now + 10 * T6_MS);
	CU_ASSERT_FATAL(next_msg(t, &c));
	CU_ASSERT_EQUAL(c.type, WR_DHCP6_SOLICIT);
	l.pref = 255;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "advertise_ignored"), 1);
	l.na_status = -1;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_REQUEST);
	/* T1 and T2 0: the client's own, 0.5 and 0.8 of preferred (200 s). */
	l.pref = -1;
	l.t1 = 0;
	l.t2 = 0;
	answer(t, &r, WR_DHCP6_REPLY, &l);
	t0 = t->now;
	t6_run(t, t0 + 100 * T6_S);
	CU_ASSERT_FATAL(next_msg(t, &r));
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_RENEW);
	CU_ASSERT_EQUAL(t->at[t->seen - 1], t0 + 100 * T6_S);
	t6_run(t, t0 + 160 * T6_S);
	while (next_msg(t, &r) && r.type == WR_DHCP6_RENEW)
		;
	CU_ASSERT_EQUAL(r.type, WR_DHCP6_REBIND);
	CU_ASSERT_EQUAL(t->at[t->seen - 1], t0 + 160 * T6_S);
	/* Valid lifetime (300 s) over: the address goes, SOLICIT again. */
	t6_run(t, t0 + 299 * T6_S);
	CU_ASSERT_TRUE(t6_has_ip6(t, 0, NA1) >= 0);
	t6_run(t, t0 + 300 * T6_S);
	CU_ASSERT_EQUAL(t6_has_ip6(t, 0, NA1), -1);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "fail_expired"), 1);
	CU_ASSERT_STRING_EQUAL(wr_hosts_proto_state(t->hs, 0, ID), "soliciting");
	t6_free(t);
}

/* Malformed or foreign frames from the wire: counted by reason, dropped. */
static void
test_malformed(void)
{
	struct t6 *t = t6_new(1, WR_HOST_ADDR_DHCP, ID, cfg(1, 0, 0, 4));
	struct lease l = lease1();
	struct cmsg c, other;
	uint8_t f[2048];
	uint32_t n;

	l.pd = 0;
	l.pref = 255;
	wr_hosts_start(t->hs, t->now);
	first_solicit(t, &c);
	/* A bad UDP checksum. */
	n = server_frame(f, &c, WR_DHCP6_ADVERTISE, &l);
	f[n - 1] ^= 0x55;
	wr_hosts_input(t->hs, f, n, t->now);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_bad_csum"), 1);
	/* Another transaction. */
	l.xid_delta = 1;
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_stale_xid"), 1);
	l.xid_delta = 0;
	/* A client ID of no host here. */
	other = c;
	other.cid[9] = 0x77;
	answer(t, &other, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_not_ours"), 1);
	/* A message of 3 bytes. */
	{
		uint8_t u[11] = { 0x02, 0x23, 0x02, 0x22, 0, 11, 0, 0, 2, 0, 0 };

		n = t6_frame(f, c.smac, srv_mac, LL_SERVER, c.src, WR_IPPROTO_UDP,
			     64, u, sizeof(u), 6);
		wr_hosts_input(t->hs, f, n, t->now);
	}
	CU_ASSERT_EQUAL(t6_counter(t, ID, "rx_short"), 1);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "request_tx"), 0);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "advertise_rx"), 0);
	/* The good one is taken. */
	answer(t, &c, WR_DHCP6_ADVERTISE, &l);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "request_tx"), 1);
	t6_free(t);
}

/* Many hosts against one server: each its own DUID, IAID and address. */
static void
test_many(void)
{
	enum { N = 300 };
	struct t6 *t = t6_new(N, WR_HOST_ADDR_DHCP, ID, cfg(1, 0, 0, 4));
	struct lease l = lease1();
	uint32_t bound = 0, h;
	struct cmsg c;
	int round;

	l.pd = 0;
	l.pref = 255;
	wr_hosts_start(t->hs, t->now);
	for (round = 0; round < 40; round++) {
		t6_run(t, t->now + 100 * T6_MS);
		while (next_msg(t, &c)) {
			/* host k (MAC ...01:00 + k) gets NA1 + k */
			l.na_a = NA1 + (wr_get32(c.cid + 6) - 0x0100);
			answer(t, &c, c.type == WR_DHCP6_SOLICIT ?
				      WR_DHCP6_ADVERTISE : WR_DHCP6_REPLY, &l);
		}
	}
	for (h = 0; h < N; h++)
		bound += t6_has_ip6(t, h, NA1 + h) >= 0;
	CU_ASSERT_EQUAL(bound, N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "state_bound"), N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "bound"), N);
	CU_ASSERT_EQUAL(t6_counter(t, ID, "solicit_tx"), N);
	t6_free(t);
}

static CU_TestInfo dhcp6_tests[] = {
	{ "config", test_config },
	{ "next_rt", test_next_rt },
	{ "parse_bad", test_parse_bad },
	{ "exchange", test_exchange },
	{ "silent_server", test_silent_server },
	{ "pref255_rapid", test_pref255_rapid },
	{ "duid_llt", test_duid_llt },
	{ "failures", test_failures },
	{ "malformed", test_malformed },
	{ "many", test_many },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "dhcp6", .pTests = dhcp6_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
