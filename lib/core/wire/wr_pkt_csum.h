/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_pkt_csum: the checksums a received frame holds, found and computed over the protocol registry. */
#ifndef WR_PKT_CSUM_H
#define WR_PKT_CSUM_H

/**
 * @file
 * A frame given as bytes (a capture's, a TRex stream's) is walked with the
 * one received-header parser (wr_pkt.h), and each header's module says
 * whether it carries a checksum, where, and what it covers (wr_proto.csum,
 * csum_off, rx_csum; enum wr_csum_rule): an IP header's own, one over the
 * rest of the IP datagram with or without the IP layer's pseudo-header
 * (its address fields by role, its protocol the module's ipproto), or
 * SCTP's CRC32c.  Nothing here names a protocol: a module registered with
 * a checksum has it found and computed, in every tunnel and behind every
 * extension header the parser walks.
 *
 * What is left as it is: a checksum over a datagram the frame does not
 * hold whole (a fragment, one cut short) and, where the IP layer allows
 * it (not IPv6: wr_proto.l4_csum_required), a checksum of 0 that means
 * none (UDP's, wr_proto.csum_ffff).
 *
 * Pure functions of the bytes; any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_proto.h"

/** Most checksums wr_pkt_fix_csums() computes in one frame. */
#define WR_PKT_CSUMS_MAX 16
/** rules argument of wr_pkt_csums(): the bit of an enum wr_csum_rule. */
#define WR_PKT_CSUM_RULE(r) (1u << (r))
/** The one's-complement sums (RFC 1071): all but CRC32c. */
#define WR_PKT_CSUM_SUM16 (WR_PKT_CSUM_RULE(WR_CSUM_HEADER) | \
			   WR_PKT_CSUM_RULE(WR_CSUM_PSEUDO) | \
			   WR_PKT_CSUM_RULE(WR_CSUM_PLAIN))
#define WR_PKT_CSUM_ALL (WR_PKT_CSUM_SUM16 | WR_PKT_CSUM_RULE(WR_CSUM_CRC32C))

/**
 * A checksum a frame holds, covering bytes [start, end): the header
 * (WR_CSUM_HEADER) or the header to the end of its IP datagram, with, for
 * WR_CSUM_PSEUDO, the pseudo-header of the IP header at @c ip: the
 * addresses at [addr, addr_end) (an IP layer's source and destination
 * fields, side by side in every registered one), the protocol @c ipproto
 * (named by the IP header's byte at @c proto_at) and the length.
 */
struct wr_csum_region {
	const struct wr_proto *proto; /**< the header's module */
	uint8_t rule;       /**< enum wr_csum_rule */
	bool ffff;          /**< a computed 0 is sent as 0xffff (RFC 768) */
	uint8_t ipproto;    /**< WR_CSUM_PSEUDO: the pseudo-header's protocol */
	uint16_t ip;        /**< offset of the IP header of its datagram */
	uint16_t addr;      /**< WR_CSUM_PSEUDO: the addresses' offsets */
	uint16_t addr_end;
	uint16_t proto_at;  /**< WR_CSUM_PSEUDO: the IP header's protocol byte */
	uint16_t start;
	uint16_t end;
	uint16_t csum;      /**< offset of the checksum field */
};

/**
 * The checksums of frame @p buf (@p len bytes) whose rule is in @p rules
 * (WR_PKT_CSUM_RULE bits), outermost first, at most @p max into @p out.
 * @return how many.
 */
unsigned int wr_pkt_csums(const uint8_t *buf, uint16_t len, unsigned int rules,
			  struct wr_csum_region *out, unsigned int max);

/**
 * The checksum of protocol @p p of the header at @p off whose IP header is
 * at @p ip (@p off == @p ip for the IP header's own checksum), as a
 * stream's list names it.
 * @return 0, -EINVAL (no IP header at @p ip, @p p has no checksum of that
 *         kind, or the header does not fit its datagram), -ENOENT (the IP
 *         header names another protocol right after it).
 */
int wr_pkt_csum_at(const uint8_t *buf, uint16_t len, const struct wr_proto *p,
		   uint16_t off, uint16_t ip, struct wr_csum_region *r);

/**
 * The registered protocols with a one's-complement checksum in every
 * header (what a field engine updates per frame), in registry order: the
 * @p k-th, NULL past the last.
 */
const struct wr_proto *wr_pkt_csum_kind(unsigned int k);
/** Most wr_pkt_csum_kind() returns. */
#define WR_PKT_CSUM_KINDS_MAX 16

/** wr_pkt_csum_kind()'s names, "ipv4, udp, ...", into @p buf (@p len
 * bytes).  @return buf. */
const char *wr_pkt_csum_kind_names(char *buf, size_t len);

/** Sum of @p r's pseudo-header (0 when it has none), its length the
 * region's. */
uint64_t wr_pkt_pseudo_sum(const uint8_t *buf, const struct wr_csum_region *r);

/** Compute and write the checksum of @p r. */
void wr_pkt_csum_fix(uint8_t *buf, const struct wr_csum_region *r);

/**
 * Recompute every checksum wr_pkt_csums() finds in @p buf (@p len
 * bytes), innermost first, so that one over a tunnel's payload sums the
 * inner ones' new values.
 */
void wr_pkt_fix_csums(uint8_t *buf, uint16_t len);

#endif /* WR_PKT_CSUM_H */
