/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_runs: the runs a server keeps (trials and benchmark jobs), one file each in a directory, bounded, written atomically. */
#ifndef WR_RUNS_H
#define WR_RUNS_H

/**
 * @file
 * `wirerate serve --runs-dir DIR` keeps every trial and benchmark job it
 * runs (runs.list, runs.get, runs.delete: doc/api.md).  A run is one file,
 * DIR/run-ID.json, of two JSON lines: its entry (what runs.list gives:
 * id, kind, name, dates, the stream text's sha256, a summary) and its whole
 * document (what runs.get gives: the entry's members and the samples, final
 * counters, latency, a benchmark's result).  The first line alone is read
 * to list the runs, so a directory of long runs opens fast; `jq` reads
 * both lines as they are.
 *
 * Writes are atomic: the file is written as DIR/.run-ID.json.tmp, synced,
 * renamed to its name, and the directory synced, so a crash leaves the old
 * set or the new one, never half a file (a .tmp left by a crash is removed
 * at the next open).  Beyond @c max runs, the oldest (lowest id) is
 * deleted.  Ids grow across restarts: the next is one more than the
 * highest found.
 *
 * A file that is not a run (not two JSON objects, a first line without
 * the id its name says) is left where it is, not listed, and counted
 * (@c n_bad); runs.get of it says which line of which file is wrong.
 *
 * No EAL.  Not thread-safe: the server's main lcore only.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "wr_error.h"

/** Runs kept when --runs-max is not given. */
#define WR_RUNS_MAX_DEFAULT 500
/** --runs-max's largest value. */
#define WR_RUNS_MAX_LIMIT 1000000
/** A run file's first line (its entry) is at most this long. */
#define WR_RUNS_ENTRY_MAX (64u << 10)
#define WR_RUNS_PATH_MAX 1024

struct wr_runs_ent {
	uint64_t id;
	json_t *entry;               /**< the first line, parsed (owned) */
};

struct wr_runs {
	int dirfd;                   /**< -1: closed */
	char dir[WR_RUNS_PATH_MAX];
	unsigned int max;
	uint64_t next_id;
	struct wr_runs_ent *ents;    /**< ascending ids (oldest first) */
	size_t n, cap;
	unsigned int n_bad;          /**< files named run-ID.json that are not runs */
	char bad_first[64];          /**< the first of them, for a log line */
};

/**
 * The default directory: /var/lib/wirerate/runs for uid 0 (the service's
 * state), else $XDG_STATE_HOME/wirerate/runs, else
 * $HOME/.local/state/wirerate/runs (the XDG base directory spec's state).
 * @p xdg_state, @p home: the variables' values, NULL when unset.
 * @return 0; -ENOENT without a home; -ENAMETOOLONG.
 */
int wr_runs_default_dir(uid_t uid, const char *xdg_state, const char *home,
			char *buf, size_t len);

/**
 * Make @p dir if it is missing (its parents too, mode 0750) and check it
 * is a directory this process can write: what `serve --runs-dir` checks
 * before EAL.  @return 0; a negative errno with @p err one line naming it.
 */
int wr_runs_dir_check(const char *dir, struct wr_error *err);

/**
 * Open @p dir (checked as wr_runs_dir_check()) keeping at most @p max runs
 * (0: WR_RUNS_MAX_DEFAULT); read every run's entry, remove stale .tmp
 * files, prune beyond @p max.
 * @return 0; a negative errno with @p err filled (-ENOTDIR, -EACCES, ...).
 */
int wr_runs_open(struct wr_runs *r, const char *dir, unsigned int max,
		 struct wr_error *err);

/** Close; NULL-safe and safe on a store never opened (zeroed, dirfd -1). */
void wr_runs_close(struct wr_runs *r);

/**
 * Keep a run: @p entry (what runs.list shows) and @p doc (the whole
 * document) are given the next id (member "id") and written; the oldest
 * runs beyond the bound are deleted.  Both stay the caller's.
 * @return 0 with *@p id; a negative errno with @p err (-ENOSPC, -EIO, ...).
 */
int wr_runs_put(struct wr_runs *r, json_t *entry, json_t *doc, uint64_t *id,
		struct wr_error *err);

/**
 * The entries, newest first: of @p kind only (NULL: every kind), at most
 * @p limit (0: all).  @return a new array, NULL out of memory.
 */
json_t *wr_runs_list(const struct wr_runs *r, const char *kind, size_t limit);

/**
 * Run @p id's whole document (a new reference in *@p doc).
 * @return 0; -ENOENT no such run; -EBADMSG the file is not a run (@p err:
 *         its path and line, jansson's reason); -errno reading it.
 */
int wr_runs_get(const struct wr_runs *r, uint64_t id, json_t **doc,
		struct wr_error *err);

/** Delete run @p id.  @return 0; -ENOENT no such run; -errno. */
int wr_runs_delete(struct wr_runs *r, uint64_t id, struct wr_error *err);

#endif /* WR_RUNS_H */
