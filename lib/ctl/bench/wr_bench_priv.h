/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_priv: what the benchmark drivers (wr_bench_sweep.c, wr_bench_rfc2544.c, wr_bench_rtt.c) share from wr_bench.c below them, and what a driver is. */
#ifndef WR_BENCH_PRIV_H
#define WR_BENCH_PRIV_H

#include <stdio.h>

#include "wr_bench.h"
#include "wr_frame.h"
#include "wr_latency.h"
#include "wr_port.h"
#include "wr_rx.h"
#include "wr_seq.h"
#include "wr_txlimit.h"

/* Echoes still in flight after the last frame: 200 ms covers a kernel or a
 * switch path (tens of microseconds) with a wide margin and a DUT's buffers
 * (a 16 MB buffer drains in 13 ms at 10 Gbps). */
#define WR_BENCH_DRAIN_DEFAULT_NS (200 * 1000 * 1000ull)

uint64_t wr_bench_mono_ns(void);
bool wr_bench_cancelled(const struct wr_bench *b);
/** A log line that is not about a trial. */
void wr_bench_line(struct wr_bench *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** A note for the user beside the log (the CLI's stderr). */
void wr_bench_note(struct wr_bench *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** A log line about a trial of @p test at @p size and @p rate. */
/* The time-based ETA (wr_eta.h) of a benchmark of @p units units
 * (rfc2544: sizes, on each pair; rtt: sizes) of phases (rfc2544's tests,
 * WR_BENCH_ETA_PHASES, run in index order), on the monotonic clock: a unit
 * begins, a phase of it begins, the unit is done.  Once a unit is done,
 * the lines' eta_s is wr_eta_left()'s. */
void wr_bench_eta_start(struct wr_bench *b, uint32_t units,
			double (*weight)(const void *b, unsigned int phase,
					 uint32_t u));
void wr_bench_eta_unit(struct wr_bench *b, uint32_t u);
void wr_bench_eta_phase(struct wr_bench *b, unsigned int phase);
void wr_bench_eta_unit_done(struct wr_bench *b);
/* @p done of the test running's @p of like parts (latency trials,
 * back-to-back repeats) are done. */
void wr_bench_eta_phase_done(struct wr_bench *b, uint32_t done, uint32_t of);
void wr_bench_say(struct wr_bench *b, const char *test, uint16_t size,
		  uint64_t rate, bool counted, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/** "OPT: WHY, got \"VAL\"" into @p err; @return -EINVAL. */
int wr_bench_bad(struct wr_error *err, const char *opt, const char *val,
		 const char *why);
/** The ports the options and the stream name, among @p n_ports. */
int wr_bench_ports_check(const struct wr_bench *b, unsigned int n_ports,
			 bool from_profile, struct wr_error *err);
void wr_bench_utc(char *buf, size_t len);

void wr_bench_stream_at(const struct wr_bench *b, uint16_t size,
			struct wr_stream *st);
void wr_bench_stream_idx_at(const struct wr_bench *b, uint32_t idx,
			    uint16_t size, struct wr_stream *st);
/**
 * Load @p st alone, send until its duration (or count) ends, wait
 * @p drain_ns for echoes, collect its row into @p row, unload.
 * @return 0, -EINTR after a cancel or a link loss (the row is still filled
 *         when the trial ran), or the engine's error (@p err filled).
 */
int wr_bench_trial(struct wr_bench *b, struct wr_stream *st, uint64_t drain_ns,
		   struct wr_report_row *row, struct wr_error *err);
void wr_bench_tx_of(const struct wr_bench *b, const struct wr_stream *st,
		    const struct wr_report_row *row, struct wr_txlimit_tx *tx);
const char *wr_bench_stop_reason(const struct wr_bench *b, int rc);
void wr_bench_meta(const struct wr_bench *b, struct wr_bench_meta *m,
		   uint16_t tx_port, const char *reason);

/**
 * What a one-stream benchmark (sweep, rfc2544) checks at init: the stream
 * named (--stream), frames whose size it sets, the sizes, the ports.
 * @return 0; -EINVAL with @p err naming the option or the file's line.
 */
int wr_bench_init_stream(struct wr_bench *b, unsigned int n_ports,
			 struct wr_error *err);

/*
 * A benchmark driver: one per command, each in its own file
 * (wr_bench_sweep.c, wr_bench_rfc2544.c, wr_bench_rtt.c), listed by kind
 * in wr_bench_drivers.c.  The drivers call down into the helpers above
 * (wr_bench.c); wr_bench.c reaches a driver only through the descriptor a
 * benchmark holds (struct wr_bench's drv), as testpmd's fwd engines.
 */
struct wr_bench_driver {
	const char *name;            /* the command: "sweep", "rfc2544", "rtt" */
	/** Check the options and the stream file before EAL (wr_bench_init()). */
	int (*init)(struct wr_bench *b, unsigned int n_ports,
		    struct wr_error *err);
	/** The trials on the open engine, the results into @p r. */
	int (*run)(struct wr_bench *b, struct wr_bench_result *r,
		   struct wr_error *err);
	/** The tables the CLI prints after the log; NULL: none (rtt prints
	 * its rows as it runs). */
	void (*print)(FILE *out, const struct wr_bench_result *r);
	/** --csv and --json.  @return 0, -EIO. */
	int (*csv)(FILE *out, const struct wr_bench_result *r);
	int (*json)(FILE *out, const struct wr_bench_result *r);
};

#endif /* WR_BENCH_PRIV_H */
