/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_slaac: IPv6 stateless address autoconfiguration of emulated hosts (RFC 4861 router discovery, RFC 4862). */
#ifndef WR_SLAAC_H
#define WR_SLAAC_H

/**
 * @file
 * A host group with `ipv6: slaac` solicits a router when it starts (RFC
 * 4861 section 6.3.7: a random delay up to MAX_RTR_SOLICITATION_DELAY,
 * 1 s, then up to MAX_RTR_SOLICITATIONS, 3, Router Solicitations
 * RTR_SOLICITATION_INTERVAL, 4 s, apart) and takes Router Advertisements
 * (validated as section 6.1.2 says: hop limit 255, checksum, code 0, a
 * link-local source, options of non-zero length within the message):
 *
 * - each Prefix Information option with the A flag and a /64 prefix
 *   gives the host the prefix with its modified EUI-64 interface
 *   identifier (RFC 4291 appendix A), origin SLAAC, with the option's
 *   valid and preferred lifetimes; a prefix already held is updated as
 *   RFC 4862 section 5.5.3 (e) says, the "two hours" rule included;
 * - a non-zero router lifetime makes the RA's source the host's default
 *   router (wr_hosts_set_gw6), until the lifetime runs out;
 * - the M (managed) and O (other configuration) flags are kept and shown
 *   in the host's state ("configured M", "configured O").
 *
 * An RA to a multicast address is taken by every SLAAC host on the link
 * (the VLANs it came on); one to a unicast address by the host of that
 * MAC.  Bring-up is done with the first address; after the last
 * solicitation without an RA it counts as failed (the host still takes an
 * unsolicited RA later).
 *
 * Config: `ipv6: slaac`, or `ipv6: {slaac: {solicitations: N}}` (0..10,
 * default 3).
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_host.h"

#define WR_ICMP6_RS 133
#define WR_ICMP6_RA 134
/** Prefix Information options taken from one RA. */
#define WR_SLAAC_PIO_MAX 8

/** The config (a flat struct, freed with free()). */
struct wr_slaac_cfg {
	uint8_t solicitations;
	struct wr_host_where where;
};

/** One Prefix Information option (RFC 4861 section 4.6.2). */
struct wr_slaac_pio {
	__uint128_t prefix;
	uint8_t len;
	uint8_t flags;          /**< 0x80 on-link (L), 0x40 autonomous (A) */
	uint32_t valid_s;
	uint32_t preferred_s;
};

/** A parsed Router Advertisement. */
struct wr_slaac_ra {
	uint8_t cur_hop_limit;
	uint8_t flags;          /**< 0x80 managed (M), 0x40 other (O) */
	uint16_t router_lifetime_s;
	bool has_sll;
	uint8_t sll[6];         /**< source link-layer address option */
	uint8_t n_pio;
	struct wr_slaac_pio pio[WR_SLAAC_PIO_MAX];
};

/** Why an RA was refused: the counters' names. */
#define WR_SLAAC_BAD_LIST(X)                                                 \
	X(SHORT, "short")               /* under 16 bytes of ICMPv6 */       \
	X(HOP_LIMIT, "bad_hop_limit")   /* not 255: it crossed a router */   \
	X(CSUM, "bad_csum")                                                  \
	X(CODE, "bad_code")                                                  \
	X(SOURCE, "bad_source")         /* not link-local */                 \
	X(OPTION, "bad_option")         /* length 0, or past the end */      \
	X(PIO, "bad_pio")               /* a prefix option not 32 bytes */

enum wr_slaac_bad {
	WR_SLAAC_OK = 0,
#define X(e, s) WR_SLAAC_BAD_##e,
	WR_SLAAC_BAD_LIST(X)
#undef X
	WR_SLAAC_BAD__COUNT
};

/**
 * Validate and parse the Router Advertisement at @p ip6 (its IPv6 header;
 * @p icmp_len bytes of ICMPv6 follow at @p icmp) as RFC 4861 section
 * 6.1.2 says.  @return WR_SLAAC_OK, or why not.
 */
enum wr_slaac_bad wr_slaac_parse(const uint8_t *ip6, const uint8_t *icmp,
				 uint32_t icmp_len, struct wr_slaac_ra *ra);

/** @p prefix's upper 64 bits with @p mac's modified EUI-64 identifier. */
__uint128_t wr_slaac_addr(__uint128_t prefix, const uint8_t mac[6]);

extern const struct wr_host_proto wr_host_proto_slaac;

#endif /* WR_SLAAC_H */
