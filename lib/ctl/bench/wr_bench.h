/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench: the benchmarks (sweep, RFC 2544, rtt) on an open engine, for the CLI and the server alike. */
#ifndef WR_BENCH_H
#define WR_BENCH_H

/**
 * @file
 * `wirerate sweep`, `wirerate rfc2544` and `wirerate rtt` run here, as do
 * the server's benchmark jobs (bench.start, doc/api.md): one code path, the
 * same trials, the same results and files.  The caller opens the engine
 * (the CLI starts EAL, the server has it up) and hands over:
 *
 *   - the options (struct wr_bench_opts: the CLI's, or bench.start's);
 *   - the stream file (loaded by the caller; the bench reads it only);
 *   - hooks: where the benchmark's log lines go (the CLI prints them, on a
 *     terminal as one progress line redrawn in place; the server keeps
 *     them and pushes bench_progress events), how time passes while a
 *     trial runs (the CLI sleeps, the server serves its clients), and a
 *     flag that cancels (a signal, bench.cancel).
 *
 * Everything here returns a negative errno with a struct wr_error filled;
 * nothing exits; output goes through the hooks or into the result, whose
 * table, CSV and JSON are those the CLI writes (wr_bench_result_*()).
 *
 * Threads: the main lcore, one benchmark at a time per engine.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wr_bench_result.h"
#include "wr_bench_opts.h"
#include "wr_engine.h"
#include "wr_error.h"
#include "wr_eta.h"
#include "wr_mlr.h"
#include "wr_rtt_result.h"
#include "wr_stream.h"

struct wr_latency;
struct wr_rtt_size;

/** rfc2544's tests, in the order a size runs them (wr_bench_eta_phase()). */
#define WR_BENCH_ETA_PHASES WR_ETA_PHASES
struct wr_rtt_ses;

/** Where a benchmark stands, with each log line about a trial. */
struct wr_bench_progress {
	const char *test;           /**< "sweep", "throughput", "latency", "loss", "b2b", "rtt" */
	uint16_t size;
	uint32_t done;              /**< trials (or sizes, rtt) done */
	uint32_t estimate;          /**< about how many in all */
	double eta_s;               /**< < 0: unknown */
	bool eta_bound;             /**< the ETA counts the plan's trials, each
				     *   search at its longest: an upper bound
				     *   (rfc2544 before its first size is
				     *   done); false: the trials left are
				     *   known, or counted at what the sizes
				     *   done took */
	uint64_t rate_millipps;     /**< the trial's rate; 0: as fast as the port takes */
	double elapsed_s;
	double trial_s;             /**< a line inside a trial: its time so far, */
	double trial_len_s;         /**<   of this length (0: not inside a trial) */
};

struct wr_bench_hooks {
	void *ctx;
	/** A line of the benchmark's log, newline included; @p p: where the
	 * benchmark stands when the line is about a trial (NULL otherwise);
	 * @p counted: the trial counts towards the estimate. */
	void (*line)(void *ctx, const char *text, const struct wr_bench_progress *p,
		     bool counted);
	/** Let @p ns pass while a trial runs (at most 20 ms at a time). */
	void (*wait)(void *ctx, uint64_t ns);
	/** Non-zero: stop after the trial running (a signal, bench.cancel). */
	const volatile int *cancel;
	/** A note for the user that is not part of the log (the CLI prints
	 * it on stderr, "wirerate: " first); may be NULL. */
	void (*note)(void *ctx, const char *text);
};

/** A benchmark's results: what the CLI prints and writes. */
struct wr_bench_result {
	enum wr_bench_kind kind;
	struct wr_bench_meta m;
	int rc;                     /**< 0 done; -EINTR cut short (signal, cancel, link) */
	bool gen_limited;           /**< exit 3: the generator limited a result */
	bool link_lost;
	/* sweep */
	struct wr_sweep_row *rows;
	unsigned int n_rows;
	struct wr_sweep_stat *st;   /**< repeats or echoes: the spreads */
	bool spread;                /**< a sweep with repeats or echoes: its JSON
					 * is the spreads' even when none was measured */
	unsigned int n_st;
	uint16_t not_measured[WR_BENCH_SIZES_MAX];
	unsigned int n_sizes;       /**< sizes asked */
	/* rfc2544 */
	struct wr_rfc2544_row *rfc;
	unsigned int n_rfc;
	/* rtt: n_rtt sizes of rtt_k streams side by side (--stream A,B),
	 * rtt[i * rtt_k + j] stream j at size i */
	struct wr_rtt_row *rtt;
	unsigned int n_rtt;
	unsigned int rtt_k;
	char rtt_names[WR_RTT_CMP_MAX][WR_STREAM_NAME_MAX];
	const char *rtt_name[WR_RTT_CMP_MAX]; /**< rtt_names, as the writers take them */
	char rtt_names_joined[WR_RTT_CMP_MAX * (WR_STREAM_NAME_MAX + 1)];
	struct wr_rtt_meta rtt_meta;
	char rtt_started[40];
};

struct wr_bench_driver;

/** A benchmark in progress: its options, stream, engine and state.  The
 * fields are internal (the trial helpers of wr_bench.c share them). */
struct wr_bench {
	const struct wr_bench_opts *o;
	const struct wr_bench_hooks *h;
	enum wr_bench_kind kind;
	const struct wr_bench_driver *drv; /* the kind's (wr_bench_priv.h) */
	const struct wr_stream_file *f;
	uint32_t stream;            /* index of the stream run */
	bool latency;               /* every trial carries signatures */
	const char *cfg_path;
	uint32_t cfg_burst;         /* the profile's burst */
	struct wr_engine *e;
	uint16_t sizes[WR_BENCH_SIZES_MAX];
	unsigned int n_sizes;
	char started_at[40];
	bool link_lost;             /* a port's link went during a trial */
	struct wr_report_row port_row; /* the stream's port, last trial */
	uint16_t rx_port;           /* with latency: where echoes count */
	uint64_t rx_distinct;       /* last trial: distinct frames back on rx_port */
	uint64_t rx_port_pkts;      /* last trial: every frame rx_port received */
	uint64_t rx_bytes;          /* last trial: bytes of the signature frames
				     * back on rx_port, as received */
	uint64_t rx_nic_pkts;       /* last trial: rx_port's NIC ipackets (delta) */
	uint64_t rx_nic_bytes;      /* last trial: rx_port's NIC ibytes (delta) */
	uint64_t rx_nic_missed;     /* last trial: frames rx_port dropped that
				     * wirerate did not take in time (imissed +
				     * rx_nombuf, delta): the generator's */
	uint64_t nic_ipackets[WR_PORTS_MAX], nic_imissed[WR_PORTS_MAX]; /* imissed + rx_nombuf */
	uint64_t nic_ibytes[WR_PORTS_MAX];
	uint16_t tx_port;           /* rfc2544: the pair running's TX port */
	bool bidir;                 /* rfc2544 --reverse-stream */
	uint32_t rev_stream;
	struct wr_report_row rev_row;
	uint64_t rev_distinct;
	uint64_t rev_port_pkts;
	uint64_t rev_count;
	uint32_t phases;
	uint64_t first_trial_ns;
	/* rfc2544: the pairs it runs on, trial and drain, the tests */
	uint16_t pairs[WR_BENCH_PAIRS_MAX][2];
	unsigned int n_pairs;
	uint64_t trial_ns, drain_ns;
	uint32_t tests;
	uint32_t progress_done, progress_est;
	uint64_t progress_t0_ns;
	bool progress_bound;           /**< progress_est is the plan's bound */
	uint64_t plan_ns;           /* rfc2544: about how long it all takes */
	/* The time left once a size is done (wr_eta.h: each test's time
	 * per size, per weight, over the sizes done; wr_bench_eta_*()).
	 * The trials left at the mean time of a trial so far were 48-142 %
	 * off with rfc2544 --tests all (tools/wr-bench-eta): back-to-back's
	 * trials are bursts, not of a set length, and cost more at small
	 * frames. */
	struct wr_eta eta;
	uint64_t eta_gen_millipps;  /* rfc2544: the fastest b2b burst seen */
	const char *cur_test;       /* rfc2544: the test running, for the
				     * progress lines inside a trial */
	struct wr_latency *lat_hist;
	struct wr_latency_summary lat;
	struct wr_latency *rev_lat_hist;
	struct wr_latency_summary rev_lat;
	/* rtt: k streams side by side (rtt_idx, the first is stream), the
	 * same payloads, each its own frame sizes */
	unsigned int rtt_k;
	uint32_t rtt_idx[WR_RTT_CMP_MAX];
	struct wr_rtt_size *rtt_sizes_of[WR_RTT_CMP_MAX];
	struct wr_rtt_size *rtt_sizes; /* rtt_sizes_of[0] */
	unsigned int n_rtt_sizes;
	uint32_t rtt_stop;          /* the round-trip lcore's stop flag */
	struct wr_eta_fit rtt_fit;  /* ETA: the sizes done's p50 on frame bytes */
	double rtt_ns_per_byte;     /*   its slope, then */
	struct wr_rtt_ses *rtt_ses; /* the session: the caller's, or own */
	bool rtt_ses_own;
};

/**
 * Check what can be checked before EAL: the stream named, every size built
 * (with the signature the benchmark needs), the other stream of both
 * directions, rates and tolerances that compare without a link, the ports
 * named among @p n_ports (the profile's; 0: not known yet).
 * @param f  the stream file, borrowed until wr_bench_fini()
 * @return 0; -EINVAL with @p err naming the option or the file's line.
 */
int wr_bench_init(struct wr_bench *b, enum wr_bench_kind kind,
		  const struct wr_bench_opts *o, const struct wr_bench_hooks *h,
		  const struct wr_stream_file *f, unsigned int n_ports,
		  struct wr_error *err);

/**
 * Run the benchmark on @p e (open, its ports up, nothing loaded): its
 * trials, its log through the hooks, its results into @p r (freed with
 * wr_bench_result_free()).
 * @param cfg_path  the profile, for the results' metadata (may be NULL)
 * @param cfg_burst the profile's TX burst, for the generator's evidence
 * @return 0 (r->rc says whether it was cut short); a negative errno with
 *         @p err filled: -EINVAL a port or a rate the engine's ports refuse,
 *         else a trial the engine could not run.
 */
int wr_bench_run(struct wr_bench *b, struct wr_engine *e, const char *cfg_path,
		 uint32_t cfg_burst, struct wr_bench_result *r,
		 struct wr_error *err);

/**
 * rtt: use @p ses (wr_rtt_ses_open() on the stream's port, for frames as
 * large as the sweep's) and leave it open: a server keeps its port's
 * session, whose mbufs the port may hold, for the next rtt.  Without it
 * the benchmark opens its own and wr_bench_fini() closes it (and the port).
 */
void wr_bench_rtt_session(struct wr_bench *b, struct wr_rtt_ses *ses);

/** The largest frame the benchmark sends or has echoed (the ports are set
 * up for it: MTU, RX buffers), after wr_bench_init(). */
uint16_t wr_bench_max_frame(const struct wr_bench *b);

/** Release what the benchmark holds (not the stream file nor the engine). */
void wr_bench_fini(struct wr_bench *b);

/** The command of a benchmark @p kind ("sweep", "rfc2544", "rtt"), its
 * driver's name; NULL for no kind. */
const char *wr_bench_kind_name(enum wr_bench_kind kind);
/** The kind whose command is @p name.  @return 0, -ENOENT. */
int wr_bench_kind_find(const char *name, enum wr_bench_kind *kind);

/** The result's tables, as the CLI prints them after the log. */
void wr_bench_result_print(FILE *out, const struct wr_bench_result *r);
/** The CSV the CLI writes with --csv.  @return 0, -EIO. */
int wr_bench_result_csv(FILE *out, const void *r);
/** The JSON the CLI writes with --json.  @return 0, -EIO. */
int wr_bench_result_json(FILE *out, const void *r);
/**
 * The HTML report (tools/wr-report in @p tools_dir) of the JSON in the file
 * @p json, written to @p out.  @return 0, -ECHILD when the tool failed.
 */
int wr_bench_report_html(FILE *out, const char *json, const char *tools_dir);
void wr_bench_result_free(struct wr_bench_result *r);

#endif /* WR_BENCH_H */
