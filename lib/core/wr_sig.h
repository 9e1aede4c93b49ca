/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_sig: the latency signature carried right after the UDP header, shared by TX and RX. */
#ifndef WR_SIG_H
#define WR_SIG_H

/**
 * @file
 * Layout on the wire, all fields big-endian, 24 bytes, right after the UDP
 * header (payload offset 0):
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
 *    16  tx_tsc     u64  TSC read just before the burst went to the NIC
 *
 * The u32 at offset 4 is WR_SIG_ID(stream, lane): wr_frame_sig_write()
 * takes it whole.
 *
 * The receiver recognises a frame by the magic at the UDP payload, whatever
 * a reflector did to MAC, IP addresses and ports.  The frame builder leaves
 * these 24 bytes zero in the template so the UDP checksum can be completed
 * incrementally when they are written (wr_frame_sig_write()).
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
 * @return 0 for a full signature, 1 for a loss-only one (tx_tsc set to 0),
 *         -1 when neither magic is there (or a full one is cut short).
 */
static inline int
wr_sig_decode_any(const uint8_t *p, uint32_t avail, struct wr_sig *s)
{
	uint32_t magic = wr_get32(p);

	if (magic == WR_SIG_SHORT_MAGIC) {
		s->stream_id = wr_get32(p + 4);
		s->seq = wr_get64(p + 8);
		s->tx_tsc = 0;
		return 1;
	}
	if (magic != WR_SIG_MAGIC || avail < WR_SIG_LEN)
		return -1;
	s->stream_id = wr_get32(p + 4);
	s->seq = wr_get64(p + 8);
	s->tx_tsc = wr_get64(p + 16);
	return 0;
}

/**
 * Read a signature at @p p (at least WR_SIG_LEN bytes readable).
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
