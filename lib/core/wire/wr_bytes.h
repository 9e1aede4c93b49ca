/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bytes: big-endian loads and stores of 1 to 16 bytes, no alignment assumed. */
#ifndef WR_BYTES_H
#define WR_BYTES_H

/**
 * @file
 * Every header field on the wire is big-endian (network order) and sits at
 * any byte offset: these are the one set of helpers that read and write
 * them, for the frame builder's hot loop as for the parsers.  The fixed
 * widths compile to a load or store and a byte swap (memcpy of a constant
 * size is not a call); wr_get_be/wr_put_be take any width up to 16 bytes.
 * Pure; any thread.
 */

#include <stdint.h>
#include <string.h>

static inline uint16_t
wr_get16(const uint8_t *p)
{
	uint16_t be;

	memcpy(&be, p, 2);
	return __builtin_bswap16(be);
}

static inline uint32_t
wr_get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | wr_get16(p + 1);
}

static inline uint32_t
wr_get32(const uint8_t *p)
{
	uint32_t be;

	memcpy(&be, p, 4);
	return __builtin_bswap32(be);
}

static inline uint64_t
wr_get64(const uint8_t *p)
{
	uint64_t be;

	memcpy(&be, p, 8);
	return __builtin_bswap64(be);
}

/* The low 16 bits of @p v. */
static inline void
wr_put16(uint8_t *p, uint64_t v)
{
	uint16_t be = __builtin_bswap16((uint16_t)v);

	memcpy(p, &be, 2);
}

/* The low 24 bits of @p v. */
static inline void
wr_put24(uint8_t *p, uint64_t v)
{
	p[0] = (uint8_t)(v >> 16);
	wr_put16(p + 1, v);
}

/* The low 32 bits of @p v. */
static inline void
wr_put32(uint8_t *p, uint64_t v)
{
	uint32_t be = __builtin_bswap32((uint32_t)v);

	memcpy(p, &be, 4);
}

/* The low 48 bits of @p v (a MAC). */
static inline void
wr_put48(uint8_t *p, uint64_t v)
{
	wr_put16(p, v >> 32);
	wr_put32(p + 2, v);
}

static inline void
wr_put64(uint8_t *p, uint64_t v)
{
	uint64_t be = __builtin_bswap64(v);

	memcpy(p, &be, 8);
}

static inline void
wr_put128(uint8_t *p, __uint128_t v)
{
	wr_put64(p, (uint64_t)(v >> 64));
	wr_put64(p + 8, (uint64_t)v);
}

static inline __uint128_t
wr_get128(const uint8_t *p)
{
	return (__uint128_t)wr_get64(p) << 64 | wr_get64(p + 8);
}

/* @p n bytes (up to 16) at @p p as an integer, the first most significant. */
static inline __uint128_t
wr_get_be(const uint8_t *p, unsigned int n)
{
	__uint128_t v = 0;

	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

/* The low @p n bytes (up to 16) of @p v at @p p, most significant first. */
static inline void
wr_put_be(uint8_t *p, __uint128_t v, unsigned int n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

#endif /* WR_BYTES_H */
