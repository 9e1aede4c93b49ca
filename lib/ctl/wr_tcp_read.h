/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_read: a session's stateful classes read through wr_session_tcp and shown by wr_tcp_view, for the server (stats.get, tcp.*) and `wirerate run` (its lines, summary, --json, --stats-jsonl). */
#ifndef WR_TCP_READ_H
#define WR_TCP_READ_H

/**
 * @file
 * One reader so that every output of a run's TCP agrees: the same classes
 * in the same order, the same names (wr_tcp_view.h).  The control thread
 * only (the server's, or run's main lcore): it keeps the previous
 * interval's counters for the live lines.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "wr_session.h"
#include "wr_session_tcp.h"
#include "wr_tcp_view.h"

/**
 * stats.clear's baseline: every class's counters and histograms and every
 * engine's counters as they were, taken out of what is read after (the
 * lcores' counters are never written by the control plane).
 */
struct wr_tcp_read_base {
	unsigned int n;                      /**< classes in @c cls */
	struct wr_tcp_class_stats *cls;      /**< n, with histograms (heap) */
	struct wr_tcp_port_counters ports[WR_PORTS_MAX];
};

/**
 * Take @p b now (what it held before is freed).
 * @return 0, -ENOMEM (@p b then empty: nothing subtracted).
 */
int wr_tcp_read_base_take(const struct wr_session *s, unsigned int n_ports,
			  struct wr_tcp_read_base *b);
void wr_tcp_read_base_free(struct wr_tcp_read_base *b);

/**
 * Class @p i of @p s as wr_tcp_view_class_json() writes it (@p hist: with
 * its histograms), less @p base (NULL: none; wr_tcp_counters_sub(),
 * wr_latency_sub()).  @return a new reference; NULL with @p *rc -ENOENT
 * (no such class) or -ENOMEM.
 */
json_t *wr_tcp_read_class_json(const struct wr_session *s, unsigned int i,
			       bool hist, const struct wr_tcp_read_base *base,
			       int *rc);

/**
 * The session's "tcp" object: {"classes": [each class], "ports": [each
 * port of @p n_ports with a TCP engine: its counters]}, less @p base (NULL:
 * none).  NULL when the loaded file has no tcp: classes (or on ENOMEM).
 */
json_t *wr_tcp_read_json(const struct wr_session *s, unsigned int n_ports,
			 bool hist, const struct wr_tcp_read_base *base);

/** Run's live lines: the counters of the previous interval. */
struct wr_tcp_lines {
	struct wr_tcp_counters prev[WR_TCP_CLASSES_MAX][2];
};

/**
 * A line per class and side (wr_tcp_view_line()) for the interval of
 * @p interval_ns since the last call, each after @p prefix.
 * @return the lines written.
 */
unsigned int wr_tcp_read_lines(const struct wr_session *s,
			       struct wr_tcp_lines *l, uint64_t interval_ns,
			       const char *prefix, FILE *out);

/** The end of a run: wr_tcp_view_summary() of every class, then each
 * port's engine counters that are not zero.  @return 0, -ENOMEM, -EIO. */
int wr_tcp_read_summary(const struct wr_session *s, unsigned int n_ports,
			uint64_t elapsed_ns, FILE *out);

#endif /* WR_TCP_READ_H */
