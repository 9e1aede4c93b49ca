/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_pkt: the one parser of received header stacks (RX signatures, ARP/ND, rtt). */
#ifndef WR_PKT_H
#define WR_PKT_H

/**
 * @file
 * Walks a received frame's headers as far as it understands them: Ethernet
 * II, any number of 802.1Q / 802.1ad tags (TPID 0x8100, 0x88a8, 0x9100),
 * an MPLS label stack (IPv4 or IPv6 below it, by the version nibble), IPv4
 * (options skipped; a fragment other than the first stops the walk), IPv6
 * (no extension headers), UDP, TCP (options skipped), ICMP, ICMPv6, GRE
 * (with checksum, key and sequence flags) and VXLAN (UDP port 4789) to the
 * inner frame.  The payload starts after the innermost L4 header, or after
 * the Ethernet header and tags when the EtherType is none of the above (a
 * raw L2 frame): that is where wr_frame puts the latency signature, so RX
 * finds it in every stack wr_frame builds (but one with a raw layer).
 *
 * Pure functions of the bytes; any thread.  The EtherType and protocol
 * numbers every module uses are here (and in the protocol modules).
 */

#include <stdint.h>

#include "wr_wire.h"

#define WR_PKT_NO_VLAN (-1)

/** What wr_pkt_parse() found: offsets into the frame, 0 when absent. */
struct wr_pkt {
	uint16_t l2_len;    /**< outer Ethernet header + tags */
	uint16_t ethertype; /**< outer EtherType after the tags */
	int32_t vlan_tci;   /**< first tag's TCI, or WR_PKT_NO_VLAN */
	uint16_t l3_off;    /**< innermost IP header */
	uint16_t l3_type;   /**< its EtherType (IPv4 or IPv6), 0 if none */
	uint16_t l4_off;    /**< innermost L4 header */
	uint8_t l4_proto;   /**< its IP protocol number, 0 if none */
	uint16_t pay_off;   /**< first byte after the innermost L4 header */
};

/**
 * Parse the outer Ethernet header and its tags only (ARP, ND).
 * @return 0, or -EINVAL for a frame too short for them.
 */
int wr_pkt_parse_l2(const uint8_t *frame, uint32_t len, struct wr_pkt *out);

/**
 * Parse the whole stack.
 * @return 0; -EINVAL when the frame is shorter than a header it announces
 *         (out holds what was found before it).
 */
int wr_pkt_parse(const uint8_t *frame, uint32_t len, struct wr_pkt *out);

#endif /* WR_PKT_H */
