/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_csum: the Internet checksum over bytes (RFC 1071); the inline arithmetic is in wr_csum.h. */
#include <string.h>

#include "wr_csum.h"

uint16_t
wr_csum_sum(const void *buf, uint32_t len)
{
	const uint8_t *p = buf;
	uint64_t sum = 0;
	uint32_t w;
	uint8_t tail[4] = { 0, 0, 0, 0 };
	uint16_t s;

	/* Native-order 32-bit words: RFC 1071 section 2(B), the sum is byte
	 * order independent up to a final swap.  2^32 additions of 32-bit
	 * values cannot overflow 64 bits, and len < 2^32. */
	for (; len >= 4; len -= 4, p += 4) {
		memcpy(&w, p, 4);
		sum += w;
	}
	/* The tail padded with zeros after it: an odd last byte becomes the
	 * high (first) byte of a zero-padded word, as RFC 1071 requires. */
	if (len > 0)
		memcpy(tail, p, len);
	memcpy(&w, tail, 4);
	sum += w;
	s = wr_csum_fold(sum);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	s = __builtin_bswap16(s);
#endif
	return s;
}

/* ---- CRC32c (Castagnoli), SCTP's checksum (RFC 9260 appendix A) ---- */

/* The reflected polynomial 0x1EDC6F41. */
#define CRC32C_POLY 0x82f63b78u

static uint32_t crc32c_table[256];

static uint32_t
crc32c_bytes(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len-- > 0)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

/* SSE4.2's crc32 instruction computes exactly this polynomial, eight
 * bytes an instruction (Intel's CRC32 is CRC32c). */
__attribute__((target("sse4.2"))) static uint32_t
crc32c_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc, w;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		c = _mm_crc32_u64(c, w);
	}
	crc = (uint32_t)c;
	/* The rest (len < 8) in at most three steps, each a 3-cycle
	 * dependency, rather than one a byte. */
	if (len & 4) {
		uint32_t v;

		memcpy(&v, p, 4);
		crc = _mm_crc32_u32(crc, v);
		p += 4;
	}
	if (len & 2) {
		uint16_t v;

		memcpy(&v, p, 2);
		crc = _mm_crc32_u16(crc, v);
		p += 2;
	}
	if (len & 1)
		crc = _mm_crc32_u8(crc, *p);
	return crc;
}
#endif

static uint32_t (*crc32c_fn)(uint32_t, const uint8_t *, size_t) = crc32c_bytes;

/* The table, and the instruction where the CPU has it, before main(). */
__attribute__((constructor)) static void
crc32c_init(void)
{
	uint32_t i, k, c;

	for (i = 0; i < 256; i++) {
		for (c = i, k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		crc32c_table[i] = c;
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.2"))
		crc32c_fn = crc32c_sse42;
#endif
}

uint32_t
wr_crc32c(const void *buf, size_t len)
{
	return ~crc32c_fn(~0u, buf, len);
}

uint32_t
wr_crc32c_bytewise(const void *buf, size_t len)
{
	return ~crc32c_bytes(~0u, buf, len);
}

uint32_t
wr_crc32c_update(uint32_t state, const void *buf, size_t len)
{
	return crc32c_fn(state, buf, len);
}

void
wr_crc32c_shift_init(struct wr_crc32c_shift *s, size_t n)
{
	static const uint8_t zeros[256];
	uint32_t col[32], v;
	unsigned int b, i, k;
	size_t left;

	/* The map's 32 columns: each single-bit register over n zero bytes. */
	for (b = 0; b < 32; b++) {
		col[b] = 1u << b;
		for (left = n; left > 0; left -= k) {
			k = left < sizeof(zeros) ? (unsigned int)left : sizeof(zeros);
			col[b] = crc32c_fn(col[b], zeros, k);
		}
	}
	for (i = 0; i < 4; i++)
		for (v = 0; v < 256; v++) {
			uint32_t x = 0;

			for (k = 0; k < 8; k++)
				if (v >> k & 1)
					x ^= col[8 * i + k];
			s->t[i][v] = x;
		}
}
