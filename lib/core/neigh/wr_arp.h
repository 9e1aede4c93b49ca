/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_arp: ARP (RFC 826) and ICMP echo (RFC 792) frames parsed and built without EAL. */
#ifndef WR_ARP_H
#define WR_ARP_H

/**
 * @file
 * What a port needs to look like a host on an IPv4 network: it answers ARP
 * requests and ICMP echo requests for the addresses its streams send from,
 * and it asks who has the next hop a stream sends to (`eth: {dst: arp}`,
 * see doc/arp.md).  The data path (lib/dp/wr_neigh) owns the mbufs; this
 * module only reads and writes bytes, so every frame is unit-tested against
 * golden bytes.
 *
 * Frames: Ethernet II behind any number of 802.1Q/802.1ad tags (an answer
 * is written in place and keeps the request's tags; a question carries the
 * stream's), carrying ARP for IPv4 over Ethernet (htype 1, ptype 0x0800,
 * hlen 6, plen 4) or IPv4 (without options or with, header length from
 * IHL) / ICMP.  Frames shorter than the 60 bytes Ethernet needs before its
 * FCS (plus 4 a tag, so that each stays 60 once a bridge strips its tags)
 * are padded with zeros.
 *
 * Addresses are host-order integers as in wr_stream.h (an IPv4 address is
 * its 32 bits, an IPv6 one its 128, a MAC its 48 bits); MACs in frames are
 * byte arrays.
 *
 * Threads: the functions are pure, except that a struct wr_addrs must not
 * be changed while another thread reads it (it is built on the main lcore
 * before the RX lcore starts, and read-only afterwards).
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_pkt.h"
#include "wr_stream.h"

/** ARP for IPv4 over Ethernet: 28 bytes (RFC 826). */
#define WR_ARP_LEN 28
#define WR_ARP_OP_REQUEST 1
#define WR_ARP_OP_REPLY 2
#define WR_ICMP_ECHO_REPLY 0
#define WR_ICMP_ECHO_REQUEST 8
/** Most tags a question carries: a stream's tags, bounded as its stack is. */
#define WR_ARP_TAGS_MAX 8
/** Room a built ARP frame needs: 60 bytes, and 4 a tag. */
#define WR_ARP_FRAME_MAX (WR_ETH_MIN_LEN + WR_ARP_TAGS_MAX * WR_TAG_HLEN)

/** ff:ff:ff:ff:ff:ff, where ARP requests go. */
extern const uint8_t wr_eth_broadcast[6];

/**
 * A set of addresses of one family (IPv4 or IPv6, as integers), as sorted,
 * disjoint, inclusive ranges: what a port answers ARP and ND for.
 */
struct wr_addrs {
	struct wr_addr_range {
		__uint128_t lo;
		__uint128_t hi;
	} *r;                   /**< owned; n entries */
	uint32_t n;
	uint32_t cap;
};

/** A parsed ARP packet. */
struct wr_arp_pkt {
	uint16_t op;            /**< WR_ARP_OP_* */
	uint8_t sha[6];         /**< sender hardware address */
	uint32_t spa;           /**< sender protocol (IPv4) address */
	uint8_t tha[6];
	uint32_t tpa;
};

/** What wr_arp_answer() found in a frame. */
enum wr_arp_verdict {
	WR_ARP_IGNORE = 0,      /**< not for us, or not ARP/ICMP echo */
	WR_ARP_ANSWER_ARP,      /**< an ARP request for one of our addresses: answered */
	WR_ARP_ANSWER_ICMP,     /**< an ICMP echo request to one of our addresses: answered */
	WR_ARP_GOT_REPLY,       /**< an ARP reply (for the resolver): see the wr_arp_pkt */
};

/** Empty set. */
void wr_addrs_init(struct wr_addrs *a);

/** Free what the set owns; it is empty again.  NULL-safe. */
void wr_addrs_free(struct wr_addrs *a);

/**
 * Add the addresses @p lo..@p hi (inclusive; lo <= hi).  Overlapping and
 * adjacent ranges merge.  @return 0, -EINVAL (lo > hi), -ENOMEM.
 */
int wr_addrs_add(struct wr_addrs *a, __uint128_t lo, __uint128_t hi);

/**
 * Add every address a header field can take (an ipv4.src or ipv6.src
 * field): its value, its from..to range (INC, DEC, RANDOM) or each list
 * entry.  @return 0, -ENOMEM.
 */
int wr_addrs_add_field(struct wr_addrs *a, const struct wr_field_spec *fs);

/** True when @p ip is in the set (binary search). */
bool wr_addrs_has(const struct wr_addrs *a, __uint128_t ip);

/**
 * The link header of a frame built here: @p dst, @p src, the tags
 * @p tags (@p tags_len bytes: TPID and TCI pairs, as a stream's frames
 * carry them; NULL for none), EtherType @p type.
 * @return the header's length (14 + tags_len).
 */
uint32_t wr_arp_l2_head(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
			const uint8_t *tags, uint16_t tags_len, uint16_t type);

/**
 * Parse an ARP frame (behind any number of tags).  @return 0, or -EINVAL
 * when @p frame is not ARP for IPv4 over Ethernet.
 */
int wr_arp_parse(const uint8_t *frame, uint32_t len, struct wr_arp_pkt *out);

/**
 * wr_arp_parse() for a frame whose link header is known to be @p l3 bytes
 * long and to carry ARP (a caller that walked the tags already).
 * @return 0, or -EINVAL.
 */
int wr_arp_parse_at(const uint8_t *frame, uint32_t len, uint32_t l3,
		    struct wr_arp_pkt *out);

/**
 * Turn the request @p req (parsed from @p frame, link header @p l2 bytes)
 * into its reply in place, from @p mac, behind the request's tags: what
 * wr_arp_answer() writes.  @p cap is the room from the frame's start.
 * @return the reply's length (60, and 4 a tag), 0 when it would not fit.
 */
uint32_t wr_arp_reply_at(uint8_t *frame, uint32_t l2, uint32_t cap,
			 const uint8_t mac[6], const struct wr_arp_pkt *req);

/**
 * Build an ARP frame of opcode @p op into @p buf (at least
 * WR_ARP_FRAME_MAX bytes): Ethernet destination @p eth_dst, source @p sha,
 * sender @p sha/@p spa, target @p tha/@p tpa, behind the tags @p tags
 * (@p tags_len bytes, at most WR_ARP_TAGS_MAX tags; NULL for none).  A
 * request goes to ff:ff:ff:ff:ff:ff with tha zero (RFC 826; RFC 5227
 * section 1.1 allows either).
 * @return the frame's length (60, and 4 a tag), FCS excluded.
 */
uint16_t wr_arp_build(uint8_t *buf, uint16_t op, const uint8_t eth_dst[6],
		      const uint8_t sha[6], uint32_t spa, const uint8_t tha[6],
		      uint32_t tpa, const uint8_t *tags, uint16_t tags_len);

/**
 * Turn an ICMP echo request in @p frame (@p len bytes) into its reply, in
 * place, behind whatever tags it had: Ethernet and IPv4 addresses swapped
 * (the reply's source MAC is @p mac), TTL 64, ICMP type 0, both checksums
 * updated (RFC 1624 for the ICMP checksum: only the type word changes; the
 * IPv4 header checksum is recomputed).  Identifier, sequence and data stay
 * as they were, as RFC 792 asks.  Nothing is written unless the frame is
 * an echo request to an address in @p ours with a valid IPv4 header.
 * @return true when @p frame now holds the reply.
 */
bool wr_icmp_echo_reply(uint8_t *frame, uint32_t len, const uint8_t mac[6],
			const struct wr_addrs *ours);

/**
 * The responder: look at one received frame and answer it in place when it
 * is an ARP request for, or an ICMP echo request to, an address in
 * @p ours, behind any number of tags (the answer keeps them); the answer's
 * source MAC is @p mac.  An ARP reply is parsed into @p pkt for the
 * resolver (@p pkt may be NULL).  @p *len is updated to the answer's
 * length (an ARP reply is 60 bytes and 4 a tag); @p cap is the room the
 * buffer has from the frame's start: an answer that would not fit is not
 * written (IGNORE).
 * @return the verdict; the frame is changed only for WR_ARP_ANSWER_*.
 */
enum wr_arp_verdict wr_arp_answer(uint8_t *frame, uint32_t *len, uint32_t cap,
				  const uint8_t mac[6],
				  const struct wr_addrs *ours,
				  struct wr_arp_pkt *pkt);

/** A 48-bit MAC value @p v (wr_stream.h) to 6 bytes @p b, and back. */
void wr_mac_to_bytes(uint64_t v, uint8_t b[6]);
/** @return the 48-bit value of the MAC in @p b. */
uint64_t wr_mac_from_bytes(const uint8_t b[6]);

#endif /* WR_ARP_H */
