/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_drivers: the benchmark drivers' descriptors, one per command, which wr_bench_drivers.c lists by kind. */
#ifndef WR_BENCH_DRIVERS_H
#define WR_BENCH_DRIVERS_H

#include "wr_bench_priv.h"

extern const struct wr_bench_driver wr_bench_driver_sweep;   /* wr_bench_sweep.c */
extern const struct wr_bench_driver wr_bench_driver_rfc2544; /* wr_bench_rfc2544.c */
extern const struct wr_bench_driver wr_bench_driver_rtt;     /* wr_bench_rtt.c */

#endif /* WR_BENCH_DRIVERS_H */
