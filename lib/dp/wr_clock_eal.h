/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_clock_eal: the TSC's frequency measured on this machine (CLOCK_MONOTONIC_RAW around EAL's start), the figure every time and rate of wirerate is computed with. */
#ifndef WR_CLOCK_EAL_H
#define WR_CLOCK_EAL_H

/**
 * @file
 * DPDK's rte_get_tsc_hz() is rounded to 10 MHz (wr_clock.h); wirerate
 * measures the TSC itself, with the maths of wr_clock.h, against
 * CLOCK_MONOTONIC_RAW, and every cycle count that becomes time goes
 * through wr_tsc_hz().
 *
 * Why CLOCK_MONOTONIC_RAW: it is the kernel's own clock before NTP's
 * adjustments, read through the vDSO in ~35 ns.  The kernel's TSC figure
 * itself (tsc_khz) is not exported: dmesg prints it to 1 kHz, and
 * /proc/cpuinfo's "cpu MHz" is the core's clock, not the TSC's, on CPUs
 * that report APERF/MPERF.  Where the clocksource is the TSC,
 * CLOCK_MONOTONIC_RAW is the TSC scaled by that figure, so measuring
 * against it gives the kernel's figure to the last digit; on kvm-clock or
 * HPET it is the host's or the board's time.  CLOCK_MONOTONIC and
 * CLOCK_REALTIME are slewed by NTP (up to 500 ppm while it corrects an
 * offset): a calibration against them would take the slew on.  Kernel
 * packet timestamps and a server's start_at are CLOCK_REALTIME, which runs
 * at CLOCK_MONOTONIC_RAW's rate when NTP is not correcting.
 *
 * When: the first sample before rte_eal_init() (wr_tsc_begin()), the
 * second once EAL and the ports are up (wr_tsc_calibrate()): EAL's start
 * (DPDK's own 100 ms measurement, then the devices) is the interval, so
 * the calibration adds no time; WR_TSC_MIN_SPAN_NS is the least waited
 * for.  Each report refines it from the first sample (wr_tsc_refine()):
 * the bound falls as 1/t.  A fit more than 1 % from DPDK's figure is not
 * believed (a TSC that is not constant): DPDK's figure stays, and the
 * results say "eal".
 *
 * Threads: wr_tsc_begin(), wr_tsc_calibrate(), wr_tsc_refine() and
 * wr_tsc_get() on the main lcore; wr_tsc_hz() and the word of
 * wr_tsc_hz_word() from any thread (one 64-bit word stored atomically:
 * lcores compare it at every turn and follow a change, wr_tx.c).
 */

#include <stdint.h>

#include "wr_clock.h"

/** At least this long between the two samples of the first calibration:
 * 35 ns brackets over 20 ms bound the error by 2 ppm. */
#define WR_TSC_MIN_SPAN_NS (20 * 1000 * 1000ull)

/** Take the first sample (before rte_eal_init()); once per process. */
void wr_tsc_begin(void);

/**
 * The second sample (after rte_eal_init(): DPDK's figure is the sanity
 * check), waiting until WR_TSC_MIN_SPAN_NS passed since wr_tsc_begin()
 * (which it calls if nobody did); the fit is published.  Again later: as
 * wr_tsc_refine().
 * @return 0; -ERANGE when the fit was not believed (DPDK's figure is
 *         used); -EINVAL when no sample could be taken (the same).
 */
int wr_tsc_calibrate(void);

/** Refit from the first sample to now and publish it when its bound is
 * no wider (main lcore, at each report; about a microsecond). */
void wr_tsc_refine(void);

/** The calibration now, for the results. */
void wr_tsc_get(struct wr_tsc_cal *c);

/** The TSC frequency now (any thread); DPDK's before wr_tsc_calibrate(). */
uint64_t wr_tsc_hz(void);

/** The published frequency, for lcores to watch (read it atomically). */
const uint64_t *wr_tsc_hz_word(void);

/** TSC ticks to nanoseconds at wr_tsc_hz() (slow path: a division). */
uint64_t wr_tsc_to_ns(uint64_t ticks);

/** Nanoseconds to TSC ticks at wr_tsc_hz(), rounded up. */
uint64_t wr_tsc_from_ns(uint64_t ns);

#endif /* WR_CLOCK_EAL_H */
