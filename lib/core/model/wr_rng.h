/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rng: the counter-based random generator behind RANDOM fields and sizes. */
#ifndef WR_RNG_H
#define WR_RNG_H

/**
 * @file
 * A RANDOM field or size must give packet k the same value on any machine,
 * with any number of TX lcores, whatever packets came before: the value is
 * a pure function of (seed, tag, k).  So the generator is counter-based,
 * not a stateful stream: draw k of a sub-sequence is output k of SplitMix64
 * (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014) started from that sub-sequence's key:
 *
 *     key      = mix64(mix64(seed) ^ mix64(tag + WR_RNG_GAMMA))
 *     draw(k)  = mix64(key + (k + 1) * WR_RNG_GAMMA)
 *
 * where mix64 is SplitMix64's finalizer (Stafford's "variant 13").  A jump
 * by any stride is free: there is no state to advance.  Each field of a
 * stream's stack has its own tag (wr_proto_field.legacy_tag, else one from
 * its place in the stack: wr_frame_layers.c), the frame size uses
 * WR_RNG_TAG_SIZE, so every field draws from its own sub-sequence.
 *
 * Mapping to [from, to] uses Lemire's multiply-shift ("Fast Random Integer
 * Generation in an Interval", ACM TOMACS 2019) WITH its rejection step, so
 * the result is exactly uniform (no modulo bias).  The rejection threshold
 * (2^64 mod range) is computed once at setup (wr_rng_threshold), so the hot
 * path has no division; a rejection happens with probability
 * < range / 2^64 (< 2^-16 for a 48-bit MAC range, < 2^-32 for anything up
 * to 32 bits) and redraws deterministically from mix64 of the rejected draw.
 *
 * These functions are part of the reproducibility contract: changing any
 * constant here changes every RANDOM stream ever written.  test_vary pins
 * their output.
 *
 * Everything is pure and reentrant; any thread may call anything.
 */

#include <stdint.h>

/** SplitMix64's increment: 2^64 / golden ratio, odd. */
#define WR_RNG_GAMMA 0x9e3779b97f4a7c15ull
/** Tag of the frame-size sub-sequence (the first model's field ids were 0..10). */
#define WR_RNG_TAG_SIZE 0x100u

/** SplitMix64's finalizer (Stafford variant 13), a bijection on 64 bits. */
static inline uint64_t
wr_rng_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/** Key of the sub-sequence @p tag of stream seed @p seed. */
static inline uint64_t
wr_rng_key(uint64_t seed, uint64_t tag)
{
	return wr_rng_mix64(wr_rng_mix64(seed) ^
			    wr_rng_mix64(tag + WR_RNG_GAMMA));
}

/**
 * Draw @p index of the sub-sequence @p key: SplitMix64's output number
 * index (0-based) when seeded with key.
 */
static inline uint64_t
wr_rng_at(uint64_t key, uint64_t index)
{
	return wr_rng_mix64(key + (index + 1) * WR_RNG_GAMMA);
}

/**
 * Lemire's rejection threshold for @p range values: 2^64 mod range.
 * @p range >= 1.  Setup only (one division).
 */
static inline uint64_t
wr_rng_threshold(uint64_t range)
{
	return (0 - range) % range;
}

/**
 * Map the draw @p h uniformly onto [0, range).  @p thresh is
 * wr_rng_threshold(range).  @p range >= 1.
 */
static inline uint64_t
wr_rng_below(uint64_t h, uint64_t range, uint64_t thresh)
{
	unsigned __int128 m = (unsigned __int128)h * range;

	/* Lemire: the low half below thresh marks one of the 2^64 mod range
	 * surplus draws; redraw from a fresh, deterministic value. */
	while ((uint64_t)m < thresh) {
		h = wr_rng_mix64(h + WR_RNG_GAMMA);
		m = (unsigned __int128)h * range;
	}
	return (uint64_t)(m >> 64);
}

#endif /* WR_RNG_H */
