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
 * A file written piece by piece (a capture) that appears under its name
 * only when complete: wr_out_tmp_open() creates a temporary file beside
 * @p path, the caller writes to fd, wr_out_tmp_commit() syncs it and
 * renames it into place, wr_out_tmp_abort() removes it.  wr_out_atomic()
 * is these three around a stream.
 */
struct wr_out_tmp {
	int fd;                     /**< -1 when not open */
	char tmp[4096];
	char path[4096];
};

/** @return 0 or a negative errno (-ENAMETOOLONG, mkstemp's). */
int wr_out_tmp_open(struct wr_out_tmp *o, const char *path);

/**
 * fsync, close, make the file 0644 and rename it over the target.
 * @return 0 or a negative errno; the temporary is removed on failure.
 */
int wr_out_tmp_commit(struct wr_out_tmp *o);

/** Close and remove the temporary file.  Safe when not open. */
void wr_out_tmp_abort(struct wr_out_tmp *o);

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

#endif /* WR_OUT_H */
