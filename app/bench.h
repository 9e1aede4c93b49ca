/* SPDX-License-Identifier: BSD-3-Clause */
/* bench: what wirerate sweep and wirerate rfc2544 share: one engine, one load per trial. */
#ifndef WR_APP_BENCH_H
#define WR_APP_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "wr_app.h"
#include "wr_bench.h"
#include "wr_config.h"
#include "wr_engine.h"

struct wr_bench {
	const struct wr_opts *o;
	struct wr_stream_file f;
	bool loaded;
	uint32_t stream;            /**< index of the stream run */
	bool latency;               /**< every trial carries signatures */
	struct wr_config cfg;
	const char *cfg_path;
	struct wr_engine *e;
	uint16_t sizes[WR_BENCH_SIZES_MAX];
	unsigned int n_sizes;
	char started_at[40];
	bool link_lost;             /**< a port's link went during a trial */
	struct wr_report_row port_row; /**< the stream's port, last trial */
	uint16_t rx_port;           /**< with latency: where echoes count */
	uint64_t rx_distinct;       /**< last trial: distinct frames back on rx_port */
	uint64_t rx_port_pkts;      /**< last trial: every frame rx_port received */
	uint64_t rx_bytes;          /**< last trial: bytes of the frames with a
				     *   signature back on rx_port, as received
				     *   (every segment, no FCS) */
	uint64_t rx_nic_pkts;       /**< last trial: rx_port's NIC ipackets (delta) */
	uint64_t rx_nic_bytes;      /**< last trial: rx_port's NIC ibytes (delta) */
	uint64_t rx_nic_missed;     /**< last trial: frames rx_port dropped that
				     *   wirerate did not take in time (imissed +
				     *   rx_nombuf, delta): the generator's */
	/* each port's NIC counters, cumulative since the engine opened */
	uint64_t nic_ipackets[WR_PORTS_MAX], nic_imissed[WR_PORTS_MAX]; /* imissed + rx_nombuf */
	uint64_t nic_ibytes[WR_PORTS_MAX];
	uint16_t tx_port;           /**< rfc2544: the pair running's TX port */
	/* rfc2544 --reverse-stream: both directions at once.  Each trial
	 * also sends this stream, at the same size, rate and length, from
	 * rx_port to the stream's port; what came back on the stream's port
	 * is counted apart. */
	bool bidir;
	uint32_t rev_stream;
	struct wr_report_row rev_row; /**< last trial: the reverse stream */
	uint64_t rev_distinct;      /**< last trial: its distinct frames back */
	uint64_t rev_port_pkts;     /**< last trial: every frame its RX port got */
	uint64_t rev_count;         /**< the reverse's frames when not 0 (its
				     *   own back-to-back burst), else the
				     *   trial's count */
	uint32_t phases;            /**< rfc2544: search phases */
	/* rfc2544's progress: trials done of about progress_est, since t0;
	 * on a terminal one status line redrawn in place. */
	bool progress_tty;
	uint32_t progress_done, progress_est;
	struct timespec progress_t0;
	/* rfc2544's latency trials: when lat_hist is set, each trial with
	 * the timestamp signature leaves rx_port's histogram of its frames
	 * there and its summary in lat. */
	struct wr_latency *lat_hist;
	struct wr_latency_summary lat;
	/* the same for the reverse direction's frames (back on the stream's
	 * port) when both directions run */
	struct wr_latency *rev_lat_hist;
	struct wr_latency_summary rev_lat;
	uint64_t first_trial_ns;    /**< rfc2544: the first phase's trials */
};

/** Stream file, stream, sizes, profile; every size built once (with a
 * signature when @p latency).  Prints; @return an exit code. */
int wr_bench_prepare(struct wr_bench *b, const struct wr_opts *o, bool latency,
		     const uint16_t *default_sizes, unsigned int n_default);
/** EAL, ports, signal handlers.  @return an exit code. */
int wr_bench_open(struct wr_bench *b);
/** The stream at one fixed size, unpaced, unlimited, no schedule. */
void wr_bench_stream_at(const struct wr_bench *b, uint16_t size,
			struct wr_stream *st);
/** The same for stream @p idx of the file. */
void wr_bench_stream_idx_at(const struct wr_bench *b, uint32_t idx,
			    uint16_t size, struct wr_stream *st);
/**
 * Load @p st alone, send until its duration (or count) ends, wait
 * @p drain_ns for echoes, collect its row into @p row, unload.
 * @return 0, -EINTR after a signal or a link loss (the row is still filled when the
 *         trial ran), or the engine's error (printed).
 */
int wr_bench_trial(struct wr_bench *b, struct wr_stream *st,
		   uint64_t drain_ns, struct wr_report_row *row);
bool wr_bench_interrupted(void);

/** The TX evidence of the trial of @p st that filled @p row (the stream's
 * port's lcores). */
void wr_bench_tx_of(const struct wr_bench *b, const struct wr_stream *st,
		    const struct wr_report_row *row, struct wr_txlimit_tx *tx);
/** stop_reason after the last trial returned @p rc: done, signal or link-down. */
const char *wr_bench_stop_reason(const struct wr_bench *b, int rc);
void wr_bench_meta(const struct wr_bench *b, struct wr_bench_meta *m,
		   uint16_t tx_port, const char *reason);
/** Write @p path atomically when it is not NULL.  Prints; @return an exit code. */
int wr_bench_write(const char *path, int (*fn)(FILE *, const void *),
		   const void *arg);
/**
 * Where the results' JSON goes: --json, else with --report beside the
 * report (OUT.html.json, in @p buf), else NULL.  Prints; @return 0 or
 * WR_EXIT_USAGE (the path too long).
 */
int wr_bench_json_path(const struct wr_opts *o, char *buf, size_t len,
		       const char **json);
/** tools/wr-report @p json into @p html.  Prints; @return an exit code. */
int wr_bench_report(const char *json, const char *html);
/**
 * A benchmark's outputs: --csv by @p csv_fn, the JSON (@p json, from
 * wr_bench_json_path()) by @p json_fn, then --report from that JSON.
 * Prints; @return the first failure's exit code, else WR_EXIT_OK.
 */
int wr_bench_outputs(const struct wr_opts *o, const char *json,
		     int (*csv_fn)(FILE *, const void *),
		     int (*json_fn)(FILE *, const void *), const void *arg);
void wr_bench_close(struct wr_bench *b);

#endif /* WR_APP_BENCH_H */
