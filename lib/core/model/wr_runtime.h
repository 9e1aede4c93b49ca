/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_runtime: the run's own places: EAL file prefix, runtime directory, memif sockets. */
#ifndef WR_RUNTIME_H
#define WR_RUNTIME_H

/**
 * @file
 * Two users on one machine, or a user and `wirerate serve`, must never share
 * DPDK's runtime files or a memif socket.  What a run gets when its profile
 * and its EAL options do not say otherwise:
 *
 * - EAL file prefix `wirerate-UID-PID` (DPDK's runtime directory
 *   /var/run/dpdk/PREFIX, its telemetry socket in it): the run's own.
 * - Runtime directory (the server's socket, memif sockets): the user's own,
 *   mode 0700:
 *       $WIRERATE_RUNTIME_DIR      when set (the user's choice)
 *       /run/wirerate              for root
 *       $XDG_RUNTIME_DIR/wirerate  for other users when set (systemd's
 *                                  per-user /run/user/UID)
 *       /tmp/wirerate-UID          otherwise
 * - A memif port wirerate is the server of (role=server, memif's default)
 *   listens on a path socket (socket-abstract=no: the directory's mode
 *   keeps other users out; an abstract socket has no mode), by default
 *   RUNTIME/memif.sock.  A profile that gives socket-abstract= keeps it.
 *
 * Everything here runs before EAL and is called from the main thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "wr_error.h"

/** The environment variable that chooses the runtime directory. */
#define WR_RUNTIME_ENV "WIRERATE_RUNTIME_DIR"
/** The memif socket's name in the runtime directory. */
#define WR_RUNTIME_MEMIF_SOCK "memif.sock"
/** The server's socket's name in the runtime directory. */
#define WR_RUNTIME_SERVER_SOCK "wirerate.sock"
/** Most memif server sockets one EAL command line declares. */
#define WR_RUNTIME_SOCKS_MAX 8
/** Room for a socket path (sun_path's size). */
#define WR_RUNTIME_PATH_MAX 108

/**
 * The runtime directory of user @p uid, given the values of
 * $WIRERATE_RUNTIME_DIR (@p env_dir) and $XDG_RUNTIME_DIR (@p xdg), NULL or
 * "" when unset (the rule above).
 * @return 0, or -ENAMETOOLONG when it does not fit @p len bytes.
 */
int wr_runtime_dir_of(uid_t uid, const char *env_dir, const char *xdg,
		      char *buf, size_t len);

/** wr_runtime_dir_of() for this process (effective uid, its environment). */
int wr_runtime_dir(char *buf, size_t len);

/**
 * Make @p dir a directory only this user can enter: created with mode 0700
 * (its parent must exist), or an existing one of ours narrowed to 0700.
 * @return 0; -ENOTDIR, -EPERM (another user's: it is not ours to use) or
 *         another negative errno, with @p err saying which and what to do.
 */
int wr_runtime_dir_make(const char *dir, struct wr_error *err);

/** This run's default EAL file prefix, "wirerate-UID-PID". */
void wr_runtime_prefix(char *buf, size_t len);

/** Longest EAL file prefix taken (its hugepage files are PREFIXmap_N:
 * a file name of at most NAME_MAX bytes). */
#define WR_RUNTIME_PREFIX_MAX 200

/**
 * The next EAL file prefix option in @p args (@p n of them) at or after
 * index @p from: "--file-prefix=NAME", "--file-prefix" "NAME", or an
 * abbreviation EAL's getopt_long takes the same ("--file-pre=NAME", down
 * to "--fi").
 * @param value_at  the index of the argument holding NAME (the option's or
 *                  the next), @p n when it is missing
 * @param value     NAME, NULL when missing
 * @return the option's index, or -1 when there is none.
 */
int wr_runtime_prefix_opt(char *const *args, int n, int from, int *value_at,
			  const char **value);

/**
 * Whether @p name may be EAL's file prefix.  EAL makes its runtime
 * directory RUN/dpdk/NAME and the clean-up at exit empties it: a name
 * with '/' or ".." would name another directory ("../../etc"), "." or ""
 * RUN/dpdk itself.
 * @return 0, or -EINVAL with @p why (the reason and the name).
 */
int wr_runtime_prefix_check(const char *name, char *why, size_t why_len);

/** What wr_runtime_eal() found: the path sockets memif servers will
 * create, and the file prefix EAL will use. */
struct wr_runtime_socks {
	char path[WR_RUNTIME_SOCKS_MAX][WR_RUNTIME_PATH_MAX];
	unsigned int n;
	char prefix[WR_RUNTIME_PREFIX_MAX + 1];
};

/**
 * EAL arguments @p in (@p n of them) with the run's defaults: `--file-prefix=`
 * @p prefix added unless one is given, and every memif vdev wirerate is the
 * server of given `socket-abstract=no` (unless it says socket-abstract=) and
 * `socket=` @p dir/memif.sock (unless it gives socket=).  @p out (@p cap
 * entries) holds pointers to the unchanged arguments and to new ones written
 * into @p store (@p store_len bytes).  The path sockets the memif servers
 * will listen on are listed in @p socks.
 * @return the number of arguments in @p out, or -ENOSPC (no room),
 *         -ENAMETOOLONG (a socket path over 107 bytes) or -EINVAL (a file
 *         prefix wr_runtime_prefix_check() refuses) with @p err.
 */
int wr_runtime_eal(char *const *in, int n, const char *prefix, const char *dir,
		   char **out, int cap, char *store, size_t store_len,
		   struct wr_runtime_socks *socks, struct wr_error *err);

/**
 * Before a memif server listens on @p path: its directory made private when
 * it is the runtime directory @p dir, created (0700) when missing otherwise;
 * a socket file nobody answers on (a run that was killed) removed.
 * @return 0; -EADDRINUSE (a process listens there), -EEXIST (not a socket),
 *         or another negative errno, with @p err.
 */
int wr_runtime_memif_prepare(const char *path, const char *dir,
			     struct wr_error *err);

/**
 * A profile named @p name (no '/') looked up in the directories of the
 * colon-separated @p search, in order, as NAME then NAME.yaml: the first
 * readable one is written to @p buf.
 * @return 0, -ENOENT (none), or -ENAMETOOLONG.
 */
int wr_runtime_find_profile(const char *search, const char *name, char *buf,
			    size_t len);

/**
 * The one call before rte_eal_init(): @p argv (*@p argc arguments, room for
 * @p cap) rewritten by wr_runtime_eal() with this run's prefix and
 * runtime directory, then wr_runtime_memif_prepare() for each memif socket,
 * and a note of EAL's runtime directory (wr_runtime_eal_note()).
 * New arguments live in a static buffer: EAL starts once per process.
 * @return 0, or -EINVAL (bad input: @p err says what) with nothing changed
 *         but a runtime directory created.
 */
int wr_runtime_apply(char **argv, int *argc, int cap, struct wr_error *err);

/**
 * EAL's runtime directory for file prefix @p prefix, as DPDK 22.11 names
 * it (eal_create_runtime_dir()): /var/run/dpdk/PREFIX for real uid 0,
 * else XDG_RUNTIME_DIR (@p xdg, NULL when unset) or /tmp, then
 * /dpdk/PREFIX.
 * @return 0 or -ENAMETOOLONG.
 */
int wr_runtime_eal_dir_of(uid_t uid, const char *xdg, const char *prefix,
			  char *buf, size_t len);

/**
 * What EAL's runtime directory held before EAL started, so that the
 * clean-up at exit removes only what EAL made in this run: whether the
 * directory was there, and each entry's name and inode.
 */
struct wr_runtime_note {
	char dir[WR_RUNTIME_PATH_MAX + WR_RUNTIME_PREFIX_MAX];
	bool noted;     /**< taken (a directory path is known) */
	bool existed;   /**< the directory was there: not ours to remove */
	struct wr_runtime_entry {
		ino_t ino;
		char *name;
	} *ent;
	unsigned int n;
};

/** Note what @p dir holds now into @p n (freed by wr_runtime_note_free()).
 * @return 0 or -ENOMEM (then @p n is not noted: nothing will be removed). */
int wr_runtime_note_take(struct wr_runtime_note *n, const char *dir);

/**
 * The clean-up after EAL: in @p n's directory, remove each file EAL makes
 * there (config, hugepage_info, fbarray_*, mp_socket*, dpdk_telemetry.v*)
 * that was not there when noted (by name and inode: one EAL replaced
 * counts as its own), then the directory itself when it was not there
 * before (rmdir: only when nothing else is in it).  A file that is not
 * EAL's, or was there before, stays.  Nothing when @p n was not noted.
 */
void wr_runtime_note_clean(const struct wr_runtime_note *n);

void wr_runtime_note_free(struct wr_runtime_note *n);

/** The note wr_runtime_apply() took of this run's EAL runtime directory
 * (noted false before it ran). */
const struct wr_runtime_note *wr_runtime_eal_note(void);

#endif /* WR_RUNTIME_H */
