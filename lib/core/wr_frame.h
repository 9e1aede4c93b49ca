/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame: frame templates built once per stream, and the per-packet generator. */
#ifndef WR_FRAME_H
#define WR_FRAME_H

/**
 * @file
 * A template (struct wr_frame_tmpl) is built once per stream: the frame of
 * packet 0 at the stream's largest size, with every constant byte in place,
 * plus what the per-packet code needs (field offsets, the one's-complement
 * sums of the constant parts of the IPv4 header and of the UDP pseudo-header,
 * a prefix-sum table of the payload for variable sizes, the size cycle).
 *
 * A generator (struct wr_frame_gen) is a cursor over one stream's packet
 * indices: it writes into a buffer that already holds the template, or any
 * earlier frame of the same template, only the bytes that differ for the
 * packet at hand (varying fields, lengths, checksums).  Checksums are
 * completed from precomputed sums of the constant parts plus the varying
 * words (RFC 1071 arithmetic; equivalent to RFC 1624 incremental update).
 *
 * Reproducibility: frame k of a stream is a pure function of (stream, seed,
 * k).  A generator started at index `first` with stride `stride` produces
 * frames first, first+stride, first+2*stride, ...  With K TX lcores, lcore j
 * starts at j with stride K: together they send every index exactly once,
 * and the frames are byte-identical to a single-lcore run or `wirerate dump`.
 * RANDOM fields and sizes use a counter-based generator (a hash of seed,
 * field and index), so jumping by a stride costs nothing.
 *
 * Threads: a template is read-only after wr_frame_tmpl_create() and may be
 * shared by lcores; each lcore owns its generator.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_stream.h"

/* Ethernet header, optional 802.1Q tag, IPv4 without options, UDP. */
#define WR_ETH_HLEN 14
#define WR_VLAN_HLEN 4
#define WR_IPV4_HLEN 20
#define WR_UDP_HLEN 8

struct wr_frame_tmpl;

/**
 * Build a stream's template.
 * @param s          the stream (validated by the loader)
 * @param stream_id  the stream's index in its file (written in signatures)
 * @param out        the new template; free with wr_frame_tmpl_free()
 * @param err        filled when the stream cannot be built (e.g. a frame
 *                   too small for its headers and signature)
 * @return 0, -EINVAL, -ENOMEM
 */
int wr_frame_tmpl_create(const struct wr_stream *s, uint32_t stream_id,
			 struct wr_frame_tmpl **out, struct wr_error *err);

void wr_frame_tmpl_free(struct wr_frame_tmpl *t);

/** The frame of packet 0 at the stream's largest size, FCS excluded. */
const uint8_t *wr_frame_tmpl_bytes(const struct wr_frame_tmpl *t);

/** Length of wr_frame_tmpl_bytes(): the largest frame size minus the FCS. */
uint16_t wr_frame_tmpl_max_len(const struct wr_frame_tmpl *t);

/**
 * True when every frame of the stream is byte-identical to the template
 * (no varying field, fixed size, no signature): the data path then sends
 * prebuilt buffers without touching them.
 */
bool wr_frame_tmpl_is_static(const struct wr_frame_tmpl *t);

/** Offset of the latency signature in the frame, 0 when the stream has none. */
uint16_t wr_frame_tmpl_sig_off(const struct wr_frame_tmpl *t);

/** Offset of the UDP checksum in the frame. */
uint16_t wr_frame_tmpl_udp_csum_off(const struct wr_frame_tmpl *t);

/**
 * The per-lcore cursor.  Its fields are private to wr_frame.c; it is public
 * so that a lcore context can embed it (no allocation, no pointer chase on
 * the hot path).
 *
 * "Varying" fields are those whose value can change from packet to packet
 * (a non-FIXED mode with more than one value).  The template keeps them in a
 * compact array of slots: first the sequenced ones (INC, DEC, LIST) in
 * WR_FIELDS order, then the RANDOM ones; pos[] and stride_step[] are indexed
 * by slot, not by field id.
 */
struct wr_frame_gen {
	const struct wr_frame_tmpl *t;
	uint64_t index;   /**< index of the next frame */
	uint32_t stride;
	uint32_t n_vary;  /**< number of varying fields (slots) */
	uint32_t n_seq;   /**< slots 0..n_seq-1 are sequenced (INC/DEC/LIST) */
	/**
	 * PRODUCT: highest slot whose stride digit is nonzero; the odometer
	 * stops at the first slot past it that produces no carry.
	 */
	uint32_t odo_top;
	/**
	 * Per sequenced slot: TOGETHER, the position (index mod period);
	 * PRODUCT, the odometer digit.
	 */
	uint64_t pos[WR_FIELD__COUNT];
	/**
	 * Per sequenced slot: TOGETHER, stride mod period; PRODUCT, the
	 * slot's digit of stride in the odometer's mixed radix.
	 */
	uint64_t stride_step[WR_FIELD__COUNT];
	uint64_t size_pos;    /**< position in the size table (INC, MIX) */
	uint64_t size_stride; /**< stride mod the size table's length */
};

/**
 * Start a cursor at packet index @p first, advancing by @p stride (>= 1).
 */
void wr_frame_gen_init(struct wr_frame_gen *g, const struct wr_frame_tmpl *t,
		       uint64_t first, uint32_t stride);

/**
 * Write the frame for the cursor's index into @p buf and advance.
 * @p buf must hold the template or an earlier frame of the same template
 * (at least wr_frame_tmpl_max_len() bytes).
 * @return the frame's length in bytes, FCS excluded (size - 4).
 */
uint16_t wr_frame_gen_next(struct wr_frame_gen *g, uint8_t *buf);

/**
 * Write the latency signature into a frame written by wr_frame_gen_next()
 * and complete its UDP checksum.  @p len is what wr_frame_gen_next returned.
 */
void wr_frame_sig_write(const struct wr_frame_tmpl *t, uint8_t *buf,
			uint16_t len, uint32_t stream_id, uint64_t seq,
			uint64_t tx_tsc);

/**
 * Frame size (FCS included) of packet @p index without writing anything:
 * for reports and for planning.
 */
uint16_t wr_frame_size_at(const struct wr_frame_tmpl *t, uint64_t index);

/**
 * Internet checksum (RFC 1071) of @p len bytes, folded, NOT complemented:
 * the one's-complement sum in network byte order semantics, returned as a
 * host integer 0..0xffff.  Exposed for tests.
 */
uint16_t wr_csum_sum(const void *buf, uint32_t len);

/**
 * Write the first @p count frames of stream @p s (indices 0..count-1) to a
 * pcap file (DLT_EN10MB, without FCS) through libpcap's dumper.  The file is
 * written to a temporary name beside @p path and renamed when complete, so a
 * failure never leaves a truncated file.
 * @return 0, -EINVAL (err filled), -EIO.
 */
int wr_frame_dump_pcap(const struct wr_stream_file *f, int stream_index,
		       uint64_t count, const char *path, struct wr_error *err);

#endif /* WR_FRAME_H */
