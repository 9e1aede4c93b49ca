/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_clock: mapping a NIC's clock (hardware RX timestamps) onto the TSC. */
#ifndef WR_CLOCK_H
#define WR_CLOCK_H

/**
 * @file
 * TX timestamps are TSC readings taken just before a burst goes to the NIC.
 * A port that offers RTE_ETH_RX_OFFLOAD_TIMESTAMP stamps each received frame
 * with its own clock, which runs at its own rate from its own origin.  To
 * subtract the two, the RX stamp is mapped onto the TSC:
 *
 *     tsc = tsc0 + (dev - dev0) * ratio,  ratio = d(tsc) / d(dev)
 *
 * The map is fitted from pairs (tsc, dev) read at the same instant (the
 * TSC read before and after rte_eth_read_clock(), their midpoint): two pairs
 * give the ratio, the newest pair the anchor.  The stats lcore refits it
 * every report from the previous anchor, so the drift between the two
 * oscillators (tens of ppm) never accumulates: the error after t seconds is
 * the ratio's error (sampling error / fit interval) times t.
 *
 * The ratio is fixed point, ratio = mult / 2^32, so a mapping is one
 * 64x64->128 multiply and no division; device clocks from 1 kHz to 10 GHz
 * against TSCs of 1 to 10 GHz fit.
 *
 * Threads: one writer (the stats lcore) calls wr_clock_fit() into a struct
 * it then publishes (wr_clock_pub); RX lcores read with wr_clock_pub_get().
 */

#include <stdint.h>

#define WR_CLOCK_SHIFT 32

/** A map from device clock ticks to TSC ticks. */
struct wr_clock_map {
	uint64_t dev0;  /**< anchor: device clock */
	uint64_t tsc0;  /**< anchor: TSC at the same instant */
	uint64_t mult;  /**< TSC ticks per device tick, times 2^32 */
};

/** One simultaneous reading of both clocks. */
struct wr_clock_pair {
	uint64_t tsc;
	uint64_t dev;
};

/**
 * Fit a map from two pairs, @p a before @p b.  The anchor is @p b.
 * @return 0; -EINVAL when the clocks did not both move forward or the ratio
 *         does not fit (mult would be 0 or overflow 64 bits).
 */
int wr_clock_fit(struct wr_clock_map *m, const struct wr_clock_pair *a,
		 const struct wr_clock_pair *b);

/**
 * TSC time of device time @p dev.  Exact to the fixed point's resolution
 * for devs after and before the anchor (a stamp a little older than the
 * anchor, taken before the refit, maps back in time correctly).
 */
static inline uint64_t
wr_clock_to_tsc(const struct wr_clock_map *m, uint64_t dev)
{
	int64_t d = (int64_t)(dev - m->dev0);
	unsigned __int128 p;

	if (d >= 0) {
		p = (unsigned __int128)(uint64_t)d * m->mult;
		return m->tsc0 + (uint64_t)(p >> WR_CLOCK_SHIFT);
	}
	p = (unsigned __int128)(uint64_t)(-d) * m->mult;
	return m->tsc0 - (uint64_t)(p >> WR_CLOCK_SHIFT);
}

/**
 * A map published by one writer to RX lcores: two slots and a generation
 * counter, as a seqlock.  A reader copies the slot of the current
 * generation and checks the generation did not move meanwhile.
 */
struct wr_clock_pub {
	uint64_t gen;                 /**< even: stable; bumped twice per publish */
	struct wr_clock_map map;
};

/** Publish @p m (writer only). */
static inline void
wr_clock_pub_set(struct wr_clock_pub *p, const struct wr_clock_map *m)
{
	__atomic_store_n(&p->gen, p->gen + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&p->map.dev0, m->dev0, __ATOMIC_RELAXED);
	__atomic_store_n(&p->map.tsc0, m->tsc0, __ATOMIC_RELAXED);
	__atomic_store_n(&p->map.mult, m->mult, __ATOMIC_RELAXED);
	__atomic_store_n(&p->gen, p->gen + 1, __ATOMIC_RELEASE);
}

/**
 * Read the published map into @p m (any thread).
 * @return 0, or -1 while nothing was published yet.
 */
static inline int
wr_clock_pub_get(const struct wr_clock_pub *p, struct wr_clock_map *m)
{
	uint64_t g0, g1;

	do {
		g0 = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE);
		m->dev0 = __atomic_load_n(&p->map.dev0, __ATOMIC_RELAXED);
		m->tsc0 = __atomic_load_n(&p->map.tsc0, __ATOMIC_RELAXED);
		m->mult = __atomic_load_n(&p->map.mult, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		g1 = __atomic_load_n(&p->gen, __ATOMIC_RELAXED);
	} while (g0 != g1 || (g0 & 1));
	return g0 == 0 ? -1 : 0;
}

#endif /* WR_CLOCK_H */
