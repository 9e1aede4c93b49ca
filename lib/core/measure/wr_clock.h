/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_clock: the clocks' maths without EAL: the TSC's calibration from samples (wr_clock_eal.h takes them), and a NIC's clock (hardware RX timestamps) mapped onto the TSC. */
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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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

/*
 * The TSC's own frequency.
 *
 * DPDK 22.11 measures the TSC for 100 ms at EAL start and rounds the figure
 * to 10 MHz (rte_get_tsc_hz()): 2600 MHz for a TSC the kernel measured at
 * 2596.138 MHz, 0.149 % off.  Every paced rate, duration and latency
 * computed with it would be that much wrong, and no figure computed with
 * the same clock could show it.  So wirerate measures the TSC against a
 * reference clock read in nanoseconds (CLOCK_MONOTONIC_RAW: lib/dp/wr_clock_eal.h
 * says why) and uses that figure everywhere.
 *
 * A sample is one reading of the reference taken between two TSC reads;
 * the reading happened at some instant inside that bracket, so its
 * midpoint stands for it, within half the bracket's width.  Of a few
 * reads the narrowest is kept (a read the kernel interrupted is wide, and
 * its width says so).  Two samples a and b give the frequency
 *
 *     hz = (b.tsc - a.tsc) * 1e9 / (b.ns - a.ns)
 *
 * and a bound on its error relative to the reference: each sample's TSC is
 * off by at most half its width, and the reference's readings are truncated
 * to its resolution res:
 *
 *     |err| / hz <= (a.width + b.width) / 2 / (b.tsc - a.tsc)
 *                   + res / (b.ns - a.ns)
 *
 * Brackets of ~35 ns (a vDSO clock_gettime on this VM) over the 150 ms
 * that EAL takes to start give 0.25 ppm; refining from the same first
 * sample at every report shrinks it as 1/t (0.004 ppm after 10 s).
 *
 * All of it is arithmetic on readings passed in: a fake clock tests it.
 */

/** One reading of the reference clock between two TSC reads. */
struct wr_tsc_sample {
	uint64_t tsc;    /**< the midpoint of the two TSC reads */
	uint64_t ns;     /**< the reference clock's reading, ns */
	uint64_t width;  /**< TSC ticks between the two reads */
};

/** No sample yet: any real one is narrower. */
#define WR_TSC_SAMPLE_NONE ((struct wr_tsc_sample){ 0, 0, UINT64_MAX })

/**
 * Keep in @p best the narrower of @p best and the reading @p ns taken
 * between TSC reads @p before and @p after (a TSC that went backwards
 * gives no sample).
 */
static inline void
wr_tsc_sample_keep(struct wr_tsc_sample *best, uint64_t before, uint64_t ns,
		   uint64_t after)
{
	if (after < before || after - before >= best->width)
		return;
	best->width = after - before;
	best->tsc = before + best->width / 2;
	best->ns = ns;
}

/** Where a calibrated TSC frequency came from: X(enum suffix, name). */
#define WR_TSC_SOURCES(X)                          \
	X(EAL, "eal")                              \
	X(MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW")

enum wr_tsc_source {
#define WR_X(e, name) WR_TSC_SOURCE_##e,
	WR_TSC_SOURCES(WR_X)
#undef WR_X
	WR_TSC_SOURCE__COUNT
};

/** The name of a source, as results print it; NULL if out of range. */
const char *wr_tsc_source_name(enum wr_tsc_source s);

/** A calibration of the TSC. */
struct wr_tsc_cal {
	uint64_t hz;          /**< TSC ticks per second of the reference */
	uint64_t err_ppb;     /**< bound on |hz - true| / hz, parts per 10^9 */
	uint64_t span_ns;     /**< the reference time between the two samples */
	uint64_t eal_hz;      /**< DPDK's own figure (rte_get_tsc_hz()) */
	enum wr_tsc_source source;
};

/** A fit more than this far from DPDK's figure (which is within 5 MHz,
 * its rounding) is not believed: 1 % is 5 MHz for a 500 MHz TSC. */
#define WR_TSC_SANE_PPM 10000

/**
 * Fit the frequency from samples @p a and @p b (b later), each read with
 * reference resolution @p res_ns.  @p eal_hz is DPDK's figure: the fit
 * must agree with it to WR_TSC_SANE_PPM.
 * @return 0 with @p c filled (source MONOTONIC_RAW); -EINVAL (a sample
 *         missing, b not after a in both clocks, a bracket as long as the
 *         interval), -ERANGE (far from @p eal_hz: a TSC that is not
 *         constant, a virtual machine moved between the samples).
 */
int wr_tsc_cal_fit(struct wr_tsc_cal *c, const struct wr_tsc_sample *a,
		   const struct wr_tsc_sample *b, uint64_t res_ns,
		   uint64_t eal_hz);

/**
 * DPDK's figure alone, for when no fit is believed: its error bound is its
 * rounding to 10 MHz, 5 MHz.
 */
void wr_tsc_cal_eal(struct wr_tsc_cal *c, uint64_t eal_hz);

/** True when @p cand should replace @p cur: a measured figure with a bound
 * no wider (the newer of two equals), or the first one after DPDK's. */
bool wr_tsc_cal_better(const struct wr_tsc_cal *cur,
		       const struct wr_tsc_cal *cand);

/**
 * Move a TSC instant @p t that was set as @p anchor plus some nanoseconds
 * at @p old_hz to where the same nanoseconds fall at @p new_hz.  Instants
 * before the anchor stay.  UINT64_MAX (never) stays.
 */
uint64_t wr_tsc_rescale(uint64_t t, uint64_t anchor, uint64_t old_hz,
			uint64_t new_hz);

/**
 * Write @p c as one JSON object: {"hz": .., "source": "..",
 * "error_ppm": .., "span_s": .., "eal_hz": ..}, the results' "tsc" field.
 */
void wr_tsc_cal_json(FILE *out, const struct wr_tsc_cal *c);

#endif /* WR_CLOCK_H */
