/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_view: the stateful classes' counters as users read them: the JSON of run --json, stats.get, tcp.stats and the exporter; run's live lines and its summary. */
#ifndef WR_TCP_VIEW_H
#define WR_TCP_VIEW_H

/**
 * @file
 * The counters are the engine's (wr_tcp.h: per class and side, summed over
 * lcores and ports by lib/ctl/wr_session_tcp); this file only shows them,
 * and shows them one way everywhere:
 *
 *   wr_tcp_view_class_json()  a class: its rate and cap now, each side's
 *                             every counter by name (wr_tcp_counters_each,
 *                             one list for every output) and, when given,
 *                             its histograms as wr_latency summaries (ns);
 *   wr_tcp_view_port_json()   a port's engine counters by name;
 *   wr_tcp_view_rates()       what changed over an interval: connections
 *                             a second, goodput each way, retransmissions;
 *   wr_tcp_view_line()        run's live line of a class's side;
 *   wr_tcp_view_summary()     the end of a run: every counter, and the
 *                             histograms' min/median/p99/max.
 *
 * No EAL: unit-tested with counters of its own (test/test_tcp_view.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "wr_latency.h"
#include "wr_tcp.h"

/** One class as the control plane read it. */
struct wr_tcp_view_class {
	const char *name;
	bool has[2];                    /**< [enum wr_tcp_side] */
	const struct wr_tcp_counters *c; /**< [2] */
	/** [2][WR_TCP_HIST__COUNT], or NULL: no histograms asked. */
	const struct wr_latency (*hist)[WR_TCP_HIST__COUNT];
	bool stopped;
	uint64_t rate_milli;
	uint32_t concurrency;
};

/** What moved over one interval of a class's side. */
struct wr_tcp_view_rate {
	double cps;             /**< connections established a second */
	double attempts_ps;     /**< opened (SYNs first sent / taken) a second */
	double tx_mbps;         /**< payload sent first time, Mbit/s */
	double rx_mbps;         /**< payload received in order, Mbit/s */
	uint64_t rexmit_segs;   /**< segments sent again in the interval */
};

/** The names of the sides ("client", "server") and the histograms
 * ("handshake", "ttfb", "complete"), as every output spells them. */
const char *wr_tcp_view_side_name(enum wr_tcp_side side);
const char *wr_tcp_view_hist_name(enum wr_tcp_hist_id id);

/**
 * Class @p v as a JSON object: {"name", "stopped", "rate" (connections a
 * second asked now, 0: unpaced), "concurrency", "client": {...} or null,
 * "server": {...} or null}; a side holds every counter by name and, with
 * histograms, "histograms_ns": {"handshake": summary, ...}.
 * @return a new reference, NULL on ENOMEM.
 */
json_t *wr_tcp_view_class_json(const struct wr_tcp_view_class *v);

/** Port @p port's engine counters: {"port": N, and each by name}. */
json_t *wr_tcp_view_port_json(unsigned int port,
			      const struct wr_tcp_port_counters *p);

/** Every engine counter of @p p by name (as wr_tcp_counters_each). */
void wr_tcp_view_port_each(const struct wr_tcp_port_counters *p,
			   void (*put)(void *ctx, const char *name, uint64_t v),
			   void *ctx);

/** The rates from @p prev to @p cur over @p interval_ns (0: all zero). A
 * counter that went back (stats cleared) counts as unchanged. */
void wr_tcp_view_rates(const struct wr_tcp_counters *prev,
		       const struct wr_tcp_counters *cur, uint64_t interval_ns,
		       struct wr_tcp_view_rate *r);

/**
 * The live line of class @p name's side @p side into @p buf (no newline):
 * cps, concurrent, established, failed by reason, goodput each way,
 * retransmits.  @return what snprintf returns.
 */
int wr_tcp_view_line(char *buf, size_t len, const char *name,
		     enum wr_tcp_side side, const struct wr_tcp_counters *c,
		     const struct wr_tcp_view_rate *r);

/**
 * The end of a run for class @p v: per side a line of every counter that
 * is not zero (every one with @p all), and each histogram with samples:
 * count, min, median, p99, max.  @p elapsed_ns: the run's length, for the
 * averages (0: none printed).  @return 0, -EIO.
 */
int wr_tcp_view_summary(FILE *out, const struct wr_tcp_view_class *v,
			uint64_t elapsed_ns, bool all);

#endif /* WR_TCP_VIEW_H */
