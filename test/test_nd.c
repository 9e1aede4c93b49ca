/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_nd: NS built, answered with an NA, NA parsed; ICMPv6 echo replies. */
#include <string.h>

#include "wr_csum.h"
#include "wr_nd.h"
#include "wr_test.h"

static const uint8_t peer_mac[6] = { 0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f };
static const uint8_t our_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))
#define PEER A6(0x20010db800000000ull, 2)
#define OURS A6(0x20010db800000000ull, 1)

/* The ICMPv6 checksum over the message verifies (RFC 4443 2.3). */
static int
icmp6_ok(const uint8_t *ip)
{
	uint16_t plen = (uint16_t)(ip[4] << 8 | ip[5]);
	uint64_t sum = (uint64_t)wr_csum_sum(ip + 8, 32) + plen + 58 +
		       wr_csum_sum(ip + 40, plen);

	return wr_csum_fold(sum) == 0xffff;
}

static void
test_ns_na(void)
{
	static const uint8_t vlan5[4] = { 0x81, 0x00, 0x00, 0x05 };
	uint8_t f[WR_ND_FRAME_MAX + 32];
	struct wr_addrs ours;
	struct wr_nd_pkt na;
	uint32_t len;
	uint16_t n;

	wr_addrs_init(&ours);
	CU_ASSERT_EQUAL(wr_addrs_add(&ours, OURS, OURS), 0);
	/* The peer asks who has OURS; tagged, VLAN 5. */
	n = wr_nd_build_ns(f, peer_mac, PEER, OURS, vlan5, sizeof(vlan5));
	CU_ASSERT_EQUAL(n, 14 + 4 + 40 + 32);
	CU_ASSERT_EQUAL(f[0], 0x33);
	CU_ASSERT_EQUAL(f[2], 0xff);
	CU_ASSERT_EQUAL(f[5], 0x01);             /* 33:33:ff + target's last 24 bits */
	CU_ASSERT_EQUAL(f[18 + 24], 0xff);       /* ff02::1:ff00:1 */
	CU_ASSERT_EQUAL(f[18 + 39], 0x01);
	CU_ASSERT_EQUAL(f[18 + 7], 255);         /* hop limit */
	CU_ASSERT_TRUE(icmp6_ok(f + 18));
	len = n;
	CU_ASSERT_EQUAL(wr_nd_answer(f, &len, sizeof(f), our_mac, &ours, NULL), WR_ND_ANSWER_NS);
	CU_ASSERT_EQUAL(len, 14 + 4 + 40 + 32);
	CU_ASSERT_EQUAL(memcmp(f, peer_mac, 6), 0);
	CU_ASSERT_EQUAL(memcmp(f + 6, our_mac, 6), 0);
	CU_ASSERT_EQUAL(f[14] << 8 | f[15], 5);  /* the tag kept */
	CU_ASSERT_EQUAL(f[18 + 40], WR_ICMP6_NA);
	CU_ASSERT_EQUAL(f[18 + 44], 0x60);       /* solicited, override */
	CU_ASSERT_EQUAL(f[18 + 23], 1);          /* from OURS */
	CU_ASSERT_EQUAL(f[18 + 39], 2);          /* to PEER */
	CU_ASSERT_EQUAL(f[18 + 64], 2);          /* target link-layer option */
	CU_ASSERT_EQUAL(memcmp(f + 18 + 66, our_mac, 6), 0);
	CU_ASSERT_TRUE(icmp6_ok(f + 18));
	/* The same NA, seen by the resolver. */
	CU_ASSERT_EQUAL(wr_nd_answer(f, &len, sizeof(f), peer_mac, &ours, &na), WR_ND_GOT_NA);
	CU_ASSERT_TRUE(na.target == OURS);
	CU_ASSERT_EQUAL(memcmp(na.mac, our_mac, 6), 0);
	/* Not ours, or a bad checksum: ignored. */
	n = wr_nd_build_ns(f, peer_mac, PEER, A6(0x20010db800000000ull, 9), NULL, 0);
	len = n;
	CU_ASSERT_EQUAL(wr_nd_answer(f, &len, sizeof(f), our_mac, &ours, NULL), WR_ND_IGNORE);
	n = wr_nd_build_ns(f, peer_mac, PEER, OURS, NULL, 0);
	f[14 + 40 + 3] ^= 1;
	len = n;
	CU_ASSERT_EQUAL(wr_nd_answer(f, &len, sizeof(f), our_mac, &ours, NULL), WR_ND_IGNORE);
	wr_addrs_free(&ours);
}

static void
test_echo(void)
{
	uint8_t f[128] = { 0 }, *ip = f + 14, *m = ip + 40;
	struct wr_addrs ours;
	uint64_t sum;
	uint32_t len = 14 + 40 + 16;
	int i;

	wr_addrs_init(&ours);
	CU_ASSERT_EQUAL(wr_addrs_add(&ours, OURS, OURS + 10), 0);
	memcpy(f, our_mac, 6);
	memcpy(f + 6, peer_mac, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	ip[0] = 0x60;
	ip[5] = 16;
	ip[6] = 58;
	ip[7] = 64;
	for (i = 0; i < 16; i++) {
		ip[8 + i] = (uint8_t)(PEER >> (8 * (15 - i)));
		ip[24 + i] = (uint8_t)((OURS + 3) >> (8 * (15 - i)));
	}
	m[0] = WR_ICMP6_ECHO_REQUEST;
	m[4] = 0x12;
	m[7] = 7;
	memset(m + 8, 0xab, 8);
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + 16 + 58 + wr_csum_sum(m, 16);
	m[2] = (uint8_t)(~wr_csum_fold(sum) >> 8);
	m[3] = (uint8_t)~wr_csum_fold(sum);
	CU_ASSERT_TRUE(icmp6_ok(ip));
	CU_ASSERT_EQUAL(wr_nd_answer(f, &len, sizeof(f), our_mac, &ours, NULL), WR_ND_ANSWER_ECHO);
	CU_ASSERT_EQUAL(m[0], WR_ICMP6_ECHO_REPLY);
	CU_ASSERT_EQUAL(memcmp(f, peer_mac, 6), 0);
	CU_ASSERT_EQUAL(ip[23], 4);              /* from OURS + 3 */
	CU_ASSERT_EQUAL(ip[39], 2);
	CU_ASSERT_EQUAL(m[7], 7);
	CU_ASSERT_TRUE(icmp6_ok(ip));
	/* A reply is no request: ignored. */
	CU_ASSERT_EQUAL(wr_nd_answer(f, &len, sizeof(f), our_mac, &ours, NULL), WR_ND_IGNORE);
	wr_addrs_free(&ours);
}

static CU_TestInfo nd_tests[] = {
	{ "ns_na", test_ns_na },
	{ "echo", test_echo },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "nd", .pTests = nd_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
