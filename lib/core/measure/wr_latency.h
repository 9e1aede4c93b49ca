/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_latency: log-linear latency histogram, RFC 3550 jitter and TSC-to-ns conversion. */
#ifndef WR_LATENCY_H
#define WR_LATENCY_H

/**
 * @file
 * Every echoed frame of a `latency: true` stream is measured, at several
 * Mpps per RX lcore, so recording is a handful of integer instructions: no
 * division, no floating-point arithmetic (one conversion to a double finds
 * the bucket), no allocation, no loop.
 *
 * Histogram (HDR-histogram style).  Values are nanoseconds.  Values below
 * 2 * WR_LATENCY_SUB (256) have one bucket each.  Above that, each octave
 * [2^e, 2^(e+1)) is split into WR_LATENCY_SUB (128) equal buckets of width
 * 2^(e-7), so a bucket is at most 1/128 (0.78 %) of any value in it.  The
 * bucket index is (k << 7) + (v >> k) with k = max(0, msb(v) - 7), read
 * from the bits of v converted to a double.  Values from
 * WR_LATENCY_RANGE_NS (2^37 ns, 137 s: the 60 s required with margin)
 * upward are counted in one overflow bucket, the last one; min, max and
 * the mean still use their true values.
 *
 * Percentiles use the nearest-rank definition: the p-th percentile of n
 * values is the value of rank ceil(p / 100 * n) (1-based, at least 1) in the
 * sorted values, so it is always a recorded value; p = 0 gives the minimum,
 * p = 100 the maximum.  p is taken to a resolution of 1e-4 percent (99.9999
 * is distinct from 99.9998), so that ranks are computed in exact integer
 * arithmetic.  The histogram knows only the bucket of that value and
 * reports the middle of the bucket, limited to [min, max].  Bound: for a
 * value below WR_LATENCY_RANGE_NS, |reported - true| <= true / 256 (0.39 %;
 * a bucket of width w = 2^k starts at >= 128 w, and the middle is within
 * w / 2 of any point of it); values below 256 ns are exact.  A percentile
 * that falls in the overflow bucket reports the maximum.
 *
 * The mean is exact: the sum is kept in 128 bits (two words), so even 2^64
 * values of 2^64 ns cannot overflow it; it is rounded to the nearest ns.
 *
 * Threads: one writer per histogram (the RX lcore that owns the stream)
 * calls wr_latency_record().  Another thread (the stats lcore) takes a
 * snapshot by wr_latency_init() on its own copy then wr_latency_merge() from
 * the live one; every word is read with an atomic load, so no value is torn,
 * and the writer publishes min, max and the sum before the bucket count, so
 * in a snapshot every counted value lies within [min, max] and count equals
 * the sum of the buckets.  Frames recorded while a snapshot is being taken
 * may be counted in the sum but not in the buckets; and if a carry between
 * the two sum words happens during the snapshot (once per 2^64 ns of summed
 * latency, i.e. never in practice) the snapshot's mean is wrong.  A
 * histogram read after its writer stopped is exact.  All other functions
 * are for the owner of the histogram.
 *
 * Jitter: RFC 3550 section 6.4.1 interarrival jitter.  For consecutive
 * frames i-1, i of one stream in arrival order, with transit time
 * T = rx_time - tx_time, D = T(i) - T(i-1) and J += (|D| - J) / 16.  It is
 * kept as 16 * J in integers exactly as RFC 3550 appendix A.8 does, so the
 * update is a subtraction and a shift.  |D| is limited to
 * WR_LATENCY_RANGE_NS, which bounds 16 * J below 2^42.
 *
 * TSC to ns: ns = (cycles * mult) >> shift, rounded to nearest, with a
 * 64x64->128 multiply; mult and shift are precomputed from the TSC
 * frequency so that mult is in [2^63, 2^64), whose relative rounding error
 * is below 2^-64.  The result x' of a true x = cycles * 1e9 / hz satisfies
 * |x' - x| <= 0.5 + x * 2^-64 ns (the second term is 3e-9 ns at 60 s).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/** log2 of the buckets per octave: 2^-7 = 0.78 % relative bucket width, <= 1 %. */
#define WR_LATENCY_SUB_LOG2 7
#define WR_LATENCY_SUB (1u << WR_LATENCY_SUB_LOG2)
/** Values from 2^37 ns (137 s) upward share the overflow bucket. */
#define WR_LATENCY_RANGE_LOG2 37
#define WR_LATENCY_RANGE_NS (1ull << WR_LATENCY_RANGE_LOG2)
/**
 * Buckets: 2 * SUB exact ones below 256, then SUB per octave for octaves
 * 2^8 .. 2^36, then the overflow bucket: (37 - 7 + 1) * 128 + 1 = 3969.
 */
#define WR_LATENCY_BUCKETS \
	((WR_LATENCY_RANGE_LOG2 - WR_LATENCY_SUB_LOG2 + 1) * WR_LATENCY_SUB + 1)
/** Index of the overflow bucket. */
#define WR_LATENCY_OVERFLOW (WR_LATENCY_BUCKETS - 1)

/** One histogram; written by one thread (see the @file block). */
struct wr_latency {
	uint64_t n;      /**< values recorded */
	uint64_t min;    /**< UINT64_MAX while n == 0 */
	uint64_t max;    /**< 0 while n == 0 */
	uint64_t sum_lo; /**< low word of the 128-bit sum */
	uint64_t sum_hi; /**< high word of the 128-bit sum */
	uint64_t counts[WR_LATENCY_BUCKETS];
} __attribute__((aligned(64)));

/** What the report prints for one stream; all zero when nothing was recorded. */
struct wr_latency_summary {
	uint64_t n;
	uint64_t min;
	uint64_t avg;
	uint64_t max;
	uint64_t p50;
	uint64_t p90;
	uint64_t p99;
	uint64_t p999;
	uint64_t p9999;
	double jitter_ns;
};

/**
 * The two published spellings of a latency summary in results files: in a
 * "latency_ns" object of run, rtt and the stats lines ("n", "min", ...,
 * "p9999"), and in rfc2544's latency trials ("frames", "min_ns", ...,
 * "p99_99_ns").  Names only: both write every statistic.
 */
enum wr_latency_json {
	WR_LAT_JSON_PLAIN,
	WR_LAT_JSON_NS,
};

/**
 * The members of a summary, `"n": 5, "min": 1, ...` without braces (the
 * caller adds what its schema has beside them, jitter included): the one
 * writer of a latency summary.
 */
void wr_latency_json_write(FILE *out, const struct wr_latency_summary *l,
			   enum wr_latency_json names);

/** RFC 3550 interarrival jitter state of one stream; one writer. */
struct wr_latency_jitter {
	uint64_t prev; /**< transit time of the previous frame */
	uint64_t j16;  /**< 16 * J, in ns */
	uint64_t n;    /**< transit times seen */
};

/** TSC-to-ns conversion factors; read-only after wr_latency_tsc_init(). */
struct wr_latency_tsc {
	uint64_t hz;
	uint64_t mult;
	unsigned int shift;
};

/* Single-writer store that a concurrent reader may load without tearing. */
static inline void
wr_latency_store_(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/**
 * Bucket index of @p ns (0 .. WR_LATENCY_OVERFLOW).  Monotonic in @p ns.
 */
static inline unsigned int
wr_latency_bucket(uint64_t ns)
{
	uint64_t v = ns < WR_LATENCY_RANGE_NS ? ns : WR_LATENCY_RANGE_NS;
	/* v as a double (exact: v <= 2^37 < 2^53) holds msb(v) + 1023 in
	 * its exponent and the 7 bits after v's leading one at the top of
	 * its mantissa: bits >> 45 is (msb(v) + 1023) * 128 + those bits,
	 * and for v >= 128 the bucket is (msb(v) - 6) * 128 + those bits,
	 * which is (k << 7) + (v >> k) with k = msb(v) - 7.  No bit scan:
	 * BSR takes 3 to 4 cycles on the AMD Zen cores, and LZCNT is not in
	 * the baseline DPDK's packages are built for (measured, perf on
	 * wirerate receiving: a tenth of the latency loop's cycles on the
	 * instruction after the BSR).  The clamp makes 2^37 and above land
	 * on (31 - 1) * 128 + 128 = the overflow bucket. */
	double d = (double)(int64_t)v;
	uint64_t bits;

	memcpy(&bits, &d, sizeof(bits));
	return v < WR_LATENCY_SUB ? (unsigned int)v :
		(unsigned int)(bits >> 45) - (1023 + 6) * WR_LATENCY_SUB;
}

/**
 * Record one value.  Writer thread only.
 * @param h   histogram
 * @param ns  latency in nanoseconds (any value; see the overflow bucket)
 */
static inline void
wr_latency_record(struct wr_latency *h, uint64_t ns)
{
	unsigned int i = wr_latency_bucket(ns);
	uint64_t lo = h->sum_lo + ns;

	if (ns < h->min)
		wr_latency_store_(&h->min, ns);
	if (ns > h->max)
		wr_latency_store_(&h->max, ns);
	wr_latency_store_(&h->sum_hi, h->sum_hi + (lo < ns));
	wr_latency_store_(&h->sum_lo, lo);
	wr_latency_store_(&h->n, h->n + 1);
	/* Release: a reader that sees this count sees min, max and sum. */
	__atomic_store_n(&h->counts[i], h->counts[i] + 1, __ATOMIC_RELEASE);
}

/** Values a wr_latency_batch holds at most between two flushes. */
#define WR_LATENCY_BATCH_MAX 64

/**
 * Values bound for one histogram, gathered by its writer (a burst of a
 * receive queue) and recorded at once by wr_latency_batch_flush(): the
 * histogram's min, max, sum and count are written once per batch instead
 * of once per value, the bucket counts after them (the snapshot rules
 * above hold as with wr_latency_record()).  Writer thread only.
 */
struct wr_latency_batch {
	uint32_t n;
	uint16_t bucket[WR_LATENCY_BATCH_MAX];
	uint64_t min;
	uint64_t max;
	uint64_t sum_lo;
	uint64_t sum_hi;
};

/** Empty @p b. */
static inline void
wr_latency_batch_reset(struct wr_latency_batch *b)
{
	b->n = 0;
	b->min = UINT64_MAX;
	b->max = 0;
	b->sum_lo = 0;
	b->sum_hi = 0;
}

/** Add one value to @p b (which holds fewer than WR_LATENCY_BATCH_MAX). */
static inline void
wr_latency_batch_add(struct wr_latency_batch *b, uint64_t ns)
{
	b->bucket[b->n++] = (uint16_t)wr_latency_bucket(ns);
	b->min = ns < b->min ? ns : b->min;
	b->max = ns > b->max ? ns : b->max;
	/* The carry as GCC adds it (add, adc): a compare of the sum against
	 * the value took a setb, a register and an add. */
	b->sum_hi += __builtin_add_overflow(b->sum_lo, ns, &b->sum_lo);
}

/**
 * Record what @p b holds into @p h and empty @p b.  Out of line: it runs
 * once a burst, and inlined in wr_rx_poll() it cost the frames of the
 * other loop (rx_classes) 1.9 instructions each (cachegrind).
 */
void wr_latency_batch_flush(struct wr_latency *h, struct wr_latency_batch *b);

/** Initialise, or clear for reuse, a histogram.  Owner only. */
void wr_latency_init(struct wr_latency *h);

/**
 * Add @p src into @p dst.  @p dst belongs to the caller; @p src may be
 * written concurrently by its own writer (snapshot rules in the @file block).
 */
void wr_latency_merge(struct wr_latency *dst, const struct wr_latency *src);

/**
 * Take an earlier snapshot @p base of the same histogram out of @p h (a
 * statistics reset by baseline): counts, n and sum exactly; min and max
 * become the bounds of the lowest and highest non-empty bucket, clamped to
 * @p h's own (the values themselves are gone).  Snapshots only (no writer).
 */
void wr_latency_sub(struct wr_latency *h, const struct wr_latency *base);

/** @return the number of values recorded. */
uint64_t wr_latency_count(const struct wr_latency *h);

/** @return the smallest value recorded, 0 if none. */
uint64_t wr_latency_min(const struct wr_latency *h);

/** @return the largest value recorded, 0 if none. */
uint64_t wr_latency_max(const struct wr_latency *h);

/** @return the exact mean rounded to the nearest ns (halves up), 0 if none. */
uint64_t wr_latency_mean(const struct wr_latency *h);

/**
 * Nearest-rank percentile (definition and error bound in the @file block).
 * @param h   histogram
 * @param p   percentile in [0, 100]
 * @param ns  receives the value
 * @return 0; -EINVAL if @p p is not in [0, 100] (or NaN); -ENODATA if the
 *         histogram is empty (then *ns is set to 0).
 */
int wr_latency_percentile(const struct wr_latency *h, double p, uint64_t *ns);

/**
 * Fill @p s: count, min, mean, max, p50, p90, p99, p99.9, p99.99 of @p h
 * (one pass over the buckets) and the jitter of @p j (may be NULL: 0).
 */
void wr_latency_summarize(const struct wr_latency *h,
			  const struct wr_latency_jitter *j,
			  struct wr_latency_summary *s);

/**
 * Range of values counted in bucket @p i.
 * @return 0; -EINVAL if @p i >= WR_LATENCY_BUCKETS.  The overflow bucket
 *         spans WR_LATENCY_RANGE_NS .. UINT64_MAX.
 */
int wr_latency_bucket_bounds(unsigned int i, uint64_t *lo, uint64_t *hi);

/** Initialise (or clear) jitter state.  Owner only. */
void wr_latency_jitter_init(struct wr_latency_jitter *j);

/**
 * 16 * J after a frame of transit @p transit that followed one of @p prev,
 * J having been @p j16 / 16 (RFC 3550 A.8).  For a writer that keeps the
 * state in registers over a burst (wr_rx.c); wr_latency_jitter_update()
 * otherwise.
 */
static inline uint64_t
wr_latency_jitter_step(uint64_t j16, uint64_t prev, uint64_t transit)
{
	uint64_t d = transit - prev;
	/* |d| without a branch: D's sign is a coin toss on real traffic,
	 * and GCC made the plain test a jump. */
	uint64_t sign = (uint64_t)((int64_t)d >> 63);

	d = (d ^ sign) - sign;
	if (d > WR_LATENCY_RANGE_NS)
		d = WR_LATENCY_RANGE_NS;
	/* RFC 3550 A.8: J/16 rounded, never more than J16 itself, so this
	 * cannot go below zero. */
	return j16 + d - ((j16 + 8) >> 4);
}

/**
 * Account one frame, in arrival order.  Writer thread only.
 * @param j        jitter state of the frame's stream
 * @param transit  rx_time - tx_time in ns, computed modulo 2^64: only
 *                 differences of transits matter, so clocks with a constant
 *                 offset (or a "negative" transit) are fine.
 */
static inline void
wr_latency_jitter_update(struct wr_latency_jitter *j, uint64_t transit)
{
	if (j->n != 0)
		wr_latency_store_(&j->j16, wr_latency_jitter_step(j->j16,
							  j->prev, transit));
	j->prev = transit;
	wr_latency_store_(&j->n, j->n + 1);
}

/** @return the current jitter J in ns (any thread). */
double wr_latency_jitter_ns(const struct wr_latency_jitter *j);

/**
 * Fold the jitter of another path of the same stream (another RX queue)
 * into @p dst: J becomes the mean of both weighted by their frames, n
 * their sum.  Each J stays RFC 3550's over its own arrival order: frames
 * of different queues have none between them.  @p dst is a reader's copy
 * (zeroed by wr_latency_jitter_init()); @p src any thread's, read with
 * atomic loads.
 */
void wr_latency_jitter_merge(struct wr_latency_jitter *dst,
			     const struct wr_latency_jitter *src);

/**
 * Precompute the conversion for a TSC of @p hz (calibrated: wr_clock_eal.h).
 * @return 0, or -EINVAL if @p hz is 0.
 */
int wr_latency_tsc_init(struct wr_latency_tsc *c, uint64_t hz);

/**
 * Convert a TSC interval to ns (error bound in the @file block).  The
 * result wraps if it does not fit 63 bits (cycles >= 2^63 * hz / 1e9: 292
 * years of ns).
 */
static inline uint64_t
wr_latency_tsc_to_ns(const struct wr_latency_tsc *c, uint64_t cycles)
{
	unsigned __int128 p = (unsigned __int128)cycles * c->mult;
	/* x: the result and the first bit shifted out; round half up by
	 * adding 1 to x (it cannot wrap: x < 2^64 - 1 for any result that
	 * fits 63 bits), rather than adding 2^(shift-1) to the product,
	 * which could carry out of 128 bits.  A TSC above 2 GHz has
	 * shift >= 65: x is in the product's high half alone, one 64-bit
	 * shift (measured, cachegrind: 6 instructions a received frame,
	 * against 13 for a 128-bit shift and 18 for two). */
	uint64_t x = __builtin_expect(c->shift >= 65, 1) ?
		(uint64_t)(p >> 64) >> (c->shift - 65) :
		(uint64_t)(p >> (c->shift - 1));

	return (x + 1) >> 1;
}

#endif /* WR_LATENCY_H */
