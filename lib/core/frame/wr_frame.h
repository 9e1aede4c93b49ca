/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame: frame templates built once per stream, and the per-packet generator. */
#ifndef WR_FRAME_H
#define WR_FRAME_H

/**
 * @file
 * A template (struct wr_frame_tmpl) is compiled once per stream from its
 * layer stack (wr_proto.h; a shorthand stream's is eth/[vlan]/ipv4/udp):
 * the frame of packet 0 at the stream's largest size, with every constant
 * byte in place, plus a flat edit table the per-packet code runs without
 * knowing any protocol: each varying field's offset, width (1 to 16 bytes),
 * bits and the running checksums it is in; the length fields that follow
 * the size; one checksum per checksummed layer, innermost first, with the
 * one's-complement sum of its constant part (pseudo-header included for
 * UDP, TCP and ICMPv6 over IPv4 or IPv6); a prefix-sum table of the payload
 * for variable sizes; the size cycle.
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
 * Checksums: the template stores, per checksummed layer (an IPv4 header;
 * a UDP, TCP, ICMP or ICMPv6 message), the one's-complement sum of every
 * word of its region (and pseudo-header) that never changes.  Per packet,
 * wr_frame_gen_next adds the varying words (fields, lengths, and for
 * variable sizes the payload's sum from a prefix-sum table indexed by
 * payload length; a field at an odd offset of a region is added shifted by
 * 8 bits, the byte swap of RFC 1071), folds and complements, inner layers
 * first: an outer checksum over an inner one (VXLAN's UDP over IPv6) adds
 * the inner one's final value.  One's-complement addition is
 * associative and commutative, so this is exactly the RFC 1624 incremental
 * update HC' = ~(~HC + ~m + m') applied from the constant part instead of
 * from the previous frame; it needs neither the old words nor the old
 * checksum (so a buffer may hold any earlier frame), never touches the
 * payload, and costs a few adds per varying field instead of a pass over
 * up to 9000 bytes.  A UDP checksum that computes to 0 is sent as 0xffff
 * (RFC 768).  Nothing at all is done for a field that never varies, and the
 * IPv4 (UDP) checksum is not rewritten when nothing it covers varies.
 *
 * A CRC32c (SCTP) cannot be updated that way by a few adds: it is computed
 * whole over the frame's final bytes, once per frame, only when something
 * under it varies (a field, the size, a signature: then by
 * wr_frame_sig_write, after the signature), and an outer one's-complement
 * checksum over it adds its four bytes.
 *
 * Sizes: INC and MIX are tabulated once; a MIX cycle holds sum(weights)
 * slots (weights first divided by their GCD, which leaves the order
 * unchanged) in the order of nginx's smooth weighted round-robin: on every
 * slot each size gains its weight, the largest current value (the first
 * listed on ties) is sent and loses the total.  E.g. 5:1:1 gives
 * a a b a c a a; simple IMIX 64:7, 594:4, 1518:1 never sends 594 or 1518
 * twice in a row.  A reduced cycle longer than 2^20 slots is rejected.
 *
 * Per-packet cost: no division, no allocation, no loop over bytes; a
 * compare-and-subtract per sequenced field to advance by the stride (an
 * odometer add with carry for PRODUCT, usually stopping at the first
 * digit), one hash per RANDOM field.
 *
 * Use from a TX loop (one struct wr_frame_gen per lcore, in its context):
 *
 *     wr_frame_gen_init(&g, t, lcore_rank, n_tx_lcores);
 *     // once per buffer (e.g. per mbuf when the pool is created):
 *     memcpy(data, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
 *     // per packet, unless wr_frame_tmpl_is_static(t):
 *     len = wr_frame_gen_next(&g, data);   // frame g.index, then advances
 *     if (wr_frame_tmpl_sig_off(t))        // latency streams
 *             wr_frame_sig_write(t, data, len, stream_id, seq, tsc);
 *     // data_len = pkt_len = len (the NIC appends the FCS)
 *
 * Sources: the layer stack above is one of the template's sources; a
 * `frame:` stream with TRex's field engine (wr_fe.h) is another.  Which
 * one builds a stream is decided once, by wr_frame_tmpl_create(), through
 * the table of wr_frame_src.h; everything here works for any of them.
 *
 * Threads: a template is read-only after wr_frame_tmpl_create() and may be
 * shared by lcores; each lcore owns its generator.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_fe.h"
#include "wr_frame_src.h"
#include "wr_stream.h"

struct wr_frame_tmpl;

/** Most fields of one stream that vary per packet. */
#define WR_FRAME_VARY_MAX 64

/**
 * Build a stream's template.
 * @param s          the stream (validated by the loader)
 * @param stream_id  the stream's index in its file (written in signatures)
 * @param out        the new template; free with wr_frame_tmpl_free()
 * @param err        filled when the stream cannot be built: a frame too
 *                   small for its headers and signature (a latency stream
 *                   needs 70 bytes, 74 with a VLAN tag), a size outside
 *                   64..9018, a value wider than its field, an empty list
 *                   or pattern, an INC/DEC step of 0, a MIX cycle too long
 * @return 0, -EINVAL, -ENOMEM
 *
 * The stream's size.min/size.max are not trusted: they are recomputed from
 * the size mode.  A vlan.* field of a stream without a tag is ignored.
 */
int wr_frame_tmpl_create(const struct wr_stream *s, uint32_t stream_id,
			 struct wr_frame_tmpl **out, struct wr_error *err);

/** Free template @p t (NULL-safe). */
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

/**
 * True when the stream's frames have more than one size: the data path
 * then sets each mbuf's length per frame; otherwise the lengths written
 * when the mbufs were filled with the template stay right.
 */
bool wr_frame_tmpl_size_varies(const struct wr_frame_tmpl *t);

/** Offset of the latency signature in the frame, 0 when the stream has none. */
uint16_t wr_frame_tmpl_sig_off(const struct wr_frame_tmpl *t);

/**
 * Which signature the stream's frames carry (WR_SIG_KIND_* of wr_sig.h:
 * the full one where the smallest frame holds it, else the compact one; the
 * loss-only one for `latency: loss`), or -1 when none.
 */
int wr_frame_tmpl_sig_kind(const struct wr_frame_tmpl *t);

/**
 * What a NIC needs to compute a stream's checksums itself: one IPv4 or
 * IPv6 header (l2_len bytes in) under one UDP or TCP header, no tunnel.
 * ok is false for every other stack: those keep software checksums.
 */
struct wr_frame_offload {
	bool ok;
	bool ipv6;
	bool tcp;
	uint16_t l2_len;
	uint16_t l3_len;
	uint16_t l4_csum_off;
};

/** The stream's offload description (never NULL). */
const struct wr_frame_offload *
wr_frame_tmpl_offload(const struct wr_frame_tmpl *t);

struct wr_proto;

/**
 * The stack the template was compiled from, outermost first: the protocol
 * and offset of each layer (either array may be NULL; each must hold
 * WR_LAYERS_MAX entries).  @return the number of layers.
 */
uint32_t wr_frame_tmpl_layers(const struct wr_frame_tmpl *t,
			      const struct wr_proto **proto, uint16_t *off);

struct wr_pkt_raw;

/**
 * What a receiver needs to know to walk past the stream's raw layer, which
 * nothing on the wire names (wr_pkt.h): the name the layer below gives it
 * in packet 0 and its length.  @return 0, or -ENOENT when the stack has no
 * raw layer.
 */
int wr_frame_tmpl_rx_hint(const struct wr_frame_tmpl *t,
			  struct wr_pkt_raw *out);

/**
 * The tags of packet 0 of stream @p s (each layer with wr_proto.tag after
 * the link header: TPID and TCI, 4 bytes each, as on the wire) into
 * @p tags (@p cap bytes): what an ARP or ND question for the stream carries.
 * @return their length (0 untagged), -ENOSPC (more than @p cap), -EINVAL
 *         (the stream does not build), -ENOMEM.
 */
int wr_frame_l2_tags(const struct wr_stream *s, uint8_t *tags, uint16_t cap);

/**
 * Where the payload starts: the byte after the innermost UDP or TCP header
 * (a latency signature, a stream's payload), the same for every frame of
 * the stream whatever its size.  A frame of S bytes (FCS included) carries
 * S - 4 - offset bytes of goodput.
 * @return the offset, or -ENOENT when the stack has no UDP or TCP layer.
 */
int wr_frame_tmpl_payload_off(const struct wr_frame_tmpl *t);

/**
 * The per-lcore cursor.  Its fields are private to the template's source
 * (wr_frame_src.h); it is public so that a lcore context can embed it (no
 * allocation, no pointer chase on the hot path).  ops, t, src, index and
 * stride are every source's; the rest is the layer stack's, but fe, TRex's
 * field engine's.
 *
 * "Varying" fields are those whose value can change from packet to packet
 * (a non-FIXED mode with more than one value).  The template keeps them in a
 * compact array of slots: first the sequenced ones (INC, DEC, LIST) in
 * stack order (outer layer first, each layer's fields in its module's
 * order), then the RANDOM ones; pos[] and stride_step[] are indexed
 * by slot, not by field id.
 */
struct wr_frame_gen {
	const struct wr_frame_src_ops *ops; /**< the template's source's */
	const struct wr_frame_tmpl *t;
	const struct wr_frame_src *src;     /**< t's head */
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
	uint64_t pos[WR_FRAME_VARY_MAX];
	/**
	 * Per sequenced slot: TOGETHER, stride mod period; PRODUCT, the
	 * slot's digit of stride in the odometer's mixed radix.
	 */
	uint64_t stride_step[WR_FRAME_VARY_MAX];
	uint64_t size_pos;    /**< position in the size table (INC, MIX) */
	uint64_t size_stride; /**< stride mod the size table's length */
	uint16_t fm;          /**< a shape frame by frame (wr_frame_gen.c, fm_burst), 0: none */
	struct wr_fe_cursor fe; /**< a frame: stream with vars: (wr_fe.h) */
};

/**
 * Start a cursor at packet index @p first, advancing by @p stride (>= 1;
 * 0 is taken as 1).  Any first is valid: the cursor jumps there directly
 * (a few divisions, here only).
 */
void wr_frame_gen_init(struct wr_frame_gen *g, const struct wr_frame_tmpl *t,
		       uint64_t first, uint32_t stride);

/**
 * Write the frame for the cursor's index into @p buf and advance.
 * @p buf must hold the template or an earlier frame of the same template
 * (at least wr_frame_tmpl_max_len() bytes).  For a latency stream the
 * frame is complete only after wr_frame_sig_write(): until then its L4
 * checksum covers a zero signature area, whatever the buffer holds there.
 * @return the frame's length in bytes, FCS excluded (size - 4).
 */
static inline uint16_t
wr_frame_gen_next(struct wr_frame_gen *g, uint8_t *buf)
{
	return g->ops->next(g, buf);
}

/** Most frames one wr_frame_gen_burst() call writes. */
#define WR_FRAME_BURST_MAX 512

/**
 * The next @p n frames (n <= WR_FRAME_BURST_MAX) into objs[k] + @p off (an
 * mbuf array: the data of every mbuf of one pool is at the same offset,
 * which saves building an array of data pointers), their lengths into
 * @p lens, exactly as n calls of wr_frame_gen_next() would.  @p lens may be
 * NULL when the stream has one size (wr_frame_tmpl_size_varies() false).
 * Faster: each varying field is handled for the whole burst in one tight
 * loop (field outside, frames inside, as VPP's vector nodes do), so the
 * per-field dispatch, and the one call through the source's table, are
 * paid once per burst instead of once per frame.
 */
static inline void
wr_frame_gen_burst_at(struct wr_frame_gen *g, void **objs, uint32_t off,
		      uint16_t *lens, unsigned int n)
{
	g->ops->burst_at(g, objs, off, lens, n);
}

/** The same into @p bufs[0..n-1] (data pointers). */
static inline void
wr_frame_gen_burst(struct wr_frame_gen *g, uint8_t **bufs, uint16_t *lens,
		   unsigned int n)
{
	g->ops->burst_at(g, (void **)bufs, 0, lens, n);
}

/**
 * Write the latency signature into a frame written by wr_frame_gen_next()
 * (or into a copy of the template) and complete the checksums over it (its
 * L4 one, and an outer UDP one over that).  Call it once per
 * wr_frame_gen_next(): the checksums it starts from are those for a zero
 * signature.  @p len is what wr_frame_gen_next returned.  Does
 * nothing for a stream without a signature.
 */
void wr_frame_sig_write(const struct wr_frame_tmpl *t, uint8_t *buf,
			uint16_t len, uint32_t stream_id, uint64_t seq,
			uint64_t tx_tsc);

struct wr_pkt_hints;

/**
 * Offset of the signature in a received @p frame of @p len bytes: after
 * the last header the protocol modules recognise (wr_pkt.h; @p hints, which
 * may be NULL, give the length of a raw layer), where a template puts it;
 * -1 when there is no room there for a (loss-only, at least) signature.
 * Which signature is there, and whether a full one fits, is for
 * wr_sig_decode_any().  Pure: the RX path, captures and rtt use it.
 */
int wr_frame_sig_offset(const uint8_t *frame, uint32_t len,
			const struct wr_pkt_hints *hints);

/**
 * Frame size (FCS included) of packet @p index without writing anything:
 * for reports and for planning.
 */
uint16_t wr_frame_size_at(const struct wr_frame_tmpl *t, uint64_t index);


/**
 * Write the first @p count frames (indices 0..count-1) of stream
 * @p stream_index of @p f, or of every stream when @p stream_index < 0
 * (stream after stream, in file order, count frames each), to a pcap file
 * (DLT_EN10MB, without FCS) through libpcap's dumper.  Latency streams carry
 * the signature a run would send with seq = index and tx_tsc = 0; record
 * timestamps are synthetic (record n at n microseconds), so the file is a
 * function of the streams alone.  The file is written through
 * wr_out_atomic() (a temporary beside @p path, synced and renamed when
 * complete), so a failure never leaves a truncated file or the temporary,
 * and a @p path that is a device, a FIFO or a directory is not replaced.
 * @return 0, -EINVAL (err filled: no such stream, a stream that cannot be
 *         built), -EIO (err filled: cannot create, write or rename: no such
 *         directory, a full disk, not a regular file), -ENOMEM.
 */
int wr_frame_dump_pcap(const struct wr_stream_file *f, int stream_index,
		       uint64_t count, const char *path, struct wr_error *err);

#endif /* WR_FRAME_H */
