/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_capture: what a capture is asked for (--capture, limits, a ring of files) and the pcapng blocks wirerate writes itself. */
#ifndef WR_CAPTURE_H
#define WR_CAPTURE_H

/**
 * @file
 * Captures (`--capture PORT[:rx|tx|both]=FILE`, the server's
 * capture.start) are written in pcapng.  The frames' Enhanced Packet
 * Blocks are formatted by DPDK's rte_pcapng (rte_pcapng_copy(), in the data
 * path, lib/dp/wr_capture_port.c); the blocks around them are written here, because
 * DPDK 22.11's own (rte_pcapng_fdopen(), rte_pcapng_write_stats()) name
 * every interface "dpdk:N" and compute their timestamps from
 * rte_get_tsc_hz() with a product that overflows after a few seconds:
 *
 *   - a Section Header Block (hardware, OS, application, a comment);
 *   - one Interface Description Block per DPDK port, in port-id order (the
 *     interface id rte_pcapng_copy() writes is the port id), named after
 *     the port (its device name) and described ("wirerate port 0"), with
 *     nanosecond resolution and the capture's snap length;
 *   - an Interface Statistics Block per captured port at the end of each
 *     file: frames the capture saw, frames it dropped ("capture dropped"),
 *     and a comment saying so in words.
 *
 * EPB timestamps are rewritten by wr_pcapng_epb_set() from the calibrated
 * TSC (or the NIC's stamp mapped onto it), and a signature frame gets its
 * stream's name in an opt_comment (wr_pcapng_epb_comment()).  All blocks
 * are in host byte order with the SHB's byte-order magic, as the format
 * allows and every reader handles.
 *
 * Pure functions of their arguments; any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Captures one run may have (each its own file or ring). */
#define WR_CAPTURES_MAX 8
/** The longest path a capture file may have. */
#define WR_CAP_PATH_MAX 1024
/** Room an EPB needs for a stream comment ("stream NAME lane L seq S"). */
#define WR_PCAPNG_COMMENT_ROOM 192
/** Ring of files: at most this many. */
#define WR_CAP_FILES_MAX 1000

enum wr_cap_dir {
	WR_CAP_RX = 1,
	WR_CAP_TX = 2,
	WR_CAP_BOTH = 3,
};

/** One `--capture PORT[:rx|tx|both]=FILE`. */
struct wr_capspec {
	uint16_t port;             /**< index in the run's port list */
	enum wr_cap_dir dir;       /**< default rx */
	char file[WR_CAP_PATH_MAX];
};

/** When a capture stops (or, with files > 1, moves to its next file). */
struct wr_cap_limits {
	uint64_t frames;           /**< 0: no limit */
	uint64_t bytes;            /**< of the file, blocks included; 0: none */
	uint64_t duration_ns;      /**< 0: none */
	uint32_t snaplen;          /**< bytes kept of each frame; 0: all */
	uint32_t files;            /**< 0 or 1: one file; N: a ring of N */
};

/**
 * Parse "PORT[:rx|tx|both]=FILE" (PORT a port index, FILE not empty).
 * @return 0, or -EINVAL with @p why ("expected ...").
 */
int wr_capspec_parse(const char *arg, struct wr_capspec *out, char *why,
		     size_t why_len);

/**
 * Check a capture's limits: a ring of files needs a per-file limit
 * (frames, bytes or duration) and at most WR_CAP_FILES_MAX files; a snap
 * length is 1..65535 (0: whole frames).
 * @return 0, or -EINVAL with @p why naming the option to change.
 */
int wr_cap_limits_check(const struct wr_cap_limits *l, char *why,
			size_t why_len);

/**
 * File @p k of a capture to @p base with @p files files: @p base itself
 * for one file, else "-K" before the extension ("x.pcapng" -> "x-3.pcapng",
 * "x" -> "x-3"), K from 0.  @return 0, or -ENAMETOOLONG.
 */
int wr_cap_file_name(const char *base, uint32_t k, uint32_t files, char *out,
		     size_t out_len);

/**
 * Section Header Block with the options given (NULL: left out) into
 * @p buf of @p cap bytes.  @return its length, 0 when it does not fit.
 */
size_t wr_pcapng_shb(uint8_t *buf, size_t cap, const char *hardware,
		     const char *os, const char *app, const char *comment);

/**
 * Interface Description Block for Ethernet, nanosecond timestamps, snap
 * length @p snaplen (0: none), with if_name @p name and if_description
 * @p desc (NULL: left out).  @return its length, 0 when it does not fit.
 */
size_t wr_pcapng_idb(uint8_t *buf, size_t cap, const char *name,
		     const char *desc, uint32_t snaplen);

/**
 * Interface Statistics Block of interface @p iface at @p ts_ns (ns since
 * the epoch): isb_starttime/@p start_ns, isb_endtime/@p end_ns,
 * isb_ifrecv/@p recv, isb_ifdrop/@p drop (frames the capture could not
 * keep), and @p comment (NULL: none).  @return its length, 0 when it does
 * not fit.
 */
size_t wr_pcapng_isb(uint8_t *buf, size_t cap, uint32_t iface, uint64_t ts_ns,
		     uint64_t start_ns, uint64_t end_ns, uint64_t recv,
		     uint64_t drop, const char *comment);

/**
 * Set the timestamp of the Enhanced Packet Block of @p len bytes at
 * @p epb to @p ts_ns (ns since the epoch).  @return 0, -EINVAL when it is
 * not an EPB of that length.
 */
int wr_pcapng_epb_set_ts(uint8_t *epb, uint32_t len, uint64_t ts_ns);

/** The timestamp field of an EPB (whatever was written there). */
uint64_t wr_pcapng_epb_ts(const uint8_t *epb);

/**
 * Add an opt_comment @p comment to the EPB of @p len bytes at @p epb, which
 * has @p room bytes (its options end where the block does, or at
 * opt_endofopt).  @return the new length, or 0 when it does not fit or is
 * not an EPB (nothing changed then).
 */
uint32_t wr_pcapng_epb_comment(uint8_t *epb, uint32_t len, uint32_t room,
			       const char *comment);

/**
 * Where the captured frame of an EPB starts and how long it is.
 * @return 0, -EINVAL when @p epb of @p len bytes is not an EPB.
 */
int wr_pcapng_epb_frame(const uint8_t *epb, uint32_t len,
			const uint8_t **frame, uint32_t *caplen);

#endif /* WR_CAPTURE_H */
