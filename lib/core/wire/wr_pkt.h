/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_pkt: the one parser of received header stacks (RX signatures, ARP/ND, rtt, capture rewrites). */
#ifndef WR_PKT_H
#define WR_PKT_H

/**
 * @file
 * Walks a received frame's headers with the protocol modules' own receive
 * rules (wr_proto.h: wr_proto_rx, wr_proto_rx_next): from the link header
 * (Ethernet), each header says how long it is and names the next, and the
 * registry says which module that name stands for, until a header names
 * nothing (an L4 header, ARP), names what no module is (an unknown
 * EtherType, a UDP port of no tunnel) or is not what its name said (a
 * datagram to port 4789 that is no VXLAN).  So every stack the modules can
 * build is recognised, to any depth of tags and tunnels, with nothing
 * written here about any protocol; a new module is parsed as soon as it
 * is registered.
 *
 * The payload starts after the last header recognised: that is where
 * wr_frame puts the latency signature, so RX finds it in every stack
 * wr_frame builds.  A `raw` layer has nothing on the wire that says what it
 * is: its length comes from the hints the receiver was given (the streams'
 * templates, wr_frame_tmpl_rx_hint), keyed by what the layer below names.
 *
 * Pure functions of the bytes; any thread.
 */

#include <stdint.h>

#include "wr_wire.h"

struct wr_proto;

/** Most layers one walk records (deeper stacks stop there). */
#define WR_PKT_LAYERS_MAX 16
/** Most raw-layer hints one receiver holds. */
#define WR_PKT_RAW_MAX 8

/** A raw layer: the name the layer below gives it and its length. */
struct wr_pkt_raw {
	uint8_t carry;      /**< enum wr_carry */
	uint32_t value;
	uint16_t len;
};

/** The raw layers a receiver may meet (those of the streams it expects). */
struct wr_pkt_hints {
	uint32_t n;
	struct wr_pkt_raw raw[WR_PKT_RAW_MAX];
};

/** What wr_pkt_parse() found. */
struct wr_pkt {
	uint16_t l2_len;    /**< the link header and the tags after it */
	uint16_t ethertype; /**< the EtherType after the tags */
	uint8_t n_tags;     /**< 802.1Q/802.1ad tags in the L2 header */
	uint8_t n;          /**< layers recognised */
	const struct wr_proto *proto[WR_PKT_LAYERS_MAX]; /**< outermost first */
	uint16_t off[WR_PKT_LAYERS_MAX];
	uint16_t pay_off;   /**< first byte after the last layer recognised */
};

/**
 * Parse the link header and its tags only (ARP, ND), however many.
 * @return 0, or -EINVAL for a frame too short for them.
 */
int wr_pkt_parse_l2(const uint8_t *frame, uint32_t len, struct wr_pkt *out);

/**
 * Parse the whole stack; @p hints (may be NULL) give the length of a raw
 * layer where the walk meets one.
 * @return 0; -EINVAL when the frame is shorter than a header it announces
 *         (out holds what was found before it).
 */
int wr_pkt_parse(const uint8_t *frame, uint32_t len,
		 const struct wr_pkt_hints *hints, struct wr_pkt *out);

/**
 * Add a raw layer to @p h (a duplicate is not added twice).
 * @return 0, -ENOSPC when @p h is full.
 */
int wr_pkt_hints_add(struct wr_pkt_hints *h, const struct wr_pkt_raw *raw);

#endif /* WR_PKT_H */
