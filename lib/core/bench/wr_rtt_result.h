/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rtt_result: the round-trip sweep's sizes and its results as a table, CSV and JSON. */
#ifndef WR_RTT_RESULT_H
#define WR_RTT_RESULT_H

/**
 * @file
 * `wirerate rtt` sends one frame at a time and waits for it to come back,
 * for each UDP payload size of a sweep (the raw-Ethernet vs UDP study's
 * 50..1500 step 50, 100000 round trips each).  This module is the part
 * without EAL: which sizes are measured and how results are written.
 *
 * Sizes.  A payload size is the number of UDP payload bytes, the
 * signature's 24 included (wr_sig.h).  The frame size is payload + 42
 * (Ethernet 14, IPv4 20, UDP 8; 46 with an 802.1Q tag) + 4 (FCS), at least
 * 64 (IEEE 802.3 minimum; the Ethernet padding is then not UDP payload).
 * A payload below WR_SIG_LEN is raised to it: the frame must carry the
 * signature to be recognised when it comes back.
 *
 * Output.  Times in the table and CSV are microseconds with two decimals;
 * in JSON nanoseconds, as wirerate-results/1 does.  CSV and JSON are written
 * to a temporary file in the same directory and renamed when complete, so a
 * reader never sees half a file.
 *
 * Threads: any; nothing is shared.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wr_clock.h"
#include "wr_latency.h"

/** Sizes a sweep may hold: 50..1500 step 1 is 1451. */
#define WR_RTT_SIZES_MAX 10000

/** One payload size of the sweep. */
struct wr_rtt_size {
	uint32_t payload;   /**< UDP payload bytes sent (after raising) */
	uint32_t asked;     /**< what the sweep asked for */
	uint32_t frame;     /**< frame size, FCS included */
};

/** The measured result of one size. */
struct wr_rtt_row {
	struct wr_rtt_size size;
	uint64_t sent;      /**< frames handed to the NIC */
	uint64_t lost;      /**< round trips that timed out (or never left) */
	uint64_t late;      /**< echoes of timed-out round trips that came later */
	uint64_t foreign;   /**< frames received that were not our echoes */
	struct wr_latency_summary rtt; /**< n = round trips completed */
};

/** What the JSON file says about the run besides the rows. */
struct wr_rtt_meta {
	const char *wirerate_version;
	const char *dpdk_version;
	const char *stream_file;
	const char *stream_name;
	const char *config_file;
	const char *device;
	const char *started_at;     /**< ISO 8601 UTC */
	const char *stop_reason;    /**< "done", "signal" or "link-down" */
	/** link-down: the payload whose size the link went in (not
	 * reported, 0: none) and the payloads not measured, in order. */
	uint32_t stopped_in;
	const struct wr_rtt_size *not_measured;
	unsigned int n_not_measured;
	uint64_t count;             /**< round trips asked per size */
	uint64_t timeout_ns;
	/** The TSC's calibration (wr_clock.h): the JSON's "tsc", null
	 * without has_tsc. */
	struct wr_tsc_cal tsc;
	bool has_tsc;
};

/**
 * The sizes of a sweep FROM..TO by STEP.
 * @param from, to, step  payload sizes; step >= 1, from <= to
 * @param hdr             header bytes before the payload (the stream's
 *                        stack: wr_stream_hdr_len(); 42 for Ethernet/IPv4/UDP)
 * @param out             receives the sizes, @p cap of them at most
 * @param n_out           how many
 * @param n_raised        how many were below WR_SIG_LEN and raised (a size
 *                        raised to one already in the sweep is dropped)
 * @return 0; -EINVAL (step 0, from > to, a frame above WR_FRAME_MAX);
 *         -E2BIG (more than @p cap sizes)
 */
int wr_rtt_sizes(uint32_t from, uint32_t to, uint32_t step, uint32_t hdr,
		 struct wr_rtt_size *out, unsigned int cap, unsigned int *n_out,
		 unsigned int *n_raised);

/**
 * Parse "FROM:TO:STEP" or a single "SIZE" (decimal payload bytes).
 * @return 0 or -EINVAL (@p why says what is wrong)
 */
int wr_rtt_parse_sizes(const char *s, uint32_t *from, uint32_t *to,
		       uint32_t *step, char *why, size_t why_len);

/** The table's column headings (two lines). */
void wr_rtt_table_header(FILE *out);

/** One table line. */
void wr_rtt_table_row(FILE *out, const struct wr_rtt_row *r);

/** Write the CSV (one header line, one line per row) to an open stream.
 * @return 0, or -EIO when writing to @p out failed. */
int wr_rtt_csv_write(FILE *out, const struct wr_rtt_row *rows, unsigned int n);

/** Write the JSON (schema "wirerate-rtt/1") to an open stream.
 * @return 0, or -EIO when writing to @p out failed. */
int wr_rtt_json_write(FILE *out, const struct wr_rtt_meta *m,
		      const struct wr_rtt_row *rows, unsigned int n);

/**
 * Write the CSV / JSON to @p path atomically (temporary file, rename).
 * @return 0 or a negative errno (-ENAMETOOLONG, -EIO, from open/rename)
 */
int wr_rtt_csv(const char *path, const struct wr_rtt_row *rows, unsigned int n);
int wr_rtt_json(const char *path, const struct wr_rtt_meta *m,
		const struct wr_rtt_row *rows, unsigned int n);

/*
 * Side by side (rtt --stream raw,udp): @p k streams measured at the same
 * payload sizes, rows[i * k + j] the result of stream j at size i, as the
 * raw-Ethernet vs UDP study printed them: per payload size ("#octets")
 * each stream's average round trip, then each one's p99, lost and frame
 * size.  CSV: payload_bytes, NAME_avg_us per stream, then the other
 * columns of the one-stream CSV prefixed NAME_.  JSON: schema
 * "wirerate-rtt-compare/1", "streams": [names], each size an object with
 * payload_bytes, asked_bytes and, under each stream's name, the members a
 * one-stream size has.
 */
/** Maximum streams side by side. */
#define WR_RTT_CMP_MAX 8

void wr_rtt_cmp_header(FILE *out, const char *const *names, unsigned int k);
void wr_rtt_cmp_row(FILE *out, const struct wr_rtt_row *rows, unsigned int k);
int wr_rtt_cmp_csv_write(FILE *out, const char *const *names, unsigned int k,
			 const struct wr_rtt_row *rows, unsigned int n);
int wr_rtt_cmp_json_write(FILE *out, const struct wr_rtt_meta *m,
			  const char *const *names, unsigned int k,
			  const struct wr_rtt_row *rows, unsigned int n);
/** Atomically, as wr_rtt_csv() / wr_rtt_json(). */
int wr_rtt_cmp_csv(const char *path, const char *const *names, unsigned int k,
		   const struct wr_rtt_row *rows, unsigned int n);
int wr_rtt_cmp_json(const char *path, const struct wr_rtt_meta *m,
		    const char *const *names, unsigned int k,
		    const struct wr_rtt_row *rows, unsigned int n);

#endif /* WR_RTT_RESULT_H */
