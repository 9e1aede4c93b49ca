/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_txlimit: what held a generator below its rate (the line, the port, the CPU, the pacer), from its counters. */
#ifndef WR_TXLIMIT_H
#define WR_TXLIMIT_H

/**
 * @file
 * A benchmark's figure is the device's only when the generator offered
 * the rate; when it did not, the outputs name what held it, from what was
 * counted: wirerate's per-stream counters (frames sent, bursts the port
 * refused, frames the pacer gave up) and the kernel's count of the TX
 * lcores' time (struct wr_thread_usage).  Pure functions, any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_stats.h"

/**
 * Whether @p driver's link speed is a placeholder, not a wire's: the
 * virtual PMDs of DPDK 22.11 report a constant (net_null, net_ring,
 * net_pcap, net_af_packet, net_af_xdp, net_tap, net_vhost, net_kni and
 * net_virtio_user 10 Gbps, net_memif 100 Gbps) whatever the path carries.
 * Such a port has no line rate to be limited by: a sweep on net_null ran
 * at 978-17 677 % of its "line".
 */
bool wr_txlimit_placeholder(const char *driver);

/**
 * The line rate a benchmark may compare with: @p link_mbps, or 0 (none)
 * when it is a placeholder (wr_txlimit_placeholder()).
 */
uint32_t wr_txlimit_line_mbps(const char *driver, uint32_t link_mbps);

/**
 * What a trial's TX side did, as counted by wirerate and the kernel: the
 * evidence wr_txlimit_of() names a limit from.
 */
struct wr_txlimit_tx {
	uint64_t sent;
	uint64_t pacer_skipped;   /**< frames the schedule made due and gave up */
	uint64_t tx_full;         /**< bursts the port did not take whole */
	uint64_t alloc_fail;      /**< turns with every mbuf in the port's ring */
	uint32_t burst;           /**< frames per burst, >= 1 */
	struct wr_thread_usage usage; /**< the TX lcores'; wall_ns 0: unknown */
};

/*
 * What held the generator below the rate it was asked for, X(suffix,
 * name): the TX port (its ring full: a NIC or peer that does not take
 * frames faster; or a port that sends through the kernel, af_packet or
 * tap, whose system calls took the TX lcore's time or blocked it), the
 * TX lcore's CPU (another thread ran there, or it ran flat out and could
 * not build frames faster), or the pacer's own schedule (neither).
 */
#define WR_TXLIMITS(X) \
	X(PORT, "port")    \
	X(CPU, "cpu")      \
	X(PACER, "pacer")

enum wr_txlimit {
#define WR_TXLIMIT_ENUM(s, n) WR_TXLIMIT_##s,
	WR_TXLIMITS(WR_TXLIMIT_ENUM)
#undef WR_TXLIMIT_ENUM
};

/** "port", "cpu" or "pacer". */
const char *wr_txlimit_name(enum wr_txlimit l);

/**
 * Which of the port, the CPU or the pacer held a trial's rate, from its
 * counters, in this order:
 *   - cpu: the TX lcore was off its CPU for WR_TXLIMIT_OFF_CPU_PCT % of the
 *     time or more, taken off by the scheduler (involuntary switches: the
 *     machine's other threads), and at the pace it kept while on it, it
 *     would have sent every frame that fell due (sent + skipped);
 *   - port: at least WR_TXLIMIT_REFUSED_PPM of its bursts were refused
 *     (tx_full + alloc_fail): the port's ring was full; or it was off its
 *     CPU that long mostly waiting in the kernel (voluntary switches: a
 *     PMD blocking until the port has room); or half its CPU time or more
 *     went on system calls (a PMD such as af_packet sends from the
 *     lcore, in the kernel: the port's work);
 *   - cpu: preempted that long anyway; or frames skipped by the pacer
 *     with the lcore on its CPU all along (it could not keep up);
 *   - pacer: none of these (the schedule itself fell short).
 * @p why (may be NULL) gets one clause with the figures, e.g. "the TX
 * port took the TX lcore's time: 87 % of its CPU time in the kernel".
 */
enum wr_txlimit wr_txlimit_of(const struct wr_txlimit_tx *t, char *why,
				      size_t why_len);
/** 1 %: a port that takes frames refuses nearly none of the bursts
 * (measured: 0 on net_null, memif and af_packet at rates they carry). */
#define WR_TXLIMIT_REFUSED_PPM 10000
/** 10 %: an lcore that busy-polls its own CPU is off it for far less. */
#define WR_TXLIMIT_OFF_CPU_PCT 10

/**
 * Whether the port (not the generator's CPU) held a max-rate trial: the
 * port rules of wr_txlimit_of() alone.  @p why as there.
 */
bool wr_txlimit_port(const struct wr_txlimit_tx *t, char *why,
			   size_t why_len);

#endif /* WR_TXLIMIT_H */
