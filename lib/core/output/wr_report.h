/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_report: live lines, the final summary and the JSON results, rendered from plain snapshots. */
#ifndef WR_REPORT_H
#define WR_REPORT_H

/**
 * @file
 * The stats lcore takes snapshots of the per-lcore counters, sums them per
 * stream and per port into a struct wr_report_view, and hands the view to
 * these functions.  They know nothing of DPDK, so their arithmetic and layout
 * are unit-tested without EAL.
 *
 * Units: counters are frames and bytes (FCS included); times are
 * nanoseconds.  Rates: Kpps, Mbps at L2 (frame bytes) and at L1 (frame bytes
 * + 20 per frame, see wr_stats.h).
 *
 * Thread: the stats lcore only.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "wr_clock.h"
#include "wr_config.h"
#include "wr_filter.h"
#include "wr_latency.h"
#include "wr_out.h"
#include "wr_stats.h"

#define WR_REPORT_NAME_MAX 128

/** One RX queue of a port: which lcore polls it and how busy it is. */
struct wr_report_rxq {
	uint16_t queue;
	unsigned int lcore;
	uint64_t rx_pkts;
	uint64_t polls;             /**< rx_burst calls */
	uint64_t busy_polls;        /**< those that returned frames */
	uint64_t busy_ns;           /**< spent on them, accounting included */
	uint64_t active_ns;         /**< the lcore's time since it started */
};

/** One rx_classes class on one port. */
struct wr_report_class {
	uint64_t pkts, bytes;       /**< bytes as received, FCS excluded */
	uint64_t last_pkts, last_bytes; /**< at the previous report */
};

/** One row: a stream or a port. */
struct wr_report_row {
	char name[WR_REPORT_NAME_MAX];
	uint16_t port;              /**< port index (for streams) */
	struct wr_counters total;   /**< since the start */
	struct wr_counters last;    /**< at the previous report */
	uint64_t duration_ns;       /**< time the row has been sending */
	uint64_t seed;              /**< streams only */
	uint16_t size_min, size_max; /**< streams only, FCS included */
	double target_kpps;         /**< streams with a set rate; 0: maximum */
	/** Streams from hosts (`src: hosts.NAME`): the group, "" for none,
	 * the hosts the stream sends from and those skipped (not up). */
	char hosts_group[32];
	uint32_t hosts_from;
	uint32_t hosts_skipped;
	uint64_t pacer_skipped;     /**< frames the pacer gave up after stalls */
	/* Ports only: what the NIC itself counted (rte_eth_stats). */
	bool has_nic;
	uint64_t nic_opackets;
	uint64_t nic_obytes;
	uint64_t nic_oerrors;
	uint64_t nic_ipackets;
	uint64_t nic_ibytes;
	uint64_t nic_imissed;
	uint64_t nic_ierrors;
	uint64_t nic_rx_nombuf;     /**< RX mbuf allocation failures */
	uint64_t nic_last_missed;   /**< imissed + rx_nombuf at the previous report */
	uint32_t link_speed_mbps;   /**< 0 when unknown */
	/* Ports only, final: the time of the lcores that sent on it. */
	struct wr_thread_usage tx_usage;
	/* Ports only: the link went away during the run (a peer left, the
	 * device was removed); the NIC counters are then the last reading
	 * taken before it went, not a count of the whole run. */
	bool link_lost;
	uint64_t link_lost_ns;      /**< when, from the start of sending */
	uint64_t link_lost_tx_pkts; /**< wirerate's TX count for the port then */
	/* Echoes (streams with a latency signature; ports that poll RX). */
	bool has_rx;
	uint64_t rx_pkts;           /**< streams: frames back; ports: every frame received */
	uint64_t rx_last;           /**< rx_pkts at the previous report */
	uint64_t lost;              /**< sent - distinct received (in flight counts until the end) */
	uint64_t reordered;
	uint64_t duplicated;
	uint64_t rx_foreign;        /**< ports: frames without our signature */
	uint64_t rx_bad_sig;        /**< ports: signature of an unknown stream */
	bool rx_hwts;               /**< ports: RX times from hardware stamps */
	uint64_t rx_hw_stamped;     /**< ports: signature frames timed by a stamp */
	uint64_t rx_bytes;          /**< ports: bytes of signature frames received */
	/* Ports: their RX queues (rx_lcores) and rx_classes counts. */
	unsigned int n_rxq;
	struct wr_report_rxq rxq[WR_PORT_LCORES_MAX];
	struct wr_report_class cls[WR_RX_CLASSES_MAX];
	struct wr_latency_summary lat;
	/* Streams sent in trains (`bursts:`): the interval from one train's
	 * first frame to the next's, as the TX lcore saw the NIC take them. */
	uint32_t train_frames;      /**< frames per train; 0: continuous */
	uint64_t train_nominal_ns;  /**< the schedule's interval */
	struct wr_latency_summary train_gaps; /**< measured intervals, ns */
	/* Replayed streams (pcap: or frame:, doc/replay.md). */
	bool has_replay;
	char replay_file[256];      /**< the capture as resolved; "" for frame: */
	char replay_sha256[65];     /**< hex digest of the capture file */
	uint64_t replay_frames;     /**< frames per pass */
	uint64_t replay_loops;      /**< passes asked, 0 = for ever */
	bool replay_timed;          /**< timing: capture */
	double replay_speedup;
	uint64_t replay_stalls;     /**< times the schedule moved after a stall */
	uint64_t replay_stall_ns;   /**< by how much in total */
	struct wr_latency_summary replay_gap_err; /**< |departure gap - capture gap|, ns */
	struct wr_latency_summary replay_late;    /**< departure - deadline, ns */
	/** The lateness of frames whose lcore polled the lane without a gap
	 * from their deadline to their departure. */
	struct wr_latency_summary replay_late_polled;
	uint64_t replay_late_away;  /**< frames that waited through a gap */
	uint64_t replay_away_n;     /**< poll gaps over WR_REPLAY_AWAY_NS */
	uint64_t replay_away_ns;    /**< their total, summed over lanes */
	uint64_t replay_away_max_ns;
	uint64_t replay_polled_ns;  /**< the lanes' time sending, summed */
	char driver[64];
	char device[WR_REPORT_NAME_MAX];
	uint16_t port_id;
};

/**
 * Whether @p r's rates mean something: two frames or more over 1 ms or
 * more.  Otherwise the summary prints "-" and the JSON null.
 */
bool wr_report_rate_measured(const struct wr_report_row *r);

/** A capture's outcome (--capture), for the summary and the JSON. */
struct wr_report_capture {
	unsigned int port;
	const char *dir;            /**< "rx", "tx", "both" */
	char file[1024];            /**< the last file written */
	const char *filter;         /**< NULL: every frame */
	uint32_t files;             /**< files completed */
	uint64_t seen;              /**< frames that passed the filter */
	uint64_t written;           /**< frames in the files */
	uint64_t bytes;             /**< bytes in the files */
	uint64_t dropped;           /**< frames the capture could not keep */
	uint64_t over_limit;        /**< frames after its limit */
	int error;                  /**< 0, or the errno that ended it */
};

/** The capture lines of the summary ("capture 0: ..."). */
void wr_report_captures(FILE *out, const struct wr_report_capture *c,
			unsigned int n);

/** Metadata of the run, for the header line and the JSON. */
struct wr_report_meta {
	const char *wirerate_version;
	const char *dpdk_version;   /**< "" when the run did not start EAL */
	const char *stream_file;
	char stream_sha256[65];     /**< hex */
	const char *config_file;    /**< "" when none */
	uint64_t seed;
	unsigned int main_lcore;
	unsigned int tx_lcores[128];
	unsigned int n_tx_lcores;
	char started_at[40];        /**< ISO 8601 UTC */
	const char *stop_reason;    /**< "duration", "count", "signal" */
	char *const *eal_args;
	unsigned int n_eal_args;
	/** The TSC's calibration the run's times and rates were computed
	 * with (wr_clock.h); the JSON's "tsc", null without has_tsc. */
	struct wr_tsc_cal tsc;
	bool has_tsc;
	/** More members for the results file, each introduced by ",\n  "
	 * (run --repeat: wr_rep_json_more() writes "repeats" and "summary");
	 * NULL: none.  @return 0 or a negative errno. */
	int (*json_more)(FILE *out, const void *arg);
	const void *json_more_arg;
	/** run --capture: each capture's outcome (JSON "captures"). */
	const struct wr_report_capture *captures;
	unsigned int n_captures;
};

struct wr_report_view {
	struct wr_report_row *ports;
	unsigned int n_ports;
	struct wr_report_row *streams;
	unsigned int n_streams;
	uint64_t elapsed_ns;        /**< since TX started */
	uint64_t interval_ns;       /**< since the previous report */
	/** rx_classes, in counting order (ports' cls[] follow it). */
	const char *const *class_names;
	unsigned int n_classes;
};

/**
 * Frames port row @p r's device dropped because wirerate did not take
 * them in time: its RX ring was full (imissed) or wirerate's RX pool was
 * empty (rx_nombuf).  The generator's limit, never the device's loss;
 * 0 for a port not polled for RX.
 */
static inline uint64_t
wr_report_rx_missed(const struct wr_report_row *r)
{
	return r->has_rx && r->has_nic ? r->nic_imissed + r->nic_rx_nombuf : 0;
}

/** Whether any port of @p v missed received frames (the generator's limit). */
bool wr_report_gen_limited(const struct wr_report_view *v);

/** The header: what the columns mean, once at the start. */
void wr_report_header(FILE *out, const struct wr_report_meta *meta,
		      const struct wr_report_view *v);

/**
 * One report: a line per port and per stream with the interval's Kpps,
 * Mbps L2 and Mbps L1 and the totals.  On a terminal (@p tty) the previous
 * report is overwritten in place; in a pipe every report is printed in full,
 * each line prefixed with the elapsed time.  Copies total into last.
 * @p lines_before is the number of lines the previous call printed (0 on the
 * first call); @return the number of lines printed.
 */
unsigned int wr_report_interval(FILE *out, struct wr_report_view *v, bool tty,
				unsigned int lines_before);

/**
 * The final summary over the whole run: one line per port and stream, what
 * the run's blocks say (targets, trains, replay, echoes, RX, the NICs), and
 * last a "counters of port N: ..." / "counters of stream NAME: ..." line
 * per row with every counter of the table that is not 0 (grouped ones as
 * group_key, as telemetry writes them; "all 0" when none).
 */
void wr_report_final(FILE *out, const struct wr_report_meta *meta,
		     const struct wr_report_view *v);

/**
 * Write the JSON results to @p path through a temporary file renamed into
 * place, so a failure never leaves a truncated file.
 * @return 0 or a negative errno.
 */
int wr_report_json(const char *path, const struct wr_report_meta *meta,
		   const struct wr_report_view *v);

/** Same as wr_report_json, to an open stream (tests).
 * @return 0, or -EIO when writing to @p out failed. */
int wr_report_json_write(FILE *out, const struct wr_report_meta *meta,
			 const struct wr_report_view *v);

/** Hex of a 32-byte digest into @p hex (65 bytes). */
void wr_report_hex(const uint8_t digest[32], char hex[65]);

/**
 * The counters of a row (wr_counter.def) over an interval rather than the
 * whole run (--stats-jsonl): rates from the row's counters at its start.
 */
struct wr_report_span {
	const struct wr_counters *tx_base;
	const struct wr_report_class *cls_base; /**< ports: n_classes */
	uint64_t ns;
};

/**
 * Row @p r of @p v (a stream's when @p stream) as a JSON object through
 * @p s: what it is, its rates (over @p span, or over the run when NULL:
 * with its duration_s, null rates when not measured), every counter of
 * the table, then its receive side, trains, replay and latency.  The one
 * writer of a row: the results JSON, the --stats-jsonl lines and the
 * server's stats.get all call it.
 */
void wr_report_row_emit(const struct wr_sink *s, const struct wr_report_view *v,
			const struct wr_report_row *r, bool stream,
			const struct wr_report_span *span);

/**
 * The results document (wr_report_json_write()'s, without json_more) as a
 * jansson tree: the server's stats.get.  @return it, or NULL on ENOMEM.
 */
json_t *wr_report_tree(const struct wr_report_meta *meta,
		       const struct wr_report_view *v);

/* ---- the counter table (wr_counter.def) ----
 *
 * One table (wr_counter.def) names every counter of a port or stream row:
 * its key, the group it sits in, the rows it belongs to, when it is
 * written, its type, where it lives in struct wr_report_row, its Prometheus
 * name and what it means.  The results JSON, the --stats-jsonl lines, the
 * server's stats.get answer, DPDK telemetry and the Prometheus exporter (from
 * the description stats.get sends) are all written from it, so a counter is
 * added once and every output has it.
 *
 * Outputs write through a struct wr_sink (wr_out.h): JSON text, a jansson
 * tree (the server's answers: no text parsed back) or, above the core,
 * DPDK telemetry's dictionaries.
 *
 */

/** Rows a counter belongs to. */
enum {
	WR_CTR_PORT = 1,
	WR_CTR_STREAM = 2,
};

/** When a counter is written. */
enum wr_ctr_when {
	WR_CTR_WHEN_ALL,
	WR_CTR_WHEN_RX,      /**< rows with has_rx */
	WR_CTR_WHEN_NIC,     /**< ports with has_nic */
};

enum wr_ctr_type {
	WR_CTR_U64,          /**< a counter */
	WR_CTR_F3,           /**< a figure, 3 decimals (a gauge) */
};

union wr_ctr_val {
	uint64_t u;
	double d;
};

/** One line of wr_counter.def. */
struct wr_ctr {
	const char *key;
	const char *group;       /**< "" or the enclosing object's key */
	unsigned int scope;      /**< WR_CTR_PORT | WR_CTR_STREAM */
	enum wr_ctr_when when;
	enum wr_ctr_type type;
	size_t off;              /**< FIELD: offset in the row; SIZE_MAX: CALC */
	const char *metric;      /**< Prometheus name after "wirerate_" */
	const char *help;
	void (*get)(const struct wr_report_row *r, union wr_ctr_val *v);
};

extern const struct wr_ctr wr_ctrs[];
extern const unsigned int wr_n_ctrs;

/** Whether @p c is written for row @p r (a stream row when @p stream). */
bool wr_ctr_applies(const struct wr_ctr *c, const struct wr_report_row *r,
		    bool stream);

/**
 * @p r minus the baseline @p b, counter by counter (stats.clear): every
 * FIELD counter of the table, saturating at 0 (lost shrinks as frames in
 * flight arrive); NIC counters only when both rows read the device.
 */
void wr_ctr_row_sub(struct wr_report_row *r, const struct wr_report_row *b);

/**
 * The counters of the table for row @p r at the row's level (no group
 * object): the flat outputs (telemetry) write group_key for a grouped one.
 * @p group_objects: write grouped counters inside their group's object
 * (JSON) rather than flat.
 */
void wr_ctr_emit(const struct wr_sink *s, const struct wr_report_row *r,
		 bool stream, bool group_objects);

/**
 * The table's description for the Prometheus exporter (stats.get
 * {"counters": true}): [{"key", "group", "scope": ["port", "stream"],
 * "type": "counter"|"gauge", "metric", "help"}].  @return NULL on ENOMEM.
 */
json_t *wr_ctr_describe(void);

#endif /* WR_REPORT_H */
