/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_latency: histogram queries, snapshots, jitter and TSC conversion set-up. */
#include <errno.h>
#include <string.h>

#include "wr_latency.h"

/* p is taken in millionths (1e-4 percent) so ranks are exact integers. */
#define PPM 1000000u

void
wr_latency_batch_flush(struct wr_latency *h, struct wr_latency_batch *b)
{
	uint64_t lo = h->sum_lo + b->sum_lo;
	uint32_t k;
	uint16_t other = 0, first;

	if (b->n == 0)
		return;
	first = b->bucket[0];
	/* A batch all in one bucket (frames the device returned late, in
	 * the overflow bucket; a constant latency, in one coarse bucket) is
	 * one increment: counted value by value, each would wait for the
	 * store of the one before (measured, perf: a third of the receive
	 * loop's cycles on a burst of overflows).  The test is vector
	 * compares (from the first, which matches itself: a burst of 32 is
	 * 4 of 8, with no scalar tail). */
	for (k = 0; k < b->n; k++)
		other |= (uint16_t)(b->bucket[k] ^ first);
	if (b->min < h->min)
		wr_latency_store_(&h->min, b->min);
	if (b->max > h->max)
		wr_latency_store_(&h->max, b->max);
	wr_latency_store_(&h->sum_hi, h->sum_hi + b->sum_hi + (lo < b->sum_lo));
	wr_latency_store_(&h->sum_lo, lo);
	wr_latency_store_(&h->n, h->n + b->n);
	/* Release: a reader that sees these counts sees min, max and sum. */
	if (other == 0)
		__atomic_store_n(&h->counts[first], h->counts[first] + b->n,
				 __ATOMIC_RELEASE);
	else
		for (k = 0; k < b->n; k++)
			__atomic_store_n(&h->counts[b->bucket[k]],
					 h->counts[b->bucket[k]] + 1,
					 __ATOMIC_RELEASE);
	wr_latency_batch_reset(b);
}

void
wr_latency_init(struct wr_latency *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void
wr_latency_merge(struct wr_latency *dst, const struct wr_latency *src)
{
	uint64_t n = 0, c, lo, hi, mn, mx;
	unsigned int i;

	/* Counts first, with acquire: the writer stored min, max and the sum
	 * before each count, so what we read next covers every counted value.
	 * n is the sum of what we read, so count and buckets always agree. */
	for (i = 0; i < WR_LATENCY_BUCKETS; i++) {
		c = __atomic_load_n(&src->counts[i], __ATOMIC_ACQUIRE);
		dst->counts[i] += c;
		n += c;
	}
	mn = __atomic_load_n(&src->min, __ATOMIC_RELAXED);
	mx = __atomic_load_n(&src->max, __ATOMIC_RELAXED);
	hi = __atomic_load_n(&src->sum_hi, __ATOMIC_RELAXED);
	lo = __atomic_load_n(&src->sum_lo, __ATOMIC_RELAXED);
	if (n == 0)
		return;
	dst->n += n;
	dst->sum_lo += lo;
	dst->sum_hi += hi + (dst->sum_lo < lo);
	if (mn < dst->min)
		dst->min = mn;
	if (mx > dst->max)
		dst->max = mx;
}

uint64_t
wr_latency_count(const struct wr_latency *h)
{
	return h->n;
}

uint64_t
wr_latency_min(const struct wr_latency *h)
{
	return h->n != 0 ? h->min : 0;
}

uint64_t
wr_latency_max(const struct wr_latency *h)
{
	return h->max;
}

uint64_t
wr_latency_mean(const struct wr_latency *h)
{
	unsigned __int128 sum;

	if (h->n == 0)
		return 0;
	sum = ((unsigned __int128)h->sum_hi << 64) | h->sum_lo;
	/* The mean of 64-bit values fits 64 bits; rounding cannot pass the
	 * max either, so the cast is exact. */
	return (uint64_t)((sum + h->n / 2) / h->n);
}

int
wr_latency_bucket_bounds(unsigned int i, uint64_t *lo, uint64_t *hi)
{
	unsigned int k;

	if (i >= WR_LATENCY_BUCKETS)
		return -EINVAL;
	if (i == WR_LATENCY_OVERFLOW) {
		*lo = WR_LATENCY_RANGE_NS;
		*hi = UINT64_MAX;
	} else if (i < 2 * WR_LATENCY_SUB) {
		*lo = i;
		*hi = i;
	} else {
		/* Inverse of wr_latency_bucket(): i = (k << 7) + m, m in [128, 256). */
		k = (i >> WR_LATENCY_SUB_LOG2) - 1;
		*lo = (uint64_t)(i - (k << WR_LATENCY_SUB_LOG2)) << k;
		*hi = *lo + (1ull << k) - 1;
	}
	return 0;
}

/* What a percentile that falls in bucket i reports (bound in the header). */
static uint64_t
bucket_value(const struct wr_latency *h, unsigned int i)
{
	uint64_t lo, hi, v;

	if (i == WR_LATENCY_OVERFLOW)
		return h->max;
	wr_latency_bucket_bounds(i, &lo, &hi);
	v = lo + (hi - lo) / 2;
	/* The true value is a recorded one, hence within [min, max]: clamping
	 * can only bring the answer closer. */
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

/* Nearest rank of ppm millionths of n: ceil(ppm * n / 1e6), at least 1. */
static uint64_t
rank_of(uint64_t ppm, uint64_t n)
{
	unsigned __int128 r = ((unsigned __int128)ppm * n + PPM - 1) / PPM;

	return r != 0 ? (uint64_t)r : 1;
}

/* Values of @p k ascending ranks in one pass over the buckets. */
static void
values_at_ranks(const struct wr_latency *h, const uint64_t *ranks,
		unsigned int k, uint64_t *out)
{
	uint64_t cum = 0;
	unsigned int i, j = 0;

	for (i = 0; i < WR_LATENCY_BUCKETS && j < k; i++) {
		cum += h->counts[i];
		while (j < k && cum >= ranks[j])
			out[j++] = bucket_value(h, i);
	}
	/* Only reachable if n disagreed with the buckets, which init, record
	 * and merge never allow; answer the max rather than leave garbage. */
	while (j < k)
		out[j++] = h->max;
}

int
wr_latency_percentile(const struct wr_latency *h, double p, uint64_t *ns)
{
	uint64_t rank;

	/* Written so that NaN fails too. */
	if (!(p >= 0.0 && p <= 100.0))
		return -EINVAL;
	*ns = 0;
	if (h->n == 0)
		return -ENODATA;
	rank = rank_of((uint64_t)(p * (PPM / 100) + 0.5), h->n);
	values_at_ranks(h, &rank, 1, ns);
	return 0;
}

void
wr_latency_sub(struct wr_latency *h, const struct wr_latency *base)
{
	uint64_t lo, hi, first = UINT64_MAX, last = 0;
	unsigned int i;

	h->n = 0;
	for (i = 0; i < WR_LATENCY_BUCKETS; i++) {
		h->counts[i] -= h->counts[i] >= base->counts[i] ?
			base->counts[i] : h->counts[i];
		h->n += h->counts[i];
		if (h->counts[i] == 0)
			continue;
		wr_latency_bucket_bounds(i, &lo, &hi);
		if (first == UINT64_MAX)
			first = lo;
		last = hi;
	}
	hi = h->sum_hi - base->sum_hi - (h->sum_lo < base->sum_lo);
	h->sum_lo -= base->sum_lo;
	h->sum_hi = hi;
	if (h->n == 0) {
		h->min = UINT64_MAX;
		h->max = 0;
		h->sum_lo = h->sum_hi = 0;
		return;
	}
	if (first > h->min)
		h->min = first;
	if (last < h->max)
		h->max = last;
}

void
wr_latency_summarize(const struct wr_latency *h,
		     const struct wr_latency_jitter *j,
		     struct wr_latency_summary *s)
{
	/* p50, p90, p99, p99.9, p99.99 in millionths. */
	static const uint64_t ppm[] = { 500000, 900000, 990000, 999000, 999900 };
	uint64_t ranks[5], v[5];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->jitter_ns = j != NULL ? wr_latency_jitter_ns(j) : 0.0;
	if (h->n == 0)
		return;
	for (i = 0; i < 5; i++)
		ranks[i] = rank_of(ppm[i], h->n);
	values_at_ranks(h, ranks, 5, v);
	s->n = h->n;
	s->min = h->min;
	s->avg = wr_latency_mean(h);
	s->max = h->max;
	s->p50 = v[0];
	s->p90 = v[1];
	s->p99 = v[2];
	s->p999 = v[3];
	s->p9999 = v[4];
}

void
wr_latency_jitter_init(struct wr_latency_jitter *j)
{
	memset(j, 0, sizeof(*j));
}

double
wr_latency_jitter_ns(const struct wr_latency_jitter *j)
{
	return (double)__atomic_load_n(&j->j16, __ATOMIC_RELAXED) / 16.0;
}

void
wr_latency_jitter_merge(struct wr_latency_jitter *dst,
			const struct wr_latency_jitter *src)
{
	uint64_t n = __atomic_load_n(&src->n, __ATOMIC_RELAXED);
	uint64_t j16 = __atomic_load_n(&src->j16, __ATOMIC_RELAXED);

	if (n == 0)
		return;
	dst->j16 = (uint64_t)(((unsigned __int128)dst->j16 * dst->n +
			       (unsigned __int128)j16 * n) / (dst->n + n));
	dst->n += n;
}

int
wr_latency_tsc_init(struct wr_latency_tsc *c, uint64_t hz)
{
	const unsigned __int128 ns_per_s = 1000000000u;
	unsigned __int128 m = 0;
	unsigned int shift;

	if (hz == 0)
		return -EINVAL;
	/* Smallest shift giving mult >= 2^63: all 64 bits of mult carry
	 * precision.  hz < 2^64 and 1e9 > 2^29, so shift <= 98 suffices, and
	 * 1e9 < 2^30 keeps 1e9 << 98 inside 128 bits.  Starting at 1 keeps
	 * shift - 1 valid in wr_latency_tsc_to_ns(); if round(x) < 2^63 then
	 * round(2x) < 2^64, so mult always fits. */
	for (shift = 1; shift <= 98; shift++) {
		m = ((ns_per_s << shift) + hz / 2) / hz;
		if (m >= (unsigned __int128)1 << 63)
			break;
	}
	c->hz = hz;
	c->mult = (uint64_t)m;
	c->shift = shift;
	return 0;
}

void
wr_latency_json_write(FILE *out, const struct wr_latency_summary *l,
		      enum wr_latency_json names)
{
	static const char *const key[2][9] = {
		[WR_LAT_JSON_PLAIN] = { "n", "min", "avg", "max", "p50", "p90",
					"p99", "p999", "p9999" },
		[WR_LAT_JSON_NS] = { "frames", "min_ns", "avg_ns", "max_ns", "p50_ns",
				     "p90_ns", "p99_ns", "p99_9_ns", "p99_99_ns" },
	};
	const uint64_t v[9] = { l->n, l->min, l->avg, l->max, l->p50, l->p90,
				l->p99, l->p999, l->p9999 };
	unsigned int i;

	for (i = 0; i < 9; i++)
		fprintf(out, "%s\"%s\": %llu", i ? ", " : "", key[names][i],
			(unsigned long long)v[i]);
}
