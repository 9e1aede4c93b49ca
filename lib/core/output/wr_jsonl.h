/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_jsonl: the live statistics log, one JSON object per stats interval (--stats-jsonl). */
#ifndef WR_JSONL_H
#define WR_JSONL_H

/**
 * @file
 * A run with `--stats-jsonl FILE` appends one line per stats interval, each
 * a complete JSON object (JSON Lines), flushed as soon as it is written so
 * `tail -f FILE | jq` follows the run:
 *
 *     {"t": 1795392000.123456, "elapsed_s": 1.000012, "interval_s": 1.000012,
 *      "final": false, "ports": [ROW, ...], "streams": [ROW, ...]}
 *
 * Each ROW is the --json results' row, written by wr_report_row_emit()
 * from the counter table (wr_counter.def): what the row is, its rates, every
 * counter of the table it has, then a polled port's rx_queues and
 * rx_classes, a stream's trains, replay and latency_ns.  Counters are
 * totals since the start; kpps/mbps_* are the interval's rates (counter
 * difference over interval_s, a class's too).  The last line of a run has
 * "final": true and carries the same rows as the --json results: each
 * row's duration_s and the rates over it.
 *
 * The file is written in place, not to a temporary renamed at the end as
 * the --json results are: it is a live log, and a run cut short still
 * leaves every complete line it wrote.  An existing file is truncated; a
 * path that is not a regular file is refused (wr_out_log_open()).  A line
 * that cannot be written (a full disk) makes the log incomplete: it is
 * removed when closed, and close returns the error.
 *
 * Threads: the stats lcore only.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wr_report.h"

struct wr_jsonl {
	FILE *f;
	char *path;                /**< opened by wr_jsonl_open: closed by close */
	int err;                   /**< the first write error, 0 if none */
	unsigned int n_ports;
	unsigned int n_streams;
	struct wr_counters *prev;  /**< ports, then streams: at the last line */
	struct wr_report_class *prev_cls; /**< ports x WR_RX_CLASSES_MAX */
	uint64_t prev_ns;          /**< elapsed_ns at the last line */
	/** Members of the line after "streams" (`, "hosts": [...]` of run
	 * with hosts: doc/hosts.md), on the same line; set after open.
	 * NULL: none.  @return 0 or a negative errno. */
	int (*more)(FILE *out, const void *arg);
	const void *more_arg;
};

/**
 * Open (create or truncate) @p path for @p n_ports ports and @p n_streams
 * streams.  @return 0, -ENOMEM, or wr_out_log_open()'s errors.
 */
int wr_jsonl_open(struct wr_jsonl *j, const char *path, unsigned int n_ports,
		  unsigned int n_streams);

/** Same, writing to an open stream @p f that stays the caller's (tests).
 * @return 0 or -ENOMEM. */
int wr_jsonl_open_stream(struct wr_jsonl *j, FILE *f, unsigned int n_ports,
			 unsigned int n_streams);

/**
 * Append one line for the view @p v (v->elapsed_ns since TX started), at
 * wall-clock time @p wall_ns (ns since the Unix epoch).  @p final: the run's
 * last line (whole-run rates, as in the --json results).
 * @return 0, or the negative errno of the first line that could not be
 *         written or flushed (-ENOSPC, -EIO, ...).
 */
int wr_jsonl_write(struct wr_jsonl *j, const struct wr_report_view *v,
		   uint64_t wall_ns, bool final);

/**
 * Close the file (when wr_jsonl_open opened it; removed when a line could
 * not be written) and free.
 * @return 0, the error of the first line not written, or of the close.
 */
int wr_jsonl_close(struct wr_jsonl *j);

#endif /* WR_JSONL_H */
