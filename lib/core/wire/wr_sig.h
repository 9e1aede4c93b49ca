/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_sig: the signature carried right after a stream's last header (latency, sequence), shared by TX and RX. */
#ifndef WR_SIG_H
#define WR_SIG_H

/**
 * @file
 * Three layouts, all fields big-endian, right after the last header the
 * stream's stack writes (the UDP header for an Ethernet/IPv4/UDP stream;
 * the Ethernet header for a raw L2 one): wr_frame puts the signature at the
 * first byte after its headers, and the receiver looks there.
 *
 * The full signature, 24 bytes, wherever it fits:
 *
 *     0  magic      u32  WR_SIG_MAGIC ("WRsg")
 *     4  stream     u16  index of the stream in its file
 *     6  lane       u16  which of the stream's TX lcores sent it (0..k-1)
 *     8  seq        u64  sequence number of the (stream, lane), 0-based:
 *                        a lane numbers its own frames in the order it
 *                        hands them to the NIC, so each lane's sequence is
 *                        in order on the wire and a receiver can tell
 *                        loss and reorder per lane without cross-queue
 *                        interleaving looking like reorder
 *    16  tx_tsc     u64  TSC read once per TX burst, after its frames were
 *                        built, right before rte_eth_tx_burst (a tail
 *                        the NIC refused keeps it when offered again)
 *
 * The u32 at offset 4 is WR_SIG_ID(stream, lane): wr_frame_sig_write()
 * takes it whole.
 *
 * The compact signature, 18 bytes: what a latency stream carries when its
 * smallest frame has no room for the full one (a 64-byte Ethernet/IPv4/UDP
 * frame has 18 bytes after its UDP header):
 *
 *     0  magic      u32  WR_SIG_COMPACT_MAGIC ("WRsc")
 *     4  stream     u8   index of the stream in its file (< 256,
 *                        WR_STREAMS_MAX)
 *     5  lane       u8   the lane (< 256; WR_PORT_LCORES_MAX is 16)
 *     6  seq        u48  the sequence's low 48 bits
 *    12  tx_tsc     u48  the TX TSC's low 48 bits
 *
 * Nothing a frame says is lost: the receiver puts the high bits back from
 * what it knows (wr_sig_extend48()): a sequence from the lane's next
 * expected one, a TX TSC from its own receive TSC (TX and RX read the same
 * TSC).  So latency and sequence stay exact on every frame while a frame's
 * latency is under 2^47 TSC cycles (15 h at 2.6 GHz) and a lane's frames
 * come less than 2^47 sequence numbers out of place.  What it trades: 8
 * bits of stream and lane each, and the full one's 64-bit fields, which need
 * no reconstruction (so the full one stays wherever it fits).
 *
 * The loss-only signature (`latency: loss`), 16 bytes, no TX time:
 *
 *     0  magic      u32  WR_SIG_SHORT_MAGIC ("WRsl")
 *     4  stream/lane u32 WR_SIG_ID(stream, lane)
 *     8  seq        u64
 *
 * The receiver recognises a frame by the magic at the signature's offset,
 * whatever a reflector did to MAC, IP addresses and ports: at the offsets
 * its streams use, else after the last header the protocol registry's walk
 * recognises (wr_frame_sig_offset()).  The frame
 * builder leaves the signature's bytes zero in the template so the UDP
 * checksum can be completed incrementally when they are written
 * (wr_frame_sig_write()).
 */

#include <stdint.h>
#include <string.h>

#include "wr_bytes.h"

#define WR_SIG_MAGIC 0x57527367u /* "WRsg" */
#define WR_SIG_LEN 24

/*
 * The loss-only signature (`latency: loss`): magic, stream/lane and seq,
 * 16 bytes, no TX time.  It fits the 18 payload bytes of a 64-byte frame,
 * so RFC 2544 throughput can count loss exactly at the smallest size.
 */
#define WR_SIG_SHORT_MAGIC 0x5752736cu /* "WRsl" */
#define WR_SIG_SHORT_LEN 16

/*
 * The compact signature (see above): 18 bytes, the low 48 bits of the
 * sequence and the TX TSC.
 */
#define WR_SIG_COMPACT_MAGIC 0x57527363u /* "WRsc" */
#define WR_SIG_COMPACT_LEN 18
#define WR_SIG_COMPACT_MASK ((1ull << 48) - 1)

/** What wr_sig_decode_any() found. */
#define WR_SIG_KIND_FULL 0
#define WR_SIG_KIND_SHORT 1
#define WR_SIG_KIND_COMPACT 2

/** The u32 at offset 4: stream index in the high half, lane in the low. */
#define WR_SIG_ID(stream, lane) (((uint32_t)(stream) << 16) | (uint16_t)(lane))
#define WR_SIG_STREAM(id) ((uint16_t)((id) >> 16))
#define WR_SIG_LANE(id) ((uint16_t)(id))

struct wr_sig {
	uint32_t stream_id; /**< WR_SIG_ID(stream, lane) */
	uint64_t seq;
	uint64_t tx_tsc;
};

/** Write a signature (24 bytes) at @p p. */
static inline void
wr_sig_encode(uint8_t *p, const struct wr_sig *s)
{
	wr_put32(p, WR_SIG_MAGIC);
	wr_put32(p + 4, s->stream_id);
	wr_put64(p + 8, s->seq);
	wr_put64(p + 16, s->tx_tsc);
}

/** Bytes of a signature of kind @p kind (WR_SIG_KIND_*). */
static inline uint32_t
wr_sig_len(int kind)
{
	return kind == WR_SIG_KIND_FULL ? WR_SIG_LEN :
	       kind == WR_SIG_KIND_COMPACT ? WR_SIG_COMPACT_LEN :
	       WR_SIG_SHORT_LEN;
}

/**
 * The signature a stream carries: the loss-only one when it asked for it
 * (@p loss_only), else the full one when its smallest frame holds it
 * (@p room bytes without the FCS, @p used of them its headers and string
 * payload), else the compact one, which a 64-byte Ethernet/IPv4/UDP frame
 * holds.  One kind for all of a stream's frames: the receiver reads it by
 * its magic, and the sender writes it from the template.
 */
static inline int
wr_sig_kind_for(int loss_only, uint32_t room, uint32_t used)
{
	if (loss_only)
		return WR_SIG_KIND_SHORT;
	return room >= used + WR_SIG_LEN ? WR_SIG_KIND_FULL :
					   WR_SIG_KIND_COMPACT;
}

/** The compact signature's stream and lane byte pair from a WR_SIG_ID. */
static inline uint16_t
wr_sig_compact_id(uint32_t id)
{
	return (uint16_t)((WR_SIG_STREAM(id) & 0xff) << 8 | (WR_SIG_LANE(id) & 0xff));
}

/** Write a compact signature (18 bytes) at @p p: low 48 bits of seq and tx_tsc. */
static inline void
wr_sig_encode_compact(uint8_t *p, const struct wr_sig *s)
{
	wr_put32(p, WR_SIG_COMPACT_MAGIC);
	wr_put16(p + 4, wr_sig_compact_id(s->stream_id));
	wr_put16(p + 6, s->seq >> 32);
	wr_put32(p + 8, (uint32_t)s->seq);
	wr_put16(p + 12, s->tx_tsc >> 32);
	wr_put32(p + 14, (uint32_t)s->tx_tsc);
}

/**
 * The 64-bit value whose low 48 bits are @p low48 and which is nearest to
 * @p near (within 2^47 either way): a compact signature's sequence against
 * the lane's next expected one, its TX TSC against the receive TSC.
 */
static inline uint64_t
wr_sig_extend48(uint64_t low48, uint64_t near)
{
	/* The difference's low 48 bits, sign-extended. */
	return near + (uint64_t)((int64_t)((low48 - near) << 16) >> 16);
}

/** Write a loss-only signature (16 bytes) at @p p; tx_tsc is not carried. */
static inline void
wr_sig_encode_short(uint8_t *p, const struct wr_sig *s)
{
	wr_put32(p, WR_SIG_SHORT_MAGIC);
	wr_put32(p + 4, s->stream_id);
	wr_put64(p + 8, s->seq);
}

/**
 * Read either signature at @p p, of which @p avail bytes are readable
 * (at least WR_SIG_SHORT_LEN).
 * @return WR_SIG_KIND_FULL, WR_SIG_KIND_SHORT (tx_tsc set to 0),
 *         WR_SIG_KIND_COMPACT (seq and tx_tsc their low 48 bits: see
 *         wr_sig_extend48()), or -1 when no magic is there (or a
 *         signature is cut short).
 */
static inline int
wr_sig_decode_any(const uint8_t *p, uint32_t avail, struct wr_sig *s)
{
	uint32_t magic = wr_get32(p);

	if (magic == WR_SIG_SHORT_MAGIC) {
		s->stream_id = wr_get32(p + 4);
		s->seq = wr_get64(p + 8);
		s->tx_tsc = 0;
		return WR_SIG_KIND_SHORT;
	}
	if (magic == WR_SIG_COMPACT_MAGIC) {
		uint16_t id;

		if (avail < WR_SIG_COMPACT_LEN)
			return -1;
		id = wr_get16(p + 4);
		s->stream_id = WR_SIG_ID(id >> 8, id & 0xff);
		s->seq = wr_get64(p + 4) & WR_SIG_COMPACT_MASK;
		s->tx_tsc = wr_get64(p + 10) & WR_SIG_COMPACT_MASK;
		return WR_SIG_KIND_COMPACT;
	}
	if (magic != WR_SIG_MAGIC || avail < WR_SIG_LEN)
		return -1;
	s->stream_id = wr_get32(p + 4);
	s->seq = wr_get64(p + 8);
	s->tx_tsc = wr_get64(p + 16);
	return WR_SIG_KIND_FULL;
}

/**
 * Read a full signature at @p p (at least WR_SIG_LEN bytes readable).
 * @return 0, or -1 when the magic is not there.
 */
static inline int
wr_sig_decode(const uint8_t *p, struct wr_sig *s)
{
	if (wr_get32(p) != WR_SIG_MAGIC)
		return -1;
	s->stream_id = wr_get32(p + 4);
	s->seq = wr_get64(p + 8);
	s->tx_tsc = wr_get64(p + 16);
	return 0;
}

#endif /* WR_SIG_H */
