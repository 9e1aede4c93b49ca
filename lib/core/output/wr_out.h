/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_out: the files wirerate writes: whole or not at all, never over an input, a device or each other; JSON strings. */
#ifndef WR_OUT_H
#define WR_OUT_H

/**
 * @file
 * The rules for every file wirerate writes, in one place.
 *
 * Results (--json, --csv of run, sweep, rfc2544, rtt, the --report HTML
 * and its JSON, dump --pcap) go through wr_out_atomic(): the content is
 * written to a temporary file beside the target (created O_EXCL with mode
 * 0666, so the umask decides the final mode as for any created file),
 * flushed, synced, and renamed over the target only when complete, so a
 * failure (a full disk, a signal) leaves neither a truncated file nor the
 * temporary, and the old file, if any, stays as it was.  The live
 * --stats-jsonl log is written in place, line by line
 * (wr_out_log_open()); a failure removes it (wr_out_log_close()).
 *
 * Before anything starts, wr_out_check_files() checks every file a
 * command reads and writes: each output must be a regular file's path (a
 * device, a FIFO, a socket or a directory is refused: renaming over it
 * would replace it, and /dev/null replaced by a file breaks the machine),
 * writable, and no other file of the command: not an input (the stream
 * file, the profile, a replayed capture) and not another output.  Files
 * that exist are compared by device and inode (a link or another spelling
 * of a path is the same file), paths that do not exist yet by their
 * resolved directory and name.
 *
 * Threads: any; no global state.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/**
 * Write @p path through @p fn, which writes the content to the stream it is
 * given and returns 0 or a negative errno.  A @p path that is (or has
 * become) something other than a regular file is not replaced.
 * @return 0, or a negative errno (fn's, or of the file operations; -ENODEV:
 *         @p path is a device, a FIFO or a socket, -EISDIR: a directory);
 *         the target is then untouched and no temporary file is left.
 */
int wr_out_atomic(const char *path, int (*fn)(FILE *out, const void *arg),
		  const void *arg);

/**
 * A file written piece by piece (a capture) that appears under its name
 * only when complete: wr_out_tmp_open() creates a temporary file beside
 * @p path (as wr_out_atomic() does), the caller writes to fd,
 * wr_out_tmp_commit() syncs it and renames it into place (never over
 * something that is not a regular file), wr_out_tmp_abort() removes it.
 * wr_out_atomic() is these three around a stream.
 */
struct wr_out_tmp {
	int fd;                     /**< -1 when not open */
	char tmp[4096 + 8];
	char path[4096];
};

/** @return 0 or a negative errno (-ENAMETOOLONG, open's). */
int wr_out_tmp_open(struct wr_out_tmp *o, const char *path);

/**
 * fsync, close and rename the file over the target.
 * @return 0 or a negative errno (-ENODEV, -EISDIR: the target is not a
 *         regular file); the temporary is removed on failure.
 */
int wr_out_tmp_commit(struct wr_out_tmp *o);

/** Close and remove the temporary file.  Safe when not open. */
void wr_out_tmp_abort(struct wr_out_tmp *o);

/**
 * Check, before anything starts, that wr_out_atomic() (or a log) can write
 * @p path: a regular file if it exists, writable, and a temporary file can
 * be created beside it (created and removed).
 * @return 0; -EISDIR (a directory); -ENODEV (a device, a FIFO, a socket);
 *         -ENOENT (no such directory); -EACCES, -EROFS, ...
 */
int wr_out_check(const char *path);

/** How a command uses a file (wr_out_check_files()). */
enum wr_out_use {
	WR_OUT_INPUT,    /**< read: never written */
	WR_OUT_REPLACE,  /**< written whole: wr_out_atomic() */
	WR_OUT_LOG,      /**< written in place: wr_out_log_open() */
	WR_OUT_FOREIGN,  /**< written in place by another's code (net_pcap's
			      tx_pcap, through libpcap): checked as a log,
			      a regular file or a new one (a FIFO hung the
			      run in EAL's start, a device took the frames,
			      /dev/full lost them) */
};

struct wr_out_file {
	const char *what;     /**< as the user knows it: "--json", "the stream file" */
	const char *path;     /**< NULL: not given (skipped) */
	enum wr_out_use use;
};

/**
 * Check the @p n files one command reads and writes (see the file comment).
 * An input that exists must be a regular file (wr_in.h); one that does not
 * is left to its loader.
 * @param why  on failure, one line naming the output and the reason, e.g.
 *             "--json /dev/null: cannot write there: a character device,
 *             not a regular file" or "--pcap s.yaml: the same file as the
 *             stream file s.yaml: an output never overwrites an input"
 * @return 0; wr_out_check()'s errors; -ENODEV or -EISDIR (an input that is
 *         not a regular file); -EEXIST (an output is the same file as
 *         another file of the list); -ENOMEM.
 */
int wr_out_check_files(const struct wr_out_file *files, unsigned int n,
		       char *why, size_t why_len);

/**
 * net_pcap's files in the EAL arguments @p args (@p n_args of them):
 * "--vdev=net_pcap0,rx_pcap=IN,tx_pcap=OUT", or "net_pcap0,..." after a
 * separate "--vdev".  Each tx_pcap= is an output net_pcap writes in place
 * ("net_pcap's tx_pcap", WR_OUT_FOREIGN), each rx_pcap= an input it reads
 * ("net_pcap's rx_pcap"); a key counts at the start of an argument or after
 * a comma.
 * @param files  NULL: only count, adding to @p *n; else room for @p cap
 *               entries of which @p *n are used, the found ones appended
 * @param paths  with @p files: set to one malloc'd block holding the paths
 *               the appended entries point to (free() it when they are
 *               done with), or NULL when none was found
 * @return 0, -E2BIG (more than @p cap entries), -ENOMEM.
 */
int wr_out_pcap_devargs(char *const *args, int n_args,
			struct wr_out_file *files, unsigned int cap,
			unsigned int *n, char **paths);

/**
 * Open the log @p path for writing in place: created (mode 0666 less the
 * umask) or truncated, a regular file only (opened O_NONBLOCK, then
 * fstat'd: a FIFO with no reader does not block).
 * @return 0 with @p f set, or -ENODEV (not a regular file), -EISDIR, or
 *         the errno of open.
 */
int wr_out_log_open(const char *path, FILE **f);

/**
 * Close a log opened by wr_out_log_open(); when @p keep is false or the
 * close fails (the last lines could not be written), remove @p path.
 * @return 0 or the negative errno of the close.
 */
int wr_out_log_close(const char *path, FILE *f, bool keep);

/**
 * @p s as a JSON string (NULL: null) that is valid UTF-8 whatever @p s
 * holds: the escapes RFC 8259 requires, DEL, each byte that is not part of
 * well-formed UTF-8 as \u00XX, and U+2028/U+2029 escaped for line readers.
 */
void wr_out_json_str(FILE *out, const char *s);

/**
 * Where a JSON-shaped output writes: the results document, a row of
 * counters (wr_report.h).  Two sinks here: JSON text on a FILE and a
 * jansson tree (the server's answers, built without text parsed back);
 * DPDK telemetry's is above the core (wr_telemetry.c).
 */
struct wr_sink_ops {
	void (*u64)(void *ctx, const char *key, uint64_t v);
	/** @p decimals < 0: the shortest ("%g"); not finite: null */
	void (*f64)(void *ctx, const char *key, double v, int decimals);
	/** @p s NULL: null */
	void (*str)(void *ctx, const char *key, const char *s);
	void (*boolean)(void *ctx, const char *key, bool b);
	void (*null)(void *ctx, const char *key);
	/** An object (or an array: @p array) under @p key (NULL in an array). */
	void (*open)(void *ctx, const char *key, bool array);
	void (*close)(void *ctx, bool array);
	/** A value another module writes as JSON text (@p w), such as the
	 * TSC's calibration (wr_tsc_cal_json()). */
	void (*text)(void *ctx, const char *key,
		     void (*w)(FILE *out, const void *arg), const void *arg);
};

struct wr_sink {
	const struct wr_sink_ops *ops;
	void *ctx;
};

#define WR_SINK_DEPTH 8

/**
 * JSON text on a FILE.  Values are separated by ", ".  With @p pretty the
 * outermost object has a member a line and the objects in its arrays an
 * element a line, as the results files are laid out; without, an object
 * opened first writes no separator (the caller separates rows).
 */
struct wr_sink_file {
	FILE *f;
	bool pretty;
	unsigned int depth;
	bool first[WR_SINK_DEPTH + 1];
	bool broke[WR_SINK_DEPTH + 1];   /**< elements on their own lines */
};

void wr_sink_file_init(struct wr_sink_file *fs, struct wr_sink *s, FILE *f,
		       bool pretty);

/** A jansson tree: the first object opened is the root (the caller's to
 * json_decref()); oom: an allocation failed, the tree is partial. */
struct wr_sink_tree {
	json_t *root;
	json_t *stack[WR_SINK_DEPTH];
	unsigned int depth;
	bool oom;
};

void wr_sink_tree_init(struct wr_sink_tree *ts, struct wr_sink *s);

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
	const struct wr_tsc_cal *tsc;  /**< the run's TSC calibration; NULL: null */
};

struct wr_tsc_cal; /* wr_clock.h */

/**
 * Open a results file's JSON object with @p h's keys, in this order, one a
 * line ("{\n  \"schema\": ..."); the caller goes on with ",\n  \"key\": "
 * and closes the object.  The one writer of the head of run, sweep,
 * rfc2544 and rtt results.
 */
void wr_out_json_head(FILE *out, const struct wr_out_head *h);

/** The same keys through @p s, into the object it has open. */
void wr_out_head_emit(const struct wr_sink *s, const struct wr_out_head *h);

#endif /* WR_OUT_H */
