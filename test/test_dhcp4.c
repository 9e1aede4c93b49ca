/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_dhcp4: the `dhcp:` key, messages built and parsed, per-host texts, option 82's bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_dhcp4.h"
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

/* ---- A whole lease against scripted server frames, an injected clock ---- */

#define MS 1000000ull
#define SEC 1000000000ull
#define SRV_IP IP(10, 0, 0, 1)
#define GW_IP IP(10, 0, 0, 254)
#define CAP_MAX 64

static const uint8_t srv_mac[6] = { 0x02, 0xaa, 0x00, 0x00, 0x00, 0x01 };

/* What the hosts sent: DHCP frames kept with the clock's time. */
static struct {
	uint8_t f[CAP_MAX][WR_HOST_FRAME_MAX];
	uint32_t len[CAP_MAX];
	uint64_t t[CAP_MAX];
	unsigned int n;         /* DHCP frames */
	unsigned int other;     /* anything else (ARP, GARP) */
	FILE *pcap;             /* --pcap: every DHCP frame written there too */
} cap;
static uint64_t clock_ns;

/* Offset of the IPv4 header behind the tags, or 0. */
static uint32_t
l3_of(const uint8_t *f, uint32_t len)
{
	uint32_t off = 12;

	while (off + 4 <= len && (wr_get16(f + off) == 0x8100 ||
				  wr_get16(f + off) == 0x88a8))
		off += 4;
	return off + 2 + 20 <= len && wr_get16(f + off) == 0x0800 ? off + 2 : 0;
}

static void
pcap_put(const uint8_t *f, uint32_t len, uint64_t t)
{
	uint32_t rec[4] = { (uint32_t)(t / SEC), (uint32_t)(t % SEC / 1000),
			    len, len };

	fwrite(rec, sizeof(rec), 1, cap.pcap);
	fwrite(f, 1, len, cap.pcap);
}

static int
cap_send(void *ctx, const uint8_t *f, uint32_t len)
{
	uint32_t l3 = l3_of(f, len);

	(void)ctx;
	if (l3 == 0 || f[l3 + 9] != 17 || wr_get16(f + l3 + 22) != 67 ||
	    cap.n == CAP_MAX) {
		cap.other++;
		return 0;
	}
	memcpy(cap.f[cap.n], f, len);
	cap.len[cap.n] = len;
	cap.t[cap.n] = clock_ns;
	cap.n++;
	if (cap.pcap != NULL)
		pcap_put(f, len, clock_ns);
	return 0;
}

/* A client message as sent, read back by the test (Scapy reads the same
 * frames in test/dhcp4/test_dhcp4_scapy.py). */
struct sent {
	const uint8_t *eth_dst;
	uint16_t vlan;          /* 0: untagged */
	uint32_t ip_src, ip_dst;
	uint8_t type;
	uint32_t xid;
	uint16_t secs, flags;
	uint32_t ciaddr;
	uint32_t requested, server_id;
	const uint8_t *o82;     /* option 82's value */
	uint8_t o82_len;
	const uint8_t *cid;
	uint8_t cid_len;
	const uint8_t *hostname;
	uint8_t hostname_len;
	uint8_t n_prl;
};

static void
read_sent(unsigned int k, struct sent *s)
{
	const uint8_t *f = cap.f[k];
	uint32_t l3 = l3_of(f, cap.len[k]), i, end;
	const uint8_t *b = f + l3 + 28;

	CU_ASSERT_FATAL(k < cap.n);
	memset(s, 0, sizeof(*s));
	s->eth_dst = f;
	s->vlan = l3 > 14 ? wr_get16(f + 14) & 0xfff : 0;
	s->ip_src = wr_get32(f + l3 + 12);
	s->ip_dst = wr_get32(f + l3 + 16);
	CU_ASSERT_EQUAL(wr_csum_fold(wr_csum_sum(f + l3, 20)), 0xffff);
	CU_ASSERT_EQUAL(b[0], 1);
	CU_ASSERT_EQUAL(wr_get32(b + 236), WR_DHCP4_COOKIE);
	s->xid = wr_get32(b + 4);
	s->secs = wr_get16(b + 8);
	s->flags = wr_get16(b + 10);
	s->ciaddr = wr_get32(b + 12);
	end = wr_get16(f + l3 + 24) - 8;
	for (i = 240; i < end && b[i] != 255;) {
		const uint8_t *v = b + i + 2;
		uint8_t code = b[i], len = b[i + 1];

		if (code == 0) {
			i++;
			continue;
		}
		if (code == 53)
			s->type = v[0];
		else if (code == 50)
			s->requested = wr_get32(v);
		else if (code == 54)
			s->server_id = wr_get32(v);
		else if (code == 82) {
			s->o82 = v;
			s->o82_len = len;
		} else if (code == 61) {
			s->cid = v;
			s->cid_len = len;
		} else if (code == 12) {
			s->hostname = v;
			s->hostname_len = len;
		} else if (code == 55)
			s->n_prl = len;
		i += 2u + len;
	}
}

/* A server's reply to the host with MAC @p mac, as a frame on its VLAN. */
static uint32_t
server_frame(uint8_t *f, const uint8_t *mac, uint16_t vlan, uint8_t type,
	     uint32_t xid, uint32_t yiaddr, const uint8_t *opts, uint32_t olen)
{
	uint32_t l2 = 14, n, dst = yiaddr ? yiaddr : 0xffffffff;
	uint8_t *ip;

	memcpy(f, mac, 6);
	memcpy(f + 6, srv_mac, 6);
	if (vlan != 0) {
		wr_put16(f + 12, 0x8100);
		wr_put16(f + 14, vlan);
		l2 = 18;
	}
	wr_put16(f + l2 - 2, 0x0800);
	ip = f + l2;
	n = reply(ip + 20, type, xid, yiaddr, opts, olen, SRV_IP, dst);
	memcpy(ip + 20 + 8 + 28, mac, 6); /* chaddr */
	/* reply() summed the datagram with cmac: sum it again. */
	wr_put16(ip + 20 + 6, 0);
	wr_put16(ip + 20 + 6, wr_csum_udp((SRV_IP >> 16) + (SRV_IP & 0xffff) +
					  (dst >> 16) + (dst & 0xffff) + 17 + n +
					  wr_csum_sum(ip + 20, n)));
	memset(ip, 0, 20);
	ip[0] = 0x45;
	wr_put16(ip + 2, 20 + n);
	ip[8] = 64;
	ip[9] = 17;
	wr_put32(ip + 12, SRV_IP);
	wr_put32(ip + 16, dst);
	wr_put16(ip + 10, wr_csum_ipv4(wr_csum_sum(ip, 20)));
	return l2 + 20 + n;
}

/* One group of @p count hosts from 02:10:00:00:00:01 on VLAN @p vlan,
 * `ipv4: {dhcp: <yaml>}`. */
static struct wr_host_group grp;
static struct wr_host_specs specs;

static struct wr_hosts *
hosts(uint32_t count, uint16_t vlan, const char *yaml)
{
	struct wr_dhcp4_cfg *c;
	struct wr_hosts *hs = NULL;
	struct wr_error err;

	memset(&cap, 0, sizeof(cap) - sizeof(cap.pcap));
	clock_ns = 0;
	CU_ASSERT_EQUAL_FATAL(parse_cfg(yaml, &c, &err), 0);
	memset(&grp, 0, sizeof(grp));
	strcpy(grp.name, "cpe");
	grp.count = count;
	grp.mac = 0x021000000001ull;
	grp.mac_step = 1;
	if (vlan != 0) {
		grp.n_tags = 1;
		grp.tpid[0] = 0x8100;
		grp.vlan[0] = vlan;
	}
	grp.v4.mode = WR_HOST_ADDR_DHCP;
	grp.v4.prefix = 24;
	grp.proto_cfg[WR_HOST_PROTO_dhcp4] = c;
	specs.groups = &grp;
	specs.n = 1;
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&hs, &specs, 0, 42, cap_send,
					      NULL, &err), 0);
	return hs;
}

static void
hosts_free(struct wr_hosts *hs)
{
	wr_hosts_free(hs);
	free(grp.proto_cfg[WR_HOST_PROTO_dhcp4]);
}

/* Time goes on to @p t, every timer on the way fired at its time. */
static void
run_to(struct wr_hosts *hs, uint64_t t)
{
	uint64_t next;

	for (;;) {
		next = wr_hosts_tick(hs, clock_ns);
		if (next > t || next <= clock_ns)
			break;
		clock_ns = next;
	}
	clock_ns = t;
	(void)wr_hosts_tick(hs, clock_ns);
}

static void
input(struct wr_hosts *hs, const uint8_t *f, uint32_t len)
{
	wr_hosts_input(hs, f, len, clock_ns);
}

struct ctr_find {
	const char *name;
	uint64_t v;
	bool found;
};

static void
ctr_put(void *ctx, const char *name, uint64_t v)
{
	struct ctr_find *c = ctx;

	if (strcmp(c->name, name) == 0) {
		c->v = v;
		c->found = true;
	}
}

static uint64_t
ctr(const struct wr_hosts *hs, const char *name)
{
	struct ctr_find c = { name, 0, false };

	wr_hosts_counters(hs, ctr_put, &c);
	CU_ASSERT_TRUE(c.found);
	if (!c.found)
		fprintf(stderr, "no counter %s\n", name);
	return c.v;
}

static const char *
state(const struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_proto_state(hs, h, WR_HOST_PROTO_dhcp4);
}

/* Lease 3600 s, server 10.0.0.1, mask /24, router 10.0.0.254. */
static const uint8_t lease_opts[] = {
	54, 4, 10, 0, 0, 1,
	51, 4, 0, 0, 0x0e, 0x10,
	1, 4, 255, 255, 255, 0,
	3, 4, 10, 0, 0, 254,
	255,
};

/* Host @p h of @p hs through DISCOVER, OFFER, REQUEST, ACK of 10.0.0.@p
 * last: the REQUEST (the lease's start) at the clock's time. */
static void
lease(struct wr_hosts *hs, uint32_t h, uint8_t last)
{
	const struct wr_host *ho = wr_hosts_cget(hs, h);
	uint8_t f[WR_HOST_FRAME_MAX];
	struct sent s;
	unsigned int k;
	uint32_t n;

	for (k = cap.n; k-- > 0;) {
		read_sent(k, &s);
		if (memcmp(cap.f[k] + 6, ho->mac, 6) == 0)
			break;
	}
	CU_ASSERT_EQUAL_FATAL(s.type, WR_DHCP4_DISCOVER);
	k = cap.n;
	n = server_frame(f, ho->mac, grp.vlan[0], WR_DHCP4_OFFER, s.xid,
			 IP(10, 0, 0, last), lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	CU_ASSERT_EQUAL_FATAL(cap.n, k + 1);
	read_sent(k, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
	CU_ASSERT_STRING_EQUAL(state(hs, h), "requesting");
	n = server_frame(f, ho->mac, grp.vlan[0], WR_DHCP4_ACK, s.xid,
			 IP(10, 0, 0, last), lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	CU_ASSERT_STRING_EQUAL(state(hs, h), "bound");
}

/* DISCOVER, OFFER, REQUEST, ACK; T1's unicast REQUESTs, T2's broadcast
 * ones, each at the time RFC 2131 4.4.5 says; the lease's end takes the
 * address and starts over; RELEASE at stop. */
static void
test_lease_cycle(void)
{
	static const uint8_t o82[] = {
		0x01, 0x09, 'p', 'o', 'r', 't', '0', '/', '1', '0', '0',
		0x02, 0x0c, '0', '2', '1', '0', '0', '0', '0', '0', '0', '0',
		'0', '1',
	};
	static const uint64_t renew_ms[] = { 1800500, 2475500, 2813000,
					     2981750, 3066125, 3126125 };
	static const uint64_t rebind_ms[] = { 3150500, 3375500, 3488000,
					      3548000 };
	struct wr_hosts *hs = hosts(1, 100, "dhcp:\n  hostname: cpe-{index}\n"
				    "  option82: {circuit_id: \"port{index}/{vlan}\", "
				    "remote_id: \"{mac_hex}\"}\n");
	const struct wr_host *ho = wr_hosts_cget(hs, 0);
	uint8_t f[WR_HOST_FRAME_MAX];
	uint32_t n, xid;
	struct sent s;
	unsigned int k, i;

	wr_hosts_start(hs, 0);
	CU_ASSERT_EQUAL_FATAL(cap.n, 1);
	read_sent(0, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
	CU_ASSERT_EQUAL(memcmp(s.eth_dst, "\xff\xff\xff\xff\xff\xff", 6), 0);
	CU_ASSERT_EQUAL(s.vlan, 100);
	CU_ASSERT_EQUAL(s.ip_src, 0);
	CU_ASSERT_EQUAL(s.ip_dst, 0xffffffff);
	CU_ASSERT_EQUAL(s.flags, 0);
	CU_ASSERT_EQUAL(s.ciaddr, 0);
	CU_ASSERT_EQUAL_FATAL(s.o82_len, sizeof(o82));
	CU_ASSERT_EQUAL(memcmp(s.o82, o82, sizeof(o82)), 0);
	CU_ASSERT_EQUAL_FATAL(s.cid_len, 7);
	CU_ASSERT_EQUAL(memcmp(s.cid, "\x01\x02\x10\x00\x00\x00\x01", 7), 0);
	CU_ASSERT_EQUAL_FATAL(s.hostname_len, 5);
	CU_ASSERT_EQUAL(memcmp(s.hostname, "cpe-0", 5), 0);
	CU_ASSERT_EQUAL(s.n_prl, 8);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "selecting");
	xid = s.xid;

	/* The OFFER half a second later: REQUEST at once, same xid. */
	run_to(hs, 500 * MS);
	n = server_frame(f, ho->mac, 100, WR_DHCP4_OFFER, xid, IP(10, 0, 0, 50),
			 lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	CU_ASSERT_EQUAL_FATAL(cap.n, 2);
	read_sent(1, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
	CU_ASSERT_EQUAL(cap.t[1], 500 * MS);
	CU_ASSERT_EQUAL(s.xid, xid);
	CU_ASSERT_EQUAL(s.requested, IP(10, 0, 0, 50));
	CU_ASSERT_EQUAL(s.server_id, SRV_IP);
	CU_ASSERT_EQUAL(s.ciaddr, 0);
	CU_ASSERT_EQUAL(s.ip_dst, 0xffffffff);
	CU_ASSERT_EQUAL(s.o82_len, sizeof(o82));
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "requesting");
	CU_ASSERT_EQUAL(ho->ip4, 0);

	/* The ACK: the address, mask and router given to the host. */
	run_to(hs, 600 * MS);
	n = server_frame(f, ho->mac, 100, WR_DHCP4_ACK, xid, IP(10, 0, 0, 50),
			 lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "bound");
	CU_ASSERT_EQUAL(ho->ip4, IP(10, 0, 0, 50));
	CU_ASSERT_EQUAL(ho->prefix4, 24);
	CU_ASSERT_EQUAL(ho->gw4, GW_IP);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_leased"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_state_bound"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_state_requesting"), 0);
	/* A duplicate ACK now is valid but of no use. */
	input(hs, f, n);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_unexpected"), 1);
	CU_ASSERT_EQUAL(cap.n, 2);

	/* T1 = 1800 s after the REQUEST (at 0.5 s), no answer: unicast
	 * REQUESTs after half the time left to T2, then T2's broadcast
	 * ones, then the lease's end at 3600.5 s. */
	run_to(hs, 3600499 * MS);
	CU_ASSERT_EQUAL_FATAL(cap.n, 2 + 6 + 4);
	for (i = 0; i < 6; i++) {
		k = 2 + i;
		read_sent(k, &s);
		CU_ASSERT_EQUAL(cap.t[k], renew_ms[i] * MS);
		CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
		CU_ASSERT_EQUAL(memcmp(s.eth_dst, srv_mac, 6), 0);
		CU_ASSERT_EQUAL(s.ip_src, IP(10, 0, 0, 50));
		CU_ASSERT_EQUAL(s.ip_dst, SRV_IP);
		CU_ASSERT_EQUAL(s.ciaddr, IP(10, 0, 0, 50));
		CU_ASSERT_EQUAL(s.requested, 0);
		CU_ASSERT_EQUAL(s.server_id, 0);
		CU_ASSERT_NOT_EQUAL(s.xid, xid);
	}
	for (i = 0; i < 4; i++) {
		k = 8 + i;
		read_sent(k, &s);
		CU_ASSERT_EQUAL(cap.t[k], rebind_ms[i] * MS);
		CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
		CU_ASSERT_EQUAL(memcmp(s.eth_dst, "\xff\xff\xff\xff\xff\xff", 6), 0);
		CU_ASSERT_EQUAL(s.ip_src, IP(10, 0, 0, 50));
		CU_ASSERT_EQUAL(s.ip_dst, 0xffffffff);
		CU_ASSERT_EQUAL(s.ciaddr, IP(10, 0, 0, 50));
	}
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "rebinding");
	CU_ASSERT_EQUAL(ho->ip4, IP(10, 0, 0, 50));
	run_to(hs, 3600500 * MS);
	CU_ASSERT_EQUAL(ho->ip4, 0);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_expired"), 1);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "selecting");
	CU_ASSERT_EQUAL_FATAL(cap.n, 13);
	read_sent(12, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
	CU_ASSERT_EQUAL(s.ciaddr, 0);

	/* Leased again, then stopped: RELEASE to the server, address gone. */
	lease(hs, 0, 51);
	CU_ASSERT_EQUAL(ho->ip4, IP(10, 0, 0, 51));
	k = cap.n;
	wr_hosts_stop(hs, clock_ns);
	CU_ASSERT_EQUAL_FATAL(cap.n, k + 1);
	read_sent(k, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_RELEASE);
	CU_ASSERT_EQUAL(memcmp(s.eth_dst, srv_mac, 6), 0);
	CU_ASSERT_EQUAL(s.ip_dst, SRV_IP);
	CU_ASSERT_EQUAL(s.ciaddr, IP(10, 0, 0, 51));
	CU_ASSERT_EQUAL(s.server_id, SRV_IP);
	CU_ASSERT_EQUAL(ho->ip4, 0);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "released");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_tx_release"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_tx_discover"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_tx_request"), 1 + 10 + 1);
	hosts_free(hs);
}

/* T1 answered: RENEWING back to BOUND, T1 counted again from the new
 * REQUEST; T2 answered: REBINDING back to BOUND; the server's T1/T2. */
static void
test_renew_rebind(void)
{
	static const uint8_t t_opts[] = {
		54, 4, 10, 0, 0, 1,
		51, 4, 0, 0, 0x0e, 0x10,        /* 3600 */
		58, 4, 0, 0, 0x03, 0x84,        /* T1 900 */
		59, 4, 0, 0, 0x07, 0x08,        /* T2 1800 */
		255,
	};
	struct wr_hosts *hs = hosts(1, 0, "dhcp: dhcp\n");
	const struct wr_host *ho = wr_hosts_cget(hs, 0);
	uint8_t f[WR_HOST_FRAME_MAX];
	struct sent s;
	uint32_t n;

	wr_hosts_start(hs, 0);
	lease(hs, 0, 60);               /* REQUEST at 0: T1 1800 s */
	run_to(hs, 1800 * SEC);
	CU_ASSERT_EQUAL_FATAL(cap.n, 3);
	CU_ASSERT_EQUAL(cap.t[2], 1800 * SEC);
	read_sent(2, &s);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "renewing");
	run_to(hs, 1801 * SEC);
	n = server_frame(f, ho->mac, 0, WR_DHCP4_ACK, s.xid, IP(10, 0, 0, 60),
			 t_opts, sizeof(t_opts));
	input(hs, f, n);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "bound");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_renewed"), 1);
	/* The server's T1 (900 s) from the renewal's REQUEST (1800 s). */
	run_to(hs, 2699 * SEC);
	CU_ASSERT_EQUAL(cap.n, 3);
	run_to(hs, 2700 * SEC);
	CU_ASSERT_EQUAL_FATAL(cap.n, 4);
	CU_ASSERT_EQUAL(cap.t[3], 2700 * SEC);
	/* T2 = 3600 s: half of 900 s to it is 450 s: REQUESTs at 3150,
	 * 3375, 3487.5, 3547.5, then T2's broadcast at 3600. */
	run_to(hs, 3600 * SEC);
	CU_ASSERT_EQUAL_FATAL(cap.n, 9);
	CU_ASSERT_EQUAL(cap.t[4], 3150 * SEC);
	CU_ASSERT_EQUAL(cap.t[5], 3375 * SEC);
	CU_ASSERT_EQUAL(cap.t[6], 3487500 * MS);
	CU_ASSERT_EQUAL(cap.t[7], 3547500 * MS);
	CU_ASSERT_EQUAL(cap.t[8], 3600 * SEC);
	read_sent(8, &s);
	CU_ASSERT_EQUAL(s.ip_dst, 0xffffffff);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "rebinding");
	/* Another server answers the rebinding host: its ACK is taken. */
	n = server_frame(f, ho->mac, 0, WR_DHCP4_ACK, s.xid, IP(10, 0, 0, 60),
			 lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "bound");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rebound"), 1);
	CU_ASSERT_EQUAL(ho->ip4, IP(10, 0, 0, 60));
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_expired"), 0);
	hosts_free(hs);
}

/* NAK in REQUESTING: a new DISCOVER at once, another xid; NAK in
 * RENEWING: the address goes at once; retries + 1 NAKed acquisitions and
 * the host has failed. */
static void
test_nak(void)
{
	static const uint8_t nak_opts[] = { 54, 4, 10, 0, 0, 1, 255 };
	struct wr_hosts *hs = hosts(1, 0, "dhcp: {retries: 1}\n");
	const struct wr_host *ho = wr_hosts_cget(hs, 0);
	uint8_t f[WR_HOST_FRAME_MAX];
	struct sent s;
	uint32_t n, xid;

	wr_hosts_start(hs, 0);
	lease(hs, 0, 70);
	run_to(hs, 1800 * SEC);
	CU_ASSERT_EQUAL_FATAL(cap.n, 3);
	read_sent(2, &s);
	n = server_frame(f, ho->mac, 0, WR_DHCP4_NAK, s.xid, 0, nak_opts,
			 sizeof(nak_opts));
	input(hs, f, n);
	CU_ASSERT_EQUAL(ho->ip4, 0);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_nak"), 1);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "selecting");
	CU_ASSERT_EQUAL_FATAL(cap.n, 4);
	read_sent(3, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
	CU_ASSERT_EQUAL(cap.t[3], 1800 * SEC);
	/* OFFER, REQUEST, NAK: once (a round of retries: 1), twice: failed. */
	for (int round = 0; round < 2; round++) {
		read_sent(cap.n - 1, &s);
		xid = s.xid;
		n = server_frame(f, ho->mac, 0, WR_DHCP4_OFFER, xid,
				 IP(10, 0, 0, 71), lease_opts, sizeof(lease_opts));
		input(hs, f, n);
		read_sent(cap.n - 1, &s);
		CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
		n = server_frame(f, ho->mac, 0, WR_DHCP4_NAK, xid, 0, nak_opts,
				 sizeof(nak_opts));
		input(hs, f, n);
		if (round == 0) {
			read_sent(cap.n - 1, &s);
			CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
			CU_ASSERT_NOT_EQUAL(s.xid, xid);
			CU_ASSERT_STRING_EQUAL(state(hs, 0), "selecting");
		}
	}
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "failed");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_nak"), 3);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_failed_nak"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_state_failed"), 1);
	n = cap.n;
	run_to(hs, 5000 * SEC);
	CU_ASSERT_EQUAL(cap.n, n);     /* a failed host stays quiet */
	hosts_free(hs);
}

/* No server: DISCOVERs after 4, 8, 16, 32 s (each +-1 s), failed 64 s
 * (+-1) after the last; with timeout 1s and retries 2: 1, 2 s (+-a
 * quarter) and failed after 4 (+-1). */
static void
test_backoff_exact(void)
{
	static const uint64_t waits[] = { 4, 8, 16, 32, 64 };
	struct wr_hosts *hs = hosts(1, 0, "dhcp: dhcp\n");
	uint64_t at[6], d, fail_at = 0;
	bool varied = false;
	struct sent s;
	unsigned int i;

	wr_hosts_start(hs, 0);
	CU_ASSERT_FALSE(wr_hosts_up(hs));
	/* Step a millisecond at a time around each due time to see when
	 * the host moved. */
	for (clock_ns = 0; clock_ns <= 200 * SEC && fail_at == 0;
	     clock_ns += MS) {
		(void)wr_hosts_tick(hs, clock_ns);
		if (strcmp(state(hs, 0), "failed") == 0)
			fail_at = clock_ns;
	}
	CU_ASSERT_EQUAL_FATAL(cap.n, 5);
	for (i = 0; i < 5; i++) {
		read_sent(i, &s);
		CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
		CU_ASSERT_EQUAL(s.secs, cap.t[i] / SEC);
		at[i] = cap.t[i];
	}
	at[5] = fail_at;
	CU_ASSERT_EQUAL(at[0], 0);
	for (i = 0; i < 5; i++) {
		d = at[i + 1] - at[i];
		CU_ASSERT(d >= (waits[i] - 1) * SEC && d <= (waits[i] + 1) * SEC);
		if (i > 0 && (d - waits[i] * SEC) != (at[1] - waits[0] * SEC))
			varied = true;
	}
	CU_ASSERT_TRUE(varied);         /* randomized, not a fixed offset */
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "failed");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_timeout"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_failed_timeout"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_tx_discover"), 5);
	CU_ASSERT_TRUE(wr_hosts_up(hs)); /* bring-up over: failed counts as done */
	hosts_free(hs);

	hs = hosts(3, 0, "dhcp: {retries: 2, timeout: 1s}\n");
	wr_hosts_start(hs, 0);
	run_to(hs, 5500 * MS);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_tx_discover"), 9);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_state_selecting"), 3);
	run_to(hs, 8 * SEC);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_state_failed"), 3);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_failed_timeout"), 3);
	for (i = 0; i < cap.n; i++) {
		read_sent(i, &s);
		d = cap.t[i];
		/* 0; 0.75..1.25; 2.25..3.75 s */
		CU_ASSERT(d == 0 || (d >= 750 * MS && d <= 1250 * MS) ||
			  (d >= 2250 * MS && d <= 3750 * MS));
	}
	hosts_free(hs);
}

/* A REQUEST never answered: retransmitted with the same xid, then the
 * host starts over with a DISCOVER (RFC 2131 3.1.5). */
static void
test_request_timeout(void)
{
	struct wr_hosts *hs = hosts(1, 0, "dhcp: {retries: 1, timeout: 1s}\n");
	const struct wr_host *ho = wr_hosts_cget(hs, 0);
	uint8_t f[WR_HOST_FRAME_MAX];
	struct sent s;
	uint32_t n;

	wr_hosts_start(hs, 0);
	read_sent(0, &s);
	n = server_frame(f, ho->mac, 0, WR_DHCP4_OFFER, s.xid, IP(10, 0, 0, 80),
			 lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	run_to(hs, 10 * SEC);
	/* DISCOVER, REQUEST, REQUEST again, DISCOVER (round 2): no offer
	 * to it: DISCOVER again, then failed. */
	CU_ASSERT_EQUAL_FATAL(cap.n, 5);
	read_sent(1, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
	n = s.xid;
	read_sent(2, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_REQUEST);
	CU_ASSERT_EQUAL(s.xid, n);
	CU_ASSERT(cap.t[2] >= 750 * MS && cap.t[2] <= 1250 * MS);
	read_sent(3, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
	CU_ASSERT(cap.t[3] - cap.t[2] >= 1500 * MS && cap.t[3] - cap.t[2] <= 2500 * MS);
	read_sent(4, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "failed");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_timeout"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_failed_timeout"), 1);
	hosts_free(hs);
}

/* An ACK for the address another host holds: DECLINE, ten seconds, a
 * new DISCOVER. */
static void
test_decline(void)
{
	struct wr_hosts *hs = hosts(2, 0, "dhcp: dhcp\n");
	const struct wr_host *h1 = wr_hosts_cget(hs, 1);
	uint8_t f[WR_HOST_FRAME_MAX];
	struct sent s;
	uint32_t n;
	unsigned int k;

	wr_hosts_start(hs, 0);
	CU_ASSERT_EQUAL_FATAL(cap.n, 2);
	lease(hs, 0, 90);
	for (k = 0; k < cap.n; k++) {
		read_sent(k, &s);
		if (memcmp(cap.f[k] + 6, h1->mac, 6) == 0)
			break;
	}
	n = server_frame(f, h1->mac, 0, WR_DHCP4_OFFER, s.xid, IP(10, 0, 0, 90),
			 lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	n = server_frame(f, h1->mac, 0, WR_DHCP4_ACK, s.xid, IP(10, 0, 0, 90),
			 lease_opts, sizeof(lease_opts));
	k = cap.n;
	input(hs, f, n);
	CU_ASSERT_EQUAL_FATAL(cap.n, k + 1);
	read_sent(k, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DECLINE);
	CU_ASSERT_EQUAL(s.requested, IP(10, 0, 0, 90));
	CU_ASSERT_EQUAL(s.server_id, SRV_IP);
	CU_ASSERT_EQUAL(s.ciaddr, 0);
	CU_ASSERT_EQUAL(h1->ip4, 0);
	CU_ASSERT_STRING_EQUAL(state(hs, 1), "init");
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_declined"), 1);
	run_to(hs, 9999 * MS);
	CU_ASSERT_EQUAL(cap.n, k + 1);
	run_to(hs, 10 * SEC);
	CU_ASSERT_EQUAL_FATAL(cap.n, k + 2);
	read_sent(k + 1, &s);
	CU_ASSERT_EQUAL(s.type, WR_DHCP4_DISCOVER);
	CU_ASSERT_STRING_EQUAL(state(hs, 1), "selecting");
	hosts_free(hs);
}

/* Malformed replies counted by reason and dropped: the host's state
 * does not move. */
static void
test_malformed_counted(void)
{
	struct wr_hosts *hs = hosts(1, 0, "dhcp: dhcp\n");
	const struct wr_host *ho = wr_hosts_cget(hs, 0);
	static const uint8_t other[6] = { 0x02, 0x99, 0, 0, 0, 1 };
	uint8_t f[WR_HOST_FRAME_MAX];
	struct sent s;
	uint32_t n, l4 = 14 + 20;

	wr_hosts_start(hs, 0);
	read_sent(0, &s);
#define OFFER() server_frame(f, ho->mac, 0, WR_DHCP4_OFFER, s.xid, \
			     IP(10, 0, 0, 95), lease_opts, sizeof(lease_opts))
	n = OFFER();
	f[l4 + 8 + 20] ^= 1;            /* siaddr: the checksum is wrong */
	input(hs, f, n);
	n = OFFER();
	f[l4 + 8 + 236] = 0;            /* cookie */
	wr_put16(f + l4 + 6, 0);
	input(hs, f, n);
	n = OFFER();
	f[l4 + 8] = 1;                  /* op */
	wr_put16(f + l4 + 6, 0);
	input(hs, f, n);
	n = OFFER();
	f[l4 + 8 + 244] = 250;          /* option 54's length past the end */
	wr_put16(f + l4 + 6, 0);
	input(hs, f, n);
	n = server_frame(f, ho->mac, 0, WR_DHCP4_OFFER, s.xid + 1,
			 IP(10, 0, 0, 95), lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	n = server_frame(f, other, 0, WR_DHCP4_OFFER, s.xid,
			 IP(10, 0, 0, 95), lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	/* The right OFFER on another VLAN: not this host's link. */
	n = server_frame(f, ho->mac, 7, WR_DHCP4_OFFER, s.xid,
			 IP(10, 0, 0, 95), lease_opts, sizeof(lease_opts));
	input(hs, f, n);
	/* An OFFER without a server identifier. */
	n = server_frame(f, ho->mac, 0, WR_DHCP4_OFFER, s.xid,
			 IP(10, 0, 0, 95), lease_opts + 6, sizeof(lease_opts) - 6);
	input(hs, f, n);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_bad_udp_csum"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_bad_cookie"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_bad_op"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_bad_option_len"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_bad_xid"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_bad_missing_option"), 1);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_not_ours"), 2);
	CU_ASSERT_EQUAL(ctr(hs, "dhcp4_rx_offer"), 0);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "selecting");
	CU_ASSERT_EQUAL(cap.n, 1);
	/* And the good one still works. */
	n = OFFER();
	input(hs, f, n);
	CU_ASSERT_STRING_EQUAL(state(hs, 0), "requesting");
#undef OFFER
	hosts_free(hs);
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

static CU_TestInfo lease_tests[] = {
	{ "cycle", test_lease_cycle },
	{ "renew_rebind", test_renew_rebind },
	{ "nak", test_nak },
	{ "backoff_exact", test_backoff_exact },
	{ "request_timeout", test_request_timeout },
	{ "decline", test_decline },
	{ "malformed_counted", test_malformed_counted },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "cfg", .pTests = cfg_tests },
	{ .pName = "msg", .pTests = msg_tests },
	{ .pName = "lease", .pTests = lease_tests },
	CU_SUITE_INFO_NULL,
};

/* `test_dhcp4 --pcap FILE`: the frames of the lease cycle, written for
 * Scapy to decode (test/dhcp4/test_dhcp4_scapy.py). */
static int
write_pcap(const char *path)
{
	/* pcap's file header: microseconds, Ethernet (LINKTYPE 1). */
	static const uint32_t hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };
	int rc;

	cap.pcap = fopen(path, "wb");
	if (cap.pcap == NULL)
		return 2;
	fwrite(hdr, sizeof(hdr), 1, cap.pcap);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_basic_set_mode(CU_BRM_SILENT);
	CU_register_suites(suites);
	CU_basic_run_test(CU_get_suite("lease"),
			  CU_get_test(CU_get_suite("lease"), "cycle"));
	rc = CU_get_number_of_failures() != 0;
	CU_cleanup_registry();
	fclose(cap.pcap);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--pcap") == 0)
		return write_pcap(argv[2]);
	return wr_test_main(argc, argv, suites);
}
