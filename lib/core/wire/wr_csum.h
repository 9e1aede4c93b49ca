/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_csum: inline Internet-checksum arithmetic (RFC 1071, RFC 1624) for the frame builder. */
#ifndef WR_CSUM_H
#define WR_CSUM_H

/**
 * @file
 * The Internet checksum is the one's complement of the one's-complement sum
 * of 16-bit big-endian words (RFC 1071).  One's-complement addition is
 * addition modulo 0xffff (2^16 == 1 mod 0xffff), so:
 *
 * - words may be accumulated in a wide integer and folded once at the end
 *   (wr_csum_fold): end-around carries are deferred, not lost;
 * - a 32-bit field (an IPv4 address) may be added as one 32-bit value:
 *   hi * 2^16 + lo == hi + lo (mod 0xffff);
 * - the sum is independent of the order of the words, so the sum of a
 *   header is the sum of its constant words (precomputed once) plus the
 *   sum of its varying words (added per packet).
 *
 * The fold of a nonzero sum is in 1..0xffff and the fold of 0 is 0, which is
 * exactly what RFC 1071's add-with-end-around-carry yields: a sum built from
 * pieces is byte-identical to a sum computed in one pass.
 *
 * Inputs are host integers holding the big-endian value of the word (the
 * word 0x45 0x00 is 0x4500).  All functions are pure; any thread.
 */

#include <stddef.h>
#include <stdint.h>

/** Fold a wide one's-complement accumulator to 16 bits (not complemented). */
static inline uint16_t
wr_csum_fold(uint64_t sum)
{
	/* Four folds bring any 64-bit value to 16 bits: 64 -> 33 -> 18 -> 17 -> 16. */
	sum = (sum & 0xffffffffull) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/** The checksum field for an IPv4 header whose words sum to @p sum. */
/**
 * Fold a sum known to be below 2^48 (three folds: 48 -> 33 -> 18 -> 16
 * bits).  The burst generator's sums are a header's constant part (a few
 * 16-bit words) plus at most a dozen field values of 32 bits or less: far
 * below 2^48, and one fold fewer per checksum than wr_csum_fold.
 */
static inline uint16_t
wr_csum_fold48(uint64_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static inline uint16_t
wr_csum_ipv4(uint64_t sum)
{
	return (uint16_t)~wr_csum_fold(sum);
}

/**
 * The checksum field for a UDP datagram whose words (pseudo-header
 * included) sum to @p sum: a computed 0 is sent as 0xffff, since 0 in the
 * field means "no checksum" (RFC 768).
 */
static inline uint16_t
wr_csum_udp(uint64_t sum)
{
	uint16_t c = (uint16_t)~wr_csum_fold(sum);

	return c == 0 ? 0xffff : c;
}

/** One's-complement sum of a 64-bit value taken as four 16-bit words. */
static inline uint64_t
wr_csum_u64(uint64_t v)
{
	return (v >> 32) + (v & 0xffffffffull);
}

/**
 * RFC 1624 eqn. 3: the checksum field after the 16-bit word @p m_old of
 * the covered data became @p m_new, given the old field @p hc_old:
 * HC' = ~(~HC + ~m + m').  The frame generator does not need it (it
 * re-adds the varying words to a precomputed constant sum, which gives the
 * same result and needs neither the old word nor the old checksum); it is
 * here for callers that edit a finished frame, and the tests show the two
 * agree.
 */
static inline uint16_t
wr_csum_update16(uint16_t hc_old, uint16_t m_old, uint16_t m_new)
{
	uint64_t sum = (uint16_t)~hc_old;

	sum += (uint16_t)~m_old;
	sum += m_new;
	return (uint16_t)~wr_csum_fold(sum);
}

/**
 * Internet checksum (RFC 1071) of @p len bytes, folded, NOT complemented:
 * the one's-complement sum in network byte order semantics, returned as a
 * host integer 0..0xffff.
 */
uint16_t wr_csum_sum(const void *buf, uint32_t len);

/**
 * A sum taken over bytes that start at an odd offset of the checksummed
 * region: in one's-complement arithmetic (mod 2^16 - 1) multiplying by 2^8
 * is the byte swap such a shift makes.  @p sum < 2^56.
 */
static inline uint64_t
wr_csum_odd(uint64_t sum)
{
	return sum << 8;
}

/**
 * CRC32c (Castagnoli, polynomial 0x1EDC6F41, reflected, initial and final
 * value all ones) of @p len bytes: SCTP's checksum (RFC 9260 section 6.8
 * and appendix A, RFC 3309), which SCTP carries in little-endian byte
 * order.  SSE4.2's crc32 instruction where the CPU has it, a table
 * otherwise.  Check value: "123456789" gives 0xe3069283.
 */
uint32_t wr_crc32c(const void *buf, size_t len);

/** The same, always by the table: for tests of the instruction's path. */
uint32_t wr_crc32c_bytewise(const void *buf, size_t len);

/**
 * The CRC32c register after @p len more bytes from register @p state
 * (the initial register is ~0; the CRC is ~ the final register): a
 * message in pieces.
 */
uint32_t wr_crc32c_update(uint32_t state, const void *buf, size_t len);

/**
 * The CRC register is linear in itself over a fixed piece of a message:
 * after bytes S from register x it is shift_|S|(x) ^ (the register after S
 * from 0).  struct wr_crc32c_shift is shift_n as four byte tables, so that
 * a frame whose last n bytes never change costs a CRC over the bytes
 * before them and four lookups.
 */
struct wr_crc32c_shift {
	uint32_t t[4][256];
};

/** @p s becomes the map of @p n zero bytes. */
void wr_crc32c_shift_init(struct wr_crc32c_shift *s, size_t n);

/** The register after n zero bytes from register @p x. */
static inline uint32_t
wr_crc32c_shift(const struct wr_crc32c_shift *s, uint32_t x)
{
	return s->t[0][x & 0xff] ^ s->t[1][(x >> 8) & 0xff] ^
	       s->t[2][(x >> 16) & 0xff] ^ s->t[3][x >> 24];
}

#endif /* WR_CSUM_H */
