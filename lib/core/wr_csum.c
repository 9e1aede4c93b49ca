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
