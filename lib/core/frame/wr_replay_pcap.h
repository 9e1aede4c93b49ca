/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_pcap: reading and validating pcap/pcapng captures for replay, and the per-frame edits applied to them. */
#ifndef WR_REPLAY_PCAP_H
#define WR_REPLAY_PCAP_H

/**
 * @file
 * A capture is read once, with libpcap (which reads pcap and pcapng alike),
 * into one malloc'd block of frames back to back plus per-frame lengths
 * and times.  Every record is checked before anything is sent: a file
 * libpcap does not recognise, a link type other than Ethernet, a record
 * whose captured length is below its wire length (a snapshot length cut
 * it), a frame shorter than an Ethernet header or larger than the largest
 * frame wirerate sends (WR_FRAME_MAX with the FCS), and a capture with no
 * record at all are each one error naming the file and the 1-based record
 * number.  Frames are as captured, without FCS (what DLT_EN10MB holds).
 *
 * Times are nanoseconds (libpcap is asked for nanosecond precision and
 * scales microsecond files).  A record whose time is earlier than the
 * previous one's (a capture merged from several interfaces) is given the
 * previous time, so the gaps replayed are never negative; `reordered`
 * counts them.
 *
 * Rewrites (wr_capture_rewrite): MAC, IPv4 and IPv6 addresses of each
 * frame set from a struct wr_field_spec, frame k taking the field's k-th
 * value (as frame k of a generated stream does, doc/vary.md), with the
 * IPv4 header checksum and the L4 checksums over the pseudo-header
 * recomputed (ICMP's does not cover addresses), where the protocol
 * registry says they are (wr_pkt_csum.h, which also recomputes every
 * checksum of frames given as bytes).
 *
 * Pure C, no EAL; any thread may use its own struct wr_capture.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_vary.h"
#include "wr_wire.h"

/** The largest frame a capture may hold, without FCS. */
#define WR_CAPTURE_FRAME_MAX (WR_FRAME_MAX - WR_FCS_LEN)
/** Shorter than this is not an Ethernet frame (dst, src, type). */
#define WR_CAPTURE_FRAME_MIN 14
/** Ethernet pads shorter frames to this (without FCS): what the wire carries. */
#define WR_CAPTURE_WIRE_MIN (WR_FRAME_MIN - WR_FCS_LEN)

struct wr_capture {
	char path[WR_ERROR_FILE_MAX];
	uint32_t n;          /**< frames */
	uint8_t *data;       /**< owned: the frames back to back */
	uint64_t *off;       /**< owned: n offsets into data */
	uint16_t *len;       /**< owned: n lengths, bytes as captured (no FCS) */
	uint64_t *ts_ns;     /**< owned: n times, ns, non-decreasing */
	uint16_t min_len, max_len;
	uint32_t max_rec;    /**< 1-based record number of the (first) largest frame */
	uint64_t bytes;      /**< sum of len */
	uint32_t reordered;  /**< records whose time went backwards */
	uint8_t sha256[32];  /**< of the file's bytes */
};

/**
 * Read and check the capture at @p path into @p c (zeroed first): a
 * regular file of at most @p max bytes (wr_in_open(); a replayed stream
 * passes its memory: budget).
 * @return 0; -EINVAL (not a capture, not Ethernet, a bad record, empty:
 *         @p err names the file and the record); about the file itself,
 *         wr_in_open()'s errors (-ENOENT, -EACCES, -EISDIR, -ENODEV: not a
 *         regular file, -EFBIG: over @p max) or -EIO (cannot read), @p err
 *         naming the file without a record; -ENOMEM.  On error @p c holds
 *         nothing.
 */
int wr_capture_load(const char *path, uint64_t max, struct wr_capture *c,
		    struct wr_error *err);

/**
 * Same as wr_capture_load() from @p fd, opened by the caller (checked as
 * wr_in_open() checks: wr_in_open_beneath()), called @p path in errors and
 * in @p c; @p fd is closed.  @return as wr_capture_load().
 */
int wr_capture_load_fd(const char *path, int fd, uint64_t max,
		       struct wr_capture *c, struct wr_error *err);

/**
 * Same as wr_capture_load() from @p len bytes in memory, called @p name
 * in errors (tests, the fuzz target).  @return as wr_capture_load().
 */
int wr_capture_load_buf(const char *name, const uint8_t *buf, size_t len,
			struct wr_capture *c, struct wr_error *err);

/**
 * A capture of @p n frames built in memory (the frame: stream): @p bytes
 * of @p len each, all at time 0.  @return 0, -EINVAL (a length out of
 * range), -ENOMEM.
 */
int wr_capture_from_frame(const char *name, const uint8_t *bytes,
			  uint16_t len, uint32_t n, struct wr_capture *c,
			  struct wr_error *err);

/** Free what @p c owns.  NULL-safe. */
void wr_capture_free(struct wr_capture *c);

/** Frame @p k's bytes. */
static inline uint8_t *
wr_capture_frame(const struct wr_capture *c, uint32_t k)
{
	return c->data + c->off[k];
}

/** Bytes frame @p k occupies on the wire at L2 (padded to 60, plus FCS). */
static inline uint32_t
wr_capture_wire_len(uint16_t len)
{
	return (len < WR_CAPTURE_WIRE_MIN ? WR_CAPTURE_WIRE_MIN : len) +
		WR_FCS_LEN;
}

/**
 * The first frame whose bytes after its Ethernet header (and its VLAN
 * tags) exceed @p mtu.  @return its 0-based index, or -1 when every
 * frame fits.
 */
int64_t wr_capture_over_mtu(const struct wr_capture *c, uint16_t mtu);

/** RNG tags of the ipv6.* rewrites; eth.* and ipv4.* draw with
 * WR_CAPTURE_TAG_MODULE: the tag their protocol module gives the field in
 * a generated stream's first layer of that protocol (wr_proto_rng_tag),
 * so a rewrite of eth.src draws what a stream's eth.src draws. */
#define WR_CAPTURE_TAG_IPV6 0x180u
#define WR_CAPTURE_TAG_MODULE UINT64_MAX

/*
 * Fields a capture rewrite sets: X(enum suffix, key, value kind
 * (enum wr_val_kind), width in bits, RNG tag).  One list gives the
 * loader's keys, check's names and the writer's widths.
 */
#define WR_REWRITES(X)                                                   \
	X(ETH_SRC, "eth.src", WR_VAL_MAC, 48, WR_CAPTURE_TAG_MODULE)        \
	X(ETH_DST, "eth.dst", WR_VAL_MAC, 48, WR_CAPTURE_TAG_MODULE)        \
	X(IPV4_SRC, "ipv4.src", WR_VAL_IPV4, 32, WR_CAPTURE_TAG_MODULE)      \
	X(IPV4_DST, "ipv4.dst", WR_VAL_IPV4, 32, WR_CAPTURE_TAG_MODULE)      \
	X(IPV6_SRC, "ipv6.src", WR_VAL_IPV6, 128, WR_CAPTURE_TAG_IPV6)   \
	X(IPV6_DST, "ipv6.dst", WR_VAL_IPV6, 128, WR_CAPTURE_TAG_IPV6 + 1)

enum wr_rewrite_id {
#define WR_X(e, name, kind, bits, tag) WR_REWRITE_##e,
	WR_REWRITES(WR_X)
#undef WR_X
	WR_REWRITE__COUNT
};

/** What a rewrite field is: its key, value syntax, width and RNG tag. */
struct wr_rewrite_desc {
	const char *name;
	unsigned int kind; /**< enum wr_val_kind (wr_proto.h) */
	unsigned int bits;
	uint64_t tag;
};

/** The description of rewrite @p id, NULL if out of range. */
const struct wr_rewrite_desc *wr_rewrite_desc(enum wr_rewrite_id id);

/**
 * Apply rewrites to every frame of @p c: for each rewrite id with
 * @p set[id], frame k gets value k of @p fs[id] (wr_field_value_at with
 * key wr_rng_key(@p seed, its tag)), into the field its key names
 * (protocol.field) of the registered module: eth.* into every frame's
 * link header; ipv4.* and ipv6.* into the IP header right after the
 * Ethernet header and its VLAN tags (wr_pkt_parse), with the checksums
 * over it recomputed (wr_pkt_csum.h: the IPv4 header's, those with its
 * pseudo-header, in a datagram held whole; a UDP checksum 0 over IPv4
 * left 0).  Frames without such a header keep their bytes.  @return the
 * number of frames whose IP addresses were rewritten.
 */
uint32_t wr_capture_rewrite(struct wr_capture *c, const bool *set,
			    const struct wr_field_spec *fs, uint64_t seed);

#endif /* WR_CAPTURE_H */
