/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_wire: what the wire fixes: frame bounds, framing overhead, header lengths and protocol numbers. */
#ifndef WR_WIRE_H
#define WR_WIRE_H

/**
 * @file
 * Frame sizes are Ethernet frame sizes *including* the 4-byte FCS, as in
 * RFC 2544 and Ostinato: 64..9018.  The bytes handed to a NIC are size - 4
 * (the NIC appends the FCS).
 *
 * The EtherTypes, IP protocol numbers and UDP ports are IANA's; they are
 * named here once, for the protocol modules (what the layer below must say
 * to carry them) and for the few services that build frames outside a
 * stream (ARP, ND, capture rewrites).  Constants only; any thread.
 */

#define WR_FCS_LEN 4
/** IEEE 802.3: preamble 7 + SFD 1 + minimum inter-frame gap 12 bytes. */
#define WR_L1_OVERHEAD 20
#define WR_FRAME_MIN 64   /**< smallest Ethernet frame, FCS included */
#define WR_FRAME_MAX 9018 /**< jumbo frame as in RFC 2544 / Ostinato, FCS included */

#define WR_ETH_HLEN 14    /**< Ethernet II: dst, src, EtherType */
#define WR_TAG_HLEN 4     /**< an 802.1Q/802.1ad tag: TPID and TCI */
#define WR_IPV4_HLEN 20   /**< IPv4 without options */
#define WR_IPV6_HLEN 40
#define WR_UDP_HLEN 8
/** The smallest Ethernet frame without its FCS (IEEE 802.3: 64 - 4). */
#define WR_ETH_MIN_LEN (WR_FRAME_MIN - WR_FCS_LEN)

/* EtherTypes (IEEE 802 numbers, IANA's registry). */
#define WR_ETHERTYPE_IPV4 0x0800
#define WR_ETHERTYPE_ARP 0x0806
#define WR_ETHERTYPE_TEB 0x6558      /**< transparent Ethernet bridging: an Ethernet frame (GRE, Geneve) */
#define WR_ETHERTYPE_VLAN 0x8100     /**< IEEE 802.1Q C-tag */
#define WR_ETHERTYPE_IPV6 0x86dd
#define WR_ETHERTYPE_MPLS 0x8847
#define WR_ETHERTYPE_MPLS_MC 0x8848
#define WR_ETHERTYPE_QINQ 0x88a8     /**< IEEE 802.1ad S-tag */
#define WR_ETHERTYPE_EXP1 0x88b5     /**< IEEE 802 local experimental EtherType 1 */
#define WR_ETHERTYPE_QINQ_OLD 0x9100 /**< pre-802.1ad S-tag, still seen */

/* IP protocol numbers (IPv4 protocol, IPv6 next header). */
#define WR_IPPROTO_HOPOPTS 0         /**< IPv6 hop-by-hop options (RFC 8200) */
#define WR_IPPROTO_ICMP 1
#define WR_IPPROTO_IPV4 4
#define WR_IPPROTO_TCP 6
#define WR_IPPROTO_UDP 17
#define WR_IPPROTO_IPV6 41
#define WR_IPPROTO_ROUTING 43        /**< IPv6 routing header */
#define WR_IPPROTO_FRAGMENT 44       /**< IPv6 fragment header */
#define WR_IPPROTO_GRE 47
#define WR_IPPROTO_ICMPV6 58
#define WR_IPPROTO_NONE 59           /**< IPv6 no next header */
#define WR_IPPROTO_DSTOPTS 60        /**< IPv6 destination options */
#define WR_IPPROTO_SCTP 132
#define WR_IPPROTO_EXP 253           /**< RFC 3692 experimentation */

/* UDP ports (IANA). */
#define WR_UDP_PORT_GTPU 2152        /**< 3GPP TS 29.281 */
#define WR_UDP_PORT_VXLAN 4789       /**< RFC 7348 */
#define WR_UDP_PORT_GENEVE 6081      /**< RFC 8926 */

#endif /* WR_WIRE_H */
