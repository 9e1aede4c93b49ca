/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_arp: address sets, ARP request/reply and ICMP echo reply against golden bytes. */
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_csum.h"
#include "wr_frame.h"
#include "wr_test.h"

static const uint8_t our_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t peer_mac[6] = { 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f };
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | \
			(uint32_t)(c) << 8 | (uint32_t)(d))

/* who-has 10.77.0.1 tell 10.77.0.2, from 02:00:00:00:00:01 (RFC 826
 * layout, padded to 60 bytes).  tshark decodes these golden frames as
 * "Who has 10.77.0.1? Tell 10.77.0.2", "Who has 10.77.0.2? Tell
 * 10.77.0.1" and "10.77.0.2 is at 02:00:00:00:00:01". */
static const uint8_t golden_request[60] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x4d, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x4d, 0x00, 0x01,
};

/* The peer 0a:1b:2c:3d:4e:5f (10.77.0.1) asks who has 10.77.0.2; our
 * answer: 10.77.0.2 is at 02:00:00:00:00:01, sent to the asker. */
static const uint8_t golden_peer_request[60] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,
	0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x0a, 0x4d, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x4d, 0x00, 0x02,
};
static const uint8_t golden_reply[60] = {
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x4d, 0x00, 0x02,
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x0a, 0x4d, 0x00, 0x01,
};

/* ICMP echo request 10.77.0.1 -> 10.77.0.2, id 0x1234, seq 7, 24 data
 * bytes, and the reply; both checksums computed independently (Python's
 * struct, RFC 1071 by the book) and found good by tshark. */
static const uint8_t golden_echo[66] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x34, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x01,
	0x09, 0xe7, 0x0a, 0x4d, 0x00, 0x01, 0x0a, 0x4d, 0x00, 0x02, 0x08, 0x00,
	0xa0, 0x73, 0x12, 0x34, 0x00, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
	0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21,
	0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
};
static const uint8_t golden_echo_reply[66] = {
	0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x34, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x01,
	0x09, 0xe7, 0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0x00, 0x00,
	0xa8, 0x73, 0x12, 0x34, 0x00, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
	0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21,
	0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
};

static void
one_addr(struct wr_addrs *a, uint32_t ip)
{
	wr_addrs_init(a);
	CU_ASSERT_EQUAL_FATAL(wr_addrs_add(a, ip, ip), 0);
}

static void
test_addrs(void)
{
	struct wr_addrs a;
	struct wr_field_spec fs;
	__uint128_t list[3] = { IP(10, 0, 0, 9), IP(10, 0, 0, 200), IP(10, 0, 0, 5) };

	wr_addrs_init(&a);
	CU_ASSERT_FALSE(wr_addrs_has(&a, 0));
	CU_ASSERT_EQUAL(wr_addrs_add(&a, 5, 4), -EINVAL);
	CU_ASSERT_EQUAL(wr_addrs_add(&a, 10, 20), 0);
	CU_ASSERT_EQUAL(wr_addrs_add(&a, 30, 40), 0);
	CU_ASSERT_EQUAL(a.n, 2);
	/* Adjacent merges, overlapping merges across two ranges. */
	CU_ASSERT_EQUAL(wr_addrs_add(&a, 21, 21), 0);
	CU_ASSERT_EQUAL(a.n, 2);
	CU_ASSERT_EQUAL(wr_addrs_add(&a, 15, 35), 0);
	CU_ASSERT_EQUAL(a.n, 1);
	CU_ASSERT_EQUAL(a.r[0].lo, 10);
	CU_ASSERT_EQUAL(a.r[0].hi, 40);
	CU_ASSERT_EQUAL(wr_addrs_add(&a, 0, 0), 0);
	CU_ASSERT_EQUAL(wr_addrs_add(&a, UINT32_MAX, UINT32_MAX), 0);
	CU_ASSERT_EQUAL(a.n, 3);
	CU_ASSERT_TRUE(wr_addrs_has(&a, 0));
	CU_ASSERT_FALSE(wr_addrs_has(&a, 1));
	CU_ASSERT_FALSE(wr_addrs_has(&a, 9));
	CU_ASSERT_TRUE(wr_addrs_has(&a, 10));
	CU_ASSERT_TRUE(wr_addrs_has(&a, 40));
	CU_ASSERT_FALSE(wr_addrs_has(&a, 41));
	CU_ASSERT_TRUE(wr_addrs_has(&a, UINT32_MAX));
	wr_addrs_free(&a);

	/* From stream fields: a DEC range and a list. */
	memset(&fs, 0, sizeof(fs));
	fs.mode = WR_VARY_DEC;
	fs.from = IP(10, 0, 1, 20);
	fs.to = IP(10, 0, 1, 10);
	CU_ASSERT_EQUAL(wr_addrs_add_field(&a, &fs), 0);
	fs.mode = WR_VARY_LIST;
	fs.list = list;
	fs.list_len = 3;
	CU_ASSERT_EQUAL(wr_addrs_add_field(&a, &fs), 0);
	CU_ASSERT_TRUE(wr_addrs_has(&a, IP(10, 0, 1, 10)));
	CU_ASSERT_TRUE(wr_addrs_has(&a, IP(10, 0, 1, 15)));
	CU_ASSERT_FALSE(wr_addrs_has(&a, IP(10, 0, 1, 21)));
	CU_ASSERT_TRUE(wr_addrs_has(&a, IP(10, 0, 0, 200)));
	CU_ASSERT_FALSE(wr_addrs_has(&a, IP(10, 0, 0, 6)));
	wr_addrs_free(&a);
}

static void
test_request_golden(void)
{
	static const uint8_t zero[6];
	uint8_t buf[WR_ARP_FRAME_MAX];
	struct wr_arp_pkt p;
	uint16_t len;

	memset(buf, 0xaa, sizeof(buf));
	len = wr_arp_build(buf, WR_ARP_OP_REQUEST, wr_eth_broadcast, our_mac,
			   IP(10, 77, 0, 2), zero, IP(10, 77, 0, 1), NULL, 0);
	CU_ASSERT_EQUAL(len, 60);
	CU_ASSERT_EQUAL(memcmp(buf, golden_request, 60), 0);
	CU_ASSERT_EQUAL(wr_arp_parse(buf, len, &p), 0);
	CU_ASSERT_EQUAL(p.op, WR_ARP_OP_REQUEST);
	CU_ASSERT_EQUAL(p.spa, IP(10, 77, 0, 2));
	CU_ASSERT_EQUAL(p.tpa, IP(10, 77, 0, 1));
	CU_ASSERT_EQUAL(memcmp(p.sha, our_mac, 6), 0);
	/* Truncated, or not IPv4 over Ethernet: not ARP for us. */
	CU_ASSERT_EQUAL(wr_arp_parse(buf, 41, &p), -EINVAL);
	buf[19] = 16; /* plen */
	CU_ASSERT_EQUAL(wr_arp_parse(buf, len, &p), -EINVAL);
}

/* Behind two tags (802.1ad S-tag, then 802.1Q): a question carries them
 * and is 4 bytes longer a tag; an answer keeps them, in place. */
static void
test_tags(void)
{
	static const uint8_t zero[6];
	static const uint8_t qinq[8] = { 0x88, 0xa8, 0x00, 0x0a, 0x81, 0x00, 0xa0, 0x64 };
	uint8_t buf[WR_ARP_FRAME_MAX];
	struct wr_addrs a;
	struct wr_arp_pkt p;
	uint16_t len;
	uint32_t n;

	len = wr_arp_build(buf, WR_ARP_OP_REQUEST, wr_eth_broadcast, peer_mac,
			   IP(10, 77, 0, 1), zero, IP(10, 77, 0, 2), qinq,
			   sizeof(qinq));
	CU_ASSERT_EQUAL(len, 68);
	CU_ASSERT_EQUAL(memcmp(buf + 12, qinq, 8), 0);
	CU_ASSERT_EQUAL(memcmp(buf + 20, golden_peer_request + 12, 60 - 12 - 8), 0);
	CU_ASSERT_EQUAL(wr_arp_parse(buf, len, &p), 0);
	CU_ASSERT_EQUAL(p.tpa, IP(10, 77, 0, 2));
	one_addr(&a, IP(10, 77, 0, 2));
	n = len;
	/* No room for the answer: none written. */
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &n, 60, our_mac, &a, NULL), WR_ARP_IGNORE);
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &n, sizeof(buf), our_mac, &a, NULL),
			WR_ARP_ANSWER_ARP);
	CU_ASSERT_EQUAL(n, 68);
	CU_ASSERT_EQUAL(memcmp(buf + 12, qinq, 8), 0);
	CU_ASSERT_EQUAL(memcmp(buf, golden_reply, 12), 0);
	CU_ASSERT_EQUAL(memcmp(buf + 20, golden_reply + 12, 60 - 12 - 8), 0);
	wr_addrs_free(&a);
}

static void
test_answer_arp(void)
{
	struct wr_addrs a;
	struct wr_arp_pkt p;
	uint8_t buf[WR_ARP_FRAME_MAX];
	uint32_t len = 60;

	one_addr(&a, IP(10, 77, 0, 2));
	memcpy(buf, golden_peer_request, 60);
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &len, sizeof(buf), our_mac, &a, &p),
			WR_ARP_ANSWER_ARP);
	CU_ASSERT_EQUAL(len, 60);
	CU_ASSERT_EQUAL(memcmp(buf, golden_reply, 60), 0);
	/* Our own reply, seen by a resolver: a reply, nothing changed. */
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &len, sizeof(buf), our_mac, &a, &p),
			WR_ARP_GOT_REPLY);
	CU_ASSERT_EQUAL(p.spa, IP(10, 77, 0, 2));
	CU_ASSERT_EQUAL(memcmp(p.sha, our_mac, 6), 0);
	CU_ASSERT_EQUAL(memcmp(buf, golden_reply, 60), 0);
	/* A request for an address we do not have: left alone. */
	memcpy(buf, golden_peer_request, 60);
	buf[41] = 3;
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &len, sizeof(buf), our_mac, &a, &p),
			WR_ARP_IGNORE);
	CU_ASSERT_EQUAL(buf[21], WR_ARP_OP_REQUEST);
	wr_addrs_free(&a);
}

static void
test_answer_icmp(void)
{
	struct wr_addrs a;
	uint8_t buf[128];
	uint32_t len = sizeof(golden_echo);

	one_addr(&a, IP(10, 77, 0, 2));
	memcpy(buf, golden_echo, sizeof(golden_echo));
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &len, sizeof(buf), our_mac, &a, NULL),
			WR_ARP_ANSWER_ICMP);
	CU_ASSERT_EQUAL(len, sizeof(golden_echo));
	CU_ASSERT_EQUAL(memcmp(buf, golden_echo_reply, sizeof(golden_echo)), 0);
	/* The reply is not itself answered. */
	CU_ASSERT_EQUAL(wr_arp_answer(buf, &len, sizeof(buf), our_mac, &a, NULL),
			WR_ARP_IGNORE);
	wr_addrs_free(&a);
}

static void
test_icmp_ttl_and_checks(void)
{
	struct wr_addrs a;
	uint8_t buf[128];
	uint32_t len = sizeof(golden_echo);

	one_addr(&a, IP(10, 77, 0, 2));
	/* TTL 5 in the request: the reply has 64 and a recomputed IPv4
	 * checksum (the header sums to 0xffff again). */
	memcpy(buf, golden_echo, sizeof(golden_echo));
	buf[22] = 5;
	buf[24] = 0;
	buf[25] = 0;
	{
		uint16_t c = (uint16_t)~wr_csum_sum(buf + 14, 20);

		buf[24] = (uint8_t)(c >> 8);
		buf[25] = (uint8_t)c;
	}
	CU_ASSERT_TRUE(wr_icmp_echo_reply(buf, len, our_mac, &a));
	CU_ASSERT_EQUAL(buf[22], 64);
	CU_ASSERT_EQUAL(wr_csum_sum(buf + 14, 20), 0xffff);
	CU_ASSERT_EQUAL(memcmp(buf, golden_echo_reply, sizeof(golden_echo)), 0);
	/* ICMP checksum over header and data sums to 0xffff. */
	CU_ASSERT_EQUAL(wr_csum_sum(buf + 34, 32), 0xffff);

	/* A bad IPv4 checksum, a fragment, another address, a frame cut
	 * short: no answer, nothing written. */
	memcpy(buf, golden_echo, sizeof(golden_echo));
	buf[25] ^= 1;
	CU_ASSERT_FALSE(wr_icmp_echo_reply(buf, len, our_mac, &a));
	CU_ASSERT_EQUAL(memcmp(buf, golden_echo, 24), 0);
	memcpy(buf, golden_echo, sizeof(golden_echo));
	buf[20] |= 0x20; /* MF */
	CU_ASSERT_FALSE(wr_icmp_echo_reply(buf, len, our_mac, &a));
	memcpy(buf, golden_echo, sizeof(golden_echo));
	CU_ASSERT_FALSE(wr_icmp_echo_reply(buf, len - 1, our_mac, &a));
	wr_addrs_free(&a);
	one_addr(&a, IP(10, 77, 0, 3));
	CU_ASSERT_FALSE(wr_icmp_echo_reply(buf, len, our_mac, &a));
	wr_addrs_free(&a);
}

static void
test_mac_bytes(void)
{
	uint8_t b[6];

	wr_mac_to_bytes(0x0a1b2c3d4e5full, b);
	CU_ASSERT_EQUAL(memcmp(b, peer_mac, 6), 0);
	CU_ASSERT_EQUAL(wr_mac_from_bytes(peer_mac), 0x0a1b2c3d4e5full);
}

static CU_TestInfo arp_tests[] = {
	{ "addrs", test_addrs },
	{ "request_golden", test_request_golden },
	{ "tags", test_tags },
	{ "answer_arp", test_answer_arp },
	{ "answer_icmp", test_answer_icmp },
	{ "icmp_ttl_and_checks", test_icmp_ttl_and_checks },
	{ "mac_bytes", test_mac_bytes },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "arp", .pTests = arp_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
