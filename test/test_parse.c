/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the value parsers (wr_parse). */
#include <errno.h>
#include <stdint.h>

#include "wr_parse.h"
#include "wr_test.h"

static char why[WR_PARSE_WHY_MAX];

/* Every failure must say what was expected. */
#define ASSERT_EINVAL(call)                                     \
	do {                                                    \
		why[0] = '\0';                                  \
		CU_ASSERT_EQUAL((call), -EINVAL);               \
		CU_ASSERT_EQUAL(strncmp(why, "expected", 8), 0); \
	} while (0)

static void
test_mac(void)
{
	static const char *const bad[] = {
		"", "02:00:00:00:00", "02:00:00:00:00:01:02", "02-00-00-00-00-01",
		"2:0:0:0:0:1", "02:00:00:00:00:0g", "02:00:00:00:00:01 ",
		" 02:00:00:00:00:01", "020000000001xxxxx", "02:00:00:00:0001:",
	};
	uint64_t v = 7;
	size_t i;

	CU_ASSERT_EQUAL(wr_parse_mac("02:00:00:00:00:01", &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0x020000000001ull);
	CU_ASSERT_EQUAL(wr_parse_mac("FF:ee:Dd:cc:BB:0a", &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0xffeeddccbb0aull);
	CU_ASSERT_EQUAL(wr_parse_mac("00:00:00:00:00:00", &v, NULL, 0), 0);
	CU_ASSERT_EQUAL(v, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		ASSERT_EINVAL(wr_parse_mac(bad[i], &v, why, sizeof(why)));
		CU_ASSERT_EQUAL(v, 7); /* untouched on error */
	}
	CU_ASSERT_STRING_EQUAL(why, "expected a MAC address such as "
			       "02:00:00:00:00:01");
}

static void
test_ipv4(void)
{
	static const char *const bad[] = {
		"", "1.2.3", "1.2.3.4.5", "256.0.0.1", "1.2.3.256", "1..2.3",
		"010.0.0.1", "1.2.3.4 ", "-1.2.3.4", "1.2.3.a", "1.2.3.4/24",
		"1.2.3.0000", "1234.1.1.1", "a.b.c.d",
	};
	uint32_t v = 7;
	size_t i;

	CU_ASSERT_EQUAL(wr_parse_ipv4("198.18.0.1", &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0xc6120001u);
	CU_ASSERT_EQUAL(wr_parse_ipv4("0.0.0.0", &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_EQUAL(wr_parse_ipv4("255.255.255.255", &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0xffffffffu);
	CU_ASSERT_EQUAL(wr_parse_ipv4("10.0.0.254", &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0x0a0000feu);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		ASSERT_EINVAL(wr_parse_ipv4(bad[i], &v, why, sizeof(why)));
		CU_ASSERT_EQUAL(v, 7);
	}
	ASSERT_EINVAL(wr_parse_ipv4("10.01.0.1", &v, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "leading zeros"));
}

static void
test_u64(void)
{
	static const char *const bad[] = {
		"", " 1", "1 ", "+1", "-1", "1x", "0x", "0xg", "1e3", "1.0",
		"18446744073709551616", "0x10000000000000000", "one",
	};
	uint64_t v = 7;
	size_t i;

	CU_ASSERT_EQUAL(wr_parse_u64("0", 0, 10, &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_EQUAL(wr_parse_u64("255", 0, 255, &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 255);
	CU_ASSERT_EQUAL(wr_parse_u64("0x1F", 0, 255, &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 31);
	/* A leading zero is decimal, not octal. */
	CU_ASSERT_EQUAL(wr_parse_u64("010", 0, 255, &v, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, 10);
	CU_ASSERT_EQUAL(wr_parse_u64("18446744073709551615", 0, UINT64_MAX, &v,
				     why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(v, UINT64_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		ASSERT_EINVAL(wr_parse_u64(bad[i], 0, UINT64_MAX, &v, why,
					   sizeof(why)));
		CU_ASSERT_EQUAL(v, 7);
	}
	CU_ASSERT_STRING_EQUAL(why, "expected an unsigned 64-bit integer");
	ASSERT_EINVAL(wr_parse_u64("256", 0, 255, &v, why, sizeof(why)));
	CU_ASSERT_STRING_EQUAL(why, "expected an integer in 0..255");
	ASSERT_EINVAL(wr_parse_u64("63", 64, 9018, &v, why, sizeof(why)));
	CU_ASSERT_STRING_EQUAL(why, "expected an integer in 64..9018");
	CU_ASSERT_EQUAL(v, 7);
}

static void
test_bool(void)
{
	bool b = false;

	CU_ASSERT_EQUAL(wr_parse_bool("true", &b, why, sizeof(why)), 0);
	CU_ASSERT_TRUE(b);
	CU_ASSERT_EQUAL(wr_parse_bool("False", &b, why, sizeof(why)), 0);
	CU_ASSERT_FALSE(b);
	CU_ASSERT_EQUAL(wr_parse_bool("TRUE", &b, why, sizeof(why)), 0);
	CU_ASSERT_TRUE(b);
	ASSERT_EINVAL(wr_parse_bool("yes", &b, why, sizeof(why)));
	ASSERT_EINVAL(wr_parse_bool("on", &b, why, sizeof(why)));
	ASSERT_EINVAL(wr_parse_bool("1", &b, why, sizeof(why)));
	ASSERT_EINVAL(wr_parse_bool("", &b, why, sizeof(why)));
	ASSERT_EINVAL(wr_parse_bool("tRUE", &b, why, sizeof(why)));
	CU_ASSERT_TRUE(b);
}

struct rate_case {
	const char *text;
	enum wr_rate_unit unit;
	uint64_t value;
};

static void
test_rate_good(void)
{
	static const struct rate_case good[] = {
		{ "max", WR_RATE_MAX, 0 },
		{ "MAX", WR_RATE_MAX, 0 },
		{ "250 kpps", WR_RATE_PPS, 250000000ull },
		{ "1.2 Mpps", WR_RATE_PPS, 1200000000ull },
		{ "1.2Mpps", WR_RATE_PPS, 1200000000ull },
		{ "1.2 mpps", WR_RATE_PPS, 1200000000ull },
		{ "14880952 pps", WR_RATE_PPS, 14880952000ull },
		{ "0.5 pps", WR_RATE_PPS, 500ull },
		{ "0.001 pps", WR_RATE_PPS, 1ull },
		{ "14.880952 Mpps", WR_RATE_PPS, 14880952000ull },
		{ "1.000000000000000000000 Mpps", WR_RATE_PPS, 1000000000ull },
		{ "2 Gpps", WR_RATE_PPS, 2000000000000ull },
		{ "10 Gbps L1", WR_RATE_BPS_L1, 10000000000ull },
		{ "10 gbps l1", WR_RATE_BPS_L1, 10000000000ull },
		{ "800 Mbps L2", WR_RATE_BPS_L2, 800000000ull },
		{ "100 kbps L1", WR_RATE_BPS_L1, 100000ull },
		{ "2.5 Gbps  L2", WR_RATE_BPS_L2, 2500000000ull },
		{ "1 bps L1", WR_RATE_BPS_L1, 1ull },
		{ "0.4 Tbps L1", WR_RATE_BPS_L1, 400000000000ull },
		{ "50%", WR_RATE_PERCENT, 500000ull },
		{ "12.5 %", WR_RATE_PERCENT, 125000ull },
		{ "100%", WR_RATE_PERCENT, 1000000ull },
		{ "0.0001%", WR_RATE_PERCENT, 1ull },
		{ " 1 Mpps ", WR_RATE_PPS, 1000000000ull },
	};
	struct wr_rate_spec r;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		memset(&r, 0xa5, sizeof(r));
		CU_ASSERT_EQUAL_FATAL(wr_parse_rate(good[i].text, &r, why,
						    sizeof(why)), 0);
		CU_ASSERT_EQUAL(r.unit, good[i].unit);
		CU_ASSERT_EQUAL(r.value, good[i].value);
	}
}

static void
test_rate_bad(void)
{
	static const char *const bad[] = {
		"", "0", "10", "0 pps", "0.0 Mpps", "-1 Mpps", "+1 Mpps",
		"1e6 pps", "1.2.3 Mpps", ".5 Mpps", "5. Mpps", "10 Mbit",
		"10 Mpps L1", "10 Gbps L3", "10 Gbps L1 x", "101%", "0%",
		"1.5 bps L1", "0.0001 pps", "0.00001%", "maximum", "1 Mpps/s",
		"99999999999999999999 pps", "20000000000 Gpps", "Mpps",
	};
	struct wr_rate_spec r = { WR_RATE_PPS, 42 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EINVAL(wr_parse_rate(bad[i], &r, why, sizeof(why)));
		CU_ASSERT_EQUAL(r.unit, WR_RATE_PPS);
		CU_ASSERT_EQUAL(r.value, 42);
	}
	/* A bit rate without its layer says why the layer matters. */
	ASSERT_EINVAL(wr_parse_rate("10 Gbps", &r, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "L1 or L2"));
	ASSERT_EINVAL(wr_parse_rate("800 Mbps", &r, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "L1 or L2"));
	ASSERT_EINVAL(wr_parse_rate("0 Mpps", &r, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "positive"));
	ASSERT_EINVAL(wr_parse_rate("1.5 bps L2", &r, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "whole number of bits/s"));
	ASSERT_EINVAL(wr_parse_rate("150%", &r, why, sizeof(why)));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "100%"));
}

static void
test_duration(void)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} good[] = {
		{ "5", 5000000000ull },
		{ "2.5", 2500000000ull },
		{ "5s", 5000000000ull },
		{ "5 s", 5000000000ull },
		{ "500ms", 500000000ull },
		{ "1m", 60000000000ull },
		{ "1.5m", 90000000000ull },
		{ "2h", 7200000000000ull },
		{ "250us", 250000ull },
		{ "7ns", 7ull },
		{ "0", 0ull },
		{ "0.000000001", 1ull },
	};
	static const char *const bad[] = {
		"", "-5", "5x", "5 sec", "1.5ns", "0.0000000001", "s", "5..0",
		"1e3", "99999999999h", "5ss",
	};
	uint64_t ns = 7;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(wr_parse_duration_ns(good[i].text, &ns, why,
							   sizeof(why)), 0);
		CU_ASSERT_EQUAL(ns, good[i].ns);
	}
	ns = 7;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EINVAL(wr_parse_duration_ns(bad[i], &ns, why,
						   sizeof(why)));
		CU_ASSERT_EQUAL(ns, 7);
	}
}

static void
test_hex(void)
{
	static const uint8_t dead[] = { 0xde, 0xad, 0xbe, 0xef };
	static const char *const good[] = {
		"deadbeef", "de ad be ef", "0xdeadbeef", "DEADBEEF", "dead  beef",
		"0XdeAdbeEF",
	};
	static const char *const bad[] = {
		"", "0x", "dea", "de a", "xyz", "de ad ", " dead", "de-ad", "0xde ad x",
		"d e",
	};
	uint8_t buf[8];
	size_t i, len;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		memset(buf, 0, sizeof(buf));
		len = 0;
		CU_ASSERT_EQUAL(wr_parse_hex(good[i], buf, sizeof(buf), &len, why,
					     sizeof(why)), 0);
		CU_ASSERT_EQUAL(len, 4);
		CU_ASSERT_EQUAL(memcmp(buf, dead, 4), 0);
	}
	CU_ASSERT_EQUAL(wr_parse_hex("00", buf, 1, &len, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(len, 1);
	CU_ASSERT_EQUAL(buf[0], 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0x5a, sizeof(buf));
		len = 99;
		ASSERT_EINVAL(wr_parse_hex(bad[i], buf, sizeof(buf), &len, why,
					   sizeof(why)));
		CU_ASSERT_EQUAL(len, 99);
		CU_ASSERT_EQUAL(buf[0], 0x5a);
	}
	ASSERT_EINVAL(wr_parse_hex("dea", buf, sizeof(buf), &len, why,
				   sizeof(why)));
	CU_ASSERT_STRING_EQUAL(why, "expected two hex digits per byte");
	/* Capacity is checked before anything is written. */
	memset(buf, 0x5a, sizeof(buf));
	ASSERT_EINVAL(wr_parse_hex("deadbeef", buf, 3, &len, why, sizeof(why)));
	CU_ASSERT_STRING_EQUAL(why, "expected at most 3 bytes");
	CU_ASSERT_EQUAL(buf[0], 0x5a);
}

static void
test_why_optional(void)
{
	uint64_t v;
	char small[9];

	/* NULL and short buffers are fine: truncated, still terminated. */
	CU_ASSERT_EQUAL(wr_parse_mac("x", &v, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(wr_parse_mac("x", &v, small, sizeof(small)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(small, "expected");
}

static CU_TestInfo parse_tests[] = {
	{ "mac", test_mac },
	{ "ipv4", test_ipv4 },
	{ "u64", test_u64 },
	{ "bool", test_bool },
	{ "rate_good", test_rate_good },
	{ "rate_bad", test_rate_bad },
	{ "duration", test_duration },
	{ "hex", test_hex },
	{ "why_optional", test_why_optional },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "parse", .pTests = parse_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
