/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_out: result files written whole or not at all, and JSON strings. */
#ifndef WR_OUT_H
#define WR_OUT_H

/**
 * @file
 * Every results file wirerate writes (--json, --csv of run, sweep,
 * rfc2544, rtt) goes through wr_out_atomic(): the content is written to a
 * temporary file beside the target, flushed, synced, and renamed over the
 * target only when complete, so a failure (a full disk, a signal) never
 * leaves a truncated file.  The live --stats-jsonl log is the exception: it
 * is appended line by line.
 *
 * Threads: any; no global state.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/**
 * Write @p path through @p fn, which writes the content to the stream it is
 * given and returns 0 or a negative errno.
 * @return 0, or a negative errno (fn's, or of the file operations); the
 *         target is then untouched and no temporary file is left.
 */
int wr_out_atomic(const char *path, int (*fn)(FILE *out, const void *arg),
		  const void *arg);

/**
 * Check, before anything starts, that wr_out_atomic() (or an append log)
 * can write @p path: not a directory, writable if it exists, and a
 * temporary file can be created beside it (created and removed).
 * @return 0; -EISDIR; -ENOENT (no such directory); -EACCES, -EROFS, ...
 */
int wr_out_check(const char *path);

/**
 * @p s as a JSON string (NULL: null) that is valid UTF-8 whatever @p s
 * holds: the escapes RFC 8259 requires, DEL, each byte that is not part of
 * well-formed UTF-8 as \u00XX, and U+2028/U+2029 escaped for line readers.
 */
void wr_out_json_str(FILE *out, const char *s);

/**
 * What every results file says first: which schema, which builds, which
 * files and seed, when and why it ended.  NULL strings (and has_seed
 * false) are left out: each file writes the keys its schema has.
 */
struct wr_out_head {
	const char *schema;            /**< "wirerate-results/1" */
	const char *wirerate_version;
	const char *dpdk_version;
	const char *stream_file;
	const char *stream_sha256;     /**< hex digest of the stream file */
	const char *stream;            /**< the one stream a benchmark sends */
	const char *config_file;
	bool has_seed;
	uint64_t seed;
	const char *started_at;        /**< ISO 8601 UTC */
	const char *finished_at;
	const char *stop_reason;
};

/**
 * Open a results file's JSON object with @p h's keys, in this order, one a
 * line ("{\n  \"schema\": ..."); the caller goes on with ",\n  \"key\": "
 * and closes the object.  The one writer of the head of run, sweep,
 * rfc2544 and rtt results.
 */
void wr_out_json_head(FILE *out, const struct wr_out_head *h);

#endif /* WR_OUT_H */
