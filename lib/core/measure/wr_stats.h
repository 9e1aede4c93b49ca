/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stats: counters and the L1/L2 rate arithmetic every report uses. */
#ifndef WR_STATS_H
#define WR_STATS_H

/**
 * @file
 * Bytes are counted per frame, FCS included (the frame size a user writes),
 * so rates stay exact for mixed sizes.  L2 rate counts those bytes; L1 adds
 * the 20 bytes each frame occupies on the wire around it (IEEE 802.3:
 * preamble 7 + SFD 1 + inter-frame gap 12):
 *
 *     Mbps L2 = bytes * 8 / t / 1e6
 *     Mbps L1 = (bytes + 20 * pkts) * 8 / t / 1e6
 *
 * which, for a fixed size, is Ostinato's (size + 20) * kpps * 8 / 1000.
 *
 * struct wr_counters is written by exactly one lcore; readers take a
 * snapshot with wr_counters_read() (64-bit loads are atomic on the 64-bit
 * targets DPDK supports; relaxed order is enough for statistics).
 */

#include <stdint.h>
#include <stdio.h>

#include "wr_stream.h"

struct wr_counters {
	uint64_t tx_pkts;
	uint64_t tx_bytes;   /**< frame bytes incl. FCS */
	uint64_t tx_full;    /**< bursts the NIC did not take whole */
	uint64_t alloc_fail; /**< bursts with no mbufs available */
};

/**
 * Where a thread's time went over an interval, as the kernel counts it
 * (getrusage(RUSAGE_THREAD)): on its CPU in user mode, in the kernel
 * (system calls: a PMD that sends through a socket, such as af_packet,
 * spends its time there), and how often it gave the CPU up: waiting in
 * the kernel (voluntary) or taken off by the scheduler for another thread
 * (involuntary).  Summed over threads by wr_thread_usage_add().
 */
struct wr_thread_usage {
	uint64_t wall_ns;    /**< the interval itself */
	uint64_t user_ns;
	uint64_t sys_ns;
	uint64_t nvcsw;      /**< voluntary context switches */
	uint64_t nivcsw;     /**< involuntary context switches */
};

/** Add @p b to @p a. */
void wr_thread_usage_add(struct wr_thread_usage *a,
			 const struct wr_thread_usage *b);

/** Rates over an interval. */
struct wr_rates {
	double kpps;
	double mbps_l2;
	double mbps_l1;
};

/** Copy @p src into @p dst with relaxed atomic loads (single writer elsewhere). */
static inline void
wr_counters_read(struct wr_counters *dst, const struct wr_counters *src)
{
	dst->tx_pkts = __atomic_load_n(&src->tx_pkts, __ATOMIC_RELAXED);
	dst->tx_bytes = __atomic_load_n(&src->tx_bytes, __ATOMIC_RELAXED);
	dst->tx_full = __atomic_load_n(&src->tx_full, __ATOMIC_RELAXED);
	dst->alloc_fail = __atomic_load_n(&src->alloc_fail, __ATOMIC_RELAXED);
}

/** Add @p b to @p a. */
void wr_counters_add(struct wr_counters *a, const struct wr_counters *b);

/** L1 bytes of @p pkts frames carrying @p bytes (FCS included). */
static inline uint64_t
wr_l1_bytes(uint64_t bytes, uint64_t pkts)
{
	return bytes + (uint64_t)WR_L1_OVERHEAD * pkts;
}

/**
 * Goodput bytes of @p pkts frames carrying @p bytes (FCS included) whose
 * payload starts @p payload_off bytes in (wr_frame_tmpl_payload_off()):
 * bytes - pkts * (4 + payload_off), exact for any mix of sizes since the
 * headers do not change with the size; 0 if the headers exceed the bytes.
 */
static inline uint64_t
wr_goodput_bytes(uint64_t bytes, uint64_t pkts, uint32_t payload_off)
{
	uint64_t hdr = pkts * ((uint64_t)WR_FCS_LEN + payload_off);

	return bytes > hdr ? bytes - hdr : 0;
}

/**
 * Rates of @p pkts frames and @p bytes over @p ns nanoseconds.
 * ns == 0 gives zero rates.
 */
struct wr_rates wr_rates_calc(uint64_t pkts, uint64_t bytes, uint64_t ns);

/**
 * Line rate in frames per second of a link of @p link_mbps for frames of
 * @p size bytes (FCS included): link / ((size + 20) * 8).  E.g. 10 GbE at
 * 64 bytes gives 14880952.
 */
double wr_line_rate_pps(uint32_t link_mbps, uint32_t size);

/** min / median / max of a figure over repeated measurements. */
struct wr_spread {
	double min, median, max;
};

/**
 * The spread of @p n values (n >= 1): min, median (the mean of the middle
 * two for an even count) and max.  Sorts @p v in place.
 */
struct wr_spread wr_spread_of(double *v, uint32_t n);

/** Print " min median max" in three 10.3f columns. */
void wr_spread_print(FILE *out, const struct wr_spread *s);

/** Write `, "KEY": {"min": .., "median": .., "max": ..}` (3 decimals). */
void wr_spread_json(FILE *out, const char *key, const struct wr_spread *s);

#endif /* WR_STATS_H */
