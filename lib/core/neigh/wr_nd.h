/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_nd: IPv6 Neighbor Discovery (RFC 4861) and ICMPv6 echo (RFC 4443) frames parsed and built without EAL. */
#ifndef WR_ND_H
#define WR_ND_H

/**
 * @file
 * The IPv6 half of what wr_arp does for IPv4: a port answers Neighbor
 * Solicitations and ICMPv6 echo requests for the IPv6 addresses its streams
 * send from, and resolves the IPv6 next hop of a stream that says
 * `eth: {dst: nd}` with a Neighbor Solicitation to the target's
 * solicited-node multicast address.  Frames: Ethernet II behind any number
 * of tags (an answer keeps them, a question carries the stream's), IPv6
 * without extension headers.
 * Addresses are 128-bit host-order integers, first byte on the wire most
 * significant (wr_stream.h), in a struct wr_addrs (wr_arp.h) as IPv4
 * addresses are.  Pure functions of the bytes.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_arp.h"
#include "wr_stream.h"

#define WR_ICMP6_ECHO_REQUEST 128
#define WR_ICMP6_ECHO_REPLY 129
#define WR_ICMP6_NS 135
#define WR_ICMP6_NA 136
/** An NA's flags (the high byte of its flags word, RFC 4861 4.4). */
#define WR_ND_NA_R 0x80   /**< router */
#define WR_ND_NA_S 0x40   /**< solicited */
#define WR_ND_NA_O 0x20   /**< override */
/** Room a built NS or NA needs: 14 + the tags + 40 + 32. */
#define WR_ND_FRAME_MAX (WR_ETH_HLEN + WR_ARP_TAGS_MAX * WR_TAG_HLEN + \
			 WR_IPV6_HLEN + 32)

/** What wr_nd_answer() found. */
enum wr_nd_verdict {
	WR_ND_IGNORE = 0,       /**< not ND or ICMPv6 echo for us */
	WR_ND_ANSWER_NS,        /**< an NS for one of our addresses: the NA is in the frame */
	WR_ND_ANSWER_ECHO,      /**< an echo request to one of our addresses: answered */
	WR_ND_GOT_NA,           /**< a Neighbor Advertisement (for the resolver) */
};

/** An advertisement received: who has @c target, at @c mac. */
struct wr_nd_pkt {
	__uint128_t target;
	uint8_t mac[6];
};

/**
 * The source addresses a stream sends from on its port's link: its
 * outermost IPv4 layer's src into @p v4 and its outermost IPv6 layer's src
 * into @p v6 (addresses inside a tunnel belong to another link).
 * @return 0, -ENOMEM.
 */
int wr_nd_stream_sources(const struct wr_stream *s, struct wr_addrs *v4,
			 struct wr_addrs *v6);

/**
 * The responder: answer in place an NS for (an NA with our MAC @p mac,
 * solicited and override flags, the target link-layer option) or an ICMPv6
 * echo request to an address in @p ours; report an NA in @p pkt (may be
 * NULL).  Only checksum-valid ICMPv6 with hop limit 255 (ND, RFC 4861
 * section 7.1) is taken.  The answer is written in place behind the
 * request's tags; @p cap is the room the buffer has from the frame's start:
 * an answer that would not fit is not written (IGNORE).
 * @return the verdict; *len is the answer's length.
 */
enum wr_nd_verdict wr_nd_answer(uint8_t *frame, uint32_t *len, uint32_t cap,
				const uint8_t mac[6],
				const struct wr_addrs *ours,
				struct wr_nd_pkt *pkt);

/**
 * Build a Neighbor Solicitation for @p target from @p src (our address)
 * and @p mac into @p buf (WR_ND_FRAME_MAX bytes), to the target's
 * solicited-node multicast address, behind the tags @p tags (@p tags_len
 * bytes, at most WR_ARP_TAGS_MAX tags; NULL for none).
 * From @p src 0 (::, duplicate address detection, RFC 4862 5.4.2) the
 * source link-layer option is left out (RFC 4861 4.3).
 * @return the frame's length, FCS excluded.
 */
uint16_t wr_nd_build_ns(uint8_t *buf, const uint8_t mac[6], __uint128_t src,
			__uint128_t target, const uint8_t *tags,
			uint16_t tags_len);

/**
 * Build a Neighbor Advertisement for @p target (flags WR_ND_NA_*) from
 * @p src to @p dst (Ethernet @p eth_dst; source @p mac, also the target
 * link-layer option) into @p buf (WR_ND_FRAME_MAX bytes), behind the tags
 * @p tags (@p tags_len bytes; NULL for none): an unsolicited NA to
 * ff02::1 (RFC 4861 7.2.6) or a solicited one.  wr_nd_answer() writes its
 * NAs with the same code.
 * @return the frame's length, FCS excluded.
 */
uint16_t wr_nd_build_na(uint8_t *buf, const uint8_t mac[6],
			const uint8_t eth_dst[6], __uint128_t src,
			__uint128_t dst, __uint128_t target, uint8_t flags,
			const uint8_t *tags, uint16_t tags_len);

#endif /* WR_ND_H */
