/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the Internet checksum arithmetic (wr_csum_sum, wr_csum.h). */
#include "wr_csum.h"
#include "wr_test.h"
#include "wr_test_frame.h"

static void
test_rfc1071_example(void)
{
	/* RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to ddf2. */
	static const uint8_t b[] = { 0x00, 0x01, 0xf2, 0x03,
				     0xf4, 0xf5, 0xf6, 0xf7 };

	CU_ASSERT_EQUAL(wr_csum_sum(b, sizeof(b)), 0xddf2);
	CU_ASSERT_EQUAL(ref_sum(b, sizeof(b), 0), 0xddf2);
	/* An odd byte is the high byte of a zero-padded word. */
	CU_ASSERT_EQUAL(wr_csum_sum(b, 1), 0x0000);
	CU_ASSERT_EQUAL(wr_csum_sum(b + 2, 1), 0xf200);
	CU_ASSERT_EQUAL(wr_csum_sum(b, 3), 0xf201);
	CU_ASSERT_EQUAL(wr_csum_sum(NULL, 0), 0);
}

static void
test_all_ones(void)
{
	uint8_t b[64];

	/* One's-complement zero comes in two forms: all-zero data sums to
	 * 0, anything else that cancels sums to 0xffff. */
	memset(b, 0xff, sizeof(b));
	CU_ASSERT_EQUAL(wr_csum_sum(b, sizeof(b)), 0xffff);
	memset(b, 0, sizeof(b));
	CU_ASSERT_EQUAL(wr_csum_sum(b, sizeof(b)), 0);
	b[0] = 0xff;
	b[1] = 0xfe;
	b[3] = 0x01;
	CU_ASSERT_EQUAL(wr_csum_sum(b, sizeof(b)), 0xffff);
}

static void
test_every_length(void)
{
	uint8_t buf[200 + 8];
	uint64_t st = 0x1234567;
	unsigned int len, off, round, i;

	/* Every length 0..200, odd included, at every alignment 0..7. */
	for (round = 0; round < 4; round++) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)ref_rand(&st);
		if (round == 1)
			memset(buf, 0xff, sizeof(buf)); /* carry-heavy */
		for (len = 0; len <= 200; len++)
			for (off = 0; off < 8; off++)
				CU_ASSERT_EQUAL_FATAL(wr_csum_sum(buf + off, len),
						      ref_sum(buf + off, len, 0));
	}
}

static void
test_fold(void)
{
	CU_ASSERT_EQUAL(wr_csum_fold(0), 0);
	CU_ASSERT_EQUAL(wr_csum_fold(0xffff), 0xffff);
	CU_ASSERT_EQUAL(wr_csum_fold(0x10000), 1);
	CU_ASSERT_EQUAL(wr_csum_fold(0x1fffe), 0xffff);
	/* 2^64 - 1 == 0 (mod 0xffff) and is nonzero: 0xffff. */
	CU_ASSERT_EQUAL(wr_csum_fold(UINT64_MAX), 0xffff);
	CU_ASSERT_EQUAL(wr_csum_fold(0x123456789abcdef0ull),
			(0x1234 + 0x5678 + 0x9abc + 0xdef0) % 0xffff);
	CU_ASSERT_EQUAL(wr_csum_udp(0xffff), 0xffff); /* ~0xffff = 0 -> 0xffff */
	CU_ASSERT_EQUAL(wr_csum_ipv4(0xffff), 0);
	CU_ASSERT_EQUAL(wr_csum_u64(0x0001000200030004ull) % 0xffff, 10);
}

/* A random IPv4 header with its checksum; words as host values. */
static void
rand_header(uint8_t *h, uint64_t *st)
{
	unsigned int i;

	for (i = 0; i < 20; i++)
		h[i] = (uint8_t)ref_rand(st);
	h[0] = 0x45;
	h[10] = h[11] = 0;
	i = (uint16_t)~ref_sum(h, 20, 0);
	h[10] = (uint8_t)(i >> 8);
	h[11] = (uint8_t)i;
}

static void
test_incremental_equals_full(void)
{
	uint64_t st = 42;
	unsigned int n, w;
	uint8_t h[20];

	/* RFC 1624 eqn. 3 after changing one word equals a full recompute,
	 * and so does "constant sum + varying word" (what wr_frame does). */
	for (n = 0; n < 20000; n++) {
		uint16_t old_c, new_c, full, mold, mnew, konst;

		rand_header(h, &st);
		w = (unsigned int)(ref_rand(&st) % 10);
		if (w == 5)
			w = 4; /* not the checksum word itself */
		old_c = (uint16_t)(h[10] << 8 | h[11]);
		mold = (uint16_t)(h[2 * w] << 8 | h[2 * w + 1]);
		mnew = (uint16_t)ref_rand(&st);
		if (n % 7 == 0)
			mnew = 0;
		if (n % 11 == 0)
			mnew = 0xffff;
		new_c = wr_csum_update16(old_c, mold, mnew);

		h[2 * w] = (uint8_t)(mnew >> 8);
		h[2 * w + 1] = (uint8_t)mnew;
		h[10] = h[11] = 0;
		full = (uint16_t)~ref_sum(h, 20, 0);
		CU_ASSERT_EQUAL_FATAL(new_c, full);

		/* Constant part: the header with the varying word zeroed. */
		h[2 * w] = h[2 * w + 1] = 0;
		konst = wr_csum_sum(h, 20);
		CU_ASSERT_EQUAL_FATAL(wr_csum_ipv4((uint64_t)konst + mnew), full);
	}
}

static void
test_wide_accumulate(void)
{
	uint64_t st = 7, acc = 0;
	uint8_t b[4096];
	unsigned int i;

	/* Adding 32-bit values (IPv4 addresses) as a whole equals adding
	 * their two halves (2^16 == 1 mod 0xffff). */
	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)ref_rand(&st);
	for (i = 0; i < sizeof(b); i += 4)
		acc += (uint64_t)b[i] << 24 | (uint64_t)b[i + 1] << 16 |
		       (uint64_t)b[i + 2] << 8 | b[i + 3];
	CU_ASSERT_EQUAL(wr_csum_fold(acc), ref_sum(b, sizeof(b), 0));
}


static void
test_crc32c(void)
{
	/* The check value of CRC-32C, and RFC 3720 appendix B.4's 32 bytes
	 * of zeros and of 0xff. */
	static const char check[] = "123456789";
	uint8_t b[1600];
	uint64_t st = 5;
	size_t len, off;

	CU_ASSERT_EQUAL(wr_crc32c(check, 9), 0xe3069283u);
	memset(b, 0, 32);
	CU_ASSERT_EQUAL(wr_crc32c(b, 32), 0x8a9136aau);
	memset(b, 0xff, 32);
	CU_ASSERT_EQUAL(wr_crc32c(b, 32), 0x62a8ab43u);
	/* Every length and alignment, the instruction's path and the
	 * table's against the bit-by-bit definition. */
	for (len = 0; len < sizeof(b); len++)
		b[len] = (uint8_t)ref_rand(&st);
	for (len = 0; len < 200; len++)
		for (off = 0; off < 8; off++) {
			CU_ASSERT_EQUAL_FATAL(wr_crc32c(b + off, len), ref_crc32c(b + off, len));
			CU_ASSERT_EQUAL_FATAL(wr_crc32c_bytewise(b + off, len),
					      ref_crc32c(b + off, len));
		}
	CU_ASSERT_EQUAL(wr_crc32c(b, sizeof(b)), ref_crc32c(b, sizeof(b)));
	/* In pieces, and with a constant tail by the shift map: a prefix's
	 * register, shifted over the tail's length, xor the tail's register
	 * from 0, is the whole message's. */
	for (len = 0; len < 1500; len += 37) {
		static struct wr_crc32c_shift sh;
		size_t tail = sizeof(b) - len;
		uint32_t pre = wr_crc32c_update(~0u, b, len);

		CU_ASSERT_EQUAL(~wr_crc32c_update(pre, b + len, tail), ref_crc32c(b, sizeof(b)));
		wr_crc32c_shift_init(&sh, tail);
		CU_ASSERT_EQUAL_FATAL(~(wr_crc32c_shift(&sh, pre) ^
					wr_crc32c_update(0, b + len, tail)),
				      ref_crc32c(b, sizeof(b)));
	}
}

static CU_TestInfo csum_tests[] = {
	{ "crc32c", test_crc32c },
	{ "rfc1071_example", test_rfc1071_example },
	{ "all_ones", test_all_ones },
	{ "every_length", test_every_length },
	{ "fold", test_fold },
	{ "incremental_equals_full", test_incremental_equals_full },
	{ "wide_accumulate", test_wide_accumulate },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "csum", .pTests = csum_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
