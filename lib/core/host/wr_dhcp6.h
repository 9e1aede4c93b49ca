/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp6: the DHCPv6 client of emulated hosts (RFC 8415): IA_NA and IA_PD, renew, rebind, release. */
#ifndef WR_DHCP6_H
#define WR_DHCP6_H

/**
 * @file
 * A host group with `ipv6: dhcp` or `ipv6: {dhcp: {...}}` leases its IPv6
 * address (IA_NA) and/or a delegated prefix (IA_PD) from a DHCPv6 server
 * (RFC 8415):
 *
 *   SOLICIT  -> (ADVERTISEs collected for the first RT, the most
 *                preferred taken; preference 255 at once)
 *   REQUEST  -> REPLY: bound (the address to the host, origin DHCP)
 *   RENEW at T1 (to that server), REBIND at T2 (to any), the binding
 *   dropped when its valid lifetime ends, RELEASE when the run stops.
 *   With rapid_commit a REPLY to the SOLICIT binds at once (section 18.2.1).
 *
 * Messages go from the host's link-local address to All_DHCP_Relay_Agents_
 * and_Servers (ff02::1:2), UDP 546 -> 547.  The client's DUID is made from
 * its MAC: DUID-LL (type 3, the default) or DUID-LLT (type 1, time 0: a
 * generator has no storage to keep a DUID's creation time in, and a DUID
 * that is the same on every run keeps the host's lease).  The IAID of both
 * IAs is the last four bytes of the MAC.  Retransmission follows section 15
 * (IRT, MRT, MRC, MRD, RAND in [-0.1, 0.1] from the run's seeded generator).
 *
 * Config (the `dhcp` key under ipv6:; every key optional):
 *
 *   ipv6: {dhcp: {ia_na: true, ia_pd: {prefix_len: 56}, rapid_commit: false,
 *                 retries: 4, duid: ll}}
 *
 * ia_na (default true), ia_pd (default false; true, or a map whose
 * prefix_len is sent as the IAPREFIX hint), at least one of the two;
 * retries: SOLICITs (or REQUESTs) without an answer before the host's
 * bring-up counts as failed (it keeps soliciting at SOL_MAX_RT after).
 *
 * The messages' parser is wr_dhcp6_msg.h's (pure); the module
 * (wr_host_proto_dhcp6) runs on the host engine's thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_dhcp6_msg.h"
#include "wr_host.h"

/** The `dhcp` key's config (a flat struct, freed with free()). */
struct wr_dhcp6_cfg {
	bool ia_na;
	bool ia_pd;
	bool rapid_commit;
	uint8_t pd_len;         /**< IA_PD hint (IAPREFIX ::/pd_len), 0 = none */
	uint8_t duid_type;      /**< 1 (LLT) or 3 (LL) */
	uint16_t retries;       /**< transmissions before bring-up fails */
	struct wr_host_where where;
};

/** What a bound host holds (for the control plane: a delegated prefix is
 * no address of the host's, so it is nowhere else). */
struct wr_dhcp6_lease {
	bool has_addr;
	bool has_prefix;
	uint8_t prefix_len;
	__uint128_t addr;
	__uint128_t prefix;
	uint32_t addr_preferred_s;
	uint32_t addr_valid_s;
	uint32_t prefix_preferred_s;
	uint32_t prefix_valid_s;
	uint32_t t1_s;          /**< from since_ns; 0xffffffff: never */
	uint32_t t2_s;
	uint64_t since_ns;      /**< the REPLY that gave these lifetimes */
};

/**
 * Host @p h's lease (the service's thread, as every wr_hosts call).
 * @return 0; -ENOENT when @p h has no DHCPv6 config or holds nothing
 *         (not bound, renewing or rebinding).
 */
int wr_dhcp6_lease(const struct wr_hosts *hs, uint32_t h,
		   struct wr_dhcp6_lease *l);

extern const struct wr_host_proto wr_host_proto_dhcp6;

#endif /* WR_DHCP6_H */
