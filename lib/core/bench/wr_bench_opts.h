/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_opts: what a benchmark is asked (sweep, rfc2544, rtt), parsed from its options' text, for the CLI and the server alike. */
#ifndef WR_BENCH_OPTS_H
#define WR_BENCH_OPTS_H

/**
 * @file
 * The command line (`wirerate rfc2544 --trial 60 ...`) and the server's
 * bench.start ({"options": {"trial": "60", ...}}) set a benchmark's options
 * through one parser, wr_bench_opt(), by the option's long name and its
 * value as text: the same checks and the same error lines either way.
 *
 * Thread-safety: reentrant.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_bench_result.h"
#include "wr_error.h"
#include "wr_stream.h"

enum wr_bench_kind { WR_BENCH_SWEEP, WR_BENCH_RFC2544, WR_BENCH_RTT };

/** The throughput search: RFC 2544's binary search (wr_throughput.h) or
 * MLRsearch (wr_mlr.h). */
enum wr_bench_search { WR_BENCH_SEARCH_BINARY, WR_BENCH_SEARCH_MLR };

/** The longest drain (the wait for echoes after the last frame), for a
 * benchmark's --drain and traffic.start's drain alike: RFC 2544 (section 23)
 * waits 2 s; 60 s is thirty times that, longer than any path a lab measures,
 * and short enough that a mistaken unit (a drain in ms) is refused, not
 * waited out. */
#define WR_DRAIN_MAX_NS (60ull * 1000 * 1000 * 1000)

/** What a benchmark is asked (the CLI's options, bench.start's params). */
struct wr_bench_opts {
	const char *stream_name;    /**< NULL: the file's first stream */
	uint16_t sizes[WR_BENCH_SIZES_MAX];
	unsigned int n_sizes;       /**< 0: the command's defaults */
	uint16_t tx_port, rx_port;
	bool tx_port_set, rx_port_set;
	uint64_t duration_ns;       /**< sweep: per size; 0: 2 s */
	uint64_t trial_ns;          /**< rfc2544: 0: 60 s */
	uint64_t drain_ns;
	bool drain_set;
	uint32_t loss_ppm;
	uint32_t pdr_ppm;           /**< 0: no PDR */
	uint32_t tests;             /**< WR_BENCH_TEST_*; 0: throughput */
	uint32_t loss_step_ppm;
	uint32_t b2b_repeats;
	uint64_t b2b_trial_ns;
	uint64_t b2b_resolution;
	const char *rev_stream;     /**< both directions */
	uint16_t pairs[WR_BENCH_PAIRS_MAX][2];
	unsigned int n_pairs;
	uint32_t lat_trials;
	uint64_t lat_trial_ns;
	uint32_t phases;
	uint64_t first_trial_ns;
	uint32_t resolution_ppm;
	uint64_t resolution_millipps;
	struct wr_rate_spec max_rate; /**< unit MAX: the line rate */
	struct wr_rate_spec min_rate; /**< unit MAX: none */
	uint32_t repeats;           /**< sweep */
	uint32_t burst;
	bool burst_set;
	bool quiet;                 /**< fewer log lines (the CLI's --quiet) */
	/* rtt */
	uint64_t count;
	bool count_set;
	uint64_t timeout_ns;
	uint32_t rtt_from, rtt_to, rtt_step; /**< step 0: the default sweep */
	/* rfc2544's throughput search */
	enum wr_bench_search search;
	uint32_t exceed_ppm;        /**< MLRsearch: Goal Exceed Ratio */
	uint64_t sum_ns;            /**< MLRsearch: Goal Duration Sum; 0: one trial */
};

/**
 * Set option @p name (its long name without "--": "tx-port", "trial",
 * "sizes", "max-rate", ...; wr_bench_opt_name() lists them) of a @p kind
 * benchmark from @p value, as the command line gives it.
 * @return 0; -ENOENT not an option of benchmarks; -EINVAL with @p err
 *         ("--NAME: what was expected, got \"VALUE\"").
 */
int wr_bench_opt(struct wr_bench_opts *o, enum wr_bench_kind kind,
		 const char *name, const char *value, struct wr_error *err);

/** The @p i-th name wr_bench_opt() takes (sorted), NULL past the last. */
const char *wr_bench_opt_name(unsigned int i);

#endif /* WR_BENCH_OPTS_H */
