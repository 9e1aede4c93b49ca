/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_in: the files wirerate reads by name: regular files only, every read bounded. */
#ifndef WR_IN_H
#define WR_IN_H

/**
 * @file
 * Every file wirerate reads by name goes through wr_in_open() (or
 * wr_in_read(), which reads it whole): stream files and profiles
 * (wr_ytree_read_file), the captures of `pcap:` streams (wr_capture_load),
 * the server's token file (wr_auth_token_load) and a `--peer netdev:`
 * namespace file.
 *
 * The file is opened O_NONBLOCK, so that opening a FIFO never waits for a
 * writer, then fstat'd: anything but a regular file is refused, since a
 * FIFO may never end or never start, /dev/zero or /dev/urandom never end,
 * and a directory or a socket is no input at all.  A regular file larger
 * than the maximum of its kind is refused before any byte is read, and
 * wr_in_read() stops at that maximum too, should the file grow meanwhile.
 *
 * The maximum of each kind:
 *   - stream files and profiles: WR_IN_YAML_MAX (64 MiB);
 *   - a `pcap:` capture: its stream's `memory:` budget (default 1 GiB):
 *     each record of a pcap or pcapng file (a 16- or 32-byte header and
 *     the frame) takes fewer bytes than the frame takes in hugepage
 *     memory (a 64-byte-aligned slot), so a larger file could not fit;
 *   - the server's token file: WR_AUTH_TOKEN_FILE_MAX (4 KiB, wr_auth.h);
 *   - a network namespace file: 0 bytes (nsfs files are empty).
 *
 * Threads: any; no global state.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/** Stream files and profiles: a 65536-entry list of IPv4 addresses in
 * every field of 256 streams is far below it. */
#define WR_IN_YAML_MAX (64ull << 20)

/** wr_in_open() @p flags: refuse a symbolic link (the token file). */
#define WR_IN_NOFOLLOW 1u

/**
 * Open @p path for reading: a regular file of at most @p max bytes.
 * @param why   filled with the reason on failure (one line, no path)
 * @return a file descriptor (O_RDONLY, O_NONBLOCK, O_CLOEXEC; the caller
 *         closes it), or -ENOENT, -EACCES, -ELOOP (a link with
 *         WR_IN_NOFOLLOW), -EISDIR (a directory), -ENODEV (a FIFO, a
 *         device, a socket), -EFBIG (over @p max), or another errno of
 *         open/fstat.
 */
int wr_in_open(const char *path, uint64_t max, unsigned int flags,
	       char *why, size_t why_len);

/** Longest name wr_in_open_beneath() takes. */
#define WR_IN_BENEATH_MAX 255

/**
 * Open @p name inside the directory @p dirfd with wr_in_open()'s rules, and
 * never outside it: @p name is relative, its components neither empty nor
 * "." nor "..", and no component may be a symbolic link (each is opened
 * with openat(O_NOFOLLOW) from the one before), so neither "../x" nor a
 * link inside the directory reaches a file outside it.
 * @return a file descriptor, or -EPERM (a name that is not such a
 *         relative name, or a link on the way) or wr_in_open()'s errors;
 *         @p why filled.
 */
int wr_in_open_beneath(int dirfd, const char *name, uint64_t max,
		       char *why, size_t why_len);

/**
 * Read @p path whole (wr_in_open() rules) into a malloc'd buffer with a
 * NUL after its @p len bytes.
 * @return 0, or wr_in_open()'s errors, -EFBIG (grew over @p max while
 *         read), -ENOMEM, -EIO; @p why filled.
 */
int wr_in_read(const char *path, uint64_t max, char **buf, size_t *len,
	       char *why, size_t why_len);

/** What a file of mode @p mode is, for errors: "a regular file", "a FIFO",
 * "a character device", "a block device", "a socket", "a directory",
 * "a symbolic link". */
const char *wr_in_kind(mode_t mode);

#endif /* WR_IN_H */
