/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_dhcp4: the `dhcp:` key, messages built and parsed, per-host texts, option 82's bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_dhcp4_cfg.h"
#include "wr_parse.h"
#include "wr_test.h"
#include "wr_ytree.h"

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | \
			(uint32_t)(c) << 8 | (uint32_t)(d))

/* ---- The `dhcp:` key ---- */

/* Parse the value of `dhcp:` in @p yaml (a mapping holding it) as the
 * loader would, the path at hosts[0].ipv4.dhcp. */
static int
parse_cfg(const char *yaml, struct wr_dhcp4_cfg **cfg, struct wr_error *err)
{
	struct wr_host_group g;
	struct wr_ynode *root = NULL;
	struct wr_ywalk w;
	size_t old;
	int rc;

	memset(&g, 0, sizeof(g));
	wr_error_clear(err);
	rc = wr_ytree_parse("h.yaml", yaml, strlen(yaml), &root, err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	wr_ywalk_init(&w, "h.yaml", err);
	old = wr_ywalk_push_key(&w, "hosts[0].ipv4.dhcp");
	*cfg = NULL;
	rc = wr_dhcp4_cfg_parse(&w, wr_ynode_get(root, "dhcp"), &g,
				(void **)cfg);
	wr_ywalk_pop(&w, old);
	wr_ytree_free(root);
	return rc;
}

static void
test_cfg_defaults(void)
{
	struct wr_dhcp4_cfg *c;
	struct wr_error err;

	CU_ASSERT_EQUAL_FATAL(parse_cfg("dhcp: dhcp\n", &c, &err), 0);
	CU_ASSERT_EQUAL(c->retries, 4);
	CU_ASSERT_EQUAL(c->timeout_ms, 4000);
	CU_ASSERT_EQUAL(c->cid_mode, WR_DHCP4_CID_MAC);
	CU_ASSERT_FALSE(c->broadcast);
	CU_ASSERT_FALSE(c->option82);
	CU_ASSERT_EQUAL(c->n_prl, 8);
	CU_ASSERT_EQUAL(c->prl[0], 1);
	CU_ASSERT_EQUAL(c->prl[1], 3);
	CU_ASSERT_STRING_EQUAL(c->hostname, "");
	free(c);
	/* The loader may hand no node at all for `ipv4: dhcp`. */
	CU_ASSERT_EQUAL_FATAL(parse_cfg("x: 1\n", &c, &err), 0);
	CU_ASSERT_EQUAL(c->retries, 4);
	free(c);
}

static void
test_cfg_keys(void)
{
	struct wr_dhcp4_cfg *c;
	struct wr_error err;

	CU_ASSERT_EQUAL_FATAL(parse_cfg(
		"dhcp:\n"
		"  retries: 2\n"
		"  timeout: 500ms\n"
		"  hostname: cpe-{index}\n"
		"  client_id: \"id-{mac_hex}\"\n"
		"  option82: {circuit_id: \"port{index}/{vlan}\", remote_id: \"{mac_hex}\"}\n"
		"  broadcast: true\n"
		"  request: [1, 3, 121]\n", &c, &err), 0);
	CU_ASSERT_EQUAL(c->retries, 2);
	CU_ASSERT_EQUAL(c->timeout_ms, 500);
	CU_ASSERT_STRING_EQUAL(c->hostname, "cpe-{index}");
	CU_ASSERT_EQUAL(c->cid_mode, WR_DHCP4_CID_TEXT);
	CU_ASSERT_STRING_EQUAL(c->client_id, "id-{mac_hex}");
	CU_ASSERT_TRUE(c->option82);
	CU_ASSERT_STRING_EQUAL(c->circuit_id, "port{index}/{vlan}");
	CU_ASSERT_STRING_EQUAL(c->remote_id, "{mac_hex}");
	CU_ASSERT_TRUE(c->broadcast);
	CU_ASSERT_EQUAL(c->n_prl, 3);
	CU_ASSERT_EQUAL(c->prl[2], 121);
	free(c);
	CU_ASSERT_EQUAL_FATAL(parse_cfg("dhcp: {client_id: none, option82: "
					"{remote_id: r}}\n", &c, &err), 0);
	CU_ASSERT_EQUAL(c->cid_mode, WR_DHCP4_CID_NONE);
	CU_ASSERT_STRING_EQUAL(c->circuit_id, "");
	CU_ASSERT_STRING_EQUAL(c->remote_id, "r");
	free(c);
}

/* Each wrong value refused where it is, with what was expected. */
static void
test_cfg_errors(void)
{
	static const struct {
		const char *yaml;
		unsigned int line, col;
		const char *path;
		const char *msg;
	} bad[] = {
		{ "dhcp: yes\n", 1, 7, "hosts[0].ipv4.dhcp", "expected dhcp, or a mapping" },
		{ "dhcp: [1]\n", 1, 7, "hosts[0].ipv4.dhcp", "expected a mapping" },
		{ "dhcp:\n  retry: 3\n", 2, 3, "hosts[0].ipv4.dhcp.retry", "unknown key \"retry\"" },
		{ "dhcp:\n  retries: 11\n", 2, 12, "hosts[0].ipv4.dhcp.retries", "got \"11\"" },
		{ "dhcp:\n  retries: 1\n  retries: 2\n", 3, 3, "hosts[0].ipv4.dhcp.retries", "duplicate key" },
		{ "dhcp:\n  timeout: 50ms\n", 2, 12, "hosts[0].ipv4.dhcp.timeout", "from 100ms to 64s" },
		{ "dhcp:\n  timeout: 65s\n", 2, 12, "hosts[0].ipv4.dhcp.timeout", "from 100ms to 64s" },
		{ "dhcp:\n  timeout: 1.0005s\n", 2, 12, "hosts[0].ipv4.dhcp.timeout", "whole milliseconds" },
		{ "dhcp:\n  hostname: \"a{idx}\"\n", 2, 13, "hosts[0].ipv4.dhcp.hostname", "unknown placeholder at character 2" },
		{ "dhcp:\n  hostname: \"a}b\"\n", 2, 13, "hosts[0].ipv4.dhcp.hostname", "a lone \"}\"" },
		{ "dhcp:\n  hostname: \"\"\n", 2, 13, "hosts[0].ipv4.dhcp.hostname", "expected a host name" },
		{ "dhcp:\n  hostname: {a: 1}\n", 2, 13, "hosts[0].ipv4.dhcp.hostname", "got a mapping" },
		{ "dhcp:\n  client_id: [mac]\n", 2, 14, "hosts[0].ipv4.dhcp.client_id", "\"mac\", \"none\" or a text" },
		{ "dhcp:\n  option82: {}\n", 2, 13, "hosts[0].ipv4.dhcp.option82", "expected circuit_id, remote_id or both" },
		{ "dhcp:\n  option82: {circuit: x}\n", 2, 14, "hosts[0].ipv4.dhcp.option82.circuit", "unknown key" },
		{ "dhcp:\n  option82: {circuit_id: \"{vlan\"}\n", 2, 26, "hosts[0].ipv4.dhcp.option82.circuit_id", "unknown placeholder" },
		{ "dhcp:\n  broadcast: 1\n", 2, 14, "hosts[0].ipv4.dhcp.broadcast", "true" },
		{ "dhcp:\n  request: []\n", 2, 12, "hosts[0].ipv4.dhcp.request", "a list of 1 to 32" },
		{ "dhcp:\n  request: [1, 0]\n", 2, 16, "hosts[0].ipv4.dhcp.request[1]", "got \"0\"" },
		{ "dhcp:\n  request: [1, 255]\n", 2, 16, "hosts[0].ipv4.dhcp.request[1]", "got \"255\"" },
		{ "dhcp:\n  request: [3, 1, 3]\n", 2, 19, "hosts[0].ipv4.dhcp.request[2]", "option 3 listed twice" },
	};
	struct wr_dhcp4_cfg *c;
	struct wr_error err;
	char line[WR_ERROR_MSG_MAX * 2];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse_cfg(bad[i].yaml, &c, &err);

		wr_error_format(&err, line, sizeof(line));
		if (rc != -EINVAL || err.line != bad[i].line ||
		    err.col != bad[i].col || strcmp(err.path, bad[i].path) != 0 ||
		    strstr(err.msg, bad[i].msg) == NULL)
			fprintf(stderr, "case %zu: rc %d: %s\n", i, rc, line);
		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT_EQUAL(err.line, bad[i].line);
		CU_ASSERT_EQUAL(err.col, bad[i].col);
		CU_ASSERT_STRING_EQUAL(err.path, bad[i].path);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, bad[i].msg));
		CU_ASSERT_PTR_NULL(c);
	}
}

/* A template whose longest expansion overflows its option is refused. */
static void
test_cfg_overflow(void)
{
	struct wr_dhcp4_cfg *c;
	struct wr_error err;

	/* A group name is up to 31 bytes: eight of them fit one option. */
	CU_ASSERT_EQUAL_FATAL(parse_cfg("dhcp:\n  hostname: \"{group}{group}"
					"{group}{group}{group}{group}{group}{group}\"\n",
					&c, &err), 0);
	free(c);
	/* Circuit-id 2 x 31 leaves 255 - 4 - 62 = 189 to the remote-id:
	 * 7 x 31 = 217 do not fit, 6 x 31 = 186 do. */
	CU_ASSERT_EQUAL(parse_cfg("dhcp:\n  option82:\n    circuit_id: \"{group}{group}\"\n"
				  "    remote_id: \"{group}{group}{group}{group}{group}{group}{group}\"\n",
				  &c, &err), -EINVAL);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_EQUAL(err.col, 16);
	CU_ASSERT_STRING_EQUAL(err.path, "hosts[0].ipv4.dhcp.option82.remote_id");
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "may expand to 217 bytes; the option holds 189"));
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_EQUAL_FATAL(parse_cfg("dhcp:\n  option82:\n    circuit_id: \"{group}{group}\"\n"
					"    remote_id: \"{group}{group}{group}{group}{group}{group}\"\n",
					&c, &err), 0);
	free(c);
}

/* ---- Texts ---- */

static const struct wr_dhcp4_vars vars5 = {
	.index = 5, .host = 17, .port = 1, .group = "cpe",
	.mac = { 0x02, 0x10, 0x00, 0x00, 0x00, 0x06 },
	.vlan = 100, .inner_vlan = 7,
};

static void
test_expand(void)
{
	uint8_t out[255];
	char why[WR_PARSE_WHY_MAX];
	int n;

	n = wr_dhcp4_expand("{group}-{index}/{host}@{port} {mac} {mac_hex} "
			    "{vlan}.{inner_vlan} {{x}}", &vars5, out, sizeof(out));
	CU_ASSERT_EQUAL_FATAL(n, (int)strlen("cpe-5/17@1 02:10:00:00:00:06 "
					     "021000000006 100.7 {x}"));
	CU_ASSERT_EQUAL(memcmp(out, "cpe-5/17@1 02:10:00:00:00:06 "
			       "021000000006 100.7 {x}", (size_t)n), 0);
	CU_ASSERT_EQUAL(wr_dhcp4_expand("{mac}", &vars5, out, 16), -ENOSPC);
	CU_ASSERT_EQUAL(wr_dhcp4_expand("{mac}", &vars5, out, 17), 17);
	CU_ASSERT_EQUAL(wr_dhcp4_expand("{nope}", &vars5, out, 255), -EINVAL);
	CU_ASSERT_EQUAL(wr_dhcp4_expand("{index", &vars5, out, 255), -EINVAL);
	CU_ASSERT_EQUAL(wr_dhcp4_expand_max("a{mac}{index}", why, sizeof(why)),
			1 + 17 + 10);
	CU_ASSERT_EQUAL(wr_dhcp4_expand_max("x}", why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "character 2"));
}

/* Option 82's value: circuit-id (1) then remote-id (2), RFC 3046 2.0. */
static void
test_opt82_bytes(void)
{
	static const uint8_t want[] = {
		0x01, 0x09, 'p', 'o', 'r', 't', '5', '/', '1', '0', '0',
		0x02, 0x0c, '0', '2', '1', '0', '0', '0', '0', '0', '0', '0',
		'0', '6',
	};
	struct wr_dhcp4_cfg c;
	uint8_t out[255];

	memset(&c, 0, sizeof(c));
	strcpy(c.circuit_id, "port{index}/{vlan}");
	strcpy(c.remote_id, "{mac_hex}");
	CU_ASSERT_EQUAL_FATAL(wr_dhcp4_opt82(&c, &vars5, out), (int)sizeof(want));
	CU_ASSERT_EQUAL(memcmp(out, want, sizeof(want)), 0);
	c.circuit_id[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(wr_dhcp4_opt82(&c, &vars5, out), 14);
	CU_ASSERT_EQUAL(memcmp(out, want + 11, 14), 0);
}

/* ---- Messages ---- */

static const uint8_t cmac[6] = { 0x02, 0x10, 0x00, 0x00, 0x00, 0x06 };

/* A DISCOVER with every option: each byte where RFC 2131 and 2132 put it. */
static void
test_build_discover(void)
{
	static const uint8_t prl[] = { 1, 3, 6 };
	static const uint8_t cid[] = { 1, 0x02, 0x10, 0x00, 0x00, 0x00, 0x06 };
	static const uint8_t o82[] = { 1, 2, 'a', 'b' };
	static const uint8_t opts[] = {
		0x63, 0x82, 0x53, 0x63,         /* cookie */
		53, 1, 1,                       /* DISCOVER */
		61, 7, 1, 0x02, 0x10, 0x00, 0x00, 0x00, 0x06,
		12, 5, 'c', 'p', 'e', '-', '5',
		55, 3, 1, 3, 6,
		82, 4, 1, 2, 'a', 'b',          /* last */
		255,
	};
	struct wr_dhcp4_out o = {
		.type = WR_DHCP4_DISCOVER, .xid = 0xdeadbeef, .secs = 3,
		.broadcast = true, .dst_ip = 0xffffffff, .chaddr = cmac,
		.client_id = cid, .client_id_len = 7,
		.hostname = "cpe-5", .hostname_len = 5,
		.prl = prl, .n_prl = 3, .opt82 = o82, .opt82_len = 4,
	};
	uint8_t f[WR_DHCP4_FRAME_MAX];
	uint32_t n = wr_dhcp4_build(f, &o);
	const uint8_t *b = f + 28;
	size_t i;
	uint64_t sum;

	/* 300 bytes of BOOTP (RFC 1542 2.1) behind IPv4 and UDP. */
	CU_ASSERT_EQUAL_FATAL(n, 20 + 8 + 300);
	CU_ASSERT_EQUAL(f[0], 0x45);
	CU_ASSERT_EQUAL(wr_get16(f + 2), 328);
	CU_ASSERT_EQUAL(f[8], 64);
	CU_ASSERT_EQUAL(f[9], 17);
	CU_ASSERT_EQUAL(wr_get32(f + 12), 0);
	CU_ASSERT_EQUAL(wr_get32(f + 16), 0xffffffff);
	CU_ASSERT_EQUAL(wr_csum_fold(wr_csum_sum(f, 20)), 0xffff);
	CU_ASSERT_EQUAL(wr_get16(f + 20), 68);
	CU_ASSERT_EQUAL(wr_get16(f + 22), 67);
	CU_ASSERT_EQUAL(wr_get16(f + 24), 308);
	sum = 0xffffu + 0xffffu + 17 + 308 + wr_csum_sum(f + 20, 308);
	CU_ASSERT_EQUAL(wr_csum_fold(sum), 0xffff);
	CU_ASSERT_EQUAL(b[0], 1);               /* BOOTREQUEST */
	CU_ASSERT_EQUAL(b[1], 1);
	CU_ASSERT_EQUAL(b[2], 6);
	CU_ASSERT_EQUAL(wr_get32(b + 4), 0xdeadbeef);
	CU_ASSERT_EQUAL(wr_get16(b + 8), 3);
	CU_ASSERT_EQUAL(wr_get16(b + 10), 0x8000);
	CU_ASSERT_EQUAL(memcmp(b + 28, cmac, 6), 0);
	for (i = 34; i < 236; i++)
		if (b[i] != 0)
			break;
	CU_ASSERT_EQUAL(i, 236);
	CU_ASSERT_EQUAL(memcmp(b + 236, opts, sizeof(opts)), 0);
	for (i = 236 + sizeof(opts); i < 300; i++)
		if (b[i] != 0)
			break;
	CU_ASSERT_EQUAL(i, 300);
}

/* A server's reply as bytes from the UDP header on (tests only: the
 * client never sends one). */
static uint32_t
reply(uint8_t *u, uint8_t type, uint32_t xid, uint32_t yiaddr,
      const uint8_t *opts, uint32_t olen, uint32_t src, uint32_t dst)
{
	uint8_t *b = u + 8;
	uint32_t ulen = 8 + 240 + olen + 3;
	uint64_t sum;

	memset(u, 0, ulen);
	wr_put16(u, 67);
	wr_put16(u + 2, 68);
	wr_put16(u + 4, ulen);
	b[0] = 2;
	b[1] = 1;
	b[2] = 6;
	wr_put32(b + 4, xid);
	wr_put32(b + 16, yiaddr);
	memcpy(b + 28, cmac, 6);
	wr_put32(b + 236, WR_DHCP4_COOKIE);
	b[240] = 53;
	b[241] = 1;
	b[242] = type;
	memcpy(b + 243, opts, olen);
	sum = (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff) +
	      17 + ulen + wr_csum_sum(u, ulen);
	wr_put16(u + 6, wr_csum_udp(sum));
	return ulen;
}

static void
test_parse_ack(void)
{
	static const uint8_t opts[] = {
		54, 4, 10, 0, 0, 1,
		51, 4, 0, 0, 0x0e, 0x10,        /* 3600 s */
		1, 4, 255, 255, 255, 0,
		3, 8, 10, 0, 0, 254, 10, 0, 0, 253,
		58, 4, 0, 0, 0x07, 0x08,        /* 1800 */
		0, 0,                           /* pads */
		255,
	};
	uint8_t u[600];
	struct wr_dhcp4_msg m;
	uint32_t n;

	n = reply(u, WR_DHCP4_ACK, 0x1234, IP(10, 0, 0, 50), opts,
		  sizeof(opts), IP(10, 0, 0, 1), IP(10, 0, 0, 50));
	CU_ASSERT_EQUAL_FATAL(wr_dhcp4_parse(u, n, IP(10, 0, 0, 1),
					     IP(10, 0, 0, 50), &m), WR_DHCP4_OK);
	CU_ASSERT_EQUAL(m.type, WR_DHCP4_ACK);
	CU_ASSERT_EQUAL(m.xid, 0x1234);
	CU_ASSERT_EQUAL(m.yiaddr, IP(10, 0, 0, 50));
	CU_ASSERT_EQUAL(m.server_id, IP(10, 0, 0, 1));
	CU_ASSERT_TRUE(m.has_lease);
	CU_ASSERT_EQUAL(m.lease_s, 3600);
	CU_ASSERT_TRUE(m.has_mask);
	CU_ASSERT_EQUAL(m.mask, 0xffffff00);
	CU_ASSERT_EQUAL(m.router, IP(10, 0, 0, 254));
	CU_ASSERT_TRUE(m.has_t1);
	CU_ASSERT_EQUAL(m.t1_s, 1800);
	CU_ASSERT_FALSE(m.has_t2);
	CU_ASSERT_EQUAL(memcmp(m.chaddr, cmac, 6), 0);
	/* The pseudo-header counts: another destination, a bad checksum. */
	CU_ASSERT_EQUAL(wr_dhcp4_parse(u, n, IP(10, 0, 0, 1), IP(10, 0, 0, 51),
				       &m), WR_DHCP4_BAD_UDP_CSUM);
	/* No checksum (0) is allowed over IPv4 (RFC 768). */
	wr_put16(u + 6, 0);
	CU_ASSERT_EQUAL(wr_dhcp4_parse(u, n, IP(10, 0, 0, 1), IP(10, 0, 0, 51),
				       &m), WR_DHCP4_OK);
}

/* Each way a reply can be wrong, refused for its reason. */
static void
test_parse_bad(void)
{
	static const uint8_t lease[] = { 51, 4, 0, 0, 1, 0 };
	uint8_t u[600], v[600];
	struct wr_dhcp4_msg m;
	uint32_t n, src = IP(10, 0, 0, 1), dst = 0xffffffff;

	n = reply(u, WR_DHCP4_OFFER, 7, IP(10, 0, 0, 9), lease, sizeof(lease),
		  src, dst);
	CU_ASSERT_EQUAL(wr_dhcp4_parse(u, n, src, dst, &m), WR_DHCP4_OK);
#define MUTATE(stmt, want)                                                \
	do {                                                              \
		memcpy(v, u, n);                                          \
		stmt;                                                     \
		wr_put16(v + 6, 0); /* checksum off: the field is judged */ \
		CU_ASSERT_EQUAL(wr_dhcp4_parse(v, n, src, dst, &m), want); \
	} while (0)
	MUTATE((void)0, WR_DHCP4_OK);
	MUTATE(v[8] = 1, WR_DHCP4_BAD_OP);
	MUTATE(v[9] = 6, WR_DHCP4_BAD_HTYPE);
	MUTATE(v[10] = 16, WR_DHCP4_BAD_HTYPE);
	MUTATE(v[8 + 239] = 0x64, WR_DHCP4_BAD_COOKIE);
	MUTATE(v[8 + 241] = 2, WR_DHCP4_BAD_OPTION_LEN); /* 53 of length 2 */
	MUTATE(v[8 + 244] = 200, WR_DHCP4_BAD_OPTION_LEN); /* 51 past the end */
	MUTATE(v[8 + 244] = 3, WR_DHCP4_BAD_OPTION_LEN); /* 51 of length 3 */
	MUTATE(v[8 + 242] = 9, WR_DHCP4_BAD_MSG_TYPE);
	MUTATE(v[8 + 240] = 60, WR_DHCP4_BAD_MSG_TYPE); /* no option 53 */
	MUTATE(wr_put16(v + 4, n + 1), WR_DHCP4_BAD_SHORT);
	MUTATE(wr_put16(v + 4, 8 + 239), WR_DHCP4_BAD_SHORT);
	CU_ASSERT_EQUAL(wr_dhcp4_parse(u, 7, src, dst, &m), WR_DHCP4_BAD_SHORT);
	/* Two option 53s. */
	memcpy(v, u, n);
	v[8 + 243] = 53;        /* over option 51 */
	v[8 + 244] = 1;
	v[8 + 245] = 2;
	memset(v + 8 + 246, 0, 3);
	wr_put16(v + 6, 0);
	CU_ASSERT_EQUAL(wr_dhcp4_parse(v, n, src, dst, &m), WR_DHCP4_BAD_MSG_TYPE);
	/* The checksum itself. */
	memcpy(v, u, n);
	v[6] ^= 1;
	CU_ASSERT_EQUAL(wr_dhcp4_parse(v, n, src, dst, &m), WR_DHCP4_BAD_UDP_CSUM);
#undef MUTATE
	CU_ASSERT_STRING_EQUAL(wr_dhcp4_bad_name(WR_DHCP4_BAD_UDP_CSUM), "udp_csum");
	CU_ASSERT_STRING_EQUAL(wr_dhcp4_bad_name(WR_DHCP4_BAD_XID), "xid");
}

/* Replies Scapy built (test/fuzz/seeds/fuzz_dhcp4, an encoder we did
 * not write: IP(src="0.0.0.0", dst="255.255.255.255")/UDP(67, 68)/
 * BOOTP(op=2, xid=0x1234, yiaddr="10.0.0.50", chaddr=02:10:00:00:00:06)/
 * DHCP(message-type, server_id 10.0.0.1, lease_time 3600, subnet_mask
 * 255.255.255.0, router 10.0.0.254, renewal_time 1800, rebinding_time
 * 3150, end), from the UDP header on) read back field by field. */
static void
test_parse_scapy(void)
{
	static const char *const names[] = { "offer", "ack", "nak" };
	static const uint8_t types[] = { WR_DHCP4_OFFER, WR_DHCP4_ACK, WR_DHCP4_NAK };
	char path[512];
	uint8_t u[1024];
	struct wr_dhcp4_msg m;
	size_t i, n;
	FILE *f;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/../fuzz/seeds/fuzz_dhcp4/%s",
			 WR_FIXTURES, names[i]);
		f = fopen(path, "rb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		n = fread(u, 1, sizeof(u), f);
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(wr_dhcp4_parse(u, (uint32_t)n, 0, 0xffffffff,
						     &m), WR_DHCP4_OK);
		CU_ASSERT_EQUAL(m.type, types[i]);
		CU_ASSERT_EQUAL(m.xid, 0x1234);
		CU_ASSERT_EQUAL(m.yiaddr, IP(10, 0, 0, 50));
		CU_ASSERT_EQUAL(memcmp(m.chaddr, cmac, 6), 0);
		CU_ASSERT_EQUAL(m.server_id, IP(10, 0, 0, 1));
		CU_ASSERT_EQUAL(m.lease_s, 3600);
		CU_ASSERT_EQUAL(m.t1_s, 1800);
		CU_ASSERT_EQUAL(m.t2_s, 3150);
		CU_ASSERT_EQUAL(m.mask, 0xffffff00);
		CU_ASSERT_EQUAL(m.router, IP(10, 0, 0, 254));
		/* Scapy's checksum: one bit off and it no longer holds. */
		u[8 + 16] ^= 1;
		CU_ASSERT_EQUAL(wr_dhcp4_parse(u, (uint32_t)n, 0, 0xffffffff, &m),
				WR_DHCP4_BAD_UDP_CSUM);
	}
}

static void
test_backoff(void)
{
	struct wr_dhcp4_cfg c = { .timeout_ms = 4000 };

	/* RFC 2131 4.1: 4, 8, 16, 32, 64, and 64 after that. */
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 0), 4000);
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 1), 8000);
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 2), 16000);
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 3), 32000);
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 4), 64000);
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 9), 64000);
	c.timeout_ms = 500;
	CU_ASSERT_EQUAL(wr_dhcp4_backoff_ms(&c, 3), 4000);
}

static CU_TestInfo cfg_tests[] = {
	{ "defaults", test_cfg_defaults },
	{ "keys", test_cfg_keys },
	{ "errors", test_cfg_errors },
	{ "overflow", test_cfg_overflow },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo msg_tests[] = {
	{ "expand", test_expand },
	{ "opt82_bytes", test_opt82_bytes },
	{ "build_discover", test_build_discover },
	{ "parse_ack", test_parse_ack },
	{ "parse_bad", test_parse_bad },
	{ "parse_scapy", test_parse_scapy },
	{ "backoff", test_backoff },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "cfg", .pTests = cfg_tests },
	{ .pName = "msg", .pTests = msg_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
